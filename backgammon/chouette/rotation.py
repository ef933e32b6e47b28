"""Rotation: the order of the next game from the order of this one and how it went (RULES C8).

An order is a list of member names: Box first, then the Captain, then the rest of the Team by rank (the Partner, if
any, keeps his place in it: 003 Atlanta 6.3). Members who joined during the game are added at the end afterwards
(RULES C2: 000 Ch.4 "unless there be an added member", 003 6.4). Every function here returns a permutation of its
input order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..errors import ChouetteError
from .rules import ActingCaptainReading, Family, LastRankOrder


class OutcomeResult(StrEnum):
    """Who won Box vs the Captain (:attr:`Outcome.result`): Box, the Team, even (classic) or zero (Atlanta)."""

    BOX = "box"
    TEAM = "team"
    EVEN = "even"
    ZERO = "zero"


_ACTING_TAKES_BOX = ActingCaptainReading.ACTING_CAPTAIN_TAKES_BOX
CLASSIC_RESULTS = (OutcomeResult.BOX, OutcomeResult.TEAM, OutcomeResult.EVEN)
ATLANTA_RESULTS = (OutcomeResult.BOX, OutcomeResult.TEAM, OutcomeResult.ZERO)


@dataclass(frozen=True)
class Outcome:
    """What rotation needs to know about a finished game.

    ``family``: ``"classic"`` or ``"atlanta"``. ``box``: the Box. ``captain``: the initial Captain. ``final_captain``:
    the Captain at the end (classic: the highest-ranking acceptor after a Captain refused, 000 Ch.10; ``None`` when
    nobody accepted). ``demoted``: classic Captains who lost their seat by refusing Box's double, in order (000 Ch.9,
    Ch.11). ``result``: classic — who won Box vs the final Captain (``"box"``, ``"team"``, ``"even"`` for a settlement
    at zero or no Captain left); Atlanta — who won Box vs the initial Captain's cube (``"box"``, ``"team"``, or
    ``"zero"`` for a settlement at zero, 6.1). ``box_net``: the Box side's points for the game (before the Partner's
    split; same sign as Box's own, RULES C7). ``acting_won`` (Atlanta): the Captain at the end was an Acting Captain
    and his own cube beat Box (the open point ``acting_captain_beats_box``).
    """

    family: Family
    box: str
    captain: str
    final_captain: str | None
    demoted: tuple[str, ...]
    result: OutcomeResult
    box_net: int
    acting_won: bool = False

    def to_json(self) -> dict[str, Any]:
        """The fields as a JSON-friendly dict."""
        return {
            "family": self.family,
            "box": self.box,
            "captain": self.captain,
            "final_captain": self.final_captain,
            "demoted": list(self.demoted),
            "result": self.result,
            "box_net": self.box_net,
            **({"acting_won": True} if self.acting_won else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """Inverse of :meth:`to_json`; raises :class:`ChouetteError` for a malformed record."""
        try:
            return cls(
                Family(data["family"]),
                data["box"],
                data["captain"],
                data["final_captain"],
                tuple(data["demoted"]),
                OutcomeResult(data["result"]),
                int(data["box_net"]),
                bool(data.get("acting_won", False)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ChouetteError(f"malformed rotation outcome {data!r}: {error}") from None


def classic_next_order(
    order: Sequence[str], outcome: Outcome, *, last_rank_order: LastRankOrder = LastRankOrder.ORDER_OF_DEFEAT
) -> list[str]:
    """The next order under the classic rotation (000 Chouette 6–7, 9–11; 001 Chouette 5–7, 10).

    - Box "retains his position until defeated"; defeated, he "takes his place as last ranking member" and the
      Captain who defeated him becomes Box (000 Ch.6; 001 Ch.5 "resigns his position to the Active Player who
      defeats him").
    - A defeated Captain "takes his place as last ranking member" and the highest-ranking partner becomes Captain
      (000 Ch.7; 001 Ch.7 "the Active Player changing after every defeat at the hands of the Box").
    - A Captain who refused Box's double lost his position during the game (000 Ch.9, Ch.11 "even though the game be
      eventually won by the accepting members"): he went to the end then, ahead of anyone beaten later.
    - A partner's refusal does not change his rank (000 Ch.11). A draw (``"even"``) moves nobody but the demoted.
    - Two going to last rank in one game (open point, ``last_rank_order``): ``"order_of_defeat"`` — the one defeated
      later is behind; ``"refusers_last"`` — who refused goes behind one beaten in play.
    """
    box, team = order[0], list(order[1:])
    demoted = list(outcome.demoted)
    final = outcome.final_captain
    refusers_last = last_rank_order == LastRankOrder.REFUSERS_LAST
    if outcome.result == OutcomeResult.TEAM:
        if final is None:
            raise ChouetteError("a Team win needs the Captain who won it")
        rest = [m for m in team if m not in demoted and m != final]
        return [final, *rest, box, *demoted] if refusers_last else [final, *rest, *demoted, box]
    if outcome.result == OutcomeResult.BOX and final is not None:
        rest = [m for m in team if m not in demoted and m != final]
        return [box, *rest, final, *demoted] if refusers_last else [box, *rest, *demoted, final]
    rest = [m for m in team if m not in demoted]
    return [box, *rest, *demoted]


def atlanta_next_order(
    order: Sequence[str],
    outcome: Outcome,
    *,
    break_even_rule: bool = True,
    acting_captain_beats_box: ActingCaptainReading = ActingCaptainReading.INITIAL_CAPTAIN_DECIDES,
) -> list[str]:
    """The next order under 003 Atlanta 6.1–6.3.

    - The initial Captain beat Box (his cube won, or Box dropped it: 6.3 "he sits out, but will be Box"): he is Box;
      the losing Box goes to the end of the Team (he "becomes Partner", whose first choice is the last, 6.3, 6.4).
    - Box beat the initial Captain and at least broke even over the game: Box stays; the Captain goes to the end
      (6.2 "The losing Captain goes to the end of the current Team"); Acting Captains keep their places (6.2).
    - Box beat the Captain but lost points, or they settled for zero (6.1, with ``break_even_rule``): "Captain goes to
      the end of the Team behind Box, and the player behind the original Captain becomes Box, and the next player
      becomes Captain". (6.2's "first Acting Captain is also scheduled to be Captain" gives way to this.)
    - Box beat the Captain and an Acting Captain then beat Box (open point): by default as above (6.1 as written);
      with ``acting_captain_beats_box="acting_captain_takes_box"`` that Acting Captain is Box, then the rest, the
      initial Captain (6.2) and the losing Box (6.3) at the end.
    """
    box, captain = order[0], outcome.captain
    rest = [m for m in order[1:] if m != captain]
    if outcome.result == OutcomeResult.TEAM:
        return [captain, *rest, box]
    acting = outcome.final_captain
    if outcome.acting_won and acting is not None and acting_captain_beats_box == _ACTING_TAKES_BOX:
        return [acting, *[m for m in rest if m != acting], captain, box]
    if outcome.result == OutcomeResult.BOX and (outcome.box_net >= 0 or not break_even_rule):
        return [box, *rest, captain]
    if not rest:
        raise ChouetteError("6.1 needs a player behind the Captain to become Box")
    return [*rest, box, captain]


def next_order(
    order: Sequence[str],
    outcome: Outcome,
    *,
    break_even_rule: bool = True,
    acting_captain_beats_box: ActingCaptainReading = ActingCaptainReading.INITIAL_CAPTAIN_DECIDES,
    last_rank_order: LastRankOrder = LastRankOrder.ORDER_OF_DEFEAT,
) -> list[str]:
    """The next order for ``outcome.family`` (:func:`classic_next_order` or :func:`atlanta_next_order`, with the
    rule set's readings of the open points)."""
    if outcome.family == Family.CLASSIC:
        if outcome.result not in CLASSIC_RESULTS:
            raise ChouetteError(f"classic result is one of {CLASSIC_RESULTS}, not {outcome.result!r}")
        return classic_next_order(order, outcome, last_rank_order=last_rank_order)
    if outcome.result not in ATLANTA_RESULTS:
        raise ChouetteError(f"Atlanta result is one of {ATLANTA_RESULTS}, not {outcome.result!r}")
    return atlanta_next_order(
        order, outcome, break_even_rule=break_even_rule, acting_captain_beats_box=acting_captain_beats_box
    )


def relinquish_box(order: Sequence[str]) -> list[str]:
    """003 Atlanta 6.1: "A person scheduled to be Box has the option to relinquish that role and go to the bottom of
    the rotation": everyone moves up one place."""
    if len(order) < 2:
        raise ChouetteError("nobody to take the box")
    return [*order[1:], order[0]]


def loser_marks(
    outcome: Outcome,
    *,
    break_even_rule: bool = True,
    acting_captain_beats_box: ActingCaptainReading = ActingCaptainReading.INITIAL_CAPTAIN_DECIDES,
) -> dict[str, Any]:
    """The 003 Atlanta 10.1 marks for a finished game: ``{"circled": [...]}`` plus ``"b": captain`` when both Box and
    Captain lose ("a 'b' by Captain's circle to indicate that Captain will follow Box in the rotation").

    The losers circled are those of Box vs the (initial, Atlanta; final, classic) Captain; when Box beats the Captain
    but loses points (6.1), both lose.
    """
    if outcome.family == Family.CLASSIC:
        if outcome.result == OutcomeResult.TEAM:
            return {"circled": [outcome.box]}
        losers = list(outcome.demoted)
        if outcome.result == OutcomeResult.BOX and outcome.final_captain is not None:
            losers.append(outcome.final_captain)
        return {"circled": losers}
    if outcome.result == OutcomeResult.TEAM:
        return {"circled": [outcome.box]}
    if outcome.acting_won and acting_captain_beats_box == _ACTING_TAKES_BOX:
        return {"circled": [outcome.box, outcome.captain]}  # both lose their places; no "b": Box does not follow
    if outcome.result == OutcomeResult.BOX and (outcome.box_net >= 0 or not break_even_rule):
        return {"circled": [outcome.captain]}
    return {"circled": [outcome.box, outcome.captain], "b": outcome.captain}
