"""The Jellyfish / GNU Backgammon ``.mat`` match format: read every dialect, write GNU Backgammon's own layout.

A ``.mat`` file is text (RULES A4: the export that analysis programs import)::

    ; [Site "FIBS"]                       optional header lines ``; [Key "Value"]`` (other ``;``/``#`` lines: comments)
     7 point match                       the match length (0 = money session)

     Game 1
     Alice : 0                   Bruno : 0                   player lines with the score at the start of the game
      1)                             41: 13/9 24/23          numbered rows: the left (player 0) and right column
      2) 31: 6/5 8/5                 41: 6/5 9/5             (player 1); ``41:`` is the roll, then the play
      3)  Doubles => 2                Takes
      4)  Drops                       Wins 1 point           the declared result of the game

Dialects read (``../shared/cases/matches/``): ``25/21`` or ``bar/21``; ``6/0`` or ``6/off``; ``(2)`` repeats; dice in
either order; ``Cannot Move``, an empty move or XG's ``????`` (rolled, then resigned); ratings in player lines
(``Name,1770 : 0``); cube lines on a row of their own or sharing one with a play; ``Drops`` and ``Wins`` split over two
lines; ``Wins`` on a line of its own at any column; CRLF endings and a UTF-8 byte-order mark; ``; [Crawford "On"]``
header lines; Galaxy's ``Losses N point`` (a forfeit, RULES A2/M5), also when Galaxy repeats the row number in the right
column (``14)  Losses 1 point``: a new row) or writes it at the left margin after the right player's move.

Which column an action is in decides its side. On a numbered row with two actions the first is the left player's; a
lone action is the right player's when it stands more than three spaces after the ``)``. On an unnumbered line an
action starting before column 15 is the left player's (GNU Backgammon's own rule: it splits such lines at the first
double space after column 15). A Galaxy ``Losses`` line of its own whose column gives it to the side of the game's
``Wins`` line is given to the other side (the loser cannot also be the winner).

The reader checks the structure (length line, ``Game`` lines, player lines, known actions) and keeps every play's text
as written; whether a play is legal is the replay's business (:mod:`backgammon.replay`). The writer follows
GNU Backgammon's ``ExportGameJF``: ``%3d) %-27s`` rows, `` Doubles => 2``, `` Takes``, `` Drops``, ``Wins N point(s)``
on the winner's side, plays as single moves with ``25`` for the bar and ``0`` for off, so that both our reader and
GNU Backgammon read the file back as they read the original.

Beavers and raccoons (RULES D3), as GNU Backgammon 1.07 handles them. Its export writes every immediate redouble
(beaver, raccoon, and any further one) `` Beavers => N`` in the column of the side that made it, and leaves out the
take that accepts it. Its reader (``import.c``, ``ParseMatMove``) reads ``Doubles``, ``Beavers`` and ``Raccoons``
alike as one turn of the cube; after a ``Beavers`` entry it remembers to accept the offer at the next roll line,
whoever rolls and in whatever game: so ``Beavers => 4`` followed by ``Takes`` and a roll turns the cube once too
often, and after a beaver that is dropped (or taken and then resigned before a roll) the pending take lands on the
first roll of the next game, which gnubg then refuses ("Take record found but doesn't follow a double") until a
double comes. The writer therefore writes a beaver `` Beavers => N`` only when the next entry is a roll (the take,
left out, is implied, as in gnubg's own export) or another cube turn; any other beaver (dropped, or taken with no
roll after it) is written `` Doubles => N`` with its answer spelled out, which gnubg reads as the same cube turn
and never carries over. A raccoon is written `` Raccoons => N`` with its ``Takes`` or ``Drops``. The replay reads
all of these forms, and gnubg's own, as the play went (:mod:`backgammon.replay`).

Automatic doubles (RULES G3: opening ties raise the cube of a money game). The format has no place for the ties, and
GNU Backgammon 1.07 tolerates no comment inside a game (one between `` Game N`` and the player line loses the game;
one after it is an "Unrecognised move"), so our own header line ``; [AutomaticRaises "1:1 4:2"]`` lists, as
``game:raises``, the games whose opening raised the cube (:attr:`GameRecord.automatic_raises`; a game not listed had
none). GNU Backgammon files the header line as a match comment. A file without the line says nothing about ties (the
replay infers them from the first double).

XG's ``; Set Pos=<26 characters>/<cube>`` line inside a game (positions-2.json BG28; gnubg ChangeLog 2014-01-12 and
2014-05-26, ``import.c`` ``ImportGame``/``positionid.c`` ``PositionFromXG``) sets the board and the cube; the game
goes on from there. As gnubg reads it: the line starts at column 0 with ``; Set Pos=`` and has ``/`` at column 36;
each of the 26 characters is ``-`` (empty) or a letter ``A``–``P`` for 1–16 checkers: uppercase at index ``i`` is the
left player's on his point ``i`` (index 25 his bar), lowercase the right player's on his point ``25 - i`` (index 0
his bar). The cube (column 37): ``0`` centred at 1, ``-`` then ``n`` the left player owns ``2^n``, ``n`` the right
player owns ``2^n``. It becomes a :data:`SET_POS` entry (``text`` = the 26 characters, ``/`` and the cube) and is
written back as it was read.

``parse_mat(text, lenient=True)`` reads what a real site wrote where the strict reader stops: an entry it cannot read
becomes a warning naming the line (:attr:`MatchRecord.warnings`) and is left out, as GNU Backgammon skips an
"Unrecognised move".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import BackgammonError, InvalidPlayError, MatchFileError
from .notation import parse_segments
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

_LENGTH_LINE = re.compile(r"^\s*(\d+)\s+points?\s+match\s*$", re.IGNORECASE)
_GAME_LINE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_HEADER = re.compile(r'^[;#]\s*\[\s*([^\]"]+?)\s+"(.*)"\s*\]\s*$')
_PLAYERS = re.compile(r"^\s*(?P<n0>\S.*?)\s*:\s*(?P<s0>\d+)\s+(?P<n1>\S.*?)\s*:\s*(?P<s1>\d+)\s*$")
_ROW = re.compile(r"^(\s*)(\d+)\)")
_STRAY_ROW = re.compile(r"^\d+\)$")
_DICE = re.compile(r"^([1-6])([1-6]):(.*)$")
_CUBE = re.compile(r"^(doubles|beavers|raccoons)\s*=>\s*(\d+)$", re.IGNORECASE)
_RESULT = re.compile(r"^(wins|losses)\s+(\d+)\s+points?(\s+and\s+the\s+match)?$", re.IGNORECASE)
_START_WORDS = {"doubles", "beavers", "raccoons", "takes", "drops", "wins", "losses"}
_RATING = re.compile(r"^(.*\S)\s*,\s*(\d+(?:[.,]\d+)?)$")
_RAISES_KEY = "AutomaticRaises"  # header line of the games whose opening ties raised the cube (RULES G3)
_RAISES_ENTRY = re.compile(r"^(\d+):(\d+)$")

_SET_POS = "; Set Pos="  # XG's extension, read as GNU Backgammon's import.c ImportGame reads it
_UNNUMBERED_SPLIT = 15  # GNU Backgammon: an unnumbered line's right column starts at a double space after column 15
_ROW_GAP = 3  # a lone action more than this many spaces after ")" is in the right column


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


# -- reading ------------------------------------------------------------------------------------------------------------
def _tokens(text: str, offset: int) -> list[tuple[int, str]]:
    """``(column, token)`` for the whitespace-separated tokens of ``text`` (``offset`` = column of ``text[0]``)."""
    return [(offset + m.start(), m.group()) for m in re.finditer(r"\S+", text)]


def _starts_action(token: str) -> bool:
    return bool(_DICE.match(token)) or token.lower() in _START_WORDS


def _split_actions(line: str, offset: int, number: int | None, lineno: int) -> list[tuple[int | None, int, list]]:
    """Split a line (from column ``offset``) into rows ``(row number, column after the number, [(column, action
    text)])`` by the grammar of actions. A row number inside the line (Galaxy: ``14) 22: 13/11 …   14)  Losses 1
    point   Wins 1 point``) starts a new row."""
    rows: list[tuple[int | None, int, list]] = [(number, offset, [])]
    need_start = True
    for column, token in _tokens(line[offset:], offset):
        if _STRAY_ROW.match(token):
            rows.append((int(token[:-1]), column + len(token), []))
            need_start = True
            continue
        groups = rows[-1][2]
        if _starts_action(token):
            groups.append((column, [token]))
            need_start = False
        elif need_start:
            raise MatchFileError(
                f"line {lineno}: {token!r} does not start an entry; expected a roll like '61:', 'Doubles => 2', "
                f"'Takes', 'Drops', 'Wins N points' or 'Losses N point'"
            )
        else:
            groups[-1][1].append(token)
    return [(n, start, [(column, " ".join(words)) for column, words in groups]) for n, start, groups in rows]


def _raw_span(line: str, column: int, text: str) -> str:
    """The action's text as written in ``line`` (keeping its inner spacing), given its start column."""
    words = text.split()
    end = column
    for word in words:
        end = line.index(word, end) + len(word)
    return line[column:end]


def _parse_action(text: str, raw: str, side: int, number: int, lineno: int) -> Action:
    """One entry: ``text`` its words joined by single spaces, ``raw`` as written (a play keeps its spacing)."""
    if _DICE.match(raw.strip()):
        head, _, rest = raw.strip().partition(":")
        return Action(number, side, PLAY, (int(head[0]), int(head[1])), rest.strip(), lineno)
    cube = _CUBE.match(text)
    if cube:
        kind = {"doubles": DOUBLE, "beavers": BEAVER, "raccoons": RACCOON}[cube.group(1).lower()]
        value = int(cube.group(2))
        if value < 2 or value & (value - 1):
            raise MatchFileError(f"line {lineno}: cube value {value} is not a power of two ≥ 2 ({text!r})")
        return Action(number, side, kind, None, text, lineno, value)
    if text.lower() == "takes":
        return Action(number, side, TAKE, None, text, lineno)
    if text.lower() == "drops":
        return Action(number, side, DROP, None, text, lineno)
    result = _RESULT.match(text)
    if result:
        kind = WIN if result.group(1).lower() == "wins" else FORFEIT
        return Action(number, side, kind, None, text, lineno, int(result.group(2)), bool(result.group(3)))
    raise MatchFileError(
        f"line {lineno}: cannot read {text!r}; expected 'Doubles => N', 'Beavers => N', 'Raccoons => N', 'Takes', "
        f"'Drops', 'Wins N point(s) [and the match]' or 'Losses N point'"
    )


def _parse_players(line: str, lineno: int) -> tuple[tuple[str, str], tuple[str | None, str | None], tuple[int, int]]:
    match = _PLAYERS.match(line)
    if not match:
        raise MatchFileError(
            f"line {lineno}: expected the player line 'Name : score   Name : score' after 'Game N', got {line.strip()!r}"
        )
    names: list[str] = []
    ratings: list[str | None] = []
    for key in ("n0", "n1"):
        name = match.group(key)
        rated = _RATING.match(name)
        if rated:
            name, rating = rated.group(1), rated.group(2)
        else:
            rating = None
        names.append(name)
        ratings.append(rating)
    return (names[0], names[1]), (ratings[0], ratings[1]), (int(match.group("s0")), int(match.group("s1")))


def _fix_galaxy_forfeit(game: GameRecord, own_line: set[int]) -> None:
    """A Galaxy ``Losses`` line of its own whose column gives it to the game's ``Wins`` side belongs to the other
    side: the loser cannot also be the winner (Galaxy writes it at the left margin after the right player's move)."""
    winner = next((a.side for a in reversed(game.actions) if a.kind == WIN), None)
    if winner is None:
        return
    for index, action in enumerate(game.actions):
        if action.kind == FORFEIT and action.side == winner and index in own_line:
            game.actions[index] = Action(
                action.number, 1 - action.side, FORFEIT, None, action.text, action.line, action.value, action.match
            )


def _parse_raises(value: str) -> dict[int, int]:
    """``{game number: raises}`` of an ``AutomaticRaises`` header value such as ``"1:1 4:2"`` (RULES G3)."""
    raises: dict[int, int] = {}
    for entry in value.split():
        match = _RAISES_ENTRY.match(entry)
        if not match:
            raise MatchFileError(
                f"the header line [{_RAISES_KEY} {value!r}] holds {entry!r}; expected 'game:raises' such as '3:1'"
            )
        raises[int(match.group(1))] = int(match.group(2))
    return raises


def _parse_row(line: str, lineno: int, game: GameRecord, own_line_forfeits: set[int], number: int) -> int:
    """Read one line of a game's rows into ``game.actions`` (all of the line or nothing; :func:`parse_mat`); returns
    the row number now current. Raises :class:`MatchFileError` naming the line."""
    row = _ROW.match(line)
    if row:
        number = int(row.group(2))
        rows = _split_actions(line, row.end(), number, lineno)
    else:
        rows = _split_actions(line, 0, None, lineno)
    found: list[Action] = []
    forfeits: list[int] = []
    for row_number, start, parts in rows:
        if len(parts) > 2:
            raise MatchFileError(f"line {lineno}: a row holds at most two entries (left and right), got {len(parts)}")
        if row_number is not None:
            number = row_number
        if len(parts) == 2:
            sides = [LEFT, RIGHT]
        elif len(parts) == 1 and row_number is not None:
            sides = [RIGHT if parts[0][0] - start > _ROW_GAP else LEFT]
        else:
            sides = [LEFT if column < _UNNUMBERED_SPLIT else RIGHT for column, _ in parts]
        for (column, words), side in zip(parts, sides, strict=True):
            action = _parse_action(words, _raw_span(line, column, words), side, number, lineno)
            if action.kind == PLAY and row_number is None:
                raise MatchFileError(f"line {lineno}: a roll must be on a numbered row, e.g. ' 12) 63: 13/7 8/5'")
            if action.kind == FORFEIT and row_number is None:
                forfeits.append(len(game.actions) + len(found))
            found.append(action)
    game.actions.extend(found)
    own_line_forfeits.update(forfeits)
    return number


def parse_mat(text: str, *, lenient: bool = False) -> MatchRecord:
    """Parse the text of a ``.mat`` match file (any dialect listed in the module docstring) into a
    :class:`MatchRecord`. An ``AutomaticRaises`` header line is taken out of ``header`` into each game's
    :attr:`GameRecord.automatic_raises`. Raises :class:`MatchFileError` naming the line for a missing
    ``N point match`` line, a ``Game`` without a player line, an entry that is not a roll, cube action or result,
    stray text, or an ``AutomaticRaises`` value that is not ``game:raises`` pairs. With ``lenient`` an entry that
    cannot be read (an unknown word, stray text, a bad ``Set Pos``) is left out with a warning naming the line
    (:attr:`MatchRecord.warnings`), as GNU Backgammon's reader skips it; the file's structure (length line, ``Game``
    and player lines) must still be there."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header: dict[str, str] = {}
    comments: list[str] = []
    length: int | None = None
    players: tuple[str, str] | None = None
    ratings: tuple[str | None, str | None] = (None, None)
    games: list[GameRecord] = []
    game: GameRecord | None = None
    expect_players = False
    own_line_forfeits: set[int] = set()
    warnings: list[str] = []
    number = 0

    def finish() -> None:
        if game is not None:
            _fix_galaxy_forfeit(game, own_line_forfeits)

    for lineno, raw_line in enumerate(lines, start=1):
        line = raw_line.expandtabs(8).rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if game is not None and raw_line.startswith(_SET_POS) and raw_line[36:37] == "/":
            spec = raw_line[len(_SET_POS) :].strip()
            try:
                xg_set_pos(spec)
            except BackgammonError as error:
                if not lenient:
                    raise MatchFileError(f"line {lineno}: {error}") from None
                warnings.append(f"line {lineno}: {error}; the line is left out")
                continue
            game.actions.append(Action(number, LEFT, SET_POS, None, spec, lineno))
            continue
        if stripped[0] in ";#":
            if length is None and not games:
                header_match = _HEADER.match(stripped)
                if header_match:
                    header[header_match.group(1)] = header_match.group(2)
                else:
                    comments.append(stripped.lstrip(";#").strip())
            continue
        if expect_players:
            names, line_ratings, score = _parse_players(line, lineno)
            if players is None:
                players, ratings = names, line_ratings
            assert game is not None
            game.score = score
            expect_players = False
            continue
        game_match = _GAME_LINE.match(line)
        if game_match:
            if length is None:
                raise MatchFileError(f"line {lineno}: 'Game' before the 'N point match' line")
            finish()
            game = GameRecord(int(game_match.group(1)), (0, 0), [], lineno)
            games.append(game)
            own_line_forfeits = set()
            expect_players = True
            number = 0
            continue
        if length is None:
            length_match = _LENGTH_LINE.match(line)
            if not length_match:
                raise MatchFileError(
                    f"line {lineno}: expected the match length, e.g. ' 7 point match', got {stripped!r}"
                )
            length = int(length_match.group(1))
            continue
        if game is None:
            raise MatchFileError(f"line {lineno}: expected ' Game 1' after the match length, got {stripped!r}")
        try:
            number = _parse_row(line, lineno, game, own_line_forfeits, number)
        except MatchFileError as error:
            if not lenient:
                raise
            warnings.append(f"{error}; the line is left out (lenient reading)")
    if expect_players:
        raise MatchFileError(f"line {game.line}: the file ends after 'Game {game.number}' without a player line")
    finish()
    if length is None:
        raise MatchFileError("line 1: no ' N point match' line; this is not a .mat match file")
    if players is None:
        raise MatchFileError(f"line {len(lines)}: the file holds no games")
    if _RAISES_KEY in header:
        raises = _parse_raises(header.pop(_RAISES_KEY))
        for game in games:
            game.automatic_raises = raises.get(game.number, 0)
    return MatchRecord(length, players, header, games, ratings, comments, warnings)


# -- writing ------------------------------------------------------------------------------------------------------------
def normalized_move(text: str) -> str:
    """A play's text in GNU Backgammon's export form: single moves, ``25`` for the bar, ``0`` for off, repeats and
    joined moves spelled out (``bar/22*(2)`` → ``25/22* 25/22*``; ``13/7*/5`` → ``13/7* 7/5``). Text that is not
    notation is returned unchanged (the replay reports it); "no move" spellings become ``""``."""
    stripped = text.strip()
    if stripped.lower() in _NO_MOVE_TEXTS or _UNKNOWN_MOVE.match(stripped):
        return ""
    try:
        segments = parse_segments(stripped)
    except InvalidPlayError:
        return stripped
    return " ".join(f"{source}/{target}{'*' if hit else ''}" for source, target, hit in segments)


def _points(value: int) -> str:
    return f"{value} point{'' if value == 1 else 's'}"


def _action_text(action: Action) -> str:
    if action.kind == PLAY:
        d1, d2 = action.dice or (0, 0)
        move = normalized_move(action.text)
        return f"{d1}{d2}: {move}".rstrip() if move else f"{d1}{d2}:"
    if action.kind == DOUBLE:
        return f" Doubles => {action.value}"
    if action.kind == BEAVER:
        return f" Beavers => {action.value}"
    if action.kind == RACCOON:
        return f" Raccoons => {action.value}"
    if action.kind == TAKE:
        return " Takes"
    if action.kind == DROP:
        return " Drops"
    word = "Wins" if action.kind == WIN else "Losses"
    return f" {word} {_points(action.value or 0)}{' and the match' if action.match else ''}"


def _as_gnubg_reads(actions: list[Action]) -> list[Action]:
    """The entries to write for ``actions`` so that GNU Backgammon reads the cube as it went (module docstring): the
    take of a beaver that a roll follows is left out; a beaver followed by anything but a roll, its take and a roll,
    or another cube turn is written as a double (the same cube turn to gnubg, which then carries no pending take
    over), and when a ``Wins`` line follows it directly, the take that line implies (:mod:`backgammon.replay`) is
    written out."""
    written: list[Action] = []
    index = 0
    while index < len(actions):
        action = actions[index]
        following = [entry.kind for entry in actions[index + 1 : index + 3]]
        index += 1
        if action.kind != BEAVER or following[:1] in ([PLAY], [DOUBLE], [BEAVER], [RACCOON]):
            written.append(action)
        elif following == [TAKE, PLAY]:
            written.append(action)
            index += 1  # the take is implied by the roll
        else:
            written.append(Action(action.number, action.side, DOUBLE, None, action.text, action.line, action.value))
            if following[:1] == [WIN]:
                written.append(Action(action.number, 1 - action.side, TAKE, None, "Takes", action.line))
    return written


def _player_cell(name: str, rating: str | None, score: int) -> str:
    return f"{name}{',' + rating if rating else ''} : {score}"


def format_game(
    game: GameRecord, players: tuple[str, str], ratings: tuple[str | None, str | None] = (None, None)
) -> str:
    """One game in GNU Backgammon's export layout (`` Game N``, the player line, numbered two-column rows, the
    result on the winner's side), ending with a blank line. Row numbers are assigned afresh: a new row starts when
    an entry belongs in the left column, or in the right column of a row whose right cell is taken. Beavers are
    written as GNU Backgammon reads them (module docstring: an implied take left out, or ``Doubles => N``)."""
    out = [f" Game {game.number}"]
    left = _player_cell(players[0], ratings[0], game.score[0])
    out.append(f" {left:<27} {_player_cell(players[1], ratings[1], game.score[1])}")
    rows: list[list] = []  # [number or None, left text or None, right text or None]
    number = 0
    for action in _as_gnubg_reads(game.actions):
        if action.kind == SET_POS:  # a line of its own, from column 0, as XG writes it (module docstring)
            rows.append([_SET_POS + action.text, None, None])
            continue
        text = _action_text(action)
        current = rows[-1] if rows else None
        if current is not None and isinstance(current[0], str):
            current = None
        fits = current is not None and all(cell is None for cell in current[1 + action.side :])
        if current is not None and current[0] is None and not action.is_result:
            fits = False
        if not fits:
            if action.is_result:
                current = [None, None, None]
            else:
                number += 1
                current = [number, None, None]
            rows.append(current)
        current[1 + action.side] = text
    for row_number, left_text, right_text in rows:
        if isinstance(row_number, str):
            out.append(row_number)
        elif row_number is None:
            if left_text is None:
                out.append(" " * 34 + right_text.strip())
            elif right_text is None:
                out.append("      " + left_text.strip())
            else:
                out.append(f"      {left_text.strip():<28}{right_text.strip()}")
        else:
            line = f"{row_number:3d}) {left_text or '':<27} {right_text or ''}"
            out.append(line.rstrip())
    out.append("")
    return "\n".join(out) + "\n"


def format_mat(record: MatchRecord) -> str:
    """The whole match as ``.mat`` text (``\\n`` line ends): header lines ``; [Key "Value"]`` (then
    ``; [AutomaticRaises "…"]`` when a game's :attr:`GameRecord.automatic_raises` is known), comments,
    `` N point match``, then every game (:func:`format_game`). Read back by :func:`parse_mat` it gives the same games,
    actions and results (plays compared by :func:`normalized_move`; a beaver's take may be left out or the beaver
    written as a double, module docstring), and the replay plays it as the record; GNU Backgammon reads it the same
    way. The output is a fixed point: writing what was read from it gives it back."""
    out: list[str] = []
    for key, value in record.header.items():
        out.append(f'; [{key} "{value}"]')
    if any(game.automatic_raises is not None for game in record.games):
        raised = " ".join(f"{game.number}:{game.automatic_raises}" for game in record.games if game.automatic_raises)
        out.append(f'; [{_RAISES_KEY} "{raised}"]')
    for comment in record.comments:
        out.append(f"; {comment}".rstrip())
    if out:
        out.append("")
    out.append(f" {record.length} point match")
    out.append("")
    text = "\n".join(out) + "\n"
    return text + "".join(format_game(game, record.players, record.ratings) for game in record.games)
