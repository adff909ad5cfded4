"""Where the time of a missed target goes: a pyinstrument profile, summarised by own time."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyinstrument import Profiler

__all__ = ["STAGES", "Profile", "profiling"]

_TOP = 10
_TREE_LINES = 40


@dataclass
class Profile:
    subject: str
    seconds: float = 0.0
    top: list[tuple[str, float]] = field(default_factory=list)
    tree: str = ""
    note: str = ""
    stages: dict[str, float] = field(default_factory=dict)
    """Inclusive seconds of the pipeline stages named in `STAGES`."""


STAGES = {
    "RapidOcrEngine.recognize": "recognition of the cell crops",
    "RapidOcrEngine.read": "detection + recognition",
    "find_text_boxes": "finding text boxes (OpenCV)",
    "load_image": "decoding the image",
    "normalise": "normalising",
    "to_rows": "mapping to the schema",
}


def _fill(profile: Profile, profiler: Profiler) -> None:
    root = profiler.last_session.root_frame() if profiler.last_session else None
    if root is None:
        profile.note = "the profile recorded no samples"
        return
    own: dict[str, float] = defaultdict(float)
    stack = [root]
    while stack:
        frame = stack.pop()
        stack.extend(frame.children)
        if frame.is_synthetic:
            continue
        own[f"{frame.function} ({frame.file_path_short}:{frame.line_no})"] += frame.total_self_time
        name = f"{frame.class_name}.{frame.function}" if frame.class_name else frame.function
        if name in STAGES:
            profile.stages[STAGES[name]] = profile.stages.get(STAGES[name], 0.0) + frame.time
    profile.seconds = float(root.time)
    profile.top = [
        (where, float(seconds))
        for where, seconds in sorted(own.items(), key=lambda kv: kv[1], reverse=True)[:_TOP]
    ]
    text = profiler.output_text(unicode=False, color=False)
    profile.tree = "\n".join(text.splitlines()[:_TREE_LINES])


@contextmanager
def profiling(subject: str, *, interval: float = 0.001) -> Iterator[Profile]:
    """Profile the block; without pyinstrument the profile only says how to get it."""
    profile = Profile(subject)
    try:
        from pyinstrument import Profiler
    except ImportError:
        profile.note = "pyinstrument is not installed: pip install -e '.[dev]'"
        yield profile
        return
    profiler = Profiler(interval=interval, async_mode="disabled")
    profiler.start()
    try:
        yield profile
    finally:
        profiler.stop()
        _fill(profile, profiler)
