// The stockshot dashboard: plain browser JavaScript, no build step.
"use strict";

const $ = (selector) => document.querySelector(selector);
const state = { ingestId: null, objectUrl: null, runId: null };

function apiKey() {
  return $("#api-key").value.trim();
}

function headers(extra = {}) {
  const key = apiKey();
  return key ? { ...extra, "X-API-Key": key } : extra;
}

// A refusal for want of a key says what to do on this page; any other refusal is the
// server's own message.
const KEY_WORDS = {
  missing_key: () =>
    "This server needs an API key: open “API key” at the top of the page and enter yours.",
  unknown_key: () =>
    "The API key entered is not one this server knows: check it under “API key” at the top of the page.",
  role_required: (body) =>
    `Your API key may not do this: it needs the ${(body.details && body.details.role) || "right"} ` +
    "role. Ask whoever runs the server for a key that has it.",
};

async function failure(response) {
  try {
    const body = await response.json();
    const words = KEY_WORDS[body.error];
    if (words) {
      if (body.error !== "role_required") $("#key-box").open = true;
      return words(body);
    }
    return body.message || `${response.status} ${response.statusText}`;
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "class") node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function ago(seconds) {
  const s = Math.max(0, seconds);
  if (s < 90) return `${Math.round(s)} s ago`;
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 172800) return `${(s / 3600).toFixed(1)} h ago`;
  return `${(s / 86400).toFixed(1)} days ago`;
}

function status(selector, text, isError = false) {
  const node = $(selector);
  node.textContent = text;
  node.classList.toggle("error", isError);
}

function fillTable(selector, items, row) {
  // A table shown only when it has rows: one row per item in its body.
  $(selector).hidden = items.length === 0;
  $(`${selector} tbody`).replaceChildren(...items.map(row));
}

// ---- 1. upload

async function upload(file, columns = null, save = null) {
  if (!file) return;
  state.file = file;
  status("#upload-status", `Reading ${file.name || "the pasted image"}…`);
  const form = new FormData();
  form.append("file", file, file.name || "pasted.png");
  if (columns) form.append("columns", columns);
  if (columns && save !== null) form.append("save_profile", save || "dashboard");
  const capturedAt = $("#captured-at").value;
  // datetime-local is this browser's local time; send it as an absolute instant.
  if (capturedAt) form.append("captured_at", new Date(capturedAt).toISOString());
  let response;
  try {
    response = await fetch("/v1/ingest", { method: "POST", body: form, headers: headers() });
  } catch (error) {
    status("#upload-status", `The server did not answer: ${error}`, true);
    return;
  }
  if (!response.ok) {
    status("#upload-status", await failure(response), true);
    return;
  }
  const result = (await response.json()).results[0];
  state.ingestId = result.id;
  if (state.objectUrl) URL.revokeObjectURL(state.objectUrl);
  state.objectUrl = URL.createObjectURL(file);
  show(result, state.objectUrl);
  const low = result.rows.filter(isLow).length;
  status(
    "#upload-status",
    `Read ${result.rows.length} rows (${low} low) from ${result.file} in ` +
      `${Math.round(result.timings_ms.total || 0)} ms, cache ${result.cache}.`,
  );
}

function isLow(row) {
  return row.on_hand !== null && row.reorder_point !== null && row.on_hand < row.reorder_point;
}

function show(result, url) {
  $("#result").hidden = false;
  const captured = new Date(result.captured_at);
  $("#capture").textContent =
    `Captured ${captured.toLocaleString()} (${result.captured_at_source}), ` +
    `${ago(result.age_s)} · ${result.strategy} · ${result.engine}`;
  drawShot("", { name: result.file, size: result.size, crop: result.crop }, url);
  const warnings = $("#warnings");
  warnings.replaceChildren(...result.warnings.map((w) => el("li", {}, w)));
  renderMapping(result);
  renderTable(result);
}

// A screenshot with the table's box outlined: `prefix` names the figure ("" for the upload,
// "run-" in a run's detail, "dialog-" in the screenshot dialog).
function drawShot(prefix, screen, url) {
  const img = $(`#${prefix}shot`);
  img.src = url;
  const box = $(`#${prefix}crop-box`);
  const caption = $(`#${prefix === "" ? "crop-" : prefix}caption`);
  if (!screen.size) {
    img.alt = `The screenshot ${screen.name}`;
    box.style.display = "none";
    caption.textContent = `${screen.name}: where its table was is not kept.`;
    return;
  }
  const [width, height] = screen.size;
  img.alt = `The screenshot ${screen.name}, ${width}×${height} pixels`;
  $(`#${prefix}overlay`).setAttribute("viewBox", `0 0 ${width} ${height}`);
  if (screen.crop) {
    const [x0, y0, x1, y1] = screen.crop;
    box.setAttribute("x", x0);
    box.setAttribute("y", y0);
    box.setAttribute("width", x1 - x0);
    box.setAttribute("height", y1 - y0);
    box.style.display = "";
    caption.textContent = `${screen.name}: table found at x ${x0}–${x1}, y ${y0}–${y1} (outlined).`;
  } else {
    box.style.display = "none";
    caption.textContent = `${screen.name}: no table region was found; the whole screen was read.`;
  }
}

// A screenshot kept by the server, fetched with the key (an <img> cannot send one).
async function screenUrl(ingestId) {
  const response = await fetch(`/v1/ingest/${encodeURIComponent(ingestId)}/image`, {
    headers: headers(),
  });
  if (!response.ok) throw new Error(await failure(response));
  return URL.createObjectURL(await response.blob());
}

// The screenshot a write was read from, in a dialog, outlined as its run read it.
async function openScreen(source) {
  const dialog = $("#screen-dialog");
  let screen = { name: source.screen || "the screenshot" };
  try {
    if (source.run_id) {
      const response = await fetch(`/v1/runs/${encodeURIComponent(source.run_id)}`, {
        headers: headers(),
      });
      if (!response.ok) throw new Error(await failure(response));
      const screens = (await response.json()).screens || [];
      screen =
        screens.find((s) => source.ingest_id && s.ingest_id === source.ingest_id) ||
        screens.find((s) => s.name === source.screen) ||
        (screens.length === 1 ? screens[0] : screen);
    }
    if (!screen.ingest_id && !source.ingest_id) throw new Error("The run read no screenshot.");
    if (screen.kept === false) {
      throw new Error(`${screen.name} is no longer kept (screenshots are kept for a set number of days after they were last read); upload it again to see it.`);
    }
    drawShot("dialog-", screen, await screenUrl(screen.ingest_id || source.ingest_id));
  } catch (error) {
    $("#dialog-shot").removeAttribute("src");
    $("#dialog-caption").textContent = String(error.message || error);
  }
  $("#h-screen-dialog").textContent = `Screenshot ${screen.name}`;
  if (!dialog.open) dialog.showModal();
}

function screenButton(source) {
  // The link to a write's screenshot, or why there is none.
  if (!source || !(source.ingest_id || source.run_id)) {
    return source && source.kind === "mcp" ? "none (MCP client)" : "—";
  }
  const button = el("button", { type: "button", class: "link" }, source.screen || "screenshot");
  button.setAttribute("aria-label", `Screenshot ${source.screen || ""}`.trim());
  button.addEventListener("click", () => openScreen(source));
  return button;
}

function link(address, text) {
  return el("a", { href: address }, text);
}

// ---- 2b. the column mapping, with its evidence; a person corrects it and keeps it

const FIELDS = ["sku", "name", "on_hand", "reorder_point", "warehouse_id"];

function renderMapping(result) {
  state.result = result;
  const columns = result.table.columns || [];
  const box = $("#mapping-box");
  box.hidden = !columns.length;
  const unsure = result.warnings.some((w) => w.startsWith("column mapping unsure"));
  if (unsure) box.open = true;
  $("#mapping-summary").textContent = unsure
    ? "Columns: the mapping is unsure, check it"
    : `Columns: how each was read (${result.layout || "table"})`;
  $("#mapping tbody").replaceChildren(
    ...columns.map((column, index) => {
      const select = el("select", { "data-index": String(index), "aria-label": `Field of ${column.header || "column " + (index + 1)}` });
      for (const field of ["", ...FIELDS]) {
        const option = el("option", { value: field }, field || "(none)");
        if ((column.maps_to || "") === field) option.selected = true;
        select.append(option);
      }
      return el(
        "tr",
        column.maps_to && column.confidence < 0.5 ? { class: "low" } : {},
        el("td", {}, column.header || `(column ${index + 1})`),
        el("td", {}, select),
        el("td", { class: "num" }, column.confidence.toFixed(2)),
        el("td", {}, `${column.why}${column.unit ? ` · unit ${column.unit}` : ""} · ${column.source}`),
      );
    }),
  );
}

function chosenColumns() {
  const columns = state.result.table.columns;
  const pairs = [];
  for (const select of document.querySelectorAll("#mapping select")) {
    const field = select.value;
    const header = columns[Number(select.dataset.index)].header;
    if (field && header) pairs.push(`${field}=${header}`);
  }
  return pairs.join(",");
}

async function applyMapping(save) {
  if (!state.file) return;
  const columns = chosenColumns();
  if (!columns) {
    status("#mapping-status", "Choose the field of at least one column first.", true);
    return;
  }
  await upload(state.file, columns, save ? $("#profile-name").value.trim() : null);
  status(
    "#mapping-status",
    save ? "Saved: the next screenshot of this screen maps the same way." : "Read again with these columns.",
  );
}

function renderTable(result) {
  const thead = $("#rows thead");
  const tbody = $("#rows tbody");
  if (result.rows.length) {
    const cols = ["SKU", "Name", "On hand", "Reorder point", "Warehouse", "Confidence", "Status"];
    thead.replaceChildren(el("tr", {}, ...cols.map((c) => el("th", { scope: "col" }, c))));
    tbody.replaceChildren(
      ...result.rows.map((row) => {
        const low = isLow(row);
        return el(
          "tr",
          low ? { class: "low" } : {},
          el("td", {}, row.sku ?? ""),
          el("td", {}, row.name ?? ""),
          el("td", { class: "num" }, row.on_hand === null ? "" : String(row.on_hand)),
          el("td", { class: "num" }, row.reorder_point === null ? "" : String(row.reorder_point)),
          el("td", {}, row.warehouse_id ?? ""),
          el("td", { class: "num" }, row.confidence.toFixed(2)),
          el("td", {}, low ? el("span", { class: "badge low" }, "LOW") : "ok"),
        );
      }),
    );
  } else {
    const header = result.table.header;
    thead.replaceChildren(el("tr", {}, ...header.map((c) => el("th", { scope: "col" }, c))));
    tbody.replaceChildren(
      ...result.table.cells.map((cells) => el("tr", {}, ...cells.map((c) => el("td", {}, c)))),
    );
  }
}

// ---- 3. run: the task contract, how the task is read before and during a run

const ACTIONS = {
  report: "Report only: read and answer, nothing is written",
  replenish: "Replenish what is low",
  order: "Order the quantities asked",
  cancel: "Cancel the orders named",
};

function listed(values, empty) {
  return values && values.length ? values.join(", ") : empty;
}

function contractView(contract, help) {
  const rows = [
    ["Action", ACTIONS[contract.action] || contract.action],
    ["Writes", contract.writes_allowed ? "allowed, each re-checked live" : "none"],
    ["Warehouses", listed(contract.warehouses, "any")],
    ["SKUs", listed(contract.skus, contract.screen_only ? "those on the screenshot" : "any")],
  ];
  if (contract.exclude_skus.length || contract.exclude_warehouses.length) {
    rows.push(["Excluded", listed([...contract.exclude_skus, ...contract.exclude_warehouses])]);
  }
  const quantities = Object.entries(contract.quantities).map(([sku, q]) => `${sku}: ${q}`);
  if (quantities.length) rows.push(["Quantities", quantities.join(", ")]);
  if (contract.quantity_rule) {
    const rule = contract.quantity_rule;
    rows.push([
      "Quantity rule",
      rule.kind === "each" ? `${rule.value} units each` : `up to ${rule.value} × the reorder point`,
    ]);
  }
  if (contract.order_ids.length) rows.push(["Orders to cancel", contract.order_ids.join(", ")]);
  for (const note of contract.notes) rows.push(["Note", note]);
  for (const why of contract.not_understood) rows.push(["Not understood", why]);
  const parts = [
    el("dl", {}, ...rows.flatMap(([name, value]) => [el("dt", {}, name), el("dd", {}, value)])),
  ];
  if (contract.not_understood.length && help) parts.push(el("p", { class: "hint" }, help));
  return parts;
}

function readingLine(contract) {
  const parts = [contract.action, contract.writes_allowed ? "writes allowed" : "no writes"];
  if (contract.warehouses.length) parts.push(contract.warehouses.join(", "));
  if (contract.skus.length) parts.push(`only ${contract.skus.join(", ")}`);
  const excluded = [...contract.exclude_skus, ...contract.exclude_warehouses];
  if (excluded.length) parts.push(`except ${excluded.join(", ")}`);
  return parts.join(" · ");
}

function showContract(contract, help, fallback, readings) {
  const box = $("#contract");
  box.classList.toggle("report", contract.action === "report" && !contract.not_understood.length);
  box.classList.toggle("unclear", contract.not_understood.length > 0);
  const parts = contractView(contract, help);
  if (fallback && fallback.writes_allowed && !contract.writes_allowed) {
    parts.push(
      el("p", { class: "hint" }, `What the understood words allow (a model that reads tasks may recover it): ${readingLine(fallback)}`),
    );
  }
  if (readings && readings.some((r) => r.source === "model")) {
    const items = readings
      .filter((r) => r.source !== "fallback")
      .map((r) => el("li", {}, `${r.source}: ${r.contract ? readingLine(r.contract) : ""}${r.note ? ` (${r.note})` : ""}`));
    parts.push(el("p", {}, "Readings of the task:"), el("ul", { class: "readings" }, ...items));
  }
  box.replaceChildren(...parts);
}

let contractTimer = null;
let contractAsked = "";

async function readContract() {
  const task = $("#task").value.trim();
  if (!task || task === contractAsked) return;
  contractAsked = task;
  try {
    const response = await fetch(`/v1/contract?task=${encodeURIComponent(task)}`, {
      headers: headers(),
    });
    if (!response.ok) return;
    const body = await response.json();
    if ($("#task").value.trim() === task) {
      showContract(body.task_contract, body.help, body.fallback);
    }
  } catch {
    // The contract preview is a convenience; the run itself still reads the task.
  }
}

function contractSoon() {
  clearTimeout(contractTimer);
  contractTimer = setTimeout(readContract, 250);
}

// ---- 3. run: start it and follow its events

async function startRun(event) {
  event.preventDefault();
  const button = $("#run");
  button.disabled = true;
  $("#steps").replaceChildren();
  status("#run-status", "Starting the run…");
  const body = {
    task: $("#task").value,
    ingest_ids: state.ingestId ? [state.ingestId] : [],
    dry_run: $("#dry-run").checked,
  };
  try {
    const response = await fetch("/v1/runs", {
      method: "POST",
      body: JSON.stringify(body),
      headers: headers({ "Content-Type": "application/json" }),
    });
    if (!response.ok) {
      status("#run-status", await failure(response), true);
      return;
    }
    const run = await response.json();
    showContract(run.task_contract);
    const state = run.status === "queued" ? "queued for a worker" : "running";
    status("#run-status", `Run ${run.id} is ${state}…`);
    await follow(run.id);
  } catch (error) {
    status("#run-status", `The run could not be followed: ${error}`, true);
  } finally {
    button.disabled = false;
  }
}

// EventSource cannot send an API key header, so the stream is read with fetch.
async function follow(runId) {
  const response = await fetch(`/v1/runs/${encodeURIComponent(runId)}/events`, {
    headers: headers({ Accept: "text/event-stream" }),
  });
  if (!response.ok) throw new Error(await failure(response));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (data) await onEvent(JSON.parse(data));
    }
  }
}

function step(kind, cls, ...content) {
  const item = el("li", { class: cls }, el("span", { class: "kind" }, kind), ...content);
  $("#steps").append(item);
  return item;
}

function brief(value, limit = 300) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

async function onEvent(event) {
  switch (event.type) {
    case "run_started": {
      const contract = event.task_contract;
      const read = contract ? `\ntask read as: ${ACTIONS[contract.action] || contract.action}` : "";
      step("Started", "", `tool groups: ${event.groups.join(", ")}${read}`);
      if (contract) showContract(contract, undefined, undefined, event.contract_readings);
      break;
    }
    case "model_response":
      if (event.content) step(`Model (hop ${event.hop})`, "", event.content);
      break;
    case "tool_call": {
      // The server's plain words for the call; its arguments and answer a click away.
      const refused = event.is_error;
      const label = refused ? "Refused" : event.dry_run ? "Dry run" : "Tool";
      const raw = el(
        "details",
        {},
        el("summary", {}, "arguments and answer"),
        el("code", {}, brief(event.arguments)),
        el("br"),
        `→ ${brief(event.result)}`,
      );
      step(`${label}: ${event.name}`, refused ? "tool refused" : "tool", event.words || "", raw);
      break;
    }
    case "guard": {
      const blocked = ["block", "end", "bounce"].includes(event.action);
      step(`Guard ${event.guard}: ${event.action}`, blocked ? "blocked" : "", event.message);
      break;
    }
    case "proposal":
      step(`Proposed ${event.id}`, "proposal", `${writeOf(event)}: waits for approval below`);
      await loadApprovals();
      break;
    case "run_finished": {
      const ok = event.status === "done";
      const by = event.final_by === "host" ? ", answer written by the host" : "";
      step(`Finished (${event.status}${by})`, ok ? "done" : "failed", event.final);
      if (event.status === "ask") await askStep(event.run_id);
      if (event.ledger) step("Ledger", "ledger", event.ledger);
      status("#run-status", `Run ${event.run_id} finished: ${event.status}.`, !ok);
      state.runId = event.run_id;
      await loadApprovals();
      await showOrders(event.run_id);
      document.dispatchEvent(new CustomEvent("stockshot:run-finished", { detail: event }));
      break;
    }
    default:
      break;
  }
}

// A run that was not read in full asks about the reading it would act on; a yes starts a
// run of exactly that reading, a no ends it.
async function askStep(runId) {
  const asked = await fetch(`/v1/runs/${encodeURIComponent(runId)}`, { headers: headers() });
  if (!asked.ok) return;
  const question = (await asked.json()).question;
  if (!question) return;
  const yes = el("button", { type: "button", class: "go-ahead" }, "Go ahead");
  const no = el("button", { type: "button", class: "decline" }, "No");
  const item = step("Question", "question", question.text, el("br"), yes, " ", no);
  async function answer(goAhead) {
    yes.disabled = no.disabled = true;
    const response = await fetch(`/v1/runs/${encodeURIComponent(runId)}/confirm`, {
      method: "POST",
      body: JSON.stringify({ go_ahead: goAhead }),
      headers: headers({ "Content-Type": "application/json" }),
    });
    if (!response.ok) {
      status("#run-status", await failure(response), true);
      return;
    }
    const body = await response.json();
    if (!goAhead) {
      item.append(el("br"), body.message);
      status("#run-status", body.message);
      return;
    }
    showContract(body.task_contract);
    status("#run-status", `Run ${body.id} acts on the reading you confirmed…`);
    await follow(body.id);
  }
  yes.addEventListener("click", () => answer(true));
  no.addEventListener("click", () => answer(false));
}

// ---- 4. approvals

function writeOf(proposal) {
  const a = proposal.arguments;
  const plan = proposal.planned;
  if (a.sku && plan) {
    const name = plan.name ? ` (${plan.name})` : "";
    const units = plan.quantity === null ? "0: not low now, an approval would be refused" : `${plan.quantity}`;
    const change = plan.change ? `; ${plan.change}` : "";
    return `${a.sku}${name} in ${a.warehouse_id} × ${units} (${plan.quantity_source}: ${plan.rule}${change})`;
  }
  if (a.sku) {
    if (proposal.quantity === undefined || proposal.quantity === null) {
      return `${a.sku} in ${a.warehouse_id}${proposal.quantity_why ? ` (${proposal.quantity_why})` : " (the quantity the reorder policy sets: see the inbox)"}`;
    }
    return `${a.sku} in ${a.warehouse_id} × ${proposal.quantity}${proposal.quantity_why ? ` (${proposal.quantity_why})` : ""}`;
  }
  if (a.order_id) return `cancel ${a.order_id}`;
  return `${proposal.tool} ${JSON.stringify(a)}`;
}

function screenOf(proposal) {
  const seen = proposal.observation;
  if (!seen || seen.on_hand === null || seen.on_hand === undefined) return "";
  return `${seen.on_hand} (reorder point ${seen.reorder_point ?? "?"})`;
}

function liveOf(proposal) {
  const live = proposal.live;
  if (!live) return "";
  return `${live.on_hand} + ${live.on_order} on order (reorder point ${live.reorder_point})`;
}

function resultOf(proposal) {
  if (proposal.status === "approved") return `approved: ${proposal.order_id ?? "running"}`;
  if (proposal.status === "pending") return "pending";
  return `${proposal.status}: ${proposal.reason ?? ""}`;
}

function approvalRow(proposal) {
  const pending = proposal.status === "pending";
  const box = el("input", { type: "checkbox", "aria-label": `Select ${proposal.id}` });
  box.dataset.id = proposal.id;
  box.disabled = !pending;
  const decide = el("td", {});
  if (pending) {
    const yes = el("button", { type: "button", class: "secondary small" }, "Approve");
    yes.setAttribute("aria-label", `Approve ${proposal.id}`);
    yes.addEventListener("click", () => decideOne(proposal.id, "approve"));
    const no = el("button", { type: "button", class: "secondary small deny" }, "Deny");
    no.setAttribute("aria-label", `Deny ${proposal.id}`);
    no.addEventListener("click", () => denyAsking([proposal.id]));
    decide.append(yes, no);
  }
  const age = proposal.screenshot_age_s === null ? "" : ago(proposal.screenshot_age_s);
  const row = el(
    "tr",
    { "data-id": proposal.id },
    el("td", {}, box),
    el("td", {}, link(`#/proposals/${encodeURIComponent(proposal.id)}`, proposal.id)),
    el("td", {}, writeOf(proposal)),
    el("td", {}, screenOf(proposal)),
    el("td", {}, liveOf(proposal)),
    el("td", {}, age),
    el("td", { class: proposal.status }, resultOf(proposal)),
    decide,
  );
  return row;
}

async function loadApprovals() {
  const filter = $("#approval-filter").value;
  const query = filter ? `?status=${encodeURIComponent(filter)}` : "";
  let response;
  try {
    response = await fetch(`/v1/approvals${query}`, { headers: headers() });
  } catch (error) {
    $("#approvals-note").textContent = `The server did not answer: ${error}`;
    return;
  }
  if (!response.ok) {
    $("#approvals-note").textContent = await failure(response);
    return;
  }
  const { proposals } = await response.json();
  $("#approvals-note").textContent = proposals.length
    ? `${proposals.length} proposal(s)${filter ? ` ${filter}` : ""}.`
    : `No ${filter || ""} proposals.`.replace("  ", " ");
  $("#approvals").hidden = proposals.length === 0;
  $("#approvals tbody").replaceChildren(...grouped(proposals));
}

function groupRow(source) {
  // The heading of one source's proposals: where they came from, its run and screenshot.
  const heading = el("th", { colspan: "8", scope: "rowgroup" }, `From ${source.words}`);
  if (source.run_id) heading.append(" · ", link(`#/runs/${encodeURIComponent(source.run_id)}`, "open the run"));
  if (source.ingest_id || source.screen) heading.append(" · screenshot ", screenButton(source));
  return el("tr", { class: "group" }, heading);
}

function grouped(proposals) {
  // Proposals of one run (or one MCP client) together, in the order they are listed.
  const groups = new Map();
  for (const proposal of proposals) {
    const source = proposal.source || { kind: "mcp", words: "an unknown source" };
    const key = source.run_id || `${source.kind}:${source.words}`;
    if (!groups.has(key)) groups.set(key, { source, rows: [] });
    groups.get(key).rows.push(approvalRow(proposal));
  }
  return [...groups.values()].flatMap((g) => [groupRow(g.source), ...g.rows]);
}

async function decideOne(id, action, reason) {
  // `reason`: why a denial is made, asked of the person before denying (decideSelected).
  const row = $(`#approvals tr[data-id="${id}"]`);
  const cell = row ? row.children[6] : null;
  if (cell) cell.textContent = action === "approve" ? "approving…" : "denying…";
  const init = { method: "POST", headers: headers({ "Content-Type": "application/json" }) };
  if (action === "deny") init.body = JSON.stringify({ reason: reason || null });
  let text;
  let cls;
  try {
    const response = await fetch(`/v1/approvals/${encodeURIComponent(id)}/${action}`, init);
    const body = await response.json();
    if (response.ok) {
      text = resultOf(body.proposal);
      cls = body.proposal.status;
    } else {
      text = `${body.proposal ? body.proposal.status : "not decided"}: ${body.message}`;
      cls = "failed";
    }
  } catch (error) {
    text = `the server did not answer: ${error}`;
    cls = "failed";
  }
  if (row) {
    cell.textContent = text;
    cell.className = cls;
    row.children[7].replaceChildren();
    row.children[0].firstChild.disabled = true;
  }
  await showOrders(state.runId);
  return cls;
}

function askReason(question) {
  // The person's reason, or null when they chose not to go on (Cancel in the dialog).
  const answer = window.prompt(question, "");
  return answer === null ? null : answer.trim();
}

async function denyAsking(ids) {
  const reason = askReason(`Deny ${ids.join(", ")}? Say why (kept with the decision):`);
  if (reason === null) return false;
  for (const id of ids) await decideOne(id, "deny", reason);
  return true;
}

async function decideSelected(action) {
  const chosen = [...document.querySelectorAll("#approvals tbody input[type=checkbox]:checked")];
  if (!chosen.length) {
    $("#approvals-note").textContent = "Select one or more pending proposals first.";
    return;
  }
  if (action === "deny") {
    if (!(await denyAsking(chosen.map((box) => box.dataset.id)))) return;
  } else {
    for (const box of chosen) await decideOne(box.dataset.id, action);
  }
  const done = action === "approve" ? "approved or refused" : "denied";
  $("#approvals-note").textContent = `${chosen.length} proposal(s) ${done}; see each row.`;
}

// ---- 5. orders: every order, whatever wrote it

async function showOrders(runId) {
  // Every order; with `runId`, the note says what that run raised and its rows are marked.
  let mine = [];
  if (runId) {
    const response = await fetch(`/v1/orders?run_id=${encodeURIComponent(runId)}`, {
      headers: headers(),
    });
    if (!response.ok) {
      $("#orders-note").textContent = await failure(response);
      return;
    }
    mine = (await response.json()).orders.map((o) => o.id);
  }
  const listed = await loadOrders(new Set(mine));
  if (runId && listed !== null) {
    $("#orders-note").textContent = mine.length
      ? `${mine.length} order(s) raised by run ${runId} (marked); ${listed} order(s) in all.`
      : `Run ${runId} raised no orders${$("#dry-run").checked ? " (dry run)" : ""}; ${listed} order(s) in all.`;
  }
}

function orderRow(order, marked) {
  const source = order.source;
  const proposal = order.proposal_id
    ? link(`#/proposals/${encodeURIComponent(order.proposal_id)}`, order.proposal_id)
    : "none: written at once";
  const approved = order.approved_by || (order.ordered_by ? `— (for ${order.ordered_by})` : "—");
  const cancelled = order.cancelled_by
    ? `by ${order.cancelled_by}${order.cancel_reason ? `: ${order.cancel_reason}` : ""}`
    : "";
  const from = el("td", {}, source ? source.words : "");
  if (source && source.run_id) from.append(" ", link(`#/runs/${encodeURIComponent(source.run_id)}`, "open the run"));
  return el(
    "tr",
    { "data-id": order.id, class: marked.has(order.id) ? "this-run" : "" },
    el("td", {}, link(`#/orders/${encodeURIComponent(order.id)}`, order.id)),
    el("td", {}, `${order.sku} in ${order.warehouse_id} × ${order.quantity}`),
    orderStatus(order),
    from,
    el("td", {}, proposal),
    el("td", {}, approved),
    el("td", {}, screenButton(source)),
    el("td", {}, new Date(order.created_at).toLocaleString()),
    el("td", {}, cancelled),
  );
}

async function loadOrders(marked = new Set()) {
  // The orders view; how many it lists, or null when they could not be read.
  const filter = $("#order-filter").value;
  const query = filter ? `&status=${encodeURIComponent(filter)}` : "";
  let response;
  try {
    response = await fetch(`/v1/orders?limit=100${query}`, { headers: headers() });
  } catch (error) {
    $("#orders-note").textContent = `The server did not answer: ${error}`;
    return null;
  }
  if (!response.ok) {
    $("#orders-note").textContent = await failure(response);
    return null;
  }
  const { orders } = await response.json();
  $("#orders-note").textContent = orders.length
    ? `${orders.length} ${filter || ""} order(s), newest first.`.replace("  ", " ")
    : `No ${filter || ""} orders yet.`.replace("  ", " ");
  fillTable("#orders", orders, (o) => orderRow(o, marked));
  return orders.length;
}

// ---- wiring

function wire() {
  $("#mapping-apply").addEventListener("click", () => applyMapping(false));
  $("#mapping-save").addEventListener("click", () => applyMapping(true));
  const keyInput = $("#api-key");
  keyInput.value = sessionStorage.getItem("stockshot-api-key") || "";
  keyInput.addEventListener("change", () =>
    sessionStorage.setItem("stockshot-api-key", keyInput.value.trim()),
  );
  $("#file").addEventListener("change", (e) => upload(e.target.files[0]));
  const drop = $("#drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    upload(e.dataTransfer.files[0]);
  });
  document.addEventListener("paste", (e) => {
    const item = [...(e.clipboardData?.items || [])].find((i) => i.type.startsWith("image/"));
    if (item) {
      e.preventDefault();
      upload(item.getAsFile());
    }
  });
  $("#run-form").addEventListener("submit", startRun);
  $("#task").addEventListener("input", contractSoon);
  readContract();
  $("#refresh-approvals").addEventListener("click", loadApprovals);
  $("#approval-filter").addEventListener("change", loadApprovals);
  $("#approve-selected").addEventListener("click", () => decideSelected("approve"));
  $("#deny-selected").addEventListener("click", () => decideSelected("deny"));
  keyInput.addEventListener("change", loadApprovals);
  $("#refresh-orders").addEventListener("click", () => showOrders(null));
  $("#order-filter").addEventListener("change", () => showOrders(null));
  keyInput.addEventListener("change", () => showOrders(null));
  document.addEventListener("stockshot:orders-changed", () => showOrders(null));
  loadApprovals();
  showOrders(null);
  document.body.dataset.ready = "true";
}

wire();
