"""The `stockshot` command line as a user runs it."""

import json
from datetime import timedelta
from pathlib import Path

import pytest
from PIL import Image

from pipeline.cli import main
from pipeline.cli.demo import capture_age
from servers import domain
from store.models import OrderQuery
from store.stores import sqlite_store
from tests.conftest import SAMPLES, cli_env


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
        "layout",
        "rows",
        "page_warehouse",
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
        "unit",
    }
    assert result["captured_at_source"] == "exif"


def test_ingest_prints_a_readable_table_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", str(SAMPLES / "erp-light-wh01.png")]) == 0
    out = capsys.readouterr().out
    assert "sku        name" in out
    assert (
        "SKU-10402  Safety gloves size L (pair)    60       200            WH-01         LOW" in out
    )


def test_demo_proposes_approves_itself_and_explains_the_skips(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    demo = tmp_path / "data" / "demo"
    assert (demo / "stockshot.db").is_file() and (demo / "cache").is_dir()
    assert not (tmp_path / "data" / "cache").exists()
    assert "   captured 2026-11-28T10:05+00:00, " in out
    assert " before this demo: a past view" in out
    assert "4. the run proposed 5 write(s); nothing is ordered yet." in out
    for proposal in ("AP-000001", "AP-000002", "AP-000003", "AP-000004", "AP-000005"):
        # Named once in the answer, listed once with its quantity, approved once.
        assert out.count(proposal) == 3, proposal
    assert "5. approving them here, as the demo's stand-in for a person" in out
    assert (
        "AP-000001 approved: PO-000001 (orders_create_replenishment SKU-10232 in WH-01 x202)" in out
    )
    assert "6. open orders in the store now: 5" in out
    assert (
        "SKU-10402 in WH-01: not low any more: live on_hand 310 >= reorder_point 200 (screen showed 60)"
        in out
    )
    assert "SKU-10403 in WH-01: already covered by 120 on order" in out


@pytest.mark.parametrize(
    ("age", "said"),
    [
        (timedelta(minutes=45), "45 min"),
        (timedelta(hours=5, minutes=59), "5 h"),
        (timedelta(hours=47), "47 h"),
        (timedelta(hours=209, minutes=6), "8 days 17 h"),
        (timedelta(days=2), "2 days"),
        (timedelta(minutes=-3), "in the future"),
    ],
)
def test_the_demo_states_a_capture_age_as_a_person_says_it(age: timedelta, said: str) -> None:
    assert capture_age(age) == said


def test_a_settings_error_is_one_line_and_exit_code_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STOCKSHOT_TIMEZONE", "Mars/Olympus")
    assert main(["ingest", str(SAMPLES / "erp-light-wh01.png")]) == 2
    assert "STOCKSHOT_TIMEZONE='Mars/Olympus' is not a known time zone" in capsys.readouterr().err


def _open_orders(data: Path) -> dict[str, tuple[str, str, int, str]]:
    with sqlite_store(data / "stockshot.db") as store:
        orders = domain.list_orders(store, OrderQuery(limit=500)).orders
    return {o.id: (o.sku, o.warehouse_id, o.quantity, o.status) for o in orders}


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    """A seeded store; its data folder."""
    assert main(["store", "seed"]) == 0
    return tmp_path / "data"


@pytest.fixture(params=["memory", "stdio"])
def servers(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each way the host reaches its tool servers: in this process over MCP's in-memory
    transport (the default), or one subprocess per group over stdio."""
    transport: str = request.param
    monkeypatch.setenv("STOCKSHOT_SERVERS", transport)
    return transport


def _run(task: str, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    code = main(["run", *flags, "--task", task, "--image", str(SAMPLES / "erp-light-wh01.png")])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


LOW_REPORT = (
    "task contract: report · no writes",
    "5 of 7 SKUs are low now; nothing was ordered.",
    "SKU-10232 in WH-01: low now: on_hand 38 + on_order 0 < reorder_point 120",
)


@pytest.mark.parametrize(
    ("task", "written", "said"),
    [
        pytest.param(
            "Which SKUs are low? Do not place any orders, just tell me.",
            [],
            LOW_REPORT,
            id="a-request-not-to-order-writes-nothing-and-names-what-is-low",
        ),
        pytest.param(
            "先别下单，看看哪些缺货",
            [],
            LOW_REPORT,
            id="a-request-not-to-order-in-chinese-writes-nothing-and-names-what-is-low",
        ),
        pytest.param(
            "Order 10 units of SKU-10232 only",
            [("SKU-10232", "WH-01", 10, "open")],
            ("task contract: order · only SKU-10232 · SKU-10232 x10 · writes allowed",),
            id="order-10-units-of-one-sku-writes-exactly-that-order",
        ),
        pytest.param(
            "write me a poem about warehouses",
            [],
            (
                "not understood: the task asks for nothing stockshot does",
                "You can ask: which SKUs are low",
            ),
            id="a-request-it-cannot-do-gets-an-answer-and-no-write",
        ),
    ],
)
def test_a_run_writes_exactly_what_its_task_allows_and_says_what_it_did(
    task: str,
    written: list[tuple[str, str, int, str]],
    said: tuple[str, ...],
    seeded: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _run(task, capsys, "--yes")
    assert list(_open_orders(seeded).values()) == written
    for line in said:
        assert line in out, line


def test_cancel_order_cancels_that_order_and_writes_nothing_else(
    seeded: Path, servers: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _run("replenish the low items on this screen", capsys, "--yes")
    before = _open_orders(seeded)
    assert len(before) == 5 and "PO-000001" in before

    out = _run("Cancel order PO-000001", capsys, "--approval", "auto")

    after = _open_orders(seeded)
    assert after["PO-000001"][3] == "cancelled"
    assert {k: v for k, v in after.items() if k != "PO-000001"} == {
        k: v for k, v in before.items() if k != "PO-000001"
    }
    assert "task contract: cancel · PO-000001 · writes allowed" in out
    assert "- cancelled PO-000001 (SKU-10232 in WH-01" in out


def test_run_with_approve_queues_the_writes_and_approvals_approve_writes_them(
    seeded: Path, servers: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run("replenish the low items", capsys, "--approve")
    assert _open_orders(seeded) == {}
    # Only the stdio servers are processes of their own, which log to the data folder.
    assert (seeded / "servers.log").exists() == (servers == "stdio")
    assert "writes wait for approval" in out
    assert "wait for approval, nothing was written: stockshot approvals approve AP-000001" in out

    assert main(["approvals", "list", "--status", "pending", "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [p["id"] for p in listed] == [f"AP-00000{n}" for n in (5, 4, 3, 2, 1)]

    assert main(["approvals", "deny", "AP-000005", "--reason", "not this week"]) == 0
    assert main(["approvals", "approve", "AP-000001", "AP-000002"]) == 0
    out = capsys.readouterr().out
    assert "AP-000005 denied: not this week" in out
    assert (
        "AP-000001 approved: PO-000001 (orders_create_replenishment SKU-10232 in WH-01 x202)" in out
    )
    assert {o[0] for o in _open_orders(seeded).values()} == {"SKU-10232", "SKU-10310"}

    assert main(["approvals", "approve", "AP-000005", "AP-999999"]) == 1
    err = capsys.readouterr().err
    assert "AP-000005: AP-000005 is denied by cli" in err
    assert "AP-999999: no proposal 'AP-999999'" in err
    assert main(["approvals", "list"]) == 0
    table = capsys.readouterr().out
    row = next(line for line in table.splitlines() if line.startswith("AP-000001")).split()
    assert row[:9] == [
        "AP-000001", "approved", "orders_create_replenishment", "SKU-10232", "in", "WH-01",
        "x202", "38/120", "38+0/120",
    ]  # fmt: skip
    assert row[-2:] == [f"cli:{row[-2][4:]}", "PO-000001"]


def test_a_run_whose_store_cannot_be_opened_ends_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STOCKSHOT_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/stock")
    assert main(["run", "--yes", "--task", "which SKUs are low"]) == 1
    out = capsys.readouterr().out
    assert "error (written by the host, not the model): the tool servers cannot open" in out
    assert "postgresql://nobody@127.0.0.1:1/stock" in out


def test_a_run_that_holds_its_writes_and_cannot_open_the_store_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STOCKSHOT_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/stock")
    assert main(["run", "--task", "which SKUs are low"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("stockshot: error: cannot use postgresql://nobody@127.0.0.1:1/stock")


def test_a_run_with_no_flag_in_a_pipe_writes_nothing_and_says_how_to_approve(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run("replenish the low items", capsys)
    assert _open_orders(seeded) == {}
    assert (
        "5 write(s) wait for approval, nothing was written: stockshot approvals approve "
        "AP-000001 AP-000002 AP-000003 AP-000004 AP-000005"
    ) in out
    assert "run with --yes to write at once" in out


def test_the_same_task_run_twice_asks_about_each_sku_once(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run("replenish the low items", capsys)
    out = _run("replenish the low items", capsys)
    assert "stockshot approvals approve AP-000001 AP-000002 AP-000003 AP-000004 AP-000005" in out
    assert main(["approvals", "list", "--status", "pending", "--json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 5


def test_run_with_ask_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--ask", "--task", "replenish the low items"]) == 2
    assert "--ask needs a terminal to ask at" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags",
    [
        pytest.param(["--ask"], id="with-ask"),
        pytest.param([], id="with-no-flag-at-a-terminal"),
    ],
)
def test_run_asks_at_the_terminal_for_each_write(seeded: Path, flags: list[str]) -> None:
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    env = cli_env(data_dir=str(seeded))
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "run", *flags, "--task", "replenish the low items",
         "--image", str(SAMPLES / "erp-light-wh01.png")],
        stdin=follower, stdout=follower, stderr=follower, env=env, cwd=SAMPLES.parent,
    )  # fmt: skip
    os.close(follower)
    seen = b""
    answers = [b"y\n", b"n\n", b"\n", b"no\n", b"yes\n"]
    answered = 0
    deadline = time.monotonic() + 180
    try:
        while process.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1)
            if not ready:
                continue
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            seen += chunk
            if seen.count(b"[y/N]") > answered:
                os.write(leader, answers[answered])
                answered += 1
        process.wait(timeout=30)
    finally:
        os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert text.count("[y/N]") == 5
    assert (
        "Approve AP-000001: orders_create_replenishment SKU-10232 (Hex nut M8 (box of 200)) in "
        "WH-01 x202 (policy)" in text
    )
    assert "2 x 120 - (38 on hand + 0 on order) = 202" in text
    assert "(screen 38 at 2026-11-28T10:05:00" in text
    assert "AP-000002 denied: declined at the terminal" in text
    assert {o[0] for o in _open_orders(seeded).values()} == {"SKU-10232", "SKU-10520"}


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


def test_a_mapping_given_at_the_command_line_is_saved_for_the_screen_and_listed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sample = str(SAMPLES / "erp-light-wh01.png")
    columns = "on_hand=Reorder point,reorder_point=On hand"
    assert main(["ingest", "--json", sample, "--columns", columns, "--save-profile", "swap"]) == 0
    out, err = capsys.readouterr()
    swapped = json.loads(out)
    assert "saved profile " in err
    assert main(["profiles", "list"]) == 0
    listed = capsys.readouterr().out
    signature, name = listed.split()[:2]
    assert name == "swap" and "on_hand=Reorder point" in listed
    assert main(["ingest", "--json", "--no-cache", sample]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["rows"] == swapped["rows"]
    assert main(["profiles", "show", signature]) == 0
    assert json.loads(capsys.readouterr().out)["mapping"]["on_hand"] == "Reorder point"
    assert main(["profiles", "delete", signature]) == 0
    assert main(["profiles", "delete", signature]) == 2


def test_a_save_without_a_mapping_or_a_field_outside_the_schema_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sample = str(SAMPLES / "erp-light-wh01.png")
    assert main(["ingest", sample, "--save-profile"]) == 2
    assert "give --columns too" in capsys.readouterr().err
    assert main(["ingest", sample, "--columns", "stock=On hand"]) == 2
    assert "unknown field 'stock'" in capsys.readouterr().err


def test_a_run_not_read_in_full_asks_and_with_yes_acts_on_exactly_the_reading_it_showed(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = "Restock the low rows, SKU-10232 is quarantined."
    code = main(["run", "--task", task, "--image", str(SAMPLES / "erp-light-wh01.png")])
    out = capsys.readouterr().out
    assert code == 1  # asked, not done: stdin is no terminal, so nobody said yes
    assert "I read this as: replenish every low SKU except SKU-10232" in out
    assert _open_orders(seeded) == {}

    out = _run(task, capsys, "--yes")
    skus = {sku for sku, _, _, _ in _open_orders(seeded).values()}
    assert skus and "SKU-10232" not in skus
