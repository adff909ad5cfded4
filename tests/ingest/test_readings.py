from pipeline.ingest.readings import context_over
from pipeline.models import TextLine
from pipeline.table.layout import table_of_lines


def line(text: str, x0: int, y0: int, x1: int) -> TextLine:
    return TextLine(text=text, box=(x0, y0, x1, y0 + 24), confidence=0.99)


def test_a_filter_bar_the_structure_region_takes_in_still_gives_the_page_its_warehouse() -> None:
    page = [
        line("Stock levels", 250, 100, 410),
        line("Warehouse: WH-02", 260, 156, 407),
        line("Clear filters", 550, 159, 626),
        line("Min qty", 637, 206, 700),
        line("Description", 887, 206, 978),
        line("On hand", 1482, 206, 1550),
    ]
    for r, (minimum, name, on_hand) in enumerate(
        [("150", "Hex bolt M8x40", "96"), ("120", "Hex nut M8", "205"),
         ("100", "Cable tie 200 mm", "130"), ("25", "Heat-shrink tube kit", "31")]
    ):  # fmt: skip
        y = 240 + 30 * r
        page += [line(minimum, 660, y, 700), line(name, 887, y, 1090), line(on_hand, 1500, y, 1550)]
    _, _, layout = table_of_lines(page, None)
    assert layout is not None
    # The region the model reads starts at the filter bar's top (it stands over the columns).
    context = context_over(page, layout, region_top=159)
    assert context[-3:] == ["Stock levels", "Warehouse: WH-02", "Clear filters"]
    assert not {"Min qty", "Description", "On hand"} & set(context)
