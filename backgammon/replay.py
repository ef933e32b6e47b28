"""Replay a parsed match file (:class:`~backgammon.matfile.MatchRecord`) through the game state machine.

Every roll, play and cube action of the file is applied to a :class:`~backgammon.game.Game` handed out by a
:class:`~backgammon.match.Match`, so the engine checks each one (RULES G2–G12, D1–D5, M1–M4). Each game's result is
**derived from the play** — the last checker borne off (G11), a drop (D2), a resignation (G12) or a forfeit (A2/M5) —
never taken from the file's ``Wins N`` text, which sites cap at the match length or inflate ("Wins 4016 point").
Every place where the file's own text disagrees with the replay is listed as a :class:`Discrepancy`; nothing in the
file makes the replay crash.

How the file's entries become actions (the same reading as GNU Backgammon's importer, ``import.c``):

- The first play of a game is the opening roll (RULES G2): its two dice are the two players' opening dice, the
  higher one the mover's. Opening ties are not written in ``.mat`` files; with automatic doubles (G3, money play)
  the game starts with the raises our ``; [AutomaticRaises "…"]`` header line records for it
  (:attr:`~backgammon.matfile.GameRecord.automatic_raises`), and in a file without that line the ties are inferred
  from the value of the game's first ``Doubles => N``.
- A play's text is parsed with :func:`~backgammon.notation.parse_play` against the game's position and dice, moves in
  any order; a joined move such as ``8/2`` whose routes differ takes the route that hits fewest blots, as GNU
  Backgammon's ``ExpandMatMove`` does ("no hits on the first part of the move").
- A roll with no move (empty, ``Cannot Move``, XG's ``????``) is the empty play when no move is possible (G9). When
  moves are possible and the game then ends by the opponent's ``Wins`` line (or the roller's ``Losses``), the player
  rolled and then resigned (or forfeited); otherwise the empty play is the game's illegal move.
- ``Doubles``, ``Beavers`` and ``Raccoons`` are all one thing to GNU Backgammon, a turn of the cube; which turn it is
  follows from the game: with no offer pending it is a double (RULES D1; a ``Beavers`` or ``Raccoons`` there is
  noted as a cube discrepancy); by the side that must answer a pending double it is a beaver, a pending beaver a
  raccoon, a pending raccoon a further beaver (RULES D3). So GNU Backgammon's own export, which writes every
  immediate redouble (the raccoon too) ``Beavers => N``, reads as the play went.
- After a ``Beavers`` entry GNU Backgammon's export leaves the take out: its reader takes the pending offer when
  the next roll comes. The replay does the same: a roll by the doubler, or a ``Wins`` line, while an offer made by a
  ``Beavers`` entry is pending is preceded by its take (RULES D3). (GNU Backgammon adds that take even when the file
  writes ``Takes`` — one doubling too many — and carries it into the next game after a dropped beaver; the writer,
  :func:`backgammon.matfile.format_mat`, writes beavers so that neither happens.)
- ``Wins N`` on a game the play has not ended is the loser's resignation, accepted (G12); its level is GNU
  Backgammon's: single if N ≤ cube, gammon if N ≤ 2 × cube, else backgammon. ``Losses N`` (Galaxy) is a forfeit by
  that side (:meth:`~backgammon.game.Game.forfeit`: valued per G11 on the board as it stands, at the cube); when
  the file then says ``Wins N point and the match`` the forfeit is of the match (RULES M5,
  :meth:`~backgammon.match.Match.forfeit`). GNU Backgammon does not read ``Losses``; it takes the ``Wins`` line for a
  resignation, so its points for such games differ from ours (its winner does not).

An illegal play (or an action the engine refuses: wrong turn, a double in the Crawford game…) stops that game: its
remaining entries are skipped, it has no result, and the next game starts from the score the file states for it.
A **lenient** replay (``replay(..., lenient=True)``, ``python -m backgammon replay --lenient``) imports what a real
site wrote, as GNU Backgammon's importer does: a double our rules refuse (the Crawford game, a dead cube, the cap,
the opponent's cube) and a play that is not legal but can be made checker by checker are applied as written
(:meth:`~backgammon.game.Game.impose`), each listed in :attr:`ReplayReport.warnings` with game and move; only what
cannot be applied at all (a checker that is not there, a closed point, a take with no double) still stops the game.

The Crawford rule (RULES M3) is the header's ``; [Crawford "On"/"Off"]`` (gnubg assumes on), or ``crawford=False``
(``--no-crawford``) for a match played without it.
:attr:`ReplayReport.first_illegal` names the first such move: game number, move (row) number, side and the reason
(the engine's message, e.g. the :class:`~backgammon.errors.IllegalPlayError` text listing the legal plays).

The code is split along its seams: :mod:`backgammon.replayreport` (what the replay reports),
:mod:`backgammon.replayrules` (the rules a file is replayed under); this module is the replay driver (which also
compares the replay with what the file declares: each game's winner and points, Galaxy's forfeit of the match, the
final score) and re-exports their public names.
"""

from __future__ import annotations

import contextlib
import dataclasses

from .errors import BackgammonError, NotationError, RuleSetError
from .game import Game, GameResult, Phase
from .match import Match
from .matfile import (
    BEAVER,
    DOUBLE,
    DROP,
    FORFEIT,
    PLAY,
    RACCOON,
    SET_POS,
    TAKE,
    WIN,
    Action,
    GameRecord,
    MatchRecord,
    xg_set_pos,
)
from .moves import Play, apply_move
from .notation import ROUTE_NO_HIT, parse_play, parse_segments
from .position import Position
from .replayreport import Discrepancy, GameReport, IllegalMove, ReplayReport
from .replayrules import default_rules, opening_ties
from .result import Ending
from .rules import RuleSet

__all__ = [
    "Discrepancy",
    "GameReport",
    "IllegalMove",
    "ReplayReport",
    "default_rules",
    "opening_ties",
    "replay",
]


# the immediate redouble a cube entry makes while an offer is pending (RULES D3), by the game's phase
_IMMEDIATE_REDOUBLE = {Phase.CUBE_OFFERED: "beaver", Phase.BEAVER_OFFERED: "raccoon", Phase.RACCOON_OFFERED: "beaver"}


def _resignation_level(points: int, cube: int) -> int:
    """GNU Backgammon's reading of ``Wins N`` without a bear-off or drop: 1 if N ≤ cube, 2 if N ≤ 2 cube, else 3."""
    if points <= cube:
        return 1
    if points <= 2 * cube:
        return 2
    return 3


def _quick_match(position: Position, dice: tuple[int, int], text: str, legal: list[Play]) -> Play | None:
    """The legal play that ``text`` spells move by move (each move one die, exact, in any order), or ``None``.

    A fast path for the common case (most file lines list single moves); anything else — joined moves, bear-offs
    with a larger die, a ``*`` that hits nothing, a text that reaches no legal play — is left to
    :func:`~backgammon.notation.parse_play`, which decides it and words the errors.
    """
    try:
        segments = parse_segments(text)
    except NotationError:
        return None
    d1, d2 = dice
    needed = [d1] * len(segments) if d1 == d2 else None
    distances = sorted(source - target for source, target, _ in segments)
    if needed is None:
        if len(segments) == 2:
            needed = sorted((d1, d2))
        elif len(segments) == 1 and distances[0] in (d1, d2):
            needed = distances
        else:
            return None
    if distances != needed:
        return None
    by_result = {play.position: play for play in legal}
    current = position
    for source, target, marked in sorted(segments, key=lambda seg: (-seg[0], -seg[1])):
        if not current.player[source - 1] or (target and current.opponent[24 - target] >= 2):
            return None
        current, hit = apply_move(current, source, target)
        if marked and not hit:
            return None
    return by_result.get(current)


def _entry_text(action: Action) -> str:
    if action.kind == PLAY:
        d1, d2 = action.dice or (0, 0)
        return f"{d1}{d2}: {action.text}".rstrip()
    return action.text


class _GameStopped(Exception):
    """Internal: the game cannot go on after an illegal entry."""


class _Replayer:
    def __init__(self, record: MatchRecord, rules: RuleSet, lenient: bool = False) -> None:
        self.record = record
        self.lenient = lenient
        self.rules = rules
        self.report = ReplayReport(record, rules)
        # a 1-point match has no Crawford game (both sides start at N-1); Match wants that said explicitly
        self.match = Match(rules, record.length, crawford_done=record.length == 1)
        self.crawford_seen = False
        self.names = record.players
        self.beaver_written = False  # the game's latest cube entry was "Beavers": its take may be left out

    # -- helpers ------------------------------------------------------------------------------------------------
    def note(self, game: int | None, line: int | None, kind: str, message: str) -> None:
        self.report.discrepancies.append(Discrepancy(game, line, kind, message))

    def who(self, side: int) -> str:
        return self.names[side]

    def illegal(self, report: GameReport, action: Action, reason: str) -> None:
        move = IllegalMove(report.number, action.number, action.side, action.line, _entry_text(action), reason)
        report.illegal = move
        report.notes.append(f"stopped at move {action.number}: the game cannot continue after an illegal entry")
        self.report.illegal_moves.append(move)
        raise _GameStopped

    def sync_match(self, record: GameRecord) -> bool:
        """Make the match's score the file's stated score for this game; False when the game must be skipped."""
        length = self.record.length
        stated = record.score
        if length and max(stated) >= length:
            self.note(
                record.number,
                record.line,
                "extra",
                f"game {record.number} starts at {stated[0]}-{stated[1]}, "
                f"after the {length}-point match was already over; not replayed",
            )
            return False
        if self.match.is_over or self.match.game_score() != stated:
            if len(self.report.games) > 1:  # a file may start mid-match; later games must follow on
                derived = self.match.score
                self.note(
                    record.number,
                    record.line,
                    "score",
                    f"the file starts game {record.number} at {stated[0]}-{stated[1]}; the replay reached "
                    f"{derived[0]}-{derived[1]}; replaying from the file's score",
                )
            crawford_done = self.crawford_seen and bool(length) and self.rules.crawford
            if length and self.rules.crawford and min(stated) == length - 1:
                crawford_done = True
            self.match = Match(self.rules, length, score=stated, crawford_done=crawford_done)
        return True

    # -- one game -----------------------------------------------------------------------------------------------
    def replay_game(self, record: GameRecord) -> None:
        report = GameReport(record.number, record.score)
        report.declared_winner = record.declared_winner
        report.declared_points = record.declared_points
        self.report.games.append(report)
        if not self.sync_match(record):
            report.skipped = True
            return
        game = self.match.new_game()
        report.game = game
        report.crawford = game.crawford_game
        if self.record.length and max(record.score) == self.record.length - 1:
            self.crawford_seen = True
        with contextlib.suppress(_GameStopped):
            self.play_entries(game, record, report)
        report.board = game.board_for(0)
        if game.result is not None:
            report.result = game.result
            self.match.record(game.result)
            self.check_declared(record, report, game.result)
            self.match_forfeit(record, report, game.result)
        elif report.illegal is None:
            report.notes.append("the file gives no result for this game")
            self.note(
                record.number,
                record.line,
                "unfinished",
                f"game {record.number} has no result: the play does not end it and the file declares none",
            )

    def play_entries(self, game: Game, record: GameRecord, report: GameReport) -> None:
        actions = record.actions
        self.beaver_written = False
        self.set_pos: Action | None = None
        ties = 0 if actions and actions[0].kind == SET_POS else opening_ties(record, self.rules)
        for _ in range(ties):
            game.opening_roll(1, 1)
        if ties:
            how = "recorded in the file" if record.automatic_raises is not None else "inferred from the first double"
            report.notes.append(f"{ties} opening tie(s) {how} (RULES G3)")
        for index, action in enumerate(actions):
            rest = actions[index + 1 :]
            if game.result is not None:
                if not action.is_result:
                    self.note(
                        record.number,
                        action.line,
                        "extra",
                        f"{_entry_text(action)!r} by "
                        f"{self.who(action.side)} comes after the end of game {record.number}; ignored",
                    )
                continue
            try:
                if action.kind == SET_POS:
                    self.take_set_pos(game, action, report)
                    continue
                if self.set_pos is not None:
                    self.start_from_set_pos(game, action, report)
                self.apply(game, action, rest, report)
            except _GameStopped:
                raise
            except BackgammonError as error:
                if not (self.lenient and self.impose(game, action, report, str(error))):
                    self.illegal(report, action, str(error))

    def impose(self, game: Game, action: Action, report: GameReport, reason: str) -> bool:
        """Lenient replay: apply a refused double or play as written (module docstring); True when it could be."""
        try:
            if action.kind in (DOUBLE, BEAVER, RACCOON) and game.phase == Phase.ROLL:
                game.impose(action.side, "double")
                self.check_cube(game, action, report)
            elif action.kind == PLAY and game.phase == Phase.PLAY and action.move_text:
                moves = [(source, target) for source, target, _ in parse_segments(action.move_text)]
                game.impose(action.side, "play", moves)
            else:
                return False
        except BackgammonError:
            return False
        move = IllegalMove(report.number, action.number, action.side, action.line, _entry_text(action), reason)
        self.report.warnings.append(move)
        report.notes.append(f"move {action.number} imported as written although our rules refuse it (lenient)")
        return True

    def take_set_pos(self, game: Game, action: Action, report: GameReport) -> None:
        """XG's ``; Set Pos=`` line (case BG28, :mod:`backgammon.matfile`): the game starts from that position and
        cube; who is on roll is the side of the next entry (gnubg sets the board and lets the next row decide). Only
        before the game's first roll: the engine sets a game up once, at its start."""
        if game.history:
            self.illegal(report, action, "a Set Pos line after the game has begun is not replayed (only at its start)")
        xg_set_pos(action.text)  # the reader checked it; raises only for a record built by hand
        self.set_pos = action

    def start_from_set_pos(self, game: Game, action: Action, report: GameReport) -> None:
        """Set the game up from the pending ``Set Pos`` with ``action``'s side on roll to roll (RULES M3 still holds:
        in the Crawford game the cube must be at 1, centred)."""
        pending = self.set_pos
        assert pending is not None  # called only while a Set Pos waits for the game's first roll
        position, value, owner = xg_set_pos(pending.text)
        line = pending.line
        self.set_pos = None
        game.apply(
            {
                "action": "setup",
                "board": position.position_id(),
                "on_roll": action.side,
                "dice": None,
                "cube": {"value": value, "owner": owner, "turned": owner is not None},
            }
        )
        report.notes.append(f"the game starts from XG's Set Pos (line {line}) with {self.who(action.side)} on roll")

    def apply(self, game: Game, action: Action, rest: list[Action], report: GameReport) -> None:
        side = action.side
        kind = action.kind
        if kind == PLAY:
            self.apply_play(game, action, rest, report)
        elif kind in (DOUBLE, BEAVER, RACCOON):
            self.apply_cube(game, action, report)
        elif kind == TAKE:
            game.take(side)
        elif kind == DROP:
            game.drop(side)
        elif kind == FORFEIT:
            game.forfeit(side)
        elif kind == WIN:
            self.take_implied(game, report)
            loser = 1 - side
            level = _resignation_level(action.value or 0, game.cube_value)
            game.resign(loser, level)
            game.accept_resignation(side)
            report.notes.append(
                f"{self.who(loser)} resigned ({('single game', 'gammon', 'backgammon')[level - 1]}), as the file's "
                f"{action.text!r} implies"
            )

    def apply_cube(self, game: Game, action: Action, report: GameReport) -> None:
        """A ``Doubles``/``Beavers``/``Raccoons`` entry: the turn of the cube the game's phase calls for (module
        docstring; GNU Backgammon reads all three as one cube turn)."""
        stage = _IMMEDIATE_REDOUBLE.get(game.phase)
        if stage is None:
            game.double(action.side)
            if action.kind != DOUBLE:
                self.note(
                    report.number,
                    action.line,
                    "cube",
                    f"{action.text!r} answers no double; read as a double (RULES D1), as GNU Backgammon reads it",
                )
        else:
            getattr(game, stage)(action.side)
        self.beaver_written = action.kind == BEAVER
        self.check_cube(game, action, report)

    def take_implied(self, game: Game, report: GameReport) -> None:
        """Before a roll by the doubler or a ``Wins`` line: an offer made by a ``Beavers`` entry and still pending
        was taken, the file leaving the take out as GNU Backgammon's export does (RULES D3; module docstring)."""
        responder = game.cube.responder
        if self.beaver_written and game.phase in _IMMEDIATE_REDOUBLE and responder is not None:
            value = game.offered_value
            game.take(responder)
            report.notes.append(
                f"{self.who(responder)} took the cube at {value}: the file leaves the take after 'Beavers' out, as "
                "GNU Backgammon's export does (RULES D3)"
            )

    def check_cube(self, game: Game, action: Action, report: GameReport) -> None:
        if action.value is not None and game.offered_value != action.value:
            self.note(
                report.number,
                action.line,
                "cube",
                f"{action.text!r}: the cube is turned to {game.offered_value} here (RULES D1, D3)",
            )

    def apply_play(self, game: Game, action: Action, rest: list[Action], report: GameReport) -> None:
        side = action.side
        d1, d2 = action.dice or (0, 0)
        if game.phase == Phase.OPENING:
            if d1 == d2:
                self.illegal(
                    report,
                    action,
                    f"the opening roll cannot be a doublet {d1}-{d2}: each side rolls one "
                    "die and a tie is rolled again (RULES G2)",
                )
            high, low = max(d1, d2), min(d1, d2)
            game.opening_roll(*((high, low) if side == 0 else (low, high)))
            if game.on_roll != side:  # pragma: no cover - the higher die is given to the mover
                self.illegal(report, action, "the opening roll does not give the move to this side (RULES G2)")
        else:
            if side == game.cube.doubler:
                self.take_implied(game, report)
            game.roll(side, (d1, d2))
        text = action.move_text
        legal = game.legal_plays()
        if not text and legal and legal[0].moves:
            ends_now = [a for a in rest if not a.is_result] == [] and any(
                (a.kind == WIN and a.side != side) or (a.kind == FORFEIT and a.side == side) for a in rest
            )
            if ends_now:
                report.notes.append(f"{self.who(side)} rolled {d1}{d2} at move {action.number} and then resigned")
                return
        if not text:
            game.play(side, "")
            return
        chosen = _quick_match(game.position, (d1, d2), text, legal)
        if chosen is None:  # a NotationError goes to play_entries: illegal, or imposed in a lenient replay
            chosen = parse_play(game.position, (d1, d2), text, route_policy=ROUTE_NO_HIT)
        game.play(side, chosen)

    # -- what the file declares (RULES G11, G12, M1, M5) ----------------------------------------------------------
    def check_declared(self, record: GameRecord, report: GameReport, result: GameResult) -> None:
        action = record.result_action
        names = self.names
        if action is None:
            self.note(
                record.number,
                record.line,
                "winner",
                f"game {record.number}: the file declares no result; "
                f"the replay has {names[result.winner]} winning {result.points} ({result.ended_by})",
            )
            return
        declared_winner = record.declared_winner
        if declared_winner is not None and declared_winner != result.winner:
            self.note(
                record.number,
                action.line,
                "winner",
                f"game {record.number}: the file says "
                f"{names[declared_winner]} won ({action.text!r}); the replay has {names[result.winner]} winning "
                f"{result.points} ({result.ended_by})",
            )
            return
        for extra in record.actions:
            if extra.kind == FORFEIT and extra.side == result.winner:
                self.note(
                    record.number,
                    extra.line,
                    "winner",
                    f"game {record.number}: {extra.text!r} is written for the winner {names[result.winner]}",
                )
        declared = record.declared_points
        if declared is not None and declared != result.points:
            length = self.record.length
            needed = length - record.score[result.winner] if length else None
            why = ""
            if needed is not None and declared == needed and result.points > needed:
                why = " (the file caps it at the points needed)"
            elif length and declared == length and result.points != length:
                why = " (the file writes the match length)"
            self.note(
                record.number,
                action.line,
                "points",
                f"game {record.number}: the file says {action.text!r}; "
                f"the replay scores {result.points} for {names[result.winner]} ({result.kind}, {result.ended_by}, "
                f"cube {result.cube}){why}",
            )

    def match_forfeit(self, record: GameRecord, report: GameReport, result: GameResult) -> None:
        """Galaxy's ``Losses N point`` with ``Wins N point and the match``: the loser forfeits the match (RULES M5)."""
        declared = record.result_action
        if result.ended_by != Ending.FORFEIT or declared is None or not declared.match or self.match.is_over:
            return
        if self.record.length:
            self.match.forfeit(result.loser)
            report.notes.append(
                f"{self.who(result.loser)} forfeits the match (RULES M5), as the file's {declared.text!r} says"
            )

    def finish(self) -> ReplayReport:
        report = self.report
        report.score = self.match.score
        report.raw_score = self.match.points_won
        report.winner = self.match.winner
        length = self.record.length
        claims = [g for g in self.record.games if g.result_action is not None and g.result_action.match]
        if length and report.winner is None:
            self.note(
                None,
                None,
                "match",
                f"the match is not over by the replay: {report.score[0]}-{report.score[1]} in a {length}-point match",
            )
        if claims and report.winner is not None:
            last = claims[-1]
            claim, claimed = last.result_action, last.declared_winner
            if claim is not None and claimed is not None and claimed != report.winner:
                self.note(
                    last.number,
                    claim.line,
                    "match",
                    f"the file says {self.names[claimed]} won the match; the replay has {self.names[report.winner]}",
                )
        return report


def replay(
    record: MatchRecord,
    rules: RuleSet | None = None,
    *,
    jacoby: bool = False,
    beavers: bool = False,
    automatic_doubles: int = 0,
    lenient: bool = False,
    crawford: bool | None = None,
) -> ReplayReport:
    """Replay every game of ``record`` and report each game's derived result, the final score, every discrepancy
    between the file's text and the replay, and every illegal entry (the first is :attr:`ReplayReport.first_illegal`).

    ``rules`` defaults to :func:`default_rules` (built with ``jacoby``, ``beavers``, ``automatic_doubles``, which
    apply to money sessions only, and ``crawford``; with ``rules`` given, ``crawford`` not ``None`` replaces its
    Crawford setting). ``lenient`` imports entries our rules refuse as written, each a warning (module docstring).
    Never raises for anything in the file; raises
    :class:`~backgammon.errors.RuleSetError` when ``rules`` (or the options) do not suit the match length
    (RULES G3, M2, D3).
    """
    if rules is None:
        rules = default_rules(
            record, jacoby=jacoby, beavers=beavers, automatic_doubles=automatic_doubles, crawford=crawford
        )
    elif not isinstance(rules, RuleSet):
        raise RuleSetError(f"rules must be a RuleSet, not {type(rules).__name__}")
    else:
        if crawford is not None and crawford != rules.crawford:
            rules = dataclasses.replace(rules, crawford=crawford)
        rules.validate_for(record.length)
    replayer = _Replayer(record, rules, lenient)
    for game in record.games:
        replayer.replay_game(game)
    return replayer.finish()
