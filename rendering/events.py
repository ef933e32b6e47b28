"""Pictures of club events: a bracket (:class:`BracketPicture` → PNG), a pure function of plain data (no club or
Discord types; the club builds the picture, :mod:`club.events.pictures`). Standings and league tables are
:class:`~rendering.records.RecordTable` pictures.

A bracket is drawn section by section (winners' bracket, losers' bracket, consolation, grand final), each section a
row of columns (its rounds) left to right. A column of *k* matches spreads them evenly over the section's height, so
a knock-out's halving rounds fall into the familiar tree; a line joins each match to the one its winner goes to.
A decided match shows its winner in bold with the score and the loser muted; an undecided one only the names
known so far ("?" for a place not yet decided) — no spoilers. Names use the boards' font fallback
(:mod:`rendering.text`).
"""

from __future__ import annotations

import io
from dataclasses import asdict, dataclass
from typing import Any

from PIL import Image, ImageDraw

from .text import draw_text, layout_text
from .themes import Theme, theme_from_name

MAX_SIDE = 4096
"""The longest side of a bracket picture in pixels: a larger bracket is drawn smaller (down to half size)."""
LARGE = 2_000_000
"""Pictures of more pixels than this are reduced to a 64-colour palette before they are written (as quick to encode
as the full colours at zlib's fastest level, and a third of the bytes)."""


@dataclass(frozen=True, slots=True)
class _Size:
    """The picture's measures at one scale (1.0 = the full size)."""

    box_w: int
    box_h: int
    gap_x: int
    gap_y: int
    margin: int
    title: int
    section_title: int
    name: int
    small: int
    key: int

    @classmethod
    def at(cls, scale: float) -> _Size:
        """The measures at ``scale``."""
        full = (210, 52, 34, 12, 24, 26, 19, 15, 12, 10)
        return cls(*(max(1, round(v * scale)) for v in full))


@dataclass(frozen=True, slots=True)
class Box:
    """One match: ``key`` (``W2-1``), the two names (``top``/``bottom``; "?" not known yet, "bye" nobody),
    ``winner`` 0 (top) or 1 (bottom) once decided (None: undecided or both out), ``score`` ("5–3", "forfeit", "bye",
    "both out", or "" undecided) and ``feeds``: the key of the match its winner plays next in the same section."""

    key: str
    top: str
    bottom: str
    winner: int | None = None
    score: str = ""
    feeds: str = ""


@dataclass(frozen=True, slots=True)
class Column:
    """One round of a section: its title and its matches, top to bottom."""

    title: str
    boxes: tuple[Box, ...]


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a bracket (winners', losers', consolation, grand final): title and rounds left to right."""

    title: str
    columns: tuple[Column, ...]


@dataclass(frozen=True, slots=True)
class BracketPicture:
    """What to draw: a ``title``, a ``subtitle`` and the ``sections`` top to bottom."""

    title: str
    subtitle: str
    sections: tuple[Section, ...]

    def to_json(self) -> dict[str, Any]:
        """The picture as plain JSON data (for sample files)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BracketPicture:
        """The picture from :meth:`to_json`'s data."""
        return cls(
            data["title"],
            data["subtitle"],
            tuple(
                Section(
                    s["title"], tuple(Column(c["title"], tuple(Box(**b) for b in c["boxes"])) for c in s["columns"])
                )
                for s in data["sections"]
            ),
        )


def _section_height(section: Section, m: _Size) -> int:
    most = max((len(c.boxes) for c in section.columns), default=0)
    return most * (m.box_h + m.gap_y) + m.section_title + 26


def _extent(picture: BracketPicture, m: _Size) -> tuple[int, int, int]:
    """``(width, height, top of the first section)`` of ``picture`` at the measures ``m``."""
    columns = max((len(s.columns) for s in picture.sections), default=1)
    width = max(480, 2 * m.margin + columns * m.box_w + (columns - 1) * m.gap_x,
                int(layout_text(picture.title, m.title, True).width) + 2 * m.margin)  # fmt: skip
    top = m.margin + m.title + (26 if picture.subtitle else 0) + 12
    return width, top + sum(_section_height(s, m) for s in picture.sections) + m.margin, top


def render_bracket(picture: BracketPicture, *, theme: Theme | str | None = None) -> bytes:
    """PNG bytes of ``picture`` in ``theme`` (a :class:`~rendering.themes.Theme` or its name; default the
    colour-blind-safe one). Raises :class:`~rendering.themes.UnknownThemeError` for an unknown theme name."""
    theme = theme if isinstance(theme, Theme) else theme_from_name(theme)
    scale = 1.0
    m = _Size.at(scale)
    width, height, top = _extent(picture, m)
    while max(width, height) > MAX_SIDE and scale > 0.5:  # the titles' fixed room: a second step may be needed
        scale = max(0.5, scale * MAX_SIDE / max(width, height) - 0.005)
        m = _Size.at(scale)
        width, height, top = _extent(picture, m)
    image = Image.new("RGB", (width, height), theme.background)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (m.margin, m.margin + m.title * 0.8), picture.title, m.title, theme.text, bold=True,
              max_width=width - 2 * m.margin)  # fmt: skip
    if picture.subtitle:
        draw_text(draw, (m.margin, m.margin + m.title + 22), picture.subtitle, 16, theme.text_muted,
                  max_width=width - 2 * m.margin)  # fmt: skip
    y = top
    for section in picture.sections:
        _draw_section(draw, theme, section, m.margin, y, m)
        y += _section_height(section, m)
    if width * height > LARGE:  # a big bracket: 64 colours are plenty for flat boxes and text, and 3× smaller
        image = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def _draw_section(draw: ImageDraw.ImageDraw, theme: Theme, section: Section, x0: int, y0: int, m: _Size) -> None:
    draw_text(draw, (x0, y0 + m.section_title * 0.85), section.title, m.section_title, theme.accent, bold=True)
    body = y0 + m.section_title + 14
    span = max((len(c.boxes) for c in section.columns), default=0) * (m.box_h + m.gap_y)
    where: dict[str, tuple[int, int]] = {}
    for index, column in enumerate(section.columns):
        x = x0 + index * (m.box_w + m.gap_x)
        draw_text(draw, (x + 4, body + m.small * 0.9), column.title, m.small, theme.text_muted, max_width=m.box_w)
        slot = span / max(1, len(column.boxes))
        for i, box in enumerate(column.boxes):
            where[box.key] = (x, int(body + 10 + i * slot + (slot - m.box_h) / 2))
    for column in section.columns:  # the lines first, under the boxes
        for box in column.boxes:
            if box.feeds in where and box.key in where:
                (x, y), (tx, ty) = where[box.key], where[box.feeds]
                mid = x + m.box_w + m.gap_x // 2
                start, end = (x + m.box_w, y + m.box_h // 2), (tx, ty + m.box_h // 2)
                draw.line((start, (mid, start[1]), (mid, end[1]), end), fill=theme.frame_edge, width=2)
    for column in section.columns:
        for box in column.boxes:
            _draw_box(draw, theme, box, *where[box.key], m)


def _draw_box(draw: ImageDraw.ImageDraw, theme: Theme, box: Box, x: int, y: int, m: _Size) -> None:
    draw.rounded_rectangle((x, y, x + m.box_w, y + m.box_h), radius=6, fill=theme.panel, outline=theme.frame_edge)
    draw.line((x + 6, y + m.box_h // 2, x + m.box_w - 6, y + m.box_h // 2), fill=theme.frame, width=1)
    score_room = round(m.box_w * 0.3) if box.score else 0
    for side, name in enumerate((box.top, box.bottom)):
        baseline = y + (m.box_h // 2) * side + m.box_h * 0.36
        won = box.winner == side
        lost = box.winner is not None and not won
        colour = theme.text_muted if lost or name in ("?", "bye") else theme.text
        draw_text(draw, (x + 10, baseline), name, m.name, colour, bold=won, max_width=m.box_w - 20 - score_room)
    if box.score:
        draw_text(draw, (x + m.box_w - 8, y + m.box_h * 0.62), box.score, m.small, theme.accent, align="right",
                  max_width=score_room)  # fmt: skip
    if (
        m.key >= 8
    ):  # a large bracket drawn small leaves the keys out: unreadable at that size, and a quarter of the text
        draw_text(draw, (x + m.box_w - 8, y + m.small), box.key, m.key, theme.text_muted, align="right")
