"""Where everything goes: pixel geometry of the board picture for a given width, shared by renderer and tests.

The picture, top to bottom: a header (whose turn and what is awaited; match length and Crawford state), the
opponent's strip (colour, name, score, pip count), the board, the viewer's strip, a caption (the last play in
notation) and the gnubg IDs, then the optional chouette panel.

The board, left to right with ``home="right"``: a wide frame holding the cube, the left half (the viewer's points
12–7 at the bottom, 13–18 at the top), the bar, the right half (the viewer's home board 6–1 at the bottom, 19–24 at
the top), a divider and the borne-off trays (the opponent's at the top, the viewer's at the bottom). ``home="left"``
mirrors the board left to right (not the text). Point numbers are the viewer's, printed on the frame.

Every coordinate is in pixels of the final image, ``(x, y)`` with ``y`` growing downwards; checker "slots" count
from the edge of the board (slot 0 = the checker against the frame) for points, and from the centre line outward
for the bar.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from .view import OPPONENT, VIEWER

STACK = 5  # checkers drawn on a point (and on the bar) before a count is printed on the outermost one
MIN_WIDTH = 390  # a phone's width in CSS pixels: the picture is then shown one to one
MAX_WIDTH = 2000
MIN_TEXT_PX = 12
"""The smallest font size (em, pixels) on a board at any width: cap height 8.7 px, x-height 6.6 px in DejaVu Sans,
readable at 390 px (a phone) where the sizes scaled from 900 px would fall to 5–8 px."""


class Home(StrEnum):
    """The side of the picture the viewer's home board is drawn on (the console's and the bot's ``home``)."""

    RIGHT = "right"
    LEFT = "left"


class LayoutError(ValueError):
    """Impossible layout arguments (a width outside 390–2000 px, a home side other than "left"/"right")."""


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Pixel geometry for a picture ``width`` pixels wide with the viewer's home board on ``home`` ("right"/"left").

    Build with :func:`board_layout` (cached). All lengths are in pixels; ``checker`` is the checker diameter.
    """

    width: int
    home: Home
    scale: float
    margin: int
    header_top: int
    header_height: int
    top_strip: tuple[int, int]  # y range of the opponent's strip
    board_top: int
    inner_top: int
    inner_bottom: int
    board_bottom: int
    bottom_strip: tuple[int, int]  # y range of the viewer's strip
    caption_baseline: int
    ids_baseline: int
    panel_top: int  # where a chouette panel starts
    base_height: int  # the picture's height without a chouette panel
    play_left: float  # x where the 13 columns (12 points + bar) start, before mirroring
    point_width: float
    checker: int
    pad: int
    gap: int  # height of the band between the two rows of points
    cube_column: tuple[int, int]  # x range of the frame that holds the cube (after mirroring)
    tray_column: tuple[int, int]  # x range of the borne-off trays (after mirroring)
    slab_height: float
    cube_size: int
    die_size: int

    def text(self, base: float) -> int:
        """The font size (pixels) of a text that is ``base`` pixels at 900 px wide: scaled with the picture but never
        below :data:`MIN_TEXT_PX`."""
        return max(MIN_TEXT_PX, round(base * self.scale))

    # -- x positions --------------------------------------------------------------------------------------------
    def _mx(self, x: float) -> float:
        return self.width - x if self.home == Home.LEFT else x

    def column_centre(self, column: int) -> float:
        """Centre x of column 0–12 (0–5 left half, 6 the bar, 7–12 right half, before mirroring), mirrored as set."""
        return self._mx(self.play_left + (column + 0.5) * self.point_width)

    def column_span(self, column: int) -> tuple[int, int]:
        """Left and right x (inclusive-exclusive) of a column, after mirroring."""
        a = self._mx(self.play_left + column * self.point_width)
        b = self._mx(self.play_left + (column + 1) * self.point_width)
        return round(min(a, b)), round(max(a, b))

    @staticmethod
    def point_column(point: int) -> int:
        """Column of the viewer's point 1–24: 1–6 right half bottom, 7–12 left bottom, 13–18 left top, 19–24 right."""
        if not 1 <= point <= 24:
            raise LayoutError(f"point {point} is not 1–24")
        if point <= 6:
            return 13 - point
        if point <= 12:
            return 12 - point
        if point <= 18:
            return point - 13
        return point - 12

    @property
    def bar_x(self) -> float:
        """Centre x of the bar."""
        return self.column_centre(6)

    @property
    def mid_y(self) -> float:
        """The board's horizontal centre line."""
        return (self.inner_top + self.inner_bottom) / 2

    # -- checkers -----------------------------------------------------------------------------------------------
    def point_slot(self, point: int, slot: int) -> tuple[float, float]:
        """Centre of the ``slot``-th checker (0 = at the frame) on the viewer's ``point`` 1–24."""
        x = self.column_centre(self.point_column(point))
        step = self.checker
        if point >= 13:
            y = self.inner_top + self.pad + step / 2 + slot * step
        else:
            y = self.inner_bottom - self.pad - step / 2 - slot * step
        return x, y

    def bar_slot(self, side: str, slot: int) -> tuple[float, float]:
        """Centre of the ``slot``-th checker of ``side`` on the bar (0 = nearest the centre line): the viewer's
        below the centre line, the opponent's above."""
        offset = self.gap / 2 + self.checker / 2 + slot * self.checker
        return self.bar_x, self.mid_y + offset if side == VIEWER else self.mid_y - offset

    def tray_slot(self, side: str, slot: int) -> tuple[float, float]:
        """Centre of the ``slot``-th borne-off checker (0–14, 0 = at the frame) in ``side``'s tray: the viewer's
        tray at the bottom, the opponent's at the top."""
        x = (self.tray_column[0] + self.tray_column[1]) / 2
        if side == VIEWER:
            return x, self.inner_bottom - self.pad - (slot + 0.5) * self.slab_height
        return x, self.inner_top + self.pad + (slot + 0.5) * self.slab_height

    def checker_centre(self, side: str, point: int, slot: int = 0) -> tuple[float, float]:
        """Centre of a checker of ``side`` ("viewer"/"opponent") on ``point`` counted **from that side's own home**
        (1–24; 25 = its bar; 0 = borne off, in its tray) at ``slot`` (see :meth:`point_slot`, :meth:`bar_slot`,
        :meth:`tray_slot`). Raises :class:`LayoutError` for a point outside 0–25."""
        if point == 25:
            return self.bar_slot(side, slot)
        if point == 0:
            return self.tray_slot(side, slot)
        if not 1 <= point <= 24:
            raise LayoutError(f"point {point} is not 0–25 (0 = off, 25 = bar)")
        return self.point_slot(point if side == VIEWER else 25 - point, slot)

    # -- cube and dice ------------------------------------------------------------------------------------------
    def cube_centre(self, owner: str | None) -> tuple[float, float]:
        """Centre of the cube: mid-height when centred, at the owner's edge ("viewer" bottom, "opponent" top)."""
        x = (self.cube_column[0] + self.cube_column[1]) / 2
        if owner is None:
            return x, self.mid_y
        inset = self.pad + self.cube_size / 2 + self.checker * 0.15
        return x, self.inner_bottom - inset if owner == VIEWER else self.inner_top + inset

    def action_centre(self, side: str) -> tuple[float, float]:
        """Centre of the area where ``side`` throws dice: the half right of the bar for the viewer, left for the
        opponent (each player's right-hand side), on the centre line. Not mirrored by ``home``."""
        left = self.play_left + (7 if side == VIEWER else 0) * self.point_width
        return left + 3 * self.point_width, self.mid_y

    def dice_centres(self, side: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """Centres of the two dice ``side`` rolled (see :meth:`action_centre`)."""
        x, y = self.action_centre(side)
        half = self.die_size * 0.7
        return (x - half, y), (x + half, y)

    def height(self, panel_rows: int = 0) -> int:
        """The picture's height with a chouette panel of ``panel_rows`` member rows (0 = no panel)."""
        if panel_rows <= 0:
            return self.base_height
        return self.base_height + self.panel_height(panel_rows)

    @property
    def panel_row(self) -> float:
        """Height of one row of members in a chouette panel."""
        return max(34 * self.scale, self.text(17) + 8)

    @property
    def panel_title(self) -> float:
        """Height of a chouette panel's title row."""
        return max(44 * self.scale, self.text(19) + 14)

    def panel_height(self, panel_rows: int) -> int:
        """Height of a chouette panel with ``panel_rows`` rows of members (plus its title row)."""
        return round(self.panel_title + self.panel_row * panel_rows + 10 * self.scale)


@lru_cache(maxsize=32)
def board_layout(width: int = 900, home: str = "right") -> BoardLayout:
    """The :class:`BoardLayout` for ``width`` pixels (390–2000; 390 is a phone shown one to one) and ``home`` side.
    Texts never go below :data:`MIN_TEXT_PX`: at small widths the bands that hold them grow.

    Raises :class:`LayoutError` for other values.
    """
    if not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise LayoutError(f"width {width!r} is out of range; use {MIN_WIDTH}–{MAX_WIDTH} pixels (900 is the default)")
    if home not in tuple(Home):
        raise LayoutError(f'home {home!r} must be "right" or "left" (the side of the viewer\'s home board)')
    s = width / 900

    def text(base: float) -> int:
        return max(MIN_TEXT_PX, round(base * s))

    margin = round(12 * s)
    header_height = max(round(44 * s), text(26) + 8)
    strip_height = max(round(48 * s), text(24) + 10)
    cube_width = max(round(70 * s), 40)
    divider = round(12 * s)
    tray_width = round(58 * s)
    right_frame = round(12 * s)
    band = max(round(26 * s), text(16) + 4)  # frame above and below the points, with the point numbers
    point_width = (width - 2 * margin - cube_width - divider - tray_width - right_frame) / 13
    checker = int(point_width * 0.92)
    pad = max(2, round(3 * s))
    gap = round(checker * 1.3)
    half = pad + 5 * checker

    header_top = margin
    top_strip = (header_top + header_height, header_top + header_height + strip_height)
    board_top = top_strip[1] + round(4 * s)
    inner_top = board_top + band
    inner_bottom = inner_top + 2 * half + gap
    board_bottom = inner_bottom + band
    bottom_strip = (board_bottom + round(4 * s), board_bottom + round(4 * s) + strip_height)
    caption_baseline = bottom_strip[1] + max(round(24 * s), text(18) + 4)
    ids_baseline = caption_baseline + max(round(22 * s), text(14) + 5)
    panel_top = ids_baseline + max(round(12 * s), 6)
    base_height = panel_top + margin - round(4 * s)

    play_left = margin + cube_width
    play_right = play_left + 13 * point_width
    cube_column = (margin, margin + cube_width)
    tray_column = (round(play_right + divider), round(play_right + divider + tray_width))
    if home == Home.LEFT:
        cube_column = (width - cube_column[1], width - cube_column[0])
        tray_column = (width - tray_column[1], width - tray_column[0])
    return BoardLayout(
        width=width,
        home=Home(home),
        scale=s,
        margin=margin,
        header_top=header_top,
        header_height=header_height,
        top_strip=top_strip,
        board_top=board_top,
        inner_top=inner_top,
        inner_bottom=inner_bottom,
        board_bottom=board_bottom,
        bottom_strip=bottom_strip,
        caption_baseline=caption_baseline,
        ids_baseline=ids_baseline,
        panel_top=panel_top,
        base_height=base_height,
        play_left=play_left,
        point_width=point_width,
        checker=checker,
        pad=pad,
        gap=gap,
        cube_column=cube_column,
        tray_column=tray_column,
        slab_height=(half - pad) / 15,
        cube_size=max(round(checker * 0.9), 28),
        die_size=max(round(checker * 0.82), 20),
    )


__all__ = ["MIN_TEXT_PX", "STACK", "BoardLayout", "LayoutError", "board_layout", "VIEWER", "OPPONENT"]
