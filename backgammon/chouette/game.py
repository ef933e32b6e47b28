"""The state of one chouette game (RULES C3–C9): seats, cubes, whose turn, open windows and offer rounds.

:class:`ChouetteGame` is plain data; :class:`~backgammon.chouette.session.ChouetteSession` changes it through its
events. It never moves checkers: the board game between Box and Captain is a :class:`backgammon.game.Game`, whose
turns and result the session is told about.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypedDict, TypeVar

from ..errors import ChouetteError
from .cubes import SIDES, ChouetteCube, Side, Transfer
from .rotation import Outcome

__all__ = ["SIDES", "ChouetteGame", "ExtraChoice", "ExtrasRound", "ExtrasStage", "OfferRound", "Side"]

_V = TypeVar("_V")


class ExtrasStage(StrEnum):
    """The ``stage`` of an extras round (003 Atlanta 5.7): the droppers offering, then the taker answering."""

    OFFERING = "offering"
    ANSWERING = "answering"


class ExtraChoice(StrEnum):
    """A dropper's choice in an extras round (``extras["offers"]``): offer the taker an extra, or none (5.7)."""

    OFFER = "offer"
    NONE = "none"


class OfferRound(TypedDict):
    """The offers made together and not yet resolved (:attr:`ChouetteGame.round`): ``by`` the side that doubled,
    ``keys`` the cubes, ``from_centre`` (every Team cube turned from the centre at once, 003 Atlanta 5.10),
    ``half_rule`` (5.10 applies), ``in_order`` (Box insists on rotation order, 5.8), ``before`` cube key → its value
    in points before the double."""

    by: Side
    keys: list[str]
    from_centre: bool
    half_rule: bool
    in_order: bool
    before: dict[str, int]


class ExtrasRound(TypedDict):
    """An open 003 Atlanta 5.7 extras round (:attr:`ChouetteGame.extras`): the lone ``taker``, the droppers'
    ``offers`` (giver → his choice, None while undecided), their ``stakes`` (giver → undoubled value in points), the
    taker's value ``before`` Box's double, the extras' cube ``keys`` and the ``stage``."""

    taker: str
    offers: dict[str, ExtraChoice | None]
    stakes: dict[str, int]
    before: int
    keys: list[str]
    stage: ExtrasStage


@dataclass
class ChouetteGame:
    """One game of a chouette session.

    Seats: ``number`` (1-based), ``order`` (at the start: Box, Captain, Team by rank, RULES C1/C8), ``box``,
    ``partner`` (RULES C7, or ``None``), ``team`` (Team members by rank: ``order[1:]`` without the Partner),
    ``initial_captain`` and ``captain`` (changes when the Captain leaves play: 000 Ch.10, 003 Atlanta 6.2–6.3);
    ``stand_in``: the Acting Captain playing the Team's checkers while the Captain is away (RULES C9), else ``None``.

    Cubes: ``cubes`` (key → :class:`~backgammon.chouette.cubes.ChouetteCube`, own cubes first in rank order, then
    extras). ``transfers``: every point moved so far (10.1 "recording points from dropped cubes as they happen").

    Turn: ``on_roll`` (``"box"`` / ``"team"`` to roll, before the dice; ``None`` before the first turn), ``doubled``
    (who doubled this turn), ``rolled`` (the board's dice of this turn are thrown: no cube action until the next
    turn, RULES D1; the board's to know, so not in :meth:`to_json` — ``club.chouette.table`` restores it). ``window``: the Team's doubling window at the Captain's turn (003 Atlanta 5.9), cube key →
    ``None`` (undecided) / ``"double"`` / ``"pass"``. ``consent``: classic partners' answers to the Captain's double
    (000 Ch.8), member → ``None`` / ``"take"`` / ``"drop"``. ``round``: the offers made together and not yet resolved
    (``by`` "box"/"team", ``keys``, ``from_centre``, ``half_rule``, ``in_order``, ``before`` = key → value in points
    before the double). ``extras``: an open 003 Atlanta 5.7 extras round (``taker``, ``offers`` giver → ``None`` /
    ``"offer"`` / ``"none"``, ``stakes`` giver → undoubled value, ``before`` = taker's value before, ``keys``,
    ``stage`` "offering"/"answering").

    Record: ``events`` (events applied since the start), ``captain_changes`` (``after_event``, ``from``, ``to``,
    ``role``, ``rule``), ``demoted`` (classic Captains who refused Box's double, 000 Ch.9/11), ``ended_by`` and
    ``outcome`` (:class:`~backgammon.chouette.rotation.Outcome`) once over, ``result`` (``winner``, ``result``) when the
    board finished it.
    """

    number: int
    order: list[str]
    box: str
    partner: str | None
    team: list[str]
    initial_captain: str
    captain: str
    cubes: dict[str, ChouetteCube]
    on_roll: Side | None = None
    doubled: list[str] = field(default_factory=list)
    window: dict[str, str | None] | None = None
    consent: dict[str, str | None] | None = None
    round: OfferRound | None = None
    extras: ExtrasRound | None = None
    transfers: list[Transfer] = field(default_factory=list)
    events: int = 0
    captain_changes: list[dict[str, Any]] = field(default_factory=list)
    demoted: list[str] = field(default_factory=list)
    ended_by: str | None = None
    outcome: Outcome | None = None
    result: dict[str, str] | None = None
    rolled: bool = False
    stand_in: str | None = None

    # -- views -------------------------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has ended (board result, or every cube dropped or settled)."""
        return self.ended_by is not None

    def live_cubes(self) -> list[ChouetteCube]:
        """Cubes still in play, in order."""
        return [slot for slot in self.cubes.values() if slot.live]

    def own_live_cubes(self) -> list[ChouetteCube]:
        """Live own cubes (not extras) — the cubes between Box and the Team (RULES C3)."""
        return [slot for slot in self.cubes.values() if slot.live and not slot.extra]

    def cubes_of(self, member: str, *, live: bool = True) -> list[ChouetteCube]:
        """The cubes whose Team side ``member`` holds (live ones only by default)."""
        return [slot for slot in self.cubes.values() if slot.team == member and (slot.live or not live)]

    def in_play(self, member: str) -> bool:
        """True while ``member`` holds the Team side of a live cube ("still in the game", 003 Atlanta 6.2)."""
        return any(slot.live and slot.team == member for slot in self.cubes.values())

    def rank(self, member: str) -> int:
        """``member``'s rank in the Team (0 = initial Captain); members outside the Team rank last."""
        return self.team.index(member) if member in self.team else len(self.team)

    # -- JSON --------------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Every field as a JSON-friendly dict."""
        return {
            "number": self.number,
            "order": list(self.order),
            "box": self.box,
            "partner": self.partner,
            "team": list(self.team),
            "initial_captain": self.initial_captain,
            "captain": self.captain,
            "cubes": [slot.to_json() for slot in self.cubes.values()],
            "on_roll": self.on_roll,
            "doubled": list(self.doubled),
            "window": copy.deepcopy(self.window),
            "consent": copy.deepcopy(self.consent),
            "round": copy.deepcopy(self.round),
            "extras": copy.deepcopy(self.extras),
            "transfers": [transfer.to_json() for transfer in self.transfers],
            "events": self.events,
            "captain_changes": copy.deepcopy(self.captain_changes),
            "demoted": list(self.demoted),
            "ended_by": self.ended_by,
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "result": copy.deepcopy(self.result),
            **({} if self.stand_in is None else {"stand_in": self.stand_in}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChouetteGame:
        """Inverse of :meth:`to_json`; raises :class:`ChouetteError` for a malformed record."""
        try:
            cubes = [ChouetteCube.from_json(item) for item in data["cubes"]]
            keys = [slot.key for slot in cubes]
            members = list(dict.fromkeys([*(slot.team for slot in cubes), *data["order"]]))
            game = cls(
                number=int(data["number"]),
                order=list(data["order"]),
                box=data["box"],
                partner=data["partner"],
                team=list(data["team"]),
                initial_captain=data["initial_captain"],
                captain=data["captain"],
                cubes={slot.key: slot for slot in cubes},
                on_roll=None if data["on_roll"] is None else Side(data["on_roll"]),
                doubled=list(data["doubled"]),
                window=_in_order(data["window"], keys),
                consent=_in_order(data["consent"], members),
                round=_round_of(data["round"], keys),
                extras=_extras_of(data["extras"], members),
                transfers=[Transfer.from_json(item) for item in data["transfers"]],
                events=int(data["events"]),
                captain_changes=copy.deepcopy(data["captain_changes"]),
                demoted=list(data["demoted"]),
                ended_by=data["ended_by"],
                outcome=None if data["outcome"] is None else Outcome.from_json(data["outcome"]),
                result=copy.deepcopy(data["result"]),
                stand_in=data.get("stand_in"),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ChouetteError(f"malformed chouette game record: {error}") from None
        return game


def _in_order(mapping: Mapping[str, _V] | None, keys: Sequence[str]) -> dict[str, _V] | None:
    """A copy of ``mapping`` with its keys in the order of ``keys`` (those not in it after, as they came). A stored
    state's mappings come back with sorted keys (canonical JSON); the game walks them in the order of the cubes and
    members, as it made them: reading them back in that order makes a reloaded game act, and write its state, exactly
    as the one that never left memory."""
    if mapping is None:
        return None
    rank = {key: index for index, key in enumerate(keys)}
    return dict(sorted(copy.deepcopy(dict(mapping)).items(), key=lambda item: rank.get(item[0], len(rank))))


def _round_of(data: dict[str, Any] | None, cubes: Sequence[str]) -> OfferRound | None:
    """The offer round of a stored game (``before`` in the order of the ``cubes``), or None."""
    if data is None:
        return None
    return OfferRound(by=Side(data["by"]), keys=list(data["keys"]), from_centre=bool(data["from_centre"]),
                      half_rule=bool(data["half_rule"]), in_order=bool(data["in_order"]),
                      before=_in_order(data["before"], cubes) or {})  # fmt: skip


def _extras_of(data: dict[str, Any] | None, members: Sequence[str]) -> ExtrasRound | None:
    """The extras round of a stored game (``offers`` and ``stakes`` in the order of the ``members``), or None."""
    if data is None:
        return None
    offers = {giver: None if choice is None else ExtraChoice(choice) for giver, choice in data["offers"].items()}
    return ExtrasRound(taker=data["taker"], offers=_in_order(offers, members) or {},
                       stakes=_in_order(data["stakes"], members) or {}, before=int(data["before"]),
                       keys=list(data["keys"]), stage=ExtrasStage(data["stage"]))  # fmt: skip
