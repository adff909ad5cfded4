// The dashboard's run history and run detail, and cancelling an order (an approver's key).
// Loaded after app.js, whose helpers ($, el, headers, failure, brief, writeOf, fillTable,
// askReason, drawShot, screenUrl, link, loadApprovals, showOrders) it uses. Runs, orders and
// proposals have addresses: #/runs/ID, #/orders/ID, #/proposals/ID.
"use strict";

async function getJson(path) {
  const response = await fetch(path, { headers: headers() });
  if (!response.ok) throw new Error(await failure(response));
  return response.json();
}

function orderStatus(order) {
  // An order's status cell: open orders get a Cancel button.
  const cell = el("td", { class: order.status }, order.status);
  if (order.status === "open") {
    const button = el("button", { type: "button", class: "secondary" }, "Cancel");
    button.addEventListener("click", () => cancelOrder(order.id, cell));
    cell.append(" ", button);
  }
  return cell;
}

async function cancelOrder(id, cell) {
  // Cancelling is asked first, with a reason; choosing not to go on changes nothing.
  const reason = askReason(`Cancel order ${id}? Say why (kept with the cancellation):`);
  if (reason === null) return;
  cell.textContent = "cancelling…";
  const response = await fetch(`/v1/orders/${encodeURIComponent(id)}/cancel`, {
    method: "POST",
    headers: headers({ "Content-Type": "application/json" }),
    body: JSON.stringify({ reason: reason || null }),
  });
  if (!response.ok) {
    cell.textContent = `not cancelled: ${await failure(response)}`;
    cell.className = "failed";
    return;
  }
  const body = await response.json();
  cell.textContent = body.cancelled ? `cancelled by ${body.by}` : "was cancelled already";
  cell.className = "cancelled";
  document.dispatchEvent(new CustomEvent("stockshot:orders-changed"));
}

async function loadHistory() {
  let found;
  try {
    found = await getJson("/v1/runs?limit=20");
  } catch (error) {
    $("#history-note").textContent = String(error.message || error);
    return;
  }
  const { runs } = found;
  $("#history-note").textContent = runs.length ? `${runs.length} latest run(s).` : "No runs yet.";
  fillTable("#runs", runs, (run) => {
    const open = el("button", { type: "button", class: "secondary" }, "Details");
    open.addEventListener("click", () => showRun(run.id));
    const by = run.final_by === "host" ? " (answer written by the host)" : "";
    return el(
      "tr",
      { "data-id": run.id },
      el("td", {}, run.id),
      el("td", {}, new Date(run.started_at).toLocaleString()),
      el("td", {}, brief(run.task, 80)),
      el("td", { class: run.status }, `${run.status}${by}`),
      el("td", { class: "num" }, String(run.proposals.length)),
      el("td", {}, open),
    );
  });
}

function fact(term, value, attrs = {}) {
  return [el("dt", {}, term), el("dd", attrs, value || "—")];
}

// Addresses to link to: a run opens its detail; an order or a proposal is shown in its
// table (all statuses), marked and scrolled to.
const ADDRESSES = [
  [/^#\/runs\/([^/]+)$/, (id) => showRun(id, true)],
  [/^#\/orders\/([^/]+)$/, (id) => showIn("#order-filter", () => showOrders(null), "#orders", id)],
  [/^#\/proposals\/([^/]+)$/, (id) => showIn("#approval-filter", loadApprovals, "#approvals", id)],
];

function openFromAddress() {
  for (const [pattern, open] of ADDRESSES) {
    const match = pattern.exec(window.location.hash);
    if (match) {
      open(decodeURIComponent(match[1]));
      return;
    }
  }
}

async function showIn(filter, load, table, id) {
  $(filter).value = "";
  await load();
  for (const marked of document.querySelectorAll(`${table} tr.focus`)) marked.classList.remove("focus");
  const row = document.querySelector(`${table} tr[data-id="${CSS.escape(id)}"]`);
  if (row) {
    row.classList.add("focus");
    row.scrollIntoView({ block: "center" });
  } else {
    const note = table === "#orders" ? "#orders-note" : "#approvals-note";
    $(note).textContent = `${id} is not among the latest listed here.`;
  }
}

async function showScreen(screens) {
  // The first screenshot the run read that the server still keeps, its table outlined.
  const figure = $("#run-screen");
  const kept = screens.find((s) => s.kept);
  figure.hidden = screens.length === 0;
  if (!kept) {
    $("#run-shot").removeAttribute("src");
    $("#run-crop-box").style.display = "none";
    const names = screens.map((s) => s.name).join(", ");
    $("#run-caption").textContent = `${names}: the picture is no longer kept (screenshots are kept for a set number of days after they were last read).`;
    return;
  }
  try {
    drawShot("run-", kept, await screenUrl(kept.ingest_id));
  } catch (error) {
    $("#run-caption").textContent = String(error.message || error);
  }
  const others = screens.filter((s) => s !== kept).map((s) => s.name);
  if (others.length) $("#run-caption").append(` Also read: ${others.join(", ")}.`);
}

async function showRun(id, scroll = false) {
  let record;
  let proposals;
  let orders;
  try {
    record = await getJson(`/v1/runs/${encodeURIComponent(id)}`);
    ({ proposals } = await getJson(`/v1/approvals?run_id=${encodeURIComponent(id)}&limit=200`));
    ({ orders } = await getJson(`/v1/orders?run_id=${encodeURIComponent(id)}&limit=200`));
  } catch (error) {
    $("#history-note").textContent = String(error.message || error);
    return;
  }
  const by = record.final_by === "host" ? "the host" : record.final_by || "";
  const contract = record.task_contract;
  $("#h-run-detail").textContent = `Run ${record.id}`;
  $("#run-facts").replaceChildren(
    ...fact("Task", record.task),
    ...fact("Read as", contract ? contractWords(contract) : ""),
    ...fact("Status", `${record.status}${record.dry_run ? " (dry run)" : ""}`),
    ...fact("Answer", record.final ? `${record.final}${by ? ` (written by ${by})` : ""}` : "", {
      class: "as-written",
    }),
    ...fact("Ledger", record.ledger_summary ? record.ledger_summary.text : "", {
      class: "as-written",
    }),
    ...fact("Model", `${record.model} · ${record.approval} approval · ${record.hops} hops`),
  );
  // Each step in the words the server says it in (pipeline.api.plain), never read here.
  $("#run-calls").replaceChildren(
    ...record.said.map((step) =>
      el("li", { class: step.refused ? "tool refused" : "tool" }, step.words),
    ),
  );
  fillTable("#run-proposals", proposals, (p) =>
    el(
      "tr",
      { "data-id": p.id },
      el("td", {}, link(`#/proposals/${encodeURIComponent(p.id)}`, p.id)),
      el("td", {}, p.arguments.sku ? `${p.arguments.sku} in ${p.arguments.warehouse_id}` : writeOf(p)),
      el("td", { class: "num", title: p.quantity_why }, p.quantity === null ? "—" : String(p.quantity)),
      el("td", { class: p.status }, p.reason && p.status !== "approved" ? `${p.status}: ${p.reason}` : p.status),
      el("td", {}, p.requested_by || "—"),
      el("td", {}, p.decided_by || "—"),
      el("td", {}, p.order_id ? link(`#/orders/${encodeURIComponent(p.order_id)}`, p.order_id) : ""),
    ),
  );
  fillTable("#run-orders", orders, (o) =>
    el(
      "tr",
      { "data-id": o.id },
      el("td", {}, o.id),
      el("td", {}, o.sku),
      el("td", {}, o.warehouse_id),
      el("td", { class: "num" }, String(o.quantity)),
      orderStatus(o),
    ),
  );
  $("#run-detail").hidden = false;
  await showScreen(record.screens || []);
  const address = `#/runs/${encodeURIComponent(record.id)}`;
  if (window.location.hash !== address) window.history.replaceState(null, "", address);
  if (scroll) $("#run-detail").scrollIntoView();
}

function contractWords(contract) {
  const parts = [ACTIONS[contract.action] || contract.action];
  if (contract.skus.length) parts.push(`SKUs ${contract.skus.join(", ")}`);
  if (contract.exclude_skus.length) parts.push(`not ${contract.exclude_skus.join(", ")}`);
  if (contract.warehouses.length) parts.push(`in ${contract.warehouses.join(", ")}`);
  return parts.join(" · ");
}

$("#refresh-history").addEventListener("click", loadHistory);
$("#api-key").addEventListener("change", loadHistory);
document.addEventListener("stockshot:run-finished", loadHistory);
window.addEventListener("hashchange", openFromAddress);
loadHistory();
openFromAddress();
