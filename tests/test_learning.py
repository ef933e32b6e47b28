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


def _cube_game(*, take: bool, big_roll: bool = False) -> Game:
    """Ann (side 0) opens with 2-1; Bob rolls 2-1 (or, ``big_roll``, 6-6) and plays it; Ann doubles and Bob takes
    (then Ann rolls 2-1 and plays it) or passes."""
    game = Game(RuleSet.preset("tournament"), 5)
    game.opening_roll(2, 1)
    game.play(0, "13/11 6/5")
    game.roll(1, (6, 6) if big_roll else (2, 1))
    game.play(1, game.legal_plays()[0])
    game.double(0)
    if not take:
        game.drop(1)
        return game
    game.take(1)
    game.roll(0, (2, 1))
    game.play(0, game.legal_plays()[0])
    return game


def test_without_the_engine_a_take_or_a_pass_is_the_turning_point_when_it_swung_more_points():
    """A double taken at 1 weighs 1 point, as a 20-pip swing at cube 1 (PIPS_PER_POINT): it beats plays of 3 pips,
    not a 6-6 of 24 pips; a pass ends the game and says who won what."""
    from club.highlight import CUBE, PIPS_PER_POINT, highlight_views
    from rendering import OPPONENT, VIEWER

    point = turning_point([_cube_game(take=True)])
    assert point.measure == CUBE and point.decision.kind == "answer" and point.decision.side == 1
    assert (point.before, point.after, point.points) == (1, 2, 1) and PIPS_PER_POINT == 20
    assert point.describe(("Ann", "Bob")) == "game 1, Ann doubled to 2, Bob took — cube 1 → 2"
    views = highlight_views(point, ("Ann", "Bob"), "#3")
    assert [v.viewer_name for v in views] == ["Ann"] * 3 and [v.on_roll for v in views] == [VIEWER, OPPONENT, None]
    assert views[0].offered_cube is None and views[1].offered_cube == 2  # the cube offered to Bob
    assert (views[-1].cube_value, views[-1].cube_owner) == (2, OPPONENT)  # taken: Bob owns it at 2
    assert views[-1].awaiting == "#3 turning point: cube 1 → 2" and views[0].position == views[-1].position
    assert len(frames_of(render_animation(views))) == 3
    passed = turning_point([_cube_game(take=False)])
    assert passed.measure == CUBE and passed.game == 1 and passed.after == 0
    assert passed.describe(("Ann", "Bob")) == "game 1, Ann doubled to 2, Bob passed — Ann won 1 point"
    assert highlight_views(passed, ("Ann", "Bob"))[-1].awaiting == "turning point: passed at 2: game over"
    found = compute_highlight([_cube_game(take=False)], ("Ann", "Bob"), 5)
    assert found.caption == (
        "Turning point of #5, game 1, Ann doubled to 2, Bob passed — Ann won 1 point (by the pip count and the cube)"
    )
    big = turning_point([_cube_game(take=True, big_roll=True)])
    assert big.measure == PIPS and big.swing == 24 and big.points == pytest.approx(24 / 20)


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


def test_the_gallery_highlight_header_states_the_pip_lead_its_frames_show(monkeypatch):
    """The header of the gallery's last frame is the pip lead before and after the play it shows (24/14*: Ann's
    ten pips and the fourteen Bob's checker is sent back)."""
    import rendering.animation as animation

    views = []

    def capture(*args, **kwargs):
        views.extend(play_frames(*args, **kwargs))
        return views

    monkeypatch.setattr(animation, "play_frames", capture)
    learning_samples()
    first, last = views[0].position, views[-1].position
    before, after = first.pips_opponent - first.pips_player, last.pips_opponent - last.pips_player
    assert (before, after) == (13, 37) and last.opponent[24] == 1  # Bob's checker on the bar
    assert views[-1].awaiting == "#7 turning point: pip lead +13 → +37"


@needs_engine
def test_quiz_choices_best_and_own_play_in_an_order_that_varies():
    """The best play, the member's own and one or two others, every equity from one level; shuffled, so the best is
    not always first (the known mistake of quiz tools: the answer was always "A")."""
    from club.analysis.screen import game_key
    from club.quiz import QUIZ_LEVEL, question_task, screen_task

    game = _played_game(16)
    plays = {d.index: d for d in decisions(game) if d.kind == PLAY}
    [(_key, screened)] = screen_task([(game_key(1, 1, game), game.to_json())])
    found = [(loss, index) for loss, index, _side in screened if index in plays]
    assert found, "the first legal play of every roll made no error at all"
    _loss, index = max(found)
    bests = set()
    for seed in range(8):
        data = question_task(game.to_json(), index, 0.04, seed)
        assert data is not None and data["kind"] == PLAY and 3 <= len(data["choices"]) <= 4
        equities = [equity for _play, equity, _moves, _lost in data["choices"]]
        assert data["choices"][data["best"]][1] == max(equities) and data["best"] != data["made"]
        assert data["choices"][data["made"]][0] == (plays[index].play.notation() or "no move")
        assert data["loss"] == pytest.approx(max(equities) - data["choices"][data["made"]][1])
        bests.add(data["best"])
    assert len(bests) > 1, "the best play was always in the same place"
    assert QUIZ_LEVEL == "2ply"


@needs_engine
def test_cube_decisions_are_screened_and_asked_with_the_whole_cube_action(tmp_path):
    """Doubling after one roll of a 5-point match is wrong and passing it a huge error: both are screened, the
    double asked as "No double" / "Double, take" / "Double, pass" (what happened: doubled and passed), the answer as
    "Take" / "Pass" from the taker's side with the cube offered; the reveal ranks the right action first."""
    from club.analysis.screen import game_key
    from club.quiz import QuizQuestion, question_task, quiz_card_png, screen_task

    game = Game(RuleSet.preset("tournament"), 5)
    game.opening_roll(3, 1)
    game.play(0, "8/5 6/5")
    game.double(1)
    game.drop(0)
    [(_key, screened)] = screen_task([(game_key(1, 1, game), game.to_json())])
    by_index = {index: (loss, side) for loss, index, side in screened}
    assert by_index[3][1] == 0 and by_index[3][0] > 1.0  # the pass
    assert by_index[2][1] == 1 and by_index[2][0] > 0.2  # the double
    view = SimpleNamespace(players=(101, 202), names=("Ann", "Bob"))
    double = QuizQuestion.from_task(question_task(game.to_json(), 2, 0.04, 1), 1, 1, 2, view)
    assert double.kind == "double" and double.answers() == ["No double", "Double, take", "Double, pass"]
    assert (double.best, double.made, double.member_id, double.dice) == (0, 2, 202, None)
    assert double.loss == pytest.approx(double.choice_loss(1)) and double.choice_loss(0) == 0
    assert double.poll_question(1, False) == "Quiz 1: the player on roll (5-point match, 0-0). The right cube action?"
    answer = QuizQuestion.from_json(QuizQuestion.from_task(question_task(game.to_json(), 3, 0.04, 1), 1, 1, 3, view)
                                    .to_json())  # fmt: skip
    assert answer.kind == "answer" and answer.answers() == ["Take", "Pass"] and (answer.best, answer.made) == (0, 1)
    assert answer.poll_question(2, True) == "Quiz 2: Bob doubles Ann to 2 (5-point match, 0-0). Take or pass?"
    assert answer.poll_question(2, False) == "Quiz 2: A double to 2 (5-point match, 0-0). Take or pass?"
    assert "3. Double, pass: +1.000 (" in "\n".join(double.reveal_lines(1, {}, True))
    assert double.reveal_lines(1, {}, True)[3].endswith("— what happened in the game; no votes")
    assert answer.situation == "doubled to 2" and answer.loss > 1.0
    assert (answer.position.pips_player, answer.position.pips_opponent) == (163, 167)  # Ann's view: she played 3-1
    board = answer.board_view(False)
    assert board.offered_cube == 2 and board.dice is None and board.viewer_name == "Doubled"
    lines = answer.reveal_lines(2, {1: ["Cy"]}, False)
    assert lines[1].startswith("1. Take: ") and "(+0.000) — best; no votes" in lines[1]
    assert lines[2].startswith("2. Pass: -1.000") and "played in the game; votes: Cy" in lines[2]
    for question in (double, answer):
        assert quiz_card_png(question, False).startswith(b"\x89PNG")
        assert quiz_card_png(question, True, after=question.best).startswith(b"\x89PNG")


class _CachedOnly:
    """A pool whose screens are all cached: running a task is a failure."""

    workers = 2

    def __init__(self) -> None:
        from club.analysis.screen import ScreenCache

        self.screened = ScreenCache(limit=2)

    async def run(self, fn, *args):
        raise AssertionError(f"{fn.__name__} ran: the game was screened again")


async def test_a_screened_or_reviewed_game_is_read_from_the_cache_not_screened_again():
    from club.analysis.screen import game_key
    from club.quiz import screen_candidates

    game = _played_game()
    plays = [d for d in decisions(game) if d.kind == PLAY and d.choices >= 3]
    pool = _CachedOnly()
    # the review's grades of the game (numbered 1) fill the cache: what lost at least 0.04, costliest first
    grades = [
        SimpleNamespace(decision=plays[0], side=plays[0].side, loss=0.5, game=1),
        SimpleNamespace(decision=plays[1], side=plays[1].side, loss=0.01, game=1),
        SimpleNamespace(decision=plays[2], side=plays[2].side, loss=0.2, game=1),
    ]
    pool.screened.keep_review(7, [game], grades)
    assert pool.screened.get(game_key(7, 1, game)) == [
        (0.5, plays[0].index, plays[0].side), (0.2, plays[2].index, plays[2].side)
    ]  # fmt: skip
    found = await screen_candidates(pool, {(7, 1): game.to_json()}, lambda m, n, i, loss, side: loss >= 0.3)
    assert found == [(0.5, 7, 1, plays[0].index)]
    pool.screened.put((8, 1, 10), [])
    pool.screened.put((9, 1, 10), [])
    assert len(pool.screened) == 2 and pool.screened.get(game_key(7, 1, game)) is None  # the oldest forgotten


class _InProcess(_CachedOnly):
    """A pool that runs each task here, two at a time as two workers would, counting them."""

    def __init__(self) -> None:
        import asyncio

        super().__init__()
        self.screened.limit = 100
        self.ran = 0
        self._slots = asyncio.Semaphore(self.workers)

    async def run(self, fn, *args):
        import asyncio

        async with self._slots:
            await asyncio.sleep(0)
            self.ran += 1
            return fn(*args)


@needs_engine
async def test_the_screen_stops_once_enough_are_found_and_keeps_what_it_screened():
    from club.quiz import screen_candidates

    games = {(m, 1): _played_game(10 + m).to_json() for m in range(1, 9)}
    pool = _InProcess()
    found = await screen_candidates(pool, games, lambda m, n, i, loss, side: loss >= 0.04, enough=1)
    first = pool.ran
    assert found and first < 8 and len(pool.screened) == first  # 8 batches (4 per worker): the rest never ran
    everything = await screen_candidates(pool, games, lambda m, n, i, loss, side: loss >= 0.04)
    assert pool.ran == 8 and len(pool.screened) == 8 and set(found) <= set(everything)  # only the others now
    assert everything == sorted(everything, reverse=True)
    again = await screen_candidates(pool, games, lambda m, n, i, loss, side: loss >= 0.04)
    assert again == everything and pool.ran == 8  # all read from the cache


@needs_engine
async def test_screens_are_kept_in_the_database_and_read_back_after_a_restart(tmp_path):
    """A new pool (the bot restarted: nothing in memory) reads the screens the first one kept in the club's
    database instead of screening the games again."""
    import random

    from club.quiz import screen_candidates
    from tests.clubkit import club_service, new_table, play_out, seeded

    async with club_service(tmp_path / "club.sqlite3", seeds=seeded(4)) as service:
        finished = await play_out(service, await new_table(service, 1), random.Random(4))
        games = {(finished.match_id, n): r.state for n, r in enumerate(await service.db.games(finished.match_id), 1)}

        def keep(m, n, i, loss, side):
            return True

        first = _InProcess()
        found = await screen_candidates(first, games, keep, db=service.db)
        assert first.ran >= 1 and len(first.screened) == len(games)
        again = _CachedOnly()  # running a task fails the test
        again.screened.limit = 100
        assert await screen_candidates(again, games, keep, db=service.db) == found
        assert len(again.screened) == len(games)
