"""Stored state formats and their upgrade (hot state without history).

Now: a match's ``matches.state`` (format 2) holds its status, score keeper and counters (:meth:`club.table.Table.
state_json`) and a chouette's ``chouette_sessions.state`` (format 3) its seats, current game, board and the sheet's
columns and running totals (:meth:`club.chouette.table.ChouetteTable.to_json`) — neither lists what happened
before: the finished games are in their ``games`` / ``chouette_results`` and ``chouette_sheet`` rows and everything
is in the append-only log. Format 1 (before) also held every finished game's result (matches) and the whole event
history (chouettes), and a chouette's format 2 every sheet row, so each action parsed and rewrote a state that grew
with the session. Upgrading a chouette writes its sheet rows (from the replayed log) before its new state.

Both formats load. :func:`canonical` reads a stored state as the current code writes it (what :mod:`club.verify`
compares with the replay); :func:`upgrade_states` rewrites every format-1 state as the state its log replays to, after checking that
it agrees with the stored one (``python -m club upgrade PATH``; the bot runs it at start). The log is never touched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from backgammon.errors import BackgammonError
from backgammon.game import Game
from storage import Database

from .chouette.table import STATE_FORMAT as CHOUETTE_FORMAT
from .chouette.table import ChouetteTable
from .chouette.table import replay as replay_chouette
from .table import STATE_FORMAT as MATCH_FORMAT
from .table import MatchTable, replay_log


class StoredState(StrEnum):
    """Which stored state :func:`canonical` reads: a match's row, a game's row or a chouette session's row."""

    MATCH = "match"
    GAME = "game"
    CHOUETTE = "chouette"


def canonical(kind: StoredState, state: dict[str, Any], record: Any = None) -> dict[str, Any]:
    """``state`` as this code writes it: parsed by the current code and written again, so that a stored state of an
    older format or an older representation (a rule-set field added since, a list of finished games) compares equal
    to a replayed one when it means the same. ``kind``: a :class:`StoredState` — a match's (with its ``record``, the
    match row, for the columns the state does not repeat), a game's or a chouette's. A state the current code cannot
    read is returned as it is (it then differs, and the caller reports it)."""
    try:
        if kind == StoredState.GAME:
            return Game.from_json(state).to_json()
        if kind == StoredState.CHOUETTE:
            return ChouetteTable.from_json(state).to_json()
        return MatchTable.from_state(
            kind=record.kind, length=record.length, players=record.players, rules=record.rules,
            stake=record.stake, club_id=record.club_id, state=state, game_state=None,
        ).state_json()  # fmt: skip
    except (BackgammonError, KeyError, TypeError, ValueError):
        return state


@dataclass
class UpgradeReport:
    """What :func:`upgrade_states` did: subjects ``upgraded`` (kind, id), those already current, and ``problems``
    (left as they were: a log that does not replay, or replays to another state)."""

    upgraded: list[tuple[str, int]] = field(default_factory=list)
    current: int = 0
    problems: list[str] = field(default_factory=list)


async def upgrade_states(db: Database) -> UpgradeReport:
    """Rewrite every stored format-1 state as the format-2 state its log replays to (see the module docstring).

    Each subject is rewritten only if the replay agrees with its stored state and it is still at the version read
    (a concurrent action simply writes format 2 itself). Safe to run again: current states are skipped."""
    from storage import dumps
    from storage.chouettes import ChouetteStore

    report = UpgradeReport()
    old_matches = await db.store.ids_below_format("match", MATCH_FORMAT)
    old_chouettes = await db.store.ids_below_format("chouette", CHOUETTE_FORMAT)
    report.current = len(await db.store.ids("match")) + len(await db.store.ids("chouette"))
    report.current -= len(old_matches) + len(old_chouettes)
    for match_id in old_matches:
        record = await db.get_match(match_id)
        if record is None:
            continue
        try:
            table, _, _ = replay_log(await db.actions(match_id))
        except (BackgammonError, KeyError, TypeError, ValueError) as error:
            report.problems.append(f"match {match_id}: the log does not replay ({error}); left as it was")
            continue
        stored = canonical(StoredState.MATCH, record.state, record)
        await _rewrite(db, report, ("match", match_id), record.version, stored, table.state_json())
    chouettes = ChouetteStore(db)
    for session_id in old_chouettes:
        session = await chouettes.get(session_id)
        if session is None:
            continue
        try:
            chouette = replay_chouette(await chouettes.actions(session_id))
        except (BackgammonError, KeyError, TypeError, ValueError) as error:
            report.problems.append(f"chouette {session_id}: the log does not replay ({error}); left as it was")
            continue
        stored = canonical(StoredState.CHOUETTE, session.state)
        rows = [(row.game, row.to_json()) for row in chouette.session.sheet_rows()]
        if held_sheet_rows(session.state) not in (None, rows):
            report.problems.append(f"chouette {session_id}: the stored sheet differs from its log's; left as it was")
            continue
        if dumps(stored) == dumps(chouette.to_json()):  # the rows first: a state without them must find them stored
            await chouettes.add_sheet_rows(session_id, rows, session.updated_at)
        await _rewrite(db, report, ("chouette", session_id), session.version, stored, chouette.to_json())
    return report


def held_sheet_rows(state: dict[str, Any]) -> list[tuple[int, dict]] | None:
    """The sheet rows an older chouette state holds (formats 1 and 2), or None when it cannot be read."""
    try:
        return [(row.game, row.to_json()) for row in ChouetteTable.from_json(state).session.sheet_rows()]
    except (BackgammonError, KeyError, TypeError, ValueError):
        return None


async def _rewrite(db: Database, report: UpgradeReport, subject, version: int, stored: dict, replayed: dict) -> None:
    from storage import dumps

    kind, subject_id = subject
    if dumps(stored) != dumps(replayed):
        report.problems.append(f"{kind} {subject_id}: the stored state differs from its log's; left as it was")
    elif await db.store.rewrite_state(subject, version, replayed):
        report.upgraded.append(subject)
    else:
        report.problems.append(f"{kind} {subject_id}: it moved on while being upgraded (it is current now)")
