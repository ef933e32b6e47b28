"""Matches and money sessions (backgammon.match): RULES M1–M5 with G11, D6."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon.errors import GameError, RuleSetError, WrongPhaseError
from backgammon.game import GameResult
from backgammon.ids import decode_match_id, encode_match_id
from backgammon.match import Match
from backgammon.rules import RuleSet
from tests.game_helpers import A, B, final_board, finish_by_bearing_off, random_action

TOURNAMENT = RuleSet.preset("tournament")


def win(match: Match, winner: int, points: int, kind: str = "single") -> None:
    match.record(GameResult(winner, points, kind, "play", points, 1))


def test_m1_first_to_n_wins_and_the_match_then_refuses_games():
    """RULES M1: the first side to reach N wins; afterwards new_game and record raise WrongPhaseError."""
    match = Match(TOURNAMENT, 3)
    assert (match.score, match.is_over, match.winner) == ((0, 0), False, None)
    win(match, A, 1)
    win(match, B, 2)
    assert match.score == (1, 2) and not match.is_over
    win(match, A, 4)
    assert match.is_over and match.winner == A
    assert match.score == (3, 2) and match.points_won == (5, 2)
    with pytest.raises(WrongPhaseError, match="over"):
        match.new_game()
    with pytest.raises(WrongPhaseError):
        win(match, B, 1)
    assert len(match.games) == 3


def test_m1_raw_score_option():
    """RULES M1 (SC19, unsure): with ``cap_match_score=False`` the score shown is raw."""
    match = Match(RuleSet.preset("tournament", cap_match_score=False), 5, score=(3, 1))
    win(match, A, 4)
    assert match.score == (7, 1) and match.is_over and match.winner == A


def test_m2_gammons_count_in_matches_even_with_the_cube_centred():
    """RULES M2 (003 5.3): in a match a gammon with the cube never turned scores 2; Jacoby cannot be switched on."""
    match = Match(TOURNAMENT, 7)
    game = match.new_game()
    game.opening_roll(6, 1)
    done = finish_by_bearing_off(game, final_board(0, False), B)
    assert (done.result.kind, done.result.points) == ("gammon", 2)
    match.record(done.result)
    assert match.score == (0, 2)
    with pytest.raises(RuleSetError, match="Jacoby"):
        Match(RuleSet.preset("tournament", jacoby=True), 7)


def test_m3_crawford_then_post_crawford():
    """RULES M3 (003 5.5): reaching N−1 first makes the next game the Crawford game (its Game has the flag and no
    cube); the game after it is post-Crawford, with the cube back."""
    match = Match(TOURNAMENT, 5, score=(2, 1))
    win(match, A, 2)
    assert match.score == (4, 1) and match.is_crawford() and match.crawford_game_next and not match.post_crawford
    game = match.new_game()
    assert game.crawford_game and decode_match_id(encode_match_id(game.match_state())).crawford
    win(match, B, 1)
    assert not match.is_crawford() and match.post_crawford and match.crawford_done
    nxt = match.new_game()
    assert not nxt.crawford_game
    nxt.opening_roll(6, 1)
    nxt.play(A, nxt.legal_plays()[0])
    assert "double" in nxt.legal_actions(B)


def test_m3_no_crawford_rule_and_starting_scores():
    """RULES M3: without the Crawford rule N−1 starts no Crawford game; a match started at N−1 each must say the
    Crawford game was played; impossible starting scores raise GameError."""
    match = Match(RuleSet.preset("tournament", crawford=False), 5, score=(4, 0))
    assert not match.is_crawford() and not match.new_game().crawford_game
    with pytest.raises(GameError, match="crawford_done"):
        Match(TOURNAMENT, 5, score=(4, 4))
    assert Match(TOURNAMENT, 5, score=(4, 4), crawford_done=True).post_crawford
    assert Match(TOURNAMENT, 5, score=(4, 2)).is_crawford()
    for bad in ((5, 5), (-1, 0), ("a", 0)):
        with pytest.raises(GameError):
            Match(TOURNAMENT, 5, score=bad)


def test_m4_dead_cube_follows_the_match_score():
    """RULES M4: games handed out by the match know the score, so at 4-4 (double match point) neither may double."""
    match = Match(TOURNAMENT, 5, score=(4, 4), crawford_done=True)
    game = match.new_game()
    game.opening_roll(6, 1)
    game.play(A, game.legal_plays()[0])
    assert "double" not in game.legal_actions(B)


def test_m5_forfeit_of_the_match():
    """RULES M5 (lateness, via the club's time limits A2): the late side forfeits the match; the other side wins."""
    match = Match(TOURNAMENT, 7, score=(3, 5))
    match.forfeit(B)
    assert match.is_over and match.winner == A and match.score == (3, 5)
    with pytest.raises(WrongPhaseError):
        match.forfeit(A)
    with pytest.raises(GameError):
        Match(TOURNAMENT, 7).forfeit(2)
    with pytest.raises(GameError, match="money"):
        Match(RuleSet.preset("money"), 0).forfeit(A)


def test_money_session_running_totals():
    """Money sessions (length 0, RULES M1): never over; score is the net running total (sums to zero); points_won
    the totals won; games start at cube 1 centred with the points won in the Match ID."""
    session = Match(RuleSet.preset("money"), 0)
    assert session.is_money
    for winner, points in ((A, 2), (B, 8), (A, 1)):
        win(session, winner, points)
    assert session.score == (-5, 5) and sum(session.score) == 0
    assert session.points_won == (3, 8)
    assert not session.is_over and session.winner is None and not session.is_crawford()
    game = session.new_game()
    assert (game.match_length, game.score, game.cube_value, game.cube_owner) == (0, (3, 8), 1, None)
    assert decode_match_id(encode_match_id(game.match_state())).score == (3, 8)


def test_record_refuses_bad_results():
    """record() needs a GameResult with a winner 0/1 and points ≥ 0."""
    match = Match(TOURNAMENT, 5)
    for bad in (None, GameResult(2, 1, "single", "play", 1, 1), GameResult(A, -1, "single", "play", 1, 1)):
        with pytest.raises(GameError):
            match.record(bad)
    assert match.games == []


def test_json_round_trip_and_errors():
    """to_json() is plain JSON; from_json() rebuilds an equal match (RULES M1, M3 state included)."""
    match = Match(TOURNAMENT, 5, score=(3, 2))
    win(match, A, 1)
    win(match, B, 1)
    data = match.to_json()
    assert json.loads(json.dumps(data)) == data
    rebuilt = Match.from_json(data)
    assert rebuilt == match and rebuilt.post_crawford and rebuilt.score == (4, 3)
    with pytest.raises(GameError):
        Match.from_json({**data, "forfeited_by": 5})
    with pytest.raises(GameError):
        Match.from_json({k: v for k, v in data.items() if k != "games"})
    with pytest.raises(RuleSetError):
        Match.from_json({**data, "rules": {**data["rules"], "automatic_doubles": 1}})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(1, 7))
def test_random_matches_to_the_end(seed, length):
    """Random matches of random games: scores only grow by each game's points (RULES M1, D6); the Crawford game
    comes exactly once, right after a side first reaches N−1 (RULES M3), and its game has no cube; every game's
    Match ID decodes to its score and length; the match ends exactly when a side reaches N."""
    rng = random.Random(seed)
    match = Match(TOURNAMENT, length)
    crawford_games = 0
    reached_n_minus_1 = False
    while not match.is_over:
        before = match.points_won
        reached_n_minus_1 |= length > 1 and max(before) == length - 1
        game = match.new_game()
        assert game.crawford_game == (reached_n_minus_1 and crawford_games == 0)
        crawford_games += game.crawford_game
        state = decode_match_id(encode_match_id(game.match_state()))
        assert (state.match_length, state.score, state.crawford) == (length, match.score, game.crawford_game)
        while not game.is_over:
            random_action(game, rng, cube_rate=0.2, resign_rate=0.01)
            if game.crawford_game:
                assert game.cube_value == 1 and game.offered_value is None
        match.record(game.result)
        after = match.points_won
        assert after[game.result.winner] - before[game.result.winner] == game.result.points
        assert after[game.result.loser] == before[game.result.loser]
        assert match.post_crawford == (crawford_games == 1 and not match.is_over)
        assert Match.from_json(match.to_json()) == match
    assert max(match.score) == length and match.winner == (0 if match.score[0] == length else 1)
    assert crawford_games == (1 if reached_n_minus_1 else 0)
