"""Every scenario of tests/cases/chouette.json and the chouette case BG23 of positions.json, played through the
chouette engine (RULES C1–C11): per-member points, zero sum, next order, Captain changes and sheet marks."""

from __future__ import annotations

import json

import pytest

from backgammon.chouette import ChouetteRules, ChouetteSession
from backgammon.errors import ChouetteError
from tests.casekit import load_cases

CASES = load_cases("chouette.json")
PRESET = {"classic-000": "chouette-classic", "classic-1931": "chouette-classic-1931", "atlanta": "chouette-atlanta"}


def rules_for(case: dict, *, reading: dict | None = None) -> ChouetteRules:
    """The rule set a case names: its family's preset plus its options (RULES "Rule sets")."""
    options = case["options"]
    overrides: dict = {
        "box_partner": options["box_partner"],
        "jacoby": options["jacoby"],
        "beavers": options["beavers"],
    }
    automatic = options.get("automatic_doubles", "none")
    if automatic in ("double", "add"):
        overrides["automatic_doubles"] = options.get("automatic_limit", 1)
        overrides["automatic_doubles_kind"] = automatic
    else:  # "none", or "none (eliminated by agreement, 001 §15)"
        overrides["automatic_doubles"] = 0
    if "rule_5_10a" in options:
        overrides["rule_5_10a"] = options["rule_5_10a"]
    if "extras_rule" in options:
        overrides["extras"] = options["extras_rule"]
    if "active_player_takes_over_refuser" in options:
        overrides["captain_takes_over_refusers"] = options["active_player_takes_over_refuser"]
    if options.get("box_accepts_stakes") is False:
        overrides["stakes"] = False
    overrides.update(reading or {})
    return ChouetteRules.preset(PRESET[case["rule_family"]], **overrides)


def seated(rules: ChouetteRules, members: list[str], stakes: dict | None = None) -> ChouetteSession:
    """A session seated in ``members`` order by distinct throws (RULES C1)."""
    session = ChouetteSession(rules)
    top = 6 * rules.seating_dice
    session.seat({member: top - index for index, member in enumerate(members)}, stakes=stakes or None)
    assert session.next_order() == members
    return session


def ensure_turn(session: ChouetteSession, side: str, trace: list[int | None]) -> None:
    """The cases omit whose turn it is; give the roll to ``side`` when it is not already his (RULES D1)."""
    if session.game.on_roll != side:
        session.turn(side)
        trace.append(None)


def offered_or_value(session: ChouetteSession, key: str) -> int:
    cube = session.cube(key)
    return cube.offered_value if cube.offered_value is not None else cube.value


def play_case(case: dict, rules: ChouetteRules) -> tuple[ChouetteSession, list[int | None]]:
    """Play ``case``'s events; ``trace`` maps the session's game events to the case's event indices (None for the
    turns the runner added)."""
    session = seated(rules, case["members"], case["stakes"])
    partner = case.get("partner", "auto")
    session.start_game(partner=partner)
    trace: list[int | None] = []
    for index, event in enumerate(case["events"]):
        actor, action = event.get("actor"), event["action"]
        if event.get("expect") == "rejected":
            before = session.to_json()
            with pytest.raises(ChouetteError):
                apply_case_event(session, event, trace)
            assert session.to_json() == before, f"{case['id']} event {index}: a refused event changed the state"
            continue
        apply_case_event(session, event, trace, index)
        if action == "double" and actor == "Box":
            expected = event["to"] if isinstance(event["to"], dict) else dict.fromkeys(event["targets"], event["to"])
            assert {k: offered_or_value(session, k) for k in expected} == expected
        elif action == "double":
            assert offered_or_value(session, actor) == event["to"]
        elif action == "respond" and "to" in event:
            assert {k: offered_or_value(session, k) for k in event["to"]} == event["to"]
    return session, trace


def apply_case_event(session: ChouetteSession, event: dict, trace: list, index: int | None = None) -> None:
    actor, action = event.get("actor"), event["action"]
    length = len(session.history)
    if action == "opening_roll":
        session.opening_tie()
    elif action == "join":
        session.join(event["members"])
    elif action == "game_over":
        session.game_over(event["winner"].lower(), event["result"])
    elif actor == "Box" and action == "double":
        ensure_turn(session, "box", trace)
        session.box_double(event["targets"])
    elif actor == "Box" and action in ("take", "drop"):
        session.box_answer(dict.fromkeys(event["cubes"], action))
    elif actor == "Box" and action == "respond":
        session.box_answer({key: verb for verb in ("take", "drop", "beaver") for key in event.get(verb, [])})
    elif action == "double":
        ensure_turn(session, "team", trace)
        session.team_double(actor)
    elif action == "no_double":
        ensure_turn(session, "team", trace)
        session.no_double(actor)
    elif action in ("take", "drop", "beaver", "raccoon"):
        session.answer(actor, action)
    else:
        raise AssertionError(f"unknown case event {event}")
    if len(session.history) > length and session.phase == "playing" or action == "game_over":
        trace.append(index)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_chouette_case(case):
    """RULES C1–C11 per case: points, zero sum, next order, Captain changes, sheet marks (003 Atlanta 10.1)."""
    session, trace = play_case(case, rules_for(case))
    expected = case["expected"]
    row = session.sheet().rows[-1]
    assert row.points == expected["per_member_points"]
    assert (sum(row.points.values()) == 0) is expected["zero_sum"]
    assert session.next_order() == expected["next_order"]
    if "next_partner" in expected:
        assert session.default_partner() == expected["next_partner"]
    changes = [
        {
            "after_event": trace[change["after_event"]],
            **{k: change[k] for k in ("from", "to", "role", "rule")},
        }
        for change in session.captain_changes
    ]
    assert changes == expected["captain_changes_during_game"]
    assert row.marks == expected["sheet_marks"]


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.get("alternatives")], ids=[c["id"] for c in CASES if c.get("alternatives")]
)
def test_chouette_case_alternative_readings(case):
    """The "unsure" cases' alternative readings are rule options (CH04: 001 Ch.9 forfeit to the Active Player)."""
    readings = {"CH04": {"refuser_forfeit_to": "captain"}}
    for alternative in case["alternatives"]:
        session, _ = play_case(case, rules_for(case, reading=readings[case["id"]]))
        assert session.sheet().rows[-1].points == alternative["per_member_points"]


def test_chouette_cases_replay_from_history():
    """Every case's session is rebuilt exactly from its event log and from its JSON (DESIGN: the log is the record)."""
    for case in CASES:
        rules = rules_for(case)
        session, _ = play_case(case, rules)
        data = session.to_json()
        assert json.loads(json.dumps(data)) == data  # plain JSON: storage keeps it as text
        assert ChouetteSession.from_json(data).to_json() == data
        assert ChouetteSession.replay(rules, session.history).to_json() == data


# -- positions.json BG23: rotation bookkeeping over two games and a join -------------------------------------------
BG23 = next(case for case in load_cases("positions.json") if case["id"] == "BG23")


def _names(entries: list[str]) -> list[str]:
    return [entry.split(" ")[0] for entry in entries]


@pytest.mark.parametrize("preset", ["chouette-classic", "chouette-atlanta"])
def test_bg23_rotation_bookkeeping(preset):
    """BG23 (RULES C2, C8, C11): Box keeps the box when he wins, the losing Captain goes to the bottom, a newcomer
    joins behind him; then the Captain beats Box. Both families agree here."""
    expected = BG23["expected"]
    session = seated(ChouetteRules.preset(preset), _names(BG23["setup"]["start_order"]))
    session.start_game()
    session.game_over("box", "single")
    assert session.next_order() == _names(expected["after_game1_order"])
    assert session.sheet().rows[-1].points == expected["game1_settlement"]
    session.join(["P5"])
    assert session.next_order() == _names(expected["after_P5_joins"])
    session.start_game()
    session.game_over("team", "single")
    assert session.next_order() == _names(expected["after_game2_order"])
    assert session.sheet().rows[-1].points == expected["game2_settlement"]
    assert session.sheet().totals() == expected["running_totals"]
