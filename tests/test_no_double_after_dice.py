"""Property (RULES D1): random action sequences through the chouette table and the
1-on-1 game never see a cube action accepted once the dice of the turn are thrown.

Each step takes a random legal-looking action (from what the table waits for), and whenever the board's dice are
thrown it also tries every cube action anyone could attempt — Box's double (all or some cubes), a Team member's
double of each of his cubes, an extra's giver redoubling, the classic Captain — and asserts each is refused and
changes nothing.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon.chouette import ChouetteRules
from backgammon.errors import BackgammonError
from backgammon.game import Game, Phase
from backgammon.rules import RuleSet
from club.chouette.table import SIDES, ChouetteTable, name
from tests.chouette_clubkit import seated_table

MEMBERS = (101, 202, 303, 404)
DIE = st.integers(1, 6)


def _open(rules: ChouetteRules, members) -> ChouetteTable:
    throws = [[6 - i, 5 - i][: rules.seating_dice] for i in range(len(members))]  # no tie
    table = seated_table(rules, members, throws)
    return table


def _club_step(table: ChouetteTable, draw) -> bool:
    """Do what the club does by itself; False when nothing was to do."""
    step = table.next_step()
    if step == "start_game":
        table.apply("start_game", None, {"number": table.game_number + 1, "dice": "injected", "seed_hash": None})
    elif step == "opening_roll":
        table.apply("opening_roll", None, {"dice": [draw(DIE), draw(DIE)]})
    elif step == "turn":
        table.apply("turn", None, {"side": SIDES[table.board.turn]})
    elif step == "game_over":
        table.apply("game_over", None, {})
    elif step == "play":
        table.apply("play", None, {})
    elif step == "roll":
        table.apply("roll", None, {"dice": [draw(DIE), draw(DIE)]})
    else:
        return False
    return True


def _cube_attempts(table: ChouetteTable):
    """Every cube action someone might press now (most of them refused at any time)."""
    game = table.session.game
    box = int(game.box)
    keys = list(game.cubes)
    yield box, {"member": box, "targets": None, "in_order": False}
    for key in keys:
        slot = game.cubes[key]
        if not slot.extra:
            yield box, {"member": box, "targets": [key], "in_order": False}
    for member in table.members:
        yield member, {"member": member, "cube": None}
        for key in keys:
            yield member, {"member": member, "cube": key}


def _choices(table: ChouetteTable, draw):
    """The actions the table waits for, with their args."""
    options = []
    for pending in table.pending():
        actor, subject = pending.actor, pending.subject
        if pending.pending == "roll":
            options.append(("roll", actor, {"dice": [draw(DIE), draw(DIE)]}))
            if "double" in pending.actions:
                if name(subject) == table.session.box:
                    options.append(("double", actor, {"member": subject, "targets": None, "in_order": False}))
                else:
                    options.append(("double", actor, {"member": subject, "cube": None}))
        elif pending.pending == "play":
            plays = table.board.legal_plays()
            options.append(("play", actor, {"play": plays[draw(st.integers(0, len(plays) - 1))]}))
        elif pending.pending == "double":
            for cube in pending.cubes:
                options.append(("double", actor, {"member": subject, "cube": cube}))
            options.append(("pass", actor, {"member": subject, "cube": None}))
        elif pending.pending == "extra":
            options += [("extra", actor, {"member": subject, "offer": offer}) for offer in (True, False)]
        elif pending.pending == "box_answer":
            options += [("box_answer", actor, {"decisions": action}) for action in pending.actions]
        else:
            options += [("answer", actor, {"member": subject, "decision": action, "cube": None})
                        for action in pending.actions]  # fmt: skip
    return options


@st.composite
def chouette_rules(draw) -> ChouetteRules:
    preset = draw(st.sampled_from(["chouette-atlanta", "chouette-classic", "chouette-classic-1931"]))
    options = {"box_partner": False, "cube_cap": draw(st.sampled_from([None, 4, 8]))}
    if preset == "chouette-atlanta":
        options |= {"beavers": draw(st.booleans()), "raccoons": draw(st.booleans()),
                    "extras": draw(st.sampled_from(["off", "5.7", "5.7a", "5.7c"]))}  # fmt: skip
    return ChouetteRules.preset(preset, **options)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(rules=chouette_rules(), size=st.integers(3, 4), data=st.data())
def test_no_chouette_cube_action_once_the_dice_are_thrown(rules, size, data):
    draw = data.draw
    table = _open(rules, MEMBERS[:size])
    for _ in range(140):
        if table.status != "open":
            break
        if _club_step(table, draw):
            continue
        if table.board_live and table.board.phase == Phase.PLAY:
            before = table.to_json()
            for member, args in _cube_attempts(table):
                try:
                    table.apply("double", member, args)
                except BackgammonError:
                    assert table.to_json() == before
                    continue
                raise AssertionError(f"a double by {member} {args} was accepted after the dice were thrown")
        options = _choices(table, draw)
        if not options:
            break
        kind, member, args = options[draw(st.integers(0, len(options) - 1))]
        rolled = table.board_live and table.board.phase != Phase.ROLL
        before = table.to_json()
        try:
            table.apply(kind, member, args)
        except BackgammonError:
            assert table.to_json() == before
            continue
        if kind == "double":
            assert not rolled, "a double was accepted after the dice"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["tournament", "money", "classic-1931"]), cap=st.sampled_from([None, 4]),
       data=st.data())  # fmt: skip
def test_no_game_cube_action_once_the_dice_are_thrown(preset, cap, data):
    length = 5 if preset == "tournament" else 0
    game = Game(RuleSet.preset(preset, cube_cap=cap), length)
    draw = data.draw
    for _ in range(300):
        if game.is_over:
            break
        if game.phase == Phase.OPENING:
            game.opening_roll(draw(DIE), draw(DIE))
            continue
        if game.phase == Phase.PLAY:
            before = game.to_json()
            for side in (0, 1):
                assert "double" not in game.legal_actions(side)
                try:
                    game.double(side)
                except BackgammonError:
                    assert game.to_json() == before
                    continue
                raise AssertionError(f"side {side} doubled after the dice were thrown")
        side = game.turn
        actions = sorted(game.legal_actions(side) - {"resign", "forfeit"})
        kind = actions[draw(st.integers(0, len(actions) - 1))]
        if kind == "roll":
            game.roll(side, (draw(DIE), draw(DIE)))
        elif kind == "play":
            plays = game.legal_plays()
            game.play(side, plays[draw(st.integers(0, len(plays) - 1))])
        else:
            getattr(game, kind)(side)
