"""gnubg Position ID and Match ID: encode and decode bit for bit as GNU Backgammon does."""

from __future__ import annotations

import random

import gnubg_nn
import pytest
from conftest import load_cases
from hypothesis import given
from hypothesis import strategies as st
from randompos import random_position

from backgammon.errors import InvalidMatchIdError, InvalidPositionError
from backgammon.ids import MatchState, decode_match_id, decode_position_id, encode_match_id, encode_position_id
from backgammon.position import Position


def test_opening_position_id():
    """RULES G1: the opening is 4HPwATDgc/ABMA in gnubg."""
    assert Position.initial().position_id() == "4HPwATDgc/ABMA"
    assert Position.from_position_id("4HPwATDgc/ABMA") == Position.initial()


def test_position_ids_agree_with_gnubg():
    """Position IDs of 500 random positions equal gnubg_nn.position_id and decode back to the same board."""
    rng = random.Random(3)
    for _ in range(500):
        position = random_position(rng)
        pid = encode_position_id(position)
        assert pid == gnubg_nn.position_id(position.to_gnubg())
        assert Position.from_gnubg(gnubg_nn.board_from_position_id(pid)) == position
        assert decode_position_id(pid) == position


@given(st.randoms(use_true_random=False))
def test_position_id_round_trip(rng):
    """Property: decode(encode(p)) == p for any valid position."""
    position = random_position(rng)
    assert decode_position_id(encode_position_id(position)) == position


def _collect_match_ids(node, found):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("gnubg_match_id", "id") and isinstance(value, str) and len(value) == 12:
                found.add(value)
            _collect_match_ids(value, found)
    elif isinstance(node, list):
        for value in node:
            _collect_match_ids(value, found)


def test_match_ids_from_cases_round_trip():
    """Every gnubg Match ID quoted in scoring.json decodes and re-encodes to the same text."""
    found: set[str] = set()
    _collect_match_ids(load_cases("scoring.json"), found)
    assert len(found) >= 8
    for match_id in found:
        assert encode_match_id(decode_match_id(match_id)) == match_id


def test_match_id_fields_of_known_ids():
    """Known gnubg 1.07 Match IDs decode to the states the cases describe (scoring.json SC01, SC03, SC07)."""
    state = decode_match_id("MgEHAAAAAAAE")  # money, cube 4 centred, on roll with 6-1
    assert (state.cube, state.cube_owner, state.dice, state.match_length) == (4, None, (6, 1), 0)
    state = decode_match_id("MAHnAAAAAAAE")  # 7-point match 0-0, 6-1 to play
    assert (state.cube, state.match_length, state.score, state.dice) == (1, 7, (0, 0), (6, 1))
    state = decode_match_id("AQGgAEAAEAAE")  # post-Crawford 4-2 in a 5-point match, player 0 owns 2
    assert (state.cube, state.cube_owner, state.score, state.match_length) == (2, 0, (4, 2), 5)
    assert not state.jacoby


@given(
    cube_log=st.integers(0, 15),
    owner=st.sampled_from([None, 0, 1]),
    on_roll=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.integers(0, 4),
    turn=st.integers(0, 1),
    offered=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.booleans(),
)
def test_match_id_round_trip(
    cube_log, owner, on_roll, crawford, game_state, turn, offered, resignation, dice, length, score, jacoby
):
    """Property: every representable Match ID state round-trips."""
    state = MatchState(
        1 << cube_log, owner, on_roll, crawford, game_state, turn, offered, resignation, dice, length, score, jacoby
    )
    text = encode_match_id(state)
    assert len(text) == 12 and decode_match_id(text) == state


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/AB", "4HPwATDgc/ABM!", "//////////////", 12345, "AAAAAAAAAAAAAA"])
def test_bad_position_ids_raise(bad):
    """Malformed Position IDs (length, alphabet, too many checkers, empty boards decode but stay valid) are typed errors."""
    if bad == "AAAAAAAAAAAAAA":
        assert decode_position_id(bad).off_player == 15  # all bits zero: a legal (empty) board
        return
    with pytest.raises(InvalidPositionError):
        decode_position_id(bad)


@pytest.mark.parametrize("bad", ["", "cAgAAAAAAAA", "cAgAAAAAAA!E", "////////////", None])
def test_bad_match_ids_raise(bad):
    """Malformed Match IDs raise InvalidMatchIdError with a message."""
    with pytest.raises(InvalidMatchIdError):
        decode_match_id(bad)
