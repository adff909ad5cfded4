"""The `stockshot` command line as a user runs it."""

import json
from pathlib import Path

import pytest
from PIL import Image

from pipeline.cli import main
from servers import domain
from servers.models import OrderQuery
from servers.sqlite_store import SqliteStore
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


def _open_orders(data: Path) -> dict[str, tuple[str, str, int, str]]:
    with SqliteStore(data / "stockshot.db") as store:
        orders = domain.list_orders(store, OrderQuery(limit=500)).orders
    return {o.id: (o.sku, o.warehouse_id, o.quantity, o.status) for o in orders}


def _run(task: str, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["run", "--task", task, "--image", str(SAMPLES / "erp-light-wh01.png")])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


@pytest.mark.parametrize(
    "task", ["Which SKUs are low? Do not place any orders, just tell me.", "先别下单，看看哪些缺货"]
)
def test_a_request_not_to_order_writes_nothing_and_names_what_is_low(
    task: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["store", "seed"]) == 0
    out = _run(task, capsys)
    assert _open_orders(tmp_path / "data") == {}
    assert "task contract: report · no writes" in out
    assert "5 of 7 SKUs are low now; nothing was ordered." in out
    assert "SKU-10232 in WH-01: low now: on_hand 38 + on_order 0 < reorder_point 120" in out


def test_order_10_units_of_one_sku_writes_exactly_that_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["store", "seed"]) == 0
    out = _run("Order 10 units of SKU-10232 only", capsys)
    (order,) = _open_orders(tmp_path / "data").values()
    assert order == ("SKU-10232", "WH-01", 10, "open")
    assert "task contract: order · only SKU-10232 · SKU-10232 x10 · writes allowed" in out


def test_cancel_order_cancels_that_order_and_writes_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["store", "seed"]) == 0
    _run("replenish the low items on this screen", capsys)
    before = _open_orders(tmp_path / "data")
    assert len(before) == 5 and "PO-000001" in before

    out = _run("Cancel order PO-000001", capsys)

    after = _open_orders(tmp_path / "data")
    assert after["PO-000001"][3] == "cancelled"
    assert {k: v for k, v in after.items() if k != "PO-000001"} == {
        k: v for k, v in before.items() if k != "PO-000001"
    }
    assert "task contract: cancel · PO-000001 · writes allowed" in out
    assert "- cancelled PO-000001 (SKU-10232 in WH-01" in out


def test_a_request_it_cannot_do_gets_an_answer_and_no_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["store", "seed"]) == 0
    out = _run("write me a poem about warehouses", capsys)
    assert _open_orders(tmp_path / "data") == {}
    assert "not understood: the task asks for nothing stockshot does" in out
    assert "You can ask: which SKUs are low" in out
