"""The match kind's own rows in a commit (:mod:`storage.store` writes the rest): the columns of its ``matches``
row, its deadline and its ``games`` rows — a game's state, its dice commitment (RULES A1) and roll counter."""

from __future__ import annotations

from typing import Any

from .errors import VersionConflictError
from .records import DeadlineWrite, GameWrite, MatchWrite, dumps
from .store import Tx


def match_columns(match: MatchWrite) -> dict[str, Any]:
    """The state columns of a match row."""
    return {"status": match.status, "state": dumps(match.state), "game_number": match.game_number,
            "waiting_for": match.waiting_for, "pending": match.pending, "score0": match.score0,
            "score1": match.score1, "winner": match.winner}  # fmt: skip


def deadline_rows(deadline: DeadlineWrite | None, version: int, now: float) -> list[dict[str, Any]]:
    """The match's deadline rows (none or one) as the store writes them."""
    if deadline is None:
        return []
    return [{"member_id": deadline.member_id, "pending": deadline.pending, "version": version, "set_at": now,
             "due_at": deadline.due_at, "reminders": list(deadline.reminders), "reminders_sent": 0,
             "expired_at": None, "next_at": deadline.next_at}]  # fmt: skip


async def write_game(tx: Tx, match_id: int, game: GameWrite, now: float) -> None:
    """Insert game ``game.number`` of ``match_id`` (its state, dice commitment and counter) or update it only if
    its version is still ``game.expected_version`` (else :class:`VersionConflictError`)."""
    result = None if game.result is None else dumps(game.result)
    if game.expected_version is None:
        await tx.execute(
            "INSERT INTO games (match_id, number, state, version, status, dice, seed_hash, seed, seed_revealed, "
            "rolls, result, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                game.number,
                dumps(game.state),
                game.version,
                game.status,
                game.dice,
                game.seed_hash,
                game.seed,
                int(game.seed_revealed),
                game.rolls,
                result,
                now,
                now if game.ended else None,
            ),
        )
        return
    changed = await tx.execute(
        "UPDATE games SET state = ?, version = ?, status = ?, seed_revealed = ?, rolls = ?, result = ?, "
        "ended_at = CASE WHEN ? = 1 THEN ? ELSE ended_at END WHERE match_id = ? AND number = ? AND version = ?",
        (
            dumps(game.state),
            game.version,
            game.status,
            int(game.seed_revealed),
            game.rolls,
            result,
            int(game.ended),
            now,
            match_id,
            game.number,
            game.expected_version,
        ),
    )
    if changed != 1:
        row = await tx.fetchone("SELECT version FROM games WHERE match_id = ? AND number = ?", (match_id, game.number))
        raise VersionConflictError(match_id, game.expected_version, None if row is None else row[0])
