"""A column's codes read together: a code misread on its own takes the form the column shares."""

from pipeline.models import Table
from pipeline.table.rows import to_rows


def _skus_read_from(
    codes: list[str], header: tuple[str, str, str] = ("SKU", "Name", "On hand")
) -> list[str | None]:
    """The SKUs rows come out with, from a column of codes read as `codes`."""
    table = Table(header=list(header), cells=[[code, "Hex bolt", "12"] for code in codes])
    return [row.sku for row in to_rows(table, [[1.0] * 3 for _ in codes]).rows]


def test_a_dotted_code_with_a_misread_separator_takes_the_separators_its_column_shares() -> None:
    table = Table(
        header=["物料编码", "物料名称", "现存量"],
        cells=[
            ["01.02.0035", "六角螺栓", "120"],
            ["01.02.0036", "六角螺母", "80"],
            ["01.02.0041", "弹簧垫圈", "300"],
            ["01.03.0112", "平垫圈", "64"],
            ["02.01:0011", "气泡膜", "12"],
            ["05,01.0003", "叉车电池", "3"],
            ["01 03 0120", "膨胀螺栓", "40"],
            ["03.0.0021", "工业胶带", "9"],  # a digit lost: not this code's shape
        ],
    )
    confidences = [[1.0] * 3 for _ in table.cells]
    skus = [row.sku for row in to_rows(table, confidences).rows]
    assert skus == [
        "01.02.0035", "01.02.0036", "01.02.0041", "01.03.0112",
        "02.01.0011", "05.01.0003", "01.03.0120", "03.0.0021",
    ]  # fmt: skip


def test_a_dotted_code_with_a_separator_lost_is_cut_where_its_column_cuts() -> None:
    codes = ["01.02.0035", "01.02.0036", "01.03.0112", "02.010011", "01.020036", "0102.0041"]
    assert _skus_read_from(codes) == [
        "01.02.0035", "01.02.0036", "01.03.0112", "02.01.0011", "01.02.0036", "01.02.0041",
    ]  # fmt: skip
    # A digit lost as well, or a cut where the column has none, is not this code's shape.
    kept = ["01.02.0035", "01.02.0036", "01.03.0112", "0102005", "010.20036"]
    assert _skus_read_from(kept)[3:] == ["0102005", "010.20036"]


def test_a_prefix_letter_read_as_a_look_alike_digit_takes_the_prefix_its_column_shares() -> None:
    codes = ["SKU-10231", "SKU-10232", "SKU-10310", "5KU-10311", "5KUJ-10318", "2B-10402"]
    assert _skus_read_from(codes) == [
        "SKU-10231", "SKU-10232", "SKU-10310", "SKU-10311", "SKU-10318", "2B-10402",
    ]  # fmt: skip


def test_a_code_with_a_dot_for_its_hyphen_takes_the_hyphen_the_codes_read_share() -> None:
    # A blurred photo: some codes not read at all, the others agree on their hyphen.
    read = ["SKU-10231", "", "SKU·10233", "SKU-10240", "", "", "SKU-10244", "", "SKU-10310"]
    skus = _skus_read_from(read, ("Product code", "Title", "Current stock"))
    assert [sku for sku in skus if sku and "10233" in sku] == ["SKU-10233"]


TYPED = ["SKU-10231", "SKU-10232", "SKU-10310", "SKU-10318", "SKU-10402", "SKU-10501",
         "SKU-10601", "SKU-10602", "SKU-10603"]  # fmt: skip
"""A column of codes as typed, which the tests below read blurred."""


def test_hyphens_read_as_middle_dots_on_most_of_a_column_take_the_hyphen_the_others_have() -> None:
    # No code is typed with a middle dot: a blurred hyphen read short. The codes read with
    # theirs whole say which separator it was, however few they are.
    read = ["SKU·10231", "SKU·10232", "SKU·10310", "SKU-10318", "SKU·10402", "SKU-10501",
            "SKU·10601", "SKU-10602", "SKU·10603"]  # fmt: skip
    assert _skus_read_from(read) == TYPED
    # With no hyphen read whole in the column there is nothing to take: the codes stay.
    assert _skus_read_from(["SKU·10231", "SKU·10232", "SKU·10310"]) == [
        "SKU·10231", "SKU·10232", "SKU·10310",
    ]  # fmt: skip


def test_a_blurred_hyphen_read_as_a_stroke_letter_is_mended_where_most_codes_have_none() -> None:
    read = ["SKUJ·10231", "SKUJ 10232", "SKU-10310", "SKU-10318", "SKU-10402", "SKUJ-10501",
            "SKU-10601", "SKUI-10602", "SKU-10603"]  # fmt: skip
    assert _skus_read_from(read) == TYPED


def test_a_prefix_a_letter_off_with_the_hyphens_stroke_is_mended_where_most_codes_share_it() -> (
    None
):
    read = ["SKLJ-10231", "SKU-10232", "SKU-10310", "SKU-10318", "SKLI-10402", "SKU-10501"]
    assert _skus_read_from(read) == [
        "SKU-10231", "SKU-10232", "SKU-10310", "SKU-10318", "SKU-10402", "SKU-10501",
    ]  # fmt: skip
    # Two letters off (`SXA`), or a letter off and no stroke (`SKLF`): another code, kept.
    read = ["SXAJ-10231", "SKLF-10232", "SKU-10310", "SKU-10318", "SKU-10402", "SKU-10501"]
    assert _skus_read_from(read)[:2] == ["SXAJ-10231", "SKLF-10232"]


def test_a_prefix_blurred_a_different_way_in_each_row_takes_the_one_the_column_reads_whole() -> (
    None
):
    # Half the column reads `SKU` whole; nearly all the rest are a letter off it.
    read = ["SKUA-10231", "SKU-10232", "SKUF-10310", "SKU-10318", "SKL-10402", "SKU-10501",
            "SKLU-10601", "SKU-10602"]  # fmt: skip
    assert _skus_read_from(read) == [
        "SKU-10231", "SKU-10232", "SKU-10310", "SKU-10318", "SKU-10402", "SKU-10501",
        "SKU-10601", "SKU-10602",
    ]  # fmt: skip
    # Short prefixes a letter apart are families of their own (`BX`, `BG`, `BT`): kept.
    read = ["BX-310", "BX-250", "BX-420", "BG-100", "BT-200", "BXA-300", "BY-120"]
    assert _skus_read_from(read) == read


def test_a_neighbours_word_read_before_a_code_is_dropped_where_the_column_shares_its_prefix() -> (
    None
):
    read = ["BAGSSKU-10310", "SKU-10232", "SKU-10318", "95SKU-10403", "SKU-10501"]
    assert _skus_read_from(read) == [
        "SKU-10310", "SKU-10232", "SKU-10318", "SKU-10403", "SKU-10501",
    ]  # fmt: skip


def test_a_codes_letters_blurred_into_look_alike_digits_take_the_kinds_its_column_shares() -> None:
    read = [
        "BX-310-K", "BX-250-K", "TP-48-8", "TP-50-F", "FL-500-5", "FL-100-B",
        "LB-100-T", "DV-050-P", "1B-200-K",
    ]  # fmt: skip
    # A run only partly misread (`1B` for `LB`) is not one of the column's runs: kept.
    assert _skus_read_from(read) == [
        "BX-310-K", "BX-250-K", "TP-48-B", "TP-50-F", "FL-500-S", "FL-100-B",
        "LB-100-T", "DV-050-P", "1B-200-K",
    ]  # fmt: skip


def test_a_code_whose_runs_are_not_all_look_alikes_or_whose_column_is_mixed_is_kept() -> None:
    # `TP-48-7`: a 7 looks like no letter; `AB-12-3X`: four runs, not this column's three.
    read = ["BX-310-K", "BX-250-K", "TP-48-7", "LB-100-T", "DV-050-P", "AB-12-3X"]
    assert _skus_read_from(read) == read
    # Half the column ends in a digit: no kind is the column's.
    read = ["AB-12-3", "AB-12-5", "AB-13-8", "CD-10-K", "CD-11-M", "CD-12-B"]
    assert _skus_read_from(read) == read


def test_a_prefix_one_letter_off_is_kept_when_the_column_is_split_nearly_evenly() -> None:
    read = ["SKA-10231", "SKA-10232", "SKA-10310", "SKU-10318", "SKU-10402", "SKU-10501"]
    assert _skus_read_from(read) == read
