"""The club ledger: every member's points and money over a period (RULES A3).

Built from :func:`storage.books.ledger_totals` (the finished games of money sessions, matches and chouettes, plus
the admins' corrections). Points are the game points won minus lost (a match game's points as its ``Wins N`` line
says); money is points × the stake per point the game was played for (a match has a stake only if one was set). Each
source is zero-sum game by game, so every column of a ledger sums to zero (:meth:`Ledger.is_zero_sum`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from storage.books import KINDS, LedgerTotal

from .periods import Period


class Unit(StrEnum):
    """What a balance or a total is counted in: money at the stakes, or points."""

    MONEY = "money"
    POINTS = "points"


KIND_WORDS = {"money": "money games", "match": "match games", "chouette": "chouettes", "correction": "corrections"}
"""Column headings of the kinds of entry."""


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One member's line: ``points`` per kind of entry (``money``, ``match``, ``chouette``, ``correction``),
    ``money`` in all, ``games`` played (all kinds but corrections) and ``corrections`` that touched him."""

    member: int
    name: str
    points: Mapping[str, int]
    money: int
    games: int
    corrections: int

    @property
    def total_points(self) -> int:
        """Points of every kind together."""
        return sum(self.points.values())


@dataclass(frozen=True, slots=True)
class Ledger:
    """The ledger of one :class:`~club.records.periods.Period`: ``lines`` sorted by money, then points (most
    first), then name; ``kinds`` the kinds of entry it covers."""

    period: Period
    lines: tuple[LedgerLine, ...]
    kinds: tuple[str, ...] = KINDS

    def balances(self, by: Unit = Unit.MONEY) -> dict[int, int]:
        """Member → balance in money or in (total) points. Raises ``ValueError`` for another unit."""
        if Unit(by) is Unit.MONEY:
            return {line.member: line.money for line in self.lines}
        return {line.member: line.total_points for line in self.lines}

    def column_totals(self) -> dict[str, int]:
        """The sum of every column (each kind's points, ``points`` and ``money``): all zero for a sound ledger."""
        totals = {kind: sum(line.points.get(kind, 0) for line in self.lines) for kind in self.kinds}
        totals["points"] = sum(line.total_points for line in self.lines)
        totals["money"] = sum(line.money for line in self.lines)
        return totals

    def is_zero_sum(self) -> bool:
        """Whether every column sums to zero (each game and correction is zero-sum, so this always holds)."""
        return not any(self.column_totals().values())

    @property
    def has_money(self) -> bool:
        """Whether any money changed hands (a stake was set somewhere)."""
        return any(line.money for line in self.lines)

    def line_of(self, member: int) -> LedgerLine | None:
        """The line of ``member``, or None if he has no entry in the period."""
        return next((line for line in self.lines if line.member == member), None)


def build_ledger(
    period: Period, totals: Iterable[LedgerTotal], names: Mapping[int, str], kinds: Iterable[str] = KINDS
) -> Ledger:
    """The :class:`Ledger` of ``period`` from the per-member, per-kind ``totals``; ``names`` by member id (a
    missing name shows the id)."""
    kinds = tuple(kinds)
    by_member: dict[int, dict[str, LedgerTotal]] = {}
    for total in totals:
        by_member.setdefault(total.member, {})[total.kind] = total
    lines = []
    for member, parts in by_member.items():
        lines.append(
            LedgerLine(
                member=member,
                name=names.get(member, str(member)),
                points={kind: parts[kind].points if kind in parts else 0 for kind in kinds},
                money=sum(part.money for part in parts.values()),
                games=sum(part.entries for kind, part in parts.items() if kind != "correction"),
                corrections=parts["correction"].entries if "correction" in parts else 0,
            )
        )
    lines.sort(key=lambda line: (-line.money, -line.total_points, line.name.casefold(), line.member))
    return Ledger(period, tuple(lines), kinds)
