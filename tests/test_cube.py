"""The cube as pure functions (backgammon.cube): RULES G3, D1–D6, M3, M4."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon import cube as cubes
from backgammon.cube import Cube
from backgammon.errors import CubeError
from backgammon.rules import RuleSet

MONEY = RuleSet.preset("money", raccoons=True)
MATCH = RuleSet.preset("tournament")


def test_g3_automatic_raise_double_and_add_with_limit():
    """RULES G3: "double" doubles the count, "add" adds one, at most ``automatic_doubles`` times; never in a match."""
    doubling = RuleSet.preset("money", automatic_doubles=2)
    adding = RuleSet.preset("money", automatic_doubles=3, automatic_doubles_kind="add")
    c = Cube()
    values = []
    for _ in range(3):
        c = cubes.automatic_raise(c, doubling, 0)
        values.append(c.value)
    assert values == [2, 4, 4] and c.automatic_raises == 2 and c.owner is None and not c.turned
    c = Cube()
    counts = []
    for _ in range(4):
        c = cubes.automatic_raise(c, adding, 0)
        counts.append((c.value, c.factor, c.count))
    # 000 §20b adds one to the count; RULES D6 keeps it as a factor beside a cube that stays a power of two
    assert counts == [(1, 2, 2), (1, 3, 3), (1, 4, 4), (1, 4, 4)]
    assert cubes.automatic_raise(Cube(), doubling, 7) == Cube()
    assert cubes.automatic_raise(Cube(), RuleSet.preset("money", automatic_doubles=0), 0) == Cube()


def test_d1_double_refusal_reasons():
    """RULES D1 (owner only, one offer at a time), M3 (Crawford game), D5 (cap): the refusal says why; a centred cube
    or one's own cube may be turned."""
    assert cubes.double_refusal(Cube(), 0, MONEY) is None
    assert cubes.double_refusal(Cube(value=2, owner=0), 0, MONEY) is None
    assert "owns the cube" in cubes.double_refusal(Cube(value=2, owner=1), 0, MONEY)
    assert "already offered" in cubes.double_refusal(cubes.offer_double(Cube(), 1), 1, MONEY)
    assert "Crawford" in cubes.double_refusal(Cube(), 0, MATCH, match_length=5, score=(4, 0), crawford_game=True)
    capped = RuleSet.preset("money", cube_cap=8)
    assert cubes.double_refusal(Cube(value=4, owner=0), 0, capped) is None
    assert "limited to 8" in cubes.double_refusal(Cube(value=8, owner=0), 0, capped)
    with pytest.raises(CubeError, match="owns the cube"):
        cubes.check_double(Cube(value=2, owner=1), 0, MONEY)


@pytest.mark.parametrize(
    "value, doubler, score, match_ends, doubler_wins",
    [
        (1, 0, (4, 2), False, True),  # leader at 1-away, cube 1 (SC16)
        (2, 0, (4, 2), False, True),
        (1, 1, (4, 2), False, False),  # trailer 3-away
        (2, 1, (1, 4), False, True),  # SC17 L1
        (4, 0, (1, 4), True, True),  # SC17 D1
        (1, 0, (4, 4), True, True),  # double match point (SC18 variant)
        (2, 0, (3, 3), True, True),
    ],
)
def test_m4_dead_cube_readings(value, doubler, score, match_ends, doubler_wins):
    """RULES M4: 003 5.6 as written (cube ≥ points needed by both) vs the default, the USBGF ruling guide 4.4.9 and
    gnubg (cube ≥ points needed by the doubler);
    never dead with ``dead_cube=False`` or in money play."""
    literal = RuleSet.preset("tournament", dead_cube_rule="match_ends")
    assert cubes.is_dead(value, doubler, literal, 5, score) is match_ends
    assert cubes.is_dead(value, doubler, MATCH, 5, score) is doubler_wins  # the default: USBGF 4.4.9, gnubg
    assert not cubes.is_dead(value, doubler, RuleSet.preset("tournament", dead_cube=False), 5, score)
    assert not cubes.is_dead(value, doubler, MATCH, 0, (0, 0))
    assert cubes.points_needed(5, score) == (5 - score[0], 5 - score[1])


def test_d2_take_and_drop():
    """RULES D2: a take doubles the value and gives the taker the cube; a drop costs the value before the double."""
    offered = cubes.offer_double(Cube(value=2, owner=0), 0)
    assert (offered.offered, offered.doubler, offered.taker, offered.responder, offered.stage) == (4, 0, 1, 1, "double")
    assert cubes.drop_cost(offered) == 2
    taken = cubes.take(offered)
    assert taken == Cube(value=4, owner=1, turned=True)
    with pytest.raises(CubeError):
        cubes.take(taken)
    with pytest.raises(CubeError):
        cubes.drop_cost(taken)


def test_d3_beaver_raccoon_values_owners_and_drop_costs():
    """RULES D3 (003 Atlanta 5.3–5.4): beaver → the taker owns 2v and offers 4v to the doubler (drop costs 2v);
    raccoon → 4v accepted, 8v offered to the beaverer, owner unchanged (drop costs 4v); a take settles at 8v."""
    offered = cubes.offer_double(Cube(), 0)
    beavered = cubes.beaver(offered, MONEY)
    assert (beavered.value, beavered.owner, beavered.offered, beavered.responder) == (2, 1, 4, 0)
    assert cubes.drop_cost(beavered) == 2
    raccooned = cubes.raccoon(beavered, MONEY)
    assert (raccooned.value, raccooned.owner, raccooned.offered, raccooned.responder) == (4, 1, 8, 1)
    assert cubes.drop_cost(raccooned) == 4
    assert cubes.take(raccooned) == Cube(value=8, owner=1, turned=True)
    with pytest.raises(CubeError, match="further immediate"):
        cubes.beaver(raccooned, MONEY)
    again = cubes.beaver(raccooned, RuleSet.preset("money", raccoons=True, further_immediate_redoubles=True))
    assert (again.value, again.owner, again.offered, again.responder) == (8, 1, 16, 0)
    with pytest.raises(CubeError, match="raccoon answers a beaver"):
        cubes.raccoon(offered, MONEY)
    with pytest.raises(CubeError, match="answered by the doubler"):
        cubes.beaver(beavered, MONEY)


def test_d3_rule_set_switches_and_d5_cap():
    """RULES D3: beavers/raccoons only when the rule set allows them; D5: not past the cap; the raccoon drop option."""
    offered = cubes.offer_double(Cube(), 0)
    with pytest.raises(CubeError, match="beavers are not allowed"):
        cubes.check_beaver(offered, MATCH)
    beavered = cubes.beaver(offered, MONEY)
    with pytest.raises(CubeError, match="raccoons are not allowed"):
        cubes.check_raccoon(beavered, RuleSet.preset("money"))
    with pytest.raises(CubeError, match="limited to 2"):
        cubes.check_beaver(offered, RuleSet.preset("money", cube_cap=2))
    with pytest.raises(CubeError, match="limited to 4"):
        cubes.check_raccoon(beavered, RuleSet.preset("money", raccoons=True, cube_cap=4))
    raccooned = cubes.raccoon(beavered, MONEY)
    cubes.check_drop(raccooned, MONEY)
    with pytest.raises(CubeError, match="compulsory"):
        cubes.check_drop(raccooned, RuleSet.preset("money", raccoons=True, raccoon_droppable=False))
    cubes.check_drop(beavered, RuleSet.preset("money", raccoons=True, raccoon_droppable=False))


def test_d4_jacoby_applies_only_in_money_play_with_an_unturned_cube():
    """RULES D4, M2: Jacoby only with the rule, only in money play, only while no double was accepted; an automatic
    raise counts as turned only with the option (SC08/BG20)."""
    jacoby = RuleSet.preset("money")
    assert cubes.jacoby_applies(Cube(), jacoby, 0)
    assert not cubes.jacoby_applies(Cube(value=2, owner=1, turned=True), jacoby, 0)
    assert not cubes.jacoby_applies(Cube(), RuleSet.preset("money", jacoby=False), 0)
    assert not cubes.jacoby_applies(Cube(), MATCH, 5)
    automatic = Cube(value=2, automatic_raises=1)
    assert cubes.jacoby_applies(automatic, jacoby, 0)
    assert not cubes.jacoby_applies(
        automatic, RuleSet.preset("money", jacoby_counts_automatic_doubles_as_turned=True), 0
    )
    assert cubes.scored_multiplier(3, Cube(), jacoby, 0) == 1
    assert cubes.scored_multiplier(2, Cube(), jacoby, 0, resignation=True) == 1
    assert (
        cubes.scored_multiplier(2, Cube(), RuleSet.preset("money", jacoby_on_resignations=False), 0, resignation=True)
        == 2
    )
    assert cubes.scored_multiplier(2, Cube(), RuleSet.preset("money", jacoby_on_resignations=False), 0) == 1
    assert cubes.scored_multiplier(3, Cube(turned=True, value=2, owner=0), jacoby, 0) == 3


@given(st.lists(st.sampled_from(["double", "take", "beaver", "raccoon"]), max_size=30), st.integers(0, 1))
def test_d6_value_only_grows_and_a_drop_costs_the_value_in_the_game(steps, first):
    """RULES D2, D3, D6: whatever sequence of cube actions, the value is a power of two that never falls, the owner
    after a take is the side last doubled, and a drop always costs the value in the game."""
    rules = RuleSet.preset("money", raccoons=True, further_immediate_redoubles=True)
    c = Cube()
    side = first
    for step in steps:
        before = c.value
        try:
            if step == "double":
                cubes.check_double(c, side, rules)
                c = cubes.offer_double(c, side)
            elif step == "take":
                taker = c.taker
                c = cubes.take(c)
                assert c.owner == taker
                side = 1 - taker  # the doubler rolls; next turn is the taker's
            elif step == "beaver":
                c = cubes.beaver(c, rules)
            else:
                c = cubes.raccoon(c, rules)
        except CubeError:
            continue
        assert c.value >= before and c.value & (c.value - 1) == 0
        if c.offered is not None:
            assert cubes.drop_cost(c) == c.value and c.offered == 2 * c.value


def test_cube_json_round_trip_and_validation():
    """Cube.to_json/from_json round-trip; impossible records raise CubeError."""
    c = cubes.raccoon(cubes.beaver(cubes.offer_double(Cube(value=2, owner=0), 0), MONEY), MONEY)
    assert Cube.from_json(c.to_json()) == c
    for bad in (
        {"value": 0},
        {**c.to_json(), "owner": 2},
        {**c.to_json(), "stage": None},
        {**c.to_json(), "stage": "x"},
    ):
        with pytest.raises(CubeError):
            Cube.from_json(bad)


def test_d6_an_add_one_count_stored_before_the_factor_was_kept_apart_still_reads():
    """Older stored states held an add-one count as the cube's face (3, 6, …): they read as the power-of-two face
    times the odd factor, keeping every count (RULES D6, 000 §20b); a face that is no power of two with a factor
    stored is refused."""
    old = Cube(value=1).to_json() | {"value": 6, "owner": 0, "turned": True, "automatic_raises": 2}
    cube = Cube.from_json(old)
    assert (cube.value, cube.factor, cube.count) == (2, 3, 6)
    pending = Cube.from_json(old | {"offered": 12, "doubler": 0, "stage": "double"})
    assert (pending.offered, pending.offered_count) == (4, 12)
    assert "factor" not in Cube(value=4).to_json() and Cube.from_json(cube.to_json()) == cube
    with pytest.raises(CubeError):
        Cube.from_json(old | {"factor": 3})
