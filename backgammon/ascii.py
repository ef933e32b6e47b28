"""A text board, laid out as GNU Backgammon's ``show board``: ``X`` is the player on roll, whose home board (points
1–6) is bottom right and who moves 24 → 1 (anticlockwise on this picture); ``O`` is the opponent.

::

     +13-14-15-16-17-18------19-20-21-22-23-24-+     O: O   pips 167   off 0
     | X           O    |   | O              X |
     | X           O    |   | O              X |
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
     |                  |BAR|                  |
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |
     | O           X    |   | X              O |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: X   pips 167   off 0

Points are numbered from the player on roll (RULES G1 terms). A point with more than five checkers shows the count in
its fifth row (``11`` for eleven); checkers on the bar are shown in the ``BAR`` column (``O`` above, ``X`` below) and
counted beside it. Pip counts follow RULES G11's view of the race (bar = 25). Pure function, no I/O.
"""

from __future__ import annotations

from .cube import cube_text
from .ids import MatchState
from .moves import dice_text
from .position import Position

_ROWS = 5
_TOP = "+13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM = "+12-11-10--9--8--7-------6--5--4--3--2--1-+"


def _cell(count: int, mark: str, row: int) -> str:
    """The 3-character cell of a point in ``row`` (0 = the edge of the board) for ``count`` checkers of ``mark``."""
    if count <= row:
        return "   "
    if row == _ROWS - 1 and count > _ROWS:
        return f"{count:>2} " if count < 10 else f"{count:<3}"
    return f" {mark} "


def _half(position: Position, points: list[int], row: int) -> str:
    """One text row across six points (``points`` in display order, counted from the player on roll)."""
    out = []
    for point in points:
        signed = position.at(point)
        if signed > 0:
            out.append(_cell(signed, "X", row))
        elif signed < 0:
            out.append(_cell(-signed, "O", row))
        else:
            out.append("   ")
    return "".join(out)


def _bar_cell(count: int, mark: str, row: int) -> str:
    if count <= row:
        return "   "
    if row == _ROWS - 1 and count > _ROWS:
        return f"{count:>2} "
    return f" {mark} "


def ascii_board(
    position: Position,
    *,
    state: MatchState | None = None,
    names: tuple[str, str] | None = None,
    bottom: int | None = None,
    cube_factor: int = 1,
    position_id: str | None = None,
    score: tuple[int, int] | None = None,
) -> str:
    """The position as a multi-line text board with pip counts and checkers off; ``X`` is the player on roll.

    ``state`` (a decoded gnubg Match ID, :class:`~backgammon.ids.MatchState`) adds the cube (value and owner), the
    score and match length, the Crawford flag, the dice and a pending double or resignation; ``state.on_roll`` says
    which of gnubg's players 0/1 is ``X``. ``names`` are gnubg's players 0 and 1 (default ``X``/``O`` by who is on
    roll). ``bottom`` (0/1, with ``state``) draws that player as ``X`` at the bottom instead — e.g. a member looking at
    the board while his opponent is on roll; ``position`` is then seen by him. ``cube_factor`` (with ``state``) is the
    add-one automatic-double factor a Match ID cannot carry, shown beside the cube (``cube 1 ×4 (automatic doubles)
    centred``; RULES D6, G3). The Position ID printed is always gnubg's, seen by the player on roll: without
    ``state``, ``position_id`` gives it when ``X`` is not the player on roll (e.g. a chouette's Team answering Box's
    double). ``score`` (with ``state``, by gnubg player 0/1) replaces the Match ID's: in money play the net running
    totals, signed, as the board picture shows them (a Match ID holds the points each has won, never a negative;
    RULES M1). Never raises for a valid :class:`Position`.
    """
    x_side = bottom if bottom is not None else (state.on_roll if state is not None else 0)
    on_roll_view = state is None or state.on_roll == x_side
    if position_id is None:
        position_id = (position if on_roll_view else position.swap()).position_id()
    labels = {x_side: "X", 1 - x_side: "O"} if names is None else {0: names[0], 1: names[1]}
    x_name, o_name = labels[x_side], labels[1 - x_side]

    top_left, top_right = list(range(13, 19)), list(range(19, 25))
    bottom_left, bottom_right = list(range(12, 6, -1)), list(range(6, 0, -1))
    bar_x, bar_o = position.player[24], position.opponent[24]

    side_top = [
        f"O: {o_name}",
        f"pips {position.pips_opponent}   off {position.off_opponent}",
    ]
    side_bottom = [
        f"pips {position.pips_player}   off {position.off_player}",
        f"X: {x_name}",
    ]
    middle_note = ""
    if state is not None:
        shown = state.score if score is None else score
        if state.match_length:
            o_score, x_score, length = f"{shown[1 - x_side]}", f"{shown[x_side]}", f" of {state.match_length}"
        else:
            o_score, x_score = (f"{points:+d}" if points else "0" for points in (shown[1 - x_side], shown[x_side]))
            length = " (money)"
        side_top.append(f"score {o_score}{length}")
        side_bottom.insert(0, f"score {x_score}{length}")
        cube = cube_text(state.cube, cube_factor)
        if state.cube_owner is None:
            middle_note = f"cube {cube} (centred)" if cube_factor == 1 else f"cube {cube} centred"
        else:
            owner = "X" if state.cube_owner == x_side else "O"
            middle_note = f"cube {cube} owned by {owner}"
        if state.crawford:  # decode_match_id keeps the bit only where gnubg reads it (BG25)
            middle_note += ", Crawford game"
        elif state.post_crawford and state.match_length > 1:  # gnubg: "(Cube: 1)" vs "(Crawford game)", BG25
            middle_note += ", post-Crawford"
        if state.dice != (0, 0):
            roller = "X" if state.on_roll == x_side else "O"
            side_bottom.insert(0, f"{roller} rolled {dice_text(state.dice)}")
        elif state.double_offered:
            doubler = "X" if state.turn != x_side else "O"
            side_bottom.insert(0, f"{doubler} doubles to {cube_text(state.cube * 2, cube_factor)}")
        if state.resignation:
            kind = {1: "single game", 2: "gammon", 3: "backgammon"}[state.resignation]
            resigner = "O" if state.turn == x_side else "X"
            side_bottom.insert(0, f"{resigner} offers to resign a {kind}")

    lines = [f" {_TOP}"]
    for row in range(_ROWS):
        text = f" |{_half(position, top_left, row)}|{_bar_cell(bar_o, 'O', row)}|{_half(position, top_right, row)}|"
        note = side_top[row] if row < len(side_top) else ""
        lines.append(f"{text}     {note}".rstrip())
    lines.append(f" |                  |BAR|                  |     {middle_note}".rstrip())
    for row in reversed(range(_ROWS)):
        left = _half(position, bottom_left, row)
        right = _half(position, bottom_right, row)
        text = f" |{left}|{_bar_cell(bar_x, 'X', row)}|{right}|"
        index = len(side_bottom) - 1 - row
        note = side_bottom[index] if 0 <= index < len(side_bottom) else ""
        lines.append(f"{text}     {note}".rstrip())
    lines.append(f" {_BOTTOM}")
    lines.append(f" Position ID: {position_id}")
    return "\n".join(lines)
