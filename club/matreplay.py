"""Play a real match file through the use-case layer (``python bot.py replay FILE.mat``).

Where :mod:`backgammon.replay` checks a file against the rules engine alone, this drives the club exactly as members
would: a challenge and its acceptance, then every roll, play, double, take, drop, beaver, raccoon, resignation and
forfeit of the file as a :class:`~club.service.ClubService` call, each one loading the match from SQLite, applying
it, appending to the action log and saving — so the dice (injected from the file), the auto-played forced plays and
passes (RULES G7, G9), the next game's automatic start, the Crawford game (RULES M3) and the match score (RULES M1)
all come from the club's own code. Every call's :class:`~club.results.Outcome` goes to ``on_outcome`` (the CLI
writes a board image when ``outcome.image_due``).

How the file's entries become calls (the reading of :mod:`backgammon.replay`): the first play of a game is the
opening roll (one die each, the higher the mover's, RULES G2); a play is rolled for with ``roll`` then played as
written, joined moves read the way GNU Backgammon reads them (the rule set's ``joined_move_routes="no_hit"``); a
play the club already made by itself (forced, or no legal move) is skipped; an empty play where moves were possible,
followed by the opponent's ``Wins``, is a roll and then a resignation; ``Wins N`` on a game the play has not ended is
the loser's resignation at GNU Backgammon's level, accepted (RULES G12); Galaxy's ``Losses N`` is a forfeit at the
time limit, of the match when the file says "and the match" (RULES A2, M5).

The rule set and the score semantics are those of ``python -m backgammon replay`` (:func:`backgammon.replay.replay`):
:func:`~backgammon.replay.default_rules` with the same options (``jacoby``, ``beavers``, ``automatic_doubles``,
``crawford``; money sessions take the file's own ``; [Jacoby "On"]``-style header lines too), and in a money session
the player lines' scores are each side's running total of points won (as GNU Backgammon and our exports write them),
compared with what the club has each side winning since the file's first game — not with the club's signed net
score. Opening ties that raised the cube (RULES G3; the file's ``; [AutomaticRaises "…"]`` line, else inferred from
the first double) are rolled as ties before the game's opening roll.

The club cannot skip an illegal entry or start a game at another score than its own, so a file the engine reports
an illegal move in, or whose stated scores disagree with the play, stops at that entry with the reason in
:attr:`MatReplay.problems`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from backgammon.errors import BackgammonError
from backgammon.game import Action
from backgammon.matfile import BEAVER, DOUBLE, DROP, FORFEIT, PLAY, RACCOON, TAKE, WIN, GameRecord, MatchRecord
from backgammon.replay import default_rules, opening_ties
from backgammon.rules import PRESETS, RuleSet
from storage import Database

from .clock import Clock, ManualClock
from .dice import derive_dice
from .errors import InvalidRequestError
from .results import Outcome
from .service import ClubService
from .table import MatchStatus, TableAction, TableEvent

OutcomeHook = Callable[[Outcome], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class GameLine:
    """One finished game: its ``number``, the ``winner`` side and name, ``points`` scored, ``kind``
    (single/gammon/backgammon) and how it ended (``ended_by``: play, drop, resignation, forfeit), and the match
    ``score`` after it."""

    number: int
    winner: int
    winner_name: str
    points: int
    kind: str
    ended_by: str
    score: tuple[int, int]

    def describe(self) -> str:
        """``Game 3: Alice wins 2 points (gammon, play) — 5–2``."""
        plural = "" if self.points == 1 else "s"
        return (
            f"Game {self.number}: {self.winner_name} wins {self.points} point{plural} ({self.kind}, {self.ended_by})"
            f" — {self.score[0]}–{self.score[1]}"
        )


@dataclass(slots=True)
class MatReplay:
    """The result of playing a file through the club: the ``match_id`` it was stored as, the ``names``, each
    finished game (:class:`GameLine`), the final ``score`` and match ``winner`` (None if the file ends before the
    match does), the number of use-case ``calls`` made, ``notes`` for people, and ``problems`` (why the replay
    stopped early, if it did)."""

    match_id: int
    names: tuple[str, str]
    length: int
    games: list[GameLine] = field(default_factory=list)
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    status: str = ""
    calls: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every entry of the file was played through the club."""
        return not self.problems

    def describe(self) -> str:
        """Each game's result and the final score, one line each."""
        lines = [game.describe() for game in self.games]
        what = f"{self.length}-point match" if self.length else "money session"
        final = f"Final score: {self.names[0]} {self.score[0]} – {self.names[1]} {self.score[1]} ({what}"
        if self.winner is not None:
            final += f", won by {self.names[self.winner]})"
        else:
            final += ", not finished in the file)"
        lines.append(final)
        lines += [f"Note: {note}" for note in self.notes]
        lines += [f"PROBLEM: {problem}" for problem in self.problems]
        return "\n".join(lines)


def _resignation_level(points: int, cube: int) -> int:
    """GNU Backgammon's reading of ``Wins N`` without a bear-off or a drop: 1 if N ≤ cube, 2 if N ≤ 2 cube, else 3."""
    if points <= cube:
        return 1
    return 2 if points <= 2 * cube else 3


def _file_rolls(record: MatchRecord, rules: RuleSet | None = None) -> dict[int, list[tuple[int, int]]]:
    """Each game's rolls in the order the club will ask for them: the opening ties that raised the cube (RULES G3,
    :func:`backgammon.replay.opening_ties` under ``rules``), the opening roll (side 0's die, side 1's die, RULES G2)
    from the first play, then every later play's dice."""
    rolls: dict[int, list[tuple[int, int]]] = {}
    for index, game in enumerate(record.games, start=1):
        plays = [(action.side, action.dice) for action in game.actions if action.kind == PLAY and action.dice]
        sequence: list[tuple[int, int]] = [(3, 3)] * (opening_ties(game, rules) if rules is not None else 0)
        if plays:
            first_side, first = plays[0]
            high, low = max(first), min(first)
            if high == low:  # an opening doublet cannot happen (RULES G2); the club will refuse the play
                high, low = 2, 1
            sequence.append((high, low) if first_side == 0 else (low, high))
            sequence += [(dice[0], dice[1]) for _side, dice in plays[1:]]
        else:
            sequence.append((2, 1))  # a game with no play at all: any opening, then the declared result
        rolls[index] = sequence
    return rolls


class _FileDice:
    """The dice injector: roll ``counter`` of game ``number`` is the file's (see :func:`_file_rolls`). When the
    file ends before the match does, the club still starts the next game by itself (RULES M1): that game's opening
    roll, which the file cannot give, is derived from a fixed seed (the game is marked 'injected' like the rest)."""

    def __init__(self, rolls: dict[int, list[tuple[int, int]]]) -> None:
        self.rolls = rolls
        self.beyond: list[int] = []

    def __call__(self, match_id: int, game_number: int, counter: int) -> tuple[int, int]:
        sequence = self.rolls.get(game_number)
        if sequence is None and counter == 0:
            self.beyond.append(game_number)
            d1, d2 = derive_dice(b"bgclub: after the end of the file", game_number)
            return (d1, d2) if d1 != d2 else (2, 1)
        if sequence is not None and counter < len(sequence):
            return sequence[counter]
        raise InvalidRequestError(f"the file has no roll {counter + 1} in game {game_number}")


def replay_rules(record: MatchRecord, **options) -> tuple[str, dict]:
    """The preset and overrides a file is played under: :func:`backgammon.replay.default_rules` (tournament rules,
    the header's Crawford setting, Galaxy's forfeit valuation; ``options`` ``jacoby``, ``beavers``,
    ``automatic_doubles``, ``crawford`` as ``python -m backgammon replay`` takes them) with GNU Backgammon's reading of
    joined moves. Raises :class:`~backgammon.errors.RuleSetError` for money options on a match (RULES G3, M2, D3)."""
    rules = default_rules(record, **options).to_json()
    base = PRESETS["tournament"].to_json()
    overrides = {key: value for key, value in rules.items() if value != base[key]}
    overrides["joined_move_routes"] = "no_hit"
    return "tournament", overrides


class _Driver:
    def __init__(self, service: ClubService, record: MatchRecord, players: tuple[int, int], hook: OutcomeHook | None,
                 result: MatReplay, challenge: Outcome) -> None:  # fmt: skip
        self.service = service
        self.record = record
        self.players = players
        self.hook = hook
        self.outcome = challenge
        self.result = result
        self.rolls = 0  # rolls made in the current game (the opening included)
        self.plays = 0  # plays made in the current game (auto-played ones included)
        self.game_over = False
        self.current = 0

    def club_score(self) -> tuple[int, int]:
        """The club's score in the file's terms: a match's score; in a money session each side's points won, counted
        from the file's first game's totals (the player lines' running totals, as ``backgammon.replay`` reads
        them), not the club's signed net score."""
        if self.record.length:
            return self.outcome.view.score[0], self.outcome.view.score[1]
        first = self.record.games[0].score if self.record.games else (0, 0)
        won = [first[0], first[1]]
        for line in self.result.games:
            won[line.winner] += line.points
        return (won[0], won[1])

    async def call(self, action: str, side: int, *args) -> Outcome:
        outcome = await getattr(self.service, action)(self.result.match_id, self.players[side], *args)
        await self.take(outcome)
        return outcome

    async def take(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.result.calls += 1
        for event in outcome.events:
            if event.kind == TableAction.NEW_GAME:
                self.current = event.data["number"]
                self.rolls = self.plays = 0
                self.game_over = False
            elif event.kind == Action.ROLL or (event.kind == Action.OPENING_ROLL and not event.data.get("tie")):
                self.rolls += 1
            elif event.kind == Action.PLAY:
                self.plays += 1
            elif event.kind == TableEvent.GAME_OVER:
                self.game_over = True
                result = event.data["result"]
                score = tuple(event.data["score"])
                self.result.games.append(GameLine(
                    event.data["number"], result["winner"], self.result.names[result["winner"]], result["points"],
                    result["kind"], result["ended_by"], (score[0], score[1]),
                ))  # fmt: skip
        if self.hook is not None:
            maybe = self.hook(outcome)
            if maybe is not None:
                await maybe

    async def game(self, number: int, game: GameRecord) -> None:
        if self.current != number:
            raise InvalidRequestError(
                f"the file's game {number} starts at {game.score[0]}-{game.score[1]}, but the club is at game "
                f"{self.current} ({self.outcome.view.score[0]}-{self.outcome.view.score[1]})"
            )
        if tuple(game.score) != self.club_score():
            club = self.club_score()
            what = "running totals of points won" if not self.record.length else "score"
            raise InvalidRequestError(
                f"the file starts game {number} at {game.score[0]}-{game.score[1]}; the club's {what} "
                f"{'are' if not self.record.length else 'is'} {club[0]}-{club[1]}"
            )
        index = 0
        actions = game.actions
        for position, action in enumerate(actions):
            if self.game_over or self.current != number:  # ended (a drop, the last checker off …): the rest is extra
                break
            side, kind = action.side, action.kind
            try:
                if kind == PLAY:
                    rest = actions[position + 1 :]
                    await self.play(number, index, side, action.move_text, rest)
                    index += 1
                elif kind in (DOUBLE, BEAVER, RACCOON, TAKE, DROP):
                    await self.call(kind, side)
                elif kind == WIN:
                    cube = self.outcome.view.game.cube_value
                    await self.call("resign", 1 - side, _resignation_level(action.value or 0, cube))
                    await self.call("accept_resignation", side)
                elif kind == FORFEIT:
                    declared = game.result_action
                    what = "forfeit_match" if declared is not None and declared.match else "forfeit"
                    outcome = await self.service.expire(self.result.match_id, side, what, version=self.outcome.version)
                    await self.take(outcome)
            except BackgammonError as error:
                raise InvalidRequestError(
                    f"game {number}, move {action.number} ({self.result.names[side]}, line {action.line}): {error}"
                ) from error

    async def play(self, number: int, index: int, side: int, text: str, rest) -> None:
        if self.plays > index:  # the club played it by itself (a forced play or no legal move)
            return
        if self.rolls <= index:
            await self.call("roll", side)
            if self.plays > index or self.game_over or self.current != number:
                return
        if not text:
            ends_now = all(a.is_result for a in rest) and any(
                (a.kind == WIN and a.side != side) or (a.kind == FORFEIT and a.side == side) for a in rest
            )
            if ends_now:  # rolled, then resigned (or ran out of time): the result entry follows
                return
        await self.call("play", side, text)


async def replay_match_file(
    database: Database,
    record: MatchRecord,
    *,
    guild_id: int = 1,
    players: tuple[int, int] = (1, 2),
    clock: Clock | None = None,
    on_outcome: OutcomeHook | None = None,
    jacoby: bool = False,
    beavers: bool = False,
    automatic_doubles: int = 0,
    crawford: bool | None = None,
) -> MatReplay:
    """Play ``record`` (a parsed ``.mat`` file) through a :class:`~club.service.ClubService` on ``database``, as
    members ``players`` (registered in guild ``guild_id`` under the file's names; auto-roll off so that each roll
    is the file's). ``on_outcome(outcome)`` (sync or async) sees every use-case call's result. ``jacoby``,
    ``beavers``, ``automatic_doubles`` and ``crawford`` as :func:`replay_rules` (the options of
    ``python -m backgammon replay``). Never raises for anything in the file: a stop is reported in
    :attr:`MatReplay.problems`; raises :class:`~backgammon.errors.RuleSetError` when the options do not suit the
    file (money options on a match)."""
    preset, overrides = replay_rules(
        record, jacoby=jacoby, beavers=beavers, automatic_doubles=automatic_doubles, crawford=crawford
    )
    rules = default_rules(
        record, jacoby=jacoby, beavers=beavers, automatic_doubles=automatic_doubles, crawford=crawford
    )
    dice = _FileDice(_file_rolls(record, rules))
    service = ClubService(database, clock=clock or ManualClock(), dice=dice)
    names = (record.players[0].strip() or "Player 1", record.players[1].strip() or "Player 2")
    if names[0] == names[1]:
        names = (names[0] + " (1)", names[1] + " (2)")
    for user, name in zip(players, names, strict=True):
        await service.register(guild_id, user, name)
        await service.set_preferences(user, auto_roll=False)
    challenge = await service.challenge(
        guild_id, players[0], players[1], length=record.length, rules=preset, overrides=overrides
    )
    result = MatReplay(challenge.match_id, names, record.length)
    driver = _Driver(service, record, players, on_outcome, result, challenge)
    await driver.take(challenge)
    try:
        await driver.call("accept", 1)
        for number, game in enumerate(record.games, start=1):
            if driver.outcome.view.status != MatchStatus.ACTIVE:
                result.problems.append(f"the file goes on after the match ended (game {number} not played)")
                break
            await driver.game(number, game)
    except (BackgammonError, LookupError) as error:
        result.problems.append(str(error))
    view = await service.state(result.match_id)
    if dice.beyond and view.status == MatchStatus.ACTIVE:
        result.notes.append(
            f"the file ends during the match: the club has started game {dice.beyond[0]} by itself "
            "(its opening roll is not from the file)"
        )
    result.score = view.score
    result.winner = view.winner
    result.status = view.status
    return result
