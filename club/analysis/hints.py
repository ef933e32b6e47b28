"""Hints only where they are allowed (RULES 003 1.5: no electronic aids in a match).

A hint — the best plays of a roll, or the cube advice, with equities — is given for a position named by its gnubg
Position ID (from a finished game's review, a book, another site). It is **refused** for a game being played (a
rated match or money session, or a chouette while it is being played), with the reason; and a Position ID is
refused when it is the position of a game the member takes part in while it is played — one of his matches, or the
board of a chouette he sits in (Box, Captain or Team; one who left during the game until it ends, RULES C2) — in
any server, so the rule cannot be walked round by copying the ID or asking elsewhere.

A practice game against the engine (:mod:`club.practice`) is no match between players: there a hint is allowed, on
its current position and dice (:func:`practice_request`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from backgammon.errors import BackgammonError
from backgammon.moves import check_dice, dice_text
from backgammon.position import Position

from ..errors import InvalidRequestError
from ..table import MatchStatus
from .engine import CubeEquities, CubeState, PlayEquity

if TYPE_CHECKING:
    from ..service import ClubService

RULE = "no electronic aids while a match is played (RULES 003 1.5)"
HINT_LINES = 5


class HintRefusedError(InvalidRequestError):
    """A hint asked where it is not allowed; the message says why and where hints are allowed."""


def refuse_in_play(what: str) -> HintRefusedError:
    """The refusal for ``what`` (e.g. "your match #12") while it is being played."""
    return HintRefusedError(
        f"No hints in {what} while it is being played: {RULE}. Hints are for finished games (/study review) and "
        "positions given by ID (/study hint position:<ID>) that are not of a game you are playing."
    )


def refuse_until_over(what: str, look: str) -> HintRefusedError:
    """The refusal of the ``look`` (``review``, ``highlight``) of ``what`` (e.g. "match #12") while it is being
    played (RULES 003 1.5)."""
    return HintRefusedError(f"No {look} of {what} while it is being played: {RULE}. Ask again once it is over.")


async def check_hint_allowed(
    service: ClubService,
    member: int,
    guild_id: int | None,
    position: str | None,
    *,
    here: int | None = None,
    chouette_here: int | None = None,
) -> None:
    """Raise the refusal when a hint is not allowed (see the module docstring): in the channel of a chouette being
    played (``chouette_here``: its id), in the thread of a match being played (``here``: its id) when no position is
    given, or for the Position ID of one of ``member``'s games in progress in the club of ``guild_id``. Raises
    :class:`HintRefusedError`, or :class:`~club.errors.InvalidRequestError` when no position is given."""
    from club import frontend

    if chouette_here is not None:
        raise refuse_in_play("the chouette of this channel")
    if position is None:
        view = None if here is None else await service.state(here)
        if view is not None and view.practice and member in view.players:
            return  # a practice game against the engine: hints allowed, on its current position
        if view is not None and view.status == MatchStatus.ACTIVE:
            raise refuse_in_play(f"match #{here}")
        raise InvalidRequestError(
            "Give the position: hint position:<Position ID> dice:<roll> (the ID is under every board)."
        )
    wanted = position.strip()
    waiting, others = await frontend.open_games(service, member, None)  # every server's: fair play is not local
    for match_id in [item.match_id for item in waiting] + [item.match_id for item in others]:
        view = await service.state(match_id)
        game = view.game
        if (
            view.status == MatchStatus.ACTIVE
            and not view.practice
            and game is not None
            and wanted in (game.board.position_id(), game.board.swap().position_id())
        ):
            raise refuse_in_play(f"your match #{match_id} (that is its position)")
    session_id = await own_chouette_at(service.db, member, wanted)
    if session_id is not None:
        raise refuse_in_play(f"your chouette #{session_id} (that is its board's position)")


async def own_chouette_at(db, member: int, position_id: str) -> int | None:
    """The open chouette (in any club) whose board is being played at ``position_id`` (either side's gnubg
    Position ID) with ``member`` at the table — seated, or gone during the game and out only once it ends (RULES
    C2) — else None."""
    from storage.chouettes import ChouetteStore

    from ..chouette.table import ChouetteTable

    store = ChouetteStore(db)
    for session_id in await store.session_ids(["open"]):
        record = await store.get(session_id)
        if record is None:
            continue
        table = ChouetteTable.from_json(record.state)
        board = table.board
        if board is None or board.is_over or member not in table.members:
            continue
        if position_id in (board.board_for(0).position_id(), board.board_for(1).position_id()):
            return session_id
    return None


async def practice_request(service: ClubService, member: int, here: int | None):
    """``(position, dice, cube)`` of the practice game ``here`` for a hint, seen by ``member`` (its player): the
    dice he is to play, or None (cube advice) before he rolls. None when ``here`` is not his practice game being
    played (then the position must be given)."""
    from .walk import cube_state

    if here is None:
        return None
    view = await service.state(here)
    if not view.practice or member not in view.players or view.status != MatchStatus.ACTIVE or view.game is None:
        return None
    table, _version = await service.table_state(here)
    game = table.game
    side = table.side_of(member)
    if game.is_over or game.on_roll is None:
        return game.board_for(side), None, cube_state(game, side)
    mover = game.on_roll
    dice = game.dice if mover == side else None
    return game.board_for(mover), dice, cube_state(game, mover)


def parse_request(position: str, dice: str | None) -> tuple[Position, tuple[int, int] | None]:
    """The position (a gnubg Position ID, seen by the player on roll) and the dice (``"64"``, ``"6-4"``; ``None``
    for cube advice). Raises :class:`~club.errors.InvalidRequestError` saying what was wrong."""
    try:
        found = Position.from_position_id(position.strip())
    except BackgammonError as error:
        raise InvalidRequestError(
            f"That is not a Position ID: {error} — copy it from under the board image or from gnubg."
        ) from None
    if found.is_over():
        raise InvalidRequestError("that position is over: a side has borne off all 15 checkers")
    if dice is None or not dice.strip():
        return found, None
    digits = [c for c in dice if c.isdigit()]
    try:
        return found, check_dice([int(d) for d in digits] if len(digits) == 2 else dice)
    except BackgammonError as error:
        raise InvalidRequestError(f"Those are not dice: {error}.") from None


def hint_task(position_id: str, dice: tuple[int, int] | None, cube: CubeState, level: str = "2ply") -> dict:
    """Worker task: ``{"plays": [(notation, equity, loss)…]}`` (best first) with dice, else ``{"cube": (no double,
    double/take, double/pass, action)}``."""
    from .pool import engine

    position = Position.from_position_id(position_id)
    chosen = engine(level)
    if dice is not None:
        ranked: list[PlayEquity] = chosen.best_plays(position, dice, cube)
        return {"plays": [(p.play.notation() or "no move", p.equity, p.loss) for p in ranked]}
    equities: CubeEquities = chosen.cube_decision(position, cube)
    return {"cube": (equities.no_double, equities.double_take, equities.double_pass, equities.action())}


@dataclass(frozen=True, slots=True)
class HintAnswer:
    """A hint for people: ``lines`` of text (a small table)."""

    lines: list[str]

    @property
    def text(self) -> str:
        """The lines as one message (a code block keeps the columns)."""
        return "```\n" + "\n".join(self.lines) + "\n```"


def hint_text(position: Position, dice: tuple[int, int] | None, result: dict, level: str = "2ply") -> HintAnswer:
    """The hint table of :func:`hint_task`'s ``result``."""
    lines = [f"Position {position.position_id()}, Open Sage {level}"]
    if dice is not None:
        lines.append(f"Best plays of {dice_text(dice)} (equity, loss):")
        for number, (text, equity, loss) in enumerate(result["plays"][:HINT_LINES], start=1):
            lines.append(f"{number}. {text:24} {equity:+.3f}  {-loss + 0.0:+.3f}")  # + 0.0: the best play's -0.0 is 0
    else:
        no_double, take, drop, action = result["cube"]
        lines += [
            f"No double     {no_double:+.3f}",
            f"Double, take  {take:+.3f}",
            f"Double, pass  {drop:+.3f}",
            f"Right action: {action}",
        ]
    return HintAnswer(lines)
