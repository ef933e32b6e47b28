"""Notation in and out (RULES G10: a play is final and never illegal; the parser is forgiving, never wrong)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError
from backgammon.moves import legal_plays
from backgammon.notation import ROUTE_NO_HIT, parse_play, parse_segments
from backgammon.position import Position
from tests.casekit import load_cases
from tests.randompos import random_position

CASES = [
    c for c in [*load_cases("positions.json"), *load_cases("positions-2.json")] if c["kind"] in ("moves", "notation")
]


def case_position(case) -> Position:
    p = case["position"]
    return Position.from_points(p["points"], p["bar"], p["off"])


def _ids(key):
    return [(c["id"], text) for c in CASES for text in c["expected"].get(key, [])]


@pytest.mark.parametrize("case_id,text", _ids("must_accept_inputs"))
def test_case_inputs_accepted(case_id, text):
    """positions.json must_accept_inputs: each parses to one of the case's legal plays."""
    case = next(c for c in CASES if c["id"] == case_id)
    position = case_position(case)
    play = parse_play(position, case["dice"], text)
    assert play.position in {p.position for p in legal_plays(position, case["dice"])}


@pytest.mark.parametrize("case_id,text", _ids("must_reject_inputs"))
def test_case_inputs_rejected_with_legal_plays_listed(case_id, text):
    """positions.json must_reject_inputs: IllegalPlayError whose message lists the legal plays (RULES G10)."""
    case = next(c for c in CASES if c["id"] == case_id)
    position = case_position(case)
    with pytest.raises(IllegalPlayError) as info:
        parse_play(position, case["dice"], text)
    legal = [p.notation() for p in legal_plays(position, case["dice"])]
    assert sorted(info.value.legal) == sorted(legal)
    assert all(text in str(info.value) for text in legal)


def test_bg13_joined_move_ambiguous_by_default_and_gnubg_policy():
    """BG13 (unsure): '24/13' is ambiguous by default; the gnubg policy maps it to the non-hitting play."""
    case = next(c for c in CASES if c["id"] == "BG13")
    position = case_position(case)
    with pytest.raises(AmbiguousPlayError) as info:
        parse_play(position, (6, 5), "24/13")
    assert sorted(info.value.candidates) == ["24/18*/13", "24/19/13"]
    play = parse_play(position, (6, 5), "24/13", route_policy=ROUTE_NO_HIT)
    assert play.hits == 0 and play.position.opponent[24] == 0
    # the intermediate point decides, with or without '*' (the hit is implied)
    assert parse_play(position, (6, 5), "24/18/13").hits == 1
    assert parse_play(position, (6, 5), "24/19/13").hits == 0


def test_bg06_output_marks_hits_and_input_needs_no_pass_token():
    """BG06: canonical output 'bar/22*'; 'bar/22' and '25/22' accepted, no 'Pass' token needed."""
    case = next(c for c in CASES if c["id"] == "BG06")
    position = case_position(case)
    (play,) = legal_plays(position, (6, 3))
    assert play.notation() == case["expected"]["canonical_output"]
    assert parse_play(position, (3, 6), "25/22").position == play.position


def test_output_forms():
    """Standard output: sorted from the highest point, joined moves, repeats '(2)', 'off'."""
    opening = Position.initial()
    texts = {p.notation() for p in legal_plays(opening, (3, 1))}
    assert {"8/5 6/5", "24/23 24/21", "24/20", "13/10 6/5"} <= texts
    texts = {p.notation() for p in legal_plays(opening, (4, 4))}
    assert {"24/20(2) 13/9(2)", "13/5(2)", "24/16(2)", "13/9(2) 6/2(2)"} <= texts
    bearoff = Position.from_points({6: 2, 5: 1, 24: -1})
    assert {p.notation() for p in legal_plays(bearoff, (6, 6))} == {"6/off(2) 5/off"}
    hit_in_middle = Position.from_points({13: 2, 7: -1, 24: -2})
    assert "13/7*/5" in {p.notation() for p in legal_plays(hit_in_middle, (6, 2))}


@pytest.mark.parametrize(
    "text",
    [
        "24:18 13/11",  # a dash (13-7, as FIBS) is read as a slash: tests/test_newcomer_items.py
        "26/20",
        "13/",
        "/13",
        "13/14",
        "off/3",
        "13/off/5",
        "8/5(7)",
        "24/18 24/18 24/18 13/7 6/1",
        "hello",
        "13//7",
    ],
)
def test_invalid_syntax_is_typed(text):
    """Garbage notation raises InvalidPlayError with an example of good notation, never a crash."""
    with pytest.raises(InvalidPlayError):
        parse_play(Position.initial(), (6, 1), text)


def test_synonyms_and_repeats():
    """'bar'/'25', 'off'/'0', '(2)', dice in either order, any order of moves, commas."""
    assert parse_segments("bar/22* 6/0 8/5(2)") == [(25, 22, True), (6, 0, False), (8, 5, False), (8, 5, False)]
    opening = Position.initial()
    a = parse_play(opening, (3, 1), "8/5 6/5").position
    assert parse_play(opening, (1, 3), "6/5, 8/5").position == a


def test_empty_play_only_when_nothing_is_legal():
    """An empty play is accepted only when no move is possible (RULES G9); otherwise the legal plays are listed."""
    closed = Position.from_points({19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2, 13: 14}, bar=(1, 0))
    assert parse_play(closed, (6, 4), "").moves == ()
    assert parse_play(closed, (6, 4), "Cannot Move").moves == ()
    with pytest.raises(IllegalPlayError):
        parse_play(closed, (6, 4), "13/7 13/9")
    with pytest.raises(IllegalPlayError, match="must be played"):
        parse_play(Position.initial(), (6, 1), "")


def test_star_where_nothing_is_hit_is_rejected():
    """A '*' on a point with no blot is not this play: rejected, the legal plays listed."""
    with pytest.raises(IllegalPlayError):
        parse_play(Position.initial(), (6, 1), "13/7* 8/7")


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 6), st.integers(1, 6))
def test_notation_round_trip_for_every_legal_play(rng, d1, d2):
    """Property: every legal play's notation parses back to the same resulting position."""
    position = random_position(rng)
    for play in legal_plays(position, (d1, d2)):
        assert parse_play(position, (d1, d2), play.notation()).position == play.position


def test_notation_round_trip_seeded_sample():
    """Seeded sample of the round trip over all rolls, with the gnubg-style route policy too."""
    rng = random.Random(11)
    for _ in range(8):
        position = random_position(rng)
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                for play in legal_plays(position, (d1, d2)):
                    text = play.notation()
                    assert parse_play(position, (d1, d2), text).position == play.position
                    assert parse_play(position, (d2, d1), text, route_policy=ROUTE_NO_HIT).position == play.position


@pytest.mark.parametrize("case_id,text", _ids("ambiguous_inputs"))
def test_case_inputs_ambiguous_by_default_and_read_as_gnubg_reads_mat_files(case_id, text):
    """positions.json/positions-2.json ambiguous_inputs (BG29, BG35: a joined bear-off '8/off' with two routes) are
    ambiguous under the default policy; gnubg's .mat reading (import.c ExpandMatMove: no hit on the first part) picks
    the case's ``gnubg_mat_reading``."""
    case = next(c for c in CASES if c["id"] == case_id)
    position = case_position(case)
    with pytest.raises(AmbiguousPlayError):
        parse_play(position, case["dice"], text)
    reading = case["expected"].get("gnubg_mat_reading", {}).get(text)
    if reading is not None:
        chosen = parse_play(position, case["dice"], text, route_policy=ROUTE_NO_HIT)
        assert chosen.position == parse_play(position, case["dice"], reading).position
