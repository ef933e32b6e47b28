"""Chouettes — three or more players, one Box against a Team — under both rule families (RULES C1–C11).

Pure, deterministic, no I/O, JSON-serialisable. The board game between Box and Captain is an ordinary
:class:`backgammon.game.Game`; this package keeps everything around it: seating by throws (C1), joining (C2), a cube
per Team member or one cube for the Team (C3–C5), stakes (C6), Box's Partner (C7), rotation and Acting Captains (C8),
proxies (C9), settlements (C10) and the score sheet (C11).

>>> from backgammon.chouette import ChouetteRules, ChouetteSession
>>> session = ChouetteSession(ChouetteRules.preset("chouette-atlanta"))
>>> session.seat({"Ann": 11, "Bob": 9, "Cy": 7, "Di": 4})
['Ann', 'Bob', 'Cy', 'Di']
>>> _ = session.start_game()
>>> session.turn("team")
>>> session.team_double("Bob")
{'Bob': 2}
>>> session.no_double("Cy"); session.no_double("Di")
>>> session.box_answer("take")
>>> session.turn("box")
>>> session.game_over("team", "gammon")
{'Ann': -6, 'Bob': 4, 'Cy': 1, 'Di': 1}
>>> session.next_order()
['Bob', 'Cy', 'Di', 'Ann']

Modules: ``rules`` (:class:`ChouetteRules` and presets), ``seating`` (C1–C2 throws), ``cubes`` (the per-member cube
records and transfers), ``game`` (one game's state), ``rotation`` (C8), ``sheet`` (C7 split, C11), ``session`` (the
event API, :class:`ChouetteSession`: seating and membership, the cube events, settlements, JSON and replay)
and ``events`` (the event decorator, :class:`Awaiting`).
"""

from .cubes import BOX_SIDE, TEAM_SIDE, ChouetteCube, Transfer
from .game import ChouetteGame
from .rotation import Outcome, atlanta_next_order, classic_next_order, loser_marks, next_order, relinquish_box
from .rules import CHOUETTE_PRESETS, ChouetteRules
from .seating import apply_throws, throw_value
from .session import DECISIONS, EVENTS, Awaiting, ChouetteSession
from .sheet import ScoreSheet, SheetRow, split_box_partner

__all__ = [
    "BOX_SIDE",
    "CHOUETTE_PRESETS",
    "DECISIONS",
    "EVENTS",
    "TEAM_SIDE",
    "Awaiting",
    "ChouetteCube",
    "ChouetteGame",
    "ChouetteRules",
    "ChouetteSession",
    "Outcome",
    "ScoreSheet",
    "SheetRow",
    "Transfer",
    "apply_throws",
    "atlanta_next_order",
    "classic_next_order",
    "loser_marks",
    "next_order",
    "relinquish_box",
    "split_box_partner",
    "throw_value",
]
