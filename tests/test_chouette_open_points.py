"""Chouette points the seed texts leave open, each a rule-set option with both readings tested, and settlements
between Team members (003 Atlanta 4.4). Members A (Box) | B (Captain), C, D [, E]."""

from __future__ import annotations

import pytest

from backgammon.chouette import ChouetteRules
from backgammon.errors import RuleSetError
from tests.chouette_helpers import atlanta, classic, classic_1931, last_points, refused, started


# -- 003 Atlanta 4.4: settlements between Team members ---------------------------------------------------------------
def test_team_member_buys_another_members_interest_and_scores_his_cube():
    """003 Atlanta 4.4 ("'A' offers 'B' ½ the cube value for his interest in the game"): D pays C 1 point and takes
    over C's cube; Box wins a single: B −1, D −1 on his own cube and −1 on C's, C keeps the 1 point he was paid;
    the sheet sums to zero."""
    session = started(atlanta(jacoby=False))
    session.team_settle("C", "D", 1)
    assert session.cube("C").team == "D"
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("box", "single")
    assert last_points(session) == {"A": 3, "B": -1, "C": 1, "D": -3}


def test_box_preempts_a_team_settlement_and_reduces_the_team():
    """003 Atlanta 4.4 ("Box may preempt the offer, paying 'B' in order to reduce the Team"): Box pays C the 1 point
    instead; C's cube is settled with Box (RULES C10); D plays only his own."""
    session = started(atlanta(jacoby=False))
    session.team_settle("C", "D", 1, box_preempts=True)
    assert session.cube("C").status == "settled"
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("box", "single")
    assert last_points(session) == {"A": 1, "B": -1, "C": 1, "D": -1}


def test_team_settlements_are_refused_when_off_pending_or_without_a_cube():
    """4.4 is an option (``team_settlements``; off with ``settlements`` off, as in the classic presets); no settlement
    while a decision is pending, and neither side may be out of the game."""
    refused(started(atlanta(team_settlements=False)), "team_settle", "C", "D", 1, match="not part of these rules")
    refused(started(classic()), "team_settle", "C", "D", 1, match="not part of these rules")
    session = started(atlanta())
    session.turn("box")
    session.box_double(["C"])
    refused(session, "team_settle", "C", "D", 1, match="await")
    session.answer("C", "drop")
    refused(session, "team_settle", "C", "D", 1, match="holds no cube")
    refused(session, "team_settle", "D", "C", 1, match="holds no cube in play")
    refused(session, "team_settle", "D", "D", 1, match="two members")


# -- 003 Atlanta 6.1–6.3: who takes the box after an Acting Captain beats Box ------------------------------------------
@pytest.mark.parametrize(
    ("reading", "order", "marks"),
    [
        ("initial_captain_decides", ["A", "C", "D", "E", "B"], {"circled": ["B"]}),
        ("acting_captain_takes_box", ["C", "D", "E", "B", "A"], {"circled": ["A", "B"]}),
    ],
)
def test_acting_captain_beats_box_both_readings(reading, order, marks):
    """Box cubes out B, D and E (each drops, Box +3), C is Acting Captain (6.2) and wins the board (C +1): Box beat
    the initial Captain and is up 2. 6.1 as written: Box stays, B to the end. The other reading: C beat Box as a
    Captain would (6.3) and takes the box; B (6.2) and then A go to the end."""
    session = started(atlanta(jacoby=False, acting_captain_beats_box=reading), members="ABCDE")
    session.turn("box")
    session.box_double(["B", "D", "E"])
    for member in ("B", "D", "E"):
        session.answer(member, "drop")
    assert session.captain == "C"
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("team", "single")
    assert last_points(session) == {"A": 2, "B": -1, "C": 1, "D": -1, "E": -1}
    assert session.next_order() == order
    assert session.sheet().rows[-1].marks == marks


# -- classic 000 Ch.6–11: two members going to last rank in one game ---------------------------------------------------
@pytest.mark.parametrize(
    ("reading", "winner", "order"),
    [
        ("order_of_defeat", "box", ["A", "D", "B", "C"]),
        ("refusers_last", "box", ["A", "D", "C", "B"]),
        ("order_of_defeat", "team", ["C", "D", "B", "A"]),
        ("refusers_last", "team", ["C", "D", "A", "B"]),
    ],
)
def test_two_members_to_last_rank_in_one_game_both_readings(reading, winner, order):
    """Captain B refuses Box's double and loses his seat (000 Ch.9, 11); C and D take, C is Captain. If Box then
    beats C (or C beats Box), two members go to last rank in one game: by default in the order of their defeats (the
    later one last, 000 Ch.7 "takes his place as last ranking member"); with ``refusers_last`` the refuser B goes
    behind (000 Ch.11 "even though the game be eventually won by the accepting members")."""
    session = started(classic(last_rank_order=reading))
    session.turn("box")
    session.box_double()
    session.answer("B", "drop")
    session.answer("C", "take")
    session.answer("D", "take")
    session.turn("team")
    session.turn("box")
    session.game_over(winner, "single")
    assert session.next_order() == order


# -- 001 Ch.9–10: what a refusing member forfeits ----------------------------------------------------------------------
@pytest.mark.parametrize(("reading", "forfeit"), [("count", 2), ("stake", 1)])
def test_what_a_refuser_forfeits_in_1931_both_readings(reading, forfeit):
    """001 Ch.9 "forfeiting his stake up to the time of the proposed double": an opening tie puts the count at 2
    (001 §15), Box doubles to 4 and D refuses. ``count`` (default): D forfeits the 2 his stake stood at;
    ``stake``: his single stake, 1 (001 Ch.4). The Active Player C takes over D's position either way (Ch.9)."""
    session = started(classic_1931(automatic_doubles=1, refuser_forfeits=reading))
    session.opening_tie()
    session.turn("box")
    assert session.box_double() == {"B": 4, "C": 4, "D": 4}
    session.answer("B", "take")
    session.answer("C", "take")
    session.answer("D", "drop")
    assert session.cube("D").team == "B"
    session.turn("team")
    session.game_over("box", "single")
    points = last_points(session)
    assert points["D"] == -forfeit and points["B"] == -8 and sum(points.values()) == 0


def test_open_point_options_are_validated_and_stored():
    """The readings are rule-set options: named values only; they round-trip through JSON; stored sets without them
    take the defaults (the literal readings)."""
    with pytest.raises(RuleSetError):
        atlanta(acting_captain_beats_box="whoever")
    rules = classic(last_rank_order="refusers_last", refuser_forfeits="stake")
    assert ChouetteRules.from_json(rules.to_json()) == rules
    old = atlanta().to_json()
    for key in ("team_settlements", "acting_captain_beats_box", "last_rank_order", "refuser_forfeits"):
        old.pop(key)
    again = ChouetteRules.from_json(old)
    assert (again.team_settlements, again.acting_captain_beats_box, again.last_rank_order, again.refuser_forfeits) == (
        True,
        "initial_captain_decides",
        "order_of_defeat",
        "count",
    )
