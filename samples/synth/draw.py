"""A thin painter over Pillow that takes CSS pixels and draws at the export's scale."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from .fonts import load_font
from .model import RGB, Box


class Painter:
    def __init__(self, image: Image.Image, scale: float) -> None:
        self.image = image
        self.scale = scale
        self.draw = ImageDraw.Draw(image)

    def px(self, value: float) -> int:
        return round(value * self.scale)

    def box(self, box: Box) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = box
        return self.px(x0), self.px(y0), self.px(x1), self.px(y1)

    def font(self, name: str, size: float) -> ImageFont.FreeTypeFont:
        return load_font(name, self.px(size))

    def measure(self, text: str, font: str, size: float) -> float:
        """Advance width of `text` in CSS pixels."""
        return self.font(font, size).getlength(text) / self.scale

    def rect(
        self,
        box: Box,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        x0, y0, x1, y1 = self.box(box)
        line = max(1, self.px(width)) if outline else 0
        shape = (x0, y0, x1 - 1, y1 - 1)
        if radius:
            self.draw.rounded_rectangle(
                shape, radius=self.px(radius), fill=fill, outline=outline, width=line
            )
        else:
            self.draw.rectangle(shape, fill=fill, outline=outline, width=line)

    def hline(self, x0: float, x1: float, y: float, color: RGB, width: float = 1) -> None:
        top = self.px(y)
        self.draw.rectangle(
            (self.px(x0), top, self.px(x1) - 1, top + max(1, self.px(width)) - 1), fill=color
        )

    def vline(self, x: float, y0: float, y1: float, color: RGB, width: float = 1) -> None:
        left = self.px(x)
        self.draw.rectangle(
            (left, self.px(y0), left + max(1, self.px(width)) - 1, self.px(y1) - 1), fill=color
        )

    def circle(
        self, cx: float, cy: float, r: float, fill: RGB | None, outline: RGB | None = None
    ) -> None:
        self.draw.ellipse(
            self.box((cx - r, cy - r, cx + r, cy + r)),
            fill=fill,
            outline=outline,
            width=max(1, self.px(1.5)),
        )

    def polygon(self, points: Sequence[tuple[float, float]], fill: RGB) -> None:
        self.draw.polygon([(self.px(x), self.px(y)) for x, y in points], fill=fill)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: str,
        size: float,
        fill: RGB,
        anchor: str = "lm",
    ) -> float:
        """Draw `text` anchored at (x, y); returns its width in CSS pixels."""
        face = self.font(font, size)
        self.draw.text((self.px(x), self.px(y)), text, font=face, fill=fill, anchor=anchor)
        return face.getlength(text) / self.scale

    def caret(self, x: float, y: float, color: RGB, size: float = 4) -> None:
        """A small downward triangle, as drawn next to menus and drop-downs."""
        self.polygon([(x - size, y - size / 2), (x + size, y - size / 2), (x, y + size / 2)], color)
