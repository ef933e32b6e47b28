"""Board pictures of a table: :class:`~club.results.TableView` → :class:`rendering.BoardView` → PNG bytes.

The one place where the use-case layer's view of a match becomes what the renderer draws, shared by the Discord
cogs, the console and ``python bot.py replay``. No Discord types. :func:`render_table_async` renders in a picture
worker process (:mod:`club.picture_pool`) so a bot's event loop never waits on Pillow.

>>> # board = await render_table_async(outcome.view, viewer=member_id, options=BoardOptions(width=900))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from backgammon.moves import Move, dice_text
from backgammon.result import kind_words
from rendering import OPPONENT, VIEWER, BoardView, render_board, theme_from_name
from rendering.layout import board_layout

from . import picture_pool
from .results import GameView, Outcome, TableView
from .table import MatchKind, MatchStatus, Pending, TableAction


@dataclass(frozen=True, slots=True)
class BoardOptions:
    """How boards are drawn (config ``[rendering]``): ``theme`` name, ``width`` in pixels (390–2000) and ``home``
    (``"right"``/``"left"``, the side of the viewer's home board). :meth:`checked` validates them."""

    theme: str = "colourblind"
    width: int = 900
    home: str = "right"

    def checked(self) -> BoardOptions:
        """Return self after checking the values; raises ``ValueError`` saying what is wrong and what is valid
        (an unknown theme lists the known ones)."""
        theme_from_name(self.theme)
        board_layout(self.width, self.home)
        return self


def viewer_side(view: TableView, viewer: int | None) -> int:
    """The side drawn at the bottom: the ``viewer``'s own side if he plays, else the side that must act, else 0."""
    side = None if viewer is None else view.side_of(viewer)
    if side is not None:
        return side
    game = view.game
    if game is not None and game.turn is not None:
        return game.turn
    return 0


def _name(view: TableView, side: int | None) -> str:
    return view.names[side] if side is not None else ""


def awaiting_text(view: TableView) -> str:
    """What the header says after the name of the side to act ("to play 6-4", "to take or drop the double"), or
    the result in words when nobody is to act ("Ann wins game 3: gammon, 4 points", "Ann wins the match 7–5
    (single, 1 point)")."""
    game = view.game
    if view.status == MatchStatus.CHALLENGED:
        return "to accept or decline the challenge"
    if game is not None and game.result is not None and (view.waiting_for is None or view.status != MatchStatus.ACTIVE):
        result = game.result
        points = f"{kind_words(result.kind, result.multiplier)}, {result.points} point" + (
            "" if result.points == 1 else "s"
        )
        winner = _name(view, result.winner)
        over = view.status == MatchStatus.OVER and view.kind == MatchKind.MATCH
        if over and view.winner is not None:  # kept short: it is a header
            return f"{winner} wins the match {view.score[view.winner]}–{view.score[1 - view.winner]} ({points})"
        return f"{winner} wins game {game.number}: {points}"
    if view.pending is None:
        return ""
    text = f"to {view.pending_text}"
    if view.pending == Pending.PLAY and game is not None and game.dice:
        text += f" {dice_text(game.dice)}"
    if view.pending == Pending.ANSWER_RESIGNATION and game is not None and game.resignation:
        text = "to accept or reject the resignation"  # the flag on the board names the level
    return text


def _side_name(side: int | None, bottom: int) -> str | None:
    if side is None:
        return None
    return VIEWER if side == bottom else OPPONENT


def _last_play(game: GameView) -> tuple[tuple[Move, ...], int | None, tuple[int, int] | None]:
    if game.last_play is None:
        return (), None, None
    side, _text, dice = game.last_play
    moves = game.last_moves
    shown_dice = dice if dice and all(1 <= d <= 6 for d in dice) else None
    return moves, side, shown_dice


def board_view(view: TableView, viewer: int | None = None) -> BoardView:
    """What to draw for ``view`` seen by member ``viewer`` (his side at the bottom; a non-player, or ``None``,
    sees it from the side that must act). Raises ``ValueError`` if the table has no game yet (a challenge)."""
    game = view.game
    if game is None:
        raise ValueError(f"match {view.match_id} has no game yet (status {view.status}): there is no board to draw")
    bottom = viewer_side(view, viewer)
    acting = game.turn if game.result is None and view.status == MatchStatus.ACTIVE else None
    moves, mover, last_dice = _last_play(game)
    score = (view.score[bottom], view.score[1 - bottom])  # money: net running totals, shown signed
    post_crawford = (  # RULES M3: a game after the Crawford game, someone still 1-away
        view.length > 1
        and bool(view.rules.get("crawford", True))
        and not game.crawford
        and max(view.score) == view.length - 1
    )
    return BoardView(
        position=game.board_for(bottom),
        viewer_name=view.names[bottom],
        opponent_name=view.names[1 - bottom],
        viewer_colour=bottom,
        on_roll=_side_name(acting, bottom),
        awaiting=awaiting_text(view),
        cube_value=game.cube_value,
        cube_factor=game.cube_factor,
        cube_owner=_side_name(game.cube_owner, bottom),
        crawford=game.crawford,
        post_crawford=post_crawford,
        offered_cube=game.cube_offered,
        offer={"beaver_offered": "beaver", "raccoon_offered": "raccoon"}.get(game.phase, "double"),
        resignation=game.resignation[1] if game.resignation else 0,
        dice=game.dice,
        dice_side=_side_name(game.on_roll, bottom) if game.dice else None,
        score=score,
        match_length=view.length,
        last_play=moves if mover is not None else (),
        last_mover=_side_name(mover, bottom),
        last_dice=last_dice,
        match_id=game.match_id or "",
    )


def render_table(view: TableView, viewer: int | None = None, options: BoardOptions | None = None) -> bytes:
    """PNG bytes of ``view``'s board seen by ``viewer`` (see :func:`board_view`), drawn with ``options``."""
    options = options or BoardOptions()
    return render_board(board_view(view, viewer), options.theme, width=options.width, home=options.home)


async def render_table_async(view: TableView, viewer: int | None = None, options: BoardOptions | None = None) -> bytes:
    """:func:`render_table` drawn in a picture worker process (:mod:`club.picture_pool`), so the event loop keeps
    serving other members meanwhile, on another core."""
    options = options or BoardOptions()
    return await picture_pool.draw(render_board, board_view(view, viewer), options.theme, width=options.width,
                                   home=options.home)  # fmt: skip


def board_filename(view: TableView, side: int | None = None) -> str:
    """A file name for the board image of ``view``: ``match12-game3-v0042.png`` (the version orders them), or with
    the side it is seen from, ``match12-game3-v0042-side1.png``, so two members' views of one turn both stay."""
    number = view.game.number if view.game is not None else 0
    seen = "" if side is None else f"-side{side}"
    return f"match{view.match_id}-game{number}-v{view.version:04d}{seen}.png"


async def finished_games(service, outcome: Outcome) -> list[TableView]:
    """The final position of every game that ended in ``outcome`` while the match went on to another game, as
    views to draw before the next game's opening: the finished :class:`GameView` (its last play, result and
    revealed seed), the score after it, nobody to act — so the header reads "Ann wins game 3: gammon, 4 points".
    ``service`` is the :class:`club.service.ClubService` (its ``game`` query). A game that ended the match is
    ``outcome.view`` itself and is not listed."""
    views = []
    for event in outcome.events:
        number = event.data.get("number") if event.kind == TableAction.NEW_GAME else None
        if not isinstance(number, int) or number < 2:
            continue
        game = await service.game(outcome.view.match_id, number - 1)
        score = tuple(event.data.get("score") or outcome.view.score)
        views.append(
            replace(
                outcome.view, game=game, game_number=number - 1, score=score, waiting_for=None, pending=None,
                pending_text="", legal=(), due_at=None,
            )
        )  # fmt: skip
    return views
