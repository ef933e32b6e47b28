"""FIBS match ratings (RULES A3), checked against values worked out by hand from FIBS ``help formula``:

D = |r1 − r2|;  P_upset = 1 / (10^(D·√n/2000) + 1);  P = P_upset if the favourite wins, 1 − P_upset if the
underdog wins;  K = max(1, 5 − experience/100) for each player;  winner +4·K·√n·P, loser −4·K·√n·P;
start 1500, experience 0; experience = sum of the lengths of the matches finished before.
"""

from __future__ import annotations

import math

import pytest

from club import ClubService, ManualClock
from club.records import ClubRecords, k_factor, p_upset, rate, rating_change
from storage import Database
from tests.bookkit import store_table

pytestmark = pytest.mark.backends  # and on PostgreSQL

A, B, C = 101, 102, 103


def test_k_factor_falls_with_experience_to_one_at_400():
    """K = max(1, 5 − experience/100): 5 new, 4.95 after a 5-pointer, 3.5 at 150, 1.01 at 399, 1 from 400 on."""
    assert k_factor(0) == 5
    assert k_factor(5) == pytest.approx(4.95)
    assert k_factor(150) == pytest.approx(3.5)
    assert k_factor(399) == pytest.approx(1.01)
    assert k_factor(400) == 1
    assert k_factor(5000) == 1


def test_worked_example_two_new_players_5_point_match():
    """1500 v 1500, experience 0, 5 points, A wins.
    D = 0 → P_upset = 1/(10^0 + 1) = 1/2, P = 1/2; K = 5 for both;
    change = 4 × 5 × √5 × 1/2 = 10√5 = 22.3607 → A 1522.3607, B 1477.6393, both experience 5."""
    change = rating_change(1500, 1500, 5, 0, 0)
    assert change.p == 0.5
    assert change.gain == pytest.approx(22.3607, abs=1e-4)
    assert change.loss == pytest.approx(22.3607, abs=1e-4)


def test_worked_example_underdog_wins_3_point_match():
    """Then B (1477.6393, exp 5) beats A (1522.3607, exp 5) over 3 points.
    D = 44.7214; D·√3/2000 = 44.7214 × 1.73205 / 2000 = 0.038730; 10^0.038730 = 1.093276;
    P_upset = 1/2.093276 = 0.477720; the underdog won, so P = 1 − 0.477720 = 0.522280;
    K = 5 − 5/100 = 4.95 for both; change = 4 × 4.95 × √3 × 0.522280 = 34.29461 × 0.522280 = 17.9114."""
    assert p_upset(44.7214, 3) == pytest.approx(0.477720, abs=1e-6)
    change = rating_change(1477.6393, 1522.3607, 3, 5, 5)
    assert change.p == pytest.approx(0.522280, abs=1e-6)
    assert change.gain == pytest.approx(17.9114, abs=1e-3)
    assert change.loss == pytest.approx(17.9114, abs=1e-3)


def test_worked_example_experienced_favourite_wins_7_point_match():
    """1800 (exp 1000) beats 1700 (exp 450) over 7 points: D = 100; 100 × √7 / 2000 = 0.132288;
    10^0.132288 = 1.356087; P_upset = 1/2.356087 = 0.424433 (the favourite must win 57.6% to hold his rating, as
    the FIBS tables say); the favourite won, so P = 0.424433; K = 1 for both;
    change = 4 × √7 × 0.424433 = 10.583005 × 0.424433 = 4.4918 each way."""
    change = rating_change(1800, 1700, 7, 1000, 450)
    assert change.p == pytest.approx(0.424433, abs=1e-6)
    assert change.gain == pytest.approx(4.4918, abs=1e-3)
    assert change.loss == pytest.approx(4.4918, abs=1e-3)


def test_worked_example_only_ones_own_experience_counts():
    """1700 (exp 150) beats 1800 (exp 1000) over 7 points: P = 1 − 0.424433 = 0.575567.
    Winner: K = 5 − 150/100 = 3.5 → 4 × 3.5 × √7 × 0.575567 = 37.04052 × 0.575567 = 21.3193.
    Loser: K = 1 → 10.583005 × 0.575567 = 6.0912. Not zero-sum while someone is below 400."""
    change = rating_change(1700, 1800, 7, 150, 1000)
    assert change.gain == pytest.approx(21.3193, abs=1e-3)
    assert change.loss == pytest.approx(6.0912, abs=1e-3)


def test_rate_applies_matches_in_order_with_experience_before_each():
    """The two worked matches in a row: A 1522.3607 − 17.9114 = 1504.4493, B 1477.6393 + 17.9114 = 1495.5507;
    experience 5 + 3 = 8 each; C never played and is not listed."""
    ratings = rate([(A, B, 5), (B, A, 3)])
    assert set(ratings) == {A, B}
    assert ratings[A].rating == pytest.approx(1504.4493, abs=1e-3)
    assert ratings[B].rating == pytest.approx(1495.5507, abs=1e-3)
    assert (ratings[A].experience, ratings[A].wins, ratings[A].losses) == (8, 1, 1)
    assert ratings[B].last_change == pytest.approx(17.9114, abs=1e-3)
    assert ratings[A].last_change == pytest.approx(-17.9114, abs=1e-3)


def test_bad_lengths_and_experience_are_refused():
    with pytest.raises(ValueError, match="at least 1 point"):
        p_upset(10, 0)
    with pytest.raises(ValueError, match="never negative"):
        rating_change(1500, 1500, 1, -1, 0)


async def test_club_ratings_come_from_its_finished_matches_in_order(tmp_path):
    """The club's stored matches (A beats B to 5, then B beats A to 3; a money session and an unfinished match do not
    count) give the worked ratings; the matches leaderboard and /bg rating rank them."""
    async with Database.open(tmp_path / "ratings.sqlite3") as db:
        service = ClubService(db, clock=ManualClock(2_000_000.0))
        for member, name in ((A, "Ann"), (B, "Ben"), (C, "Cy")):
            await service.register(1, member, name)
        club_id = (await db.get_club(1)).id
        await store_table(db, club_id, (A, B), [(0, 3, 1000.0), (1, 1, 1100.0), (0, 2, 1200.0)], length=5)
        await store_table(db, club_id, (B, A), [(0, 3, 2000.0)], length=3)
        await store_table(db, club_id, (A, C), [(0, 1, 2100.0)], length=0, stake=5)
        await store_table(db, club_id, (C, B), [(0, 1, 2200.0)], length=7, over=False)
        records = ClubRecords(service)
        ratings = await records.ratings(1)
        assert set(ratings) == {A, B}
        assert ratings[A].rating == pytest.approx(1504.4493, abs=1e-3)
        assert ratings[B].rating == pytest.approx(1495.5507, abs=1e-3)
        board = await records.leaderboard(1, "matches")
        assert [(row.rank, row.name) for row in board.rows] == [(1, "Ann"), (2, "Ben")]
        assert board.rows[0].values == (round(ratings[A].rating, 2), 1, 1, 8)
        rating, rank, rated = await records.rating(1, A)
        assert (rank, rated) == (1, 2) and math.isclose(rating.rating, ratings[A].rating)
        newcomer, rank, _ = await records.rating(1, C)
        assert (newcomer.rating, newcomer.experience, rank) == (1500.0, 0, None)
