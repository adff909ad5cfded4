"""The dashboard end to end in headless Chromium against `stockshot serve`."""

from __future__ import annotations

import contextlib
import re
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
def dashboard(served: Served) -> Iterator[tuple[Any, Any]]:
    """The dashboard open in Chromium, no key given yet: (page, Playwright's sync API)."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed: pip install -e '.[dev]'"
    )
    assert shutil.which(str(CHROMIUM))
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(HEADLESS_ARGS)
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.set_default_timeout(60_000)
            # Assertions wait as long as actions do: an upload is read by OCR, which takes
            # seconds on a busy machine (Playwright's own assertion default is 5 s).
            sync_api.expect.set_options(timeout=60_000)
            page.goto(served.url + "/")
            page.wait_for_selector("body[data-ready='true']")
            yield page, sync_api
        finally:
            browser.close()


@contextlib.contextmanager
def uploaded(served: Served) -> Iterator[tuple[Any, Any]]:
    """The dashboard in Chromium with the key given and the demo screenshot read."""
    with dashboard(served) as (page, sync_api):
        # The server has keys: the page opens the key box by itself, asking for one.
        sync_api.expect(page.locator("#key-box")).to_have_attribute("open", "")
        page.get_by_label("API key (needed when the server has keys, STOCKSHOT_API_KEYS)").fill(KEY)
        page.get_by_label("Choose a screenshot").set_input_files(str(SAMPLE))
        table = page.get_by_role("table", name="Rows read from the screenshot")
        sync_api.expect(table.get_by_role("row")).to_have_count(18)
        yield page, sync_api


def test_upload_run_review_and_approve_and_the_ledger_holds_exactly_the_approved_orders(
    served: Served, tmp_path: Path
) -> None:
    shots = tmp_path  # the page as a person saw it, kept with the test's files
    with uploaded(served) as (page, sync_api):
        expect = sync_api.expect
        table = page.get_by_role("table", name="Rows read from the screenshot")
        low = table.locator("tr.low")
        expect(low).to_have_count(7)
        expect(low.first).to_contain_text("SKU-10232")
        expect(low.first).to_contain_text("LOW")
        expect(page.locator("#capture")).to_contain_text("(png-text)")
        assert page.locator("#crop-box").get_attribute("width") not in (None, "", "0")

        page.get_by_label("Task").fill("find the SKUs that are low and raise replenishment orders")
        page.get_by_role("button", name="Run").click()

        steps = page.get_by_role("list", name="Run steps")
        expect(steps).to_contain_text("Finished (done)")
        expect(steps.locator("li.tool").first).to_be_visible()
        expect(steps.locator("li.proposal")).to_have_count(5)
        expect(steps.locator("li.ledger")).to_contain_text("waiting for approval 5")
        run_id = page.locator("#run-status").inner_text().split()[1]
        assert open_orders(served.db, run_id=run_id) == set()

        # The inbox: the run's proposals under one heading that says where they came from.
        inbox = page.get_by_role("table", name="Writes waiting for approval")
        expect(inbox.locator("tbody tr[data-id]")).to_have_count(5)
        (group,) = inbox.locator("tr.group").all()
        expect(group).to_contain_text(
            f"From run {run_id} started by api:key-1, read from {SAMPLE.name}"
        )
        expect(group.get_by_role("link", name="open the run")).to_have_attribute(
            "href", f"#/runs/{run_id}"
        )
        row = inbox.locator("tbody tr", has_text="SKU-10232")
        expect(row).to_contain_text("38 (reorder point 120)")
        expect(row).to_contain_text("38 + 0 on order")
        expect(row).to_contain_text("Hex nut M8 (box of 200)) in WH-01 × 202 (policy")
        group.get_by_role("button", name=f"Screenshot {SAMPLE.name}").click()
        dialog = page.get_by_role("dialog", name=f"Screenshot {SAMPLE.name}")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("table found at")
        assert page.locator("#dialog-crop-box").get_attribute("width") not in (None, "", "0")
        page.screenshot(path=str(shots / "inbox-screenshot.png"))
        dialog.get_by_role("button", name="Close").click()
        expect(dialog).to_be_hidden()
        page.locator("#h-approvals").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "inbox.png"), full_page=True)

        denied = inbox.locator("tbody tr", has_text="SKU-10520")
        page.once("dialog", lambda dialog: dialog.dismiss())  # asked why, changed their mind
        denied.get_by_role("button", name="Deny").click()
        expect(denied).to_contain_text("pending")
        page.once("dialog", lambda dialog: dialog.accept("bubble wrap comes from the other site"))
        denied.get_by_role("button", name="Deny").click()
        expect(denied).to_contain_text("denied")
        expect(denied).to_contain_text("bubble wrap comes from the other site")
        for sku in ("SKU-10232", "SKU-10310", "SKU-10318", "SKU-10501"):
            inbox.locator("tbody tr", has_text=sku).get_by_role("checkbox").check()
        page.get_by_role("button", name="Approve selected").click()
        expect(row).to_contain_text("approved: PO-")
        assert open_orders(served.db, run_id=run_id) == {
            ("SKU-10232", "WH-01"),
            ("SKU-10310", "WH-01"),
            ("SKU-10318", "WH-01"),
            ("SKU-10501", "WH-01"),
        }

        # The orders view: every order, each with its run, proposal, approver and screenshot.
        orders = page.get_by_role("table", name="Orders from every source, newest first")
        expect(orders.locator("tbody tr", has_text=run_id)).to_have_count(4)
        expect(page.locator("#orders-note")).to_contain_text(f"4 order(s) raised by run {run_id}")
        ordered = orders.locator("tbody tr", has_text="SKU-10232 in WH-01 × 202")
        expect(ordered).to_contain_text(f"run {run_id} started by api:key-1")
        expect(ordered.get_by_role("link", name="open the run")).to_be_visible()
        expect(ordered.get_by_role("link", name="AP-")).to_be_visible()
        expect(ordered.locator("td").nth(5)).to_have_text("api:key-1")  # approved by
        expect(ordered.get_by_role("button", name=f"Screenshot {SAMPLE.name}")).to_be_visible()
        order_id = ordered.locator("td").first.inner_text()
        page.locator("#h-orders").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "orders.png"), full_page=True)

        # A run's address opens its detail: the screenshot outlined, the steps in plain words,
        # each proposal with its quantity and who decided it.
        ordered.get_by_role("link", name="open the run").click()
        detail = page.locator("#run-detail")
        expect(detail).to_contain_text(f"Run {run_id}")
        assert page.url.endswith(f"#/runs/{run_id}")
        expect(detail).to_contain_text("Replenish what is low")
        expect(page.locator("#run-caption")).to_contain_text(f"{SAMPLE.name}: table found at")
        expect(page.locator("#run-shot")).to_have_attribute("src", re.compile("^blob:"))
        assert page.locator("#run-crop-box").get_attribute("width") not in (None, "", "0")
        said = detail.get_by_role("list", name="The run's steps")
        expect(said).to_contain_text(
            "read live stock of 7 SKUs in WH-01: SKU-10232 38 on hand, reorder point 120: low"
        )
        expect(said).to_contain_text("proposed ordering 202 of SKU-10232 in WH-01 (AP-")
        expect(said).not_to_contain_text("policy")
        expect(said).not_to_contain_text("{")
        decided = page.get_by_role("table", name="The run's proposals and who decided them")
        expect(decided.locator("tbody tr")).to_have_count(5)
        expect(decided.locator("tbody tr", has_text="SKU-10520")).to_contain_text(
            "denied: bubble wrap comes from the other site"
        )
        expect(decided.locator("tbody tr", has_text="SKU-10520")).to_contain_text("17")
        approved = decided.locator("tbody tr", has_text="SKU-10232")
        expect(approved).to_contain_text("approved")
        expect(approved).to_contain_text("202")
        expect(approved).to_contain_text("api:key-1")
        page.locator("#run-detail").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "run-detail.png"), full_page=True)

        # An order's and a proposal's address mark it in its table.
        page.evaluate(f"window.location.hash = '#/orders/{order_id}'")
        expect(orders.locator("tr.focus")).to_contain_text(order_id)
        approved.get_by_role("link", name=re.compile("^AP-")).click()
        expect(inbox.locator("tr.focus")).to_contain_text("SKU-10232")
        expect(page.locator("#approval-filter")).to_have_value("")

        # An approver's key cancels an order from the orders view, asked to confirm and why.
        ordered = orders.locator("tbody tr", has_text=order_id)
        page.once("dialog", lambda dialog: dialog.dismiss())  # asked to confirm: not now
        ordered.get_by_role("button", name="Cancel").click()
        expect(ordered.get_by_role("button", name="Cancel")).to_be_visible()
        page.once("dialog", lambda dialog: dialog.accept("ordered twice by mistake"))
        ordered.get_by_role("button", name="Cancel").click()
        expect(ordered).to_contain_text("by api:key-1: ordered twice by mistake")
        expect(ordered.get_by_role("button", name="Cancel")).to_have_count(0)
        page.locator("#h-orders").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "order-cancelled.png"), full_page=True)
    assert open_orders(served.db, run_id=run_id) == {
        ("SKU-10310", "WH-01"),
        ("SKU-10318", "WH-01"),
        ("SKU-10501", "WH-01"),
    }
    for name in ("inbox-screenshot.png", "inbox.png", "orders.png", "run-detail.png"):
        assert (shots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (shots / "order-cancelled.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_a_key_each_section_says_to_enter_one_and_opens_the_key_box(
    served: Served, tmp_path: Path
) -> None:
    with dashboard(served) as (page, sync_api):
        needs_key = "This server needs an API key: open \u201cAPI key\u201d at the top"
        for note in ("#approvals-note", "#orders-note", "#history-note"):
            sync_api.expect(page.locator(note)).to_contain_text(needs_key)
        sync_api.expect(page.locator("#key-box")).to_have_attribute("open", "")
        assert "X-API-Key" not in page.locator("main").inner_text()
        page.screenshot(path=str(tmp_path / "no-key.png"), full_page=True)


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
        page.get_by_label("Task").fill("Replenish the low rows, SKU-10232 is quarantined.")
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
