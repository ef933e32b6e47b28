"""The chouette score sheet as a picture (RULES C11; 003 Atlanta 10.1): a pure function of a :class:`SheetView`.

One row per game — who was Box, each member's points for that game (blank before he joined), the losers circled,
circles crossed through once their owners became Box, a "b" by a losing Captain who follows Box, the next Captain —
then the totals, the money at the stake, and the zero-sum check ("the scorekeeper should verify that the total of
all scores adds to zero"). Names in any script (the bundled fonts, :mod:`rendering.text`).

>>> png = render_sheet(SheetView("Chouette #1", ("Ann", "Bob", "Cy"),
...     (SheetLine(1, "Ann", (SheetCell(2), SheetCell(-1, circled=True), SheetCell(-1)), "Cy"),), (2, -1, -1)))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from .board import encode_png
from .records import signed
from .text import draw_text, fit_text, layout_text
from .themes import Theme, theme_from_name
from .view import ViewError

FONT = 18
ROW = 34
PAD = 14
MAX_NAME = 170


@dataclass(frozen=True, slots=True)
class SheetCell:
    """One member's entry for one game: ``points`` (None = not seated then), ``circled`` (a loser of Box vs the
    Captain), ``crossed`` (the circle crossed through: he has been Box since), ``b`` (the losing Captain who follows
    Box, 10.1)."""

    points: int | None
    circled: bool = False
    crossed: bool = False
    b: bool = False


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One game: its ``game`` number, the ``box``'s name, a :class:`SheetCell` per member column, the
    ``next_captain``'s name."""

    game: int
    box: str
    cells: tuple[SheetCell, ...]
    next_captain: str


@dataclass(frozen=True, slots=True)
class SheetView:
    """Everything the sheet picture shows: a ``title``, the ``members`` (columns, in order of arrival), the
    ``lines`` (games), the ``totals`` per member, an optional ``money`` total per member and ``stake`` text, and
    the ``next_captain``. Raises :class:`~rendering.view.ViewError` when a line or the totals do not have one entry
    per member."""

    title: str
    members: tuple[str, ...]
    lines: tuple[SheetLine, ...]
    totals: tuple[int, ...]
    money: tuple[int, ...] | None = None
    stake: str = ""
    next_captain: str | None = None

    def __post_init__(self) -> None:
        width = len(self.members)
        if len(self.totals) != width or (self.money is not None and len(self.money) != width):
            raise ViewError(f"totals (and money) need one entry per member ({width})")
        for line in self.lines:
            if len(line.cells) != width:
                raise ViewError(f"game {line.game} has {len(line.cells)} entries for {width} members")

    @property
    def zero_sum(self) -> bool:
        """True when every game and the totals add up to zero (RULES C11)."""
        rows_ok = all(sum(c.points or 0 for c in line.cells) == 0 for line in self.lines)
        return rows_ok and sum(self.totals) == 0


def figure(value: int) -> str:
    """A figure of the sheet as the texts write it: ``+12``, ``−1,305`` (a real minus sign, thousands grouped),
    ``0``."""
    return signed(value).text


def legend(view: SheetView) -> str:
    """The meaning of the marks ``view`` uses, one line ("" when it has none): the circle, the circle crossed
    through and the "b" (RULES C11; 003 Atlanta 10.1)."""
    cells = [cell for line in view.lines for cell in line.cells]
    parts = []
    if any(cell.circled for cell in cells):
        parts.append("circled: lost to Box")
    if any(cell.crossed for cell in cells):
        parts.append("crossed through: has been Box since")
    if any(cell.b for cell in cells):
        parts.append("b: the losing Captain, who follows Box")
    return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """Where things are drawn: ``columns`` (left, right) in pixels — game, Box, one per member, next Captain —
    ``header_top`` and ``rows_top`` (the first game row), the ``row`` height, the picture ``width`` and
    ``height``."""

    columns: tuple[tuple[float, float], ...]
    header_top: float
    rows_top: float
    row: float
    width: int
    height: int

    def member_column(self, index: int) -> tuple[float, float]:
        """The (left, right) of member column ``index``."""
        return self.columns[2 + index]

    def row_top(self, index: int) -> float:
        """The top of game row ``index`` (0-based); ``len(lines)`` is the totals row."""
        return self.rows_top + index * self.row


def sheet_layout(view: SheetView) -> SheetLayout:
    """The layout of ``view``'s picture: each column as wide as its widest text (names capped at
    :data:`MAX_NAME` pixels and shortened with "…")."""

    def width_of(texts, bold=False) -> float:
        return max(min(layout_text(t, FONT, bold).width, MAX_NAME) for t in texts) + 2 * PAD

    widths = [width_of(["Game", *(str(line.game) for line in view.lines)], True)]
    widths.append(width_of(["Box", *(line.box for line in view.lines)], True))
    for index, member in enumerate(view.members):
        points = (line.cells[index].points for line in view.lines)
        numbers = [figure(value) for value in points if value is not None]
        numbers.append(figure(view.totals[index]))
        if view.money is not None:
            numbers.append(figure(view.money[index]))
        widths.append(width_of([member, *numbers], True) + FONT)  # room for a circle and a "b"
    widths.append(width_of(["Next Captain", *(line.next_captain for line in view.lines)], True))
    columns: list[tuple[float, float]] = []
    x: float = PAD
    for width in widths:
        columns.append((x, x + width))
        x += width
    total_width = max(int(x + PAD), int(layout_text(view.title, FONT + 4, True).width + 2 * PAD), 360)
    header_top = PAD + ROW * 1.3 + (ROW * 0.8 if view.stake else 0)
    rows = len(view.lines) + 1 + (1 if view.money is not None else 0)
    height = int(header_top + ROW * (rows + 1) + ROW * (2.2 if legend(view) else 1.4) + PAD)
    return SheetLayout(tuple(columns), header_top, header_top + ROW, ROW, total_width, height)


def render_sheet_image(view: SheetView, theme: Theme | str | None = None) -> Image.Image:
    """The score-sheet picture of ``view`` as a Pillow RGB image (see :func:`render_sheet`)."""
    theme = theme if isinstance(theme, Theme) else theme_from_name(theme)
    layout = sheet_layout(view)
    image = Image.new("RGB", (layout.width, layout.height), theme.background)
    draw = ImageDraw.Draw(image)
    draw_text(
        draw, (PAD, PAD + ROW * 0.8), view.title, FONT + 4, theme.text, bold=True, max_width=layout.width - 2 * PAD
    )
    if view.stake:
        draw_text(draw, (PAD, PAD + ROW * 1.6), view.stake, FONT - 2, theme.text_muted)
    columns = layout.columns
    baseline = layout.header_top + ROW * 0.68
    draw.rectangle((PAD, layout.header_top, layout.width - PAD, layout.header_top + ROW - 1), fill=theme.panel)
    headers = ["Game", "Box", *view.members, "Next Captain"]
    for (left, right), text in zip(columns, headers, strict=True):
        draw_text(draw, ((left + right) / 2, baseline), text, FONT, theme.text, bold=True, align="centre",
                  max_width=right - left - PAD)  # fmt: skip
    for index, line in enumerate(view.lines):
        top = layout.row_top(index)
        base = top + ROW * 0.68
        if index % 2:
            draw.rectangle((PAD, top, layout.width - PAD, top + ROW - 1), fill=_mix(theme.background, theme.panel))
        _cell(draw, columns[0], base, str(line.game), theme.text_muted)
        _cell(draw, columns[1], base, line.box, theme.text)
        for column, cell in zip(columns[2:-1], line.cells, strict=False):
            _entry(draw, theme, column, top, base, cell)
        _cell(draw, columns[-1], base, line.next_captain, theme.text)
    top = layout.row_top(len(view.lines))
    draw.line((PAD, top, layout.width - PAD, top), fill=theme.text, width=2)
    base = top + ROW * 0.68
    _cell(draw, columns[0], base, "Total", theme.text, bold=True)
    for column, total in zip(columns[2:-1], view.totals, strict=False):
        _cell(draw, column, base, figure(total), theme.text, bold=True)
    rows = 1
    if view.money is not None:
        base += ROW
        _cell(draw, columns[0], base, "Money", theme.text_muted, bold=True)
        for column, money in zip(columns[2:-1], view.money, strict=False):
            _cell(draw, column, base, figure(money), theme.text_muted)
        rows += 1
    footer = layout.row_top(len(view.lines)) + ROW * rows + ROW * 0.9
    if view.zero_sum:
        check, colour = "Every game and the totals sum to zero (003 Atlanta 10.1).", theme.text_muted
    else:
        check, colour = f"DOES NOT SUM TO ZERO: {sum(view.totals):+d}", theme.hit_marker
    if view.next_captain:
        check = f"Next Captain: {view.next_captain}.  " + check
    draw_text(draw, (PAD, footer), check, FONT - 2, colour, max_width=layout.width - 2 * PAD)
    if legend(view):
        draw_text(draw, (PAD, footer + ROW * 0.8), legend(view), FONT - 4, theme.text_muted,
                  max_width=layout.width - 2 * PAD)  # fmt: skip
    return image


def render_sheet(view: SheetView, theme: Theme | str | None = None) -> bytes:
    """PNG bytes of the score sheet of ``view`` (``theme`` a :class:`~rendering.themes.Theme` or its name,
    ``None`` = the default). Raises :class:`~rendering.themes.UnknownThemeError` for an unknown theme."""
    return encode_png(render_sheet_image(view, theme))


def _mix(a, b):
    return tuple((x + y) // 2 for x, y in zip(a, b, strict=True))


def _cell(draw, column, baseline, text, fill, *, bold=False) -> None:
    left, right = column
    draw_text(draw, ((left + right) / 2, baseline), text, FONT, fill, bold=bold, align="centre",
              max_width=right - left - PAD)  # fmt: skip


def _entry(draw, theme: Theme, column, top, baseline, cell: SheetCell) -> None:
    if cell.points is None:
        return
    text = figure(cell.points)
    _cell(draw, column, baseline, text, theme.text)
    if not cell.circled:
        return
    left, right = column
    centre = (left + right) / 2
    width = fit_text(text, FONT, right - left - PAD).width
    box = (centre - width / 2 - 8, top + 3, centre + width / 2 + 8, top + ROW - 4)
    draw.ellipse(box, outline=theme.accent, width=2)
    if cell.crossed:
        draw.line((box[0], box[3], box[2], box[1]), fill=theme.accent, width=2)
    if cell.b:
        draw_text(draw, (box[2] + 2, baseline), "b", FONT - 4, theme.accent, bold=True)
