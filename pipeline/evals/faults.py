"""Fault replay: the right plan, replayed through the failure modes small local models show.

This is not a model. It asks `RulesModel` for the right next step and then, by a fixed policy,
corrupts some steps the way the field reports describe small local models failing, so that each
host guard meets the mistake it exists for and its gain can be measured, not guessed.

Failure modes (`FAULT_KINDS`):
- `stall`: a reply that announces what it will do, in prose, and calls nothing;
- `prose_call`: the planned calls written in the reply text in one dialect a local runtime
  leaves behind: Hermes/Qwen `<tool_call>{...}</tool_call>`, Gemma
  `<|tool_call|>call:name{...}<tool_call|>`, Mistral `[TOOL_CALLS][...]`, Llama
  `<function=name>{...}</function>`, or fenced JSON;
- `truncation`: a reply that needs more tokens than the budget, cut mid-JSON with
  `finish_reason: "length"`, either in the text or inside a native tool call's arguments;
- `field_name`: a wrong or missing field name in one call (`warehouse` for `warehouse_id`,
  `sku_id` for `sku`, `warehouse_id` left out);
- `swap`: a SKU where the warehouse id belongs, and the warehouse id where the SKU belongs;
- `number_format`: a number sent as a string (`"202"`), full-width digits (`"２０２"`) or
  full-width punctuation (`WH－01`, `2026－11－28T10：05：00＋08：00`);
- `read_loop`: the read just made, made again instead of the next step;
- `skip_read`: orders written straight from the screenshot, before any live read, with
  quantities worked out from the screen's numbers;
- and, as reactions (below), identical resends of a call that was refused, and retries that
  change something other than the field a refusal named.

One failure spans a whole run: `ignore_task`, a model that reads the screen and not the
request. With probability `ignore_task_rate`, for a task whose contract is not the plain
replenishment, the replay plans the plain replenishment instead (it ignores "just tell me",
the scope, the quantities), until a block that cites the task contract makes it fix itself
(with probability `fix_rate` each time).

Policy, fixed in advance and the same for every case, seed and guard setting:
- Plan. Every reply starts from what `RulesModel` would do next, asked with the same tools and
  a clean view of the conversation: a call this replay corrupted appears with the arguments it
  was meant to have when it succeeded (a guard repaired it or the server accepted it), and is
  left out, with its result, when it failed or never ran.
- Faults. A step is a planned reply that makes tool calls; summaries and questions are never
  corrupted. The first time a step comes up, with probability `fault_rate` one failure mode is
  injected, picked among those that fit the step by the weights of `OBSERVED_WEIGHTS` (how
  often real small models showed each kind) (an argument fault needs a call
  with that argument, `read_loop` a previous reply of reads that succeeded, `skip_read` a
  planned live read before any order and a screen row shown low).
- Reaction. The request after a faulty reply either carries feedback (a tool error or a guard's
  block, or a message from the host such as a nudge) or not. With feedback, the replay corrects
  itself with probability `fix_rate`, sending the planned step whole and clean; otherwise it
  repeats itself: the same text again, or the calls that were refused sent again, identically
  or (for an argument fault, with probability `vary_rate`) with an unrelated field changed and
  the field the refusal named left as it was.
  Without feedback a read loop goes on (the same read again); any other fault is over, and
  what ran, ran. A truncated reply is cut again while the budget is below the length it
  needs, and arrives whole once the budget is large enough.
- Randomness. Each decision draws from `random.Random` seeded with the text
  `seed|case|decision|step`, so runs are reproducible, and the same step of the same case meets
  the same fault under every guard setting: an ablation compares like with like.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipeline.contract import contract_in, parse_task, render_contract
from pipeline.models import Message, ModelResponse, ModelSettings, ToolCall, ToolSpec, Usage
from pipeline.screentext import screens_in
from pipeline.vlm.rules import RulesModel

__all__ = [
    "DIALECTS",
    "FAULT_KINDS",
    "IGNORE_TASK",
    "FaultEvent",
    "FaultPolicy",
    "FaultReplay",
    "full_width",
    "render_prose",
]

STALL = "stall"
PROSE = "prose_call"
TRUNCATION = "truncation"
FIELD_NAME = "field_name"
SWAP = "swap"
NUMBER_FORMAT = "number_format"
READ_LOOP = "read_loop"
SKIP_READ = "skip_read"
FAULT_KINDS: tuple[str, ...] = (
    STALL,
    PROSE,
    TRUNCATION,
    FIELD_NAME,
    SWAP,
    NUMBER_FORMAT,
    READ_LOOP,
    SKIP_READ,
)
DIALECTS: tuple[str, ...] = ("hermes", "gemma", "mistral", "llama", "fenced_json")
IGNORE_TASK = "ignore_task"
PLAIN_TASK = "replenish the low items on this screen"
"""What a model that ignores the request does anyway."""
_ARGUMENT_FAULTS = (FIELD_NAME, SWAP, NUMBER_FORMAT)
_WRITE = "orders_create_replenishment"
_QUERY = "inventory_query_stock"


OBSERVED_WEIGHTS: dict[str, float] = {
    PROSE: 14,
    TRUNCATION: 9,
    STALL: 3,
    SKIP_READ: 3,
    READ_LOOP: 4,
    FIELD_NAME: 1,
    SWAP: 1,
    NUMBER_FORMAT: 1,
}
"""The mix of failure kinds, from what real small models did through this host: in how many
runs of the 14 core cases each showed, over two runs of them. Qwen2.5-Coder-0.5B with native
tools (2026-11-30, reports/eval-local.md): calls written as fenced JSON in all 14
(`prose_call`), replies cut at the token limit in 9 (`truncation`), prose that calls nothing in
3 (`stall`), writes before the live read in 3 (`freshness` blocked them), the same read again
in 2; with schema steps (2026-12-01) the same read again in 2 more. Argument faults (a wrong
field name, swapped ids, numbers as strings) were not seen in those runs; they keep a weight of
1 each, as the field reports describe them, so that the argument guards still meet them."""


@dataclass(frozen=True)
class FaultPolicy:
    fault_rate: float = 0.4
    """Chance that a step meets a failure mode the first time it comes up."""
    fix_rate: float = 0.6
    """Chance of a clean correction after feedback; otherwise the replay repeats itself."""
    vary_rate: float = 0.5
    """When it repeats a call refused for its arguments: chance that it changes an unrelated
    field (and leaves the named one as it was) instead of resending it identically."""
    faults: tuple[str, ...] = FAULT_KINDS
    weights: tuple[tuple[str, float], ...] = tuple(OBSERVED_WEIGHTS.items())
    """How often each kind is picked among those that fit a step (see `OBSERVED_WEIGHTS`)."""
    ignore_task_rate: float = 0.3
    """Chance that the replay ignores the task for the run (see `ignore_task`)."""
    truncation_need: tuple[float, float] = (1.3, 2.5)
    """A truncated reply needs this many times the budget it met (uniform between)."""


@dataclass(frozen=True)
class FaultEvent:
    """What the replay did at one request: `inject` (with the fault and its variant),
    `resend`, `repeat`, `fix` or `continue` (a read loop going on)."""

    request: int
    action: str
    kind: str
    detail: str = ""


@dataclass
class _Pending:
    kind: str
    sig: str
    content: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    need: int = 0
    variant: str = ""
    attempts: int = 0


class FaultReplay:
    """Replays scripted failure modes over the right plan (see the module docstring)."""

    def __init__(
        self,
        seed: int,
        case_id: str,
        *,
        policy: FaultPolicy | None = None,
        language: str | None = None,
        name: str = "fault-replay",
    ) -> None:
        self.name = name
        self.seed = seed
        self.case_id = case_id
        self.policy = policy or FaultPolicy()
        self.language = language
        """`en` or `zh` for the replay's own prose; by default the task's language, read from
        the conversation as a model would."""
        self.planner = RulesModel()
        self.events: list[FaultEvent] = []
        self._pending: _Pending | None = None
        self._seen: set[str] = set()
        self._marks: dict[str, dict[str, Any] | None] = {}
        self._requests = 0
        self._ids = 0
        self._ignoring: tuple[str, str] | None = None
        """(the contract block the host wrote, the plain replenishment's) while ignoring."""

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        self._requests += 1
        if self.language is None:
            self.language = _language(messages)
        self._ignore_task(messages)
        view = self._clean_view(messages)
        plan = await self.planner.request(view, tools, settings)
        reply = self._reply(plan, messages, view, tools, settings)
        return reply.model_copy(
            update={"model": self.name, "usage": _usage(messages, tools, reply, settings)}
        )

    # ---- decisions

    def _ignore_task(self, messages: Sequence[Message]) -> None:
        """Start ignoring the task at the first request, or stop after a contract block."""
        if self._requests == 1:
            contract = contract_in(messages)
            plain = parse_task(PLAIN_TASK)
            if contract != plain and self._draw(IGNORE_TASK) < self.policy.ignore_task_rate:
                self._ignoring = (render_contract(contract), render_contract(plain))
                self._log("inject", IGNORE_TASK, contract.summary())
            return
        if self._ignoring is None or not _blocked_by_contract(messages):
            return
        if self._draw("fix", IGNORE_TASK, self._requests) < self.policy.fix_rate:
            self._ignoring = None
            self._log("fix", IGNORE_TASK)
        else:
            self._log("repeat", IGNORE_TASK)

    def _draw(self, *parts: object) -> float:
        key = "|".join(str(p) for p in (self.seed, self.case_id, *parts))
        return random.Random(key).random()

    def _pick(self, options: Sequence[str], *parts: object) -> str:
        return options[min(len(options) - 1, int(self._draw(*parts) * len(options)))]

    def _pick_kind(self, kinds: Sequence[str], sig: str) -> str:
        """One of `kinds`, by the policy's weights (a kind it does not weigh counts 1)."""
        weights = dict(self.policy.weights)
        sizes = [max(0.0, weights.get(k, 1.0)) for k in kinds]
        point = self._draw("kind", sig) * (sum(sizes) or 1.0)
        for kind, size in zip(kinds, sizes, strict=True):
            if point < size:
                return kind
            point -= size
        return kinds[-1]

    def _log(self, action: str, kind: str, detail: str = "") -> None:
        self.events.append(FaultEvent(self._requests, action, kind, detail))

    def _reply(
        self,
        plan: ModelResponse,
        messages: Sequence[Message],
        view: Sequence[Message],
        tools: Sequence[ToolSpec],
        settings: ModelSettings,
    ) -> ModelResponse:
        pending = self._pending
        if pending is not None:
            if _feedback(messages):
                attempt = pending.attempts
                pending.attempts += 1
                if self._draw("fix", pending.sig, attempt) < self.policy.fix_rate:
                    self._pending = None
                    self._seen.add(_signature(plan))
                    self._log("fix", pending.kind)
                    return plan
                return self._repeat(pending, plan, messages, settings)
            if pending.kind == READ_LOOP:
                return self._repeat(pending, plan, messages, settings)
            self._pending = None
        if not plan.tool_calls:
            return plan
        sig = _signature(plan)
        if sig in self._seen:
            return plan
        self._seen.add(sig)
        if self._draw("fault", sig) >= self.policy.fault_rate:
            return plan
        kinds = [k for k in self.policy.faults if self._fits(k, plan, view, tools)]
        if not kinds:
            return plan
        return self._inject(self._pick_kind(kinds, sig), sig, plan, view, settings)

    def _fits(
        self,
        kind: str,
        plan: ModelResponse,
        view: Sequence[Message],
        tools: Sequence[ToolSpec],
    ) -> bool:
        if kind in (STALL, PROSE, TRUNCATION):
            return True
        if kind in _ARGUMENT_FAULTS:
            return any(_variants(kind, c.arguments) for c in plan.tool_calls)
        if kind == READ_LOOP:
            previous = _previous_reads(view, tools)
            return bool(previous) and _signature_of(previous) != _signature(plan)
        if kind == SKIP_READ:
            offered = {t.name for t in tools}
            return (
                _WRITE in offered
                and any(c.name == _QUERY for c in plan.tool_calls)
                and not any(c.name == _WRITE for m in view for c in m.tool_calls)
                and bool(_screen_orders(view))
            )
        return False

    # ---- faults

    def _inject(
        self,
        kind: str,
        sig: str,
        plan: ModelResponse,
        view: Sequence[Message],
        settings: ModelSettings,
    ) -> ModelResponse:
        pending = _Pending(kind, sig)
        self._pending = pending
        calls = list(plan.tool_calls)
        if kind == STALL:
            pending.content = self._stall_text(calls[0])
            self._log("inject", kind, pending.content)
            return ModelResponse(content=pending.content, finish_reason="stop")
        if kind == PROSE:
            dialect = self._pick(DIALECTS, "dialect", sig)
            pending.variant = dialect
            pending.content = render_prose(dialect, calls, preamble=self._preamble(sig))
            self._log("inject", kind, dialect)
            return ModelResponse(content=pending.content, finish_reason="stop")
        if kind == TRUNCATION:
            low, high = self.policy.truncation_need
            factor = low + (high - low) * self._draw("need", sig)
            pending.need = int(settings.max_tokens * factor) + 1
            pending.variant = "text" if self._draw("cut", sig) < 0.5 else "native"
            pending.calls = calls
            self._log("inject", kind, f"{pending.variant}, needs {pending.need} tokens")
            return self._truncated(pending, settings)
        if kind in _ARGUMENT_FAULTS:
            eligible = [i for i, c in enumerate(calls) if _variants(kind, c.arguments)]
            index = eligible[min(len(eligible) - 1, int(self._draw("call", sig) * len(eligible)))]
            original = calls[index]
            variant = self._pick(_variants(kind, original.arguments), "variant", sig)
            corrupted = original.model_copy(
                update={"arguments": _corrupt(variant, original.arguments)}
            )
            self._marks[corrupted.id] = dict(original.arguments)
            calls[index] = corrupted
            pending.variant = variant
            pending.calls = [corrupted]
            self._log("inject", kind, f"{variant}: {_short(corrupted)}")
            return _with_calls(calls)
        if kind == READ_LOOP:
            again = [self._fresh(c, mark=None) for c in _previous_reads(view, ())]
            pending.calls = again
            self._log("inject", kind, ", ".join(_short(c) for c in again))
            return _with_calls(again)
        writes = [self._fresh(c, mark=None) for c in _screen_orders(view)]
        pending.calls = writes
        self._log("inject", SKIP_READ, ", ".join(_short(c) for c in writes))
        return _with_calls(writes)

    def _repeat(
        self,
        pending: _Pending,
        plan: ModelResponse,
        messages: Sequence[Message],
        settings: ModelSettings,
    ) -> ModelResponse:
        if pending.kind in (STALL, PROSE):
            self._log("repeat", pending.kind)
            return ModelResponse(content=pending.content, finish_reason="stop")
        if pending.kind == TRUNCATION:
            if settings.max_tokens >= pending.need:
                self._pending = None
                self._log("repeat", pending.kind, "whole: the budget now fits it")
                return plan
            self._log("repeat", pending.kind, f"cut again at {settings.max_tokens} tokens")
            return self._truncated(pending, settings)
        if pending.kind == READ_LOOP:
            again = [self._fresh(c, mark=None) for c in pending.calls]
            pending.calls = again
            self._log("continue", pending.kind, ", ".join(_short(c) for c in again))
            return _with_calls(again)
        failed = [c for c in pending.calls if _failed(c.id, messages)]
        if not failed:
            self._pending = None
            return plan
        vary = (
            pending.kind in _ARGUMENT_FAULTS
            and self._draw("vary", pending.sig, pending.attempts) < self.policy.vary_rate
        )
        resent = [
            self._fresh(
                c,
                mark=self._marks.get(c.id),
                arguments=_unrelated_change(c.arguments) if vary else None,
            )
            for c in failed
        ]
        pending.calls = resent
        action = "vary" if vary else "resend"
        self._log(action, pending.kind, ", ".join(_short(c) for c in resent))
        return _with_calls(resent)

    def _truncated(self, pending: _Pending, settings: ModelSettings) -> ModelResponse:
        first = pending.calls[0]
        text = json.dumps(first.arguments, ensure_ascii=False)
        cut = text[: max(1, len(text) // 2)]
        usage = Usage(completion_tokens=settings.max_tokens)
        if pending.variant == "native":
            call = ToolCall(id=self._new_id(), name=first.name, raw_arguments=cut)
            self._marks[call.id] = None
            return ModelResponse(tool_calls=[call], finish_reason="length", usage=usage)
        whole = json.dumps({"name": first.name, "arguments": first.arguments}, ensure_ascii=False)
        content = f"{self._reasoning()}\n<tool_call>\n{whole[: max(1, len(whole) // 2)]}"
        return ModelResponse(content=content, finish_reason="length", usage=usage)

    # ---- texts

    def _stall_text(self, call: ToolCall) -> str:
        warehouse = str(call.arguments.get("warehouse_id", ""))
        if self.language == "zh":
            texts = {
                "warehouses_list": "好的，我会先查看仓库列表。",
                _QUERY: f"接下来我查询 {warehouse} 的实时库存。",
                _WRITE: "现在我来为低库存的商品创建补货单。",
            }
            return texts.get(call.name, f"接下来我会调用 {call.name}。")
        texts = {
            "warehouses_list": "I'll start by listing the warehouses.",
            _QUERY: f"Let me check the live stock in {warehouse} before ordering.",
            _WRITE: "I will now raise the replenishment orders for the low SKUs.",
        }
        return texts.get(call.name, f"Next I'll call {call.name}.")

    def _preamble(self, sig: str) -> str:
        options = (
            ("好的。", "下一步：", "") if self.language == "zh" else ("Sure.", "Next step:", "")
        )
        return options[min(len(options) - 1, int(self._draw("preamble", sig) * len(options)))]

    def _reasoning(self) -> str:
        if self.language == "zh":
            return "先核对截图里的每一行：SKU、当前库存和警戒值，然后比对实时库存……"
        return (
            "Going through the screenshot row by row: SKU, on hand, reorder point, then the "
            "live numbers..."
        )

    # ---- bookkeeping

    def _new_id(self) -> str:
        self._ids += 1
        return f"replay_{self._ids}"

    def _fresh(
        self,
        call: ToolCall,
        *,
        mark: dict[str, Any] | None,
        arguments: dict[str, Any] | None = None,
    ) -> ToolCall:
        sent = dict(call.arguments) if arguments is None else arguments
        fresh = ToolCall(id=self._new_id(), name=call.name, arguments=sent)
        self._marks[fresh.id] = mark
        return fresh

    def _clean_view(self, messages: Sequence[Message]) -> list[Message]:
        if self._ignoring is not None:
            told, plain = self._ignoring
            messages = [
                m.model_copy(update={"content": m.content.replace(told, plain)})
                if m.role == "user"
                else m
                for m in messages
            ]
        if not self._marks:
            return list(messages)
        failed = {m.tool_call_id for m in messages if m.role == "tool" and m.is_error}
        answered = {m.tool_call_id for m in messages if m.role == "tool"}
        dropped: set[str] = set()
        view: list[Message] = []
        for message in messages:
            if message.role == "tool" and message.tool_call_id in dropped:
                continue
            if message.role == "assistant" and message.tool_calls:
                kept = []
                for call in message.tool_calls:
                    if call.id not in self._marks:
                        kept.append(call)
                    elif call.id in failed or call.id not in answered:
                        dropped.add(call.id)
                    else:
                        meant = self._marks[call.id]
                        kept.append(
                            call if meant is None else call.model_copy(update={"arguments": meant})
                        )
                message = message.model_copy(update={"tool_calls": kept})
            view.append(message)
        return view


# ---- helpers


def _language(messages: Sequence[Message]) -> str:
    task = next((m.content for m in messages if m.role == "user"), "").split("\n", 1)[0]
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in task) else "en"


def _signature(response: ModelResponse) -> str:
    return _signature_of(response.tool_calls)


def _signature_of(calls: Sequence[ToolCall]) -> str:
    return json.dumps([[c.name, c.arguments] for c in calls], sort_keys=True, ensure_ascii=False)


def _with_calls(calls: Sequence[ToolCall]) -> ModelResponse:
    return ModelResponse(tool_calls=list(calls), finish_reason="tool_calls")


def _short(call: ToolCall) -> str:
    text = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
    return f"{call.name} {text if len(text) <= 120 else text[:117] + '...'}"


def _feedback(messages: Sequence[Message]) -> bool:
    """Whether what came back since the last reply says something went wrong."""
    last = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=None)
    if last is None:
        return False
    after = messages[last + 1 :]
    return any((m.role == "tool" and m.is_error) or m.role == "user" for m in after)


def _blocked_by_contract(messages: Sequence[Message]) -> bool:
    """Whether a result since the last reply is a block that cites the task contract."""
    last = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=-1)
    return any(
        m.role == "tool" and m.is_error and "task contract" in m.content
        for m in messages[last + 1 :]
    )


def _failed(call_id: str, messages: Sequence[Message]) -> bool:
    results = [m for m in messages if m.role == "tool" and m.tool_call_id == call_id]
    return not results or any(m.is_error for m in results)


def _previous_reads(view: Sequence[Message], tools: Sequence[ToolSpec]) -> list[ToolCall]:
    """The calls of the last reply in `view`, if all were reads and all succeeded."""
    last = next((m for m in reversed(view) if m.role == "assistant"), None)
    if last is None or not last.tool_calls:
        return []
    read_only = {t.name for t in tools if t.read_only} if tools else None
    if read_only is not None and any(c.name not in read_only for c in last.tool_calls):
        return []
    if any(c.name == _WRITE or c.name == "orders_cancel" for c in last.tool_calls):
        return []
    results = {m.tool_call_id: m for m in view if m.role == "tool"}
    if any(c.id not in results or results[c.id].is_error for c in last.tool_calls):
        return []
    return list(last.tool_calls)


def _screen_orders(view: Sequence[Message]) -> list[ToolCall]:
    """Orders worked out from the screenshot alone, as a model that skips the live read would:
    its own quantities from the screen's numbers (twice the reorder point less the on hand it
    shows)."""
    calls: list[ToolCall] = []
    seen: set[tuple[str, str]] = set()
    for screen in screens_in(view):
        stamp = screen.captured_at.isoformat(timespec="seconds")
        for row in screen.rows:
            if not row.low or row.sku is None or row.warehouse_id is None or row.on_hand is None:
                continue
            if row.reorder_point is None or (row.sku, row.warehouse_id) in seen:
                continue
            seen.add((row.sku, row.warehouse_id))
            arguments: dict[str, Any] = {
                "sku": row.sku,
                "warehouse_id": row.warehouse_id,
                "quantity": max(1, 2 * row.reorder_point - row.on_hand),
                "observed_on_hand": row.on_hand,
                "idempotency_key": f"replenish-{row.sku}-{row.warehouse_id}-{stamp}",
                "observed_at": stamp,
            }
            calls.append(ToolCall(id="screen", name=_WRITE, arguments=arguments))
    return calls


def full_width(text: str) -> str:
    """ASCII digits and punctuation as their full-width forms (`20.09` -> `２０．０９`)."""
    return "".join(
        chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" and not ch.isalpha() else ch for ch in text
    )


def _variants(kind: str, arguments: Mapping[str, Any]) -> list[str]:
    found: list[str] = []
    if kind == FIELD_NAME:
        if "warehouse_id" in arguments:
            found += ["warehouse_id->warehouse", "drop warehouse_id"]
        if "sku" in arguments:
            found.append("sku->sku_id")
    elif kind == SWAP:
        if "warehouse_id" in arguments and ("sku" in arguments or arguments.get("skus")):
            found.append("sku<->warehouse_id")
    elif kind == NUMBER_FORMAT:
        if isinstance(arguments.get("quantity"), int):
            found += ["quantity as a string", "quantity in full-width digits"]
        if isinstance(arguments.get("observed_on_hand"), int):
            found.append("observed_on_hand in full-width digits")
        if isinstance(arguments.get("observed_at"), str):
            found.append("observed_at with full-width punctuation")
        if isinstance(arguments.get("warehouse_id"), str):
            found.append("warehouse_id with a full-width hyphen")
        if isinstance(arguments.get("sku"), str):
            found.append("sku with a full-width hyphen")
    return found


def _unrelated_change(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """A retry that changes something, but not what the refusal named: a new idempotency key,
    or the optional `skus` or `observed_at` left out."""
    out = dict(arguments)
    if isinstance(out.get("idempotency_key"), str):
        out["idempotency_key"] = out["idempotency_key"] + "-retry"
    elif "skus" in out:
        out.pop("skus")
    elif "observed_at" in out:
        out.pop("observed_at")
    return out


def _corrupt(variant: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(arguments)
    if variant == "warehouse_id->warehouse":
        out = {("warehouse" if k == "warehouse_id" else k): v for k, v in arguments.items()}
    elif variant == "drop warehouse_id":
        out.pop("warehouse_id")
    elif variant == "sku->sku_id":
        out = {("sku_id" if k == "sku" else k): v for k, v in arguments.items()}
    elif variant == "sku<->warehouse_id":
        if "sku" in arguments:
            out["sku"], out["warehouse_id"] = arguments["warehouse_id"], arguments["sku"]
        else:
            skus = list(arguments["skus"])
            out["warehouse_id"] = skus[0]
            out["skus"] = [arguments["warehouse_id"], *skus[1:]]
    elif variant == "quantity as a string":
        out["quantity"] = str(arguments["quantity"])
    elif variant == "quantity in full-width digits":
        out["quantity"] = full_width(str(arguments["quantity"]))
    elif variant == "observed_on_hand in full-width digits":
        out["observed_on_hand"] = full_width(str(arguments["observed_on_hand"]))
    elif variant == "observed_at with full-width punctuation":
        text = str(arguments["observed_at"])
        out["observed_at"] = "".join(full_width(ch) if ch in "-:.+" else ch for ch in text)
    elif variant == "warehouse_id with a full-width hyphen":
        out["warehouse_id"] = str(arguments["warehouse_id"]).replace("-", "－")
    elif variant == "sku with a full-width hyphen":
        out["sku"] = str(arguments["sku"]).replace("-", "－")
    return out


def render_prose(dialect: str, calls: Sequence[ToolCall], *, preamble: str = "") -> str:
    """Tool calls written into the reply text, as a runtime that failed to parse them leaves
    them, in one of `DIALECTS`."""
    dumps = json.dumps
    parts: list[str] = []
    if dialect == "hermes":
        parts = [
            f"<tool_call>\n{dumps({'name': c.name, 'arguments': c.arguments}, ensure_ascii=False)}"
            "\n</tool_call>"
            for c in calls
        ]
    elif dialect == "gemma":
        parts = [f"<|tool_call|>call:{c.name}{_gemma(c.arguments)}<tool_call|>" for c in calls]
    elif dialect == "mistral":
        listed = [{"name": c.name, "arguments": c.arguments} for c in calls]
        parts = ["[TOOL_CALLS]" + dumps(listed, ensure_ascii=False)]
    elif dialect == "llama":
        parts = [
            f"<function={c.name}>{dumps(c.arguments, ensure_ascii=False)}</function>" for c in calls
        ]
    elif dialect == "fenced_json":
        parts = [
            "```json\n"
            + dumps({"name": c.name, "arguments": c.arguments}, ensure_ascii=False, indent=2)
            + "\n```"
            for c in calls
        ]
    else:
        raise ValueError(f"unknown dialect {dialect!r}; known: {', '.join(DIALECTS)}")
    body = "\n".join(parts)
    return f"{preamble}\n{body}" if preamble else body


def _gemma(value: Any) -> str:
    """Gemma's call syntax: bare keys, strings between `<|"|>` marks."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_gemma(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_gemma(v) for v in value) + "]"
    if isinstance(value, str):
        return f'<|"|>{value}<|"|>'
    return json.dumps(value)


def _usage(
    messages: Sequence[Message],
    tools: Sequence[ToolSpec],
    reply: ModelResponse,
    settings: ModelSettings,
) -> Usage:
    """Rough token counts (four characters a token), so reports can compare replay runs."""
    prompt = sum(len(m.content) for m in messages) + sum(
        len(t.description) + len(json.dumps(t.input_schema)) for t in tools
    )
    if reply.usage.completion_tokens:
        completion = reply.usage.completion_tokens
    else:
        written = len(reply.content) + sum(
            len(c.name) + len(json.dumps(c.arguments, ensure_ascii=False)) for c in reply.tool_calls
        )
        completion = min(settings.max_tokens, written // 4 + 1)
    return Usage(prompt_tokens=prompt // 4, completion_tokens=completion)
