import io

import pytest
from rich.cells import cell_len

from servers.terminal import print_table


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _drawn(*rows: tuple[str, ...], indent: int = 0) -> list[str]:
    out = io.StringIO()
    print_table(("sku", "name", "on_hand"), rows, out, indent=indent)
    return out.getvalue().splitlines()


def test_columns_line_up_by_display_width_so_chinese_names_keep_the_next_column_straight() -> None:
    lines = _drawn(("SKU-10232", "六角螺母 M8", "38"), ("SKU-10318", "Heat-shrink tube kit", "2"))
    starts = {
        cell_len(line[: line.rindex(qty)]) for line, qty in zip(lines[1:], ("38", "2"), strict=True)
    }
    assert len(starts) == 1
    assert lines[0].split() == ["sku", "name", "on_hand"]


def test_piped_output_keeps_each_row_on_one_line_without_trailing_spaces() -> None:
    name = "Stainless steel hex socket cap screw, DIN 912, M8 x 40, box of 200 " * 3
    lines = _drawn(("SKU-10232", name.strip(), "38"), ("SKU-1", "Nut", "7"), indent=2)
    assert len(lines) == 3
    assert lines[1].startswith("  SKU-10232  Stainless") and lines[1].endswith("  38")
    assert all(line == line.rstrip() for line in lines)


def test_a_cell_with_square_brackets_prints_as_written_not_as_markup() -> None:
    lines = _drawn(("SKU-1", "Cable [red] 2 m", "[/]"))
    assert "Cable [red] 2 m" in lines[1] and lines[1].endswith("[/]")


def test_on_a_terminal_the_header_is_bold_and_a_long_cell_wraps_to_its_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    out = _Terminal()
    print_table(("sku", "name"), [("SKU-1", "a long item name that cannot fit on one line")], out)
    drawn = out.getvalue()
    assert "\x1b[1m" in drawn
    plain = [line for line in drawn.splitlines() if line.strip()]
    assert len(plain) > 2
