"""Seating by throws (RULES C1) and the order of members joining together (RULES C2).

A ranking is a list of groups, best first; a group of two or more members is a tie still to be thrown off. Seating
starts from one group holding every member (nobody has thrown yet); each round of throws splits the groups that
threw, highest throw first, and "only those tying throw again for their position" (000 Ch.3, 001 Ch.3): members
already ranked keep their places. The ranking is resolved when every group is a single member.

A throw is one die (1–6, 000 Ch.2 "each member shall throw a die") or two dice whose total counts, doubles not
counting extra (2–12, 003 Atlanta 1.3 and 6.4); give it as the number, or the dice as a pair ``[d1, d2]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ChouetteError


def throw_value(member: str, throw: Any, dice: int) -> int:
    """The value of ``member``'s throw with ``dice`` dice (1 or 2): an int in range, or a pair of dice 1–6 (summed).

    Raises :class:`ChouetteError` for anything else (RULES C1: 1–6 with one die, 2–12 with two).
    """
    if isinstance(throw, (list, tuple)):
        if len(throw) != dice or any(not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6 for d in throw):
            raise ChouetteError(f"{member}'s throw {throw!r}: expected {dice} die/dice of 1–6 (RULES C1)")
        return sum(throw)
    low, high = dice, 6 * dice
    if not isinstance(throw, int) or isinstance(throw, bool) or not low <= throw <= high:
        raise ChouetteError(
            f"{member}'s throw {throw!r}: with {dice} {'die' if dice == 1 else 'dice'} a throw is {low}–{high} (RULES C1)"
        )
    return throw


def tied_groups(ranking: Sequence[Sequence[str]]) -> list[list[str]]:
    """The groups still to throw (two or more members), best first."""
    return [list(group) for group in ranking if len(group) > 1]


def is_resolved(ranking: Sequence[Sequence[str]]) -> bool:
    """True when every member has a place of his own."""
    return all(len(group) == 1 for group in ranking)


def resolved_order(ranking: Sequence[Sequence[str]]) -> list[str]:
    """The members in rank order; raises :class:`ChouetteError` while ties remain (RULES C1)."""
    if not is_resolved(ranking):
        waiting = "; ".join(", ".join(group) for group in tied_groups(ranking))
        raise ChouetteError(f"the order is not settled: these members must throw again: {waiting} (RULES C1)")
    return [group[0] for group in ranking]


def apply_throws(ranking: Sequence[Sequence[str]], throws: Mapping[str, Any], dice: int) -> list[list[str]]:
    """The ranking after the members in ``throws`` (member → throw) have thrown (RULES C1: 000 Ch.2–3, 001 Ch.1–3).

    ``throws`` must hold exactly the members of one or more tied groups, each group complete ("only those tying throw
    again", and all of them). Each group that threw is replaced by its members grouped by throw, highest first; other
    groups keep their places. Raises :class:`ChouetteError` for a member not waiting to throw, a tied group thrown in
    part, or a bad throw (:func:`throw_value`). Returns a new ranking; the input is not changed.
    """
    if not isinstance(throws, Mapping) or not throws:
        raise ChouetteError("throws are given as {member: throw} for the members who throw now (RULES C1)")
    waiting = {member for group in tied_groups(ranking) for member in group}
    strangers = [member for member in throws if member not in waiting]
    if strangers:
        expected = "; ".join(", ".join(group) for group in tied_groups(ranking)) or "nobody"
        raise ChouetteError(
            f"{', '.join(map(str, strangers))} may not throw now: only tied members throw again (000 Ch.3); "
            f"waiting to throw: {expected}"
        )
    values = {member: throw_value(member, throw, dice) for member, throw in throws.items()}
    result: list[list[str]] = []
    for group in ranking:
        thrown = [member for member in group if member in values]
        if not thrown:
            result.append(list(group))
            continue
        if len(thrown) != len(group):
            missing = [member for member in group if member not in values]
            raise ChouetteError(
                f"{', '.join(group)} are tied: all of them throw again together; missing {', '.join(missing)} (000 Ch.3)"
            )
        for value in sorted({values[member] for member in group}, reverse=True):
            result.append([member for member in group if values[member] == value])
    return result
