"""Synthetic inventory-screen screenshots with exact ground truth.

`specs.SPECS` lists the samples, read from `samples.json`; `render.render_sample` draws one;
`output` writes the image with its capture-time metadata and the truth JSON beside it.
"""
