"""Leaderboards (RULES A3): who is up (``money``), who is strongest (``matches``), who wins the chouettes
(``chouette``).

- ``money``: the ledger of the period — money at the stakes, then points (every kind of game and the corrections);
  when no stake was set anywhere in the period it ranks by points.
- ``matches``: the FIBS ratings (all time: a rating is the sum of a member's whole match history), with wins,
  losses and experience.
- ``chouette``: chouette points in the period, then money.
- ``pr``: the engine's error rate (500 × equity lost ÷ counted decisions, over every graded decision of
  the member's finished rated matches and money sessions in the period; lower is better), with the number of
  decisions and matches behind it. Practice games against the engine never count, nor matches without a decision
  of his; a member with fewer decisions than the review gives a PR for is named under the board, not ranked.

Equal values share a rank ("1, 2, 2, 4").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .ledger import Ledger
from .periods import Period, Source
from .ratings import Rating


class Board(StrEnum):
    """The kinds of leaderboard (see the module docstring)."""

    MONEY = "money"
    MATCHES = "matches"
    CHOUETTE = "chouette"
    PR = "pr"


LEADERBOARDS = tuple(Board)
"""The kinds of leaderboard."""


class Figure(StrEnum):
    """How a leaderboard's column is written: a ``rate`` with two decimals (a rating, a PR), a ``balance`` with its
    sign (money, points), or a plain ``count``."""

    RATE = "rate"
    BALANCE = "balance"
    COUNT = "count"


_FIGURES = {"rating": Figure.RATE, "PR": Figure.RATE, "money": Figure.BALANCE, "points": Figure.BALANCE}


def figure(heading: str) -> Figure:
    """How the column ``heading`` of a leaderboard is written (:class:`Figure`)."""
    return _FIGURES.get(heading, Figure.COUNT)


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One member on a leaderboard: ``rank`` (1 = best; ties share it) and ``values`` under the board's
    ``headings`` (the first one ranks)."""

    rank: int
    member: int
    name: str
    values: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A leaderboard of ``kind`` over ``period``: ``headings`` of the ``values`` of each row, best first; ``notes``
    say who is left out and why (one line each)."""

    kind: Board
    period: Period
    title: str
    headings: tuple[str, ...]
    rows: tuple[LeaderRow, ...]
    notes: tuple[str, ...] = ()


def _ranked(items: Sequence[tuple[int, str, tuple]], key: Callable[[tuple], Any]) -> tuple[LeaderRow, ...]:
    """Rows sorted by ``key(values)`` (higher first), name breaking ties in order but not in rank."""
    ordered = sorted(items, key=lambda item: (key(item[2]), item[1].casefold(), item[0]), reverse=False)
    rows: list[LeaderRow] = []
    for index, (member, name, values) in enumerate(ordered):
        rank = rows[-1].rank if rows and key(values) == key(rows[-1].values) else index + 1
        rows.append(LeaderRow(rank, member, name, values))
    return tuple(rows)


def money_board(ledger: Ledger) -> Leaderboard:
    """The ``money`` leaderboard of a ledger's period (by money, then points; by points alone without stakes)."""
    items = [(line.member, line.name, (line.money, line.total_points, line.games)) for line in ledger.lines]
    if ledger.has_money:
        rows = _ranked(items, lambda values: (-values[0], -values[1]))
        headings: tuple[str, ...] = ("money", "points", "games")
    else:
        by_points = [(member, name, (values[1], values[2])) for member, name, values in items]
        rows = _ranked(by_points, lambda values: (-values[0],))
        headings = ("points", "games")
    return Leaderboard(Board.MONEY, ledger.period, f"Who is up — {ledger.period.label}", headings, rows)


def chouette_board(ledger: Ledger) -> Leaderboard:
    """The ``chouette`` leaderboard: chouette points, then money, over a ledger of chouette entries."""
    items = [
        (line.member, line.name, (line.points.get(Source.CHOUETTE, 0), line.money, line.games))
        for line in ledger.lines
        if line.games
    ]
    rows = _ranked(items, lambda values: (-values[0], -values[1]))
    return Leaderboard(
        Board.CHOUETTE, ledger.period, f"Chouettes — {ledger.period.label}", ("points", "money", "games"), rows
    )


def match_board(ratings: Iterable[Rating], names: Mapping[int, str], period: Period) -> Leaderboard:
    """The ``matches`` leaderboard: FIBS rating (two decimals), then experience."""
    items = [
        (r.member, names.get(r.member, str(r.member)), (round(r.rating, 2), r.wins, r.losses, r.experience))
        for r in ratings
    ]
    rows = _ranked(items, lambda values: (-values[0],))
    return Leaderboard(
        Board.MATCHES, period, "Match ratings (FIBS formula)", ("rating", "won", "lost", "experience"), rows
    )


def pr_board(totals: Iterable, names: Mapping[int, str], period: Period) -> Leaderboard:
    """The ``pr`` leaderboard: ``totals`` (:class:`storage.prs.PrTotal`) of the members with at least the review's
    :data:`~club.analysis.grade.MIN_DECISIONS` graded decisions, by PR (lowest first, two decimals), then more
    decisions first; those with fewer are named in a note, not ranked (a PR over so few says nothing)."""
    from club.analysis.grade import MIN_DECISIONS

    totals = [t for t in totals if t.decisions]
    items = [
        (t.member_id, names.get(t.member_id, str(t.member_id)), (round(t.pr, 2), t.decisions, t.matches))
        for t in totals
        if t.decisions >= MIN_DECISIONS
    ]
    few = sorted((names.get(t.member_id, str(t.member_id)), t.decisions) for t in totals if t.decisions < MIN_DECISIONS)
    notes = (
        (f"Not ranked (fewer than {MIN_DECISIONS} decisions): " + ", ".join(f"{n} ({d})" for n, d in few),)
        if few
        else ()
    )
    rows = _ranked(items, lambda values: (values[0], -values[1]))
    return Leaderboard(
        Board.PR, period, f"Error rate (PR, Open Sage) — {period.label}", ("PR", "decisions", "matches"), rows, notes
    )
