"""Render a page in Debian's Chromium and measure its table in the DOM.

Every render gets a fresh, empty profile and its own browser process, laid out at the screen's
CSS viewport with `deviceScaleFactor = dpr * zoom` (how a desktop browser zooms). Before the
screenshot every declared font face is loaded and checked, and Chromium is asked which fonts it
drew each element's text with: a glyph drawn with any face the page did not declare (the
system's default, say) fails the render instead of drifting silently between machines.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from PIL import Image
from playwright.sync_api import BrowserContext, Page, Playwright, sync_playwright
from screengen.capture import decode_png
from screengen.chromium import CHROMIUM, HEADLESS_ARGS

from .fonts import Face
from .model import Screen

ARGS = (
    *HEADLESS_ARGS,
    "--force-color-profile=srgb",
    "--font-render-hinting=none",
    "--hide-scrollbars",
)
"""A render's flags: colours in sRGB, glyphs unhinted, no scrollbars over the page."""
_TIMEOUT_MS = 30_000

_LOAD_FONTS = """async () => {
  const faces = [...document.fonts];
  await Promise.allSettled(faces.map(f => f.load()));
  await document.fonts.ready;
  return faces.map(f => [f.family, String(f.weight), f.status]);
}"""
_MEASURE = """() => {
  const table = document.querySelector('[data-truth]');
  const rects = [...table.querySelectorAll('[data-box]')].map(e => e.getBoundingClientRect());
  const seen = e => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return hit !== null && (hit === e || e.contains(hit));
  };
  const cells = [...table.querySelectorAll('[data-r]')].map(e => [
    Number(e.dataset.r), Number(e.dataset.c), Number(e.dataset.rows || 1),
    e.innerText.replace(/\\s+/g, ' ').trim(), seen(e),
  ]);
  return {
    dpr: window.devicePixelRatio,
    viewport: [window.innerWidth, window.innerHeight],
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    box: [
      Math.min(...rects.map(r => r.left)), Math.min(...rects.map(r => r.top)),
      Math.max(...rects.map(r => r.right)), Math.max(...rects.map(r => r.bottom)),
    ],
    cells,
  };
}"""


class BrowserMissingError(RuntimeError):
    """Chromium is not installed where the corpus expects it."""


class RenderError(RuntimeError):
    """A page did not render the way the corpus requires (a font, a request, the layout)."""


def screen_image(png: bytes, file: str, screen: Screen) -> Image.Image:
    """A render's screenshot decoded; a `RenderError` unless it is the screen's size."""
    image = decode_png(png)
    size = (screen.width, screen.height)
    if image.size != size:
        raise RenderError(f"{file}: rendered {image.size}, expected {size}")
    return image


@dataclass(frozen=True)
class DomCell:
    row: int
    col: int
    rows: int
    text: str


@dataclass(frozen=True)
class Shot:
    png: bytes
    dpr: float
    box: tuple[float, float, float, float]
    """The table region in CSS pixels of the viewport."""
    cells: tuple[DomCell, ...]


@dataclass(frozen=True)
class Captured:
    """What `Chromium.capture` returns: the screenshot (when asked for) and the measurement."""

    png: bytes | None
    measured: dict[str, Any]


ColorScheme = Literal["light", "dark", "no-preference"]


class Chromium:
    """Renders pages one browser process each; `version` is the Chromium that drew them."""

    def __init__(self, playwright: Playwright, executable: Path) -> None:
        self._playwright = playwright
        self._executable = executable
        self.version = ""

    def render(self, html: str, screen: Screen, faces: tuple[Face, ...]) -> Shot:
        with self._launch(html, screen, "en-US", "light") as (context, page_file):
            return self._shoot(context, page_file, screen, faces)

    @contextmanager
    def _launch(
        self, html: str, screen: Screen, locale: str, color_scheme: ColorScheme
    ) -> Iterator[tuple[BrowserContext, Path]]:
        """A fresh profile and browser process at the screen's viewport, the page on disk."""
        width, height = screen.viewport
        with tempfile.TemporaryDirectory(prefix="corpus-") as tmp:
            page_file = Path(tmp) / "page.html"
            page_file.write_text(html, encoding="utf-8")
            context = self._playwright.chromium.launch_persistent_context(
                str(Path(tmp) / "profile"),
                executable_path=str(self._executable),
                args=list(ARGS),
                viewport={"width": width, "height": height},
                screen={"width": width, "height": height},
                device_scale_factor=screen.scale,
                locale=locale,
                timezone_id="Asia/Shanghai",
                color_scheme=color_scheme,
                reduced_motion="reduce",
                accept_downloads=False,
            )
            try:
                yield context, page_file
            finally:
                context.close()

    def capture(
        self,
        html: str,
        screen: Screen,
        faces: tuple[Face, ...],
        script: str,
        *,
        screenshot: bool = True,
        locale: str = "en-US",
        color_scheme: ColorScheme = "light",
    ) -> Captured:
        """Render `html` like `render` (same profile, fonts and request checks) but measure it
        with the page function `script`; the screenshot is taken after the measurement."""
        with self._launch(html, screen, locale, color_scheme) as (context, page_file):
            page, measured = self._measure(context, page_file, faces, script)
            png = None
            if screenshot:
                png = page.screenshot(
                    type="png", animations="disabled", caret="hide", scale="device"
                )
            return Captured(png, measured)

    def _measure(
        self, context: BrowserContext, page_file: Path, faces: tuple[Face, ...], script: str
    ) -> tuple[Page, dict[str, Any]]:
        """The page loaded with its fonts (each face loaded, none from the platform), measured
        by `script`; a request that leaves the page's folder is refused."""
        browser = context.browser
        self.version = browser.version if browser else "unknown"
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(_TIMEOUT_MS)
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(page_file.as_uri(), wait_until="load")
        failed = [f for f in page.evaluate(_LOAD_FONTS) if f[2] != "loaded"]
        if failed:
            raise RenderError(f"font faces did not load: {failed}")
        _check_platform_fonts(context, page, {f.postscript for f in faces})
        measured: dict[str, Any] = page.evaluate(script)
        foreign = [u for u in requests if not u.startswith("file://")]
        if foreign:
            raise RenderError(f"the page requested {foreign}")
        return page, measured

    def _shoot(
        self, context: BrowserContext, page_file: Path, screen: Screen, faces: tuple[Face, ...]
    ) -> Shot:
        page, measured = self._measure(context, page_file, faces, _MEASURE)
        _check_layout(measured, screen)
        hidden = [(r, c) for r, c, _, _, seen in measured["cells"] if not seen]
        if hidden:
            raise RenderError(f"truth cells are covered or clipped: {hidden}")
        png = page.screenshot(type="png", animations="disabled", caret="hide", scale="device")
        x0, y0, x1, y1 = (float(v) for v in measured["box"])
        return Shot(
            png=png,
            dpr=float(measured["dpr"]),
            box=(x0, y0, x1, y1),
            cells=tuple(
                DomCell(int(r), int(c), int(n), str(t)) for r, c, n, t, _ in measured["cells"]
            ),
        )


def _check_platform_fonts(context: BrowserContext, page: Page, allowed: set[str]) -> None:
    cdp = context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "body, body *"})
        used: set[str] = set()
        for node in nodes["nodeIds"]:
            fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            used |= {str(f["postScriptName"]) for f in fonts}
    finally:
        cdp.detach()
    foreign = sorted(used - allowed)
    if foreign:
        raise RenderError(f"text was drawn with fonts the page did not declare: {foreign}")


def _check_layout(measured: dict[str, Any], screen: Screen) -> None:
    width, height = screen.viewport
    if measured["viewport"] != [width, height] or measured["scroll"] != [width, height]:
        raise RenderError(
            f"the page does not fit its {width}x{height} viewport: "
            f"viewport {measured['viewport']}, content {measured['scroll']}"
        )
    if abs(float(measured["dpr"]) - screen.scale) > 1e-5:
        raise RenderError(f"device pixel ratio {measured['dpr']} is not {screen.scale}")
    x0, y0, x1, y1 = measured["box"]
    if not (0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height):
        raise RenderError(f"the table {measured['box']} is not inside the viewport")


@contextmanager
def chromium(executable: Path = CHROMIUM) -> Iterator[Chromium]:
    """A renderer driving `executable`; nothing is downloaded."""
    if not executable.is_file():
        raise BrowserMissingError(
            f"Chromium is not at {executable}: install it with: apt-get install chromium"
        )
    with sync_playwright() as playwright:
        yield Chromium(playwright, executable)
