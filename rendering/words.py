"""The words on a board picture and the chouette panel: the header (whose action, the match), the name strips,
the caption (the last play in standard notation), the gnubg IDs, and the chouette's seating under the board (RULES
C3, C5, C7). Names are shortened with "…" where room is short, never the action."""

from __future__ import annotations

from backgammon.moves import dice_text

from .layout import BoardLayout
from .sprites import checker_sprite, cube_label, cube_sprite, paste
from .text import draw_text, fit_text, layout_text
from .themes import Theme
from .view import OPPONENT, VIEWER, BoardView, ChouetteMember, CubeMark


def _colours(theme: Theme, view: BoardView, side: str):
    return theme.checkers[view.viewer_colour if side == VIEWER else view.opponent_colour]


# -- text -----------------------------------------------------------------------------------------------------------
def match_text(view: BoardView) -> str:
    """The header's match line: "7-point match · Crawford game", "… · post-Crawford", "Money game" (RULES M1, M3) or,
    on a chouette's board, "Chouette · 5 a point" (RULES C6)."""
    if view.chouette is not None:
        return f"Chouette · {view.chouette.stake} a point" if view.chouette.stake else "Chouette"
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


def fit_status(view: BoardView, size: int, room: float, bold: bool = True) -> str:
    """:func:`status_text` fitted into ``room`` pixels at ``size``: the name is shortened with "…" so that the
    action ("to play 3-2") is always shown whole (the full name is in the strip and the message)."""
    text = status_text(view)
    if view.on_roll is None or layout_text(text, size, bold).width <= room:
        return text
    action = f" {view.awaiting}".rstrip()
    left = room - layout_text(action, size, bold).width
    name = fit_text(view.name_of(view.on_roll), size, max(left, 0), bold).text
    return f"{name or '…'}{action}"


def caption_text(view: BoardView, size: int | None = None, room: float | None = None) -> str:
    """The caption under the board: the last play in standard notation, e.g. "Ann played 6-4: 24/18 13/9"; with
    ``size`` and ``room`` (pixels) the name is shortened with "…" so that the play is shown whole. A view's own
    ``caption`` is used as it is (shortened at its end to ``room``)."""
    if view.caption is not None:
        return view.caption if size is None or room is None else fit_text(view.caption, size, room).text
    if view.last_mover is None:
        return ""
    name = view.name_of(view.last_mover)
    dice = f" {dice_text(view.last_dice)}" if view.last_dice else ""
    if not view.last_play:
        tail = f" rolled{dice} and could not move" if dice else ""
        if not tail:
            return ""
    else:
        from backgammon.moves import format_moves

        tail = f" played{dice}: {format_moves(view.last_play)}"
    if size is not None and room is not None and layout_text(name + tail, size).width > room:
        name = fit_text(name, size, max(room - layout_text(tail, size).width, 0)).text or "…"
    return f"{name}{tail}"


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
    name_size = layout.text(24)
    info_size = layout.text(20)
    baseline = cy + name_size * 0.36
    pips = view.position.pips_player if side == VIEWER else view.position.pips_opponent
    right = w - m - round(16 * s)
    pip_line = draw_text(
        draw, (right, cy + info_size * 0.36), f"Pips {pips}", info_size, theme.text_muted, align="right"
    )
    score_right = right - max(pip_line.width, 90 * s) - max(round(28 * s), info_size)
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
    head_size = layout.text(26)
    baseline = layout.header_top + layout.header_height / 2 + head_size * 0.4
    whole = w - 2 * m - max(20 * s, 8)
    right = match_text(view)
    room = whole - layout_text(right, layout.text(18)).width
    if view.on_roll is None and layout_text(status_text(view), head_size, True).width > room:
        right, room = "", whole  # a result drawn whole before the match length (the strips say how far each is)
    if right:
        draw_text(draw, (w - m, baseline), right, layout.text(18), theme.text_muted, align="right")
    status = fit_status(view, head_size, room)
    if status:
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
    size = layout.text(18)
    caption = caption_text(view, size, w - 2 * m - 4 * s)
    if caption:
        draw_text(draw, (m + 4 * s, layout.caption_baseline), caption, size, theme.text, max_width=w - 2 * m)
    ids = []
    position_id = view.resolved_position_id()
    if position_id:
        ids.append(f"Position ID: {position_id}")
    if view.match_id:
        ids.append(f"Match ID: {view.match_id}")
    if ids:
        size = layout.text(14)
        text = "    ".join(ids)
        if layout_text(text, size).width > w - 2 * m - 4 * s:
            text = "  ".join(ids).replace("Position ID: ", "Pos ").replace("Match ID: ", "Match ")
        draw_text(draw, (m + 4 * s, layout.ids_baseline), text, size, theme.text_muted, max_width=w - 2 * m)


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
    title_size = layout.text(19)
    title = f"Chouette — Box: {panel.box}"
    if panel.partner:
        title += f" (Partner: {panel.partner})"
    title_baseline = top + layout.panel_title * 0.68
    draw_text(
        draw, (m + 14 * s, title_baseline), title, title_size, theme.text, bold=True, max_width=w - 2 * m - 28 * s
    )
    size = layout.text(17)
    column = (w - 2 * m - 28 * s) / 2
    cube = max(round(26 * s), size + 4)
    for index, member in enumerate(panel.members):
        row, col = divmod(index, 2)
        x = m + 14 * s + col * column
        y = top + layout.panel_title + layout.panel_row * (row + 0.5)
        _draw_member(image, draw, theme, member, index == 0, x, y, column - 16 * s, size, cube)


def _draw_member(image, draw, theme: Theme, member: ChouetteMember, captain: bool, x, y, room, size, cube) -> None:
    state = member.cube_state
    faded = state == CubeMark.DROPPED
    # the member's cube in points, as the text panel says it: a centred cube at 1 is "1", not the board's 64
    sprite = cube_sprite(theme, cube, cube_label(member.cube_value, False))
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
    colour = theme.accent if state == CubeMark.OFFERED else theme.text_muted
    draw_text(draw, (left + name_line.width, y + size * 0.36), tail, size, colour)
