"""gnubg Position ID and Match ID: encode and decode bit for bit as GNU Backgammon does."""

from __future__ import annotations

import base64
import random
import re

import gnubg_nn
import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.ascii import ascii_board
from backgammon.errors import InvalidMatchIdError, InvalidPositionError
from backgammon.ids import MAX_MATCH_LENGTH, MatchState, decode_match_id, encode_match_id
from backgammon.position import Position, decode_position_id, encode_position_id
from tests.casekit import load_cases
from tests.randompos import random_position


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


def _collect_match_ids(node, found, refused=None):
    if isinstance(node, dict):
        said = " ".join(v for v in node.values() if isinstance(v, str))
        for key, value in node.items():
            if key in ("gnubg_match_id", "id") and isinstance(value, str) and len(value) == 12:
                (refused if refused is not None and "rejects it as illegal" in said else found).add(value)
            _collect_match_ids(value, found, refused)
    elif isinstance(node, list):
        for value in node:
            _collect_match_ids(value, found, refused)


def test_match_ids_from_cases_round_trip():
    """Every gnubg Match ID quoted in scoring.json decodes and re-encodes to the same text, except the one gnubg's
    own ``set matchid`` refuses (SC19: score 7-1 in a 5-point match, above the length), which is refused here too."""
    found: set[str] = set()
    refused: set[str] = set()
    _collect_match_ids(load_cases("scoring.json"), found, refused)
    assert len(found) >= 8 and refused == {"QQqgAHAACAAE"}
    for match_id in found:
        assert encode_match_id(decode_match_id(match_id)) == match_id
    for match_id in refused:
        with pytest.raises(InvalidMatchIdError, match="above the match length"):
            decode_match_id(match_id)


def test_match_id_fields_of_known_ids():
    """Known gnubg 1.07 Match IDs decode to the states the cases describe (scoring.json SC01, SC03, SC07)."""
    state = decode_match_id("MgEHAAAAAAAE")  # money, cube 4 centred, on roll with 6-1
    assert (state.cube, state.cube_owner, state.dice, state.match_length) == (4, None, (6, 1), 0)
    state = decode_match_id("MAHnAAAAAAAE")  # 7-point match 0-0, 6-1 to play
    assert (state.cube, state.match_length, state.score, state.dice) == (1, 7, (0, 0), (6, 1))
    state = decode_match_id("AQGgAEAAEAAE")  # post-Crawford 4-2 in a 5-point match, player 0 owns 2
    assert (state.cube, state.cube_owner, state.score, state.match_length) == (2, 0, (4, 2), 5)
    assert not state.jacoby


@st.composite
def readable_states(draw):
    """Match states gnubg's MatchFromKey reads (match 0–64 points, scores up to the length, the Crawford flag only
    where SetMatchID keeps it)."""
    length = draw(st.integers(0, MAX_MATCH_LENGTH))
    top = length if length else 32767
    score = (draw(st.integers(0, top)), draw(st.integers(0, top)))
    one_away = bool(length) and length - 1 in score
    crawford = draw(st.booleans()) if length > 1 and one_away else False
    return MatchState(
        cube=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        on_roll=draw(st.integers(0, 1)),
        crawford=crawford,
        game_state=draw(st.integers(0, 4)),
        turn=draw(st.integers(0, 1)),
        double_offered=draw(st.booleans()),
        resignation=draw(st.integers(0, 3)),
        dice=draw(st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6)))),
        match_length=length,
        score=score,
        jacoby=draw(st.booleans()),
    )


@given(readable_states())
def test_match_id_round_trip(state):
    """Property: every state gnubg can read round-trips."""
    text = encode_match_id(state)
    assert len(text) == 12 and decode_match_id(text) == state


def _raw_id(**fields) -> str:
    """A Match ID built bit by bit (field name → value), to write what our encoder refuses."""
    layout = {
        "cube_log": (0, 4),
        "owner": (4, 2),
        "move": (6, 1),
        "crawford": (7, 1),
        "gs": (8, 3),
        "turn": (11, 1),
        "doubled": (12, 1),
        "resigned": (13, 2),
        "d0": (15, 3),
        "d1": (18, 3),
        "length": (21, 15),
        "s0": (36, 15),
        "s1": (51, 15),
        "not_jacoby": (66, 1),
    }
    values = {"owner": 3, "gs": 1, "not_jacoby": 1} | fields
    data = bytearray(9)
    for name, value in values.items():
        start, width = layout[name]
        for i in range(width):
            if value >> i & 1:
                data[(start + i) >> 3] |= 1 << ((start + i) & 7)
    return base64.b64encode(bytes(data)).decode()


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"length": 5, "s0": 6}, "above the match length"),  # MatchFromKey: anScore[0] > nMatchTo
        ({"length": 5, "s1": 9}, "above the match length"),
        ({"length": 65}, "1–64 points"),  # nMatchTo > MAXSCORE
        ({"length": 0, "crawford": 1}, "Crawford game in money play"),  # no Crawford game in money play
        ({"length": 5, "d0": 7, "d1": 1}, "die of 7"),  # anDice out of 0..6
        ({"length": 5, "d0": 2, "d1": 7}, "die of 7"),
        ({"length": 5, "gs": 6}, "unknown game state"),  # stricter than gnubg (documented in backgammon.ids)
    ],
)
def test_match_ids_gnubg_calls_illegal_are_refused(fields, words):
    """gnubg matchid.c MatchFromKey: score above the length, length above MAXSCORE (64), a Crawford flag in money
    play, dice out of range → "Illegal match ID"; refused here with a message naming what is wrong."""
    with pytest.raises(InvalidMatchIdError, match=words):
        decode_match_id(_raw_id(**fields))


def test_match_id_edges_gnubg_accepts_are_read_as_gnubg_reads_them():
    """A score equal to the length and a 64-point match are legal (MatchFromKey); owner bits 10 read as centred
    (MatchFromKey sets owner -1); a half-set roll reads as not rolled (SetMatchID sets dice only when both are set)."""
    assert decode_match_id(_raw_id(length=5, s0=5)).score == (5, 0)
    assert decode_match_id(_raw_id(length=64)).match_length == 64
    state = decode_match_id(_raw_id(length=5, owner=2))
    assert state.cube_owner is None and encode_match_id(state) == _raw_id(length=5, owner=3)
    assert decode_match_id(_raw_id(length=5, d0=3)).dice == (0, 0)
    assert decode_match_id(_raw_id(length=5, d1=3)).dice == (0, 0)


BG25 = next(case for case in load_cases("positions-2.json") if case["id"] == "BG25")


@pytest.mark.parametrize("match_id", list(BG25["setup"]["match_ids"]))
def test_bg25_the_crawford_bit_counts_only_where_gnubg_reads_it(match_id):
    """positions-2.json BG25 (gnubg play.c SetMatchID: ``if (nMatchTo == 1) fCrawford = 0``;
    ``ms.fCrawford = fCrawford && oneAway``): 'Crawford game' only with a side 1-away in a longer match, and the board
    text tells the Crawford game from a post-Crawford game at the same score."""
    expected = BG25["expected"][match_id]
    state = decode_match_id(match_id)
    board = ascii_board(Position.from_position_id(BG25["setup"]["position_id"]), state=state)
    if expected.startswith("Crawford game"):
        assert state.crawford and "Crawford game" in board and "post-Crawford" not in board
    else:
        assert not state.crawford and "Crawford game" not in board
        reemitted = re.search(r"re-emits (\S+?)[;,)]", expected)
        if reemitted:  # gnubg 1.07 writes the ID back without the bit
            assert encode_match_id(state) == reemitted.group(1)
    if expected.startswith("post-Crawford"):
        assert state.post_crawford and "post-Crawford" in board


BG27 = next(case for case in load_cases("positions-2.json") if case["id"] == "BG27")


def test_bg27_both_sides_on_the_bar_against_closed_boards_is_an_illegal_position():
    """positions-2.json BG27 (gnubg positionid.c CheckPosition; bkgm.com 'Illegal Position'): refused from the
    Position ID, from a board built by hand, and from a game set-up; one checker fewer on a bar is legal."""
    with pytest.raises(InvalidPositionError, match="illegal position"):
        decode_position_id(BG27["setup"]["position_id"])
    with pytest.raises(InvalidPositionError, match="closed boards"):
        Position.from_points(BG27["position"]["points"], BG27["position"]["bar"], BG27["position"]["off"])
    legal = Position.from_points(BG27["position"]["points"], {"me": 1, "opp": 0})
    assert legal.player[24] == 1 and decode_position_id(legal.position_id()) == legal
    from backgammon.game import Game
    from backgammon.rules import RuleSet

    with pytest.raises(InvalidPositionError):
        Game.from_json(
            Game.from_position(RuleSet.preset("money"), legal, on_roll=0).to_json()
            | {"board": BG27["setup"]["position_id"]}
        )


def test_position_id_bits_after_the_board_are_ignored_as_gnubg_does():
    """gnubg positionid.c oldPositionFromKey stops at the end of the board: a 1-bit after it changes nothing."""
    position = Position.from_points({1: 1, 24: -1})  # 2 one-bits and 50 zero-bits: bits 52–79 are after the board
    data = bytearray(base64.b64decode(position.position_id() + "=="))
    data[9] |= 0x80  # bit 79
    text = base64.b64encode(bytes(data)).decode().rstrip("=")
    assert text != position.position_id() and decode_position_id(text) == position


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
