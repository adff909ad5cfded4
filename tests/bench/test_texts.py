"""The bench's text images: drawn with the Debian fonts, and a missing font named with the
package that provides it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pipeline.bench.texts import TEXT_IMAGES, draw_text_images, missing_font


def test_a_text_image_whose_font_is_missing_is_left_out_naming_its_package(
    tmp_path: Path,
) -> None:
    spec = dataclasses.replace(TEXT_IMAGES[0], font=str(tmp_path / "gone.ttc"))

    why = missing_font(spec)

    assert why is not None
    assert spec.name in why and spec.package in why and "`make fonts`" in why


def test_every_text_image_names_the_package_of_its_font_and_is_drawn_when_it_is_there(
    tmp_path: Path,
) -> None:
    drawn = {spec.name for spec, path in draw_text_images(tmp_path) if path.is_file()}

    assert all(spec.package.startswith("fonts-") for spec in TEXT_IMAGES)
    assert drawn == {spec.name for spec in TEXT_IMAGES if missing_font(spec) is None}
