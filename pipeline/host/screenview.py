"""`screen_view`: the host's own tool for looking at a screenshot that a text tier sent as text.

When the tier sent the model a table (or OCR lines) instead of the picture, the model can still
ask to see it: `screen_view(image, region?)` attaches the screenshot, or a region of it, as an
image part of the next request. The host answers it itself; no tool server is involved.

- Offered only for attachments sent as text that have a picture behind them (an attachment whose
  tier sent the image already needs none), and only when the model endpoint takes images. For a
  text-only endpoint it is not offered at all, and a call to it anyway is answered with
  `UNAVAILABLE`.
- `image` is a screenshot's name as the opening message lists it (`erp.png`, with or without
  the `@`); a merged table is viewed through the screenshots it was merged from.
- `region` is `{x, y, width, height}` in screenshot pixels (x and y from the top left), the
  coordinates of the text boxes the screen text gives and of the ingest crop; it must lie
  inside the screenshot.
- The picture is scaled down to the host's pixel budget like a `full_page` send, and its
  estimated tokens (`pipeline.tiers.image_tokens`) go into the run's token report.
Mistakes (an unknown name, a region outside the picture) are tool errors that say what is
valid; the run goes on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pipeline.host.attachments import MERGED_NAME, attachment_name
from pipeline.host.context import Attachment, Picture
from pipeline.host.toolbox import ToolOutcome
from pipeline.imaging import to_payload
from pipeline.models import JsonObject, JsonValue, Message, ToolSpec
from pipeline.tiers import image_tokens
from pipeline.toolfacts import VIEW_TOOL

__all__ = [
    "HOST_GROUP",
    "UNAVAILABLE",
    "VIEW_TOOL",
    "Region",
    "View",
    "look",
    "view_spec",
    "viewable",
]

HOST_GROUP = "host"
UNAVAILABLE = "screen_view is unavailable: this model endpoint takes text only"

_FIELDS = ("x", "y", "width", "height")


@dataclass(frozen=True)
class Region:
    """A rectangle in screenshot pixels: its top left corner and its size."""

    x: int
    y: int
    width: int
    height: int

    def box(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.x + self.width, self.y + self.height)

    def __str__(self) -> str:
        return f"x={self.x} y={self.y} width={self.width} height={self.height}"


@dataclass(frozen=True)
class View:
    """The host's answer: the tool result, and the image message that follows the turn's
    results (None when the call was refused), with its estimated tokens."""

    outcome: ToolOutcome
    message: Message | None = None
    tokens: int = 0


def viewable(attachments: Sequence[Attachment]) -> dict[str, Picture]:
    """The pictures of the attachments sent as text, by name, in the attachments' order."""
    return {p.name: p for a in attachments if not a.images for p in a.pictures}


def view_spec(pictures: Mapping[str, Picture]) -> ToolSpec:
    """The tool as the model is offered it: the names it may ask for and their sizes."""
    sizes = ", ".join(f"{n} ({p.size[0]} x {p.size[1]} pixels)" for n, p in pictures.items())
    region = {
        "type": "object",
        "description": "a part of the screenshot in its pixels: x and y of the top left corner "
        "(from the top left of the screenshot), width and height; the same coordinates as "
        "the text boxes of the screen text. Leave it out to see the whole screenshot.",
        "properties": {
            "x": {"type": "integer", "minimum": 0},
            "y": {"type": "integer", "minimum": 0},
            "width": {"type": "integer", "minimum": 1},
            "height": {"type": "integer", "minimum": 1},
        },
        "required": list(_FIELDS),
        "additionalProperties": False,
    }
    return ToolSpec(
        name=VIEW_TOOL,
        description="Look at a screenshot whose text you were given: the host attaches the "
        "picture, or a region of it, as an image to your next turn. Use it when the text is "
        f"unsure or leaves out what you need. Screenshots: {sizes}.",
        input_schema={
            "type": "object",
            "properties": {
                "image": {
                    "type": "string",
                    "enum": list(pictures),
                    "description": "the screenshot's name, as the attachments list it",
                },
                "region": {"anyOf": [region, {"type": "null"}]},
            },
            "required": ["image"],
            "additionalProperties": False,
        },
        group=HOST_GROUP,
        read_only=True,
    )


def look(
    arguments: Mapping[str, JsonValue],
    pictures: Mapping[str, Picture],
    attachments: Sequence[Attachment],
    *,
    max_pixels: int,
) -> View:
    """Answer one `screen_view` call: the picture or its region as an image message, or a
    tool error that says what would be valid."""
    picture, problem = _picture(arguments.get("image"), pictures, attachments)
    if picture is None:
        return View(ToolOutcome(True, problem))
    region, problem = _region(arguments.get("region"), picture)
    if problem:
        return View(ToolOutcome(True, problem))
    image = picture.load()
    if region is not None:
        image = image.crop(region.box())
    payload = to_payload(image, max_pixels)
    tokens = image_tokens(payload.width, payload.height)
    what = picture.name if region is None else f"{picture.name}, region {region}"
    shown = f"{payload.width} x {payload.height}"
    if (payload.width, payload.height) != image.size:
        shown += f", scaled from {image.width} x {image.height}"
    structured: JsonObject = {
        "image": picture.name,
        "region": None if region is None else {f: getattr(region, f) for f in _FIELDS},
        "width": payload.width,
        "height": payload.height,
        "tokens": tokens,
    }
    return View(
        ToolOutcome(
            False,
            f"attached image {what} ({shown}); it follows as an image in the next message",
            structured,
        ),
        Message(
            role="user",
            content=f"Image from {VIEW_TOOL}: {what} ({shown} pixels).",
            images=[payload.url],
        ),
        tokens,
    )


def _picture(
    value: object, pictures: Mapping[str, Picture], attachments: Sequence[Attachment]
) -> tuple[Picture | None, str]:
    valid = ", ".join(pictures) or "none"
    if not isinstance(value, str) or not value.strip():
        return None, f"{VIEW_TOOL} needs `image`, the name of a screenshot: one of {valid}"
    name = value.strip().removeprefix("@")
    found = pictures.get(name) or pictures.get(attachment_name(name, set()))
    if found is not None:
        return found, ""
    sent = {a.name for a in attachments if a.images}
    if name in sent:
        why = f"{name} was sent as an image already; it is in the conversation"
    elif name == MERGED_NAME and any(a.name == MERGED_NAME for a in attachments):
        why = f"{name} is a table merged from several screenshots; view one of them"
    else:
        why = f"no screenshot named {value!r} in this run"
    return None, f"{why}. The screenshots {VIEW_TOOL} can show: {valid}"


def _region(value: object, picture: Picture) -> tuple[Region | None, str]:
    if value is None:
        return None, ""
    width, height = picture.size
    form = (
        'region must be an object {"x", "y", "width", "height"} of whole pixels, for example '
        f'{{"x": 0, "y": 0, "width": {min(width, 800)}, "height": {min(height, 300)}}}'
    )
    if not isinstance(value, Mapping) or set(value) != set(_FIELDS):
        return None, form
    numbers = [value[f] for f in _FIELDS]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        return None, form
    region = Region(*numbers)
    inside = (
        region.x >= 0
        and region.y >= 0
        and region.width >= 1
        and region.height >= 1
        and region.x + region.width <= width
        and region.y + region.height <= height
    )
    if not inside:
        return None, (
            f"region {region} is not inside {picture.name}, which is {width} x {height} "
            f"pixels: x and y at least 0, width and height at least 1, x + width at most "
            f"{width} and y + height at most {height}"
        )
    return region, ""
