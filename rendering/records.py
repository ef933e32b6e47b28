"""Pictures of the club's books — ledgers, score sheets, leaderboards — as PNG tables (a pure function of a
:class:`RecordTable`; no club or Discord types).

A :class:`RecordTable` is a title, an optional subtitle, columns (heading and alignment), rows of :class:`Cell`
(text plus a tone: ``plus``/``minus`` figures are drawn in the colour-blind-safe sky blue / orange of the Okabe–Ito
palette and keep their sign, so colour is never the only cue), and a footer. Names go through the same
per-character font fallback as the boards (:mod:`rendering.text`): accents, CJK and emoji never crash or vanish.
Column widths follow the text; a table wider than ``max_width`` shortens its widest left-aligned column with "…".
Only the first :data:`MAX_ROWS` rows are drawn; the footer says how many were left out.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from .text import Align, draw_text, layout_text, wrap_text
from .themes import Theme, theme_from_name

TONES = ("plain", "plus", "minus", "muted", "strong")
"""How a cell is drawn."""

MAX_ROWS = 60
"""The most rows one picture shows."""

PLUS = (86, 180, 232)  # Okabe–Ito sky blue, snapped to the themes' multiples of 4
MINUS = (232, 160, 0)  # Okabe–Ito orange

_SIZE = 18
_TITLE = 26
_SUBTITLE = 17
_ROW = 32
_PAD = 14
_MARGIN = 24


class RecordTableError(ValueError):
    """A table that cannot be drawn: rows whose length differs from the columns, an unknown tone or alignment."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: ``text`` and a ``tone`` (one of :data:`TONES`)."""

    text: str
    tone: str = "plain"


@dataclass(frozen=True, slots=True)
class Column:
    """A column: ``heading`` and ``align`` (``"left"``, ``"right"`` or ``"centre"``)."""

    heading: str
    align: str = "right"


@dataclass(frozen=True, slots=True)
class RecordTable:
    """What to draw: ``title``, ``subtitle`` (may be empty), ``columns``, ``rows`` (each as many cells as columns;
    plain strings are plain cells), ``footer`` lines, and ``total_rows`` (indexes of rows drawn as totals: bold, with
    a rule above)."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell | str, ...], ...]
    subtitle: str = ""
    footer: tuple[str, ...] = ()
    total_rows: frozenset[int] = field(default_factory=frozenset)


def signed(value: int | float, decimals: int = 0) -> Cell:
    """A figure with its sign (``+12``, ``−3``, ``0``) in the ``plus``/``minus``/``muted`` tone."""
    if value > 0:
        return Cell(f"+{value:,.{decimals}f}", "plus")
    if value < 0:
        return Cell(f"−{-value:,.{decimals}f}", "minus")  # a real minus sign
    return Cell(f"{0:.{decimals}f}", "muted")


def _cell(value: Cell | str) -> Cell:
    return value if isinstance(value, Cell) else Cell(str(value))


def _check(table: RecordTable) -> list[list[Cell]]:
    rows = []
    for index, row in enumerate(table.rows):
        if len(row) != len(table.columns):
            raise RecordTableError(f"row {index} has {len(row)} cells for {len(table.columns)} columns")
        cells = [_cell(value) for value in row]
        for cell in cells:
            if cell.tone not in TONES:
                raise RecordTableError(f"unknown tone {cell.tone!r}; known: {', '.join(TONES)}")
        rows.append(cells)
    for column in table.columns:
        if column.align not in tuple(Align):
            raise RecordTableError(f"unknown alignment {column.align!r}")
    return rows


def _colour(theme: Theme, tone: str):
    return {"plus": PLUS, "minus": MINUS, "muted": theme.text_muted, "strong": theme.accent}.get(tone, theme.text)


def footer_lines(table: RecordTable, room: float) -> list[str]:
    """The footer of ``table`` as drawn: its lines, and how many rows were left out (beyond :data:`MAX_ROWS`),
    each cut between words into lines at most ``room`` pixels wide."""
    hidden = len(table.rows) - MAX_ROWS
    footer = list(table.footer) + ([f"… and {hidden} more {'row' if hidden == 1 else 'rows'} not shown"] if hidden > 0 else [])
    return [line for text in footer for line in wrap_text(text, 16, room)]


def render_record_table(table: RecordTable, *, theme: Theme | str | None = None, max_width: int = 1400) -> bytes:
    """PNG bytes of ``table`` in ``theme`` (a :class:`~rendering.themes.Theme` or its name; default the
    colour-blind-safe one), at most ``max_width`` pixels wide (≥ 400). Raises :class:`RecordTableError` for a
    malformed table, :class:`~rendering.themes.UnknownThemeError` for an unknown theme name."""
    theme = theme if isinstance(theme, Theme) else theme_from_name(theme)
    max_width = max(400, int(max_width))
    rows = _check(table)
    shown = rows[:MAX_ROWS]
    widths = []
    for index, column in enumerate(table.columns):
        texts = [layout_text(column.heading, _SIZE, True).width]
        texts += [
            layout_text(row[index].text, _SIZE, number in table.total_rows).width for number, row in enumerate(shown)
        ]
        widths.append(max(texts) + 2 * _PAD)
    room = max_width - 2 * _MARGIN
    if sum(widths) > room:  # shorten the widest left-aligned column (names)
        lefts = [i for i, column in enumerate(table.columns) if column.align == Align.LEFT]
        lefts = lefts or [widths.index(max(widths))]
        widest = max(lefts, key=lambda i: widths[i])
        widths[widest] = max(80, widths[widest] - (sum(widths) - room))
    texts = [layout_text(table.title, _TITLE, True).width, layout_text(table.subtitle, _SUBTITLE).width]
    texts += [layout_text(text, 16).width for text in table.footer]
    width = int(min(max_width, max(400, max(sum(widths), *texts) + 2 * _MARGIN)))
    footer = footer_lines(table, width - 2 * _MARGIN)
    top = _MARGIN + _TITLE + (8 + _SUBTITLE if table.subtitle else 0) + 16
    height = top + _ROW * (len(shown) + 1) + (10 + 24 * len(footer) if footer else 0) + _MARGIN
    image = Image.new("RGB", (width, height), theme.background)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (_MARGIN, _MARGIN + _TITLE * 0.8), table.title, _TITLE, theme.text, bold=True,
              max_width=width - 2 * _MARGIN)  # fmt: skip
    if table.subtitle:
        draw_text(draw, (_MARGIN, _MARGIN + _TITLE + 8 + _SUBTITLE * 0.8), table.subtitle, _SUBTITLE,
                  theme.text_muted, max_width=width - 2 * _MARGIN)  # fmt: skip
    right_edge = _MARGIN + sum(widths)
    draw.rectangle((_MARGIN, top, right_edge, top + _ROW - 1), fill=theme.panel)
    lines: list[tuple[int | None, list[Cell]]] = [(None, [Cell(column.heading, "strong") for column in table.columns])]
    lines += list(enumerate(shown))
    for line_index, (row_index, cells) in enumerate(lines):
        y = top + line_index * _ROW
        total = row_index in table.total_rows
        if row_index is not None and line_index % 2 == 0:
            draw.rectangle((_MARGIN, y, right_edge, y + _ROW - 1), fill=theme.frame)
        if total:
            draw.line((_MARGIN, y, right_edge, y), fill=theme.text_muted, width=2)
        x: float = _MARGIN
        for column, cell, column_width in zip(table.columns, cells, widths, strict=True):
            inner = column_width - 2 * _PAD
            anchor = {"left": x + _PAD, "right": x + column_width - _PAD, "centre": x + column_width / 2}[column.align]
            draw_text(draw, (anchor, y + _ROW * 0.68), cell.text, _SIZE, _colour(theme, cell.tone),
                      bold=row_index is None or total, align=column.align, max_width=inner)  # fmt: skip
            x += column_width
    y = top + _ROW * len(lines) + 10
    for text in footer:
        draw_text(draw, (_MARGIN, y + 17), text, 16, theme.text_muted, max_width=width - 2 * _MARGIN)
        y += 24
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()
