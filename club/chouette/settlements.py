"""Settlements between Team members (RULES C10; 003 Atlanta 4.4), a mixin of
:class:`~club.chouette.table.ChouetteTable`: one logged kind, ``team_settle``, in four steps.

003 Atlanta 4.4: "Box may preempt a settlement between players in the Team. For example, 'A' has elected to double,
but 'B' has not. 'A' offers 'B' ½ the cube value for his interest in the game in order to double. If 'B' accepts
the offer, Box may preempt the offer, paying 'B' in order to reduce the Team."

==============  ======================================================================================================
step            meaning (logged args: ``step``, ``buyer``, ``seller``, ``points``, ``preempt``)
==============  ======================================================================================================
``offer``       the buyer ('A', a Team member with a cube in play) offers the seller ('B', a Team member with a cube
                with Box in play) ``points`` (whole points, 4.2–4.3; negative: the seller pays) for his interest
``preempt``     Box declares, while the offer stands, that he preempts it: if the seller accepts, Box pays him
``accept``      the seller accepts: the buyer pays him and takes over his cube(s) — or, preempted, Box pays him and
                his cube(s) are settled with Box (the engine's ``team_settle``)
``decline``     the seller declines, or the buyer withdraws: the offer is gone
==============  ======================================================================================================

Reading of the text (a club choice, documented here): in a game played at a distance Box cannot be asked between
the seller's acceptance and its effect, so Box preempts while the offer is open and his preemption takes effect on
the acceptance ("If 'B' accepts the offer, Box may preempt"); the seller gets the same points either way. The
points are transfers of the game, so they enter the game's row on the score sheet (RULES C11, the row sums to zero)
and from it the club's ledger (RULES A3) when the game ends. One offer at a time; an offer lives in its game only.
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import InvalidRequestError, NotNowError, NotYourTurnError
from .seats import name

STEPS = ("offer", "preempt", "accept", "decline")
"""The steps of a settlement between Team members (see the module docstring)."""


def check_points(points: Any) -> int:
    """A settlement's points: a whole number (003 Atlanta 4.2–4.3), at most 10,000 either way. Raises
    :class:`InvalidRequestError`."""
    if isinstance(points, bool) or not isinstance(points, int) or abs(points) > 10_000:
        raise InvalidRequestError(f"a settlement is a whole number of points (003 Atlanta 4.2–4.3), not {points!r}")
    return points


class SettlementActions:
    """``_team_settle`` of :class:`~club.chouette.table.ChouetteTable` and the open offer (:meth:`open_offer`)."""

    def open_offer(self) -> dict[str, Any] | None:
        """The settlement between Team members on offer in the current game (``buyer``, ``seller``, ``points``,
        ``preempt``, ``game``), else None."""
        offer = self.team_offer
        if offer is None or offer.get("game") != self.game_number or not self.board_live:
            return None
        return offer

    def _team_settle(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        step = args.get("step")
        if step not in STEPS:
            raise InvalidRequestError(f"a Team settlement step is one of {', '.join(STEPS)}, not {step!r}")
        session = self.session
        offer = self.open_offer()
        if step == "offer":
            if offer is not None:
                raise NotNowError(
                    f"An offer between Team members is open already ({offer['buyer']} to {offer['seller']}): it must "
                    "be accepted or declined first (003 Atlanta 4.4)."
                )
            if member is None:
                raise InvalidRequestError("a Team member makes the offer, not the club")
            seller, points = args.get("seller"), check_points(args.get("points"))
            if isinstance(seller, bool) or not isinstance(seller, int):
                raise InvalidRequestError(f"the seller is a member of the chouette, not {seller!r}")
            copy.deepcopy(session).team_settle(name(seller), name(member), points)  # the engine's checks, on a copy
            self.team_offer = {"game": self.game_number, "buyer": member, "seller": seller, "points": points,
                               "preempt": False}  # fmt: skip
            return {"step": step, "buyer": member, "seller": seller, "points": points, "preempt": False}
        if offer is None:
            raise NotNowError("No settlement between Team members is on offer in this game (003 Atlanta 4.4).")
        logged = {"step": step, "buyer": offer["buyer"], "seller": offer["seller"], "points": offer["points"]}
        if step == "preempt":
            if member is None or name(member) != session.box:
                raise NotYourTurnError(f"Only Box ({session.box}) may preempt a settlement in the Team (4.4).")
            if offer["preempt"]:
                raise NotNowError("Box has preempted this offer already.")
            copy.deepcopy(session).settle(name(offer["seller"]), offer["points"])  # Box may settle with him (C10)
            offer["preempt"] = True
            return {**logged, "preempt": True}
        if step == "accept":
            if member != offer["seller"]:
                raise NotYourTurnError(f"Only {offer['seller']}, to whom the offer is made, accepts it (4.4).")
            session.team_settle(
                name(offer["seller"]), name(offer["buyer"]), offer["points"], box_preempts=offer["preempt"]
            )
            self.team_offer = None
            return {**logged, "preempt": offer["preempt"]}
        if member not in (offer["seller"], offer["buyer"]):
            raise NotYourTurnError(f"Only {offer['seller']} declines this offer, or {offer['buyer']} withdraws it.")
        self.team_offer = None
        return {**logged, "preempt": offer["preempt"], "by": member}
