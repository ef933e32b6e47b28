"""Rotation tables (RULES C8) for both families over every combination of who won which cube, in a four-member
chouette A (Box) | B (Captain), C, D — each game played through the engine."""

from __future__ import annotations

import itertools

import pytest

from backgammon.chouette import Outcome, atlanta_next_order, classic_next_order, relinquish_box
from tests.chouette_helpers import atlanta, classic, classic_1931, last_points, started

# -- classic (000 Ch.6–11; 001 Ch.5–10): one cube; each of B, C, D takes (T) or refuses (D) Box's double -------------
# Box keeps the box until defeated; the defeated go last; a refusing Captain loses his seat to the highest-ranking
# acceptor (and goes last even if his side wins); a partner's refusal keeps his rank.
CLASSIC_TABLE = {
    # answers of B, C, D: (order if Box wins the board, order if the Team wins it)
    "TTT": ("A|CDB", "B|CDA"),
    "TTD": ("A|CDB", "B|CDA"),
    "TDT": ("A|CDB", "B|CDA"),
    "TDD": ("A|CDB", "B|CDA"),
    "DTT": ("A|DBC", "C|DBA"),
    "DTD": ("A|DBC", "C|DBA"),
    "DDT": ("A|CBD", "D|CBA"),
    "DDD": ("A|CDB", None),  # everyone refused: the game is over, Box won
}


def _order(text: str) -> list[str]:
    return list(text.replace("|", ""))


@pytest.mark.parametrize("preset", [classic, classic_1931])
@pytest.mark.parametrize(
    ("answers", "winner"),
    [(a, w) for a, orders in CLASSIC_TABLE.items() for w, order in zip(("box", "team"), orders, strict=True) if order],
)
def test_c8_classic_rotation_table(preset, answers, winner):
    """RULES C8 classic rotation for every answer to Box's double and both board results (000 Ch.6–11)."""
    expected = CLASSIC_TABLE[answers][0 if winner == "box" else 1]
    session = started(preset())
    session.turn("box")
    session.box_double()
    for member, answer in zip("BCD", answers, strict=True):
        session.answer(member, "take" if answer == "T" else "drop")
    if session.phase == "playing":
        session.turn("team")
        session.game_over(winner, "single")
    assert session.next_order() == _order(expected)
    assert sum(last_points(session).values()) == 0


# -- Atlanta (003 6.1–6.3): a cube each; each of B, C, D wins or loses his cube on the board, or drops Box's double
# (Box won it), or doubles and Box drops (he won it). Next order: Captain B beat Box → B|CDA (6.3/6.1); Box beat B and
# broke even → A|CDB (6.2); Box beat B but lost points → C|DAB (6.1).
OUTCOMES = ("board", "member_dropped", "box_dropped")
ATLANTA_ORDERS = {"captain won": "B|CDA", "box won, even or up": "A|CDB", "box won, down": "C|DAB"}


def _expected_member_points(outcome: str, winner: str) -> int:
    if outcome == "member_dropped":
        return -1
    if outcome == "box_dropped":
        return 1
    return 1 if winner == "team" else -1


@pytest.mark.parametrize(
    ("outcomes", "winner"),
    [
        (combo, winner)
        for combo in itertools.product(OUTCOMES, repeat=3)
        for winner in (("box",) if "board" not in combo else ("box", "team"))
    ],
)
def test_c8_atlanta_rotation_table(outcomes, winner):
    """RULES C8 (003 Atlanta 6.1–6.3) for every combination of who won which cube, with the 10.1 sheet marks."""
    by_member = dict(zip("BCD", outcomes, strict=True))
    session = started(atlanta(jacoby=False))
    session.turn("box")
    droppers = [m for m, o in by_member.items() if o == "member_dropped"]
    if droppers:
        session.box_double(droppers)
        for member in droppers:
            session.answer(member, "drop")
    if session.phase == "playing":
        session.turn("team")
        for member in "BCD":
            if by_member[member] == "box_dropped":
                session.team_double(member)
        if session.game.window is not None:
            session.close_window()
        if any(o == "box_dropped" for o in outcomes):
            session.box_answer("drop")
    if session.phase == "playing":
        session.turn("box")
        session.game_over(winner, "single")

    points = {m: _expected_member_points(o, winner) for m, o in by_member.items()}
    points["A"] = -sum(points.values())
    assert last_points(session) == points
    if points["B"] > 0:
        case, circled = "captain won", {"circled": ["A"]}
    elif points["A"] >= 0:
        case, circled = "box won, even or up", {"circled": ["B"]}
    else:
        case, circled = "box won, down", {"circled": ["A", "B"], "b": "B"}
    assert session.next_order() == _order(ATLANTA_ORDERS[case])
    assert session.sheet().rows[-1].marks == circled
    if by_member["B"] != "board" and "board" in outcomes:
        assert session.captain_changes, "someone played on after B: he is Acting Captain (6.2/6.3)"
    if session.captain_changes:
        first = session.captain_changes[0]
        assert (first["from"], first["role"]) == ("B", "Acting Captain")
        assert first["rule"] == ("003 Atlanta 6.3" if by_member["B"] == "box_dropped" else "003 Atlanta 6.2")


# -- the pure functions: always a permutation ---------------------------------------------------------------------
@pytest.mark.parametrize("result", ["box", "team", "even"])
@pytest.mark.parametrize("demoted", [(), ("B",), ("B", "C")])
def test_c8_classic_next_order_is_a_permutation(result, demoted):
    """RULES C8: every classic outcome yields a permutation of the order."""
    final = {(): "B", ("B",): "C", ("B", "C"): "D"}[demoted]
    order = ["A", "B", "C", "D", "E"]
    result_order = classic_next_order(order, Outcome("classic", "A", "B", final, demoted, result, 0))
    assert sorted(result_order) == order
    assert result_order[0] == (final if result == "team" else "A")


@pytest.mark.parametrize(("result", "net"), [("team", -3), ("box", 2), ("box", 0), ("box", -1), ("zero", 0)])
def test_c8_atlanta_next_order_is_a_permutation(result, net):
    """RULES C8 (6.1): every Atlanta outcome yields a permutation; with the break-even rule off Box stays whenever he
    beat the Captain."""
    order = ["A", "B", "C", "D", "E"]
    outcome = Outcome("atlanta", "A", "B", "B", (), result, net)
    assert sorted(atlanta_next_order(order, outcome)) == order
    lenient = atlanta_next_order(order, outcome, break_even_rule=False)
    assert lenient[0] == ("B" if result == "team" else "A" if result == "box" else "C")
    assert relinquish_box(order) == ["B", "C", "D", "E", "A"]
