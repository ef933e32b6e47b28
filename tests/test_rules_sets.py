"""Rule sets (backgammon.rules): presets plus overrides, JSON, validation for matches (RULES G3, D3–D5, M2–M4, M6)."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.errors import RuleSetError
from backgammon.rules import PRESETS, RuleSet

PRESET_NAMES = ["tournament", "money", "classic-1931", "chouette-classic", "chouette-atlanta"]


def test_presets_exist_and_carry_their_names():
    """The presets of RULES "Rule sets" exist; preset() keeps the name."""
    assert list(PRESETS) == PRESET_NAMES
    for name in PRESET_NAMES:
        assert RuleSet.preset(name).name == name


def test_tournament_preset_is_003_match_rules():
    """RULES M2–M4, G3 (003 5.3–5.6, 004): Crawford, dead cube, no automatic doubles, beavers or Jacoby; fits a match."""
    rules = RuleSet.preset("tournament")
    assert (rules.crawford, rules.dead_cube, rules.automatic_doubles, rules.beavers, rules.raccoons, rules.jacoby) == (
        True,
        True,
        0,
        False,
        False,
        False,
    )
    rules.validate_for(7)


def test_money_preset_and_atlanta_preset():
    """RULES D3, D4, G3: money has Jacoby, beavers and one automatic double (no raccoons without consent, 003 Atlanta
    5.4); Atlanta has Jacoby (4.1), beavers (5.3), no automatic doubles by default (5.1)."""
    money = RuleSet.preset("money")
    assert (money.jacoby, money.beavers, money.raccoons, money.automatic_doubles) == (True, True, False, 1)
    atlanta = RuleSet.preset("chouette-atlanta")
    assert (atlanta.jacoby, atlanta.beavers, atlanta.automatic_doubles) == (True, True, 0)
    classic = RuleSet.preset("classic-1931")
    assert classic.automatic_doubles == 15 and not classic.crawford and not classic.jacoby
    assert RuleSet.preset("chouette-classic").automatic_doubles == 0


def test_overrides_and_unknown_names():
    """preset(name, **overrides) applies overrides; unknown presets, options or bad values raise RuleSetError."""
    rules = RuleSet.preset("money", jacoby=False, cube_cap=16)
    assert (rules.name, rules.jacoby, rules.cube_cap, rules.beavers) == ("money", False, 16, True)
    with pytest.raises(RuleSetError, match="unknown rule set"):
        RuleSet.preset("backgammon-deluxe")
    with pytest.raises(RuleSetError, match="unknown rule-set option"):
        RuleSet.preset("money", jacobi=True)
    bad_values = [
        {"automatic_doubles": -1},
        {"automatic_doubles": 16},
        {"automatic_doubles": True},
        {"automatic_doubles_kind": "triple"},
        {"cube_cap": 0},
        {"cube_cap": "64"},
        {"cube_cap": 3},
        {"dead_cube_rule": "never"},
        {"jacoby": "yes"},
        {"name": ""},
    ]
    for bad in bad_values:
        with pytest.raises(RuleSetError):
            RuleSet.preset("money", **bad)


def test_json_round_trip_and_errors():
    """to_json() is plain JSON with every field; from_json() inverts it and refuses unknown fields or non-objects."""
    for name in PRESET_NAMES:
        rules = RuleSet.preset(name)
        data = rules.to_json()
        assert json.loads(json.dumps(data)) == data
        assert list(data) == [f.name for f in fields(RuleSet)]
        assert RuleSet.from_json(data) == rules
    assert RuleSet.from_json({"name": "x"}) == RuleSet(name="x")
    with pytest.raises(RuleSetError):
        RuleSet.from_json({"name": "x", "colour": "red"})
    with pytest.raises(RuleSetError):
        RuleSet.from_json(["money"])


@given(
    jacoby=st.booleans(),
    beavers=st.booleans(),
    raccoons=st.booleans(),
    automatic=st.integers(0, 15),
    kind=st.sampled_from(["double", "add"]),
    cap=st.one_of(st.none(), st.integers(0, 15).map(lambda power: 1 << power)),
    dead=st.sampled_from(["match_ends", "doubler_already_wins"]),
    flags=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_any_rule_set_round_trips(jacoby, beavers, raccoons, automatic, kind, cap, dead, flags):
    """Every valid combination of options survives to_json/from_json unchanged."""
    rules = RuleSet(
        name="club",
        jacoby=jacoby,
        beavers=beavers,
        raccoons=raccoons,
        automatic_doubles=automatic,
        automatic_doubles_kind=kind,
        cube_cap=cap,
        crawford=flags[0],
        dead_cube=flags[1],
        point_game=flags[2],
        jacoby_counts_automatic_doubles_as_turned=flags[3],
        jacoby_on_resignations=flags[4],
        raccoon_droppable=flags[5],
        further_immediate_redoubles=flags[6],
        dead_cube_rule=dead,
        cap_match_score=flags[7],
    )
    assert RuleSet.from_json(json.loads(json.dumps(rules.to_json()))) == rules


@pytest.mark.parametrize(
    "override, rule",
    [
        ({"automatic_doubles": 1}, "G3"),
        ({"jacoby": True}, "M2"),
        ({"beavers": True}, "D3"),
        ({"raccoons": True}, "D3"),
        ({"point_game": True}, "M6"),
    ],
)
def test_validate_for_match_rejects_money_only_rules(override, rule):
    """RULES G3 (no automatic doubles in match play, 004), M2/D4 (no Jacoby in matches), D3 (no beavers or raccoons),
    M6 (the Point Game is money scoring): rejected for a match with a message naming the rule; fine for money."""
    rules = RuleSet.preset("tournament", **override)
    with pytest.raises(RuleSetError, match=rule):
        rules.validate_for(5)
    rules.validate_for(0)


def test_validate_for_bad_lengths_and_presets_for_money():
    """A match length is 0 (money) or ≥ 1; the money preset does not suit a match; D5: a cap is allowed anywhere."""
    for bad in (-1, 1.5, "7", True):
        with pytest.raises(RuleSetError):
            RuleSet.preset("tournament").validate_for(bad)
    with pytest.raises(RuleSetError, match="tournament"):
        RuleSet.preset("money").validate_for(7)
    RuleSet.preset("tournament", cube_cap=64).validate_for(7)


def test_describe_names_the_optional_rules():
    """describe() shows the options a player should know (RULES "Rule sets": the set is shown on request)."""
    text = RuleSet.preset("money", raccoons=True, cube_cap=64, point_game=True).describe()
    for word in (
        "money",
        "Jacoby",
        "beavers and raccoons",
        "automatic doubles (doubling, limit 1)",
        "cube limit 64",
        "Point Game",
    ):
        assert word in text
    assert RuleSet.preset("tournament").describe() == "tournament"
