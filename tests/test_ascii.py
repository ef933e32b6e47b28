"""The text board (``backgammon.ascii``): X is the player on roll, counts above five, the bar, pips, the Match ID."""

from __future__ import annotations

from backgammon.ascii import ascii_board
from backgammon.ids import MatchState
from backgammon.position import Position


def rows(text: str) -> list[str]:
    return text.split("\n")


def test_initial_position_rows_and_pips():
    """RULES G1: 2/5/3/5 for each side; 167 pips each."""
    lines = rows(ascii_board(Position.initial()))
    assert lines[1].startswith(" | X           O    |   | O              X |")
    assert lines[11].startswith(" | O           X    |   | X              O |")
    assert sum("pips 167" in line for line in lines) == 2
    assert lines[-1] == " Position ID: 4HPwATDgc/ABMA"


def test_tall_points_show_their_count_and_the_bar_its_checkers():
    position = Position.from_points({6: 11, 5: -7, 1: -3}, bar=(2, 5))
    lines = rows(ascii_board(position))
    bottom_fifth_row = lines[7]  # farthest from the bottom edge: the count goes there
    assert bottom_fifth_row[25:28] == "11 " and bottom_fifth_row[28:31] == " 7 "
    assert all(lines[i][21:24] == " O " for i in range(1, 6))  # five O checkers on the bar (top half)
    assert lines[11][21:24] == " X " and lines[10][21:24] == " X " and lines[9][21:24] == "   "
    assert f"pips {position.pips_player}" in lines[10] and f"pips {position.pips_opponent}" in lines[2]


def test_match_state_adds_cube_score_crawford_and_dice():
    """With a Match ID: the cube (RULES D1), the score of a match (M1), the Crawford flag (M3), the dice."""
    state = MatchState(cube=4, cube_owner=1, on_roll=1, crawford=False, dice=(5, 2), match_length=7, score=(3, 5))
    text = ascii_board(Position.initial(), state=state, names=("Alice", "Bruno"))
    assert "X: Bruno" in text and "O: Alice" in text  # gnubg's player 1 is on roll
    assert "cube 4 owned by X" in text and "score 5 of 7" in text and "score 3 of 7" in text
    assert "X rolled 5-2" in text
    crawford = MatchState(crawford=True, match_length=5, score=(4, 2))
    assert "Crawford game" in ascii_board(Position.initial(), state=crawford)


def test_a_member_not_on_roll_sees_his_own_side_at_the_bottom_with_the_full_state():
    """``bottom``: the opponent (player 1) is on roll with 6-4; player 0 looks: he is X at the bottom, the roll is
    marked as O's, the cube and score are shown, and the Position ID stays gnubg's (seen by the player on roll)."""
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 4, 5: 1, 19: -5, 17: -3, 12: -5, 1: -2})
    state = MatchState(cube=2, cube_owner=0, on_roll=1, turn=1, dice=(4, 6), match_length=5, score=(1, 3))
    text = ascii_board(position, state=state, names=("Alice", "Bob"), bottom=0)
    assert "O rolled 6-4" in text and "X: Alice" in text and "O: Bob" in text
    assert "cube 2 owned by X" in text and "score 1 of 5" in text and "score 3 of 5" in text
    assert text.rstrip().endswith(f"Position ID: {position.swap().position_id()}")
