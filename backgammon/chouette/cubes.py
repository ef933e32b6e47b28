"""The cubes of a chouette game and the points they move (RULES C3–C6, D2–D4, D6).

Box scores separately against each Team member (RULES C3), so every Team member's stake is a :class:`ChouetteCube`:
a :class:`~backgammon.cube.Cube` (value in units of the member's stake, owner, pending offer, beaver/raccoon stage)
between a **Box side** holder and a **Team side** holder. Cube sides: :data:`BOX_SIDE` = 0, :data:`TEAM_SIDE` = 1.

- An own cube (key = the member's name) is between the Box and the member (003 Atlanta 1.4). In the classic family
  all own cubes move together: one cube for the Team (RULES C4).
- Under 001 Ch.9 the Captain takes over a refusing partner's position: the cube keeps its key (the refuser's name)
  and its ``team`` holder becomes the Captain.
- An extra (003 Atlanta 5.7) is a cube between its giver (Box side) and the lone taker (Team side), keyed
  ``"giver>taker"``; its stake is the giver's cube value before Box's double.

Every point moved is a :class:`Transfer` from one person to another, so a game's points always sum to zero
(RULES C11).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..cube import Cube
from ..errors import ChouetteError

BOX_SIDE, TEAM_SIDE = 0, 1


class Side(StrEnum):
    """The two sides of a chouette game, as logged and stored: Box (cube and board side 0) and the Team (1)."""

    BOX = "box"
    TEAM = "team"


SIDES = tuple(Side)
"""Indexed by cube or board side: ``SIDES[BOX_SIDE]`` is Box."""


class CubeStatus(StrEnum):
    """A cube's ``status``: in play, dropped, settled (RULES C10) or scored at the end of the game."""

    LIVE = "live"
    DROPPED = "dropped"
    SETTLED = "settled"
    SCORED = "scored"


class Ending(StrEnum):
    """How a cube left play (its ``ended``): which side dropped, settled, or scored at the end of the game."""

    TEAM_DROPPED = "team_dropped"
    BOX_DROPPED = "box_dropped"
    SETTLED = "settled"
    SCORED = "scored"


STATUSES = tuple(CubeStatus)
ENDINGS = (None, *Ending)
LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}


def extra_key(giver: str, taker: str) -> str:
    """The key of the extra ``giver`` offered ``taker`` (003 Atlanta 5.7)."""
    return f"{giver}>{taker}"


@dataclass
class ChouetteCube:
    """One stake in play between a Box-side and a Team-side holder (RULES C3, C5, C6).

    ``key``: the member's name for an own cube, ``"giver>taker"`` for an extra. ``member``: the Team member the cube
    started with. ``team`` / ``box``: who holds each side now — answers offers made to that side, doubles for it and
    wins or pays its points. ``stake``: points per unit of ``cube.value`` (003 Atlanta 2.2; an extra: the giver's value
    before the double). ``cube``: value, owner (0 Box side, 1 Team side, ``None`` centred), pending offer and stage.
    ``status``: ``"live"`` (in play, maybe with an offer pending), ``"dropped"``, ``"settled"`` (RULES C10) or
    ``"scored"`` (at the end of the game). ``ended``: how it left play — ``"team_dropped"`` / ``"box_dropped"`` (which
    side dropped), ``"settled"``, ``"scored"``. ``points``: what the Team side won from it (negative: lost), once
    ended. ``extra``: True for an extra (5.7).
    """

    key: str
    member: str
    team: str
    box: str
    stake: int
    cube: Cube
    status: CubeStatus = CubeStatus.LIVE
    ended: Ending | None = None
    points: int = 0
    extra: bool = False

    # -- views -------------------------------------------------------------------------------------------------
    @property
    def value(self) -> int:
        """The cube's value in points: stake × count (the face times the automatic-double factor; what a drop now
        costs; RULES D2, D6)."""
        return self.stake * self.cube.count

    @property
    def offered_value(self) -> int | None:
        """The value proposed by a pending double/beaver/raccoon, in points, else ``None``."""
        count = self.cube.offered_count
        return None if count is None else self.stake * count

    @property
    def live(self) -> bool:
        """True while the cube is in play (RULES C5: 003 Atlanta 1.5 "in the game" also needs turned and accepted)."""
        return self.status == CubeStatus.LIVE

    @property
    def in_the_game(self) -> bool:
        """003 Atlanta 1.5: turned and accepted, "regardless of the value of the centered cube" (RULES D4)."""
        return self.live and self.cube.turned

    @property
    def pending(self) -> bool:
        """True while an offer on this cube awaits an answer."""
        return self.live and self.cube.stage is not None

    @property
    def responder(self) -> str | None:
        """The person who must answer the pending offer (Box-side or Team-side holder), else ``None``."""
        side = self.cube.responder
        if side is None or not self.live:
            return None
        return self.box if side == BOX_SIDE else self.team

    def holder(self, side: int) -> str:
        """The person holding ``side`` (0 Box side, 1 Team side)."""
        return self.box if side == BOX_SIDE else self.team

    @property
    def state(self) -> str:
        """One word for displays: ``centred``, ``offered``, ``beavered``, ``raccooned``, ``owned by box side`` / ``owned by team side`` (taken), or the status
        once out of play."""
        if not self.live:
            return self.status
        stage = self.cube.stage
        if stage is not None:
            return {"double": "offered", "beaver": "beavered", "raccoon": "raccooned"}[stage]
        if self.cube.owner is None:
            return "centred"
        return "owned by " + ("team side" if self.cube.owner == TEAM_SIDE else "box side")

    # -- JSON --------------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """All fields as a JSON-friendly dict (the cube as :meth:`Cube.to_json`)."""
        return {
            "key": self.key,
            "member": self.member,
            "team": self.team,
            "box": self.box,
            "stake": self.stake,
            "cube": self.cube.to_json(),
            "status": self.status,
            "ended": self.ended,
            "points": self.points,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChouetteCube:
        """Inverse of :meth:`to_json`; raises :class:`ChouetteError` for a malformed record."""
        try:
            slot = cls(
                key=str(data["key"]),
                member=str(data["member"]),
                team=str(data["team"]),
                box=str(data["box"]),
                stake=int(data["stake"]),
                cube=Cube.from_json(data["cube"]),
                status=CubeStatus(data["status"]),
                ended=None if data["ended"] is None else Ending(data["ended"]),
                points=int(data["points"]),
                extra=bool(data["extra"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ChouetteError(f"malformed chouette cube record {data!r}: {error}") from None
        if slot.stake < 1:
            raise ChouetteError(f"impossible chouette cube record {data!r}")
        return slot


@dataclass(frozen=True)
class Transfer:
    """``points`` (> 0) paid by ``payer`` to ``payee``, recorded as it happens (003 Atlanta 10.1); ``why`` says which
    rule moved them and ``cube`` names the cube (or ``None``, e.g. for the Partner's share, RULES C7)."""

    payer: str
    payee: str
    points: int
    why: str
    cube: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The fields as a JSON-friendly dict."""
        return {"payer": self.payer, "payee": self.payee, "points": self.points, "why": self.why, "cube": self.cube}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Transfer:
        """Inverse of :meth:`to_json`; raises :class:`ChouetteError` for a malformed record."""
        try:
            return cls(str(data["payer"]), str(data["payee"]), int(data["points"]), str(data["why"]), data["cube"])
        except (KeyError, TypeError, ValueError) as error:
            raise ChouetteError(f"malformed transfer record {data!r}: {error}") from None


def net_points(transfers: list[Transfer], members: list[str]) -> dict[str, int]:
    """Each member's net points from ``transfers`` (0 for members with none); the values sum to zero (RULES C11)."""
    totals = dict.fromkeys(members, 0)
    for transfer in transfers:
        totals[transfer.payer] = totals.get(transfer.payer, 0) - transfer.points
        totals[transfer.payee] = totals.get(transfer.payee, 0) + transfer.points
    return totals
