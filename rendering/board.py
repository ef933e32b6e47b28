"""The board picture: :func:`render_board` turns a :class:`~rendering.view.BoardView` into PNG bytes.

A pure function of its inputs (python-chess's ``chess.svg.board`` is the model): the same view, theme, width and home
side give the same bytes. The static board (frame, felt, points, point numbers, trays) is drawn once per
(theme, width, home side) with anti-aliasing and cached; each render copies it and pastes pre-drawn checkers, dice
and cube, then draws the last-play arrows and the text.

The last play (ghosts, arrows, hit markers) is drawn by :mod:`rendering.arrows`, split out of this module.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from .arrows import _draw_last_play, arrow_obstacles, last_play_routes, offered_cube_box
from .layout import STACK, BoardLayout, Home, board_layout
from .sprites import (
    checker_sprite,
    cube_label,
    cube_sprite,
    die_sprite,
    mix,
    paste,
)
from .text import draw_text, has_emoji, layout_text
from .themes import BLACK, WHITE, Theme, snap, theme_from_name
from .view import OPPONENT, VIEWER, BoardView, other
from .words import (
    _colours,
    _draw_panel,
    _draw_texts,
    _panel_rows,
)

_STATIC_SUPERSAMPLE = 3
DEFAULT_WIDTH = 900
COMPRESS_LEVEL = 2
"""zlib's effort for the PNG deflate. On the 256-colour board pictures (``python -m bench.render``, 900 px) level 2
takes 2.5 ms of CPU for a median 57 KB (largest 62 KB), level 6 5.4 ms for 46 KB, level 9 28 ms for 44 KB: the
size stays well under 100 KB at less than half the cost of the default."""

__all__ = [
    "BLACK",
    "DEFAULT_WIDTH",
    "WHITE",
    "arrow_obstacles",
    "encode_png",
    "map_big_blocks",
    "last_play_routes",
    "offered_cube_box",
    "render_board",
    "render_image",
    "static_board",
    "warm_up",
]


def _theme(theme: Theme | str | None) -> Theme:
    return theme if isinstance(theme, Theme) else theme_from_name(theme)


# -- the static board ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=16)
def static_board(theme: Theme, layout: BoardLayout) -> Image.Image:
    """The parts of the picture that never change for (``theme``, ``layout``): background, name strips, frame, felt,
    points, point numbers (the viewer's, RULES G1 numbering) and empty trays. Cached; callers must copy it."""
    ss = _STATIC_SUPERSAMPLE if layout.width <= 1200 else 2  # keep the one-off drawing small for wide pictures
    w, h = layout.width, layout.base_height
    big = Image.new("RGB", (w * ss, h * ss), theme.background)
    d = ImageDraw.Draw(big)

    def box(x0, y0, x1, y1):
        return (round(x0 * ss), round(y0 * ss), round(x1 * ss) - 1, round(y1 * ss) - 1)

    m = layout.margin
    s = layout.scale
    for top, bottom in (layout.top_strip, layout.bottom_strip):
        d.rounded_rectangle(box(m, top, w - m, bottom), radius=round(10 * s * ss), fill=theme.panel)
    d.rounded_rectangle(
        box(m, layout.board_top, w - m, layout.board_bottom),
        radius=round(10 * s * ss),
        fill=theme.frame,
        outline=theme.frame_edge,
        width=max(ss, round(2 * s * ss)),
    )
    edge = max(ss, round(1.5 * s * ss))
    for first, last in ((0, 5), (7, 12)):
        x0 = layout.column_span(first)[0] if layout.home == Home.RIGHT else layout.column_span(last)[0]
        x1 = layout.column_span(last)[1] if layout.home == Home.RIGHT else layout.column_span(first)[1]
        d.rectangle(
            box(x0, layout.inner_top, x1, layout.inner_bottom), fill=theme.felt, outline=theme.frame_edge, width=edge
        )
    # the points: triangles from the frame toward the centre line, alternating colours; p and 25 - p differ
    reach = layout.checker * 4.7
    inset = layout.point_width * 0.04
    for point in range(1, 25):
        x0, x1 = layout.column_span(layout.point_column(point))
        colour = theme.point_colours[point % 2 == 0]
        if point >= 13:
            base, tip = layout.inner_top + 1, layout.inner_top + reach
        else:
            base, tip = layout.inner_bottom - 1, layout.inner_bottom - reach
        d.polygon(
            [((x0 + inset) * ss, base * ss), ((x1 - inset) * ss, base * ss), ((x0 + x1) / 2 * ss, tip * ss)],
            fill=colour,
        )
    # the trays for borne-off checkers (opponent's at the top, viewer's at the bottom)
    tx0, tx1 = layout.tray_column
    half = layout.pad + 5 * layout.checker
    for y0, y1 in ((layout.inner_top, layout.inner_top + half), (layout.inner_bottom - half, layout.inner_bottom)):
        d.rectangle(box(tx0, y0, tx1, y1), fill=theme.tray, outline=theme.frame_edge, width=edge)
    image = big.resize((w, h), Image.Resampling.LANCZOS)

    # point numbers on the frame, from the viewer's side
    draw = ImageDraw.Draw(image)
    size = layout.text(16)
    band = layout.inner_top - layout.board_top
    for point in range(1, 25):
        x = layout.column_centre(layout.point_column(point))
        top = layout.board_top if point >= 13 else layout.inner_bottom  # the frame band above / below the points
        y = top + band / 2 + size * 0.36
        draw_text(draw, (x, y), str(point), size, theme.point_number, bold=True, align="centre")
    return image


# -- pieces ---------------------------------------------------------------------------------------------------------
def _label(draw: ImageDraw.ImageDraw, centre, count: int, colour, size: int) -> None:
    draw_text(draw, (centre[0], centre[1] + size * 0.36), str(count), size, colour, bold=True, align="centre")


def _draw_checkers(image: Image.Image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    position = view.position
    label_size = max(layout.text(0), round(layout.checker * 0.48))
    for side, counts in ((VIEWER, position.player), (OPPONENT, position.opponent)):
        colours = _colours(theme, view, side)
        sprite = checker_sprite(colours.fill, colours.rim, layout.checker)
        for point in range(1, 26):  # the side's own points, 25 = bar
            count = counts[point - 1]
            for slot in range(min(count, STACK)):
                paste(image, sprite, layout.checker_centre(side, point, slot))
            if count > STACK:
                _label(draw, layout.checker_centre(side, point, STACK - 1), count, colours.text, label_size)
        _draw_tray(draw, theme, layout, view, side)


def _draw_tray(draw, theme: Theme, layout: BoardLayout, view: BoardView, side: str) -> None:
    off = view.position.off_player if side == VIEWER else view.position.off_opponent
    colours = _colours(theme, view, side)
    x0, x1 = layout.tray_column
    inset = max(3, round(layout.pad * 1.6))
    thick = max(2, layout.slab_height - max(1, round(layout.slab_height * 0.18)))
    for slot in range(off):
        _, y = layout.tray_slot(side, slot)
        draw.rounded_rectangle(
            (x0 + inset, round(y - thick / 2), x1 - inset - 1, round(y + thick / 2) - 1),
            radius=max(1, round(thick / 3)),
            fill=colours.fill,
            outline=colours.rim,
            width=1,
        )
    if off:
        size = layout.text(17)
        cx = (x0 + x1) / 2
        gap_edge = layout.mid_y + (layout.gap / 4 if side == VIEWER else -layout.gap / 4)
        draw_text(draw, (cx, gap_edge + size * 0.36), str(off), size, theme.point_number, bold=True, align="centre")


OFFER_WORDS = {"double": "double", "beaver": "beaver", "raccoon": "raccoon"}
"""The word under an offered cube (RULES D1, D3): what is offered, above "offered"."""


def _column_words(layout: BoardLayout, size: int, *choices: tuple[str, ...]) -> tuple[str, ...]:
    """The first of ``choices`` whose every word fits the cube column at ``size``."""
    room = layout.cube_column[1] - layout.cube_column[0] - 4
    for words in choices:
        if all(layout_text(word, size).width <= room for word in words):
            return words
    return choices[-1]


def _draw_cube(image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    """The cube in its column: centred or at its owner's edge; none while an offer is pending (the one cube is then
    the offered one, :func:`_draw_action`)."""
    if view.crawford or not view.show_cube:  # RULES M3: no cube in the Crawford game; C5: a chouette's in the panel
        x = (layout.cube_column[0] + layout.cube_column[1]) / 2
        size = layout.text(12)
        if view.crawford:
            words = _column_words(layout, size, ("Crawford", "game", "no cube"), ("no", "cube"))
        else:
            words = _column_words(layout, size, ("cubes", "in the", "panel"), ("see", "panel"))
        for i, word in enumerate(words):
            y = layout.mid_y + (i - (len(words) - 1) / 2) * size * 1.3 + size * 0.36
            draw_text(draw, (x, y), word, size, theme.point_number, align="centre")
        return
    if view.offered_cube is not None:
        return
    label = cube_label(view.cube_value, view.cube_owner is None and view.cube_factor == 1)
    centre = layout.cube_centre(view.cube_owner)
    paste(image, cube_sprite(theme, layout.cube_size, label), centre)
    if view.cube_factor > 1:  # RULES D6: the add-one factor (000 §20b) beside the power-of-two cube
        size = layout.text(13)
        below = -1 if view.cube_owner == VIEWER else 1  # towards the board's middle
        y = centre[1] + below * (layout.cube_size / 2 + size * 0.9) + size * 0.36
        draw_text(draw, (centre[0], y), f"×{view.cube_factor}", size, theme.point_number, bold=True, align="centre")


def _draw_action(image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    """Dice, the offered cube (one cube, at its offered value, marked as offered or as a beaver / raccoon) or a
    resignation flag in the throwing area of the side concerned."""
    side = view.shown_dice_side
    if side is not None and view.dice is not None:
        colours = _colours(theme, view, side)
        for die, centre in zip(view.dice, layout.dice_centres(side), strict=True):
            paste(image, die_sprite(colours.fill, colours.rim, colours.text, layout.die_size, die), centre)
    on_roll = view.on_roll
    if not on_roll:
        return
    offerer = other(on_roll)
    box = offered_cube_box(layout, view)
    if box is not None:
        x, y = layout.action_centre(on_roll)
        edge = max(2, round(3 * layout.scale))
        half = layout.cube_size / 2 + edge + 1
        draw.rounded_rectangle(
            (round(x - half), round(y - half), round(x + half), round(y + half)),
            radius=round(layout.cube_size * 0.2),
            outline=theme.accent,
            width=edge,
        )
        paste(image, cube_sprite(theme, layout.cube_size, str(view.offered_cube)), (x, y))
        size = layout.text(14)
        first = y + layout.cube_size / 2 + size * 1.25
        word = OFFER_WORDS.get(view.offer, "double")
        draw_text(draw, (x, first), word, size, theme.accent, bold=True, align="centre")
        draw_text(draw, (x, first + size * 1.2), "offered", size, theme.point_number, align="centre")
    x, y = layout.action_centre(offerer)
    if view.resignation:
        word = ("", "resigns a single game", "resigns a gammon", "resigns a backgammon")[view.resignation]
        size = layout.text(15)
        if side == offerer and view.dice is not None:
            y += layout.die_size  # resigned after rolling: the flag goes under his dice, not over them
        line = layout_text(word, size, True)
        pad = size * 0.5
        flag_w = size * 1.2
        total = flag_w + pad + line.width
        left = min(max(x - total / 2, layout.margin + pad), layout.width - layout.margin - pad - total)
        draw.rounded_rectangle(
            (round(left - pad), round(y - size), round(left + total + pad), round(y + size)),
            radius=round(size * 0.4),
            fill=WHITE,
            outline=BLACK,
            width=max(1, round(layout.scale * 2)),
        )
        pole = left + size * 0.2
        draw.line((pole, y - size * 0.7, pole, y + size * 0.7), fill=BLACK, width=max(1, round(2 * layout.scale)))
        draw.polygon([(pole, y - size * 0.7), (pole + size, y - size * 0.45), (pole, y - size * 0.2)], fill=BLACK)
        draw_text(draw, (left + flag_w + pad, y + size * 0.36), word, size, BLACK, bold=True)


# -- the whole picture ------------------------------------------------------------------------------------------------
def render_image(
    view: BoardView, theme: Theme | str | None = None, *, width: int = DEFAULT_WIDTH, home: str = "right"
) -> Image.Image:
    """The board picture of ``view`` as a Pillow RGB image ``width`` pixels wide (see :func:`render_board`)."""
    theme = _theme(theme)
    layout = board_layout(width, home)
    static = static_board(theme, layout)
    rows = _panel_rows(view)
    if rows:
        image = Image.new("RGB", (layout.width, layout.height(rows)), theme.background)
        image.paste(static, (0, 0))
    else:
        image = static.copy()
    draw = ImageDraw.Draw(image)
    _draw_cube(image, draw, theme, layout, view)
    _draw_checkers(image, draw, theme, layout, view)
    _draw_last_play(image, draw, theme, layout, view)
    _draw_action(image, draw, theme, layout, view)
    _draw_texts(image, draw, theme, layout, view)
    _draw_panel(image, draw, theme, layout, view)
    return image


def _theme_colours(theme: Theme) -> list[tuple[int, int, int]]:
    """Every colour a theme names (and the checkers' inner-ring blends), each once, in a fixed order."""
    found: list[tuple[int, int, int]] = []

    def add(value) -> None:
        if isinstance(value, tuple) and len(value) == 3 and all(isinstance(c, int) for c in value):
            if value not in found:
                found.append(value)
        elif isinstance(value, tuple):
            for item in value:
                add(item)
        elif hasattr(value, "__slots__"):
            for name in value.__slots__:
                add(getattr(value, name))

    add(theme)
    for colours in theme.checkers:
        add(snap(mix(colours.fill, colours.rim, 0.35)))
        for ground in (theme.felt, *theme.point_colours, theme.frame):  # see-through ghosts of the last play
            add(snap(mix(ground, colours.fill, theme.ghost_alpha / 255)))
    add(WHITE)
    add(BLACK)
    return found


def _sample_view() -> BoardView:
    """A busy view that uses every sprite and text colour, to choose the palette from."""
    from backgammon.moves import Move
    from backgammon.position import Position

    position = Position.from_points({1: 2, 6: 4, 8: 3, 13: 4, 19: -2, 12: -5, 17: -3, 20: -1, 24: -1}, bar=(1, 1))
    return BoardView(
        position,
        viewer_name="Sample Ωж東",
        opponent_name="Sample Ωж東",
        on_roll=VIEWER,
        awaiting="to play 6-5",
        cube_value=2,
        cube_owner=OPPONENT,
        dice=(6, 5),
        match_length=7,
        score=(3, 4),
        last_play=(Move(13, 7, 6, True), Move(7, 5, 2, False), Move(24, 20, 4, False)),
        last_mover=OPPONENT,
        last_dice=(6, 2),
        match_id="cAgAAAAAAAAA",
    )


@lru_cache(maxsize=16)
def _palette(theme: Theme, layout: BoardLayout) -> Image.Image:
    """A 256-colour palette for (``theme``, ``layout``): the theme's exact colours first, then the anti-aliasing
    blends of two sample pictures (median cut). Cached, so each render only maps its pixels (fast).

    Pillow maps a pixel to the palette colour nearest to the pixel with its two low bits cleared; theme colours are
    multiples of 4 (see :mod:`rendering.themes`), so each maps exactly to itself and flat areas stay exact in the PNG.
    """
    exact = _theme_colours(theme)
    sample = _sample_view()
    first = render_image(sample, theme, width=layout.width, home=layout.home)
    swapped = replace(sample, viewer_colour=1, last_mover=VIEWER, on_roll=OPPONENT, position=sample.position.swap())
    second = render_image(swapped, theme, width=layout.width, home=layout.home)
    both = Image.new("RGB", (first.width, first.height + second.height))
    both.paste(first, (0, 0))
    both.paste(second, (0, first.height))
    # one pixel per distinct colour, so rare anti-aliasing blends count as much as large flat areas
    distinct = [colour for _, colour in sorted(both.getcolors(1 << 24) or [])]
    swatch = Image.new("RGB", (len(distinct), 1))
    swatch.putdata(distinct)  # type: ignore[arg-type]  # RGB triples; the stub types getcolors' union loosely
    quantized = swatch.quantize(colors=256 - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    flat = quantized.getpalette() or []
    colours = list(exact)
    for i in range(0, len(flat) - 2, 3):
        colour = (flat[i], flat[i + 1], flat[i + 2])
        if colour not in colours and len(colours) < 256:
            colours.append(colour)
    image = Image.new("P", (1, 1))
    image.putpalette([c for colour in colours for c in colour])
    return image


BIG_BLOCK = 1 << 20
"""Bytes from which an allocation gets pages of its own from the system (glibc's ``M_MMAP_THRESHOLD``)."""


def map_big_blocks() -> None:
    """From now on in this process, allocations of :data:`BIG_BLOCK` bytes or more — Pillow's image buffers — are
    mapped on their own and given back to the system when freed. glibc otherwise raises that threshold to the
    largest block freed so far (the static board is drawn 3× over, 27 MB), after which every picture's buffers come
    from a heap that never shrinks: a process that drew the board and 50 pictures held 49 MB instead of 37 MB.
    Nothing happens where the C library is not glibc. Called at the start of a picture worker process."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(-3, BIG_BLOCK)  # -3: M_MMAP_THRESHOLD


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of ``image``; with ``palette`` (a "P" image) mapped to it first without dithering — about a third
    of the size of an RGB PNG at a tenth of the cost of choosing a palette per image."""
    buffer = io.BytesIO()
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    image.save(buffer, format="PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()


def warm_up(theme: Theme | str | None = None, *, width: int = DEFAULT_WIDTH, home: str = "right") -> None:
    """Build the cached static board, sprites and palette for (``theme``, ``width``, ``home``) now — about a
    quarter of a second once — so that the first real render is as fast as the rest. Optional."""
    theme = _theme(theme)
    _palette(theme, board_layout(width, home))


def render_board(
    view: BoardView,
    theme: Theme | str | None = None,
    *,
    width: int = DEFAULT_WIDTH,
    home: str = "right",
    palette: bool = True,
) -> bytes:
    """PNG bytes of the board picture for ``view``.

    ``theme``: a :class:`~rendering.themes.Theme` or its name (``None`` = the colour-blind-safe default); ``width``
    in pixels (390–2000, default 900; the height follows, about 0.94 × width plus any chouette panel); ``home``:
    ``"right"`` or ``"left"``, the side of the viewer's home board. Raises
    :class:`~rendering.themes.UnknownThemeError` or :class:`~rendering.layout.LayoutError` for bad arguments.
    """
    theme = _theme(theme)
    image = render_image(view, theme, width=width, home=home)
    texts: tuple[str, ...] = (view.viewer_name, view.opponent_name, view.awaiting)
    if view.chouette is not None:
        texts += tuple(member.name for member in view.chouette.members) + (view.chouette.box,)
    if palette and any(has_emoji(text) for text in texts):
        # colour emoji keep their colours: a palette of this picture's own colours (octree, ~70 ms at 900 px)
        buffer = io.BytesIO()
        image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            buffer, format="PNG", compress_level=COMPRESS_LEVEL
        )
        return buffer.getvalue()
    return encode_png(image, _palette(theme, board_layout(width, home)) if palette else None)
