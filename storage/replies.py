"""Reply times of the two-player games (schema version 8): a histogram per member, kept per action.

A *reply* is a member's own action (not one the club made for him: auto-roll, forced play, time limit) that follows,
in his match's log, an action of somebody else or of the club — one the club made for him included (his play after
the club rolled for him is a reply); its length is the time between the two actions (seconds; 0 when a clock was set
back in between). ``/club stats`` shows a member's count, mean and median of them. Reading them back from the action
log joins every action the member ever made (56 ms at 50,000 games, ``bench/records.py``), so each commit adds its
replies to ``reply_tallies`` instead — one row per ``(club, member, bucket)`` with the count and the sum of the
seconds in it — and the statistics read at most :data:`MAX_BUCKETS` rows, whatever the history.

Buckets (:func:`bucket`, and the same arithmetic in SQL, :func:`bucket_sql`): whole seconds below 64 s; above, each
octave ``[2^k, 2^(k+1))`` is cut into 64 equal parts (a bucket is ``2^(k−6)`` seconds wide, 1/64 of its lower
bound); from ``2^26`` s (776 days) on, one bucket. Every step is a subtraction of a power of two and a division by
one, exact in binary floating point, so Python, SQLite and PostgreSQL put every value in the same bucket. The count
and the mean are exact; the median is the mean of the bucket that holds the middle reply (of the two middle ones,
their average): exact when the replies in that bucket are equal, else within 1/64 (1.6 %) of the true median — finer
than ``/club stats`` prints it (minutes, tenths of an hour).

The histogram is derived data: :func:`rebuild` (and the version 8 migration) recompute it from the action log.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

FIRST_OCTAVE = 6
SUB_BUCKETS = 2**FIRST_OCTAVE
"""Buckets per octave (64), and the whole seconds below the first octave ``[64, 128)``."""

TOP_OCTAVE = 26
"""Replies of ``2^TOP_OCTAVE`` seconds or longer share one bucket."""

MAX_BUCKETS = SUB_BUCKETS * (TOP_OCTAVE - FIRST_OCTAVE + 1) + 1
"""The most rows one member's histogram can have in one club."""


def bucket(seconds: float) -> int:
    """The histogram bucket of a reply of ``seconds`` ≥ 0 (its lower bound in whole seconds; 0 for anything under a
    second)."""
    if seconds < SUB_BUCKETS:
        return max(0, int(seconds))
    octave = math.frexp(seconds)[1] - 1  # seconds = m · 2^(e), 0.5 ≤ m < 1: exact, no logarithm
    if octave >= TOP_OCTAVE:
        return 2**TOP_OCTAVE
    low, width = 2**octave, 2**octave // SUB_BUCKETS
    return low + int((seconds - low) // width) * width


FLOORS = {"sqlite": "CAST({} AS INTEGER)", "postgresql": "CAST(floor({}) AS BIGINT)"}
"""How each dialect takes the whole part of a non-negative number ``{}`` (SQLite's cast truncates, PostgreSQL's
rounds)."""


def bucket_sql(value: str, dialect: str = "sqlite") -> str:
    """The SQL expression, in ``dialect`` (``"sqlite"`` or ``"postgresql"``), of :func:`bucket` of the SQL expression
    ``value``."""
    floor = FLOORS[dialect]
    steps = [f"WHEN {value} < {SUB_BUCKETS} THEN {floor.format(value)}"]
    for octave in range(FIRST_OCTAVE, TOP_OCTAVE):
        low, width = 2**octave, 2**octave // SUB_BUCKETS
        steps.append(f"WHEN {value} < {2 * low} THEN {low} + {floor.format(f'({value} - {low}) / {width}')} * {width}")
    return f"(CASE WHEN {value} < 1 THEN 0 {' '.join(steps)} ELSE {2**TOP_OCTAVE} END)"


def _replies_select(dialect: str) -> str:
    """The SELECT of every reply of the log, bucketed: ``(club_id, member_id, bucket, replies, seconds)``."""
    return (
        f"SELECT club_id, member_id, {bucket_sql('wait', dialect)} AS bucket, count(*), sum(wait) FROM ("
        "SELECT m.club_id, a.member_id, CASE WHEN a.at < b.at THEN 0 ELSE a.at - b.at END AS wait "
        "FROM actions a JOIN matches m ON m.id = a.match_id JOIN actions b ON b.match_id = a.match_id AND b.seq = a.seq - 1 "
        "WHERE a.member_id IS NOT NULL AND a.auto = 0 AND (m.player0 = a.member_id OR m.player1 = a.member_id) "
        "AND (b.member_id IS NULL OR b.member_id <> a.member_id OR b.auto = 1)) AS waits GROUP BY club_id, member_id, 3"
    )


REPLIES_TABLE = """
-- Version 8: each member's reply times in his two-player games as a histogram (storage/replies.py),
-- added to by every commit, so that /club stats reads at most a thousand rows instead of joining his every action.
CREATE TABLE reply_tallies (
    club_id   INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    bucket    INTEGER NOT NULL,                          -- lower bound, whole seconds (storage.replies.bucket)
    replies   INTEGER NOT NULL CHECK (replies >= 1),
    seconds   REAL    NOT NULL,                          -- the sum of their lengths
    PRIMARY KEY (club_id, member_id, bucket)
) WITHOUT ROWID;
"""
"""The table (SQLite's text, as in ``schema.sql``; :func:`storage.pgdialect.postgres_schema` translates it)."""


def backfill_sql(dialect: str) -> str:
    """The statement that fills the histogram from the whole log, in ``dialect``."""
    return f"INSERT INTO reply_tallies (club_id, member_id, bucket, replies, seconds) {_replies_select(dialect)};\n"


REPLIES_V8 = REPLIES_TABLE + backfill_sql("sqlite")
"""Version 8's SQLite step: the table and its backfill from the log (PostgreSQL's: ``storage.pgdialect``)."""


_ADD = (
    "INSERT INTO reply_tallies (club_id, member_id, bucket, replies, seconds) "
    "SELECT club_id, member_id, {bucket}, 1, wait FROM ({replies}) AS reply WHERE true "
    "ON CONFLICT (club_id, member_id, bucket) DO UPDATE SET replies = reply_tallies.replies + 1, "
    "seconds = reply_tallies.seconds + excluded.seconds"
)
"""Add the one reply the inner SELECT ``{replies}`` gives (``club_id, member_id, wait``; none: nothing added)."""

_AFTER_LOG = (
    "SELECT m.club_id, CAST(? AS BIGINT) AS member_id, "
    "CASE WHEN b.at > CAST(? AS DOUBLE PRECISION) THEN 0.0 ELSE CAST(? AS DOUBLE PRECISION) - b.at END AS wait "
    "FROM matches m JOIN actions b ON b.match_id = m.id AND b.seq = ? "
    "WHERE m.id = ? AND CAST(? AS BIGINT) IN (m.player0, m.player1) "
    "AND (b.member_id IS NULL OR b.member_id <> CAST(? AS BIGINT) OR b.auto = 1)"
)
"""The reply of member ``?`` at time ``?`` to the logged action ``seq`` of match ``?`` (none when it is not one)."""

_AFTER_CLUB = (
    "SELECT club_id, CAST(? AS BIGINT) AS member_id, 0.0 AS wait FROM matches "
    "WHERE id = ? AND CAST(? AS BIGINT) IN (player0, player1)"
)
"""The reply, of no length, of member ``?`` to an action the same commit logged just before (none when he does not
play in match ``?``)."""


async def record(
    tx, match_id: int, expected_version: int, entries: Sequence, now: float, dialect: str = "sqlite"
) -> None:
    """Inside a match commit's transaction: add the replies among ``entries`` (:class:`~storage.records.NewAction`,
    appended as seq ``expected_version + 1 …`` at time ``now``) to the histogram — one statement a reply, the wait and
    the players read in SQL (``dialect``: ``"sqlite"`` or ``"postgresql"``), none for an action that cannot be one."""
    bucket_of_wait = bucket_sql("wait", dialect)
    for index, entry in enumerate(entries):
        member = entry.member_id
        if member is None or entry.auto:
            continue
        sql: str | None = None
        params: tuple = ()
        if index == 0:  # after the logged action, read in SQL
            sql, params = _AFTER_LOG, (member, now, now, expected_version, match_id, member, member)
        elif entries[index - 1].member_id != member or entries[index - 1].auto:  # after the club's or another's
            sql, params = _AFTER_CLUB, (member, match_id, member)
        if sql is not None:
            await tx.execute(_ADD.format(bucket=bucket_of_wait, replies=sql), params)


async def summary(db, club_id: int, member: int) -> tuple[int, float | None, float | None]:
    """``(replies, mean, median)`` of ``member``'s reply times (seconds) in the two-player games of club ``club_id``
    (mean and median None before his first reply; the median as the module says)."""
    rows = await db._fetchall(
        "SELECT replies, seconds FROM reply_tallies WHERE club_id = ? AND member_id = ? ORDER BY bucket",
        (club_id, member),
    )
    count = sum(row[0] for row in rows)
    if not count:
        return 0, None, None
    middle = [(count + 1) // 2, count // 2 + 1]  # the 1-based ranks of the middle reply (or the two middle ones)
    values = []
    seen = 0
    for replies, seconds in rows:
        seen += replies
        while middle and middle[0] <= seen:
            values.append(seconds / replies)
            middle.pop(0)
    return count, sum(row[1] for row in rows) / count, sum(values) / len(values)


async def rebuild(tx, dialect: str) -> None:
    """Inside a transaction: recompute the whole histogram from the action log (``dialect``: ``"sqlite"`` or
    ``"postgresql"``)."""
    await tx.execute("DELETE FROM reply_tallies")
    await tx.execute(backfill_sql(dialect))
