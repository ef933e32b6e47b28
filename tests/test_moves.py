"""Legal plays (RULES G4–G9) against the worked cases and against GNU Backgammon's move generator."""

from __future__ import annotations

import random

import gnubg_nn
import pytest

from backgammon.errors import AmbiguousPlayError, IllegalPlayError, InvalidDiceError
from backgammon.moves import legal_plays
from backgammon.notation import parse_play
from backgammon.position import Position
from tests.casekit import load_cases
from tests.randompos import random_position

MOVE_CASES = [
    c for c in [*load_cases("positions.json"), *load_cases("positions-2.json")] if c["kind"] in ("moves", "notation")
]


def case_position(case) -> Position:
    p = case["position"]
    return Position.from_points(p["points"], p["bar"], p["off"])


def result_position(result) -> Position:
    return Position.from_points(result["points"], result["bar"], result["off"])


@pytest.mark.parametrize("case", MOVE_CASES, ids=[c["id"] for c in MOVE_CASES])
def test_positions_case_legal_plays(case):
    """positions.json: the legal plays, compared by resulting position (RULES G4–G8)."""
    position = case_position(case)
    expected = case["expected"]
    plays = legal_plays(position, case["dice"])
    assert len(plays) == expected["n_legal_plays"]
    assert {p.dice_used for p in plays} == {expected["dice_played"]}
    wanted = {
        parse_play(position, case["dice"], text, route_policy="no_hit").position for text in expected["legal_plays"]
    }
    assert {p.position for p in plays} == wanted
    for item in expected["play_results"]:
        assert result_position(item["result"]) in {p.position for p in plays}, item["play"]
    if "pip_count_before" in expected:
        assert position.pips_player == expected["pip_count_before"]["me"]
        assert position.pips_opponent == expected["pip_count_before"]["opp"]


def test_g7_both_dice_must_be_played_bg01():
    """RULES G7: 6-2 must play 24/22 8/2, not 8/2 alone (positions.json BG01)."""
    case = next(c for c in MOVE_CASES if c["id"] == "BG01")
    plays = legal_plays(case_position(case), (6, 2))
    assert [p.notation() for p in plays] == ["24/22 8/2"]


def test_g7_higher_die_when_only_one_can_be_played_bg02():
    """RULES G7: when only one die can be played and either could, the higher one (BG02)."""
    case = next(c for c in MOVE_CASES if c["id"] == "BG02")
    plays = legal_plays(case_position(case), (5, 6))
    assert [p.notation() for p in plays] == ["24/18"]
    assert plays[0].moves[0].die == 6


def test_g5_doublets_give_four_moves_and_g8_bear_off():
    """RULES G5 / G8: 1-1 with three checkers on the ace point bears off three (BG04), a doublet is one turn."""
    case = next(c for c in MOVE_CASES if c["id"] == "BG04")
    (play,) = legal_plays(case_position(case), (1, 1))
    assert play.dice_used == 3 and play.position.off_player == 15


def test_g5_opening_double_sixes_uses_four_moves():
    """RULES G5: 6-6 from the opening plays four sixes."""
    plays = legal_plays(Position.initial(), (6, 6))
    assert all(p.dice_used == 4 for p in plays)
    assert "24/18(2) 13/7(2)" in {p.notation() for p in plays}


def test_g6_bar_first_bg05_bg07():
    """RULES G6: nothing moves while a checker is on the bar; entering uses a die (BG05, BG07)."""
    for case_id in ("BG05", "BG07"):
        case = next(c for c in MOVE_CASES if c["id"] == case_id)
        for play in legal_plays(case_position(case), case["dice"]):
            assert play.moves[0].source == 25


def test_g8_hit_checker_must_come_home_before_bearing_off():
    """RULES G8: a checker hit during the bear-off must come home before bearing off resumes (BG07)."""
    case = next(c for c in MOVE_CASES if c["id"] == "BG07")
    plays = legal_plays(case_position(case), (6, 5))
    assert all(m.target != 0 for p in plays for m in p.moves)


def test_g9_no_legal_play_gives_one_empty_play():
    """RULES G9: a closed board with a checker on the bar: the turn passes (an empty play)."""
    position = Position.from_points({19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2, 13: 14}, bar=(1, 0))
    plays = legal_plays(position, (6, 4))
    assert len(plays) == 1 and plays[0].moves == () and plays[0].position == position
    assert plays[0].notation() == ""


def test_bg06_variant_dice_6_6_forfeits_turn():
    """RULES G6/G9: positions.json BG06's variant: 6-6 cannot enter, so there is no legal play."""
    case = next(c for c in MOVE_CASES if c["id"] == "BG06")
    plays = legal_plays(case_position(case), (6, 6))
    assert plays[0].moves == () and len(plays) == 1


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), "x1", (1.0, 2), (True, 2), "123"])
def test_bad_dice_raise_typed_error(dice):
    """Dice out of range or malformed raise InvalidDiceError with a clear message."""
    with pytest.raises(InvalidDiceError, match="1–6"):
        legal_plays(Position.initial(), dice)


def test_dice_given_as_text_either_order():
    """Dice in either order give the same plays ("31" = (1, 3))."""
    a = {p.position for p in legal_plays(Position.initial(), "31")}
    b = {p.position for p in legal_plays(Position.initial(), (1, 3))}
    assert a == b and len(a) == 16


def gnubg_results(position: Position, d1: int, d2: int) -> set[Position]:
    keys = gnubg_nn.moves(position.to_gnubg(), d1, d2)
    return {Position.from_gnubg(gnubg_nn.board_from_position_key(k)) for k in keys}


def compare_with_gnubg(seed: int, positions: int) -> int:
    rng = random.Random(seed)
    checked = 0
    for _ in range(positions):
        position = random_position(rng)
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                ours = {p.position for p in legal_plays(position, (d1, d2)) if p.moves}
                assert ours == gnubg_results(position, d1, d2), (position.position_id(), d1, d2)
                checked += 1
    return checked


def test_same_results_as_gnubg_seeded_sample():
    """RULES G4–G9 against gnubg_nn.moves: 200 random positions (contact, bar, bear-off, race) × all 21 rolls."""
    assert compare_with_gnubg(seed=20261129, positions=200) == 200 * 21


@pytest.mark.slow
def test_same_results_as_gnubg_full():
    """The full comparison: 10,000 random positions × 21 rolls (run with ``pytest -m slow``)."""
    assert compare_with_gnubg(seed=7, positions=10_000) == 210_000


def test_g8_option_high_die_first_in_bear_off_001_s12():
    """RULES G8 option (001 §12, off by default): bearing off, the higher die is played first if it can be."""
    case = next(c for c in MOVE_CASES if c["id"] == "BG10")  # checkers on 5 and 4, roll 6-4
    position = case_position(case)
    default = {p.notation() for p in legal_plays(position, (6, 4))}
    assert default == {"5/off 4/off", "5/1 4/off"}
    strict = {p.notation() for p in legal_plays(position, (4, 6), high_die_first_in_bear_off=True)}
    assert strict == {"5/off 4/off"}
    with pytest.raises(IllegalPlayError):
        parse_play(position, (6, 4), "5/1 4/off", high_die_first_in_bear_off=True)
    # not bearing off at the start of the turn: the option changes nothing
    assert {p.position for p in legal_plays(Position.initial(), (6, 4), high_die_first_in_bear_off=True)} == {
        p.position for p in legal_plays(Position.initial(), (6, 4))
    }
    # one checker left: the 6 bears it off and the play ends there
    single = Position.from_points({1: 1, 24: -1})
    assert {p.notation() for p in legal_plays(single, (6, 1), high_die_first_in_bear_off=True)} == {"1/off"}


def test_rule_sets_carry_the_two_notation_and_bear_off_options():
    """RuleSet options joined_move_routes (BG13) and bear_off_high_die_first (001 §12) reach the game."""
    from backgammon.game import Game
    from backgammon.rules import RuleSet

    case = next(c for c in MOVE_CASES if c["id"] == "BG13")
    position = case_position(case)
    strict = Game.from_position(RuleSet.preset("money"), position, on_roll=0, dice=(6, 5))
    with pytest.raises(AmbiguousPlayError):
        strict.play(0, "24/13")
    gnubg_like = Game.from_position(
        RuleSet.preset("money", joined_move_routes="no_hit"), position, on_roll=0, dice=(6, 5)
    )
    assert gnubg_like.play(0, "24/13").hits == 0
    assert RuleSet.preset("classic-1931").bear_off_high_die_first
    bear = next(c for c in MOVE_CASES if c["id"] == "BG10")
    game = Game.from_position(RuleSet.preset("classic-1931"), case_position(bear), on_roll=0, dice=(6, 4))
    assert [p.notation() for p in game.legal_plays()] == ["5/off 4/off"]


def test_one_play_per_result_and_the_moves_reach_it():
    """Each generated play has its own resulting position (the doublet generator does not deduplicate: distinct
    multisets of moves give distinct results), and its moves, decoded from the packed form, replayed one by one from
    the start with ``apply_move`` reach that position with the hits they claim."""
    from backgammon.moves import apply_move

    rng = random.Random(16)
    for kind in ("contact", "bar", "bearoff", "race"):
        for _ in range(25):
            position = random_position(rng, kind)
            for d1 in range(1, 7):
                for d2 in range(d1, 7):
                    plays = legal_plays(position, (d1, d2))
                    assert len({p.position for p in plays}) == len(plays), (position.position_id(), d1, d2)
                    for play in plays:
                        reached = play.start
                        for move in play.moves:
                            reached, hit = apply_move(reached, move.source, move.target)
                            assert hit == move.hit and move.die in (d1, d2)
                        assert reached == play.position, (position.position_id(), d1, d2, play.notation())


def test_legal_plays_leave_no_cyclic_garbage_behind():
    """So that no call takes 11–20 ms when the collector runs, the plays of a call are freed as soon as the caller
    drops them — the doublet search's recursive closure is broken on the way out, so no reference cycle keeps them
    (and every collection until the next full one traverses them)."""
    import gc

    spread = Position.from_points(
        {24: 1, 23: 1, 22: 1, 21: 1, 20: 1, 18: 1, 16: 1, 13: 2, 11: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 1: -15}
    )
    gc.collect()
    gc.disable()
    try:
        for dice in ((1, 1), (3, 3), (6, 6), (6, 5), (2, 1)):
            assert len(legal_plays(spread, dice)) >= 1
        assert gc.collect() == 0  # nothing unreachable: every play went with its last reference
    finally:
        gc.enable()
