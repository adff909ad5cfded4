"""Inventory screens rendered by a real browser, with ground truth taken from the page data.

`specs.SPECS` lists the screens and `specs.PHOTOS` the phone photos taken of some of them, as
data. A design in `designs` turns a spec and its table into an HTML page; `browser` renders the
page in Chromium and measures the table in the DOM; `photo` turns a render into a photo of the
monitor; `output` writes each image with its capture time and the truth JSON beside it.
"""
