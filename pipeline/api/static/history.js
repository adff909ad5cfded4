// The dashboard's run history and run detail, and cancelling an order (an approver's key).
// Loaded after app.js, whose helpers ($, el, headers, failure, brief, writeOf, fillTable,
// askReason) it uses.
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

// A run has an address to link to: #/runs/ID opens its detail.
const RUN_ADDRESS = /^#\/runs\/([^/]+)$/;

function openFromAddress() {
  const match = RUN_ADDRESS.exec(window.location.hash);
  if (match) showRun(decodeURIComponent(match[1]));
}

async function showRun(id) {
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
  $("#run-calls").replaceChildren(
    ...record.tool_calls.map((call) =>
      el(
        "li",
        { class: call.is_error ? "tool refused" : "tool" },
        el("strong", {}, call.name),
        " ",
        el("code", {}, brief(call.arguments)),
        el("br"),
        `→ ${brief(call.result)}`,
      ),
    ),
  );
  fillTable("#run-proposals", proposals, (p) =>
    el(
      "tr",
      {},
      el("td", {}, p.id),
      el("td", {}, writeOf(p)),
      el("td", { class: p.status }, p.status),
      el("td", {}, p.requested_by || "—"),
      el("td", {}, p.decided_by || "—"),
      el("td", {}, p.order_id || ""),
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
  const address = `#/runs/${encodeURIComponent(record.id)}`;
  if (window.location.hash !== address) window.history.replaceState(null, "", address);
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
