"""Each chouette member's cube decisions graded against the engine, finished games only."""

from __future__ import annotations

import random

import pytest

from club.analysis import engine_available
from club.analysis.chouette import chouette_decisions, chouette_review_lines, grade_chouette
from club.analysis.walk import ANSWER, DOUBLE
from tests.chouette_clubkit import NAMES, chouettes, decide_randomly, seated


async def _one_game_played(tmp_path, seed: int):
    async with chouettes(tmp_path / "c.sqlite3") as svc:
        outcome = await seated(svc)
        sid = outcome.session_id
        rng = random.Random(seed)
        for _ in range(3000):
            if outcome.view.game_number >= 2:
                break
            outcome = await decide_randomly(svc, outcome, rng, double=0.4)
        else:
            raise AssertionError("game 1 did not end")
        return await svc.log(sid)


async def test_every_cube_decision_of_a_finished_game_is_found(tmp_path):
    actions = await _one_game_played(tmp_path, 5)
    found = chouette_decisions(actions)
    game_one = [a for a in actions if a.game_number == 1]
    assert {number for _, number, _, _ in found} <= {1}  # the game being played (2) is left out
    answers = [a for a in game_one if a.kind == "answer"]
    graded_answers = [(m, d) for m, number, _, d in found if d.kind == ANSWER and number == 1]
    team_answers = [(m, d) for m, d in graded_answers if d.side == 1]
    # one per Team member's answer to Box's double (the answers to raccoons are not graded)
    assert 0 < len(team_answers) <= len(answers)
    assert {m for m, _ in team_answers} <= {a.args["member"] for a in answers}
    box = [m for m, d in graded_answers if d.side == 0]
    assert box and len(set(box)) == 1  # Box answers the Team's doubles
    team_windows = [a for a in game_one if a.kind in ("double", "pass") and str(a.args.get("member")) != ""]
    assert team_windows, "the random session doubled"
    doubles = [d for _, number, _, d in found if d.kind == DOUBLE and d.acted]
    assert doubles and all(d.cube.value >= 1 and d.cube.owner in (None, 0) for d in doubles)


@pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")
async def test_members_cube_decisions_are_graded_in_the_session_review(tmp_path):
    from club.analysis.sage import SageEngine

    actions = await _one_game_played(tmp_path, 5)
    members = grade_chouette(SageEngine("1ply"), actions)
    assert members and all(m in NAMES for m in members)
    for cubes in members.values():
        assert all(g.cube is not None and g.loss >= 0 for g in cubes.grades)
        assert cubes.decisions >= len(cubes.errors)
    lines = chouette_review_lines(members, NAMES, "chouette #1")
    assert lines[0].startswith("**Cube review: chouette #1**")
    assert any("cube decisions" in line for line in lines[1:])
