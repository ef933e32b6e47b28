"""The engine adapter, the walk of a game's decisions, the grading, and the bot without the engine."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from backgammon.matfile import parse_mat
from backgammon.moves import legal_plays
from backgammon.position import Position
from backgammon.replay import replay
from club.analysis import ENABLE_ANALYSIS, AnalysisUnavailableError, engine_available, require_engine
from club.analysis.engine import CubeEquities, CubeState
from club.analysis.walk import ANSWER, DOUBLE, PLAY, decisions
from tests.casekit import CASES, ROOT
from tests.randompos import random_position

MATCHES = CASES / "matches"
needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")


def _decisions(name: str):
    record = parse_mat((MATCHES / name).read_text(encoding="utf-8"))
    report = replay(record)
    return [d for game in report.games if game.game is not None for d in decisions(game.game)]


# -- the walk (no engine needed) ------------------------------------------------------------------------------------
def test_walk_counts_the_decisions_gnubg_counts():
    """gnubg's `show statistics match` on fibs_7pt_01: Alice 59 moves (49 unforced), 44 cube decisions; Bruno 60
    (50), 39 — the walk finds the same (gnubg's "total cube decisions" = doubles possible + answers)."""
    found = _decisions("fibs_7pt_01.txt")
    for side, (moves, unforced, cube) in enumerate([(59, 49, 44), (60, 50, 39)]):
        plays = [d for d in found if d.side == side and d.kind == PLAY]
        assert len(plays) == moves
        assert sum(d.choices > 1 for d in plays) == unforced
        assert sum(d.kind in (DOUBLE, ANSWER) for d in found if d.side == side) == cube


def test_walk_sees_the_cube_from_the_deciders_side():
    found = _decisions("fibs_7pt_01.txt")
    doubles = [d for d in found if d.kind == DOUBLE and d.acted]
    answers = [d for d in found if d.kind == ANSWER]
    assert doubles and len(answers) == len(doubles)
    for double, answer in zip(doubles, answers, strict=True):
        assert answer.side == 1 - double.side  # the taker answers
        assert answer.position == double.position  # seen from the doubler, like the equities
        assert answer.cube == double.cube
        assert double.cube.owner in (None, 0)  # he may double: centred or his own cube (RULES D1)
    # a play's cube state follows the takes: after the first take, the taker owns it at 2
    first = answers[0]
    later = [d for d in found if d.kind == PLAY and d.index > first.index and d.side == first.side]
    assert later[0].cube.value == 2 and later[0].cube.owner == 0


def test_cube_equities_words():
    assert CubeEquities(0.2, 0.1, 1.0).action() == "no double, take"
    assert CubeEquities(0.6, 0.7, 1.0).action() == "double, take"
    assert CubeEquities(0.9, 1.3, 1.0).action() == "double, pass"
    assert CubeEquities(1.2, 1.5, 1.0).action() == "too good, pass"
    cube = CubeState(2, 0, 7, (2, 4))
    assert cube.away == (5, 3)
    assert cube.swapped() == CubeState(2, 1, 7, (4, 2))


# -- without the engine -----------------------------------------------------------------------------------------------
def test_without_the_engine_the_bot_says_how_to_enable_analysis(monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)  # import bgsage now raises ImportError
    assert engine_available() is False
    with pytest.raises(AnalysisUnavailableError, match="requirements-analysis.txt"):
        require_engine()
    from club.analysis.cli import main

    assert main([str(MATCHES / "fibs_1pt_01.txt")]) == 1


def test_the_bot_imports_and_the_analyse_command_refuses_without_the_engine(tmp_path):
    """A real process where `import bgsage` fails: the bot's modules import, `analyse` exits 1 with the message."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text("import sys\nsys.modules['bgsage'] = None\nsys.modules['bgbot_cpp'] = None\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    script = (
        "import sys, importlib, bot, cogs\n"
        "for name in cogs.EXTENSIONS: importlib.import_module(name)\n"
        f"sys.exit(bot.main(['analyse', {str(MATCHES / 'fibs_1pt_01.txt')!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert ENABLE_ANALYSIS in done.stderr


# -- the engine -------------------------------------------------------------------------------------------------------
@needs_engine
def test_engine_board_matches_our_legal_plays():
    """Open Sage's own move generator, fed our board, reaches exactly our legal plays (so the conversion of bar,
    points and sides is right, RULES G4–G9)."""
    import bgsage

    from club.analysis.sage import to_board

    rng = random.Random(15)
    for kind in ("contact", "bar", "bearoff", "race"):
        for _ in range(25):
            position = random_position(rng, kind)
            for dice in ((3, 1), (6, 6), (5, 2), (1, 1)):
                ours = {tuple(to_board(p.position)) for p in legal_plays(position, dice) if p.moves}
                theirs = {tuple(b) for b in bgsage.possible_moves(to_board(position), *dice)}
                theirs.discard(tuple(to_board(position)))  # a dance: Open Sage lists the unchanged board
                # Open Sage also lets the last checker off with one die when both could be played; we (and gnubg)
                # require both dice (RULES G7): any extra of its plays must be such a finish
                extra = theirs - ours
                assert ours <= theirs and all(sum(c for c in b[1:] if c > 0) == 0 for b in extra), (
                    kind,
                    dice,
                    position.position_id(),
                )


@needs_engine
def test_engine_best_plays_and_cube_money_and_match():
    from club.analysis.sage import SageEngine

    engine = SageEngine("1ply")
    ranked = engine.best_plays(Position.initial(), (3, 1), CubeState())
    assert ranked[0].play.notation() == "8/5 6/5"  # the standard opening 31, money and match
    assert len(ranked) == len(legal_plays(Position.initial(), (3, 1)))
    assert ranked[0].loss == 0 and all(a.equity >= b.equity for a, b in zip(ranked, ranked[1:], strict=False))
    assert engine.best_plays(Position.initial(), (3, 1), CubeState(match_length=7, score=(2, 4)))[
        0
    ].play.notation() == ("8/5 6/5")
    # money: no double at the start; a closed-out, 14-checkers-off position is too good / pass
    start = engine.cube_decision(Position.initial(), CubeState())
    assert start.action() == "no double, take" and start.double_pass == 1.0
    crushing = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: -13}, bar=(0, 2))
    assert not engine.cube_decision(crushing, CubeState()).should_take
    # match play: 2-away 2-away, the cube is more valuable than at money; the pass is worth the MET figure (≤ 1)
    match = engine.cube_decision(Position.initial(), CubeState(match_length=5, score=(3, 3)))
    assert match.no_double > -1 and match.double_pass <= 1.0 + 1e-9


@needs_engine
def test_a_dance_has_one_forced_empty_play_and_luck_counts_it():
    from club.analysis.sage import SageEngine

    closed = Position.from_points({19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2, 13: 13}, bar=(2, 0))
    engine = SageEngine("1ply")
    only = engine.best_plays(closed, (6, 6), CubeState())
    assert len(only) == 1 and not only[0].play.moves
    equities = engine.roll_equities(closed, CubeState())
    assert len(equities) == 21 and len(set(equities.values())) == 1  # every roll dances: one equity


@needs_engine
def test_grading_a_known_blunder_a_forced_play_and_a_wrong_pass():
    from club.analysis.grade import BLUNDER, grade_decisions, summarise
    from club.analysis.sage import SageEngine
    from club.analysis.walk import Decision

    engine = SageEngine("1ply")
    start = Position.initial()
    bad = next(p for p in legal_plays(start, (3, 1)) if p.notation() == "24/20")
    blunder = Decision(PLAY, 0, 1, start, CubeState(), dice=(3, 1), play=bad, choices=16)
    bar = Position.from_points({19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2, 13: 13}, bar=(2, 0))
    forced = Decision(PLAY, 0, 3, bar, CubeState(), dice=(6, 6), play=legal_plays(bar, (6, 6))[0], choices=1)
    opening = CubeState()
    drop = Decision(ANSWER, 1, 4, start, opening, acted=False)  # passing an initial double: a huge error
    grades = grade_decisions(engine, [blunder, forced, drop], luck=False)
    assert grades[0].loss >= BLUNDER and grades[0].best == "8/5 6/5" and grades[0].counted
    assert not grades[1].counted and grades[1].loss == 0
    assert grades[2].loss > 0.5 and grades[2].best == "take"
    player0, player1 = summarise(grades, ("A", "B"))
    assert (player0.decisions, player0.blunders) == (1, 1)
    assert player0.pr == pytest.approx(500 * grades[0].loss)
    assert (player1.decisions, player1.cube_errors, player1.blunders) == (1, 1, 1)


@needs_engine
def test_analyse_command_json_shape_and_short_match_note(capsys):
    from club.analysis.cli import main

    assert main([str(MATCHES / "fibs_1pt_01.txt"), "--json", "--level", "1ply", "--workers", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["players"]) == {"Alice", "Bruno"}
    for figures in data["players"].values():
        assert set(figures) == {"pr", "decisions", "errors", "blunders", "cube_errors", "luck"}
    # a 1-point match of one short game: fewer than 20 decisions each, so no PR but a note saying why
    assert all(f["pr"] is None for f in data["players"].values())
    assert any("too few" in note for note in data["notes"])


@needs_engine
def test_abandoned_match_is_said_so(tmp_path):
    from club.analysis.match import analyse_record

    text = (MATCHES / "fibs_7pt_01.txt").read_text(encoding="utf-8")
    cut = text[: text.index(" Game 2")]  # only the first game of a 7-point match
    analysis = analyse_record(parse_mat(cut), level="1ply")
    assert analysis.games == 1
    assert any("not played to its end" in note for note in analysis.notes)


def test_requirements_and_ci_install_the_engine():
    assert "bgsage" in (ROOT / "requirements-analysis.txt").read_text()
    assert 'pip install --quiet -e ".[dev,analysis]"' in (ROOT / ".ci" / "run").read_text()
    assert not Path(ROOT / "backgammon").joinpath("analysis").exists()  # the rules engine stays engine-free


@needs_engine
def test_practice_choices_by_strength():
    """The practice opponent's choices (club/analysis/practice.py): the expert plays the engine's best play and its
    cube actions; a beginner's noise makes other plays too; an unknown strength is refused naming the choices."""
    from club.analysis.practice import check_strength, choose_play_task, cube_action_task

    start = Position.initial().position_id()
    assert choose_play_task(start, (3, 1), CubeState(), "expert", 1) == "8/5 6/5"
    beginner = {choose_play_task(start, (6, 4), CubeState(), "beginner", seed) for seed in range(12)}
    assert len(beginner) > 1
    assert cube_action_task(start, CubeState(), "expert", 1) == "roll"  # no double at the start
    assert cube_action_task(start, CubeState(), "expert", 1, True) == "take"  # an opening double is a take
    with pytest.raises(ValueError, match="beginner, casual, intermediate, advanced, expert"):
        check_strength("godlike")


def test_the_review_line_counts_in_the_right_number():
    """One error is "1 error", not "1 errors" (and so for blunders, cube errors, decisions); two are plural."""
    from club.analysis.grade import PlayerGrade
    from club.analysis.match import MatchAnalysis

    one = PlayerGrade("Alice", decisions=1, cube_decisions=1, errors=1, blunders=1, cube_errors=1)
    two = PlayerGrade("Bob", decisions=2, cube_decisions=0, errors=2, blunders=2, cube_errors=0)
    analysis = MatchAnalysis(("Alice", "Bob"), 1, [one, two], 1, "1ply")
    for markdown in (False, True):
        line = analysis.player_line(0, markdown=markdown)
        assert "over 1 decision" in line and "1 error" in line and "1 blunder" in line and "1 cube error" in line
        assert not re.search(r"\b1 (decisions|errors|blunders|cube errors)\b", line), line
        other = analysis.player_line(1, markdown=markdown)
        assert (
            "over 2 decisions" in other and "2 errors" in other and "2 blunders" in other and "0 cube errors" in other
        )
