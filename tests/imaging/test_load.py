import io
import struct
import threading
import warnings
import zlib
from typing import Any

import pytest
from PIL import Image

from pipeline.errors import (
    EmptyInputError,
    ImageTooLargeError,
    UndecodableImageError,
    UnsupportedFormatError,
    UploadTooLargeError,
)
from pipeline.imaging.load import load_image

LIMITS = {"max_bytes": 5_000_000, "max_pixels": 5_000_000}


def encode(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP", "BMP", "TIFF", "GIF"])
def test_every_supported_format_decodes_to_rgb(fmt: str) -> None:
    data = encode(Image.new("RGB", (40, 20), (10, 200, 30)), fmt)
    loaded = load_image(data, name=f"x.{fmt.lower()}", **LIMITS)
    assert loaded.image.mode == "RGB"
    assert loaded.image.size == (40, 20)


def test_multi_frame_gif_uses_the_first_frame() -> None:
    frames = [Image.new("RGB", (10, 10), c) for c in ((255, 0, 0), (0, 0, 255))]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:])
    loaded = load_image(buffer.getvalue(), name="anim.gif", **LIMITS)
    red, _, blue = loaded.image.convert("RGB").getpixel((5, 5))  # type: ignore[misc]
    assert red > 200 and blue < 50


def test_zero_bytes_is_an_empty_input_error_naming_the_file() -> None:
    with pytest.raises(EmptyInputError, match=r"blank\.png: empty file"):
        load_image(b"", name="blank.png", **LIMITS)


def test_non_image_bytes_say_what_they_are() -> None:
    with pytest.raises(UndecodableImageError, match="PDF document, not an image"):
        load_image(b"%PDF-1.7\n...", name="report.png", **LIMITS)


def test_garbage_bytes_are_undecodable() -> None:
    with pytest.raises(
        UndecodableImageError, match=r"noise\.jpg: not an image: its bytes match no image format"
    ):
        load_image(b"\x00\x01garbage" * 50, name="noise.jpg", **LIMITS)


def test_truncated_png_is_reported_as_corrupt() -> None:
    data = encode(Image.new("RGB", (300, 300), (1, 2, 3)), "PNG")
    with pytest.raises(UndecodableImageError, match="corrupt or truncated PNG"):
        load_image(data[: len(data) // 2], name="cut.png", **LIMITS)


def test_unsupported_format_lists_the_supported_ones() -> None:
    data = encode(Image.new("RGB", (16, 16)), "ICO")
    with pytest.raises(UnsupportedFormatError, match="ICO images are not supported; send PNG"):
        load_image(data, name="favicon.ico", **LIMITS)


def test_more_pixels_than_the_limit_is_refused_before_decoding() -> None:
    data = encode(Image.new("L", (4000, 3000)), "PNG")
    with pytest.raises(ImageTooLargeError, match="12,000,000 pixels is over the limit"):
        load_image(data, name="huge.png", max_bytes=10**9, max_pixels=1_000_000)


def test_more_bytes_than_the_limit_is_refused() -> None:
    with pytest.raises(UploadTooLargeError, match="over the limit of 10 bytes"):
        load_image(b"x" * 11, name="big.png", max_bytes=10, max_pixels=10)


def test_exif_orientation_is_applied() -> None:
    image = Image.new("RGB", (60, 20), "white")
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise on display
    loaded = load_image(encode(image, "JPEG", exif=exif), name="turned.jpg", **LIMITS)
    assert loaded.image.size == (20, 60)


@pytest.mark.parametrize(
    ("text", "background", "shade"),
    [
        pytest.param((255, 255, 255), "black", (0, 0, 0), id="white-text-onto-black"),
        pytest.param((0, 0, 0), "white", (255, 255, 255), id="black-text-onto-white"),
    ],
)
def test_text_on_a_transparent_png_is_flattened_onto_the_opposite_shade(
    text: tuple[int, int, int], background: str, shade: tuple[int, int, int]
) -> None:
    image = Image.new("RGBA", (50, 20), (0, 0, 0, 0))
    image.paste((*text, 255), (10, 5, 40, 15))
    loaded = load_image(encode(image, "PNG"), name="overlay.png", **LIMITS)
    assert loaded.alpha_background == background
    assert loaded.image.getpixel((2, 2)) == shade
    assert loaded.image.getpixel((20, 10)) == text


def test_capture_metadata_is_read_from_exif_and_png_text() -> None:
    exif = Image.Exif()
    exif.get_ifd(0x8769)[36867] = "2026:11:27 09:14:52"
    exif.get_ifd(0x8769)[36881] = "+08:00"
    jpeg = load_image(encode(Image.new("RGB", (8, 8)), "JPEG", exif=exif), name="a.jpg", **LIMITS)
    assert (jpeg.exif_datetime, jpeg.exif_offset) == ("2026:11:27 09:14:52", "+08:00")

    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text("Creation Time", "2026-11-28T10:05:00")
    png = load_image(encode(Image.new("RGB", (8, 8)), "PNG", pnginfo=info), name="a.png", **LIMITS)
    assert png.png_creation_time == "2026-11-28T10:05:00"


def png_with_interlace_method(method: int) -> bytes:
    data = bytearray(encode(Image.new("LA", (64, 40)), "PNG"))
    data[28] = method  # the last byte of IHDR's data
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    return bytes(data)


def test_a_png_with_an_interlace_method_out_of_range_is_undecodable_not_a_crash() -> None:
    # Pillow hands the byte to its decoder, which fails with a TypeError.
    with pytest.raises(UndecodableImageError, match=r"odd\.png: corrupt or truncated PNG data"):
        load_image(png_with_interlace_method(0xB6), name="odd.png", **LIMITS)


def tiff_with_a_tag_past_its_end() -> bytes:
    data = bytearray(encode(Image.new("RGB", (8, 8)), "TIFF", tiffinfo={270: "a description"}))
    ifd = struct.unpack("<I", data[4:8])[0]
    for n in range(struct.unpack("<H", data[ifd : ifd + 2])[0]):
        entry = ifd + 2 + 12 * n
        if struct.unpack("<H", data[entry : entry + 2])[0] == 270:
            data[entry + 4 : entry + 8] = struct.pack("<I", 0xFFFFFF)
    return bytes(data)


def jpeg_with_a_capture_time_past_its_end() -> bytes:
    exif = Image.Exif()
    exif.get_ifd(0x8769)[36867] = "2026:11:27 09:14:52"
    data = bytearray(encode(Image.new("RGB", (8, 8)), "JPEG", exif=exif))
    tag = data.find(b"\x90\x03\x00\x02")  # DateTimeOriginal, ASCII, big-endian EXIF
    data[tag + 4 : tag + 8] = struct.pack(">I", 0xFFFF)
    return bytes(data)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("tag.tiff", tiff_with_a_tag_past_its_end()),
        ("exif.jpg", jpeg_with_a_capture_time_past_its_end()),
    ],
)
def test_metadata_pillow_warns_about_is_skipped_without_a_warning_escaping(
    name: str, data: bytes
) -> None:
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        loaded = load_image(data, name=name, **LIMITS)
    assert loaded.image.size == (8, 8)
    assert loaded.exif_datetime is None
    assert [str(w.message) for w in escaped] == []


def test_two_loads_at_once_leave_the_warning_filters_as_they_were(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first load waits (bounded) in the decoder for the second to arrive there, and the
    # second waits for the first to finish: without turns, the second would restore the
    # filters the first had set, for good.
    real_open = Image.open
    second_inside, first_done = threading.Event(), threading.Event()

    def open_in_step(fp: Any, *args: Any, **kwargs: Any) -> Image.Image:
        if threading.current_thread().name == "first":
            second_inside.wait(timeout=0.5)
        else:
            second_inside.set()
            first_done.wait(timeout=5)
        return real_open(fp, *args, **kwargs)

    monkeypatch.setattr(Image, "open", open_in_step)
    data = encode(Image.new("RGB", (8, 8)), "PNG")
    before = list(warnings.filters)

    def first() -> None:
        load_image(data, name="a.png", **LIMITS)
        first_done.set()

    threads = [
        threading.Thread(target=first, name="first"),
        threading.Thread(target=load_image, args=(data,), kwargs={"name": "b.png", **LIMITS}),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert warnings.filters == before


def test_an_image_past_pillows_own_bomb_limit_is_refused_with_our_limit_and_what_to_do() -> None:
    data = encode(Image.new("1", (12_000, 12_000)), "PNG")
    with pytest.raises(ImageTooLargeError) as refused:
        load_image(data, name="huge.png", max_bytes=10**9, max_pixels=50_000_000)
    assert str(refused.value) == (
        "huge.png: 12000x12000 = 144,000,000 pixels is over the limit of 50,000,000 pixels "
        "(STOCKSHOT_MAX_IMAGE_PIXELS); send a smaller screenshot, or crop it to the table"
    )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        pytest.param(b'{"rows": [1, 2]}', "this is JSON text, not an image", id="json"),
        pytest.param(
            b"{\x8f\x02\xff\x10random" * 40,
            "not an image: its bytes match no image format",
            id="random-bytes-opening-with-a-brace",
        ),
    ],
)
def test_a_file_is_called_json_only_when_it_parses_as_json(data: bytes, said: str) -> None:
    with pytest.raises(UndecodableImageError, match=said):
        load_image(data, name="drop.png", **LIMITS)
