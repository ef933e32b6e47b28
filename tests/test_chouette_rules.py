"""Each chouette rule of docs/rules.md section C (C1–C11), both families, with the text it comes from.

Worked values are computed by hand in the comments (points of each member for the game: Box scores separately with
each Team member, RULES C3).
"""

from __future__ import annotations

import json

import pytest

from backgammon.chouette import ChouetteRules, ChouetteSession, split_box_partner
from backgammon.chouette.cubes import CubeStatus, Ending, Side
from backgammon.chouette.rules import Extras, Family
from backgammon.chouette.seating import apply_throws
from backgammon.errors import ChouetteError, RuleSetError
from backgammon.game import GameResult
from tests.chouette_helpers import atlanta, classic, classic_1931, last_points, refused, seated, started


# ================================================================================================= C1 seating
def test_c1_seating_highest_throw_is_box_next_captain_rest_by_throw():
    """RULES C1 (000 Ch.2): one die each; highest Box, next Captain, the rest rank by throw."""
    session = ChouetteSession(classic())
    assert session.seat({"A": 2, "B": 6, "C": 4, "D": 5}) == ["B", "D", "C", "A"]
    assert (session.box, session.captain) == ("B", "D")


def test_c1_atlanta_throws_two_dice_doubles_not_extra():
    """RULES C1 (003 Atlanta 1.3): two dice, the total counts, doubles not counting extra."""
    session = ChouetteSession(atlanta())
    assert session.seat({"A": [6, 6], "B": [5, 2], "C": 9, "D": [1, 1]}) == ["A", "C", "B", "D"]
    refused(ChouetteSession(atlanta()), "seat", {"A": 1, "B": 5, "C": 7}, match="2–12")
    refused(ChouetteSession(classic()), "seat", {"A": 7, "B": 5, "C": 3}, match="1–6")
    refused(ChouetteSession(atlanta()), "seat", {"A": [7, 1], "B": 5, "C": 3}, match="1–6")


def test_c1_ties_rethrow_among_the_tied_only():
    """RULES C1 (000 Ch.3 "only those tying throw again for their position"; 001 Ch.3 "the others retaining their
    positions")."""
    session = ChouetteSession(classic())
    assert session.seat({"A": 6, "B": 4, "C": 4, "D": 4, "E": 1}) == []
    assert session.phase == "seating"
    refused(session, "start_game", match="between games")
    refused(session, "rethrow", {"A": 3, "B": 2, "C": 1, "D": 5}, match="only tied")
    refused(session, "rethrow", {"B": 2, "C": 1}, match="all of them")
    assert session.rethrow({"B": 2, "C": 5, "D": 2}) == []  # B and D tie again
    assert session.rethrow({"B": 1, "D": 3}) == ["A", "C", "D", "B", "E"]
    refused(session, "rethrow", {"B": 1}, match="nobody")


def test_c1_founding_members_at_least_three_and_the_cap():
    """RULES C1/C2: three or more members (000 Ch.1); a club cap (001 "five players are the limit for comfort")."""
    refused(ChouetteSession(classic()), "seat", {"A": 6, "B": 5}, match="at least 3")
    capped = ChouetteSession(classic(max_members=5))
    refused(capped, "seat", {n: 6 - i for i, n in enumerate("ABCDEF")}, match="limited to 5")
    refused(ChouetteSession(classic()), "seat", {"A": 6, "B>": 5, "C": 4}, match="without '>'")


# ================================================================================================= C2 joining
def test_c2_member_joining_during_a_game_is_seated_after_the_rotation():
    """RULES C2 (000 Ch.4, Ch.7 "unless there be an added member"): the beaten Captain ranks above the newcomer."""
    session = started(classic())
    assert session.join(["E"]) == ["E"]
    assert session.waiting == ["E"]
    session.game_over("box", "single")
    assert session.next_order() == ["A", "C", "D", "B", "E"]
    assert session.default_partner() is None


def test_c2_several_joining_together_throw_for_their_order_with_ties_rethrown():
    """RULES C2 (003 Atlanta 6.4): two or more joining together roll two dice for their order at the end of the Team."""
    session = seated(atlanta())
    refused(session, "join", ["E", "F"], match="throw for their order")
    assert session.join(["E", "F", "G"], throws={"E": 7, "F": 7, "G": 9}) == []
    refused(session, "start_game", match="still throwing")
    refused(session, "join", ["H"], match="still throwing")
    assert session.rethrow({"E": 4, "F": [6, 5]}) == ["G", "F", "E"]
    assert session.next_order() == ["A", "B", "C", "D", "G", "F", "E"]
    refused(session, "join", ["A"], match="already sit")


def test_c2_member_cap_counts_those_waiting():
    """RULES C2 (003 6.4 "subject to the maximum number of participants allowed")."""
    session = started(atlanta(max_members=5))
    session.join(["E"])
    refused(session, "join", ["F"], match="limited to 5")


# ========================================================================================= C3 Box vs each member
def test_c3_box_scores_separately_with_each_team_member():
    """RULES C3 (000 Ch.6 "scores separately with each one of his adversaries"): different cubes, different points."""
    session = started(atlanta(jacoby=False))
    session.turn("box")
    session.box_double(["C"])
    session.answer("C", "take")
    session.turn("team")
    session.team_double("D")
    session.close_window()
    session.box_answer("drop")  # D +1
    assert session.game.transfers[-1].payee == "D"
    session.turn("box")
    session.game_over("box", "gammon")
    # B: 1 × 2 = 2; C: 2 × 2 = 4; D +1 (dropped) → A = 2 + 4 − 1 = 5.
    assert last_points(session) == {"A": 5, "B": -2, "C": -4, "D": 1}


# ============================================================================================ C4 classic cube
def test_c4_classic_partner_refusal_forfeits_count_before_the_double_and_keeps_rank():
    """RULES C4 (000 Ch.8, Ch.11): D refuses at 2 → pays 1; his rank is unchanged."""
    session = started(classic())
    session.turn("box")
    assert session.box_double() == {"B": 2, "C": 2, "D": 2}
    session.answer("D", "drop")
    session.answer("B", "take")
    session.answer("C", "take")
    session.turn("team")
    session.turn("box")
    session.game_over("box", "single")
    assert last_points(session) == {"A": 5, "B": -2, "C": -2, "D": -1}
    assert session.next_order() == ["A", "C", "D", "B"]


@pytest.mark.parametrize(
    ("winner", "points", "order"),
    [
        # B refuses (−1); C and D take at 2. Team wins: C +2, D +2, A −4 + 1. C defeated Box → C is Box (001 Ch.5);
        # B lost his position though his side won (000 Ch.11).
        ("team", {"A": -3, "B": -1, "C": 2, "D": 2}, ["C", "D", "B", "A"]),
        # Box wins: C (the new Captain) is defeated too and goes last after B.
        ("box", {"A": 5, "B": -1, "C": -2, "D": -2}, ["A", "D", "B", "C"]),
    ],
)
def test_c4_captain_who_refuses_loses_his_seat_to_the_highest_ranking_acceptor(winner, points, order):
    """RULES C4 (000 Ch.9–11): a Captain who refuses Box's double forfeits his count and loses his position; the
    highest-ranking acceptor is Captain for the rest of the game."""
    session = started(classic())
    session.turn("box")
    session.box_double()
    session.answer("B", "drop")
    assert session.captain == "B"  # the round is not over: C and D have not answered yet
    session.answer("D", "take")
    session.answer("C", "take")
    assert session.captain == "C"
    assert session.captain_changes == [
        {"after_event": 4, "from": "B", "to": "C", "role": "Captain", "rule": "000 Chouette 10"}
    ]
    session.turn("team")
    session.game_over(winner, "single")
    assert last_points(session) == points
    assert session.next_order() == order


def test_c4_everyone_refuses_box_wins_every_count():
    """RULES C4 (000 Ch.8–9): all refuse → the game ends; Box collects each count before the double."""
    session = started(classic())
    session.turn("box")
    session.box_double()
    for member in "BCD":
        session.answer(member, "drop")
    assert session.phase == "ready"
    assert last_points(session) == {"A": 3, "B": -1, "C": -1, "D": -1}
    assert session.sheet().rows[-1].ended_by == "drops"
    assert session.next_order() == ["A", "C", "D", "B"]


def test_c4_classic_single_cube_box_doubles_the_whole_team_and_answers_once():
    """RULES C4: one cube — no selective doubles, one answer from Box, only the Captain doubles for the Team."""
    session = started(classic())
    session.turn("box")
    refused(session, "box_double", ["B"], match="one cube")
    session.box_double()
    for member in "BCD":
        session.answer(member, "take")
    session.turn("team")
    refused(session, "team_double", "C", match="Captain")
    refused(session, "no_double", "B", match="just rolling")
    session.team_double("B")
    refused(session, "box_answer", "take", match="partners have answered")
    session.answer("C", "take")
    session.answer("D", "take")
    refused(session, "box_answer", {"B": "take"}, match="one answer")
    refused(session, "box_answer", {"B": "take", "C": "drop", "D": "take"}, match="one answer")
    session.box_answer("take")
    assert {k: c.value for k, c in session.cubes().items()} == {"B": 4, "C": 4, "D": 4}
    refused(session, "box_answer", "take", match="no offer")


def test_c4_partner_may_refuse_the_captains_double_000():
    """RULES C4 (000 Ch.8 "A double offered by either player may be refused by any partner", option on in the 000
    preset): C refuses the Captain's double and forfeits his count; Box then drops the rest."""
    session = started(classic())
    session.turn("team")
    session.team_double("B")
    assert [(a.member, a.actions) for a in session.awaiting()] == [("C", ("take", "drop")), ("D", ("take", "drop"))]
    session.answer("C", "drop")  # C −1 to Box
    session.close_window()  # D did not answer in time: goes along
    session.box_answer("drop")  # B +1, D +1
    assert last_points(session) == {"A": -1, "B": 1, "C": -1, "D": 1}
    assert session.next_order() == ["B", "C", "D", "A"]  # Box defeated (000 Ch.6)


def test_c4_1931_partners_do_not_answer_the_captains_double():
    """RULES C4 (001 Ch.9 "reject a proffered double" — Box's): the 1931 preset has no partner refusal of the
    Captain's double; Box answers at once."""
    session = started(classic_1931())
    session.turn("team")
    session.team_double("B")
    refused(session, "answer", "C", "drop", match="no offer awaits")
    session.box_answer("take")
    assert session.cube("C").value == 2


def test_c4_1931_new_active_player_takes_over_refusing_partners_only():
    """RULES C4 (001 Ch.9–10): B (Active Player) refuses and resigns to C, the next who accepts; D's refused position
    is taken over by C at 2, B's is not (Ch.10 is not a partner's refusal)."""
    session = started(classic_1931())
    session.turn("box")
    session.box_double()
    session.answer("B", "drop")
    session.answer("C", "take")
    session.answer("D", "drop")
    assert session.captain == "C"
    assert session.cube("D").team == "C" and session.cube("D").value == 2
    assert session.cube("B").status == "dropped"
    assert session.captain_changes[0]["rule"] == "001 Chouette 10"
    session.turn("team")
    session.game_over("box", "single")
    # B −1, D −1 (forfeits), C pays 2 + 2 → A +6.
    assert last_points(session) == {"A": 6, "B": -1, "C": -4, "D": -1}
    assert session.next_order() == ["A", "D", "B", "C"]


def test_c4_classic_rules_refuse_beavers():
    """RULES C4 with D3: the classic family has one cube for the Team, so beavers are a contradiction."""
    with pytest.raises(RuleSetError, match="one cube"):
        ChouetteRules.preset("chouette-classic", beavers=True)


# ============================================================================================ C5 Atlanta cubes
def test_c5_team_window_at_the_captains_turn():
    """RULES C5 (003 Atlanta 5.9): every member who may double gets the chance before the Captain rolls; Box answers
    once the window is closed; the turn cannot pass while it is open; close_window passes the undecided."""
    session = started(atlanta())
    refused(session, "team_double", "B", match="own turn")
    session.turn("team")
    assert [(a.member, a.actions) for a in session.awaiting()] == [
        ("B", ("double", "no_double")),
        ("C", ("double", "no_double")),
        ("D", ("double", "no_double")),
    ]
    session.team_double("C")
    refused(session, "team_double", "C", match="may not double|no cube")
    refused(session, "box_answer", "take", match="finished doubling")
    refused(session, "turn", "box", match="window is open")
    session.close_window()
    assert session.game.window is None
    assert [(a.member, a.cubes) for a in session.awaiting()] == [("A", ("C",))]
    session.box_answer("take")
    session.turn("box")
    refused(session, "close_window", match="no window")


def test_c5_a_cube_owned_by_box_is_not_in_the_window_and_box_redoubles_it():
    """RULES C5, D1: after Box takes B's double he owns B's cube: B may not double, Box may redouble (5.6)."""
    session = started(atlanta())
    session.turn("team")
    session.team_double("B")
    session.no_double("C")
    session.no_double("D")
    session.box_answer("take")
    session.turn("box")
    assert session.may_double("A") == ["B", "C", "D"]
    session.turn("team")
    assert set(session.game.window) == {"C", "D"}
    session.close_window()
    session.turn("box")
    assert session.box_double(["B"]) == {"B": 4}


def test_c5_box_doubles_selectively_and_twice_in_a_turn_is_refused():
    """RULES C5 (003 Atlanta 5.6): Box may double any subset; one double per turn; only at his turn."""
    session = started(atlanta())
    refused(session, "box_double", ["B"], match="own turn")
    session.turn("box")
    refused(session, "box_double", ["Z"], match="no cube")
    refused(session, "box_double", "B", match="list")
    session.box_double(["B", "D"])
    session.answer("B", "take")
    session.answer("D", "take")
    refused(session, "box_double", ["C"], match="already doubled")


@pytest.mark.parametrize(
    ("answers", "allowed"),
    [
        ({"B": "take", "C": "drop", "D": "drop"}, False),  # 1 of 3 < half
        ({"B": "take", "C": "take", "D": "drop"}, True),  # 2 of 3
        ({"B": "drop", "C": "drop", "D": "drop"}, True),  # "Box may drop ... all cubes"
        ({"B": "beaver", "C": "drop", "D": "drop"}, False),  # a beaver is one acceptance
        ({"B": "beaver", "C": "take", "D": "drop"}, True),
    ],
)
def test_c5_rule_5_10_box_must_accept_at_least_half_when_all_cubes_are_turned(answers, allowed):
    """RULES C5 (003 Atlanta 5.10): all three cubes turned from the centre together."""
    session = started(atlanta())
    session.turn("team")
    for member in "BCD":
        session.team_double(member)
    if allowed:
        session.box_answer(answers)
    else:
        refused(session, "box_answer", answers, match="at least half")


def test_c5_rule_5_10_first_answer_covers_every_cube_and_drop_all_ends_the_game():
    """RULES C5 (5.10): Box answers all at once; dropping all ends the game, each member winning 1 and the Captain
    having beaten Box (6.3): B is Box next."""
    session = started(atlanta())
    session.turn("team")
    for member in "BCD":
        session.team_double(member)
    refused(session, "box_answer", {"B": "drop"}, match="all of them at once")
    session.box_answer("drop")
    assert last_points(session) == {"A": -3, "B": 1, "C": 1, "D": 1}
    assert session.next_order() == ["B", "C", "D", "A"]


def test_c5_rule_5_10_with_four_cubes_half_is_enough():
    """RULES C5 (5.10 "at least one half"): 2 of 4 is enough, 1 of 4 is not."""
    session = started(atlanta(), members="ABCDE")
    session.turn("team")
    for member in "BCDE":
        session.team_double(member)
    refused(session, "box_answer", {"B": "take", "C": "drop", "D": "drop", "E": "drop"}, match="at least half")
    session.box_answer({"B": "take", "C": "drop", "D": "take", "E": "drop"})


@pytest.mark.parametrize("rule_5_10a", [True, False])
def test_c5_rule_5_10a_three_handed_both_or_none(rule_5_10a):
    """RULES C5 (5.10a, option): in a three-handed chouette Box takes both cubes or drops both; under plain 5.10
    one of two is half, so allowed."""
    session = started(atlanta(rule_5_10a=rule_5_10a), members="ABC")
    session.turn("team")
    session.team_double("B")
    session.team_double("C")
    if rule_5_10a:
        refused(session, "box_answer", {"B": "take", "C": "drop"}, match="5.10a")
        session.box_answer("take")
    else:
        session.box_answer({"B": "take", "C": "drop"})
    assert session.cube("B").value == 2


def test_c5_rule_5_11_redoubles_and_partial_team_doubles_are_free():
    """RULES C5 (5.11): Box may accept or pass any number of redoubles, and of initial doubles when the entire Team
    did not double together."""
    session = started(atlanta())
    session.turn("box")
    session.box_double()
    for member in "BCD":
        session.answer(member, "take")
    session.turn("team")
    for member in "BCD":
        session.team_double(member)  # three redoubles to 4: 5.10 does not apply
    session.box_answer({"B": "take", "C": "drop", "D": "drop"})
    assert (session.cube("B").value, session.cube("C").status) == (4, "dropped")
    other = started(atlanta())
    other.turn("team")
    other.team_double("B")
    other.team_double("C")
    other.no_double("D")
    other.box_answer({"B": "take", "C": "drop"})


def test_c5_rule_5_8_box_may_insist_on_rotation_order():
    """RULES C5 (5.8): members answer in any order unless Box insists on the rotation order."""
    free = started(atlanta())
    free.turn("box")
    free.box_double()
    free.answer("D", "take")
    ordered = started(atlanta())
    ordered.turn("box")
    ordered.box_double(in_order=True)
    refused(ordered, "answer", "D", "take", match="rotation order")
    ordered.answer("B", "take")
    refused(ordered, "answer", "D", "take", match="C answer first")
    ordered.answer("C", "drop")
    ordered.answer("D", "take")


def test_c5_beaver_and_raccoon_per_cube():
    """RULES C5 with D3 (003 Atlanta 5.3–5.4): B beavers Box's double (2, B keeps it, offers 4); Box raccoons (8,
    ownership unchanged); B takes. Team wins a single: B +8."""
    session = started(atlanta(raccoons=True))
    session.turn("box")
    session.box_double(["B"])
    session.answer("B", "beaver")
    assert (session.cube("B").value, session.cube("B").offered_value) == (2, 4)
    assert [(a.member, a.actions) for a in session.awaiting()] == [("A", ("take", "drop", "raccoon"))]
    session.box_answer("raccoon")
    session.answer("B", "take")
    assert (session.cube("B").value, session.cube("B").cube.owner) == (8, 1)
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("team", "single")
    assert last_points(session) == {"A": -10, "B": 8, "C": 1, "D": 1}


def test_c5_box_drops_a_beaver_and_raccoons_need_consent():
    """RULES C5 with D3 (5.4): dropping a beaver loses the value before it; raccoons off → refused."""
    session = started(atlanta())
    session.turn("box")
    session.box_double(["C"])
    session.answer("C", "beaver")
    refused(session, "box_answer", "raccoon", match="raccoons are not allowed")
    session.box_answer("drop")
    assert session.game.transfers[-1].to_json() | {"why": ""} == {
        "payer": "A",
        "payee": "C",
        "points": 2,
        "why": "",
        "cube": "C",
    }


def test_c5_automatic_doubles_by_agreement_per_member():
    """RULES C5 with G3 (003 Atlanta 5.1): an opening tie raises the cubes of those who agreed; cubes stay centred."""
    session = started(atlanta(automatic_doubles=1))
    assert session.opening_tie(["B", "D"]) == ["B", "D"]
    assert {k: (c.value, c.cube.owner) for k, c in session.cubes().items()} == {
        "B": (2, None),
        "C": (1, None),
        "D": (2, None),
    }
    assert session.opening_tie() == ["C"]  # the limit of one raise is reached for B and D
    session.turn("team")
    refused(session, "opening_tie", match="before the first turn")


# ================================================================================================ C5 extras 5.7
def _lone_taker(rules, members="ABCD"):
    """Box doubles every cube from the centre; B takes, the others drop (003 Atlanta 5.7 "a lone player takes")."""
    session = started(rules, members=members)
    session.turn("box")
    session.box_double()
    session.answer("B", "take")
    for member in members[2:]:
        session.answer(member, "drop")
    return session


def test_c5_extras_57_taker_accepts_every_extra():
    """RULES C5 (003 Atlanta 5.7): C offers an extra (pays B 1, B holds C's cube at 2); D offers none. Box wins a
    single: B pays Box 2 and C 2."""
    session = _lone_taker(atlanta())
    assert {a.member for a in session.awaiting()} == {"C", "D"}
    refused(session, "answer", "B", "take", match="deciding whether to offer")
    refused(session, "turn", "team", match="extras")
    session.offer_extra("C")
    refused(session, "offer_extra", "C", match="not a dropper")
    session.no_extra("D")
    assert [(a.member, a.cubes) for a in session.awaiting()] == [("B", ("C>B",))]
    session.answer("B", "take")
    extra = session.cube("C>B")
    assert (extra.team, extra.box, extra.value, extra.cube.owner) == ("B", "C", 2, 1)
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("box", "single")
    # A: +1 (C) +1 (D) +2 (B); B: +1 (C's payment) −2 (Box) −2 (extra); C: −1 −1 +2; D: −1.
    assert last_points(session) == {"A": 4, "B": -3, "C": 0, "D": -1}


def test_c5_extras_57_taker_may_change_his_take_to_a_drop():
    """RULES C5 (5.7 "The taking player has the option to change his decision to a drop"): the extras vanish and the
    game is over, every cube dropped."""
    session = _lone_taker(atlanta())
    session.offer_extra("C")
    session.offer_extra("D")
    refused(session, "answer", "B", "drop", cube="C>B", match="all at once")
    session.answer("B", "drop")
    assert session.phase == "ready"
    assert last_points(session) == {"A": 3, "B": -1, "C": -1, "D": -1}


def test_c5_extras_57a_taker_keeps_his_take_and_drops_an_extra_for_a_net_point():
    """RULES C5 (5.7a): "may immediately drop any of the offered extras ..., losing a net of one point"."""
    session = _lone_taker(atlanta(extras="5.7a"))
    session.offer_extra("C")
    session.offer_extra("D")
    session.answer("B", "drop", cube="C>B")
    session.answer("B", "take", cube="D>B")
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("team", "single")
    # B: −1 (to C) +1 (D's payment) +2 (Box) +2 (D's extra); C: −1 (Box) +1; D: −1 −1 −2; A: +1 +1 −2.
    assert last_points(session) == {"A": 0, "B": 4, "C": 0, "D": -4}


def test_c5_extras_57c_three_handed_extras_must_be_taken_and_57b_allows_the_change():
    """RULES C5 (5.7c: "Extras in a 3-handed chouette must be taken"; 5.7b: take it or change to a drop)."""
    strict = _lone_taker(atlanta(extras="5.7c", half_rule=False), members="ABC")
    strict.offer_extra("C")
    refused(strict, "answer", "B", "drop", match="must be taken")
    strict.answer("B", "take")
    loose = _lone_taker(atlanta(extras="5.7b"), members="ABC")
    loose.offer_extra("C")
    loose.answer("B", "drop")
    assert last_points(loose) == {"A": 2, "B": -1, "C": -1}


def test_c5_extras_off_or_not_all_cubes_no_extras_round():
    """RULES C5 (5.7 applies "when Box doubles all cubes from the middle"; option off)."""
    off = _lone_taker(atlanta(extras="off"))
    assert off.game.extras is None
    partial = started(atlanta())
    partial.turn("box")
    partial.box_double(["B", "C"])
    partial.answer("B", "take")
    partial.answer("C", "drop")
    assert partial.game.extras is None


def test_c5_extras_have_independent_cube_action():
    """RULES C5 (5.7 "independent cube action between them and the lone player"): B redoubles C's extra at the
    Team's turn, C (not Box) answers and owns it, then redoubles B at Box's turn; B drops, losing 4 to C."""
    session = _lone_taker(atlanta())
    session.offer_extra("C")
    session.no_extra("D")
    session.answer("B", "take")
    session.turn("team")
    assert set(session.game.window) == {"B", "C>B"}  # B owns his own cube and the extra
    refused(session, "team_double", "B", match="say which")
    session.team_double("B", cube="C>B")
    session.no_double("B", cube="B")
    refused(session, "box_answer", "take", match="no offer awaits Box")
    session.answer("C", "take")
    assert (session.cube("C>B").value, session.cube("C>B").cube.owner) == (4, 0)
    session.turn("box")
    assert session.may_double("C") == ["C>B"]
    session.extra_double("C")
    session.answer("B", "drop", cube="C>B")  # B loses 4 to C
    assert session.game.transfers[-1].to_json()["points"] == 4


# ================================================================================================= C6 stakes
def test_c6_stake_multiples_start_the_cube_higher():
    """RULES C6 (003 Atlanta 2.2): C plays double stakes, his cube starts at 2; a drop after Box doubles costs 2."""
    session = started(atlanta(), stakes={"C": 2})
    assert session.cube("C").value == 2
    session.turn("box")
    assert session.box_double(["C"]) == {"C": 4}
    session.answer("C", "drop")
    assert session.game.transfers[-1].points == 2


def test_c6_stakes_must_be_powers_of_two_and_are_off_in_classic():
    """RULES C6: multiples 2, 4, … (the cube starts there); the classic texts play a single stake (001 Ch.4)."""
    refused(ChouetteSession(atlanta()), "seat", {"A": 9, "B": 8, "C": 7}, stakes={"B": 3}, match="1, 2, 4")
    refused(ChouetteSession(classic()), "seat", {"A": 6, "B": 5, "C": 4}, stakes={"B": 2}, match="single stake")
    session = started(atlanta())
    refused(session, "set_stake", "B", 4, match="between games")
    session.game_over("box", "single")
    session.set_stake("B", 4)
    session.start_game()
    assert session.cube("C").value == 1 and session.order[-1] == "B" and session.cube("B").value == 4


# ============================================================================================ C7 Box Partner
@pytest.mark.parametrize(("total", "shares"), [(5, (3, 2)), (-5, (-3, -2)), (4, (2, 2)), (-1, (-1, 0)), (0, (0, 0))])
def test_c7_split_odd_point_to_or_from_box(total, shares):
    """RULES C7 (003 Atlanta 4.2): Box receives the extra point of an odd win and loses it of an odd loss."""
    assert split_box_partner(total) == shares
    assert sum(shares) == total


def test_c7_partner_shares_the_box_sides_odd_win():
    """RULES C7 (003 Atlanta 1.2–1.3, 4.2): with six players the last of the Team partners Box and has no cube."""
    session = started(atlanta(box_partner=True), members="ABCDEF")
    assert session.partner == "F" and "F" not in session.cubes()
    session.turn("box")
    session.box_double(["B"])
    session.answer("B", "take")
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("box", "single")
    # Box side: 2 + 1 + 1 + 1 = 5 → A 3, F 2.
    assert last_points(session) == {"A": 3, "B": -2, "C": -1, "D": -1, "E": -1, "F": 2}


def test_c7_partner_choice_size_captain_and_new_members():
    """RULES C7: a Partner only from box_partner_min_members; never the Captain; Box may play solo; a member who has
    not played yet is not the first choice (003 Atlanta 6.4)."""
    refused(seated(atlanta(box_partner=True), members="ABCDE"), "start_game", partner="E", match="6\\+")
    six = seated(atlanta(box_partner=True), members="ABCDEF")
    refused(six, "start_game", partner="B", match="other than the Captain")
    six.join(["G"])
    assert six.default_partner() == "F"
    six.start_game(partner=None)
    assert six.partner is None and "F" in six.cubes()
    six.game_over("team", "single")
    assert six.default_partner() == "A"


# =============================================================================================== C8 rotation
def test_c8_atlanta_acting_captains_in_line_keep_their_places():
    """RULES C8 (003 Atlanta 6.2): Box cubes out B, then C; D is Acting Captain; the first Acting Captain (C) is next
    game's Captain; only the initial Captain goes to the end."""
    session = started(atlanta(), members="ABCDE")
    session.turn("box")
    session.box_double(["B", "C"])
    session.answer("B", "drop")
    session.answer("C", "drop")
    assert [(c["from"], c["to"], c["rule"]) for c in session.captain_changes] == [
        ("B", "C", "003 Atlanta 6.2"),
        ("C", "D", "003 Atlanta 6.2"),
    ]
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("box", "single")
    assert session.next_order() == ["A", "C", "D", "E", "B"]


@pytest.mark.parametrize(("break_even_rule", "order"), [(True, ["C", "D", "A", "B"]), (False, ["A", "C", "D", "B"])])
def test_c8_atlanta_box_must_break_even_to_stay(break_even_rule, order):
    """RULES C8 (003 Atlanta 6.1): Box beats Captain B (B drops) but loses 3 over the game: B goes to the end behind
    Box, C (behind the original Captain) becomes Box, D Captain. Both circled, 'b' by the Captain (10.1)."""
    session = started(atlanta(break_even_rule=break_even_rule))
    session.turn("box")
    session.box_double(["B"])
    session.answer("B", "drop")
    session.turn("team")
    session.team_double("C")
    session.team_double("D")
    session.box_answer("take")
    session.turn("box")
    session.game_over("team", "single")
    assert last_points(session) == {"A": -3, "B": -1, "C": 2, "D": 2}
    assert session.next_order() == order
    marks = session.sheet().rows[-1].marks
    assert marks == ({"circled": ["A", "B"], "b": "B"} if break_even_rule else {"circled": ["B"]})


def test_c8_relinquish_box():
    """RULES C8 (003 Atlanta 6.1): "A person scheduled to be Box has the option to relinquish that role and go to the
    bottom of the rotation"."""
    session = seated(atlanta())
    session.relinquish_box()
    assert session.next_order() == ["B", "C", "D", "A"]
    session.start_game()
    refused(session, "relinquish_box", match="between games")


# ================================================================================================ C9 proxies
def test_c9_named_proxy_acts_for_an_absent_member():
    """RULES C9 (003 Atlanta 7.1): a proxy he names acts for him; nobody else does; back again, he acts himself."""
    session = started(atlanta())
    session.leave("D", proxy="B")
    session.turn("team")
    assert [a.actor for a in session.awaiting() if a.member == "D"] == ["B"]
    refused(session, "team_double", "D", by="C", match="B acts for D")
    session.team_double("D", by="B")
    session.close_window()
    session.box_answer("take")
    session.come_back("D")
    session.turn("box")
    session.box_double(["C"])
    refused(session, "answer", "C", "take", by="D", match="is here")
    session.answer("C", "take")


def test_c9_without_proxy_the_captain_acts_and_proxies_may_appoint_proxies():
    """RULES C9 (7.1): "If no proxy is appointed, Captain acts as the proxy"; "The proxy may also appoint yet another
    proxy, and so on"; a proxy who is away passes it on along the chain."""
    session = started(atlanta(), members="ABCDE")
    session.leave("E")
    assert session.proxy_for("E") == "B"
    session.appoint_proxy("E", "C", by="B")
    assert session.proxy_for("E") == "C"
    refused(session, "appoint_proxy", "E", "D", by="D", match="only E")
    session.leave("C", proxy="D")
    assert session.proxy_for("E") == "D"
    session.leave("D", proxy="C")  # a loop falls back to the Captain
    assert session.proxy_for("E") == "B"
    refused(session, "leave", "E", match="already away")
    refused(session, "leave", "Z", match="not in this chouette")
    refused(session, "leave", "B", proxy="B", match="another participant")


# ============================================================================================ C10 settlements
def test_c10_settlement_takes_a_member_out_of_the_game():
    """RULES C10 (003 Atlanta 4.5): Box settles with C for 1 point; C is out; the rest play on."""
    session = started(atlanta())
    session.turn("box")
    session.box_double(["C"])
    refused(session, "settle", "C", 1, match="await")
    session.answer("C", "take")
    refused(session, "settle", "C", 1.5, match="whole number")
    session.settle("C", 1)
    assert session.cube("C").status == "settled"
    refused(session, "settle", "C", 1, match="holds no cube")
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("box", "single")
    assert last_points(session) == {"A": 1, "B": -1, "C": 1, "D": -1}


def test_c10_zero_settlement_with_the_captain_counts_as_both_losing():
    """RULES C10 with C8 (003 Atlanta 6.1 "or if Captain and Box settle their cube for zero points"): C is Acting
    Captain (6.2), and the rotation moves Box and Captain to the end."""
    session = started(atlanta())
    session.settle("B", 0)
    assert session.captain == "C"
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("box", "single")
    assert session.next_order() == ["C", "D", "A", "B"]
    assert session.sheet().rows[-1].marks == {"circled": ["A", "B"], "b": "B"}


def test_c10_settlements_are_an_option():
    """RULES C10 is optional: off in the classic preset."""
    refused(started(classic()), "settle", "B", 1, match="not part of these rules")


# ============================================================================================== C11 score sheet
def test_c11_sheet_zero_sum_circles_crossed_and_next_captain():
    """RULES C11 (003 Atlanta 10.1): each game sums to zero; the loser is circled; a circle is crossed through when
    its owner becomes Box; the sheet shows the next Captain."""
    session = seated(atlanta())
    results = ["box", "team", "team", "team"]
    for winner in results:
        session.start_game()
        session.game_over(winner, "single")
    session.start_game()  # B becomes Box: his circle of game 1 is crossed through
    sheet = session.sheet()
    assert [row.marks["circled"] for row in sheet.rows] == [["B"], ["A"], ["C"], ["D"]]
    assert [row.box for row in sheet.rows] == ["A", "A", "C", "D"]
    assert sheet.rows[0].crossed == ["B"]
    assert [row.next_captain for row in sheet.rows] == ["C", "D", "B", "A"]
    assert all(sum(row.points.values()) == 0 for row in sheet.rows)
    assert sum(sheet.totals().values()) == 0
    assert sheet.open_circles() == ["A", "C", "D"]
    text = sheet.text()
    assert "(-1)x" in text and text.splitlines()[-1].split() == ["sum", *map(str, sheet.totals().values())]


def test_c11_sheet_refuses_a_row_that_does_not_sum_to_zero():
    """RULES C11 (10.1 "the scorekeeper should verify that the total of all scores adds to zero")."""
    from backgammon.chouette import ScoreSheet, SheetRow

    sheet = ScoreSheet(members=["A", "B", "C"])
    with pytest.raises(ChouetteError, match="zero"):
        sheet.add_row(SheetRow(1, "A", "B", None, {"A": 2, "B": -1, "C": 0}, None, ["A", "C", "B"], "play"))


# ================================================================================== the board game and the record
def test_board_over_takes_a_board_game_result():
    """RULES C3 with G11: the board's GameResult (Box played side 0) ends the chouette game."""
    session = started(atlanta(jacoby=False))
    result = GameResult(winner=1, points=2, kind="gammon", ended_by="play", cube=1, multiplier=2)
    assert session.board_over(result, box_side=0) == {"A": -6, "B": 2, "C": 2, "D": 2}
    other = started(atlanta())
    with pytest.raises(ChouetteError, match="own cube"):
        other.board_over(GameResult(0, 1, "single", "drop", 1, 1), box_side=0)


def test_game_over_needs_nothing_pending_and_a_known_result():
    """A game ends only between decisions (RULES D1–D3), with a result of G11."""
    session = started(atlanta())
    session.turn("team")
    refused(session, "game_over", "team", "single", match="window")
    session.close_window()
    refused(session, "game_over", "Team", "single", match="'box' or 'team'")
    refused(session, "game_over", "team", "double", match="single, gammon or backgammon")
    refused(session, "turn", "team", match="already on roll")
    refused(session, "turn", "both", match="'box' or 'team'")


def test_rules_presets_json_and_overrides():
    """Rule sets: presets, overrides of both layers, JSON round trip, unknown options refused (RULES "Rule sets")."""
    for name in ("chouette-classic", "chouette-classic-1931", "chouette-atlanta"):
        rules = ChouetteRules.preset(name)
        assert ChouetteRules.from_json(rules.to_json()) == rules
    custom = ChouetteRules.preset("chouette-atlanta", jacoby=False, extras="5.7a", max_members=8)
    assert (custom.game.jacoby, custom.extras, custom.max_members, custom.name) == (
        False,
        "5.7a",
        8,
        "chouette-atlanta",
    )
    with pytest.raises(RuleSetError, match="unknown"):
        ChouetteRules.preset("chouette-atlanta", crawfords=True)
    with pytest.raises(RuleSetError, match="extras"):
        ChouetteRules.preset("chouette-atlanta", extras="5.8")
    with pytest.raises(RuleSetError, match="Point Game"):
        ChouetteRules.preset("chouette-atlanta", point_game=True)
    assert "extras 5.7a" in custom.describe()


def test_throws_helper_is_pure():
    """RULES C1: apply_throws returns a new ranking and leaves the old one alone."""
    ranking = [["A", "B"], ["C"]]
    assert apply_throws(ranking, {"A": 2, "B": 5}, 1) == [["B"], ["A"], ["C"]]
    assert ranking == [["A", "B"], ["C"]]


# ================================================================================================ more details
def test_member_raccoons_boxs_beaver_of_his_double():
    """RULES C5 with D3 (003 Atlanta 5.4): C doubles, Box beavers (C's cube 2, Box owns, offers 4), C raccoons (8)."""
    session = started(atlanta(raccoons=True))
    session.turn("team")
    session.team_double("C")
    session.close_window()
    session.box_answer("beaver")
    assert [(a.member, a.actions) for a in session.awaiting()] == [("C", ("take", "drop", "raccoon"))]
    session.raccoon("C")
    assert session.cube("C").state == "raccooned"
    session.box_answer("take")
    assert (session.cube("C").value, session.cube("C").state) == (8, "owned by box side")
    refused(session, "answer", "A", "take", match="box_answer")
    refused(session, "answer", "C", "double", match="a decision is one of")


@pytest.mark.parametrize(("on_resignations", "points"), [(True, 1), (False, 2)])
def test_resignation_under_jacoby_follows_the_rule_set_option(on_resignations, points):
    """RULES D4 with G12: a conceded gammon on a cube not in the game counts single when Jacoby covers resignations
    (rule option jacoby_on_resignations, an unsure point of the 1-on-1 cases)."""
    session = started(atlanta(jacoby_on_resignations=on_resignations))
    session.game_over("team", "gammon", ended_by="resignation")
    assert last_points(session)["B"] == points
    assert session.sheet().rows[-1].ended_by == "resignation"
    refused(started(atlanta()), "game_over", "team", "gammon", ended_by="timeout", match="ended_by")


def test_classic_sheet_may_circle_losers_too():
    """RULES C11 (10.1 marks, an option in the classic family): a Captain who refused and the beaten Captain."""
    session = started(classic(circle_losers=True))
    session.turn("box")
    session.box_double()
    session.answer("B", "drop")
    session.answer("C", "take")
    session.answer("D", "take")
    session.turn("team")
    session.game_over("box", "single")
    assert session.sheet().rows[-1].marks == {"circled": ["B", "C"]}


def test_retire_between_games_and_waiting_members():
    """RULES C2: a member leaves the chouette between games; one still waiting may leave during a game."""
    session = started(atlanta(), members="ABCDE")
    session.join(["F"])
    refused(session, "retire", "C", match="between games")
    session.retire("F")
    session.game_over("box", "single")
    session.leave("E", proxy="D")
    session.retire("D")
    assert session.next_order() == ["A", "C", "E", "B"] and session.proxies == {}
    refused(session, "retire", "Z", match="not in this chouette")
    session.join(["D"])  # he may come back later under the same name; his column stays
    assert session.sheet().members == ["A", "B", "C", "D", "E", "F"]


def test_cube_states_for_displays():
    """Cube display states (RULES D1–D3): centred, offered, beavered, owned, dropped, settled, scored."""
    session = started(atlanta())
    assert session.cube("B").state == "centred"
    session.turn("box")
    session.box_double(["B", "C"])
    assert session.cube("B").state == "offered"
    session.answer("B", "beaver")
    assert session.cube("B").state == "beavered"
    session.box_answer("take")
    session.answer("C", "drop")
    assert (session.cube("B").state, session.cube("C").state) == ("owned by team side", "dropped")
    session.settle("D", -1)
    assert session.cube("D").state == "settled"
    session.turn("team")
    session.close_window()
    session.turn("box")
    session.game_over("box", "backgammon")
    assert session.cubes()["B"].state == "scored"
    # B: 4 × 3 (a beavered cube is in the game, 1.5); C −1; D −1 (settled) → A 14.
    assert last_points(session) == {"A": 14, "B": -12, "C": -1, "D": -1}


def test_extras_window_closes_at_the_deadline_and_an_extra_may_be_beavered():
    """RULES C5 (5.7 "Beavers and raccoons are allowed"; the extras offers close at a deadline like any window)."""
    session = _lone_taker(atlanta(), members="ABCDE")
    session.offer_extra("D")
    session.close_window()  # C and E offered nothing in time
    assert [(a.member, a.cubes) for a in session.awaiting()] == [("B", ("D>B",))]
    session.answer("B", "beaver")
    assert [(a.member, a.cubes) for a in session.awaiting()] == [("D", ("D>B",))]
    session.answer("D", "drop")  # D loses 2 (value before the beaver) after paying B 1
    assert [t.points for t in session.game.transfers if t.cube == "D>B"] == [1, 2]


def test_extras_57b_in_a_larger_chouette_plays_as_57():
    """RULES C5: 5.7b/5.7c are three-handed alternates; with four or more members 5.7 applies."""
    session = _lone_taker(atlanta(extras="5.7c"))
    session.offer_extra("C")
    session.no_extra("D")
    session.answer("B", "drop")  # the 5.7 change of decision: allowed, 5.7c does not apply to four players
    assert last_points(session) == {"A": 3, "B": -1, "C": -1, "D": -1}


def test_may_double_and_extra_double_refusals():
    """RULES D1, C4, C5: who may double what, now."""
    session = started(classic())
    assert session.may_double("A") == []
    session.turn("team")
    assert session.may_double("B") == ["B", "C", "D"] and session.may_double("C") == []
    refused(session, "extra_double", "C", match="own turn")
    session.turn("box")
    refused(session, "extra_double", "C", match="no extra")


def test_malformed_records_raise_chouette_errors():
    """JSON records that do not describe a session raise ChouetteError (no KeyError escapes)."""
    data = started(atlanta()).to_json()
    broken = {**data, "game": {**data["game"], "cubes": [{"key": "B"}]}}
    with pytest.raises(ChouetteError, match="malformed"):
        ChouetteSession.from_json(broken)
    with pytest.raises(ChouetteError, match="malformed"):
        ChouetteSession.from_json({k: v for k, v in data.items() if k != "order"})
    with pytest.raises(ChouetteError, match="unknown chouette event"):
        started(atlanta()).apply({"event": "cheat", "args": {}})
    with pytest.raises(ChouetteError, match="box_double"):
        started(atlanta()).box_double(["B"], True, "extra")


def test_package_docstring_example_runs():
    """The example in backgammon.chouette's docstring (a Team gammon under Jacoby, RULES C5, D4, C8) is correct."""
    import doctest

    import backgammon.chouette

    assert doctest.testmod(backgammon.chouette).failed == 0


def test_the_typed_vocabulary_reads_and_writes_the_stored_words():
    """Options, sides, statuses and endings are enum members in memory and the same words in JSON: a session played
    to a drop and a scored cube writes byte for byte what it reads back, and a wrong word is refused as before."""
    rules = ChouetteRules.from_json({"family": "classic", "extras": "off", "name": "x",
                                     "game": classic().game.to_json()})  # fmt: skip
    assert (rules.family, rules.extras) == (Family.CLASSIC, Extras.OFF) and rules.single_cube
    assert json.loads(json.dumps(rules.to_json()))["family"] == "classic"
    with pytest.raises(RuleSetError, match="family is one of classic, atlanta"):
        ChouetteRules(family="swiss")
    session = started(atlanta())
    session.turn("box")
    session.box_double(["B"])
    session.answer("B", "drop")
    session.game_over("team", "single")
    cubes = session.game.cubes
    assert (cubes["B"].status, cubes["B"].ended) == (CubeStatus.DROPPED, Ending.TEAM_DROPPED)
    assert (cubes["C"].status, cubes["C"].ended, session.game.result["winner"]) == (
        CubeStatus.SCORED, Ending.SCORED, Side.TEAM)  # fmt: skip
    text = json.dumps(session.to_json(), sort_keys=True)
    assert '"status": "dropped"' in text and '"ended": "team_dropped"' in text and '"winner": "team"' in text
    again = ChouetteSession.from_json(json.loads(text))
    assert json.dumps(again.to_json(), sort_keys=True) == text
    assert again.game.cubes["B"].ended is Ending.TEAM_DROPPED and again.rules.family is Family.ATLANTA
