"""The club quizzes (tables ``quizzes`` and ``quiz_answers``, schema version 11) and the finished matches they are
drawn from: a quiz is stored before its poll is posted and stays ``open`` until its reveal, so a restart in
between loses nothing; each member's answer is kept at the reveal, for the club's quiz leaderboard. Each finished
game's screen (table ``quiz_screens``, schema version 12: its decisions that lost equity, :mod:`club.analysis.screen`)
is kept so that no game is screened twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

OPEN, REVEALED = "open", "revealed"


@dataclass(frozen=True, slots=True)
class QuizRecord:
    """A stored quiz: ``question`` (the JSON object of :class:`club.quiz.QuizQuestion`), ``channel_id`` and
    ``message_id`` of its poll (``message_id`` None until posted), ``status`` :data:`OPEN` or :data:`REVEALED`,
    ``closes_at`` when its poll closes (Unix s)."""

    id: int
    club_id: int
    channel_id: int
    message_id: int | None
    question: dict
    status: str
    created_at: float
    closes_at: float


@dataclass(frozen=True, slots=True)
class QuizScore:
    """A member's quiz record in a club: ``answered`` quizzes, ``correct`` answers."""

    member_id: int
    answered: int
    correct: int


_COLUMNS = "id, club_id, channel_id, message_id, question, status, created_at, closes_at"


def _record(row) -> QuizRecord:
    return QuizRecord(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7])


async def finished_matches(db, club_id: int, limit: int = 50, *, member: int | None = None) -> list[int]:
    """The ids of club ``club_id``'s last ``limit`` finished matches and money sessions (status ``over``), newest
    first; only those ``member`` played when given. Only finished ones: a game in play is never a quiz nor in a
    list of blunders (RULES 003 1.5)."""
    sql = "SELECT id FROM matches WHERE club_id = ? AND status = 'over'"
    params: list = [club_id]
    if member is not None:
        sql += " AND (player0 = ? OR player1 = ?)"
        params += [member, member]
    rows = await db._fetchall(sql + " ORDER BY ended_at DESC, id DESC LIMIT ?", [*params, limit])
    return [row[0] for row in rows]


async def add_quiz(db, club_id: int, channel_id: int, question: dict, at: float, closes_at: float) -> int:
    """Store a new open quiz (its poll not yet posted); returns its id."""
    async with db.transaction() as tx:
        return await tx.insert(
            "INSERT INTO quizzes (club_id, channel_id, question, status, created_at, closes_at) "
            "VALUES (?, ?, ?, 'open', ?, ?)",
            (club_id, channel_id, json.dumps(question), at, closes_at),
        )


async def set_quiz_message(db, quiz_id: int, message_id: int) -> None:
    """Record the message of quiz ``quiz_id``'s poll."""
    async with db.transaction() as tx:
        await tx.execute("UPDATE quizzes SET message_id = ? WHERE id = ?", (message_id, quiz_id))


async def drop_quiz(db, quiz_id: int) -> None:
    """Forget an open quiz whose poll could not be posted."""
    async with db.transaction() as tx:
        await tx.execute("DELETE FROM quizzes WHERE id = ? AND status = 'open' AND message_id IS NULL", (quiz_id,))


async def open_quizzes(db, *, message_id: int | None = None) -> list[QuizRecord]:
    """The quizzes posted and not yet revealed (only the one of poll ``message_id`` when given), oldest first."""
    sql = f"SELECT {_COLUMNS} FROM quizzes WHERE status = 'open' AND message_id IS NOT NULL"
    params: list = []
    if message_id is not None:
        sql += " AND message_id = ?"
        params.append(message_id)
    return [_record(row) for row in await db._fetchall(sql + " ORDER BY id", params)]


async def quiz_count(db, club_id: int) -> int:
    """How many quizzes club ``club_id`` has had."""
    row = await db._fetchone("SELECT count(*) FROM quizzes WHERE club_id = ?", (club_id,))
    return int(row[0])


async def last_quiz_at(db, club_id: int) -> float | None:
    """When club ``club_id``'s last quiz was made (Unix s), None before the first."""
    row = await db._fetchone("SELECT max(created_at) FROM quizzes WHERE club_id = ?", (club_id,))
    return None if row is None or row[0] is None else float(row[0])


async def used_decisions(db, club_id: int) -> set[tuple[int, int, int]]:
    """The decisions club ``club_id``'s quizzes already asked about: ``(match id, game number, history index)``."""
    rows = await db._fetchall("SELECT question FROM quizzes WHERE club_id = ?", (club_id,))
    used = set()
    for (text,) in rows:
        question = json.loads(text)
        used.add((question["match_id"], question["game"], question["index"]))
    return used


async def reveal_quiz(db, quiz_id: int, club_id: int, answers: Sequence[tuple[int, bool]]) -> bool:
    """Mark quiz ``quiz_id`` revealed and keep each ``(member id, answered right)``, in one transaction. Returns
    False (nothing written) when it was revealed already (two reveals racing: one writes)."""
    async with db.transaction() as tx:
        changed = await tx.execute(
            "UPDATE quizzes SET status = 'revealed' WHERE id = ? AND status = 'open'", (quiz_id,)
        )
        if not changed:
            return False
        for member_id, correct in answers:
            await tx.execute(
                "INSERT INTO quiz_answers (quiz_id, member_id, club_id, correct) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (quiz_id, member_id) DO NOTHING",
                (quiz_id, member_id, club_id, int(bool(correct))),
            )
    return True


async def quiz_scores(db, club_id: int, limit: int = 10) -> list[QuizScore]:
    """Club ``club_id``'s quiz leaderboard: the ``limit`` members with the most right answers (then fewest
    answered, then member id)."""
    rows = await db._fetchall(
        "SELECT member_id, count(*), sum(correct) FROM quiz_answers WHERE club_id = ? GROUP BY member_id "
        "ORDER BY sum(correct) DESC, count(*) ASC, member_id LIMIT ?",
        (club_id, limit),
    )
    return [QuizScore(row[0], int(row[1]), int(row[2] or 0)) for row in rows]


async def kept_screens(db, match_ids: Sequence[int]) -> dict[tuple[int, int, int], list[tuple[float, int, int]]]:
    """The kept screens of the games of ``match_ids``: ``(match id, game number, history length)`` → ``[(loss,
    history index, side), …]`` (see :mod:`club.analysis.screen`)."""
    found: dict[tuple[int, int, int], list[tuple[float, int, int]]] = {}
    ids = sorted(set(match_ids))
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        rows = await db._fetchall(
            f"SELECT match_id, game, length, screened FROM quiz_screens WHERE match_id IN ({marks})", part
        )
        for match_id, game, length, screened in rows:
            found[(match_id, game, length)] = [
                (float(loss), int(index), int(side)) for loss, index, side in json.loads(screened)
            ]
    return found


async def keep_screens(db, screens: Iterable[tuple[tuple[int, int, int], Sequence[tuple[float, int, int]]]]) -> None:
    """Keep the screens ``((match id, game number, history length), [(loss, history index, side), …])`` of finished
    games, replacing older ones of the same games, in one transaction."""
    rows = [(match_id, game, length, json.dumps([list(entry) for entry in screened]))
            for (match_id, game, length), screened in screens]  # fmt: skip
    if not rows:
        return
    async with db.transaction() as tx:
        for row in rows:
            await tx.execute(
                "INSERT INTO quiz_screens (match_id, game, length, screened) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id, game) DO UPDATE SET length = excluded.length, screened = excluded.screened",
                row,
            )


async def forget_screens(db) -> int:
    """Forget every kept screen (the next quiz screens its games again: after the engine changed, or to measure a
    screen from nothing); returns how many games' screens were forgotten."""
    async with db.transaction() as tx:
        return await tx.execute("DELETE FROM quiz_screens")
