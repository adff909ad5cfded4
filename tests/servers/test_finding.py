"""Finding items by SKU, code or name: pure over a catalogue, one table of cases."""

from __future__ import annotations

import pytest

from servers.domain.finding import match_items, normalised, words
from store.models import Item, ItemCode

CATALOGUE = [
    Item(
        sku="SKU-10231",
        name="Hex bolt M8x40 (box of 100)",
        codes=(
            ItemCode(kind="barcode", code="4006381333931"),
            ItemCode(kind="part_number", code="DIN933-M8x40"),
            ItemCode(kind="alias", code="六角螺栓 M8x40"),
        ),
    ),
    Item(sku="SKU-10232", name="Hex nut M8 (box of 200)"),
    Item(
        sku="SKU-10318",
        name="Heat-shrink tube kit",
        codes=(ItemCode(kind="alias", code="热缩管"),),
    ),
    Item(sku="SKU-10402", name="Safety gloves size L (pair)"),
    Item(sku="SKU-10403", name="Safety gloves size M (pair)"),
    Item(sku="SKU-20101", name="不锈钢螺丝 M4"),
    Item(sku="SKU-20102", name="不锈钢螺母 M4"),
    Item(sku="SKU-20111", name="热缩管套装", codes=(ItemCode(kind="alias", code="热缩管"),)),
    Item(sku="N5500DS_B-copy", name="Printer N5500"),
    Item(sku="shirt-variant-1-7", name="Shirt, blue, M"),
    Item(sku="SHIRT-VARIANT-1-7", name="Shirt, blue, L"),
]


def found(query: str) -> tuple[str, list[tuple[str, str, str]]]:
    result = match_items(query, CATALOGUE)
    return result.answer, [(i.sku, i.matched_by, i.closeness) for i in result.items]


@pytest.mark.parametrize(
    ("query", "answer", "items"),
    [
        # exact, byte for byte: a SKU, then a code
        ("SKU-10231", "one", [("SKU-10231", "sku", "exact")]),
        ("4006381333931", "one", [("SKU-10231", "barcode", "exact")]),
        ("DIN933-M8x40", "one", [("SKU-10231", "part_number", "exact")]),
        ("六角螺栓 M8x40", "one", [("SKU-10231", "alias", "exact")]),
        # a code kept as written: case tells two variants apart, and is never rewritten
        ("shirt-variant-1-7", "one", [("shirt-variant-1-7", "sku", "exact")]),
        ("N5500DS_B-copy", "one", [("N5500DS_B-copy", "sku", "exact")]),
        # normalised: case, width, spaces and punctuation set aside
        ("sku 10231", "one", [("SKU-10231", "sku", "normalised")]),
        ("ＳＫＵ－１０２３１", "one", [("SKU-10231", "sku", "normalised")]),
        ("din933 m8x40", "one", [("SKU-10231", "part_number", "normalised")]),
        ("hex bolt m8x40, box of 100", "one", [("SKU-10231", "name", "normalised")]),
        ("不锈钢螺丝M4", "one", [("SKU-20101", "name", "normalised")]),
        # two items equal under normalising: both named, neither chosen
        (
            "Shirt Variant 1 7",
            "several",
            [
                ("shirt-variant-1-7", "sku", "normalised"),
                ("SHIRT-VARIANT-1-7", "sku", "normalised"),
            ],
        ),
        # one code naming two items
        ("热缩管", "several", [("SKU-10318", "alias", "exact"), ("SKU-20111", "alias", "exact")]),
        # near: a misread character, a name cut short, a name in part
        ("SKU-1O231", "one", [("SKU-10231", "sku", "near")]),
        ("Hex bolt M8x4O (box of 100)", "one", [("SKU-10231", "name", "near")]),
        ("Hex bolt M8x40", "one", [("SKU-10231", "name", "near")]),
        ("不锈钢螺丝", "one", [("SKU-20101", "name", "near")]),
        (
            "Safety gloves",
            "several",
            [("SKU-10402", "name", "near"), ("SKU-10403", "name", "near")],
        ),
        # a barcode one digit off is another item, not a near one
        ("4006381333932", "none", []),
        ("Widget 3000", "none", []),
        ("", "none", []),
    ],
)
def test_a_query_names_one_item_several_or_none(
    query: str, answer: str, items: list[tuple[str, str, str]]
) -> None:
    assert found(query) == (answer, items)


def test_an_exact_sku_wins_over_a_code_or_name_equal_to_it() -> None:
    catalogue = [
        Item(sku="A-1", name="Anchor"),
        Item(sku="B-2", name="A-1", codes=(ItemCode(kind="alias", code="A-1"),)),
    ]
    result = match_items("A-1", catalogue)
    assert (result.answer, [i.sku for i in result.items]) == ("one", ["A-1"])


def test_the_answer_says_what_matched_and_which_sku_to_use() -> None:
    assert match_items("4006381333931", CATALOGUE).message == (
        "'4006381333931' is the barcode of SKU-10231 ('Hex bolt M8x40 (box of 100)'); "
        "use the SKU SKU-10231"
    )


def test_a_near_match_is_named_as_one_to_confirm() -> None:
    message = match_items("SKU-1O231", CATALOGUE).message
    assert message.startswith("no item is 'SKU-1O231' exactly; a near match: SKU-10231")
    assert message.endswith("Confirm it before using its SKU")


def test_several_candidates_are_listed_and_none_is_chosen() -> None:
    message = match_items("热缩管", CATALOGUE).message
    assert "matches 2 items: SKU-10318" in message
    assert message.endswith("ask which one is meant")


def test_normalising_sets_aside_case_width_spaces_and_punctuation() -> None:
    assert normalised("Hex bolt M8x40 (box of 100)") == normalised(
        "ＨＥＸ　ＢＯＬＴ m8x40 box of 100"
    )
    assert normalised("封箱胶带，60mm") == normalised("封箱胶带 60 mm")


def test_chinese_words_are_pairs_of_neighbouring_characters() -> None:
    assert words("不锈钢螺丝 M4") == {"不锈", "锈钢", "钢螺", "螺丝", "m4"}
