"""Match files from real programs: XG's ``; Set Pos=`` lines (positions-2.json BG28, BG29, read as GNU
Backgammon's import.c does), a lenient replay of what a real site wrote (entries our rules refuse become warnings
with game and move), and the Crawford rule as the header or ``--no-crawford`` says (RULES M3)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from backgammon.errors import MatchFileError
from backgammon.game import Game
from backgammon.matfile import SET_POS, format_mat, parse_mat, xg_set_pos
from backgammon.position import Position
from backgammon.replay import replay
from tests.casekit import CASES, load_cases

INTEROP = CASES / "interop"
ROOT = Path(__file__).resolve().parents[1]
CASE = {c["id"]: c for c in load_cases("positions-2.json")}


def case_position(spec) -> Position:
    return Position.from_points(spec["points"], spec["bar"], spec["off"])


def test_bg28_set_pos_starts_the_game_from_that_position():
    """BG28: '; Set Pos=---B-----A---------eee----/0' sets Alice (left, on roll) 1 on her 9, 2 on her 3, 12 off and
    Bob 5 each on his 6, 5, 4, cube 1 centred; '65: 9/Off', '11: 6/5(4)', '21: 3/1 3/2' then replay legally and the
    game is unfinished."""
    record = parse_mat((INTEROP / "BG28_setpos.mat").read_text(encoding="utf-8"))
    (action,) = [a for a in record.games[0].actions if a.kind == SET_POS]
    position, value, owner = xg_set_pos(action.text)
    assert position == case_position(CASE["BG28"]["position"]) and (value, owner) == (1, None)
    report = replay(record)
    assert report.ok and report.games[0].result is None
    assert any(d.kind == "unfinished" for d in report.discrepancies)
    after = report.games[0].board  # seen by Alice: 13 off, one each on her 1 and 2; Bob 1 on his 6, 9 on 5, 5 on 4
    assert after == Position.from_points({1: 1, 2: 1, 19: -1, 20: -9, 21: -5})


def test_bg29_joined_bear_off_takes_the_route_without_a_hit():
    """BG29 (import.c ExpandMatMove: 'no hits on the first part of the move'): '64: 8/Off' after the file's Set Pos
    plays 8/2/off; Bob's blot on Alice's 4-point stays."""
    record = parse_mat((INTEROP / "BG29_setpos_overage_hit.mat").read_text(encoding="utf-8"))
    start, _, _ = xg_set_pos(record.games[0].actions[0].text)
    assert start == case_position(CASE["BG29"]["position"])
    report = replay(record)
    assert report.ok
    board = report.games[0].board
    assert board.at(4) == -1 and board.opponent[24] == 0 and board.off_player == 13


@pytest.mark.parametrize("name", ["BG28_setpos.mat", "BG29_setpos_overage_hit.mat"])
def test_set_pos_is_written_back_and_read_the_same(name):
    """The writer keeps the Set Pos line where it was; reading what it wrote gives the same record (fixed point)."""
    record = parse_mat((INTEROP / name).read_text(encoding="utf-8"))
    text = format_mat(record)
    assert "\n; Set Pos=" in text and format_mat(parse_mat(text)) == text
    again = replay(parse_mat(text))
    assert again.ok and again.games[0].board == replay(record).games[0].board


def test_set_pos_cube_and_bad_lines():
    """The cube after '/': '0' centred, '-n' the left player owns 2^n, 'n' the right player (gnubg 2014-05-26 fix);
    a bad character is refused naming the line, or left out with a warning by the lenient reader."""
    spec = "---B-----A---------eee----"
    assert xg_set_pos(spec + "/-1")[1:] == (2, 0)
    assert xg_set_pos(spec + "/2")[1:] == (4, 1)
    bad = " 3 point match\n\n Game 1\n Alice : 0                   Bob : 0\n; Set Pos=---B-----A---------eee--x-/0\n"
    with pytest.raises(MatchFileError, match="line 5"):
        parse_mat(bad)
    lenient = parse_mat(bad, lenient=True)
    assert lenient.games[0].actions == [] and "line 5" in lenient.warnings[0]


def test_a_set_pos_cube_in_the_crawford_game_is_refused():
    """RULES M3: a Set Pos with the cube at 2 in the Crawford game stops that game (the cube stays at 1)."""
    text = (
        " 3 point match\n\n Game 1\n Alice : 2                   Bob : 0\n"
        "; Set Pos=---B-----A---------eee----/-1\n  1) 65: 9/Off                   11: 6/5 6/5 6/5 6/5\n"
    )
    report = replay(parse_mat(text))
    assert report.first_illegal is not None and "Crawford" in report.first_illegal.reason


CRAWFORD_DOUBLE = """ 3 point match

 Game 1
 Alice : 0                   Bob : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point

 Game 2
 Alice : 0                   Bob : 2
  1) 31: 8/5 6/5                  61: 13/7 8/7
  2)  Doubles => 2                Drops
  3)  Wins 1 point
"""


def test_lenient_replay_imports_a_double_in_the_crawford_game_with_a_warning():
    """A site that allowed a double in the Crawford game (RULES M3): the strict replay stops at game 2, move 2; the
    lenient one takes it as written and warns with the game and move; so does the CLI (stderr), exit 0."""
    strict = replay(parse_mat(CRAWFORD_DOUBLE))
    assert strict.first_illegal.game == 2 and strict.first_illegal.move == 2
    lenient = replay(parse_mat(CRAWFORD_DOUBLE), lenient=True)
    assert lenient.ok and [(w.game, w.move) for w in lenient.warnings] == [(2, 2)]
    assert "Crawford" in lenient.warnings[0].reason
    assert lenient.games[1].result.winner == 0 and lenient.score == (1, 2)


def test_no_crawford_and_the_headers_crawford_setting():
    """RULES M3: played without the Crawford rule, the same file replays strictly with --no-crawford
    (``crawford=False``) or with the header line ``; [Crawford "Off"]``; game 2 is then no Crawford game."""
    report = replay(parse_mat(CRAWFORD_DOUBLE), crawford=False)
    assert report.ok and not report.games[1].crawford and report.score == (1, 2)
    headed = replay(parse_mat('; [Crawford "Off"]\n' + CRAWFORD_DOUBLE))
    assert headed.ok and not headed.rules.crawford
    assert replay(parse_mat('; [Crawford "On"]\n' + CRAWFORD_DOUBLE)).first_illegal is not None


def test_lenient_replay_imposes_a_refused_play_that_can_be_made():
    """A play that is not legal for the dice (RULES G7: 6-1 must use both dice) but can be made checker by checker is
    imported as written with a warning; a move with no checker still stops the game."""
    text = (
        " 1 point match\n\n Game 1\n Alice : 0                   Bob : 0\n"
        "  1) 61: 13/7                    52: 13/8 13/11\n  2) 33: 24/21 24/21 13/10 13/10\n"
    )
    assert replay(parse_mat(text)).first_illegal.move == 1
    report = replay(parse_mat(text), lenient=True)
    assert report.ok and [(w.game, w.move, w.side) for w in report.warnings] == [(1, 1, 0)]
    assert report.games[0].board.at(7) == 1  # the checker stands where the file put it
    impossible = text.replace("13/7 ", "3/1  ")
    assert replay(parse_mat(impossible), lenient=True).first_illegal.move == 1


def test_imposed_entries_rebuild_from_history():
    """An imposed play keeps its 'imposed' mark in the history, so Game.replay_history rebuilds the same game."""
    game = Game(replay(parse_mat(CRAWFORD_DOUBLE)).rules, 3, (0, 2), crawford_game=True)
    game.opening_roll(3, 1)
    game.play(0, "8/5 6/5")
    game.roll(1, (6, 1))
    game.play(1, "13/7 8/7")
    game.impose(0, "double")
    rebuilt = Game.replay_history(game.rules, game.history, 3, (0, 2), crawford_game=True)
    assert rebuilt == game and rebuilt.offered_value == 2


def test_cli_lenient_and_no_crawford(tmp_path):
    """``python -m backgammon replay --lenient`` prints the warning on stderr (game and move) and exits 0;
    ``--no-crawford`` replays the same file with no warning."""
    path = tmp_path / "crawford.mat"
    path.write_text(CRAWFORD_DOUBLE, encoding="utf-8")

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "backgammon", "replay", str(path), *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    assert run().returncode == 1
    done = run("--lenient")
    assert done.returncode == 0 and "warning: game 2, move 2" in done.stderr and "Crawford" in done.stderr
    quiet = run("--no-crawford")
    assert quiet.returncode == 0 and quiet.stderr == "" and "Game 2 (0-2): Alice wins 1 point" in quiet.stdout


TWO_MATCHES = """; [Site "BBGT"]
; [Event "Round 1"]

 1 point match

 Game 1
 Alice : 0                   Bob : 0
  1) 31: 8/5 6/5                  61: 13/7 8/7
  2)  Wins 1 point and the match

; [Site "BBGT"]
; [Event "Round 2"]

 3 point match

 Game 1
 Carol : 0                   Dave : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point
"""


@pytest.mark.parametrize("lenient", [False, True])
def test_a_file_of_two_matches_reads_the_first_and_warns_about_the_second(lenient):
    """A file holding two matches (BBGT writes these): the first match is read, as GNU Backgammon reads it, and a
    warning names the line and length of the second; neither reading plays the second match's game as a game of the
    first, nor takes its header lines."""
    record = parse_mat(TWO_MATCHES, lenient=lenient)
    assert [game.number for game in record.games] == [1] and record.header["Event"] == "Round 1"
    assert record.warnings == ["line 14: a second match starts here (3 point match, Carol vs Dave); only the first "
                               "match is read — split the file to replay the others"]  # fmt: skip
    report = replay(record, lenient=lenient)
    assert report.ok and report.score == (1, 0) and report.winner == 0 and not report.discrepancies


def test_the_cli_replays_the_first_match_of_two_and_warns():
    path = ROOT / "tests" / "cases" / "interop" / "two_matches.mat"
    done = subprocess.run([sys.executable, "-m", "backgammon", "replay", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Final score: Alice 1, Bob 0 — Alice wins the match" in done.stdout
    assert done.stderr.startswith("warning: line 14: a second match starts here (3 point match, Carol vs Dave)")


def test_a_nackgammon_file_replays_from_the_nackgammon_set_up():
    """RULES G1: a file headed ``; [Variation "NackGammon"]`` (written by GNU Backgammon) replays from Nackgammon's
    set-up — two on the 24, two on the 23, four on the 13, three on the 8, four on the 6 — to the result it states."""
    record = parse_mat((INTEROP / "nackgammon.mat").read_text(encoding="utf-8"))
    report = replay(record)
    assert report.rules.variant == "nackgammon"
    assert report.ok and not report.discrepancies and report.winner == 0 and report.score == (1, 0)
    start = Position.initial("nackgammon")
    assert start.player == start.opponent and {p: start.at(p) for p in range(1, 25) if start.at(p) > 0} == {
        6: 4, 8: 3, 13: 4, 23: 2, 24: 2}  # fmt: skip
    assert Position.initial() == Position.initial("backgammon") != start
    standard = replay(parse_mat(record_text := (INTEROP / "nackgammon.mat").read_text(encoding="utf-8").replace(
        '; [Variation "NackGammon"]\n', "")))  # fmt: skip
    assert "Variation" not in record_text and standard.first_illegal.move == 1  # the 23-point is empty in backgammon


def test_a_variant_the_engine_does_not_play_is_refused_naming_it():
    """Hypergammon (3 checkers a side) is not backgammon: a file of it is refused, naming the variant and the line."""
    text = '; [Variation "Hypergammon"]\n' + CRAWFORD_DOUBLE
    with pytest.raises(MatchFileError, match=r"line 1: the file is a game of Hypergammon; only backgammon and "
                                             r"Nackgammon are replayed"):  # fmt: skip
        parse_mat(text, lenient=True)
