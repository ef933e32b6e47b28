"""The board picture: :func:`render_board` turns a :class:`~rendering.view.BoardView` into PNG bytes.

A pure function of its inputs (python-chess's ``chess.svg.board`` is the model): the same view, theme, width and home
side give the same bytes. The static board (frame, felt, points, point numbers, trays) is drawn once per
(theme, width, home side) with anti-aliasing and cached; each render copies it and pastes pre-drawn checkers, dice
and cube, then draws the last-play arrows and the text.
"""

from __future__ import annotations

import io
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from backgammon.moves import dice_text

from .lastplay import last_play_paths
from .layout import STACK, BoardLayout, board_layout
from .sprites import (
    checker_sprite,
    cube_label,
    cube_sprite,
    die_sprite,
    ghost_sprite,
    mix,
    paste,
)
from .text import draw_text, layout_text
from .themes import Theme, snap, theme_from_name
from .view import OPPONENT, VIEWER, BoardView, ChouetteMember, other

_STATIC_SUPERSAMPLE = 3
WHITE = (252, 252, 252)
BLACK = (0, 0, 0)
DEFAULT_WIDTH = 900


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
        x0 = layout.column_span(first)[0] if layout.home == "right" else layout.column_span(last)[0]
        x1 = layout.column_span(last)[1] if layout.home == "right" else layout.column_span(first)[1]
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
    size = round(16 * s)
    band = layout.inner_top - layout.board_top
    for point in range(1, 25):
        x = layout.column_centre(layout.point_column(point))
        top = layout.board_top if point >= 13 else layout.inner_bottom  # the frame band above / below the points
        y = top + band / 2 + size * 0.36
        draw_text(draw, (x, y), str(point), size, theme.point_number, bold=True, align="centre")
    return image


# -- pieces ---------------------------------------------------------------------------------------------------------
def _colours(theme: Theme, view: BoardView, side: str):
    return theme.checkers[view.viewer_colour if side == VIEWER else view.opponent_colour]


def _label(draw: ImageDraw.ImageDraw, centre, count: int, colour, size: int) -> None:
    draw_text(draw, (centre[0], centre[1] + size * 0.36), str(count), size, colour, bold=True, align="centre")


def _draw_checkers(image: Image.Image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    position = view.position
    label_size = round(layout.checker * 0.48)
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
        size = round(17 * layout.scale)
        cx = (x0 + x1) / 2
        gap_edge = layout.mid_y + (layout.gap / 4 if side == VIEWER else -layout.gap / 4)
        draw_text(draw, (cx, gap_edge + size * 0.36), str(off), size, theme.point_number, bold=True, align="centre")


def _draw_cube(image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    if view.crawford or not view.show_cube:  # RULES M3: no cube in the Crawford game; C5: a chouette's in the panel
        x = (layout.cube_column[0] + layout.cube_column[1]) / 2
        size = round(12 * layout.scale)
        for i, word in enumerate(("Crawford", "game", "no cube") if view.crawford else ("cubes", "in the", "panel")):
            y = layout.mid_y + (i - 1) * size * 1.3 + size * 0.36
            draw_text(draw, (x, y), word, size, theme.point_number, align="centre")
        return
    label = cube_label(view.cube_value, view.cube_owner is None)
    paste(image, cube_sprite(theme, layout.cube_size, label), layout.cube_centre(view.cube_owner))


def _draw_action(image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    """Dice, an offered cube or a resignation flag in the throwing area of the side concerned."""
    side = view.shown_dice_side
    if side is not None and view.dice is not None:
        colours = _colours(theme, view, side)
        for die, centre in zip(view.dice, layout.dice_centres(side), strict=True):
            paste(image, die_sprite(colours.fill, colours.rim, colours.text, layout.die_size, die), centre)
    offerer = other(view.on_roll) if view.on_roll else None
    if offerer is None:
        return
    x, y = layout.action_centre(offerer)
    if view.offered_cube is not None:
        paste(image, cube_sprite(theme, layout.cube_size, str(view.offered_cube)), (x, y))
        size = round(14 * layout.scale)
        draw_text(
            draw,
            (x, y + layout.cube_size / 2 + size * 1.2),
            "doubles",
            size,
            theme.point_number,
            bold=True,
            align="centre",
        )
    if view.resignation:
        word = ("", "resigns a single game", "resigns a gammon", "resigns a backgammon")[view.resignation]
        size = round(15 * layout.scale)
        if side == offerer and view.dice is not None:
            y += layout.die_size  # resigned after rolling: the flag goes under his dice, not over them
        line = layout_text(word, size, True)
        pad = size * 0.5
        flag_w = size * 1.2
        total = flag_w + pad + line.width
        left = x - total / 2
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


def _shorten(a, b, by: float):
    """Point ``by`` pixels from ``b`` toward ``a`` (``b`` itself if the segment is shorter)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length <= by * 1.5:
        return b
    return b[0] - dx / length * by, b[1] - dy / length * by


def _arrow(draw, points, theme: Theme, width: float, head: float) -> None:
    """A polyline with an arrowhead at its last point: ``theme.arrow`` core on a ``theme.arrow_edge`` outline."""
    tip = points[-1]
    before = points[-2]
    dx, dy = tip[0] - before[0], tip[1] - before[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    ux, uy = dx / length, dy / length
    base = (tip[0] - ux * head, tip[1] - uy * head)
    line = [*points[:-1], base]
    wing = head * 0.6
    triangle = [tip, (base[0] - uy * wing, base[1] + ux * wing), (base[0] + uy * wing, base[1] - ux * wing)]
    edge = max(1, round(width * 0.35))
    draw.line(line, fill=theme.arrow_edge, width=round(width + 2 * edge), joint="curve")
    draw.polygon(triangle, fill=theme.arrow_edge, outline=theme.arrow_edge, width=edge * 2)
    draw.line(line, fill=theme.arrow, width=round(width), joint="curve")
    draw.polygon(triangle, fill=theme.arrow)


def _draw_last_play(image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    if not view.last_play or view.last_mover is None:
        return
    mover = view.last_mover
    colours = _colours(theme, view, mover)
    paths = last_play_paths(view.position, view.last_play, mover == VIEWER)
    ghost = ghost_sprite(colours.fill, colours.rim, layout.checker, theme.ghost_alpha)
    for path in paths:
        if path.ghost:
            paste(image, ghost, layout.checker_centre(mover, path.stops[0].point, path.stops[0].slot))
    r = layout.checker / 2
    for path in paths:
        centres = [layout.checker_centre(mover, stop.point, stop.slot) for stop in path.stops]
        start = _shorten(centres[1], centres[0], r * 0.25)
        end = _shorten(centres[-2], centres[-1], r * 0.35)
        _arrow(draw, [start, *centres[1:-1], end], theme, layout.checker * 0.12, layout.checker * 0.42)
    for path in paths:
        for stop in path.stops[1:]:
            if stop.hit:
                _hit_marker(draw, theme, layout, layout.checker_centre(mover, stop.point, stop.slot))


def _hit_marker(draw, theme: Theme, layout: BoardLayout, centre) -> None:
    """A vermillion badge with a white cross at the upper right of the checker that hit (RULES G4)."""
    r = layout.checker * 0.26
    cx, cy = centre[0] + layout.checker * 0.36, centre[1] - layout.checker * 0.36
    edge = max(1, round(layout.scale * 2))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.hit_marker, outline=theme.arrow_edge, width=edge)
    k = r * 0.5
    width = max(2, round(r * 0.3))
    draw.line((cx - k, cy - k, cx + k, cy + k), fill=WHITE, width=width)
    draw.line((cx - k, cy + k, cx + k, cy - k), fill=WHITE, width=width)


# -- text -----------------------------------------------------------------------------------------------------------
def match_text(view: BoardView) -> str:
    """The header's match line: "7-point match · Crawford game", "… · post-Crawford" or "Money game" (RULES M1, M3)."""
    if view.match_length == 0:
        return "Money game"
    text = f"{view.match_length}-point match"
    if view.crawford:
        text += " · Crawford game"
    elif view.post_crawford:
        text += " · post-Crawford"
    return text


def status_text(view: BoardView) -> str:
    """The header's status line: "<name of the side on roll> <awaiting>", or ``awaiting`` alone when nobody is."""
    if view.on_roll is None:
        return view.awaiting
    name = view.name_of(view.on_roll)
    return f"{name} {view.awaiting}".strip()


def caption_text(view: BoardView) -> str:
    """The caption under the board: the last play in standard notation, e.g. "Ann played 6-4: 24/18 13/9"."""
    if view.last_mover is None:
        return ""
    name = view.name_of(view.last_mover)
    dice = f" {dice_text(view.last_dice)}" if view.last_dice else ""
    if not view.last_play:
        return f"{name} rolled{dice} and could not move" if dice else ""
    from backgammon.notation import format_moves

    return f"{name} played{dice}: {format_moves(view.last_play)}"


def _score_text(view: BoardView, side: str) -> str:
    points = view.score[0 if side == VIEWER else 1]
    if not view.match_length:
        return f"Score {points:+d}" if points else "Score 0"  # money: the net running total
    if points < view.match_length:
        return f"Score {points} ({view.match_length - points} away)"
    return f"Score {points}"


def _draw_strip(image, draw, theme: Theme, layout: BoardLayout, view: BoardView, side: str) -> None:
    top, bottom = layout.top_strip if side == OPPONENT else layout.bottom_strip
    s = layout.scale
    m = layout.margin
    w = layout.width
    if view.on_roll == side:
        draw.rounded_rectangle(
            (m, top, w - m - 1, bottom - 1), radius=round(10 * s), outline=theme.accent, width=max(2, round(3 * s))
        )
    colours = _colours(theme, view, side)
    swatch = round((bottom - top) * 0.62)
    cx, cy = m + round(14 * s) + swatch / 2, (top + bottom) / 2
    paste(image, checker_sprite(colours.fill, colours.rim, swatch), (cx, cy))
    name_size = round(24 * s)
    info_size = round(20 * s)
    baseline = cy + name_size * 0.36
    pips = view.position.pips_player if side == VIEWER else view.position.pips_opponent
    right = w - m - round(16 * s)
    pip_line = draw_text(
        draw, (right, cy + info_size * 0.36), f"Pips {pips}", info_size, theme.text_muted, align="right"
    )
    score_right = right - max(pip_line.width, 90 * s) - round(28 * s)
    score_line = draw_text(
        draw, (score_right, cy + info_size * 0.36), _score_text(view, side), info_size, theme.text, align="right"
    )
    name_left = cx + swatch / 2 + round(12 * s)
    name_room = score_right - score_line.width - name_left - round(20 * s)
    draw_text(draw, (name_left, baseline), view.name_of(side), name_size, theme.text, bold=True, max_width=name_room)


def _draw_texts(image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    s = layout.scale
    m = layout.margin
    w = layout.width
    head_size = round(26 * s)
    baseline = layout.header_top + layout.header_height / 2 + head_size * 0.4
    right_line = draw_text(draw, (w - m, baseline), match_text(view), round(18 * s), theme.text_muted, align="right")
    status = status_text(view)
    if status:
        room = w - 2 * m - right_line.width - 20 * s
        draw_text(
            draw,
            (m + 4 * s, baseline),
            status,
            head_size,
            theme.accent if view.on_roll else theme.text,
            bold=True,
            max_width=room,
        )
    for side in (OPPONENT, VIEWER):
        _draw_strip(image, draw, theme, layout, view, side)
    caption = caption_text(view)
    if caption:
        draw_text(draw, (m + 4 * s, layout.caption_baseline), caption, round(18 * s), theme.text, max_width=w - 2 * m)
    ids = []
    position_id = view.resolved_position_id()
    if position_id:
        ids.append(f"Position ID: {position_id}")
    if view.match_id:
        ids.append(f"Match ID: {view.match_id}")
    if ids:
        draw_text(draw, (m + 4 * s, layout.ids_baseline), "    ".join(ids), round(14 * s), theme.text_muted)


# -- chouette panel (RULES C3, C5, C7) ---------------------------------------------------------------------------------
def _panel_rows(view: BoardView) -> int:
    if view.chouette is None:
        return 0
    return (len(view.chouette.members) + 1) // 2


_STATE_WORDS = {"centred": "centred", "offered": "offered", "taken": "taken", "dropped": "dropped"}


def _draw_panel(image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    panel = view.chouette
    if panel is None:
        return
    s = layout.scale
    m = layout.margin
    w = layout.width
    top = layout.panel_top
    height = layout.panel_height(_panel_rows(view))
    draw.rounded_rectangle((m, top, w - m - 1, top + height - 1), radius=round(10 * s), fill=theme.panel)
    title_size = round(19 * s)
    title = f"Chouette — Box: {panel.box}"
    if panel.partner:
        title += f" (Partner: {panel.partner})"
    draw_text(draw, (m + 14 * s, top + 30 * s), title, title_size, theme.text, bold=True, max_width=w - 2 * m - 28 * s)
    size = round(17 * s)
    column = (w - 2 * m - 28 * s) / 2
    cube = round(26 * s)
    for index, member in enumerate(panel.members):
        row, col = divmod(index, 2)
        x = m + 14 * s + col * column
        y = top + (44 + 34 * row + 17) * s
        _draw_member(image, draw, theme, member, index == 0, x, y, column - 16 * s, size, cube)


def _draw_member(image, draw, theme: Theme, member: ChouetteMember, captain: bool, x, y, room, size, cube) -> None:
    state = member.cube_state
    faded = state == "dropped"
    sprite = cube_sprite(theme, cube, cube_label(member.cube_value, state == "centred"))
    paste(image, sprite, (x + cube / 2, y))
    if faded:  # a dropped cube is struck through
        draw.line((x - 2, y + cube / 2, x + cube + 2, y - cube / 2), fill=theme.hit_marker, width=max(2, cube // 9))
    words = _STATE_WORDS[state]
    tail = f"  {words}"
    tail_line = layout_text(tail, size)
    name = ("Captain " if captain else "") + member.name
    left = x + cube + size * 0.6
    name_line = draw_text(
        draw,
        (left, y + size * 0.36),
        name,
        size,
        theme.text,
        bold=captain,
        max_width=room - cube - tail_line.width - size,
    )
    colour = theme.accent if state == "offered" else theme.text_muted
    draw_text(draw, (left + name_line.width, y + size * 0.36), tail, size, colour)


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
    swatch.putdata(distinct)
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


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of ``image``; with ``palette`` (a "P" image) mapped to it first without dithering — about a third
    of the size of an RGB PNG at a tenth of the cost of choosing a palette per image."""
    buffer = io.BytesIO()
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    image.save(buffer, format="PNG", compress_level=6)
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
    in pixels (400–2000, default 900; the height follows, about 0.94 × width plus any chouette panel); ``home``:
    ``"right"`` or ``"left"``, the side of the viewer's home board. Raises
    :class:`~rendering.themes.UnknownThemeError` or :class:`~rendering.layout.LayoutError` for bad arguments.
    """
    theme = _theme(theme)
    image = render_image(view, theme, width=width, home=home)
    return encode_png(image, _palette(theme, board_layout(width, home)) if palette else None)
