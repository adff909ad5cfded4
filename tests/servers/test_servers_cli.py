from __future__ import annotations

import argparse
import io
import json
import socket
import sys
from pathlib import Path

import pytest

from servers import domain
from servers.cli import register
from servers.models import ReplenishmentRequest
from servers.toolkit import utc_now
from store.stores import open_store

SEED_CSV = Path(__file__).parents[2] / "servers" / "data" / "seed.csv"
HEADER = "sku,name,warehouse_id,on_hand,reorder_point,on_order\n"


def stockshot(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="stockshot")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.handler(args, object())
    return code


@pytest.fixture(autouse=True)
def _scratch_store(monkeypatch: pytest.MonkeyPatch, store_url: str) -> None:
    """Every command here runs on each kind of store, named by STOCKSHOT_DATABASE_URL."""
    monkeypatch.setenv("STOCKSHOT_DATABASE_URL", store_url)


def test_seed_then_export_reproduces_the_seed_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert stockshot("store", "seed") == 0
    capsys.readouterr()
    assert stockshot("store", "export") == 0
    assert capsys.readouterr().out == SEED_CSV.read_text(encoding="utf-8")


def test_seeding_again_says_it_reset_the_rows(
    capsys: pytest.CaptureFixture[str], store_url: str
) -> None:
    stockshot("store", "seed")
    first = capsys.readouterr().out
    with open_store(store_url) as store:
        where = store.where
    stockshot("store", "seed")
    second = capsys.readouterr().out
    assert f"seeded {where} with the demo catalogue: 3 warehouses; stock 43 rows (43 new" in first
    assert "43 rows (0 new, 43 updated)" in second


def test_import_upserts_rows_and_creates_unknown_warehouses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    stockshot("store", "seed")
    csv_file = tmp_path / "stock.csv"
    csv_file.write_text(
        HEADER
        + "SKU-10232,Hex nut M8 (box of 200),WH-01,500,120,0\nSKU-90001,Pallet,WH-09,1,2,0\n",
        encoding="utf-8",
    )
    capsys.readouterr()
    assert stockshot("store", "import", str(csv_file)) == 0
    out = capsys.readouterr().out
    assert "2 rows (1 new, 1 updated); 1 new items; created warehouses WH-09" in out
    stockshot("store", "export")
    exported = capsys.readouterr().out
    assert "SKU-10232,Hex nut M8 (box of 200),WH-01,500,120,0" in exported
    assert "SKU-90001,Pallet,WH-09,1,2,0" in exported


def test_a_bad_row_is_reported_with_its_line_number_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    stockshot("store", "seed")
    capsys.readouterr()
    csv_file = tmp_path / "stock.csv"
    csv_file.write_text(
        HEADER + "SKU-10232,Hex nut M8 (box of 200),WH-01,500,120,0\nSKU-1,Bolt,WH-09,lots,2,0\n",
        encoding="utf-8",
    )
    assert stockshot("store", "import", str(csv_file)) == 2
    assert capsys.readouterr().err == (
        f"stockshot: error: {csv_file}: line 3: on_hand must be a whole number of 0 or more, "
        "got 'lots'; nothing was imported\n"
    )
    stockshot("store", "export")
    assert capsys.readouterr().out == SEED_CSV.read_text(encoding="utf-8")


def test_import_reads_standard_input_and_a_byte_order_mark(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = ("\ufeff" + HEADER + "SKU-1,Bolt,WH-01,5,10,0\n").encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert stockshot("store", "import", "-") == 0
    assert "imported <stdin>" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "cannot read"),
        (b"\xff\xfe\x00bad", "is not UTF-8 text"),
        (b"", "the file is empty; expected a header"),
    ],
)
def test_an_unreadable_file_is_an_error_without_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes | None, problem: str
) -> None:
    csv_file = tmp_path / "stock.csv"
    if content is not None:
        csv_file.write_bytes(content)
    assert stockshot("store", "import", str(csv_file)) == 2
    err = capsys.readouterr().err
    assert err.startswith("stockshot: error: ")
    assert problem in err
    assert "Traceback" not in err


def test_orders_json_gives_each_order_with_its_fields(
    capsys: pytest.CaptureFixture[str], store_url: str
) -> None:
    stockshot("store", "seed")
    with open_store(store_url) as store:
        domain.create_replenishment(
            store,
            ReplenishmentRequest(sku="SKU-10232", warehouse_id="WH-01", quantity=100),
            max_quantity=1000,
            now=utc_now(),
        )
    capsys.readouterr()
    assert stockshot("orders", "--json") == 0
    (line,) = capsys.readouterr().out.splitlines()
    order = json.loads(line)
    assert {k: order[k] for k in ("id", "sku", "warehouse_id", "quantity", "status")} == {
        "id": "PO-000001",
        "sku": "SKU-10232",
        "warehouse_id": "WH-01",
        "quantity": 100,
        "status": "open",
    }
    assert "created_at" in order
    assert stockshot("orders") == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["id", "sku", "warehouse_id", "quantity", "status", "created_at"]
    assert table[1].split()[:5] == ["PO-000001", "SKU-10232", "WH-01", "100", "open"]


def test_orders_on_an_empty_store_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert stockshot("orders") == 0
    assert capsys.readouterr().out == "no orders\n"


def test_audit_shows_seeding(capsys: pytest.CaptureFixture[str]) -> None:
    stockshot("store", "seed")
    capsys.readouterr()
    assert stockshot("store", "audit", "--json") == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["action"] == "store seed"


def test_a_bad_setting_is_an_error_naming_the_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STOCKSHOT_MAX_ORDER_QUANTITY", "lots")
    assert stockshot("orders") == 2
    assert "STOCKSHOT_MAX_ORDER_QUANTITY" in capsys.readouterr().err


def test_a_store_path_that_is_a_folder_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("STOCKSHOT_DATABASE_URL")
    monkeypatch.setenv("STOCKSHOT_DB", str(tmp_path))
    assert stockshot("orders") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stockshot: error: cannot open the store {tmp_path}")


def test_a_port_out_of_range_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert stockshot("servers", "inventory", "--transport", "http", "--port", "70000") == 2
    assert "--port must be from 0 to 65535" in capsys.readouterr().err


def test_a_port_in_use_is_an_error_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert stockshot("servers", "orders", "--transport", "http", "--port", str(port)) == 2
    assert f"cannot listen on 127.0.0.1 port {port}" in capsys.readouterr().err


def test_a_store_url_of_an_unknown_kind_is_an_error_naming_the_known_ones(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STOCKSHOT_DATABASE_URL", "mysql://db.example/stockshot")
    assert stockshot("orders") == 2
    err = capsys.readouterr().err
    assert "unknown store URL scheme 'mysql'" in err
    assert "known: sqlite, postgresql" in err


def test_a_postgres_store_that_cannot_be_reached_is_an_error_without_its_password(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(
        "STOCKSHOT_DATABASE_URL", "postgresql://stockshot:s3cret@127.0.0.1:1/x?connect_timeout=5"
    )
    assert stockshot("store", "export") == 2
    err = capsys.readouterr().err
    assert err.startswith("stockshot: error: cannot use postgresql://stockshot@127.0.0.1:1/x")
    assert "s3cret" not in err
