import base64
import io

from PIL import Image

from pipeline.imaging.payload import to_payload


def decoded(url: str) -> Image.Image:
    assert url.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


def test_an_image_within_the_budget_is_sent_as_it_is() -> None:
    payload = to_payload(Image.new("RGB", (640, 200), "white"), max_pixels=640 * 200)
    assert (payload.width, payload.height) == (640, 200)
    assert decoded(payload.url).size == (640, 200)


def test_an_image_over_the_budget_is_scaled_down_keeping_its_aspect() -> None:
    payload = to_payload(Image.new("RGB", (3840, 2160), "white"), max_pixels=1920 * 1080)
    assert (payload.width, payload.height) == (1920, 1080)
    assert decoded(payload.url).size == (1920, 1080)


def test_a_sliver_over_the_budget_keeps_at_least_one_pixel_a_side() -> None:
    payload = to_payload(Image.new("RGB", (4000, 1), "white"), max_pixels=1000)
    assert (payload.width, payload.height) == (2000, 1)
    assert decoded(payload.url).size == (2000, 1)
