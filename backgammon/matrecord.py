"""The entries of a ``.mat`` match file as data (RULES A4): the action kinds, :class:`Action`, :class:`GameRecord`,
:class:`MatchRecord`, and :func:`xg_set_pos` for XG's ``; Set Pos=`` line (positions-2.json BG28). The format is
described in :mod:`backgammon.matfile`, which re-exports every name here; the reader is
:mod:`backgammon.matread`, the writer :mod:`backgammon.matwrite`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import MatchFileError
from .position import Position

# Action kinds. A "play" is a roll and the play of it (possibly empty); "win" and "forfeit" are the declared result.
PLAY = "play"
DOUBLE = "double"
TAKE = "take"
DROP = "drop"
BEAVER = "beaver"
RACCOON = "raccoon"
WIN = "win"
FORFEIT = "forfeit"
SET_POS = "set_pos"  # XG's "; Set Pos=<position>/<cube>" line inside a game (positions-2.json BG28)
KINDS = (PLAY, DOUBLE, TAKE, DROP, BEAVER, RACCOON, WIN, FORFEIT, SET_POS)
RESULT_KINDS = (WIN, FORFEIT)

LEFT, RIGHT = 0, 1

_NO_MOVE_TEXTS = {"", "cannot move", "can't move", "no move"}
_UNKNOWN_MOVE = re.compile(r"^\?{3,}$")

_RAISES_KEY = "AutomaticRaises"  # header line of the games whose opening ties raised the cube (RULES G3)
_SET_POS = "; Set Pos="  # XG's extension, read as GNU Backgammon's import.c ImportGame reads it


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game: what ``side`` (0 = left/first-named player, 1 = right) did.

    ``kind`` is one of :data:`KINDS`: ``"play"`` (``dice`` rolled and ``text`` played; ``text`` exactly as written,
    ``""`` for no move), ``"double"``/``"beaver"``/``"raccoon"`` (``value`` = the cube value offered, RULES D1/D3),
    ``"take"``, ``"drop"`` (RULES D2), ``"win"`` (``value`` points declared won, ``match`` when the file adds
    "and the match"), ``"forfeit"`` (Galaxy's ``Losses N point``: ``side`` loses, ``value`` points; RULES A2/M5),
    ``"set_pos"`` (XG's ``; Set Pos=`` line: ``text`` holds the position and cube, :func:`xg_set_pos` reads it).
    ``number`` is the row number in the file (the last row's for an unnumbered line), ``line`` the 1-based line.
    """

    number: int
    side: int
    kind: str
    dice: tuple[int, int] | None = None
    text: str = ""
    line: int = 0
    value: int | None = None
    match: bool = False

    @property
    def is_result(self) -> bool:
        """True for the declared-result entries (``win``, ``forfeit``), which the replay checks but never obeys."""
        return self.kind in RESULT_KINDS

    @property
    def unknown_move(self) -> bool:
        """True for a play written as ``????`` (XG: the player rolled and then resigned)."""
        return self.kind == PLAY and bool(_UNKNOWN_MOVE.match(self.text.strip()))

    @property
    def move_text(self) -> str:
        """The play's notation with "no move" spellings (``Cannot Move``, ``????``, empty) reduced to ``""``."""
        text = self.text.strip()
        if text.lower() in _NO_MOVE_TEXTS or _UNKNOWN_MOVE.match(text):
            return ""
        return text


def xg_set_pos(text: str) -> tuple[Position, int, int | None]:
    """XG's ``Set Pos`` value (the 26 position characters, ``/``, the cube; module docstring) as
    ``(position seen by the left player (side 0), cube value, cube owner 0/1 or None)``, as gnubg's
    ``PositionFromXG`` and ``ImportGame`` read it (case BG28). Raises :class:`MatchFileError` for a character outside
    ``-``, ``A``–``P``, ``a``–``p``, a checker of the wrong colour on a bar index, or a bad cube, and
    :class:`~backgammon.errors.InvalidPositionError` for an impossible position (gnubg ``CheckPosition``)."""
    if len(text) < 28 or text[26] != "/":
        raise MatchFileError(f"Set Pos {text!r}: expected 26 position characters, '/' and the cube, e.g. '.../0'")
    left = [0] * 25
    right = [0] * 25
    for index, char in enumerate(text[:26]):
        if char == "-":
            continue
        if "A" <= char <= "P" and index > 0:
            left[index - 1] = ord(char) - ord("A") + 1  # index 25: the left player's bar (left[24])
        elif "a" <= char <= "p" and index < 25:
            right[24 - index if index else 24] = ord(char) - ord("a") + 1  # index 0: the right player's bar
        else:
            raise MatchFileError(
                f"Set Pos {text!r}: {char!r} at index {index}; expected '-', 'A'-'P' (left player, indexes 1-25) or "
                "'a'-'p' (right player, indexes 0-24)"
            )
    cube = text[27:]
    if cube[:1] == "0":
        value, owner = 1, None
    elif cube[:1] == "-" and cube[1:2].isdigit():
        value, owner = 1 << int(cube[1]), 0
    elif cube[:1].isdigit():
        value, owner = 1 << int(cube[0]), 1
    else:
        raise MatchFileError(f"Set Pos {text!r}: the cube is '0' (centred), '-n' (left owns 2^n) or 'n' (right owns)")
    return Position(tuple(left), tuple(right)), value, owner


@dataclass(slots=True)
class GameRecord:
    """One game of a match file: ``number`` (from `` Game N``), the ``score`` (player 0, player 1) at its start,
    its ``actions`` in file order, and ``line`` (1-based) of the ``Game`` line. The declared result is the game's
    ``win`` action (or, failing that, its ``forfeit``); see :attr:`declared_winner` and :attr:`declared_points`.
    ``automatic_raises`` is how many opening ties raised the cube (RULES G3), ``None`` when the file does not say
    (no ``; [AutomaticRaises "…"]`` header line, module docstring)."""

    number: int
    score: tuple[int, int]
    actions: list[Action] = field(default_factory=list)
    line: int = 0
    automatic_raises: int | None = None

    @property
    def result_action(self) -> Action | None:
        """The ``win`` action of the game, else its ``forfeit`` action, else ``None`` (no result declared)."""
        wins = [a for a in self.actions if a.kind == WIN]
        if wins:
            return wins[-1]
        forfeits = [a for a in self.actions if a.kind == FORFEIT]
        return forfeits[-1] if forfeits else None

    @property
    def declared_winner(self) -> int | None:
        """The side the file says won (0/1), or ``None``."""
        action = self.result_action
        if action is None:
            return None
        return action.side if action.kind == WIN else 1 - action.side

    @property
    def declared_points(self) -> int | None:
        """The points the file says were won (as written: sites cap or inflate them), or ``None``."""
        action = self.result_action
        return None if action is None else action.value

    @property
    def result_text(self) -> str | None:
        """The declared result as written (``"Wins 2 points and the match"``), or ``None``."""
        action = self.result_action
        return None if action is None else action.text


@dataclass(slots=True)
class MatchRecord:
    """A parsed match file: ``length`` in points (0 = money), ``players`` (left, right) names, their ``ratings``
    (the ``,1770`` of FIBS/GamesGrid player lines, or ``None``), ``header`` (``; [Key "Value"]`` lines, in order),
    other ``comments`` of the header, the ``games``, and the ``warnings`` of a lenient reading (entries left out)."""

    length: int
    players: tuple[str, str]
    header: dict[str, str] = field(default_factory=dict)
    games: list[GameRecord] = field(default_factory=list)
    ratings: tuple[str | None, str | None] = (None, None)
    comments: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
