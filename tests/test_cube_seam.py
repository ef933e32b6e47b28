"""The seam between the board and the cubes (RULES D1–D3, D5).

- No cube action once the dice are thrown (RULES D1 "before he has thrown"): Box, the classic Captain, a Team
  member's window, an extra's giver (003 Atlanta 5.7) — in the chouette as in the 1-on-1 game.
- The turn marker (``mark``) follows the board's step: a Double button drawn before the roll is stale after it.
- One answer-legality function (:func:`backgammon.cube.answers`) for the game and the chouette: a beaver is never
  offered where it would be refused (the cube limit, RULES D5).
"""

from __future__ import annotations

import pytest

from backgammon import cube as cube_rules
from backgammon.chouette import ChouetteRules, ChouetteSession
from backgammon.chouette.cubes import extra_key
from backgammon.cube import Cube
from backgammon.errors import BackgammonError, ChouetteError
from backgammon.game import Game, Phase
from backgammon.rules import RuleSet
from club import InjectedDice
from club.chouette.table import SIDES, ChouetteTable
from club.errors import ClubError, StaleVersionError
from tests.chouette_clubkit import ANN, BOB, CHANNEL, CY, DI, ED, GUILD, chouettes, seated_table

pytestmark = pytest.mark.backends

SEATING = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]  # Ann Box, Bob Captain, Cy, Di, Ed


async def _box_turn(service, preset="chouette-atlanta"):
    """Seat five, Box opens 2-1 and plays, the Team passes and the Captain rolls 3-1 and plays: Box's turn, before
    his roll. Returns the outcome."""
    outcome = await service.start(GUILD, CHANNEL, ANN, rules=preset)
    for member in (BOB, CY, DI, ED):
        outcome = await service.join(outcome.session_id, member)
    outcome = await service.seat(outcome.session_id, ED)
    sid = outcome.session_id
    outcome = await service.play(sid, ANN, (await service.legal_plays(sid, ANN))[0])
    for decision in outcome.view.decisions:
        if decision.pending == "double":
            outcome = await service.act(sid, decision.actor, "pass", subject=decision.subject)
    if outcome.view.decisions[0].pending == "roll":
        outcome = await service.act(sid, BOB, "roll")
    outcome = await service.play(sid, BOB, (await service.legal_plays(sid, BOB))[0])
    assert [(d.subject, d.pending) for d in outcome.view.decisions] == [(ANN, "roll")]
    assert "double" in outcome.view.decisions[0].actions
    return outcome


async def test_box_cannot_double_after_rolling(tmp_path):
    """Box rolls 4-3 and presses Double: refused, no cube offered (RULES D1: before the dice only)."""
    dice = InjectedDice([*SEATING, (2, 1), (3, 1), (4, 3)], fallback=b"box")
    async with chouettes(tmp_path / "c.sqlite3", dice=dice) as service:
        before = await _box_turn(service)
        sid, mark = before.session_id, before.view.mark
        rolled = await service.act(sid, ANN, "roll", mark=mark)
        assert rolled.view.decisions[0].pending == "play"
        assert rolled.view.mark != mark  # the marker follows the board's step
        with pytest.raises(StaleVersionError):
            await service.act(sid, ANN, "double", mark=mark)  # the button drawn before the roll
        with pytest.raises((ChouetteError, ClubError)):
            await service.act(sid, ANN, "double")  # no mark: the rules refuse it
        after = await service.state(sid)
        assert all(cube.state != "offered" for cube in after.cubes)
        assert [a.kind for a in await service.log(sid)][-1] == "roll"


async def test_classic_captain_cannot_double_after_rolling(tmp_path):
    """The classic Captain (RULES C4) doubles for the Team before his roll only (RULES D1)."""
    dice = InjectedDice([(6, 1), (5, 1), (4, 1), (3, 1), (2, 1), (2, 1), (3, 1)], fallback=b"cap")  # one die each
    async with chouettes(tmp_path / "c.sqlite3", dice=dice) as service:
        outcome = await service.start(GUILD, CHANNEL, ANN, rules="chouette-classic")
        for member in (BOB, CY, DI, ED):
            outcome = await service.join(outcome.session_id, member)
        outcome = await service.seat(outcome.session_id, ED)
        sid = outcome.session_id
        outcome = await service.play(sid, ANN, (await service.legal_plays(sid, ANN))[0])
        decision = outcome.view.decisions[0]
        assert (decision.subject, decision.pending) == (BOB, "roll") and "double" in decision.actions
        mark = outcome.view.mark
        rolled = await service.act(sid, BOB, "roll", mark=mark)
        assert rolled.view.decisions[0].pending == "play"
        with pytest.raises(StaleVersionError):
            await service.act(sid, BOB, "double", mark=mark)
        with pytest.raises((ChouetteError, ClubError)):
            await service.act(sid, BOB, "double")


def _table(rules: ChouetteRules, members=(ANN, BOB, CY, DI)) -> ChouetteTable:
    table = seated_table(rules, members, SEATING)
    _club_steps(table)
    return table


def _club_steps(table: ChouetteTable, dice=(2, 1)) -> None:
    """What the club does by itself (turns, the opening roll, the start of a game)."""
    for _ in range(50):
        step = table.next_step()
        if step == "start_game":
            table.apply("start_game", None, {"number": table.game_number + 1, "dice": "injected", "seed_hash": None})
        elif step == "opening_roll":
            table.apply("opening_roll", None, {"dice": list(dice)})
        elif step == "turn":
            table.apply("turn", None, {"side": SIDES[table.board.turn]})
        elif step == "play":
            table.apply("play", None, {})
        else:
            return


def _roll_and_play(table: ChouetteTable, dice) -> None:
    roller = table.roller()
    table.apply("roll", roller, {"dice": list(dice)})
    _club_steps(table)
    if table.board_live and table.board.phase == Phase.PLAY:
        table.apply("play", roller, {"play": table.board.legal_plays()[0]})
    _club_steps(table)


def test_an_extras_giver_cannot_redouble_after_box_rolled():
    """A member who gave an extra cannot double its taker after Box has rolled: ``extra_double`` checks whether the
    dice were thrown, not only whose turn it is (003 Atlanta 5.7, RULES D1)."""
    rules = ChouetteRules.preset("chouette-atlanta", extras="5.7", box_partner=False)
    table = _table(rules)
    box, captain, giver, other = ANN, BOB, CY, DI
    table.apply("play", box, {"play": table.board.legal_plays()[0]})  # Box opened 2-1
    _club_steps(table)
    for member in (captain, giver, other):
        table.apply("pass", member, {"member": member, "cube": None})
    _roll_and_play(table, (3, 1))
    # Box's turn: he doubles every cube from the centre; the Captain takes, the others drop and Cy offers an extra
    table.apply("double", box, {"member": box, "targets": None, "in_order": False})
    table.apply("answer", captain, {"member": captain, "decision": "take", "cube": None})
    table.apply("answer", giver, {"member": giver, "decision": "drop", "cube": None})
    table.apply("answer", other, {"member": other, "decision": "drop", "cube": None})
    table.apply("extra", giver, {"member": giver, "offer": True})
    table.apply("extra", other, {"member": other, "offer": False})
    table.apply("answer", captain, {"member": captain, "decision": "take", "cube": None})
    _roll_and_play(table, (4, 2))
    # the Team's turn: the Captain redoubles the extra; Cy takes and owns it
    key = extra_key(str(giver), str(captain))
    table.apply("double", captain, {"member": captain, "cube": key})
    table.apply("pass", captain, {"member": captain, "cube": str(captain)})
    table.apply("answer", giver, {"member": giver, "decision": "take", "cube": key})
    _roll_and_play(table, (5, 3))
    # Box's turn, before the roll: the giver may redouble his extra
    assert table.may_double(giver) == [key]
    table.apply("roll", box, {"dice": [6, 4]})
    assert table.may_double(giver) == []
    before = table.to_json()
    with pytest.raises(ChouetteError, match="D1"):
        table.apply("double", giver, {"member": giver, "cube": key})
    assert table.to_json() == before
    # and straight on the engine: the session refuses it too once told the dice are thrown
    session = ChouetteSession.from_json({**before["session"], "history": []})
    session.dice_thrown()
    with pytest.raises(ChouetteError, match="D1"):
        session.extra_double(str(giver), key)


def test_the_table_keeps_the_dice_thrown_across_a_reload():
    """A session stored after the roll (the flag is the board's: restored from it) still refuses a double."""
    rules = ChouetteRules.preset("chouette-atlanta", box_partner=False)
    table = _table(rules)
    table.apply("play", ANN, {"play": table.board.legal_plays()[0]})
    _club_steps(table)
    for member in (BOB, CY, DI):
        table.apply("pass", member, {"member": member, "cube": None})
    _roll_and_play(table, (3, 1))
    assert table.may_double(ANN)
    table.apply("roll", ANN, {"dice": [4, 3]})
    again = ChouetteTable.from_json(table.to_json())
    assert again.may_double(ANN) == []
    with pytest.raises(ChouetteError, match="D1"):
        again.apply("double", ANN, {"member": ANN, "targets": None, "in_order": False})


def test_beaver_is_not_offered_over_the_cube_limit():
    """With a cube cap, Beaver is not offered where the cap forbids it, in the chouette as in the 1-on-1 game: one
    function (backgammon.cube.answers) says which answers a cube allows (RULES D3, D5)."""
    rules = ChouetteRules.preset("chouette-atlanta", beavers=True, raccoons=True, cube_cap=2, box_partner=False)
    table = _table(rules)
    table.apply("play", ANN, {"play": table.board.legal_plays()[0]})
    _club_steps(table)
    for member in (BOB, CY, DI):
        table.apply("pass", member, {"member": member, "cube": None})
    _roll_and_play(table, (3, 1))
    table.apply("double", ANN, {"member": ANN, "targets": None, "in_order": False})
    offered = {p.subject: p.actions for p in table.pending()}
    assert offered and all("beaver" not in actions for actions in offered.values()), offered
    with pytest.raises(BackgammonError):
        table.apply("answer", BOB, {"member": BOB, "decision": "beaver", "cube": None})
    # the 1-on-1 game under the same rules agrees
    game = Game(rules.game)
    game.opening_roll(2, 1)
    game.play(0, game.legal_plays()[0])
    game.double(1)
    assert {"take", "drop"} <= game.legal_actions(0) and "beaver" not in game.legal_actions(0)


@pytest.mark.parametrize("cap", [None, 2, 4, 8])
@pytest.mark.parametrize("beavers,raccoons,further,droppable",
                         [(b, r, f, d) for b in (False, True) for r in (False, True) for f in (False, True)
                          for d in (False, True)])  # fmt: skip
def test_answers_is_what_the_cube_rules_accept(cap, beavers, raccoons, further, droppable):
    """``answers`` lists exactly the decisions that ``take``/``check_drop``/``check_beaver``/``check_raccoon``
    accept, for every stage of an offer (RULES D2, D3, D5)."""
    rules = RuleSet.preset("money", cube_cap=cap, beavers=beavers, raccoons=raccoons,
                           further_immediate_redoubles=further, raccoon_droppable=droppable)  # fmt: skip
    offers = [Cube(value=1, offered=2, doubler=0, stage="double"), Cube(value=2, offered=4, doubler=0, stage="double"),
              Cube(value=2, owner=1, offered=4, doubler=0, stage="beaver"),
              Cube(value=4, owner=1, offered=8, doubler=0, stage="raccoon")]  # fmt: skip
    checks = {"take": lambda c: None, "drop": lambda c: cube_rules.check_drop(c, rules),
              "beaver": lambda c: cube_rules.check_beaver(c, rules),
              "raccoon": lambda c: cube_rules.check_raccoon(c, rules)}  # fmt: skip
    for offer in offers:
        accepted = []
        for decision, check in checks.items():
            try:
                check(offer)
            except BackgammonError:
                continue
            accepted.append(decision)
        assert list(cube_rules.answers(offer, rules)) == accepted, offer
