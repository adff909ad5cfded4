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

from pipeline.evals.faults.corruptions import full_width
from pipeline.evals.faults.dialects import DIALECTS, render_prose
from pipeline.evals.faults.kinds import (
    FAULT_KINDS,
    IGNORE_TASK,
    OBSERVED_WEIGHTS,
    FaultEvent,
    FaultPolicy,
)
from pipeline.evals.faults.replay import FaultReplay

__all__ = [
    "DIALECTS",
    "FAULT_KINDS",
    "IGNORE_TASK",
    "OBSERVED_WEIGHTS",
    "FaultEvent",
    "FaultPolicy",
    "FaultReplay",
    "full_width",
    "render_prose",
]
