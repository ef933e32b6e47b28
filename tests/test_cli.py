"""The command-line tool, run as a user runs it: ``python -m backgammon`` in a subprocess from the project root.

``legal`` is checked against GNU Backgammon's move generator (gnubg_nn.moves) on several positions (RULES G4–G9);
``show`` draws boards with pip counts; ``replay`` prints each game and the final score and exits 1 at an illegal
move (RULES G10, A4); bad input is one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gnubg_nn
import pytest

from backgammon.notation import parse_play
from backgammon.position import Position
from tests.casekit import MATCHES, ROOT

PYTHON = "/work/venv/bin/python" if Path("/work/venv/bin/python").exists() else sys.executable


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "-m", "backgammon", *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )


def gnubg_results(position: Position, dice: tuple[int, int]) -> set[str]:
    keys = gnubg_nn.moves(position.to_gnubg(), *dice)
    results = {Position.from_gnubg(gnubg_nn.board_from_position_key(key)) for key in keys}
    return {p.position_id() for p in results if p != position}


POSITIONS = {
    "opening": (Position.initial(), (3, 1)),
    "opening doublet": (Position.initial(), (6, 6)),
    "two on the bar": (
        Position.from_points({6: 2, 5: 2, 13: 5, 8: 3, 24: 1, 1: -2, 2: -2, 3: -2, 19: -9}, (2, 0)),
        (4, 1),
    ),
    "bar, one can enter": (
        Position.from_points({13: 5, 8: 4, 6: 4, 19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 12: -5}, (1, 0)),
        (6, 1),
    ),
    "bear-off, high die": (Position.from_points({1: 3, 2: 2, 4: 1, 24: -2, 23: -3}), (6, 5)),
    "bear-off, choices": (Position.from_points({6: 2, 5: 1, 3: 2, 1: 1, 24: -2, 23: -3}), (4, 2)),
    "contact doublet": (Position.from_points({24: 2, 13: 4, 8: 3, 6: 4, 20: -2, 16: -1, 10: -2, 4: -2, 1: -5}), (2, 2)),
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_legal_lists_exactly_gnubgs_plays(name):
    """RULES G4–G8: one line per legal play, 'notation<TAB>Position ID' (mover still on roll, as gnubg_nn.moves)."""
    position, dice = POSITIONS[name]
    done = run("legal", position.position_id(), f"{dice[0]}{dice[1]}")
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    ids = [line.split("\t")[1] for line in lines]
    assert len(ids) == len(set(ids)) and set(ids) == gnubg_results(position, dice)
    for line in lines:
        text, position_id = line.split("\t")
        assert parse_play(position, dice, text).position.position_id() == position_id


def test_legal_says_no_legal_play_on_stderr_when_no_move_is_possible():
    """RULES G9: a checker on the bar against a closed board has no play: stdout stays empty (nothing to list) and
    stderr says "no legal play", exit 0."""
    closed = Position.from_points({13: 5, 8: 4, **{p: -2 for p in range(19, 25)}, 12: -3}, (1, 0))
    done = run("legal", closed.position_id(), "6-4")
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.startswith("no legal play") and done.stderr.count("\n") == 1
    assert gnubg_results(closed, (6, 4)) == set()


def test_show_draws_the_board_with_pips_and_the_match_state():
    done = run("show", "4HPwATDgc/ABMA")
    assert done.returncode == 0
    assert done.stdout.count("pips 167") == 2 and "Position ID: 4HPwATDgc/ABMA" in done.stdout
    assert "+13-14-15-16-17-18------19-20-21-22-23-24-+" in done.stdout
    with_match = run("show", "4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert with_match.returncode == 0 and "cube 1" in with_match.stdout and "score 0" in with_match.stdout


def test_replay_prints_each_game_and_the_final_score():
    done = run("replay", str(MATCHES / "gibbon_7pt_01.mat"))
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "7-point match: Alice vs Bruno"
    games = [line for line in lines if line.startswith("Game ")]
    assert len(games) == 9 and games[0] == "Game 1 (0-0): Bruno wins 1 point (single, double dropped, cube 1)"
    assert lines[-1] == "Final score: Alice 7, Bruno 5 (raw 8-5) — Alice wins the match"


def test_replay_exits_1_at_the_first_illegal_move(tmp_path):
    """RULES G6/G10: the illegal move is named with game, move number, player, line and the reason."""
    text = (MATCHES / "galaxy_3pt_01.txt").read_text(encoding="utf-8").replace("64: 25/21 25/19", "64: 25/21 13/7")
    path = tmp_path / "bad.mat"
    path.write_text(text, encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "Game 3 (1-1): stopped at move 33: illegal move"
    error = done.stderr.strip()
    assert "\n" not in error and error.startswith("illegal move: game 3, move 33 (Bruno, line 77): 64: 25/21 13/7")
    assert "legal plays" in error


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("legal", "4HPwATDgc/ABM", "31"), "Position ID has 14 characters"),
        (("legal", "4HPwATDgc/ABMA", "71"), "out of range"),
        (("legal", "4HPwATDgc/ABMA", "3"), "two digits"),
        (("legal", "!!!!!!!!!!!!!!", "31"), "base64"),
        (("legal", "4HPwATDgc/ABMA"), "required"),
        (("show", "4HPwATDgc/ABMA:xyz"), "Match ID"),
        (("replay", "/no/such/file.mat"), "cannot read"),
        (("replay", str(MATCHES / "expected.json")), "line 1"),
        (("replay", str(MATCHES / "gibbon_7pt_01.mat"), "--jacoby"), "money sessions"),
        (("replay", str(MATCHES / "gibbon_7pt_01.mat"), "--automatic-doubles", "x"), "whole number"),
        (("fly",), "invalid choice"),
        ((), "required"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(args, words):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    error = done.stderr.strip()
    assert "\n" not in error and "Traceback" not in error and words in error
