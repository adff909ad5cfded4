"""The screen generator library both renderers share: Pillow draws the samples
(`samples/synth`), Chromium the browser corpora (`webcorpus`, `uikits`).

- `seed`: the store's seed rows a screen shows, and the values made up from a SKU;
- `capture`: where a screenshot's capture time lives, and the image encoders that write it;
- `fonts`: the Debian font files screens are drawn with;
- `chromium`: where Debian's Chromium is and the flags it runs headless with;
- `geometry`: a box carried through a photo's perspective warp;
- `command`: the `generate.py [--check]` command every corpus runs with;
- `specdata`: the screens' specifications, read and checked from data files.
"""
