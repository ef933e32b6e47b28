"""The extras of a chouette game (003 Atlanta 5.7, 5.7a–c; RULES C5): when Box doubles every cube from the centre and
a lone player takes, each dropper may offer him an extra, which he takes, beavers or (by the variant) drops.
:class:`ExtrasEvents` is a mixin of :class:`~backgammon.chouette.session.ChouetteSession` (it uses the session's
``rules``, ``game`` and helpers). Split out of :mod:`backgammon.chouette.doubling`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import cube as cube_rules
from ..cube import Cube
from ..errors import ChouetteError
from .cubes import BOX_SIDE, ChouetteCube, extra_key
from .events import event

if TYPE_CHECKING:
    from .game import ChouetteGame
    from .rules import ChouetteRules


class ExtrasEvents:
    """The extras events of :class:`~backgammon.chouette.session.ChouetteSession` (see the module docstring)."""

    rules: ChouetteRules
    game: ChouetteGame

    # ============================================================================ extras (003 Atlanta 5.7)
    @event
    def offer_extra(self, member: str, by: str | None = None) -> None:
        """A member who dropped Box's double offers the lone taker an extra (003 Atlanta 5.7): he will pay the taker
        the value of his undoubled cube and the taker holds his cube at double the value. Raises
        :class:`ChouetteError` unless an extras round is open and ``member`` is one of its droppers still deciding."""
        self._extra_choice(member, "offer", by)

    @event
    def no_extra(self, member: str, by: str | None = None) -> None:
        """A dropper offers no extra (003 Atlanta 5.7: "no one is required to offer"). Errors as :meth:`offer_extra`."""
        self._extra_choice(member, "none", by)

    def _extra_choice(self, member: str, choice: str, by: str | None) -> None:
        game = self._require_playing()
        self._check_actor(member, by)
        extras = game.extras
        if extras is None or extras["stage"] != "offering":
            raise ChouetteError("extras are offered when a lone player takes Box's double of every cube (5.7)")
        if extras["offers"].get(member, "x") is not None:
            raise ChouetteError(f"{member} is not a dropper deciding on an extra")
        extras["offers"][member] = choice

    def _extras_rule(self) -> str:
        rule = self.rules.extras
        if rule in ("5.7b", "5.7c") and len(self.game.order) != 3:
            return "5.7"
        return rule

    def _answer_extras(self, taker: str, decision: str, keys: list[str]) -> None:
        """The lone taker answers the extras offered him (003 Atlanta 5.7, 5.7a–c)."""
        game, rule = self.game, self._extras_rule()
        if decision == "raccoon":
            raise ChouetteError("an extra is taken, beavered or (5.7a) dropped")
        if decision == "drop" and rule == "5.7c":
            raise ChouetteError("extras in a three-handed chouette must be taken (5.7c)")
        if decision == "drop" and rule in ("5.7", "5.7b"):
            offered = [k for k in game.extras["keys"] if game.cubes[k].pending]
            if keys != offered or len(offered) != len(game.extras["keys"]):
                raise ChouetteError(
                    "under 5.7 the taker accepts every extra or changes his take to a drop (all at once)"
                )
            own = game.cubes[taker]
            cost = game.extras["before"]
            self._pay(
                taker, own.box, cost, f"{taker} changed his take to a drop rather than accept extras (5.7)", taker
            )
            own.status, own.ended, own.points = "dropped", "team_dropped", -cost
            for key in game.extras["keys"]:
                del game.cubes[key]
            game.extras = None
            return
        for key in keys:
            slot = game.cubes[key]
            if decision in ("take", "beaver"):
                if decision == "beaver":
                    cube_rules.check_beaver(slot.cube, self.rules.game)
                self._pay(
                    slot.box, taker, slot.stake, f"{slot.box} pays {taker} the undoubled value for an extra (5.7)", key
                )
            self._respond(slot, decision)

    def _open_extras(self) -> None:
        game, extras = self.game, self.game.extras
        taker = extras["taker"]
        for giver, choice in extras["offers"].items():
            if choice == "offer":
                key = extra_key(giver, taker)
                offer = Cube(value=1, offered=2, doubler=BOX_SIDE, stage="double")
                slot = ChouetteCube(key, taker, taker, giver, extras["stakes"][giver], offer, extra=True)
                game.cubes[key] = slot
                extras["keys"].append(key)
        extras["stage"] = "answering"
        if not extras["keys"]:
            game.extras = None
