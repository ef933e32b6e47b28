"""The practice opponent: a match or money session against the engine, in a seat the bot takes.

A practice game is an ordinary :class:`~club.table.MatchTable` with an **engine seat** (``engine_side``, at a
``strength``): the same rules, the same unit of work (:func:`club.work.run_unit`), the same log — the engine's cube
decisions, checker plays and answers to the member's doubles are the use-cases every member calls
(:class:`~club.service.ClubService` ``roll``/``double``/``play``/``take``/``drop``), made under the engine seat's
member id. What differs:

- **unrated, outside the books**: practice games are kept in the club's *practice room*, a club row of its own
  (guild id = minus the server's), so the club's ledger, score sheets, ratings, statistics, leaderboards and PRs —
  every one a query of the club's own id — never see them; the front ends still find them (:func:`room_of`,
  :func:`club.frontend.in_club`, :func:`club.frontend.open_games`);
- **no clock at all**: nothing is at stake, so the unit of work writes no deadline in a practice game, for the
  engine seat or the member (:meth:`club.step.MatchStep.commit`): no reminder, no expiry, no claim (the engine would
  never claim a lapsed game under the ``claim`` policy: it would wait forever); the member comes back when he likes;
- **the club's settings**: the practice room is no club of its own to configure; its tables follow the club's
  current settings (:func:`settings_of`);
- **hints allowed** (:mod:`club.analysis.hints`): no match is being played against a person (RULES 003 1.5 is about
  matches between players).

The engine's choices are made in the worker pool (:mod:`club.analysis.pool`; :mod:`club.analysis.practice` at the
chosen strength), never on the event loop; :func:`engine_turns` then applies each through the unit of work with the
version it was computed for (a member's action in between makes it stale, and it is dropped, not applied twice).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from backgammon.game import Action
from backgammon.rules import RuleSet

from .analysis import require_engine
from .analysis.engine import CubeState
from .errors import InvalidRequestError, StaleVersionError, UnknownMemberError
from .results import Outcome, TableView
from .settings import ClubSettings
from .step import store_challenge
from .table import Pending, Table
from .work import check_id

ENGINE_NAME = "Open Sage"
"""The display name of the engine seat."""

MAX_PRACTICE_LENGTH = 25
"""The longest practice match (points); 0 is a money session."""

DEFAULT_LENGTH = 3
"""The practice match length when none is given."""

MAX_TURNS = 60
"""At most this many engine actions per :func:`engine_turns` call (a turn is two or three: cube, roll, play)."""


def room_guild(guild_id: int) -> int:
    """The guild id of the practice room of the server ``guild_id`` (its negative: no server has one)."""
    return -guild_id


async def room_of(db, guild_id: int | None) -> int | None:
    """The club id of the practice room of server ``guild_id``, or None (no practice game there yet, or None)."""
    if guild_id is None:
        return None
    club = await db.get_club(room_guild(guild_id))
    return None if club is None else club.id


async def settings_of(db, club) -> ClubSettings:
    """The settings that govern the tables of club row ``club`` (a :class:`storage.ClubRecord`): its own, or for a
    practice room (negative guild id, :func:`room_guild`) the current settings of the club of its server — the room
    copies them when it is made, and follows every later change of the club's."""
    if club.guild_id < 0:
        owner = await db.get_club(room_guild(club.guild_id))
        if owner is not None:
            return ClubSettings.from_json(owner.settings)
    return ClubSettings.from_json(club.settings)


@dataclass(frozen=True, slots=True)
class EngineMove:
    """One engine action: ``kind`` (a :class:`~club.service.ClubService` use-case name) and its ``value`` (the
    play's notation for ``play``)."""

    kind: str
    value: str | None = None


def check_length(length: int | None) -> int:
    """``length`` (default :data:`DEFAULT_LENGTH`) if it is 0 (money) or 1–:data:`MAX_PRACTICE_LENGTH` points, else
    :class:`InvalidRequestError` saying what is allowed."""
    if length is None:
        return DEFAULT_LENGTH
    if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= MAX_PRACTICE_LENGTH:
        raise InvalidRequestError(
            f"a practice match is 1–{MAX_PRACTICE_LENGTH} points (or 0 for a money session), not {length!r}"
        )
    return length


async def start_practice(
    service,
    guild_id: int,
    member: int,
    engine_id: int,
    *,
    length: int | None = None,
    strength: str | None = None,
) -> Outcome:
    """Start a practice match of ``length`` points (0: money session) for ``member`` of the club of ``guild_id``
    against the engine (member id ``engine_id``, the bot's seat) at ``strength``
    (:data:`club.analysis.practice.STRENGTHS`). The engine seat accepts at once: game 1 starts (RULES G2) and the
    :class:`~club.results.Outcome` is that of the acceptance (the engine may be the first to act: run
    :func:`engine_turns`). Rules: the club's match (or money) rule set; no stake.

    Raises :class:`~club.analysis.AnalysisUnavailableError` (saying how to install the engine) without it,
    :class:`InvalidRequestError` for a bad length or strength, or a member not in the club,
    :class:`UnknownMemberError`. A refused call stores nothing."""
    from .analysis.practice import check_strength

    check_id(guild_id, "guild_id")
    check_id(member, "member id")
    check_id(engine_id, "engine id")
    length = check_length(length)
    try:
        strength = check_strength(strength)
    except ValueError as error:
        raise InvalidRequestError(str(error)) from None
    require_engine()
    if member == engine_id:
        raise InvalidRequestError("the engine's seat cannot practise against itself")
    club = await service.db.get_club(guild_id)
    members = await service.db.get_members([member])
    if member not in members:
        raise UnknownMemberError(f"user {member} is not a member yet: use the bot once to register")
    if club is None or not await service.db.is_club_member(club.id, member):
        raise InvalidRequestError(f"{members[member].display_name} is not a member of this club")
    settings = ClubSettings.from_json(club.settings)
    rules = RuleSet.preset(settings.money_rules if length == 0 else settings.match_rules, **settings.rule_overrides)
    rules.validate_for(length)
    now = service.clock.now()
    room = await service.db.ensure_club(
        room_guild(guild_id), now, name=f"practice room of {club.name or guild_id}"[:100], settings=club.settings
    )
    await service.db.ensure_member(member, members[member].display_name, now, club_id=room.id)
    await service.db.ensure_member(engine_id, ENGINE_NAME, now, club_id=room.id)
    table, args = Table.challenge(
        club_id=room.id,
        players=(member, engine_id),
        length=length,
        rules=rules,
        stake=0,
        engine={"side": 1, "strength": strength},
    )
    record = await store_challenge(service.db, table, table.state_json(), args, deadline=None, now=now)
    return await service.accept(record.id, engine_id)


def engine_seed(match_id: int, version: int) -> int:
    """The seed of the engine's noise for the decision at ``version`` of match ``match_id`` (a replay chooses alike)."""
    digest = hashlib.sha256(f"practice:{match_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


async def decide(table: Table, match_id: int, version: int, pool) -> EngineMove | None:
    """The engine seat's next action on ``table`` (at ``version``), chosen in ``pool`` (off the event loop), or None
    when it is not to act. Cube: double or roll (RULES D1); a double offered to it: take or drop (D2); a beaver or
    raccoon of its own double: take (it judged the double good); a resignation offered to it: accept (RULES G12);
    checker play: :func:`club.analysis.practice.choose_play_task`."""
    from .analysis.practice import choose_play_task, cube_action_task
    from .analysis.walk import cube_state

    side, game = table.engine_side, table.game
    if not table.engine_to_act() or side is None or game is None:
        return None
    _, pending = table.waiting()
    strength = table.strength
    seed = engine_seed(match_id, version)
    if pending == Pending.ROLL:
        return EngineMove(Action.ROLL)
    if pending == Pending.ROLL_OR_DOUBLE:
        cube: CubeState = cube_state(game, side)
        action = await pool.run(cube_action_task, game.board_for(side).position_id(), cube, strength, seed, False)
        return EngineMove(Action.DOUBLE if action == Action.DOUBLE else Action.ROLL)
    if pending == Pending.PLAY:
        cube = cube_state(game, side)
        notation = await pool.run(choose_play_task, game.board_for(side).position_id(), game.dice, cube, strength, seed)
        return EngineMove(Action.PLAY, notation or "pass")
    if pending == Pending.ANSWER_DOUBLE:
        doubler = 1 - side
        cube = cube_state(game, doubler)
        answer = await pool.run(cube_action_task, game.board_for(doubler).position_id(), cube, strength, seed, True)
        return EngineMove(Action.TAKE if answer == Action.TAKE else Action.DROP)
    if pending in (Pending.ANSWER_BEAVER, Pending.ANSWER_RACCOON):
        return EngineMove(Action.TAKE)
    if pending == Pending.ANSWER_RESIGNATION:
        return EngineMove(Action.ACCEPT_RESIGNATION)
    return None


async def engine_turns(service, match_id: int, pool, *, limit: int = MAX_TURNS) -> list[Outcome]:
    """Play the engine seat of practice match ``match_id`` until a member is to act or the match is over: each
    action chosen in ``pool`` (:func:`decide`) and applied through the unit of work with the version it was chosen
    at. Returns the outcomes in order (``[]`` when the engine is not to act, or a member acted first: the stale
    choice is dropped). At most ``limit`` actions. Raises what the use-cases raise (an engine failure:
    :class:`~club.analysis.AnalysisUnavailableError`)."""
    outcomes: list[Outcome] = []
    for _ in range(limit):
        table, version = await service.table_state(match_id)
        move = await decide(table, match_id, version, pool)
        if move is None:
            break
        engine_id = table.players[table.engine_side]
        call = getattr(service, move.kind)
        try:
            if move.kind == Action.PLAY:
                outcome = await call(match_id, engine_id, move.value, version=version)
            else:
                outcome = await call(match_id, engine_id, version=version)
        except StaleVersionError:
            break
        outcomes.append(outcome)
        if not outcome.view.engine_to_act:
            break
    return outcomes


def practice_title(view: TableView) -> str:
    """``practice: alice vs Open Sage (intermediate), 3-point match (#12)``."""
    what = f"{view.length}-point match" if view.length else "money session"
    return f"practice: {view.names[0]} vs {view.names[1]} ({view.strength}), {what} (#{view.match_id})"
