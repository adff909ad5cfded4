"""The targets of the ingest, cache, token, host and batch figures, judged from a bench document.

Each verdict names the measured value, the threshold and the margin. A missed target gets a
profile of the thing that missed and the next step it points to (`pipeline.bench.misses`).
"""

from __future__ import annotations

from collections.abc import Mapping
from statistics import median

from pipeline.bench.document import (
    IngestImage,
    Measurements,
    Peer,
    RatioDoc,
    SummaryDoc,
    Target,
    ToolTotal,
)
from pipeline.bench.peers import breakdown
from pipeline.bench.speed import BASELINE, BASELINE_THREADS, OURS

__all__ = ["evaluate", "headline_of", "margin", "median_of"]


def margin(value: float, threshold: float, op: str) -> str:
    """How far a value is from its threshold, in words, as a share of the threshold."""
    if threshold == 0:
        return f"{value - threshold:+.2f}"
    share = value / threshold
    if op == ">=":
        return f"{share:.2f}x the target" if value >= threshold else f"short by {1 - share:.0%}"
    return f"{1 - share:.0%} under the limit" if value <= threshold else f"over by {share - 1:.0%}"


def headline_of(doc: Measurements) -> IngestImage:
    return next(i for i in doc["ingest"]["images"] if i["headline"])


_TEDS_PEERS: tuple[Peer, ...] = ("rapid_table", "img2table")
"""The peers whose TEDS ours is judged against."""


def _share(pair: list[int] | None) -> float | None:
    return pair[0] / pair[1] if pair and pair[1] else None


def _target(
    key: str, statement: str, value: float | None, op: str, threshold: float, unit: str, detail: str
) -> Target:
    met = None
    if value is not None:
        met = (
            value >= threshold
            if op == ">="
            else value > threshold
            if op == ">"
            else value <= threshold
            if op == "<="
            else value < threshold
        )
    return {
        "key": key,
        "statement": statement,
        "value": value,
        "op": op,
        "threshold": threshold,
        "unit": unit,
        "met": met,
        "margin": margin(value, threshold, ">=" if op in (">=", ">") else "<=")
        if value is not None
        else "not measured",
        "detail": detail,
    }


def _set_total(doc: Measurements, key: str, tool: Peer) -> ToolTotal | None:
    for table_set in doc["tables"]["sets"]:
        if table_set["key"] == key:
            return table_set["totals"].get(tool)
    return None


def _table_targets(doc: Measurements) -> list[Target]:
    """Accuracy on the corpus, TEDS against the peers, photo latency, text for every image."""
    if not doc.get("tables"):
        return []
    found = []
    for key, label, threshold in (
        ("corpus", "browser corpus renders", 99.5),
        ("photos", "browser corpus photos", 98.0),
    ):
        total = _set_total(doc, key, "stockshot")
        fields, cells = (total["fields"], total["cells"]) if total else (None, None)
        share = _share(fields)
        found.append(
            _target(
                f"fields_{key}",
                f"inventory fields right on the {label}",
                None if share is None else share * 100,
                ">=",
                threshold,
                "%",
                f"{_pair(fields)} fields; cells {_pair(cells)}",
            )
        )
    found += _uikit_targets(doc)
    for table_set in doc["tables"]["sets"]:
        if not table_set["key"].startswith("tables:"):
            continue
        totals = table_set["totals"]
        ours = totals.get("stockshot", {}).get("teds")
        peers = {
            k: score for k in _TEDS_PEERS if (score := totals.get(k, {}).get("teds")) is not None
        }
        best = max(peers.values(), default=None)
        found.append(
            _target(
                f"teds_{table_set['key']}",
                f"TEDS on {table_set['label']} above RapidTable's and img2table's",
                None if ours is None or best is None else ours - best,
                ">",
                0.0,
                "TEDS",
                f"stockshot {ours if ours is None else round(ours, 3)} vs "
                + ", ".join(f"{k} {v:.3f}" for k, v in peers.items()),
            )
        )
    shares = [
        (name, share)
        for key in ("corpus", "photos")
        for table_set in doc["tables"]["sets"]
        if table_set["key"] == key
        for name, share in table_set["totals"].get("token_shares", [])
    ]
    worst = max(shares, key=lambda s: s[1], default=None)
    found.append(
        _target(
            "tokens_corpus",
            "tokens sent for every table screen of the browser corpus at most 30% of the "
            "full-page image estimate (the worst one)",
            None if worst is None else worst[1] * 100,
            "<=",
            30.0,
            "%",
            "not measured"
            if worst is None
            else f"worst {worst[0]}; {sum(s <= 0.3 for _, s in shares)} of {len(shares)} "
            "within 30%",
        )
    )
    photos = _set_total(doc, "photos", "stockshot")
    found.append(
        _target(
            "photo_latency",
            "warm ingest of a photo at most 1.5 s (the slowest photo's median)",
            photos["max_ms"] if photos else None,
            "<=",
            1500.0,
            "ms",
            f"median over the photos {ms_of(photos['median_ms'] if photos else None)}",
        )
    )
    return found


def _text_targets(doc: Measurements) -> list[Target]:
    """Text judged by content: every image of known text read right, character for
    character (whitespace aside)."""
    texts = doc["texts"]
    images = texts["images"]
    if not images:
        return []
    wrong = [i for i in images if i["tools"]["stockshot"]["cer"] > 0]
    total = texts["totals"]["stockshot"]
    plain = texts["totals"]["rapidocr"]
    return [
        _target(
            "text_by_content",
            "every image of known text read right, character for character (CER 0)",
            float(total["right"]),
            ">=",
            float(total["images"]),
            "images",
            f"mean CER {total['mean_cer']} (plain `RapidOCR()`: {plain['right']} of "
            f"{plain['images']} right, mean CER {plain['mean_cer']})"
            + (
                "; misread: "
                + ", ".join(f"{i['name']} -> {i['tools']['stockshot']['read']!r}" for i in wrong)
                if wrong
                else ""
            ),
        )
    ]


def _per_image_targets(doc: Measurements) -> list[Target]:
    """The speed-up and the latency judged on every image, not the headline alone: the
    median over the images and the worst image; the speed-up also against the baseline
    given our thread settings."""
    images = doc["ingest"]["images"]
    speedups = [
        (i["name"], r["value"]) for i in images if (r := i["vs_baseline"].get(OURS)) is not None
    ]
    fair = [
        (i["name"], base / ours)
        for i in images
        if (base := median_of(i["summary"], BASELINE_THREADS))
        and (ours := median_of(i["summary"], OURS))
    ]
    latencies = [(i["name"], ms) for i in images if (ms := median_of(i["summary"], OURS))]
    found = []
    for key, label, pairs in (
        ("ingest_speedup_images", "the full-page baseline", speedups),
        ("ingest_speedup_same_threads", "the full-page baseline with our thread settings", fair),
    ):
        if not pairs:
            continue
        worst = min(pairs, key=lambda p: p[1])
        found += [
            _target(
                key,
                f"warm `table_ocr` ingest at least 4x faster than {label}, median over the "
                f"{len(pairs)} images",
                median(v for _, v in pairs),
                ">=",
                4.0,
                "x",
                f"{sum(v >= 4.0 for _, v in pairs)} of {len(pairs)} images at 4x or more",
            ),
            _target(
                f"{key}_worst",
                f"the same on the worst image ({worst[0]})",
                worst[1],
                ">=",
                4.0,
                "x",
                "; ".join(f"{name} {v:.1f}x" for name, v in sorted(pairs, key=lambda p: p[1])),
            ),
        ]
    if latencies:
        slowest = max(latencies, key=lambda p: p[1])
        found.append(
            _target(
                "ingest_latency_worst",
                f"warm `table_ocr` ingest at most 1.5 s on every image (the slowest: {slowest[0]})",
                slowest[1],
                "<=",
                1500.0,
                "ms",
                f"median over the images {ms_of(median(v for _, v in latencies))}",
            )
        )
    return found


def _pair(pair: list[int] | None) -> str:
    return f"{pair[0]}/{pair[1]}" if pair and pair[1] else "–"


def _uikit_targets(doc: Measurements) -> list[Target]:
    """The UI-kit corpus's held-out split: fields overall, on card layouts and on photos, and
    no screen without a row."""
    sealed = next(
        (s for s in doc["tables"]["sets"] if s["key"] == "uikits-sealed" and s["images"]), None
    )
    if sealed is None:
        return []
    parts = breakdown(sealed)
    sealed_total = _set_total(doc, "uikits-sealed", "stockshot")
    total = sealed_total["fields"] if sealed_total else None
    blocks = [parts["by_layout"][k] for k in ("cards", "list") if k in parts["by_layout"]]
    cards = [sum(p[0] for p in blocks), sum(p[1] for p in blocks)] if blocks else None
    found = []
    for key, label, pair, threshold in (
        ("fields_uikits", "UI-kit corpus, held-out split", total, 97.0),
        ("fields_uikits_cards", "UI-kit card and list layouts, held-out", cards, 95.0),
        ("fields_uikits_photos", "UI-kit photos, held-out", parts["by_layout"].get("photo"), 95.0),
    ):
        share = _share(pair)
        if share is None:
            continue  # a quick run measures a few images, maybe none of this kind
        found.append(
            _target(
                key,
                f"inventory fields right on the {label}",
                share * 100,
                ">=",
                threshold,
                "%",
                f"{_pair(pair)} fields",
            )
        )
    found.append(
        _target(
            "rows_uikits",
            "screens of the UI-kit held-out split with no row read",
            float(len(parts["no_rows"])),
            "<=",
            0.0,
            "screens",
            "names not listed (held-out split)",
        )
    )
    return found


def evaluate(doc: Measurements) -> list[Target]:
    head = headline_of(doc)
    name = f"{head['name']} ({head['size']})"
    speedup = _value(head["vs_baseline"].get(OURS))
    base_ms = median_of(head["summary"], BASELINE)
    ours_ms = median_of(head["summary"], OURS)
    ours_runs = head["summary"].get(OURS)
    ours_acc = _share(head["accuracy"].get(OURS))
    base_acc = _share(head["accuracy"].get(BASELINE))
    cache = doc["cache"]
    hits = cache if "error" not in cache else None
    cache_summary = hits["summary"] if hits else {}
    tokens = [t for t in doc["tokens"]["images"] if t["table_screen"]]
    worst = max(tokens, key=lambda t: t["share"]["table_ocr"], default=None)
    within = sum(t["share"]["table_ocr"] <= 0.30 for t in tokens)
    head_tokens = next((t for t in doc["tokens"]["images"] if t["image"] == head["name"]), None)
    per_hop = doc["host"]["memory"]["summary"]["per_hop_ms"]
    stdio = doc["host"]["stdio"]["summary"]["spawn_and_run_ms"]
    batch = doc["batch"]["pool_vs_single_all_cores"]
    workers = doc["batch"]["pool_vs_single_one_thread"]
    return [
        _target(
            "ingest_speedup",
            f"warm `table_ocr` ingest of {name} at least 4x faster than the full-page baseline",
            speedup,
            ">=",
            4.0,
            "x",
            f"baseline {ms_of(base_ms)} vs pipeline {ms_of(ours_ms)} (medians)",
        ),
        _target(
            "ingest_accuracy",
            f"with equal or better cell accuracy on {name}",
            None if ours_acc is None else ours_acc * 100,
            ">=",
            (base_acc or 0.0) * 100,
            "% cells",
            f"pipeline {pct(ours_acc)} vs baseline {pct(base_acc)} of cells exactly right",
        ),
        _target(
            "ingest_latency",
            f"warm `table_ocr` ingest of {name} at most 1.5 s (median)",
            ours_ms,
            "<=",
            1500.0,
            "ms",
            f"median of {ours_runs['n'] if ours_runs else 0} runs after a warm-up",
        ),
        _target(
            "cache_memory",
            "a cache hit from memory at least 100x faster than a miss",
            _value(hits["miss_vs_memory"] if hits else None),
            ">=",
            100.0,
            "x",
            f"miss {ms_of(median_of(cache_summary, 'miss'))} vs hit "
            f"{ms_of(median_of(cache_summary, 'memory'), 3)}",
        ),
        _target(
            "cache_disk",
            "a cache hit from disk at least 100x faster than a miss",
            _value(hits["miss_vs_disk"] if hits else None),
            ">=",
            100.0,
            "x",
            f"miss {ms_of(median_of(cache_summary, 'miss'))} vs hit "
            f"{ms_of(median_of(cache_summary, 'disk'), 3)}",
        ),
        _target(
            "tokens",
            f"tokens sent for the table screenshot {name} at most 30% of the full-page "
            "image estimate",
            None if head_tokens is None else head_tokens["share"]["table_ocr"] * 100,
            "<=",
            30.0,
            "%",
            "not measured"
            if head_tokens is None
            else f"{head_tokens['sent']['table_ocr']} of {head_tokens['full_page_image']} tokens",
        ),
        _target(
            "tokens_every_screen",
            "the same for every table screenshot measured (the worst one)",
            None if worst is None else worst["share"]["table_ocr"] * 100,
            "<=",
            30.0,
            "%",
            "no table screen measured"
            if worst is None
            else f"worst {worst['image']}: {worst['sent']['table_ocr']} of "
            f"{worst['full_page_image']} tokens; {within} of {len(tokens)} table screens "
            "within 30%",
        ),
        _target(
            "host_per_hop",
            "host overhead per hop under 5 ms (rules model, in-memory servers)",
            per_hop.get("median") if per_hop.get("n") else None,
            "<",
            5.0,
            "ms",
            f"median of {per_hop.get('n', 0)} runs, "
            f"{doc['host']['memory']['hops'][:1] or ['?']} hops each",
        ),
        _target(
            "stdio_run",
            "a complete `rules` replenishment run over stdio servers under 5 s after warm-up",
            stdio.get("median") if stdio.get("n") else None,
            "<",
            5000.0,
            "ms",
            "spawning the three servers, connecting, the run, and shutting them down",
        ),
        _target(
            "batch",
            "batch throughput at least 1.6x from one process (all cores) to a pool of one "
            "process per core",
            None if batch is None else batch["value"],
            ">=",
            1.6,
            "x",
            f"one-thread bound {doc['batch'].get('one_thread_bound') or 0:.2f}x "
            "(cores x one-thread rate / all-cores rate)",
        ),
        _target(
            "batch_workers",
            "the same from one one-thread worker to one one-thread worker per core",
            None if workers is None else workers["value"],
            ">=",
            1.6,
            "x",
            "the scaling of the workers themselves, each with the same thread settings",
        ),
        *_per_image_targets(doc),
        *_table_targets(doc),
        *_text_targets(doc),
    ]


def median_of(summaries: Mapping[str, SummaryDoc], key: str) -> float | None:
    """The median of `key`'s samples, or None when it has none."""
    summary = summaries.get(key)
    return summary["median"] if summary and summary["n"] else None


def _value(found: RatioDoc | None) -> float | None:
    return found["value"] if found else None


def ms_of(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:.{digits}f} ms"


def pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"
