"""The chouette score-sheet picture (rendering.sheet; RULES C11, 003 Atlanta 10.1): a decodable PNG with a column
per member carrying his name, every game's points, the losers circled (crossed once they were Box, "b" by a losing
Captain who follows Box), the totals and the zero-sum check."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from rendering.sheet import ROW, SheetCell, SheetLine, SheetView, render_sheet, render_sheet_image, sheet_layout
from rendering.themes import theme_from_name
from rendering.view import ViewError

THEME = theme_from_name(None)
MEMBERS = ("Ann", "Bob", "Олег", "山田", "Ed 🎲")


def sample(**changes) -> SheetView:
    lines = (
        SheetLine(
            1,
            "Ann",
            (SheetCell(4), SheetCell(-1, circled=True, crossed=True), SheetCell(-1), SheetCell(-1), SheetCell(-1)),
            "Олег",
        ),  # fmt: skip
        SheetLine(
            2,
            "Bob",
            (
                SheetCell(-2, circled=True),
                SheetCell(6),
                SheetCell(-2, circled=True, b=True),
                SheetCell(-1),
                SheetCell(-1),
            ),
            "山田",
        ),  # fmt: skip
    )
    view = SheetView("Chouette #7", MEMBERS, lines, (2, 5, -3, -2, -2), (20, 50, -30, -20, -20), "Stake 10", "山田")
    return replace(view, **changes)


def ink(image: Image.Image, box, colour, tolerance: int = 40) -> int:
    """Pixels in ``box`` within ``tolerance`` of ``colour`` (each channel)."""
    data = image.crop(tuple(int(v) for v in box)).convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for pixel in pixels if all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True)))


def test_sheet_png_decodes_and_has_a_column_per_member():
    """Every member's header cell holds his name in ink (names in Cyrillic, CJK and emoji too); a sixth member
    widens the picture."""
    data = render_sheet(sample())
    image = Image.open(io.BytesIO(data))
    image.load()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and image.format == "PNG"
    layout = sheet_layout(sample())
    assert (image.width, image.height) == (layout.width, layout.height)
    for index in range(len(MEMBERS)):
        left, right = layout.member_column(index)
        cell = (left, layout.header_top, right, layout.header_top + ROW)
        assert ink(image, cell, THEME.text) > 30, f"no name drawn for {MEMBERS[index]}"
    lines = tuple(replace(line, cells=(*line.cells, SheetCell(None))) for line in sample().lines)
    wider = sample(members=(*MEMBERS, "Zoë"), totals=(2, 5, -3, -2, -2, 0), money=None, lines=lines)
    assert sheet_layout(wider).width > layout.width


def test_losers_are_circled_and_blank_before_joining():
    """003 Atlanta 10.1: circled entries get a circle in the accent colour, plain ones none; a member with no seat in a
    game has an empty cell."""
    view = sample(lines=(*sample().lines, SheetLine(3, "Ann", (SheetCell(1), SheetCell(-1), SheetCell(None),
                                                                SheetCell(0), SheetCell(0)), "Ann")))  # fmt: skip
    image = render_sheet_image(view)
    layout = sheet_layout(view)

    def cell(row: int, member: int):
        left, right = layout.member_column(member)
        return (left, layout.row_top(row), right, layout.row_top(row) + ROW)

    assert ink(image, cell(1, 0), THEME.accent, 30) > 40, "Ann lost game 2: circled"
    assert ink(image, cell(0, 0), THEME.accent, 30) == 0, "Ann won game 1: no circle"
    assert ink(image, cell(2, 2), THEME.text, 60) == 0, "no entry for a member not seated in that game"
    crossed = ink(image, cell(0, 1), THEME.accent, 30)
    circled = ink(image, cell(1, 0), THEME.accent, 30)
    with_b = ink(image, cell(1, 2), THEME.accent, 30)
    assert crossed > circled + 10, "a circle crossed through when its owner became Box"
    assert with_b > circled + 10, "the 'b' by the losing Captain who follows Box"


def test_zero_sum_check_is_shown_and_errors_are_refused():
    """RULES C11: the footer says the sheet sums to zero, or loudly that it does not; rows of the wrong width are
    refused."""
    good = sample()
    assert good.zero_sum
    bad = sample(totals=(2, 5, -3, -2, -1))
    assert not bad.zero_sum
    layout = sheet_layout(good)
    footer = (0, layout.height - ROW * 2, layout.width, layout.height)
    assert ink(render_sheet_image(bad), footer, THEME.hit_marker, 30) > 50
    assert ink(render_sheet_image(good), footer, THEME.hit_marker, 30) == 0
    with pytest.raises(ViewError, match="one entry per member"):
        SheetView("x", ("A", "B"), (), (0,))
    with pytest.raises(ViewError, match="game 1 has 1 entries"):
        SheetView("x", ("A", "B"), (SheetLine(1, "A", (SheetCell(1),), "B"),), (0, 0))
