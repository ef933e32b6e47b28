"""Maintenance: replay every stored match's log and check it against the stored state and dice (RULES A1, A4); the
chouettes likewise (:mod:`club.chouette.verify`).

For each match: the log must start with its challenge, run seq 1, 2, 3 … without gaps, and replay (through the same
:class:`~club.table.Table` code the use-cases use) to exactly the stored match state and columns, and to every
stored game's state, version, status and result. For every game with provably fair dice the seed must hash to its
commitment and every logged roll must be the roll derived from the seed and its counter (:mod:`club.dice`); a
finished game's seed must be revealed. ``python -m club verify PATH`` runs :func:`verify_database`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from backgammon.errors import BackgammonError
from storage import Database, dumps

from .dice import verify_rolls
from .table import replay_log


@dataclass
class MatchReport:
    """The check of one match: ``problems`` in words (empty = sound), and what was checked."""

    match_id: int
    actions: int = 0
    games: int = 0
    proven_rolls: int = 0
    injected_games: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems


def check_log(report: MatchReport, version: int, actions) -> None:
    """Count ``actions`` (records with ``seq``) into ``report`` and note a log whose sequence numbers have gaps or
    whose length is not the stored ``version`` (every action is one version step)."""
    report.actions = len(actions)
    if [a.seq for a in actions] != list(range(1, len(actions) + 1)):
        report.problems.append("the log's sequence numbers are not 1, 2, 3 … without gaps")
    if version != len(actions):
        report.problems.append(f"version {version} but {len(actions)} logged actions")


async def verify_match(db: Database, match_id: int) -> MatchReport:
    """Replay match ``match_id``'s log and compare with what is stored (see the module docstring)."""
    report = MatchReport(match_id)
    record = await db.get_match(match_id)
    if record is None:
        report.problems.append("no such match")
        return report
    actions = await db.actions(match_id)
    check_log(report, record.version, actions)
    try:
        table, game_states, counts = replay_log(actions)
    except (BackgammonError, KeyError, TypeError, ValueError) as error:
        report.problems.append(f"the log does not replay: {error}")
        return report
    side, pending = table.waiting()
    waiting_for = None if side is None else table.players[side]
    expected_columns = {
        "status": table.status,
        "state": dumps(table.state_json()),
        "game_number": table.game_number,
        "waiting_for": waiting_for,
        "pending": pending if waiting_for is not None else None,
        "score0": table.score[0],
        "score1": table.score[1],
        "winner": table.winner,
        "players": table.players,
        "length": table.length,
        "kind": table.kind,
        "stake": table.stake,
    }
    stored_columns = {
        "status": record.status,
        "state": dumps(record.state),
        "game_number": record.game_number,
        "waiting_for": record.waiting_for,
        "pending": record.pending,
        "score0": record.score0,
        "score1": record.score1,
        "winner": record.winner,
        "players": record.players,
        "length": record.length,
        "kind": record.kind,
        "stake": record.stake,
    }
    for name, expected in expected_columns.items():
        if stored_columns[name] != expected:
            report.problems.append(f"match {name}: stored {stored_columns[name]!r}, the log gives {expected!r}")
    games = await db.games(match_id)
    report.games = len(games)
    if sorted(g.number for g in games) != sorted(game_states):
        report.problems.append(
            f"stored games {sorted(g.number for g in games)} but the log has games {sorted(game_states)}"
        )
    for game in games:
        _check_game(report, game, game_states.get(game.number), counts.get(game.number, 0), actions)
    return report


def _check_game(report: MatchReport, game, state, count: int, actions) -> None:
    label = f"game {game.number}"
    if state is None:
        return
    if dumps(game.state) != dumps(state):
        report.problems.append(f"{label}: the stored state differs from the state the log rebuilds")
    if game.version != count:
        report.problems.append(f"{label}: version {game.version} but {count} logged actions")
    over = state["result"] is not None
    if game.status != ("over" if over else "playing"):
        report.problems.append(f"{label}: status {game.status!r} but the log says {'over' if over else 'playing'}")
    if dumps(game.result) != dumps(state["result"]):
        report.problems.append(f"{label}: stored result {game.result} but the log gives {state['result']}")
    rolls = [(a.roll_index, a.dice) for a in actions if a.game_number == game.number and a.dice is not None]
    starts = [a for a in actions if a.game_number == game.number and a.kind == "new_game"]
    if starts and starts[0].args.get("seed_hash") != game.seed_hash:
        report.problems.append(f"{label}: the commitment in the log differs from the stored one")
    if game.rolls != len(rolls):
        report.problems.append(f"{label}: roll counter {game.rolls} but {len(rolls)} logged rolls")
    if game.dice == "injected":
        report.injected_games += 1
        return
    if game.seed is None or game.seed_hash is None:
        report.problems.append(f"{label}: fair dice without a seed or commitment")
        return
    if over and not game.seed_revealed:
        report.problems.append(f"{label}: the game is over but its seed was not revealed")
    problems = verify_rolls(game.seed, game.seed_hash, rolls)
    report.problems.extend(f"{label}: {problem}" for problem in problems)
    if not problems:
        report.proven_rolls += len(rolls)


async def verify_database(db: Database) -> list[MatchReport]:
    """:func:`verify_match` for every stored match, then every chouette session
    (:func:`club.chouette.verify.verify_chouettes`), plus ``PRAGMA integrity_check`` (reported on a pseudo-match 0
    when it fails)."""
    from .chouette.verify import verify_chouettes

    reports = []
    integrity = await db.integrity_check()
    if integrity != ["ok"]:
        reports.append(MatchReport(0, problems=[f"integrity: {line}" for line in integrity]))
    for match_id in await db.match_ids():
        reports.append(await verify_match(db, match_id))
    reports.extend(await verify_chouettes(db))
    return reports
