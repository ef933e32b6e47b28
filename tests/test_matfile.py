"""The .mat match-file reader and writer (RULES A4: records exportable in the format analysis programs import).

Every file of ``tests/cases/matches`` is read; each dialect listed in the cases README gets its own test; the
writer's output is read back to the same games, actions and results, and its layout is checked against GNU
Backgammon's own column-splitting rule (``import.c``, ``ImportGame``), re-implemented here as a test oracle.
"""

from __future__ import annotations

import re

import pytest

from backgammon.errors import MatchFileError
from backgammon.matfile import (
    DOUBLE,
    DROP,
    FORFEIT,
    LEFT,
    PLAY,
    RIGHT,
    TAKE,
    WIN,
    format_mat,
    normalized_move,
    parse_mat,
)
from tests.casekit import MATCHES

FILES = sorted(p for p in MATCHES.iterdir() if p.suffix in (".txt", ".mat"))
EXPECTED = __import__("json").loads((MATCHES / "expected.json").read_text(encoding="utf-8"))


def read(name: str):
    return parse_mat((MATCHES / name).read_text(encoding="utf-8"))


def actions_of(record, game_number: int):
    return next(g for g in record.games if g.number == game_number).actions


def test_there_are_39_match_files():
    assert len(FILES) == 39 and {p.name for p in FILES} == set(EXPECTED)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_file_reads_with_gnubgs_players_scores_and_declared_winners(path):
    """Every dialect reads: length, players, each game's starting score, and the declared winner agree with GNU
    Backgammon's reading (expected.json) wherever gnubg resolved the game and no Galaxy forfeit is involved."""
    record = parse_mat(path.read_text(encoding="utf-8"))
    expected = EXPECTED[path.name]
    assert record.length == expected["match_length"]
    assert list(record.players) == expected["players"]
    assert len(record.games) == len(expected["games"])
    names = expected["players"]
    for game, exp in zip(record.games, expected["games"], strict=True):
        assert game.score == (exp["start_score"][names[0]], exp["start_score"][names[1]])
        forfeit = any(a.kind == FORFEIT for a in game.actions)
        if exp["winner"] is not None and not forfeit:
            assert names[game.declared_winner] == exp["winner"], f"game {game.number}"
        assert all(a.line > 0 and a.number >= 0 for a in game.actions)


# -- dialects (tests/cases/README.md "matches/") ------------------------------------------------------------------
def test_bar_and_25_off_and_0_and_repeats_mean_the_same_move():
    assert normalized_move("bar/22*(2) 6/off") == normalized_move("25/22* 25/22 6/0") == "25/22* 25/22 6/0"
    assert normalized_move("13/7*/5") == "13/7* 7/5"
    assert normalized_move("Cannot Move") == normalized_move("????") == normalized_move("") == ""


def test_studio_dialect_bar_off_repeats_and_cannot_move():
    record = read("studio_3pt_01.txt")
    game2 = actions_of(record, 2)
    entry = next(a for a in game2 if a.kind == PLAY and a.number == 4 and a.side == LEFT)
    assert entry.dice == (2, 2) and entry.text == "bar/23 24/22 7/5*(2)"
    unknown = next(a for a in game2 if a.kind == PLAY and a.number == 24)
    assert unknown.unknown_move and unknown.move_text == ""
    cannot = [a for g in read("studio_7pt_01.txt").games for a in g.actions if a.text == "Cannot Move"]
    assert cannot and all(a.kind == PLAY and a.move_text == "" for a in cannot)


def test_dice_are_kept_as_written_in_either_order():
    record = read("fibs_1pt_01.txt")
    first = record.games[0].actions[:2]
    assert [(a.side, a.dice, a.text) for a in first] == [(LEFT, (6, 1), "13/7 8/7"), (RIGHT, (1, 3), "8/5 6/5")]


def test_ratings_in_player_lines_are_split_from_the_names():
    record = read("fibs_1pt_01.txt")
    assert record.players == ("Alice", "Bruno") and record.ratings == ("1822", "1763")


def test_header_lines_are_read_into_the_header():
    record = read("galaxy_3pt_01.txt")
    assert record.header["Crawford"] == "On" and record.header["Site"] == "BackgammonGalaxy"
    assert record.header["Player 2"] == "Bruno"


def test_a_right_column_opening_is_the_second_players():
    record = read("gnubgexport_7pt_01.mat")
    first = record.games[0].actions[0]
    assert (first.number, first.side, first.dice) == (1, RIGHT, (4, 1))


def test_cube_entries_on_their_own_row_or_sharing_one():
    """RULES D1/D2 entries: 'Doubles => 2' after a play on the same row, or a row of ' Doubles'/'Takes' of its own."""
    record = read("galaxy_3pt_01.txt")
    game3 = actions_of(record, 3)
    assert [(a.number, a.side, a.kind, a.value) for a in game3[1:5]] == [
        (2, LEFT, PLAY, None),
        (2, RIGHT, DOUBLE, 2),
        (3, LEFT, TAKE, None),
        (3, RIGHT, PLAY, None),
    ]


def test_drops_and_wins_split_over_lines_and_crlf():
    """Gibbon: CRLF endings; 'Drops' at the end of a row and 'Wins' on the next line in column 1 (the doubler's)."""
    raw = (MATCHES / "gibbon_7pt_01.mat").read_bytes().decode("utf-8")
    assert "\r\n" in raw
    record = parse_mat(raw)
    tail = [(a.side, a.kind, a.value) for a in actions_of(record, 2)[-3:]]
    assert tail == [(LEFT, DOUBLE, 4), (RIGHT, DROP, None), (LEFT, WIN, 2)]
    assert parse_mat(raw.replace("\r\n", "\n")) == record


def test_fibs_roll_then_resign_row():
    """'32) 63:      Wins 100 points': a roll with no move, then the other side's Wins on the same row."""
    record = read("fibs_5pt_01.txt")
    last = actions_of(record, 5)[-2:]
    assert [(a.number, a.side, a.kind, a.dice, a.text, a.value) for a in last] == [
        (32, LEFT, PLAY, (6, 3), "", None),
        (32, RIGHT, WIN, None, "Wins 100 points", 100),
    ]


def test_galaxy_losses_is_a_forfeit_by_the_side_in_its_column():
    record = read("galaxy_16pt_02.txt")
    assert [(a.side, a.kind, a.value) for a in record.games[0].actions] == [(LEFT, FORFEIT, 1), (RIGHT, WIN, 1)]
    assert record.games[0].declared_winner == RIGHT


def test_galaxy_repeated_row_number_starts_a_new_row():
    """' 14) 22: …      14)  Losses 1 point      Wins 1 point and the match': the second '14)' begins a row."""
    record = read("galaxy_3pt_02.txt")
    tail = [(a.number, a.side, a.kind, a.match) for a in actions_of(record, 3)[-3:]]
    assert tail == [(14, LEFT, PLAY, False), (14, LEFT, FORFEIT, False), (14, RIGHT, WIN, True)]


def test_galaxy_losses_at_the_margin_belongs_to_the_loser():
    """'Losses 2 point' alone at the left margin after Bruno's move, then Alice 'Wins 2 point and the match':
    the loser is Bruno (the loser cannot also be the winner)."""
    record = read("galaxy_3pt_01.txt")
    tail = [(a.side, a.kind) for a in actions_of(record, 3)[-2:]]
    assert tail == [(RIGHT, FORFEIT), (LEFT, WIN)]


def test_utf8_bom_and_tabs_are_accepted():
    text = "\ufeff 1 point match\n\n Game 1\n Alice : 0\t\t\tBruno : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n"
    record = parse_mat(text)
    assert record.players == ("Alice", "Bruno") and record.games[0].actions[0].dice == (3, 1)


# -- errors ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "no ' N point match'"),
        (" Game 1\n", 1, "'Game' before"),
        ("hello\n", 1, "match length"),
        (" 3 point match\n\n Game 1\n  1) 31: 8/5 6/5\n", 4, "player line"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   hello\n  2) xyz\n", 5, "does not start"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5  42: 8/4 6/4  Takes\n", 4, "at most two"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n      31: 8/5 6/5\n", 4, "numbered row"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1)  Doubles => 3\n", 4, "power of two"),
        (" 3 point match\n Game 1\n", 2, "without a player line"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1)  Wins many points\n", 4, "cannot read"),
    ],
)
def test_structural_errors_name_the_line(text, line, words):
    with pytest.raises(MatchFileError) as caught:
        parse_mat(text)
    message = str(caught.value)
    assert message.startswith(f"line {line}:") and words in message


# -- writing ---------------------------------------------------------------------------------------------------------
def _meaning(record):
    """What a round trip must keep: everything but the layout (rows of result lines, raw spellings of plays)."""
    games = []
    for game in record.games:
        entries = []
        for a in game.actions:
            number = None if a.is_result else a.number
            text = normalized_move(a.text) if a.kind == PLAY else None
            entries.append((number, a.side, a.kind, a.dice, text, a.value, a.match))
        games.append((game.number, game.score, entries, game.declared_winner, game.declared_points))
    return (record.length, record.players, record.ratings, record.header, games)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_round_trip_keeps_games_actions_and_results(path):
    record = parse_mat(path.read_text(encoding="utf-8"))
    text = format_mat(record)
    again = parse_mat(text)
    assert _meaning(again) == _meaning(record)
    assert format_mat(again) == text  # the writer's output is a fixed point


def _gnubg_split(line: str) -> tuple[str, str | None]:
    """GNU Backgammon's ImportGame column split (import.c): two colons → the right column starts two characters
    before the second; else, in a line longer than 15 characters, at the first double space from column 15. The
    left part starts after the row number's ')'."""
    right = None
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if first >= 0 and second >= 0 and second > 3:
        cut = second - 2
        line, right = line[: cut - 1], line[cut:]
    elif len(line) > 15 and "  " in line[15:]:
        cut = line.index("  ", 15)
        line, right = line[:cut], line[cut + 1 :]
    left = line[line.index(")") + 1 :] if ")" in line else line
    return left.strip(), (right.strip() if right is not None else None)


def _gnubg_kind(text: str) -> str | None:
    """The entry kind gnubg's ParseMatMove gives a column's text (None: nothing there)."""
    if not text:
        return None
    if re.match(r"^[1-6][1-6]:", text):
        return PLAY
    for prefix, kind in (("double", DOUBLE), ("take", TAKE), ("drop", DROP), ("win", WIN)):
        if text.lower().startswith(prefix):
            return kind
    return "unrecognised"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_written_layout_splits_into_the_same_columns_for_gnubg(path):
    """Every line we write is split by GNU Backgammon's rule into the same left/right entries our reader finds."""
    text = format_mat(read(path.name))
    ours = parse_mat(text)
    by_line: dict[int, list] = {}
    for game in ours.games:
        for action in game.actions:
            by_line.setdefault(action.line, []).append(action)
    checked = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if number not in by_line:
            continue
        left, right = _gnubg_split(line)
        seen = {LEFT: _gnubg_kind(left), RIGHT: _gnubg_kind(right or "")}
        expected = {LEFT: None, RIGHT: None}
        for action in by_line[number]:  # gnubg does not know Galaxy's "Losses" (it warns and skips it)
            expected[action.side] = "unrecognised" if action.kind == FORFEIT else action.kind
        assert seen == expected, f"line {number}: {line!r}"
        checked += 1
    assert checked >= sum(len(g.actions) for g in ours.games) // 2


def test_writer_follows_the_gnubg_export_layout():
    """' Game N', the player line, '%3d) %-27s ' rows with the right column at 33, ' Doubles => 2', ' Takes',
    ' Drops', and 'Wins' on the winner's side: column 6 for the left player, 34 for the right."""
    text = format_mat(read("gibbon_7pt_01.mat"))
    lines = text.split("\n")
    assert lines[0] == " 7 point match" and lines[2] == " Game 1"
    assert lines[3].startswith(" Alice : 0") and lines[3].index("Bruno : 0") == 29
    opening = lines[4]
    assert opening.startswith("  1) ") and opening.index("42: 8/4 6/4") == 33
    cube_row = next(line for line in lines if "Doubles => 4" in line)
    assert cube_row.index(" Doubles") == 5 and cube_row.index("Drops") == 34
    wins = [line for line in lines if "Wins" in line]
    assert all(line.index("Wins") in (6, 34) for line in wins)
    assert "      Wins 2 points" in lines  # the doubler (left) after the right player's drop
