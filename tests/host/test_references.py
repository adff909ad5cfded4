import pytest

from pipeline.host.references import ReferenceError_, substitute
from pipeline.models import JsonObject

CONTENTS = {"stock.csv": "sku,on_hand\nSKU-1,4\n", "erp.png": "| sku |"}


def test_an_argument_equal_to_a_reference_becomes_the_attachment_content() -> None:
    arguments: JsonObject = {"text": "@stock.csv", "rows": ["@erp.png", "keep"], "n": 3}
    assert substitute(arguments, CONTENTS) == {
        "text": "sku,on_hand\nSKU-1,4\n",
        "rows": ["| sku |", "keep"],
        "n": 3,
    }


def test_text_that_merely_contains_an_at_sign_is_left_alone() -> None:
    assert substitute({"note": "mail li@example.com about @stock.csv"}, CONTENTS) == {
        "note": "mail li@example.com about @stock.csv"
    }


def test_a_name_that_was_not_attached_is_refused_with_the_attached_names() -> None:
    with pytest.raises(
        ReferenceError_, match=r"'@prices.csv' is not an attachment.*@erp.png, @stock.csv"
    ):
        substitute({"text": "@prices.csv"}, CONTENTS)


@pytest.mark.parametrize("path", ["@/etc/passwd", "@../stock.csv", "@..", "@C:\\data\\x.csv"])
def test_a_path_is_refused_so_nothing_outside_the_run_is_read(path: str) -> None:
    with pytest.raises(ReferenceError_, match="looks like a path"):
        substitute({"text": path}, CONTENTS)
