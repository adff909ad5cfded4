"""Metamorphic rewrites of write requests, and what each rewrite must mean.

A rewrite takes a request that allows writes and changes it in one known way; what the result
means follows from the original's reading and the change, so it is known without writing it
down by hand:

- `deferral`: a clause that puts the action off or hands it to the user is appended
  ("…; I will place the orders myself") -> a report;
- `hypothetical`: the request is wrapped in a question about what would happen -> a report;
- `negation`: the request is negated with an idiom ("Don't …", "先别…") -> a report; a
  cancel followed by a negation of ordering ("…, but don't buy anything today") stays the
  cancel (it forbids only an order, which a cancel never writes);
- `exclusion`: an idiom that leaves one SKU out is added ("leave SKU-1 alone", "SKU-1 除外"),
  some with words the reader has no rule for -> the original with that SKU excluded;
- `filler`: politeness and filler words are added -> the original;
- `reorder`: two clauses swap places -> the original;
- `asking`: a request that opens with its verb is asked as a polite question or with an idiom
  whose negation asks for the action ("Could you …?", "Don't forget to …", "能帮我…吗",
  "别忘了…") -> the original.

`judge` scores a reading against that meaning: `right`, `safe miss` (it allows less) or
`wider` (it allows a write the meaning does not: the failure that must never happen). Pure.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pipeline.contract import TaskContract, read_task, widenings

__all__ = [
    "ASKING",
    "DEFERRALS",
    "EXCLUSIONS",
    "FILLERS",
    "HYPOTHETICALS",
    "KINDS",
    "NEGATED_VERBS",
    "NEGATIONS",
    "Rewrite",
    "judge",
    "meaning",
    "rewrite",
    "tally",
]

Kind = Literal["deferral", "hypothetical", "negation", "exclusion", "filler", "reorder", "asking"]
KINDS: tuple[Kind, ...] = (
    "deferral",
    "hypothetical",
    "negation",
    "exclusion",
    "filler",
    "reorder",
    "asking",
)

DEFERRALS: dict[str, tuple[str, ...]] = {
    "en": (
        "{t}; I will place the orders myself later",
        "{t}, but we will order them next week",
        "{t} tomorrow",
        "{t} after the stock count",
        "{t}. Actually, I'll do it myself",
        "Later today: {t}",
    ),
    "zh": (
        "{t}，我自己下单",
        "{t}，下周再补",
        "明天再{t}",
        "{t}，我来下单就行",
        "{t}，等盘点完再说",
    ),
}
HYPOTHETICALS: dict[str, tuple[str, ...]] = {
    "en": (
        "What would you order if I asked you to {t}?",
        "If I told you to {t}, which SKUs would that be?",
        "Suppose you were to {t}: what would happen?",
        "Hypothetically, {t}",
    ),
    "zh": ("如果{t}的话，会补哪些？", "假如要{t}，需要订多少？", "要是{t}，会怎样？"),
}
NEGATIONS: dict[str, tuple[str, ...]] = {
    "en": (
        "{t}. Actually, don't order anything",
        "{t}, but do not place any orders yet",
        "{t}. On second thought, hold off on ordering",
        "{t}, but don't buy anything today",
        "{t}. No, wait: nothing should be ordered",
    ),
    "zh": ("{t}。算了，先别下单", "{t}，不过先不要下单", "{t}，还是别补了", "{t}，暂时不用采购"),
}
NEGATED_VERBS: dict[str, tuple[str, ...]] = {
    "en": ("Don't {t}", "Please do not {t}", "No need to {t}", "Never {t}"),
    "zh": ("不要{t}", "先别{t}", "暂时不要{t}", "千万别{t}"),
}
"""Negations put before the request, for one that opens with its verb."""
_OPENS_WITH_VERB = re.compile(
    r"^(?:replenish|reorder|re-order|restock|order|raise|create|top up|buy|purchase|"
    r"补|下单|订|采购)",
    re.IGNORECASE,
)
EXCLUSIONS: dict[str, tuple[str, ...]] = {
    "en": (
        "{t}, except {s}",
        "{t}, but not {s}",
        "{t} except for {s}",
        "{t}, leave {s} alone",
        "{t}; {s} can wait",
        "{t}, skip {s}",
        "{t}, but don't order {s}",
        "{t}, hold off on {s}",
        "{t}; {s} is handled already",
        "{t}, not {s}",
        "{t}, forget about {s}",
        "{t}, {s} excepted",
        "{t} without {s}",
        "{t}; {s} stays as it is",
        "Apart from {s}, {t}",
        "{t}, ignore {s}",
        "{t}, we already ordered {s}",
        "{t}; {s} was discontinued",
    ),
    "zh": (
        "{t}，{s} 除外",
        "除了 {s}，{t}",
        "{t}，{s} 不用管",
        "{t}，{s} 就算了",
        "{t}，{s} 先放一放",
        "{t}，别补 {s}",
        "{t}，{s} 先不要",
        "{t}，跳过 {s}",
        "{t}，{s} 暂时别动",
        "{t}，{s} 不补",
        "{t}，{s} 已经有人订了",
        "{t}，{s} 留着",
    ),
}
FILLERS: dict[str, tuple[str, ...]] = {
    "en": ("Please {t}", "{t}, thanks", "Hi, {t} please", "Okay, {t}", "{t}. Thank you!"),
    "zh": ("请{t}", "{t}，谢谢", "麻烦{t}", "{t}吧", "帮忙{t}，谢了"),
}
ASKING: dict[str, tuple[str, ...]] = {
    "en": (
        "Could you please {t}?",
        "Can you {t}?",
        "Would you {t}, please?",
        "Don't forget to {t}",
        "Make sure you {t}",
        "Please remember to {t}",
    ),
    "zh": ("能帮我{t}吗？", "可以{t}吗？", "别忘了{t}", "记得{t}", "务必{t}"),
}
"""Asking for the request itself, for one that opens with its verb."""
_CLAUSES = re.compile(r"([,，;；]\s*)")


@dataclass(frozen=True)
class Rewrite:
    kind: Kind
    task: str
    original: str
    sku: str | None = None
    """The SKU an exclusion leaves out."""
    forbids_orders: bool = False
    """A negation after the request that forbids ordering only ("…, don't buy anything")."""


def _language(task: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in task) else "en"


def _clean(task: str) -> str:
    """The request without its closing punctuation, to be wrapped."""
    return task.strip().rstrip(".!?。！？")


def _lower_first(task: str) -> str:
    return task[:1].lower() + task[1:] if task[:2] != task[:2].upper() else task


def rewrite(task: str, kind: Kind, rng: random.Random, skus: Sequence[str] = ()) -> Rewrite | None:
    """One rewrite of `task` of `kind` (templates and the SKU drawn from `rng`), or None when
    the kind does not apply (an exclusion with no SKU to leave out, a reorder of one clause)."""
    lang = _language(task)
    body = _clean(task)
    if kind == "exclusion":
        if not skus:
            return None
        sku = rng.choice(list(skus))
        template = rng.choice(EXCLUSIONS[lang])
        head = body if template.startswith("{t}") else _lower_first(body)
        return Rewrite(kind, template.format(t=head, s=sku), task, sku)
    if kind == "reorder":
        parts = _CLAUSES.split(body)
        clauses = parts[::2]
        if len(clauses) < 2:
            return None
        i = rng.randrange(len(clauses) - 1)
        clauses[i], clauses[i + 1] = clauses[i + 1], clauses[i]
        joined = clauses[0]
        for sep, clause in zip(parts[1::2], clauses[1:], strict=True):
            joined += sep + clause
        return Rewrite(kind, joined, task)
    if kind == "asking" and not _OPENS_WITH_VERB.match(body):
        return None
    table: dict[str, dict[str, tuple[str, ...]]] = {
        "asking": ASKING,
        "deferral": DEFERRALS,
        "hypothetical": HYPOTHETICALS,
        "negation": NEGATIONS,
        "filler": FILLERS,
    }
    choices = table[kind][lang]
    if kind == "negation" and _OPENS_WITH_VERB.match(body):
        choices = (*choices, *NEGATED_VERBS[lang])
    template = rng.choice(choices)
    head = body if template.startswith("{t}") else _lower_first(body)
    after = kind == "negation" and template in NEGATIONS[lang]
    return Rewrite(kind, template.format(t=head), task, forbids_orders=after)


def meaning(change: Rewrite, original: TaskContract) -> TaskContract:
    """What the rewrite means, from the original's reading: a report for a deferral, a
    hypothetical or a negation (but a cancel whose negation forbids only ordering); the
    original with the SKU excluded; else the original."""
    if change.kind == "negation" and change.forbids_orders and original.action == "cancel":
        return original
    if change.kind in ("deferral", "hypothetical", "negation"):
        return original.as_report()
    if change.kind == "exclusion" and change.sku is not None:
        return original.model_copy(
            update={
                "skus": tuple(s for s in original.skus if s != change.sku),
                "exclude_skus": (*original.exclude_skus, change.sku),
                "quantities": {k: v for k, v in original.quantities.items() if k != change.sku},
            }
        )
    return original


Judgement = Literal["right", "safe miss", "wider"]


def judge(read: TaskContract, meant: TaskContract) -> tuple[Judgement, list[str]]:
    """`right`: the reading allows exactly what the meaning does (neither allows more than
    the other); `wider`: it allows more (with what); else a `safe miss`."""
    wider = widenings(read, meant)
    if wider:
        return "wider", wider
    return ("safe miss" if widenings(meant, read) else "right"), []


def tally(
    tasks: Iterable[tuple[str, Sequence[str]]],
    names: Mapping[str, str],
    *,
    per_task: int = 4,
    seed: int = 0,
) -> dict[str, dict[str, int]]:
    """Every kind of rewrite, `per_task` draws of each, over (task, screen SKUs) pairs whose
    task allows writes: how many read right, as safe misses, and wider."""
    rng = random.Random(seed)
    counts: dict[str, Counter[str]] = {k: Counter() for k in KINDS}
    for task, skus in tasks:
        original = read_task(task, names).contract
        if not original.writes_allowed:
            continue
        for kind in KINDS:
            for _ in range(per_task):
                change = rewrite(task, kind, rng, skus)
                if change is None:
                    continue
                read = read_task(change.task, names).contract
                found, _ = judge(read, meaning(change, original))
                counts[kind][found] += 1
                counts[kind]["wider than the original"] += bool(widenings(read, original))
    keys = ("right", "safe miss", "wider", "wider than the original")
    return {k: {v: c.get(v, 0) for v in keys} for k, c in counts.items()}
