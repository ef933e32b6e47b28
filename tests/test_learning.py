"""Learning from the club's games without Discord: the highlight's frames (the play checker by checker, the dice
shown, the last frame the final position, at most 2 MB and 600 px wide) and the turning point chosen by the pip
count or by the engine's equities; the quiz's choices (best, the member's own, others) in an order that varies."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from backgammon.game import Game
from backgammon.moves import legal_plays
from backgammon.position import Position
from backgammon.rules import RuleSet
from club.analysis import engine_available
from club.analysis.walk import PLAY, decisions
from club.highlight import EQUITY, PIPS, compute_highlight, turning_point
from rendering.animation import MAX_BYTES, AnimationError, frames_of, play_frames, render_animation
from rendering.gallery import learning_samples

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")


def _played_game(turns: int = 12) -> Game:
    """A game of ``turns`` plays, each the first legal play (dice from a fixed cycle)."""
    game = Game(RuleSet.preset("tournament"), 3)
    game.opening_roll(5, 2)
    rolls = [(6, 4), (3, 1), (5, 5), (6, 2), (4, 3), (2, 1), (6, 6), (5, 3)]
    for turn in range(turns):
        plays = game.legal_plays()
        game.play(game.on_roll, plays[-1])
        game.roll(game.on_roll, rolls[turn % len(rolls)])
    return game


def test_play_frames_move_checker_by_checker_and_end_on_the_final_position():
    start = Position.initial()
    play = next(p for p in legal_plays(start, (6, 4)) if p.notation() == "24/14")
    views = play_frames(start, play.moves, (6, 4), "the end", viewer_name="Ann", opponent_name="Bob")
    assert len(views) == 1 + len(play.moves)
    assert views[0].position == start and views[0].awaiting == "to play 6-4"
    assert all(view.dice == (6, 4) for view in views)  # the dice are shown on every frame
    assert [len(view.last_play) for view in views] == [0, 1, 2]
    assert views[1].position.at(18) == 1 and views[1].position.at(24) == 1  # one checker moved one die
    assert views[-1].position == play.position and views[-1].awaiting == "the end"
    data = render_animation(views)
    frames = frames_of(data)
    assert len(frames) == len(views) and frames[0].size[0] == 600 and len(data) <= MAX_BYTES
    assert frames[0].tobytes() != frames[-1].tobytes()
    assert render_animation(views, fmt="png").startswith(b"\x89PNG")
    with pytest.raises(AnimationError):
        render_animation([])


def test_the_turning_point_by_pips_is_the_biggest_pip_lead_swing():
    game = _played_game()
    point = turning_point([game])
    assert point is not None and point.measure == PIPS and point.game == 1
    swings = []
    for decision in decisions(game):
        if decision.kind == PLAY and decision.play.moves:
            before = decision.position.pips_opponent - decision.position.pips_player
            after = decision.play.position.pips_opponent - decision.play.position.pips_player
            swings.append(after - before)
    assert point.swing == max(swings) and point.after - point.before == point.swing
    found = compute_highlight([game], ("Ann", "Bob"), 4)
    assert found.filename == "highlight-4.gif" and "pip lead" in found.caption and len(found.data) <= MAX_BYTES
    assert len(frames_of(found.data)) == 1 + len(point.decision.play.moves)


def test_the_turning_point_by_equity_takes_the_biggest_swing_between_graded_plays():
    game = _played_game()
    plays = [d for d in decisions(game) if d.kind == PLAY and d.choices > 1]
    # side 0's equity after each play: flat, then one jump at the fourth graded play
    balance = [0.1, 0.1, 0.12, 0.9, 0.85, 0.8]
    grades = []
    for decision, value in zip(plays, balance, strict=False):
        mover = value if decision.side == 0 else -value
        grades.append(SimpleNamespace(kind=PLAY, side=decision.side, decision=decision, made_equity=mover, game=1))
    point = turning_point([game], grades)
    assert point.measure == EQUITY and point.decision is plays[3]
    assert point.swing == pytest.approx(0.78)
    sign = 1 if plays[3].side == 0 else -1
    assert (point.before, point.after) == (pytest.approx(sign * 0.12), pytest.approx(sign * 0.9))


def test_the_gallery_has_a_quiz_card_and_a_highlight_within_the_limits():
    samples = learning_samples()
    assert samples["quiz-card.png"].startswith(b"\x89PNG") and samples["quiz-answer.png"].startswith(b"\x89PNG")
    data = samples["highlight.gif"]
    frames = frames_of(data)
    assert data.startswith(b"GIF8") and len(data) <= MAX_BYTES and len(frames) == 3 and frames[0].size[0] == 600


@needs_engine
def test_quiz_choices_best_and_own_play_in_an_order_that_varies():
    """The best play, the member's own and one or two others, every equity from one level; shuffled, so the best is
    not always first (the known mistake of quiz tools: the answer was always "A")."""
    from club.quiz import QUIZ_LEVEL, question_task, screen_task

    game = _played_game(16)
    found = screen_task([(1, 1, game.to_json())], 0.04)
    assert found, "the first legal play of every roll made no error at all"
    _loss, _match, _game, index = max(found)
    bests = set()
    for seed in range(8):
        data = question_task(game.to_json(), index, 0.04, seed)
        assert data is not None and 3 <= len(data["choices"]) <= 4
        equities = [equity for _play, equity, _moves in data["choices"]]
        assert data["choices"][data["best"]][1] == max(equities) and data["best"] != data["made"]
        made = next(d for d in decisions(game) if d.kind == PLAY and d.index == index)
        assert data["choices"][data["made"]][0] == (made.play.notation() or "no move")
        bests.add(data["best"])
    assert len(bests) > 1, "the best play was always in the same place"
    assert QUIZ_LEVEL == "2ply"
