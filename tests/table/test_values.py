from pipeline.models import Row
from pipeline.table.values import is_code, values_profile, well_formed


def test_two_readings_of_one_table_compare_by_the_fields_that_hold_a_value_of_their_kind() -> None:
    read_whole = [Row(sku="SKU-20101", name="螺丝 M4", on_hand=880, reorder_point=300)]
    cut_short = [Row(sku="K", name="螺丝 M4", on_hand=880, reorder_point=300)]
    assert well_formed(read_whole) == 4
    assert well_formed(cut_short) == 3


def test_a_sku_read_on_several_rows_of_one_warehouse_counts_once() -> None:
    def row(sku: str, warehouse: str | None = None) -> Row:
        return Row(sku=sku, name="Hex bolt", on_hand=96, warehouse_id=warehouse)

    # A column edge through the codes leaves `SKU-10` on every row.
    assert well_formed([row("SKU-10"), row("SKU-10"), row("SKU-10")]) == 7
    assert well_formed([row("SKU-10231"), row("SKU-10232"), row("SKU-10310")]) == 9
    # The same SKU in two warehouses is two rows.
    assert well_formed([row("SKU-10231", "WH-01"), row("SKU-10231", "WH-02")]) == 8


def test_quantities_with_units_keep_the_unit_the_column_shares() -> None:
    profile = values_profile(["120 pcs", "1,450 pcs", "8 pcs", "-"])
    assert profile.filled == 3
    assert profile.quantities == 1.0
    assert profile.unit == "pcs"


def test_a_run_of_row_numbers_is_an_index_and_dotted_codes_are_codes_not_dates() -> None:
    assert values_profile(["21", "22", "23"]).index
    assert not values_profile(["21", "23", "22"]).index
    assert values_profile(["01.02.0035", "02.01.0011"]).codes == 1.0
    assert is_code("01.02.0035") and not is_code("2026.12.03") and not is_code("WH-02")


def test_a_codes_hyphen_read_as_a_dash_or_a_middle_dot_still_makes_a_code() -> None:
    assert is_code("SKU·10610") and is_code("SKU–10611") and is_code("BX—310—K")
    column = ["SKU-10601", "SKU·10610", "SKU·10611", "SKU‐10620", "SKU-10621"]
    assert values_profile(column).codes == 1.0
    # A name with a dot between its words is still a name.
    assert not is_code("Kraft mailer · 310") and values_profile(["Kraft mailer · 310"]).text == 1.0


def test_words_joined_by_underscores_are_a_code_digits_or_not() -> None:
    assert is_code("COMP_CUST") and is_code("DS_VA3_PC")
    assert not is_code("Build your own computer")
