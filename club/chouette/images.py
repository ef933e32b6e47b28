"""Chouette pictures: the board with the chouette panel, and the score sheet (RULES C3, C5, C7, C11). No Discord.

:func:`board_view` turns a :class:`~club.chouette.views.ChouetteView` into a :class:`rendering.BoardView` — Box
(board side 0) against the Captain (side 1), and under the board the panel: Box, Partner, the Captain and the Team in
rotation order, each cube's value and state (centred, offered, taken, dropped). :func:`sheet_view` turns its
:class:`~club.chouette.views.SheetData` into a :class:`rendering.sheet.SheetView`. The ``*_png`` functions render in
a worker thread so a bot's event loop never waits on Pillow.
"""

from __future__ import annotations

from backgammon.moves import dice_text
from rendering import OPPONENT, VIEWER, BoardView, ChouetteMember, ChouettePanel, render_board
from rendering.sheet import SheetCell, SheetLine, SheetView, render_sheet

from .. import picture_pool
from ..boards import BoardOptions, _last_play
from ..wording import plural
from .table import Awaited
from .views import OFFER_STATES, ChouetteView, CubeState, CubeView, SheetData

BOARD_TURN = (Awaited.ROLL, Awaited.PLAY)
"""The decisions of the board's turn: the dice show the one who makes them."""

PANEL_STATES = {
    "centred": "centred",
    "offered": "offered",
    "beavered": "offered",
    "raccooned": "offered",
    "taken": "taken",
    "dropped": "dropped",
    "settled": "dropped",
    "scored": "taken",
}
"""A cube's state (:data:`club.chouette.views.CUBE_STATES`) as the panel draws it: an offer of any stage is
"offered"; a settled cube is out of play like a dropped one; a scored cube keeps its last state."""


def _power_of_two(value: int) -> int:
    return value if value >= 1 and value & (value - 1) == 0 else max(1, 1 << (max(value, 1).bit_length() - 1))


def _member(view: ChouetteView, cube: CubeView) -> ChouetteMember:
    label = view.name(cube.team) if not cube.extra else f"{view.name(cube.box)} → {view.name(cube.team)} (extra)"
    if not cube.extra and cube.team != cube.member:  # bought in a Team settlement (003 Atlanta 4.4)
        label = f"{view.name(cube.team)} ({view.name(cube.member)}'s cube, settled)"
    state = PANEL_STATES[cube.state]
    if cube.state == CubeState.SCORED and cube.owner is None:
        state = "centred"
    value = cube.offered if cube.state in OFFER_STATES and cube.offered else cube.value
    return ChouetteMember(label, _power_of_two(value), state)


def panel(view: ChouetteView) -> ChouettePanel | None:
    """The chouette panel of the current (or last) game: Box, Partner, the (Acting) Captain, then the Team in
    rotation order with each cube (RULES C3, C5, C7); None before the first game."""
    if not view.cubes or view.box is None:
        return None
    by_holder: dict[int | str, CubeView] = {}
    for cube in view.cubes:
        by_holder.setdefault(cube.member if not cube.extra else cube.key, cube)
    captain = view.captain if view.board_live else None
    order = [m for m in view.order if m != view.box and m != view.partner]
    members = [_member(view, by_holder[m]) for m in order if m in by_holder]
    members += [_member(view, cube) for cube in view.cubes if cube.extra]
    if not members:
        return None
    first = next((i for i, m in enumerate(order) if m == captain), 0)
    captain_member = members.pop(first if first < len(members) else 0)
    box = view.name(view.box)
    partner = None if view.partner is None else view.name(view.partner)
    return ChouettePanel(box, captain_member, tuple(members), partner, view.stake)


def board_view(view: ChouetteView, viewer: int | None = None) -> BoardView:
    """What to draw for ``view`` seen by ``viewer``: Box sees the board from Box's side, everyone else from the
    Team's. Raises ``ValueError`` before the first game (no board)."""
    game = view.board
    if game is None:
        raise ValueError(f"chouette {view.session_id} has no board yet: seat the members first")
    bottom = 0 if viewer is not None and viewer == view.box else 1
    captain = view.captain if view.board_live else (view.sheet.rows[-1].captain if view.sheet.rows else None)
    names = (view.name(view.box) + " (Box)", view.name(captain) + " (Captain)")
    if view.board_live and view.player is not None and view.player != view.captain:
        names = (names[0], view.name(view.player) + " (Acting Captain)")
    if not view.board_live and view.sheet.rows:
        names = (view.name(view.sheet.rows[-1].box) + " (Box)", names[1])

    def side(value: int | None) -> str | None:
        return None if value is None else (VIEWER if value == bottom else OPPONENT)

    acting = game.turn if view.board_live else None
    moves, mover, last_dice = _last_play(game)
    awaiting = _awaiting(view)
    return BoardView(
        position=game.board_for(bottom),
        viewer_name=names[bottom],
        opponent_name=names[1 - bottom],
        viewer_colour=bottom,
        on_roll=side(acting) if not view.decisions or view.decisions[0].pending in BOARD_TURN else None,
        awaiting=awaiting,
        dice=game.dice,
        dice_side=side(game.on_roll) if game.dice else None,
        last_play=moves if mover is not None else (),
        last_mover=side(mover),
        last_dice=last_dice,
        chouette=panel(view),
        show_cube=False,
        position_id=game.on_roll_position_id,
    )


def _awaiting(view: ChouetteView) -> str:
    if not view.decisions:
        return "" if view.board_live else f"Game {view.game_number} is over"
    first = view.decisions[0]
    if first.pending in BOARD_TURN:
        text = "to roll or double" if "double" in first.actions else f"to {first.pending}"
        if first.pending == Awaited.PLAY and view.board and view.board.dice:
            text += f" {dice_text(view.board.dice)}"
        return text
    names = ", ".join(view.name(d.subject) for d in view.decisions)
    return f"Cube decisions: {names}"


def render_board_png(view: ChouetteView, viewer: int | None = None, options: BoardOptions | None = None) -> bytes:
    """PNG bytes of the board with the chouette panel (see :func:`board_view`)."""
    options = options or BoardOptions()
    return render_board(board_view(view, viewer), options.theme, width=options.width, home=options.home)


def sheet_view(view: ChouetteView) -> SheetView:
    """The score sheet of ``view`` as the picture shows it (RULES C11; 003 Atlanta 10.1)."""
    sheet: SheetData = view.sheet
    members = sheet.members
    lines = []
    for row in sheet.rows:
        cells = tuple(SheetCell(row.points.get(m), m in row.circled, m in row.crossed, row.b == m) for m in members)
        lines.append(SheetLine(row.game, view.name(row.box), cells, view.name(row.next_captain)))
    stake = f"Stake {view.stake} per point (003 Atlanta 2.1)" if view.stake else "No money stake: points only"
    return SheetView(
        title=f"Chouette #{view.session_id} — score sheet after {plural(len(sheet.rows), 'game')}",
        members=tuple(view.name(m) for m in members),
        lines=tuple(lines),
        totals=tuple(sheet.totals.get(m, 0) for m in members),
        money=tuple(sheet.money(m) for m in members) if view.stake else None,
        stake=stake + f" · {view.rules.name}",
        next_captain=None if sheet.next_captain is None else view.name(sheet.next_captain),
    )


def render_sheet_png(view: ChouetteView, options: BoardOptions | None = None) -> bytes:
    """PNG bytes of the score sheet of ``view`` in the configured theme."""
    return render_sheet(sheet_view(view), (options or BoardOptions()).theme)


async def board_png_async(view: ChouetteView, viewer: int | None = None, options: BoardOptions | None = None) -> bytes:
    """:func:`render_board_png` drawn in a picture worker process (:mod:`club.picture_pool`)."""
    options = options or BoardOptions()
    return await picture_pool.draw(render_board, board_view(view, viewer), options.theme, width=options.width,
                                   home=options.home)  # fmt: skip


async def sheet_png_async(view: ChouetteView, options: BoardOptions | None = None) -> bytes:
    """:func:`render_sheet_png` drawn in a picture worker process (:mod:`club.picture_pool`)."""
    return await picture_pool.draw(render_sheet, sheet_view(view), (options or BoardOptions()).theme)
