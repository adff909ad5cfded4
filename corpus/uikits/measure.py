"""What the screenshot shows, measured in the DOM after layout.

The page function `MEASURE` scrolls the page (or its `[data-scroll]` region) to the spec's
position and then on, pixel by pixel up to `SCROLL_SLACK`, until no truth text is cut by the
edge of the screen or of a scrolling region: each is wholly visible or wholly hidden. A truth
text is visible when hit-testing at the centre and four corners (2-3 px in) of each of its line
boxes lands on the element itself or on its own item's box (not on another truth text), so text
outside the viewport, clipped by an `overflow` ancestor (a name cut off under the next cell) or
covered by a header, toolbar or tab bar does not count. A visible item
is one whose every truth text is visible; a card cut between its lines (its name shown, its
quantities under the tab bar) is only partly visible and not part of the truth. Each truth text
and each warehouse cue (`data-cue`) must also stand out from its background (`MIN_CONTRAST`).
It returns each truth element's text (`innerText`, so as `text-transform` shows it) and state,
and the boxes that make up the table region.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SCROLL_SLACK = 240
MIN_CONTRAST = 1.5
"""The least text contrast (WCAG ratio against the nearest opaque background) a truth text or
warehouse cue may have: white on white is not visible, whatever hit-testing says."""

MEASURE = """([start, slack]) => {
  const scroller = document.querySelector('[data-scroll]');
  const setScroll = y => { if (scroller) scroller.scrollTop = y; else window.scrollTo(0, y); };
  const getScroll = () => scroller ? scroller.scrollTop : window.scrollY;
  const els = [...document.querySelectorAll('[data-r]')];
  // A hit on the text's own element, or on its own item's box (a card's body around it); a
  // hit on any other truth text (the next cell of the same row, which a clipped text runs
  // under) is not.
  const inside = (hit, e) => {
    if (hit === null) return false;
    if (hit === e || e.contains(hit)) return true;
    if (hit.closest('[data-r]') !== null) return false;
    const box = hit.closest('[data-rb]');
    return box !== null && box.dataset.rb === e.dataset.r;
  };
  const state = e => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const rects = [...range.getClientRects()].filter(r => r.width > 0.5 && r.height > 0.5);
    if (rects.length === 0) return 'empty';
    let hit = 0, total = 0;
    for (const r of rects) {
      for (const [fx, fy] of [[0.5, 0.5], [0, 0], [1, 0], [0, 1], [1, 1]]) {
        const ix = Math.min(2, r.width / 4), iy = Math.min(3, r.height / 4);
        const x = r.left + ix + fx * (r.width - 2 * ix);
        const y = r.top + iy + fy * (r.height - 2 * iy);
        total += 1;
        if (inside(document.elementFromPoint(x, y), e)) hit += 1;
      }
    }
    return hit === total ? 'full' : hit === 0 ? 'none' : 'partial';
  };
  const rgba = c => {
    const n = (c.match(/-?[\\d.]+/g) || []).map(Number);
    if (c.startsWith('color(srgb')) return [n[0] * 255, n[1] * 255, n[2] * 255, n[3] ?? 1];
    if (c.startsWith('rgb')) return [n[0], n[1], n[2], n[3] ?? 1];
    return null;
  };
  const luminance = ([r, g, b]) => {
    const lin = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const background = el => {
    for (let a = el; a !== null; a = a.parentElement) {
      const c = rgba(getComputedStyle(a).backgroundColor);
      if (c !== null && c[3] > 0.5) return c;
    }
    return [255, 255, 255, 1];
  };
  const contrast = e => {
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    let worst = 21;
    for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const el = n.parentElement;
      const color = rgba(getComputedStyle(el).color);
      if (color === null) continue;
      const a = luminance(color), b = luminance(background(el));
      worst = Math.min(worst, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
    }
    return worst;
  };
  const judge = () => {
    const states = els.map(state);
    return [states, states.every(s => s === 'full' || s === 'none')];
  };
  let states = null, clean = false, tried = 0;
  for (let d = 0; d <= slack; d++) {
    setScroll(start + d);
    if (d > 0 && getScroll() !== start + d) break;
    [states, clean] = judge();
    tried = d;
    if (clean) break;
  }
  const visible = new Set(els.filter((e, i) => states[i] === 'full').map(e => e.dataset.r));
  const boxes = [...document.querySelectorAll('[data-box]')]
    .filter(e => visible.has(e.dataset.rb ?? e.dataset.r))
    .map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });
  return {
    clean, scroll: getScroll(), shifted: tried,
    dpr: window.devicePixelRatio,
    viewport: [window.innerWidth, window.innerHeight],
    cues: [...document.querySelectorAll('[data-cue]')].map(e => [
      e.innerText.trim(), state(e), contrast(e),
    ]),
    contrast: els.map(contrast),
    elements: els.map((e, i) => [
      Number(e.dataset.r), Number(e.dataset.c), e.innerText.replace(/\\s+/g, ' ').trim(), states[i],
    ]),
    boxes,
  };
}"""


@dataclass(frozen=True)
class Measured:
    clean: bool
    scroll: int
    dpr: float
    viewport: tuple[int, int]
    texts: dict[tuple[int, int], str]
    states: dict[tuple[int, int], str]
    box: tuple[float, float, float, float] | None
    cues: tuple[tuple[str, str, float], ...]
    """Each `data-cue` element (the page's warehouse in a heading, chip, breadcrumb or tab):
    its text, state and text contrast."""
    contrast: dict[tuple[int, int], float]

    def visible_items(self) -> list[int]:
        """Items (1-based, as in `data-r`) whose every truth text is wholly visible."""
        items = sorted({r for r, _ in self.states if r > 0})
        return [r for r in items if all(s == "full" for (i, _), s in self.states.items() if i == r)]

    def partly_visible(self) -> list[int]:
        """Items cut between their lines: some truth texts wholly shown, the others hidden."""
        items = sorted({r for r, _ in self.states if r > 0})
        return [
            r
            for r in items
            if {s for (i, _), s in self.states.items() if i == r} == {"full", "none"}
        ]

    def problems(self) -> list[str]:
        out = [
            f"({r}, {c}) is {s}: {self.texts[(r, c)]!r}"
            for (r, c), s in sorted(self.states.items())
            if s not in ("full", "none")
        ]
        out += [
            f"({r}, {c}) has text contrast {self.contrast[(r, c)]:.2f}: {self.texts[(r, c)]!r}"
            for (r, c), s in sorted(self.states.items())
            if s == "full" and self.contrast[(r, c)] < MIN_CONTRAST
        ]
        out += [
            f"the warehouse cue {text!r} is {state} with contrast {ratio:.2f}"
            for text, state, ratio in self.cues
            if state != "full" or ratio < MIN_CONTRAST
        ]
        return out


def parse(measured: dict[str, Any]) -> Measured:
    texts, states, contrast = {}, {}, {}
    for (r, c, text, state), ratio in zip(measured["elements"], measured["contrast"], strict=True):
        key = (int(r), int(c))
        if key in texts:
            raise ValueError(f"truth element {key} appears twice")
        texts[key], states[key], contrast[key] = str(text), str(state), float(ratio)
    boxes = measured["boxes"]
    box = None
    if boxes:
        box = (
            min(float(b[0]) for b in boxes),
            min(float(b[1]) for b in boxes),
            max(float(b[2]) for b in boxes),
            max(float(b[3]) for b in boxes),
        )
    w, h = measured["viewport"]
    return Measured(
        clean=bool(measured["clean"]),
        scroll=round(float(measured["scroll"])),
        dpr=float(measured["dpr"]),
        viewport=(int(w), int(h)),
        texts=texts,
        states=states,
        box=box,
        cues=tuple((str(t), str(s), float(x)) for t, s, x in measured["cues"]),
        contrast=contrast,
    )
