"""Inventory screens drawn with real UI kits' own CSS and markup, with truth from the DOM.

`kits` fetches and verifies the kits' npm tarballs (`kits.lock.json`) and makes their CSS
offline; `specs` lists the two splits as data; a design in `pages` writes a page in a kit's
markup; `build` renders it with `webcorpus.browser`, reads the truth with `measure` and
photographs some renders with `webcorpus.photo`. See README.md.
"""
