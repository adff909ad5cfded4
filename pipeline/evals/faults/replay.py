"""The fault replay itself: the right plan, asked of `RulesModel` over a clean view of the
conversation, with the policy's faults injected and its reactions to feedback (see
`pipeline.evals.faults`)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.contract import contract_in, parse_task, render_contract
from pipeline.evals.faults.conversation import (
    blocked_by_contract,
    failed,
    feedback,
    language,
    previous_reads,
    screen_orders,
    short,
    signature,
    signature_of,
    with_calls,
)
from pipeline.evals.faults.corruptions import corrupt, unrelated_change, variants
from pipeline.evals.faults.dialects import DIALECTS, render_prose
from pipeline.evals.faults.kinds import (
    ARGUMENT_FAULTS,
    IGNORE_TASK,
    PLAIN_TASK,
    PROSE,
    QUERY,
    READ_LOOP,
    SKIP_READ,
    STALL,
    TRUNCATION,
    WRITE,
    FaultEvent,
    FaultPolicy,
)
from pipeline.models import (
    JsonObject,
    Message,
    ModelResponse,
    ModelSettings,
    ToolCall,
    ToolSpec,
    Usage,
)
from pipeline.vlm.rules import RulesModel

__all__ = ["FaultReplay"]


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
        self._marks: dict[str, JsonObject | None] = {}
        self._requests = 0
        self._ids = 0
        self._ignoring: tuple[str, str] | None = None
        """(the contract block the host wrote, the plain replenishment's) while ignoring."""

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        self._requests += 1
        if self.language is None:
            self.language = language(messages)
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
        if self._ignoring is None or not blocked_by_contract(messages):
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
            if feedback(messages):
                attempt = pending.attempts
                pending.attempts += 1
                if self._draw("fix", pending.sig, attempt) < self.policy.fix_rate:
                    self._pending = None
                    self._seen.add(signature(plan))
                    self._log("fix", pending.kind)
                    return plan
                return self._repeat(pending, plan, messages, settings)
            if pending.kind == READ_LOOP:
                return self._repeat(pending, plan, messages, settings)
            self._pending = None
        if not plan.tool_calls:
            return plan
        sig = signature(plan)
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
        if kind in ARGUMENT_FAULTS:
            return any(variants(kind, c.arguments) for c in plan.tool_calls)
        if kind == READ_LOOP:
            previous = previous_reads(view, tools)
            return bool(previous) and signature_of(previous) != signature(plan)
        if kind == SKIP_READ:
            offered = {t.name for t in tools}
            return (
                WRITE in offered
                and any(c.name == QUERY for c in plan.tool_calls)
                and not any(c.name == WRITE for m in view for c in m.tool_calls)
                and bool(screen_orders(view))
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
        if kind in ARGUMENT_FAULTS:
            eligible = [i for i, c in enumerate(calls) if variants(kind, c.arguments)]
            index = eligible[min(len(eligible) - 1, int(self._draw("call", sig) * len(eligible)))]
            original = calls[index]
            variant = self._pick(variants(kind, original.arguments), "variant", sig)
            corrupted = original.model_copy(
                update={"arguments": corrupt(variant, original.arguments)}
            )
            self._marks[corrupted.id] = dict(original.arguments)
            calls[index] = corrupted
            pending.variant = variant
            pending.calls = [corrupted]
            self._log("inject", kind, f"{variant}: {short(corrupted)}")
            return with_calls(calls)
        if kind == READ_LOOP:
            again = [self._fresh(c, mark=None) for c in previous_reads(view, ())]
            pending.calls = again
            self._log("inject", kind, ", ".join(short(c) for c in again))
            return with_calls(again)
        writes = [self._fresh(c, mark=None) for c in screen_orders(view)]
        pending.calls = writes
        self._log("inject", SKIP_READ, ", ".join(short(c) for c in writes))
        return with_calls(writes)

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
            self._log("continue", pending.kind, ", ".join(short(c) for c in again))
            return with_calls(again)
        refused = [c for c in pending.calls if failed(c.id, messages)]
        if not refused:
            self._pending = None
            return plan
        vary = (
            pending.kind in ARGUMENT_FAULTS
            and self._draw("vary", pending.sig, pending.attempts) < self.policy.vary_rate
        )
        resent = [
            self._fresh(
                c,
                mark=self._marks.get(c.id),
                arguments=unrelated_change(c.arguments) if vary else None,
            )
            for c in refused
        ]
        pending.calls = resent
        action = "vary" if vary else "resend"
        self._log(action, pending.kind, ", ".join(short(c) for c in resent))
        return with_calls(resent)

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
                QUERY: f"接下来我查询 {warehouse} 的实时库存。",
                WRITE: "现在我来为低库存的商品创建补货单。",
            }
            return texts.get(call.name, f"接下来我会调用 {call.name}。")
        texts = {
            "warehouses_list": "I'll start by listing the warehouses.",
            QUERY: f"Let me check the live stock in {warehouse} before ordering.",
            WRITE: "I will now raise the replenishment orders for the low SKUs.",
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
        mark: JsonObject | None,
        arguments: JsonObject | None = None,
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
        errored = {m.tool_call_id for m in messages if m.role == "tool" and m.is_error}
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
                    elif call.id in errored or call.id not in answered:
                        dropped.add(call.id)
                    else:
                        meant = self._marks[call.id]
                        kept.append(
                            call if meant is None else call.model_copy(update={"arguments": meant})
                        )
                message = message.model_copy(update={"tool_calls": kept})
            view.append(message)
        return view


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
