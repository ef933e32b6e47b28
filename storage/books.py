"""The club's books: the read-only queries behind club records, and the corrections audit trail (schema version 3).

Every finished game is an entry of the ledger, read where it is stored — no second copy to keep in step:

- a game of a money session or a match (``games`` with ``status = 'over'`` joined with ``matches``): the winner
  ``+points``, the loser ``−points``; money = points × the row's ``stake``; at ``games.ended_at``;
- a chouette game (``chouette_results``, one row per member, schema version 2): the member's ``points``; money =
  points × the row's ``stake`` (the session's base stake; a member's multiple, RULES C6, is in his points);
  at ``chouette_results.at``;
- a correction (``corrections``): the payee ``+points``/``+money``, the payer the opposite; at ``counts_at``.

Each source is zero-sum per game (per correction), so every sum over a period is zero. The ledger reads the running
totals written when each game ended (:mod:`storage.tallies`), so that its cost does not grow with the number of games
(``bench/records.py``); the corrections are summed as they are. Rows come back as
frozen dataclasses; times are Unix seconds (UTC); kinds are ``'money'``, ``'match'``, ``'chouette'`` and
``'correction'``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import tallies
from .database import Database

KINDS = ("money", "match", "chouette", "correction")
"""The ledger's entry kinds, in the order they are shown."""

SOURCES = ("money", "match", "chouette")
"""The kinds of session a sheet (or a correction) can refer to: a money session, a match, a chouette session."""

_FOREVER = (float("-inf"), float("inf"))


@dataclass(frozen=True, slots=True)
class LedgerTotal:
    """One member's sum of one kind of entry over a period: ``points``, ``money`` (at the stakes) and ``entries``
    (games played, or corrections)."""

    member: int
    kind: str
    points: int
    money: int
    entries: int


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One member's result in one game of a session: game ``number``, ``at`` (when it ended), ``points`` and
    ``money``. For two-player games ``cube`` and ``result_kind`` (single/gammon/backgammon) and ``ended_by`` are set;
    chouette rows have them ``None``. ``factor``: the automatic-double factor of add-one raises (RULES G3, D6; 1
    without, and for results stored before it was kept apart); ``multiplier``: the result multiplier that counted (1
    for a gammon the Jacoby rule scored single, RULES D4; None for chouette rows)."""

    number: int
    at: float
    member: int
    points: int
    money: int
    cube: int | None = None
    result_kind: str | None = None
    ended_by: str | None = None
    factor: int = 1
    multiplier: int | None = None


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """A session of the club: ``source`` (``'money'``/``'match'``/``'chouette'``) and ``id``, its ``members``, the
    number of finished ``games``, ``first_at``/``last_at`` (its first and last finished game), ``status`` (``'over'`` when
    finished — a closed chouette —, else ``'active'``) and ``length`` (matches)."""

    source: str
    id: int
    members: tuple[int, ...]
    games: int
    first_at: float
    last_at: float
    status: str
    length: int = 0


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A match to ``length`` points that ended with a winner: ``players`` (sides 0 and 1), ``winner`` side,
    ``score`` (sides 0 and 1) and ``ended_at``."""

    id: int
    length: int
    players: tuple[int, int]
    winner: int
    score: tuple[int, int]
    ended_at: float


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished two-player game as one member played it: ``kind`` of table, its ``stake`` per point, the member's
    ``side``, the result (``winner`` side, ``points``, ``result_kind``, ``cube``, ``ended_by``: ``play``, ``drop``,
    ``resignation`` or ``forfeit``)."""

    match_id: int
    kind: str
    stake: int
    side: int
    winner: int
    points: int
    result_kind: str
    cube: int
    ended_by: str = "play"


@dataclass(frozen=True, slots=True)
class CorrectionRecord:
    """A correction of the ledger (the audit trail): ``admin_id`` made it ``at``, giving ``reason``; ``payer`` gives
    ``points`` and ``money`` to ``payee``; it counts at ``counts_at``; ``source``/``source_id`` the session it
    corrects (None = none in particular)."""

    id: int
    club_id: int
    admin_id: int
    payer: int
    payee: int
    points: int
    money: int
    reason: str
    source: str | None
    source_id: int | None
    at: float
    counts_at: float


# -- the ledger ---------------------------------------------------------------------------------------------------
async def ledger_totals(
    db: Database,
    club_id: int,
    *,
    start: float | None = None,
    end: float | None = None,
    source: tuple[str, int] | None = None,
    kinds: Sequence[str] = KINDS,
) -> list[LedgerTotal]:
    """Every member's totals per kind of entry for club ``club_id`` in ``start <= at < end`` (None = unbounded),
    only those of one session if ``source`` = ``(kind, id)`` is given (with the corrections that name it), and only
    the ``kinds`` asked for. Sorted by member, then kind. Raises ``ValueError`` for an unknown kind or source."""
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown ledger kinds {sorted(unknown)}; known: {', '.join(KINDS)}")
    if source is not None and source[0] not in SOURCES:
        raise ValueError(f"a source is one of {', '.join(SOURCES)}, not {source[0]!r}")
    low, high = (_FOREVER[0] if start is None else start), (_FOREVER[1] if end is None else end)
    game_kinds = [kind for kind in ("money", "match", "chouette") if kind in kinds]
    if source is not None:
        rows = await tallies.source_totals(db, club_id, source, low, high) if source[0] in game_kinds else []
    else:
        rows = await tallies.period_totals(db, club_id, game_kinds, low, high)
    found = [LedgerTotal(*row) for row in rows]
    if "correction" in kinds:
        where = "club_id = ? AND counts_at >= ? AND counts_at < ?"
        args: list[Any] = [club_id, low, high]
        if source is not None:
            where += " AND source = ? AND source_id = ?"
            args.extend(source)
        branches = [
            f"SELECT {member} AS member, {sign}points AS points, {sign}money AS money FROM corrections WHERE {where}"
            for member, sign in (("payee", ""), ("payer", "-"))
        ]
        corrected = await db._fetchall(
            "SELECT member, sum(points), sum(money), count(*) FROM (" + " UNION ALL ".join(branches) + ") AS moves "
            "GROUP BY member",
            [*args, *args],
        )
        found += [LedgerTotal(row[0], "correction", row[1], row[2], row[3]) for row in corrected]
    found.sort(key=lambda total: (total.member, total.kind))
    return found


# -- sessions and their sheets ----------------------------------------------------------------------------------
async def session_exists(db: Database, club_id: int, source: tuple[str, int]) -> bool:
    """Whether club ``club_id`` has the session ``source`` = ``(kind, id)``. Raises ``ValueError`` for an unknown
    kind."""
    kind, session_id = source
    if kind not in SOURCES:
        raise ValueError(f"a source is one of {', '.join(SOURCES)}, not {kind!r}")
    params: tuple[Any, ...]
    if kind == "chouette":
        sql, params = "SELECT 1 FROM chouette_sessions WHERE id = ? AND club_id = ?", (session_id, club_id)
    else:
        sql, params = "SELECT 1 FROM matches WHERE id = ? AND club_id = ? AND kind = ?", (session_id, club_id, kind)
    return await db._fetchone(sql, params) is not None


async def session_entries(db: Database, club_id: int, source: tuple[str, int]) -> list[SheetEntry] | None:
    """Every member's result in every finished game of one session of club ``club_id`` (``source`` = ``(kind,
    id)``), by game number then member; None when the club has no such session. Raises ``ValueError`` for an
    unknown kind."""
    if not await session_exists(db, club_id, source):
        return None
    kind, session_id = source
    if kind == "chouette":
        rows = await db._fetchall(
            "SELECT game_number, at, member_id, points, points * stake FROM chouette_results WHERE session_id = ? "
            "ORDER BY game_number, member_id",
            (session_id,),
        )
        return [SheetEntry(row[0], row[1], row[2], row[3], row[4]) for row in rows]
    match = await db._fetchone("SELECT player0, player1, stake FROM matches WHERE id = ?", (session_id,))
    if match is None:
        return None
    rows = await db._fetchall(
        "SELECT number, ended_at, result FROM games WHERE match_id = ? AND status = 'over' ORDER BY number",
        (session_id,),
    )
    entries = []
    for number, ended_at, text in rows:
        result = json.loads(text)
        for side in (0, 1):
            points = result["points"] if result["winner"] == side else -result["points"]
            entries.append(
                SheetEntry(
                    number,
                    ended_at,
                    match[side],
                    points,
                    points * match[2],
                    result["cube"],
                    result["kind"],
                    result["ended_by"],
                    result.get("factor", 1),
                    result.get("multiplier"),
                )
            )
    return entries


async def sessions_entries(
    db: Database, club_id: int, sources: Sequence[tuple[str, int]]
) -> dict[tuple[str, int], tuple[tuple[int, ...], int, list[SheetEntry]]]:
    """:func:`session_entries` of many sessions of club ``club_id`` at once (a few queries, whatever their number):
    ``source → (players of a two-player table or (), its length, entries)``; sessions the club does not have are
    left out. Raises ``ValueError`` for an unknown kind."""
    if any(kind not in SOURCES for kind, _ in sources):
        raise ValueError(f"a source is one of {', '.join(SOURCES)}")
    found: dict[tuple[str, int], tuple[tuple[int, ...], int, list[SheetEntry]]] = {}
    tables = sorted({sid for kind, sid in sources if kind != "chouette"})
    chouettes = sorted({sid for kind, sid in sources if kind == "chouette"})
    for start in range(0, len(tables), 500):
        part = tables[start : start + 500]
        marks = ",".join("?" * len(part))
        rows = await db._fetchall(
            f"SELECT id, kind, player0, player1, stake, length FROM matches WHERE club_id = ? AND id IN ({marks})",
            (club_id, *part),
        )
        heads = {row[0]: row for row in rows}
        for row in rows:
            found[(row[1], row[0])] = ((row[2], row[3]), row[5], [])
        rows = await db._fetchall(
            f"SELECT match_id, number, ended_at, result FROM games WHERE match_id IN ({marks}) AND status = 'over' "
            "ORDER BY match_id, number",
            part,
        )
        for match_id, number, ended_at, text in rows:
            head = heads.get(match_id)
            if head is None:
                continue
            result = json.loads(text)
            entries = found[(head[1], match_id)][2]
            for side in (0, 1):
                points = result["points"] if result["winner"] == side else -result["points"]
                entries.append(SheetEntry(number, ended_at, head[2 + side], points, points * head[4], result["cube"],
                                          result["kind"], result["ended_by"], result.get("factor", 1),
                                          result.get("multiplier")))  # fmt: skip
    for start in range(0, len(chouettes), 500):
        part = chouettes[start : start + 500]
        marks = ",".join("?" * len(part))
        rows = await db._fetchall(
            f"SELECT id FROM chouette_sessions WHERE club_id = ? AND id IN ({marks})", (club_id, *part)
        )
        for row in rows:
            found[("chouette", row[0])] = ((), 0, [])
        rows = await db._fetchall(
            "SELECT session_id, game_number, at, member_id, points, points * stake FROM chouette_results "
            f"WHERE session_id IN ({marks}) ORDER BY session_id, game_number, member_id",
            part,
        )
        for row in rows:
            if ("chouette", row[0]) in found:
                found[("chouette", row[0])][2].append(SheetEntry(*row[1:]))
    return found


async def sessions(
    db: Database,
    club_id: int,
    *,
    member: int | None = None,
    limit: int | None = 25,
    start: float | None = None,
    end: float | None = None,
) -> list[SessionSummary]:
    """The club's sessions (money sessions, matches, chouette sessions) with at least one game finished in
    ``start <= at < end`` (None = unbounded), most recent first (at most ``limit``; None: all), only those
    ``member`` played in if given. ``games``, ``first_at`` and ``last_at`` count the games in that time."""
    cap = "" if limit is None else " LIMIT ?"
    capped = [] if limit is None else [int(limit)]
    low, high = (_FOREVER[0] if start is None else start), (_FOREVER[1] if end is None else end)
    params: list[Any] = [low, high, club_id]
    where = "m.club_id = ? AND m.status IN ('active', 'over')"
    if member is not None:
        where += " AND (m.player0 = ? OR m.player1 = ?)"
        params += [member, member]
    rows = await db._fetchall(
        "SELECT m.kind, m.id, m.player0, m.player1, m.status, m.length, count(g.id), min(g.ended_at), max(g.ended_at) "
        "FROM matches m JOIN games g ON g.match_id = m.id AND g.status = 'over' AND g.ended_at >= ? "
        f"AND g.ended_at < ? WHERE {where} "
        f"GROUP BY m.id ORDER BY max(g.ended_at) DESC, m.id DESC{cap}",
        [*params, *capped],
    )
    found = [SessionSummary(r[0], r[1], (r[2], r[3]), r[6], r[7], r[8], r[4], r[5]) for r in rows]
    params = [club_id, low, high]
    where = "s.club_id = ? AND r.at >= ? AND r.at < ?"
    having = ""
    if member is not None:
        having = " HAVING sum(CASE WHEN r.member_id = ? THEN 1 ELSE 0 END) > 0"
        params.append(member)
    rows = await db._fetchall(
        "SELECT r.session_id, group_concat(DISTINCT r.member_id), count(DISTINCT r.game_number), min(r.at), "
        f"max(r.at), s.status FROM chouette_results r JOIN chouette_sessions s ON s.id = r.session_id WHERE {where} "
        f"GROUP BY r.session_id, s.status{having} ORDER BY max(r.at) DESC{cap}",
        [*params, *capped],
    )
    for r in rows:
        members = tuple(sorted(int(text) for text in r[1].split(",")))
        status = "over" if r[5] == "closed" else "active"
        found.append(SessionSummary("chouette", r[0], members, r[2], r[3], r[4], status))
    found.sort(key=lambda summary: (summary.last_at, summary.id), reverse=True)
    return found if limit is None else found[:limit]


# -- matches, games and cube actions of members ----------------------------------------------------------------------
_RATED = (
    "club_id = ? AND kind = 'match' AND status = 'over' AND winner IS NOT NULL AND NOT ("
    "id IN (SELECT match_id FROM event_matches WHERE match_id IS NOT NULL) AND EXISTS (SELECT 1 FROM actions a "
    "WHERE a.match_id = matches.id AND a.kind IN ('forfeit', 'forfeit_match')))"
)
"""The matches that count in the ratings: ended with a winner — forfeits included, except in an event's match (a
club event leaves a forfeited or claimed match unrated, as UKBGF clubs do)."""


async def finished_matches(
    db: Database, club_id: int, *, after: tuple[float, int] | None = None
) -> list[FinishedMatch]:
    """Every match of club ``club_id`` that counts in the ratings (:data:`_RATED`), in the order they ended
    (``ended_at``, then id); only those after ``after`` = ``(ended_at, id)`` if given."""
    sql = f"SELECT id, length, player0, player1, winner, score0, score1, ended_at FROM matches WHERE {_RATED}"
    params: list[Any] = [club_id]
    if after is not None:
        sql += " AND (ended_at > ? OR (ended_at = ? AND id > ?))"
        params += [after[0], after[0], after[1]]
    rows = await db._fetchall(sql + " ORDER BY ended_at, id", params)
    return [FinishedMatch(r[0], r[1], (r[2], r[3]), r[4], (r[5], r[6]), r[7]) for r in rows]


async def finished_match_count(db: Database, club_id: int) -> int:
    """How many matches of club ``club_id`` count in the ratings (:data:`_RATED`)."""
    return await db._fetchvalue(f"SELECT count(*) FROM matches WHERE {_RATED}", (club_id,))


async def played_games(db: Database, club_id: int, member: int) -> list[PlayedGame]:
    """Every finished two-player game ``member`` played in club ``club_id`` (money sessions and matches)."""
    side = (
        "SELECT m.id, m.kind, m.stake, {side}, g.result, g.ended_at, g.id FROM matches m JOIN games g "
        "ON g.match_id = m.id WHERE m.player{side} = ? AND +m.club_id = ? AND g.status = 'over'"
    )  # +club_id: the member's index, not the club's (every match of a one-club bot)
    rows = await db._fetchall(
        f"{side.format(side=0)} UNION ALL {side.format(side=1)} ORDER BY 6, 7", (member, club_id, member, club_id)
    )
    games = []
    for match_id, kind, stake, side, text, _at, _id in rows:
        result = json.loads(text)
        games.append(
            PlayedGame(
                match_id,
                kind,
                stake,
                side,
                result["winner"],
                result["points"],
                result["kind"],
                result["cube"],
                result.get("ended_by", "play"),
            )  # fmt: skip
        )
    return games


async def cube_actions(db: Database, club_id: int, member: int) -> dict[str, int]:
    """How often ``member`` made each cube action (``double``, ``take``, ``drop``, ``beaver``, ``raccoon``) in his
    two-player games of club ``club_id`` (actions the club made for him at a time limit are not his)."""
    rows = await db._fetchall(
        "SELECT a.kind, count(*) FROM actions a JOIN matches m ON m.id = a.match_id WHERE m.club_id = ? "
        "AND a.member_id = ? AND a.kind IN ('double', 'take', 'drop', 'beaver', 'raccoon') GROUP BY a.kind",
        (club_id, member),
    )
    return {row[0]: row[1] for row in rows}


async def chouette_games(db: Database, club_id: int, member: int) -> tuple[int, int, int, int]:
    """``(games, won, points, money)`` of ``member`` in the chouettes of club ``club_id`` (won = a game with
    positive points)."""
    row = await db._fetchone(
        "SELECT count(*), coalesce(sum(CASE WHEN r.points > 0 THEN 1 ELSE 0 END), 0), coalesce(sum(r.points), 0), "
        "coalesce(sum(r.points * r.stake), 0) FROM chouette_results r "
        "JOIN chouette_sessions s ON s.id = r.session_id WHERE s.club_id = ? AND r.member_id = ?",
        (club_id, member),
    )
    assert row is not None  # an aggregate gives one row
    return (row[0], row[1], row[2], row[3])


# -- kept match files ---------------------------------------------------------------------------------------------
async def kept_mat(db: Database, match_id: int, version: int) -> str | None:
    """The kept ``.mat`` text of match ``match_id`` made at ``version``, or None (none kept, or an older one)."""
    row = await db._fetchone("SELECT text FROM mat_files WHERE match_id = ? AND version = ?", (match_id, version))
    return None if row is None else row[0]


async def keep_mat(db: Database, match_id: int, version: int, name: str, text: str) -> None:
    """Keep the ``.mat`` text of a finished match ``match_id`` (made at ``version``), replacing an older one."""
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO mat_files (match_id, version, name, text) VALUES (?, ?, ?, ?) ON CONFLICT (match_id) "
            "DO UPDATE SET version = excluded.version, name = excluded.name, text = excluded.text",
            (match_id, version, name, text),
        )


# -- corrections ---------------------------------------------------------------------------------------------------
async def add_correction(
    db: Database,
    *,
    club_id: int,
    admin_id: int,
    payer: int,
    payee: int,
    points: int,
    money: int,
    reason: str,
    source: tuple[str, int] | None,
    at: float,
    counts_at: float,
) -> CorrectionRecord:
    """Append a correction (one transaction) and return it. The table's checks refuse
    (:class:`~storage.errors.ConstraintError`) a payer equal to the payee, negative amounts, nothing to transfer, an
    empty reason, unknown members."""
    async with db.transaction() as tx:
        correction_id = await tx.insert(
            "INSERT INTO corrections (club_id, admin_id, payer, payee, points, money, reason, source, source_id, at, "
            "counts_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                club_id,
                admin_id,
                payer,
                payee,
                points,
                money,
                reason,
                None if source is None else source[0],
                None if source is None else source[1],
                at,
                counts_at,
            ),
        )
        row = await tx.fetchone("SELECT * FROM corrections WHERE id = ?", (correction_id,))
    return CorrectionRecord(*row)


async def corrections(
    db: Database,
    club_id: int,
    *,
    start: float | None = None,
    end: float | None = None,
    source: tuple[str, int] | None = None,
) -> list[CorrectionRecord]:
    """The corrections of club ``club_id`` that count in ``start <= counts_at < end`` (and name ``source`` if
    given), oldest first."""
    low, high = (_FOREVER[0] if start is None else start), (_FOREVER[1] if end is None else end)
    sql = "SELECT * FROM corrections WHERE club_id = ? AND counts_at >= ? AND counts_at < ?"
    params: list[Any] = [club_id, low, high]
    if source is not None:
        sql += " AND source = ? AND source_id = ?"
        params.extend(source)
    rows = await db._fetchall(sql + " ORDER BY counts_at, id", params)
    return [CorrectionRecord(*row) for row in rows]
