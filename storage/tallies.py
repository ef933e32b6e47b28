"""The running totals of the club's books (schema version 4), kept in the transaction that ends a game.

Every finished game adds one ``tallies`` row per member who played it — a two-player game's winner ``+points``, the
loser ``−points`` (``games.result``); a chouette game's members their ``chouette_results.points`` — with money =
points × the stake, at the time the game ended. Each row also carries the member's running sums of that kind in that
club (``points_run``, ``money_run``, ``entries_run``) over every row up to it in ``(at, id)`` order, and
``tally_totals`` the all-time sums. So the totals of a period ``[start, end)`` are, per member and kind, the running
sums of his last row before ``end`` minus those of his last row before ``start``: two index seeks per member and kind,
whatever the number of games (``bench/records.py``). A game that ends with a time earlier than rows already written
(a clock set back) raises the running sums of the later rows too, so the sums stay exact.

The tallies are derived data: :func:`rebuild` (and the version 4 migration) recompute them from the games and chouette
results, which remain the record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from . import replies
from .migrations import TALLIES_BACKFILL

_LAST_BEFORE = (
    "SELECT id FROM tallies t WHERE t.club_id = k.club_id AND t.member_id = k.member_id AND t.kind = k.kind "
    "AND t.at < ? ORDER BY t.at DESC, t.id DESC LIMIT 1"
)


async def _add(tx, club_id: int, member: int, kind: str, source_id: int, number: int, at: float, points: int,
               money: int) -> None:  # fmt: skip
    """Append one entry with its running sums (and shift the sums of later rows when it is backdated)."""
    key = (club_id, member, kind)
    before = await tx.fetchone(
        "SELECT points_run, money_run, entries_run FROM tallies WHERE club_id = ? AND member_id = ? AND kind = ? "
        "AND at <= ? ORDER BY at DESC, id DESC LIMIT 1",
        (*key, at),
    )
    runs = (0, 0, 0) if before is None else tuple(before)
    await tx.execute(
        "INSERT INTO tallies (club_id, member_id, kind, source_id, game_number, at, points, money, points_run, "
        "money_run, entries_run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (*key, source_id, number, at, points, money, runs[0] + points, runs[1] + money, runs[2] + 1),
    )
    await tx.execute(
        "UPDATE tallies SET points_run = points_run + ?, money_run = money_run + ?, entries_run = entries_run + 1 "
        "WHERE club_id = ? AND member_id = ? AND kind = ? AND at > ?",
        (points, money, *key, at),
    )
    await tx.execute(
        "INSERT INTO tally_totals (club_id, member_id, kind, points, money, entries) VALUES (?, ?, ?, ?, ?, 1) "
        "ON CONFLICT (club_id, member_id, kind) DO UPDATE SET points = tally_totals.points + excluded.points, "
        "money = tally_totals.money + excluded.money, entries = tally_totals.entries + 1",
        (*key, points, money),
    )


async def record_game(tx, match_id: int, number: int) -> None:
    """Inside a commit's transaction, after game ``number`` of match ``match_id`` was written: if it is over (with
    a result and an end time) and not tallied yet, add its two entries."""
    row = await tx.fetchone(
        "SELECT m.club_id, m.kind, m.player0, m.player1, m.stake, g.status, g.ended_at, g.result FROM games g "
        "JOIN matches m ON m.id = g.match_id WHERE g.match_id = ? AND g.number = ?",
        (match_id, number),
    )
    if row is None or row[5] != "over" or row[6] is None or row[7] is None:
        return
    done = await tx.fetchone(
        "SELECT 1 FROM tallies WHERE kind = ? AND source_id = ? AND game_number = ? LIMIT 1", (row[1], match_id, number)
    )
    if done is not None:
        return
    result = json.loads(row[7]) if isinstance(row[7], str) else row[7]
    winner, points = result.get("winner"), result.get("points")
    if winner not in (0, 1) or isinstance(points, bool) or not isinstance(points, int):
        return  # not a scored game (no winner or points): nothing for the books
    for side in (0, 1):
        signed = points if winner == side else -points
        await _add(tx, row[0], row[2 + side], row[1], match_id, number, row[6], signed, signed * row[4])


async def record_chouette(tx, session_id: int, results: Iterable[Sequence], at: float) -> None:
    """Inside a chouette commit's transaction: the entries of the ``results`` rows ``(game, member, points,
    stake)`` just written at time ``at``."""
    results = list(results)
    if not results:
        return
    row = await tx.fetchone("SELECT club_id FROM chouette_sessions WHERE id = ?", (session_id,))
    for game, member, points, stake in results:
        await _add(tx, row[0], member, "chouette", session_id, game, at, points, points * stake)


async def period_totals(
    db, club_id: int, kinds: Sequence[str], low: float, high: float
) -> list[tuple[int, str, int, int, int]]:
    """``(member, kind, points, money, entries)`` of every member with an entry of one of ``kinds`` in
    ``low <= at < high`` in club ``club_id``, by member then kind (a member with no entry in the period is left
    out)."""
    if not kinds:
        return []
    marks = ",".join("?" * len(kinds))
    if low == float("-inf") and high == float("inf"):
        rows = await db._fetchall(
            f"SELECT member_id, kind, points, money, entries FROM tally_totals WHERE club_id = ? AND kind IN ({marks}) "
            "AND entries > 0 ORDER BY member_id, kind",
            (club_id, *kinds),
        )
        return [tuple(row) for row in rows]
    rows = await db._fetchall(
        "SELECT k.member_id, k.kind, hi.points_run - coalesce(lo.points_run, 0), "
        "hi.money_run - coalesce(lo.money_run, 0), hi.entries_run - coalesce(lo.entries_run, 0) "
        f"FROM tally_totals k JOIN tallies hi ON hi.id = ({_LAST_BEFORE}) "
        f"LEFT JOIN tallies lo ON lo.id = ({_LAST_BEFORE}) "
        f"WHERE k.club_id = ? AND k.kind IN ({marks}) ORDER BY k.member_id, k.kind",
        (high, low, club_id, *kinds),
    )
    return [tuple(row) for row in rows if row[4] > 0]


async def source_totals(
    db, club_id: int, source: tuple[str, int], low: float, high: float
) -> list[tuple[int, str, int, int, int]]:
    """``(member, kind, points, money, entries)`` of one session ``source`` = ``(kind, id)`` of club ``club_id``
    (its games that ended in ``low <= at < high``)."""
    rows = await db._fetchall(
        "SELECT member_id, kind, sum(points), sum(money), count(*) FROM tallies WHERE kind = ? AND source_id = ? "
        "AND club_id = ? AND at >= ? AND at < ? GROUP BY member_id, kind ORDER BY member_id, kind",
        (source[0], source[1], club_id, low, high),
    )
    return [tuple(row) for row in rows]


async def rebuild(db) -> None:
    """Recompute every tally from the games and chouette results (the record), and the reply-time histogram from the
    action log (:func:`storage.replies.rebuild`), in one transaction."""
    script = TALLIES_BACKFILL
    if db.dialect == "postgresql":
        from .pgdialect import PG_TALLIES_BACKFILL as script
    async with db.transaction() as tx:
        await tx.execute("DELETE FROM tallies")
        await tx.execute("DELETE FROM tally_totals")
        for statement in _statements(script):
            await tx.execute(statement)
        await replies.rebuild(tx, db.dialect)


def _statements(script: str) -> list[str]:
    """The statements of an SQL script without triggers (split at ``;`` line ends)."""
    return [part.strip() for part in script.split(";\n") if part.strip() and not part.strip().startswith("--")]
