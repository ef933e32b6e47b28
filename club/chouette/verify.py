"""Maintenance: replay every stored chouette's log and check it against what is stored (RULES A1, C11, A4).

For each session: the log runs seq 1, 2, 3 … without gaps and starts with its ``open``; replayed through the same
:class:`~club.chouette.table.ChouetteTable` code the use-cases use, it rebuilds exactly the stored state, status and
game number; ``chouette_results`` holds exactly the sheet's rows (each game summing to zero, RULES C11); every dice
series with fair dice hashes to its commitment and every logged roll and throw is the one derived from its seed and
counter (:mod:`club.dice`), and a finished game's (or a closed session's) seed is revealed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from backgammon.errors import BackgammonError
from storage import Database, dumps
from storage.chouettes import ChouetteStore

from ..dice import verify_rolls
from ..verify import MatchReport, check_log
from .table import member_id, replay


@dataclass
class ChouetteReport(MatchReport):
    """The check of one chouette session (``match_id`` is the session id; ``games`` its finished games)."""

    @property
    def label(self) -> str:
        """How the report names what it checked."""
        return f"chouette {self.match_id}"


async def verify_chouette(db: Database, session_id: int) -> ChouetteReport:
    """Replay chouette ``session_id``'s log and compare with what is stored (see the module docstring)."""
    store = ChouetteStore(db)
    report = ChouetteReport(session_id)
    record = await store.get(session_id)
    if record is None:
        report.problems.append("no such chouette")
        return report
    actions = await store.actions(session_id)
    check_log(report, record.version, actions)
    try:
        table = replay(actions)
    except (BackgammonError, KeyError, TypeError, ValueError) as error:
        report.problems.append(f"the log does not replay: {error}")
        return report
    if dumps(table.to_json()) != dumps(record.state):
        report.problems.append("the stored state differs from the state the log rebuilds")
    if (record.status, record.game_number) != (table.status, table.game_number):
        report.problems.append(
            f"status/game {record.status}/{record.game_number} but the log gives {table.status}/{table.game_number}"
        )
    sheet = table.session.sheet()
    report.games = len(sheet.rows)
    expected = {(row.game, member_id(m), p, record.stake) for row in sheet.rows for m, p in row.points.items()}
    stored = {(r.game_number, r.member_id, r.points, r.stake) for r in await store.results(session_id)}
    if stored != expected:
        report.problems.append(f"chouette_results differ from the sheet: {sorted(stored ^ expected)[:6]}")
    sums: dict[int, int] = defaultdict(int)
    for game, _member, points, _stake in stored:
        sums[game] += points
    report.problems.extend(f"game {g} results sum to {s}, not zero (RULES C11)" for g, s in sorted(sums.items()) if s)
    await _check_dice(store, session_id, actions, table, report)
    return report


async def _check_dice(store: ChouetteStore, session_id: int, actions, table, report: ChouetteReport) -> None:
    rolls: dict[int, list[tuple[int, list[int]]]] = defaultdict(list)
    for action in actions:
        if action.dice is None or action.series is None:
            continue
        if action.kind in ("seat", "rethrow"):
            for offset, (_member, dice) in enumerate(action.dice):
                rolls[action.series].append((action.roll_index + offset, dice))
        else:
            rolls[action.series].append((action.roll_index, action.dice))
    finished = {row.game for row in table.session.sheet().rows}
    for number, series in (await store.dice(session_id)).items():
        label = "seating dice" if number == 0 else f"game {number} dice"
        logged = rolls.get(number, [])
        if series.rolls != len(logged):
            report.problems.append(f"{label}: roll counter {series.rolls} but {len(logged)} logged rolls")
        if series.dice == "injected":
            report.injected_games += 1
            continue
        due = number in finished if number else table.status == "closed"
        if due and not series.seed_revealed:
            report.problems.append(f"{label}: over but the seed was not revealed")
        problems = verify_rolls(series.seed, series.seed_hash, logged)
        report.problems.extend(f"{label}: {problem}" for problem in problems)
        if not problems:
            report.proven_rolls += len(logged)


async def verify_chouettes(db: Database) -> list[ChouetteReport]:
    """:func:`verify_chouette` for every stored chouette session."""
    store = ChouetteStore(db)
    return [await verify_chouette(db, session_id) for session_id in await store.session_ids()]
