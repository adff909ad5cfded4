"""The `stockshot` command line as a user runs it."""

import json
from pathlib import Path

import pytest
from PIL import Image

from pipeline.cli import main
from tests.conftest import SAMPLES


def test_ingest_reports_each_bad_file_on_one_line_and_still_processes_the_good_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corrupt = tmp_path / "corrupt.png"
    corrupt.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    icon = tmp_path / "favicon.ico"
    Image.new("RGB", (16, 16)).save(icon)
    good = SAMPLES / "overlay-white-wh01.png"
    code = main(
        [
            "ingest",
            "--json",
            str(corrupt),
            str(tmp_path / "missing.png"),
            str(tmp_path),
            str(empty),
            str(icon),
            str(good),
        ]
    )
    out, err = capsys.readouterr()
    assert code != 0
    (line,) = out.splitlines()
    assert json.loads(line)["file"] == str(good)
    errors = err.splitlines()
    assert len(errors) == 5
    assert all(e.startswith("stockshot: error: ") for e in errors)
    assert any("corrupt.png" in e and "corrupt" in e for e in errors)
    assert any("missing.png: no such file" in e for e in errors)
    assert any("is a directory" in e for e in errors)
    assert any("empty.jpg: empty file" in e for e in errors)
    assert any("favicon.ico: ICO images are not supported" in e for e in errors)


def test_ingest_json_lines_carry_every_documented_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", "--json", str(SAMPLES / "erp-jpeg-wh01.jpg")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {
        "file",
        "sha256",
        "captured_at",
        "captured_at_source",
        "age_s",
        "strategy",
        "engine",
        "cache",
        "size",
        "crop",
        "table",
        "rows",
        "text",
        "tokens",
        "warnings",
        "timings_ms",
    }
    assert set(result["rows"][0]) == {
        "sku",
        "name",
        "on_hand",
        "reorder_point",
        "warehouse_id",
        "confidence",
    }
    assert result["captured_at_source"] == "exif"


def test_ingest_prints_a_readable_table_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", str(SAMPLES / "erp-light-wh01.png")]) == 0
    out = capsys.readouterr().out
    assert "sku        name" in out
    assert (
        "SKU-10402  Safety gloves size L (pair)    60       200            WH-01         LOW" in out
    )


def test_demo_raises_the_orders_and_explains_the_skips(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "4. open orders in the store now: 5" in out
    assert (
        "SKU-10402 in WH-01: not low any more: live on_hand 310 >= reorder_point 200 (screen showed 60)"
        in out
    )
    assert "SKU-10403 in WH-01: already covered by 120 on order" in out


def test_a_settings_error_is_one_line_and_exit_code_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STOCKSHOT_TIMEZONE", "Mars/Olympus")
    assert main(["ingest", str(SAMPLES / "erp-light-wh01.png")]) == 2
    assert "STOCKSHOT_TIMEZONE='Mars/Olympus' is not a known time zone" in capsys.readouterr().err


def test_multi_image_prints_one_merged_view_with_what_changed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    morning, afternoon = SAMPLES / "wh02-morning.png", SAMPLES / "wh02-afternoon.png"
    code = main(
        [
            "ingest",
            "--no-cache",
            "--strategy",
            "multi_image",
            "--json",
            str(afternoon),
            str(morning),
        ]
    )
    assert code == 0
    (line,) = capsys.readouterr().out.splitlines()
    view = json.loads(line)
    assert view["strategy"] == "multi_image"
    assert [c["file"] for c in view["captures"]] == [str(morning), str(afternoon)]
    rows = {r["sku"]: r for r in view["rows"]}
    assert len(rows) == 15 and all(r["warehouse_id"] == "WH-02" for r in rows.values())
    changed = rows["SKU-10231"]
    assert changed["file"] == str(afternoon)
    assert [(c["field"], c["before"], c["after"]) for c in changed["changes"]] == [
        ("on_hand", 140, 96)
    ]
    assert "| seen_at | change |" in view["text"]
    assert view["tokens_sent"] < view["tokens_separate"]
