"""What the replay of a match file reports (:func:`backgammon.replay.replay`): :class:`ReplayReport` for the match,
one :class:`GameReport` per game, each :class:`IllegalMove` the engine refuses (RULES G10) and each
:class:`Discrepancy` between the file's text and the play. Split out of :mod:`backgammon.replay`, which re-exports
these names."""

from __future__ import annotations

from dataclasses import dataclass, field

from .game import Game, GameResult
from .matfile import MatchRecord
from .position import Position
from .rules import RuleSet


@dataclass(frozen=True, slots=True)
class IllegalMove:
    """An entry of the file the engine refuses: ``game`` (the file's game number), ``move`` (row number), ``side``
    (0 left / 1 right), ``line`` (1-based), ``text`` as written (``"64: 25/21 25/19"``), ``reason`` (the engine's
    message: an :class:`~backgammon.errors.IllegalPlayError`'s lists the legal plays, RULES G10)."""

    game: int
    move: int
    side: int
    line: int
    text: str
    reason: str

    def describe(self, players: tuple[str, str] | None = None) -> str:
        """One line for people: ``game 3, move 33 (Bruno, line 77): 64: 25/21 25/19 — <reason>``."""
        who = players[self.side] if players else f"side {self.side}"
        return f"game {self.game}, move {self.move} ({who}, line {self.line}): {self.text} — {self.reason}"


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """A place where the file's own text disagrees with the replay: ``game`` number (``None`` for the match as a
    whole), ``line`` (1-based, ``None`` if no single line), ``kind`` (``"points"``, ``"winner"``, ``"score"``,
    ``"cube"``, ``"unfinished"``, ``"extra"``, ``"match"``) and a ``message`` for people."""

    game: int | None
    line: int | None
    kind: str
    message: str


@dataclass(slots=True)
class GameReport:
    """The replay of one game: ``number`` (the file's), ``score`` the file states at its start (sides 0, 1),
    ``crawford`` (the Crawford game, RULES M3), ``result`` (derived, or ``None`` when the game has none),
    ``declared_winner``/``declared_points`` (the file's ``Wins``/``Losses`` text), ``illegal`` (the move that stopped
    the game), ``skipped`` (not replayed: the match was already over), ``notes`` for people and ``board``, the
    position where the replay of the game ended (seen by side 0; before the illegal move if there was one); ``game``
    is the replayed :class:`~backgammon.game.Game` itself (its ``history`` lists every action applied; ``None`` for a
    skipped game), what an analysis walks."""

    number: int
    score: tuple[int, int]
    crawford: bool = False
    result: GameResult | None = None
    declared_winner: int | None = None
    declared_points: int | None = None
    illegal: IllegalMove | None = None
    skipped: bool = False
    notes: list[str] = field(default_factory=list)
    board: Position | None = None
    game: Game | None = None


@dataclass(slots=True)
class ReplayReport:
    """The replay of a whole match file: the ``record``, the ``rules`` used, one :class:`GameReport` per game, the
    derived ``score`` (capped at the length when ``rules.cap_match_score``, RULES M1) and ``raw_score``, the match
    ``winner`` (``None`` if the match is not over), every :class:`Discrepancy`, every :class:`IllegalMove`, and in a
    lenient replay the ``warnings``: each entry our rules refuse that was imported as written (game, move, reason)."""

    record: MatchRecord
    rules: RuleSet
    games: list[GameReport] = field(default_factory=list)
    score: tuple[int, int] = (0, 0)
    raw_score: tuple[int, int] = (0, 0)
    winner: int | None = None
    discrepancies: list[Discrepancy] = field(default_factory=list)
    illegal_moves: list[IllegalMove] = field(default_factory=list)
    warnings: list[IllegalMove] = field(default_factory=list)

    @property
    def first_illegal(self) -> IllegalMove | None:
        """The first entry the engine refused, or ``None`` when every move replayed."""
        return self.illegal_moves[0] if self.illegal_moves else None

    @property
    def ok(self) -> bool:
        """True when every move replayed (discrepancies in the file's own text do not count)."""
        return not self.illegal_moves
