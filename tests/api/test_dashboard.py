"""The dashboard end to end in headless Chromium against `stockshot serve`."""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import SAMPLE, open_orders
from tests.api.serve import KEY, Served

# Chromium is launched the way the corpora launch it; their code is its own top-level package.
sys.path.append(str(Path(__file__).resolve().parents[2] / "corpus"))
from screengen.chromium import CHROMIUM, HEADLESS_ARGS

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Chromium is not at /usr/bin/chromium and could not be installed here "
        "(`make chromium` installs it with apt-get where apt is available)",
    ),
]


@contextlib.contextmanager
def uploaded(served: Served) -> Iterator[tuple[Any, Any]]:
    """The dashboard in Chromium with the key given and the demo screenshot read: (page,
    Playwright's sync API)."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed: pip install -e '.[dev]'"
    )
    assert shutil.which(str(CHROMIUM))
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(HEADLESS_ARGS)
        )
        try:
            page = browser.new_page()
            page.set_default_timeout(60_000)
            # Assertions wait as long as actions do: an upload is read by OCR, which takes
            # seconds on a busy machine (Playwright's own assertion default is 5 s).
            sync_api.expect.set_options(timeout=60_000)
            page.goto(served.url + "/")
            page.wait_for_selector("body[data-ready='true']")
            page.get_by_text("API key", exact=True).click()
            page.get_by_label("API key (needed when the server has keys, STOCKSHOT_API_KEYS)").fill(
                KEY
            )
            page.get_by_label("Choose a screenshot").set_input_files(str(SAMPLE))
            table = page.get_by_role("table", name="Rows read from the screenshot")
            sync_api.expect(table.get_by_role("row")).to_have_count(18)
            yield page, sync_api
        finally:
            browser.close()


def test_upload_run_review_and_approve_and_the_ledger_holds_exactly_the_approved_orders(
    served: Served, tmp_path: Path
) -> None:
    shots = tmp_path  # the page as a person saw it, kept with the test's files
    with uploaded(served) as (page, sync_api):
        table = page.get_by_role("table", name="Rows read from the screenshot")
        low = table.locator("tr.low")
        sync_api.expect(low).to_have_count(7)
        sync_api.expect(low.first).to_contain_text("SKU-10232")
        sync_api.expect(low.first).to_contain_text("LOW")
        sync_api.expect(page.locator("#capture")).to_contain_text("(png-text)")
        assert page.locator("#crop-box").get_attribute("width") not in (None, "", "0")

        page.get_by_label("Task").fill("find the SKUs that are low and raise replenishment orders")
        page.get_by_role("button", name="Run").click()

        steps = page.get_by_role("list", name="Run steps")
        sync_api.expect(steps).to_contain_text("Finished (done)")
        sync_api.expect(steps.locator("li.tool").first).to_be_visible()
        sync_api.expect(steps.locator("li.proposal")).to_have_count(5)
        sync_api.expect(steps.locator("li.ledger")).to_contain_text("waiting for approval 5")
        run_id = page.locator("#run-status").inner_text().split()[1]
        assert open_orders(served.db, run_id=run_id) == set()

        inbox = page.get_by_role("table", name="Writes waiting for approval")
        sync_api.expect(inbox.locator("tbody tr")).to_have_count(5)
        row = inbox.locator("tbody tr", has_text="SKU-10232")
        sync_api.expect(row).to_contain_text("38 (reorder point 120)")
        sync_api.expect(row).to_contain_text("38 + 0 on order")
        sync_api.expect(row).to_contain_text("Hex nut M8 (box of 200)) in WH-01 × 202 (policy")
        denied = inbox.locator("tbody tr", has_text="SKU-10520")
        page.once("dialog", lambda dialog: dialog.dismiss())  # asked why, changed their mind
        denied.get_by_role("button", name="Deny").click()
        sync_api.expect(denied).to_contain_text("pending")
        page.once("dialog", lambda dialog: dialog.accept("bubble wrap comes from the other site"))
        denied.get_by_role("button", name="Deny").click()
        sync_api.expect(denied).to_contain_text("denied")
        sync_api.expect(denied).to_contain_text("bubble wrap comes from the other site")
        for sku in ("SKU-10232", "SKU-10310", "SKU-10318", "SKU-10501"):
            inbox.locator("tbody tr", has_text=sku).get_by_role("checkbox").check()
        page.get_by_role("button", name="Approve selected").click()
        sync_api.expect(row).to_contain_text("approved: PO-")
        orders = page.get_by_role("table", name="Replenishment orders raised by the last run")
        sync_api.expect(orders.locator("tbody tr")).to_have_count(4)
        sync_api.expect(orders).to_contain_text("SKU-10232")
        assert open_orders(served.db, run_id=run_id) == {
            ("SKU-10232", "WH-01"),
            ("SKU-10310", "WH-01"),
            ("SKU-10318", "WH-01"),
            ("SKU-10501", "WH-01"),
        }

        # The run history: the run, then its detail with who proposed and who decided.
        page.get_by_role("button", name="Refresh").last.click()
        history = page.get_by_role("table", name="Runs, newest first")
        listed = history.locator("tbody tr", has_text=run_id)
        sync_api.expect(listed).to_contain_text("done")
        listed.get_by_role("button", name="Details").click()
        detail = page.locator("#run-detail")
        sync_api.expect(detail).to_contain_text(f"Run {run_id}")
        assert page.url.endswith(f"#/runs/{run_id}")  # an address to link to
        sync_api.expect(detail).to_contain_text("Replenish what is low")
        sync_api.expect(detail.get_by_role("list", name="The run's tool calls")).to_contain_text(
            "inventory_query_stock"
        )
        decided = page.get_by_role("table", name="The run's proposals and who decided them")
        sync_api.expect(decided.locator("tbody tr")).to_have_count(5)
        sync_api.expect(decided.locator("tbody tr", has_text="SKU-10520")).to_contain_text("denied")
        approved = decided.locator("tbody tr", has_text="SKU-10232")
        sync_api.expect(approved).to_contain_text("approved")
        sync_api.expect(approved).to_contain_text("api:key-1")
        page.screenshot(path=str(shots / "run-detail.png"), full_page=True)

        # An approver's key cancels an order from the page; the ledger and the audit say so.
        ordered = page.get_by_role("table", name="The run's orders")
        sync_api.expect(ordered.locator("tbody tr")).to_have_count(4)
        first = ordered.locator("tbody tr", has_text="SKU-10232")
        page.once("dialog", lambda dialog: dialog.dismiss())  # asked to confirm: not now
        first.get_by_role("button", name="Cancel").click()
        sync_api.expect(first.get_by_role("button", name="Cancel")).to_be_visible()
        page.once("dialog", lambda dialog: dialog.accept("ordered twice by mistake"))
        first.get_by_role("button", name="Cancel").click()
        sync_api.expect(first).to_contain_text("cancelled by api:key-1")
        page.screenshot(path=str(shots / "order-cancelled.png"), full_page=True)
    assert open_orders(served.db, run_id=run_id) == {
        ("SKU-10310", "WH-01"),
        ("SKU-10318", "WH-01"),
        ("SKU-10501", "WH-01"),
    }
    for name in ("run-detail.png", "order-cancelled.png"):
        assert (shots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_contract_shows_how_the_task_is_read_and_a_report_raises_no_orders(
    served: Served,
) -> None:
    with uploaded(served) as (page, sync_api):
        contract = page.locator("#contract")
        page.get_by_label("Task").fill("write me a poem")
        sync_api.expect(contract).to_contain_text("Not understood")
        sync_api.expect(contract).to_contain_text("You can ask")

        page.get_by_label("Task").fill("先别下单，看看哪些缺货")
        sync_api.expect(contract).to_contain_text("Report only")
        sync_api.expect(contract).to_contain_text("Writes")
        page.get_by_role("button", name="Run").click()

        steps = page.get_by_role("list", name="Run steps")
        sync_api.expect(steps).to_contain_text("Finished (done)")
        sync_api.expect(steps).to_contain_text("nothing was ordered")
        note = page.locator("#orders-note")
        sync_api.expect(note).to_contain_text("raised no orders")
        run_id = note.inner_text().split()[1]
    assert open_orders(served.db, run_id=run_id) == set()


def test_a_run_that_asks_shows_its_reading_and_go_ahead_runs_exactly_it(served: Served) -> None:
    with uploaded(served) as (page, sync_api):
        page.get_by_label("Task").fill("Replenish the low rows, leave SKU-10232 alone.")
        page.get_by_role("button", name="Run").click()

        steps = page.get_by_role("list", name="Run steps")
        sync_api.expect(steps).to_contain_text("Finished (ask")
        sync_api.expect(steps).to_contain_text(
            "I read this as: replenish every low SKU except SKU-10232"
        )
        page.get_by_role("button", name="Go ahead").click()
        sync_api.expect(page.locator("#run-status")).to_contain_text(
            "finished: done", timeout=120_000
        )
        sync_api.expect(steps).to_contain_text("Finished (done")
        proposed = page.locator("#steps li.proposal")
        assert proposed.count() > 0
        assert "SKU-10232" not in " ".join(proposed.all_inner_texts())
