"""Each member's error rate (PR) per finished rated match or money session (table ``match_prs``, schema version 6):
written when the match's review is computed, read for ``/club stats`` and the PR leaderboard.

A member's PR over several matches is ``500 × Σ equity lost ÷ Σ counted decisions`` (the same formula as one
match's, over all his decisions), so the figures sum exactly instead of averaging averages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MatchPr:
    """One member's figures in one match: ``decisions`` counted, ``equity_lost`` (EMG, cube units), ``pr`` (None
    when too few decisions to say), ``errors``, ``blunders``, ``cube_errors``; ``level`` the engine that graded it."""

    member_id: int
    decisions: int
    equity_lost: float
    pr: float | None
    errors: int
    blunders: int
    cube_errors: int
    level: str


@dataclass(frozen=True, slots=True)
class PrTotal:
    """A member's sums in a club: ``decisions``, ``equity_lost``, ``matches`` graded; ``pr`` = 500 × lost ÷
    decisions (None without a decision)."""

    member_id: int
    decisions: int
    equity_lost: float
    matches: int

    @property
    def pr(self) -> float | None:
        """The member's error rate over every graded decision (None without one)."""
        return 500 * self.equity_lost / self.decisions if self.decisions else None


async def keep_match_prs(db, match_id: int, club_id: int, at: float, rows: Sequence[MatchPr]) -> None:
    """Store (or replace: a review computed again) the PR rows of match ``match_id`` of club ``club_id``, ended at
    ``at`` (Unix s), in one transaction."""
    async with db.transaction() as tx:
        for row in rows:
            await tx.execute(
                "INSERT INTO match_prs (match_id, member_id, club_id, decisions, equity_lost, pr, errors, blunders, "
                "cube_errors, level, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, member_id) "
                "DO UPDATE SET decisions = excluded.decisions, equity_lost = excluded.equity_lost, pr = excluded.pr, "
                "errors = excluded.errors, blunders = excluded.blunders, cube_errors = excluded.cube_errors, "
                "level = excluded.level",
                (match_id, row.member_id, club_id, row.decisions, max(0.0, row.equity_lost), row.pr, row.errors,
                 row.blunders, row.cube_errors, row.level, at),
            )  # fmt: skip


async def match_prs(db, match_id: int) -> list[MatchPr]:
    """The PR rows kept for match ``match_id`` (by member id)."""
    rows = await db._fetchall(
        "SELECT member_id, decisions, equity_lost, pr, errors, blunders, cube_errors, level FROM match_prs "
        "WHERE match_id = ? ORDER BY member_id",
        (match_id,),
    )
    return [MatchPr(*row) for row in rows]


async def pr_totals(
    db, club_id: int, *, member: int | None = None, low: float | None = None, high: float | None = None
) -> dict[int, PrTotal]:
    """Each member's PR sums in club ``club_id`` (only ``member``'s when given) over the matches that ended in
    ``low <= at < high`` (None: unbounded), by member id. A match in which he made no counted decision (a forfeit
    before his first play) is not counted."""
    sql = (
        "SELECT member_id, sum(decisions), sum(equity_lost), count(*) FROM match_prs WHERE club_id = ? "
        "AND decisions > 0"
    )
    params: list = [club_id]
    if member is not None:
        sql += " AND member_id = ?"
        params.append(member)
    if low is not None:
        sql += " AND at >= ?"
        params.append(low)
    if high is not None:
        sql += " AND at < ?"
        params.append(high)
    rows = await db._fetchall(sql + " GROUP BY member_id", params)
    return {row[0]: PrTotal(row[0], row[1], row[2], row[3]) for row in rows}
