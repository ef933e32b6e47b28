"""The reader of ``.mat`` match files (RULES A4): :func:`parse_mat` reads every dialect described in
:mod:`backgammon.matfile` (which re-exports it) into a :class:`~backgammon.matrecord.MatchRecord` — header lines,
the length line, ``Game`` and player lines, and the two-column rows of rolls, plays, cube actions and results."""

from __future__ import annotations

import re

from .errors import BackgammonError, MatchFileError
from .matrecord import (
    _RAISES_KEY,
    _SET_POS,
    BEAVER,
    DOUBLE,
    DROP,
    FORFEIT,
    LEFT,
    PLAY,
    RACCOON,
    RIGHT,
    SET_POS,
    TAKE,
    WIN,
    Action,
    GameRecord,
    MatchRecord,
    xg_set_pos,
)
from .rules import VARIANTS

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
_RAISES_ENTRY = re.compile(r"^(\d+):(\d+)$")
_UNNUMBERED_SPLIT = 15  # GNU Backgammon: an unnumbered line's right column starts at a double space after column 15
_ROW_GAP = 3  # a lone action more than this many spaces after ")" is in the right column


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


def _second_match(lines: list[str], lineno: int, length: int) -> str:
    """The warning for a second match whose ``N point match`` line is line ``lineno`` (1-based) of ``lines``: its
    length and, when its first player line can be found, its players."""
    who = ""
    for index in range(lineno, len(lines) - 1):
        if _GAME_LINE.match(lines[index]):
            players = _PLAYERS.match(lines[index + 1].expandtabs(8).rstrip())
            who = f", {players.group('n0')} vs {players.group('n1')}" if players else ""
            break
    return (f"line {lineno}: a second match starts here ({length} point match{who}); only the first match is read — "
            "split the file to replay the others")  # fmt: skip


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


def _check_variation(key: str, value: str, lineno: int) -> None:
    """Refuse a ``; [Variation "…"]`` header line (GNU Backgammon's) naming a game other than backgammon and
    Nackgammon (RULES G1): Hypergammon's three checkers a side are not a game this engine plays."""
    if key.lower() == "variation" and value.strip().lower() not in VARIANTS:
        raise MatchFileError(
            f"line {lineno}: the file is a game of {value.strip()}; only backgammon and Nackgammon are replayed "
            "(RULES G1)"
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
                    _check_variation(header_match.group(1), header_match.group(2), lineno)
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
        second = _LENGTH_LINE.match(line)
        if second:  # GNU Backgammon reads the first match of a file that holds several (BBGT writes them)
            warnings.append(_second_match(lines, lineno, int(second.group(1))))
            break
        if game is None:
            raise MatchFileError(f"line {lineno}: expected ' Game 1' after the match length, got {stripped!r}")
        try:
            number = _parse_row(line, lineno, game, own_line_forfeits, number)
        except MatchFileError as error:
            if not lenient:
                raise
            warnings.append(f"{error}; the line is left out (lenient reading)")
    if expect_players and game is not None:
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
