"""What the model sees: the system prompt and the opening user message, in a stable order.

The system prompt is the product rules, then every connected server's instructions (clients
that drop them lose the rules), group by group in a fixed order. Tool schemas travel in the
request's `tools`, sorted by group and name. Nothing here changes between hops, so the prompt
prefix stays byte-identical and a runtime's prefix cache survives.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from pipeline.contract import TASK_LINE, TaskContract, render_contract
from pipeline.models import Message

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["PRODUCT_RULES", "Attachment", "Picture", "opening_message", "system_prompt"]

PRODUCT_RULES = """\
You are stockshot, an inventory agent. You act only through the tools you are given.
Rules:
1. A screenshot is a past view: its capture time and age are stated. Before any write, read the
   live numbers with inventory_query_stock; order only SKUs that are still low live
   (on_hand + on_order < reorder_point).
2. Copy ids exactly. Warehouse ids look like WH-01; SKUs look like SKU-10231. Never put one in
   the other's place.
3. To pass an attached file to a tool, use its reference (for example "@stock.csv") as the
   argument value; the host puts the content in. Do not retype rows.
4. When a tool refuses, read the reason and change what it names; never resend the same call.
5. The task contract below the task is binding: write only what it allows (action, warehouses,
   SKUs, exclusions, quantities); when it says no writes, only read and answer.
6. When the screen or the task leaves something open (which warehouse, how many), ask the user
   instead of guessing.
7. End with a short summary: what you ordered (order ids and quantities), what you skipped and
   why."""


@dataclass(frozen=True)
class Picture:
    """A screenshot behind an attachment, decoded only when the model asks to see it."""

    name: str
    size: tuple[int, int]
    """Width and height in screenshot pixels, the coordinates the screen text uses."""
    load: Callable[[], Image.Image]
    """The decoded image, upright, in RGB (as ingest read it)."""


@dataclass(frozen=True)
class Attachment:
    """A file the model may read and pass by reference as `@name`."""

    name: str
    content: str
    description: str
    captured_at: datetime | None = None
    images: tuple[str, ...] = ()
    """Data URLs sent with the opening message (a tier that sends the image)."""
    sha256: str | None = None
    skus: frozenset[str] = field(default_factory=frozenset)
    pictures: tuple[Picture, ...] = ()
    """The screenshots the content was read from (several for a merged table), for the host's
    `screen_view` tool; empty when the run has no image for it."""


def system_prompt(instructions: Mapping[str, str], groups: Sequence[str]) -> str:
    parts = [PRODUCT_RULES]
    for group in groups:
        text = instructions.get(group, "").strip()
        if text:
            parts.append(f"## {group} tools\n{text}")
    return "\n\n".join(parts)


def opening_message(
    task: str,
    attachments: Sequence[Attachment],
    now: datetime,
    contract: TaskContract | None = None,
    items: str = "",
) -> Message:
    """The task, the host's contract for it, then the attachments, then what the store says
    of the screens' items (`items`, when a row's key is not its SKU)."""
    lines = [f"{TASK_LINE}{task.strip()}"]
    if contract is not None:
        lines += ["", render_contract(contract)]
    if attachments:
        lines.append("")
        lines.append('Attachments (pass one to a tool as its "@name"):')
        for a in attachments:
            age = ""
            if a.captured_at is not None:
                hours = max(0.0, (now - a.captured_at).total_seconds()) / 3600
                age = f", captured {a.captured_at.isoformat(timespec='seconds')}, {hours:.1f} h ago"
            lines.append(f"- @{a.name}: {a.description}{age}")
        for a in attachments:
            lines.append("")
            lines.append(f"@{a.name}:")
            lines.append(a.content)
    if items:
        lines += ["", items]
    images = [url for a in attachments for url in a.images]
    return Message(role="user", content="\n".join(lines), images=images)
