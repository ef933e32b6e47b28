"""The position: set-up, pip counts, swap, impossible positions (RULES G1, G4, G11)."""

from __future__ import annotations

import pytest

from backgammon.errors import InvalidPositionError
from backgammon.position import Position


def test_g1_initial_setup():
    """RULES G1: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6, each side; 167 pips each."""
    position = Position.initial()
    assert position.points_dict() == {24: 2, 19: -5, 17: -3, 13: 5, 12: -5, 8: 3, 6: 5, 1: -2}
    assert position.pips_player == position.pips_opponent == 167
    assert position.off_player == position.off_opponent == 0
    assert position.swap() == position


def test_from_points_and_points_dict_are_inverse():
    """Cases format (signed counts from the player on roll) round-trips, bar and off included."""
    position = Position.from_points({22: 1, 20: -4, 1: 3}, bar=(2, 1), off=(9, 10))
    assert position.points_dict() == {22: 1, 20: -4, 1: 3}
    assert (position.player[24], position.opponent[24]) == (2, 1)
    assert position.swap().swap() == position
    assert position.swap().at(5) == 4  # the opponent's 5-point is our 20-point


def test_g4_two_colours_on_a_point_rejected():
    """RULES G4: a point holds checkers of one colour only."""
    player = [0] * 25
    opponent = [0] * 25
    player[5] = 2  # our 6-point
    opponent[18] = 1  # their 19-point = our 6-point
    with pytest.raises(InvalidPositionError, match="both colours"):
        Position(tuple(player), tuple(opponent))


def test_sixteen_checkers_rejected():
    """A side has 15 checkers at most."""
    with pytest.raises(InvalidPositionError, match="15"):
        Position.from_points({6: 16})


@pytest.mark.parametrize(
    "points,bar,off",
    [({25: 1}, (0, 0), None), ({0: 1}, (0, 0), None), ({6: -1}, (0, 0), (15, 15)), ({6: 2}, (-1, 0), None)],
)
def test_impossible_inputs_rejected(points, bar, off):
    """Points off the board, bad borne-off counts and negative bars are typed errors, never a wrong board."""
    with pytest.raises(InvalidPositionError):
        Position.from_points(points, bar, off)


def test_g11_over_and_race():
    """RULES G11: the game is over when a side has 15 off; contact detection for races."""
    assert Position.from_points({19: -1}).is_over()
    assert not Position.initial().is_race()
    assert Position.from_points({5: 3, 20: -2}).is_race()
    assert not Position.from_points({5: 3}, bar=(0, 1)).is_race()
