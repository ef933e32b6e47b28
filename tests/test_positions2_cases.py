"""positions-2.json cases decided by the game engine and the Match ID reader: BG24 the dead cube as gnubg
and the USBGF ruling guide 4.4.9 read it, checked through the Match IDs gnubg 1.07.001 was given (RULES M3, M4).

BG25/BG27 (Match ID and Position ID validation) are in test_ids.py; BG29/BG35 (plays and notation) in test_moves.py
and test_notation.py; BG28/BG29's files in test_matfile.py.
"""

from __future__ import annotations

import re

import pytest

from backgammon.game import Game
from backgammon.ids import decode_match_id
from backgammon.position import Position
from backgammon.rules import RuleSet
from tests.casekit import load_cases

BG24 = next(case for case in load_cases("positions-2.json") if case["id"] == "BG24")
CHECKED = BG24["expected"]["gnubg_1.07.001_checked"]


def game_from_match_id(match_id: str) -> tuple[Game, int]:
    """A game at the opening position in the state a Match ID gives (score, cube, Crawford flag as gnubg reads it),
    with the side on roll to roll: (game, side on roll)."""
    state = decode_match_id(match_id)
    rules = RuleSet.preset("tournament")
    game = Game.from_position(
        rules,
        Position.initial(),
        on_roll=state.on_roll,
        cube_value=state.cube,
        cube_owner=state.cube_owner,
        match_length=state.match_length,
        score=state.score,
        crawford_game=state.crawford,
    )
    return game, state.on_roll


@pytest.mark.parametrize("variant", list(CHECKED))
def test_bg24_the_dead_cube_as_gnubg_refuses_it(variant):
    """BG24: in ``tournament`` (default dead_cube_rule 'doubler_already_wins', USBGF 4.4.9, gnubg play.c
    CommandDouble) the double is refused exactly where gnubg says 'The cube is dead'; 'root doubles.' is allowed."""
    match_id = re.search(r"\b[A-Za-z0-9+/]{12}\b", variant).group(0)
    game, side = game_from_match_id(match_id)
    allowed = "double" in game.legal_actions(side)
    assert allowed == (CHECKED[variant] == "root doubles."), variant
