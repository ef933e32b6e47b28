"""Maintenance: replay every stored match's and chouette's log and check it against what is stored (RULES A1, A4,
C11). One module for both kinds of table; ``python -m club verify PATH`` runs :func:`verify_database`.

For each match: the log must start with its challenge, run seq 1, 2, 3 … without gaps, and replay (through the same
:class:`~club.table.Table` code the use-cases use) to exactly the stored match state (read as the current format,
:func:`club.states.canonical`) and columns, and to every stored game's state, version, status and result. For every
game with provably fair dice the seed must hash to its commitment and every logged roll must be the roll derived
from the seed and its counter (:mod:`club.dice`); a finished game's seed must be revealed. A game rolled with
:data:`~club.dice.RECIPE_V2` is checked with the client seeds its log records, and its commitment
must have been logged (in the challenge or the game before) before every one of them.

For each chouette (its series' recipes and client seeds likewise): the log runs seq 1, 2, 3 … without gaps and starts with its ``open``; replayed through the same
:class:`~club.chouette.table.ChouetteTable` code, it rebuilds exactly the stored state, status and game number;
``chouette_results`` holds exactly the sheet's rows (each game summing to zero, RULES C11); every dice series with
fair dice hashes to its commitment, every logged roll and throw is the one derived from its seed and counter, and a
finished game's (or a closed session's) seed is revealed.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from backgammon.errors import BackgammonError
from storage import ActionRecord, Database, GameRecord, MatchRecord, MatchRows, dumps
from storage.chouettes import ChouetteStore

from . import offload
from .beacon import CHAINS, BeaconError
from .chouette.table import member_id
from .chouette.table import replay as replay_chouette
from .commitments import BEACON, CLIENT_SEED, logged_contributions, luck_of, luck_problems, unused_series
from .dice import RECIPE, RECIPE_V3, DiceSource, seed_hash, verify_rolls
from .proof import chouette_members, chouette_recipes, chouette_rolls
from .states import StoredState, canonical, held_sheet_rows
from .table import GameStatus, TableAction, replay_log
from .vocabulary import ChouetteAction


@dataclass
class MatchReport:
    """The check of one match: ``problems`` in words (empty = sound), and what was checked."""

    match_id: int
    actions: int = 0
    games: int = 0
    proven_rolls: int = 0
    injected_games: int = 0
    problems: list[str] = field(default_factory=list)
    luck: list[str] = field(default_factory=list)
    """For each v3 series, whether each player's own luck protects him (set after the commitment), in words."""

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
    """Replay match ``match_id``'s log and compare with what is stored (see the module docstring). The event loop
    only reads the rows; the replay and the comparison run in the worker process (:mod:`club.offload`: a 300-game
    session's log is 30,000 actions)."""
    found = await db.match_rows(match_id, ("match", "actions", "games"))
    return await offload.run(check_match, match_id, found)


def check_match(match_id: int, found: MatchRows) -> MatchReport:
    """The check of :func:`verify_match` on the rows ``found`` points to (the match, its log and its games,
    :meth:`storage.Database.match_rows`). CPU work: run in the worker process."""
    report = MatchReport(match_id)
    rows = found.read()
    if not rows["match"]:
        report.problems.append("no such match")
        return report
    record = MatchRecord.from_row(rows["match"][0])
    actions = [ActionRecord.from_row(row) for row in rows["actions"]]
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
        "state": dumps(canonical(StoredState.MATCH, record.state, record)),
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
    games = [GameRecord.from_row(row) for row in rows["games"]]
    report.games = len(games)
    if sorted(g.number for g in games) != sorted(game_states):
        report.problems.append(
            f"stored games {sorted(g.number for g in games)} but the log has games {sorted(game_states)}"
        )
    # the log indexed once (not scanned again per game): each game's actions, its client seeds, and the first
    # action that published each commitment
    by_game: dict[int, list] = defaultdict(list)
    seeds: dict[int, list] = defaultdict(list)
    published: dict[str, Any] = {}
    beacons: dict[int, dict] = {}
    for action in actions:
        if action.kind == BEACON:
            beacons[action.args.get("game")] = action.args
        if action.game_number is not None:
            by_game[action.game_number].append(action)
        if action.kind == CLIENT_SEED:
            seeds[action.args.get("game")].append(action)
        for key in ("seed_hash", "next_seed_hash"):
            value = action.args.get(key)
            if isinstance(value, str) and value not in published:
                published[value] = action
    for game in games:
        related = ([published[game.seed_hash]] if game.seed_hash in published else []) + seeds[game.number]
        _check_game(report, game, game_states.get(game.number), counts.get(game.number, 0), by_game[game.number],
                    related, beacons.get(game.number))  # fmt: skip
    if table.finished:
        report.problems.extend(all_opened(actions, {g.seed_hash for g in games if g.seed_revealed}))
    return report


def all_opened(actions, revealed: set[str | None]) -> list[str]:
    """The problems of an ended table's commitments: each one published (``next_seed_hash``) must be opened — a
    series' seed revealed (``revealed``: their commitments) or an ``unused_seed`` action whose seed hashes to it."""
    unused = unused_series(actions)
    problems = [f"unused game {n}: its revealed seed does not hash to its commitment {commitment}"
                for n, (commitment, seed) in unused.items() if seed_hash(bytes.fromhex(seed)) != commitment]  # fmt: skip
    opened = revealed | {commitment for commitment, _ in unused.values()}
    for action in actions:
        commitment = action.args.get("next_seed_hash")
        if isinstance(commitment, str) and commitment not in opened:
            problems.append(f"the commitment {commitment} published at seq {action.seq} was never opened")
    return problems


def _check_game(report: MatchReport, game, state, count: int, actions, related, beacon=None) -> None:
    """Check stored ``game`` against the ``state`` the log rebuilds, its ``count`` of logged actions, its own
    ``actions`` (those of its game number) and the ``related`` ones (the action that published its commitment, then
    its client seeds, in log order)."""
    label = f"game {game.number}"
    if state is None:
        return
    if dumps(canonical(StoredState.GAME, game.state)) != dumps(state):
        report.problems.append(f"{label}: the stored state differs from the state the log rebuilds")
    if game.version != count:
        report.problems.append(f"{label}: version {game.version} but {count} logged actions")
    over = state["result"] is not None
    expected = GameStatus.OVER if over else GameStatus.PLAYING
    if game.status != expected:
        report.problems.append(f"{label}: status {game.status!r} but the log says {expected}")
    if dumps(game.result) != dumps(state["result"]):
        report.problems.append(f"{label}: stored result {game.result} but the log gives {state['result']}")
    rolls = [(a.roll_index, a.dice) for a in actions if a.dice is not None]
    starts = [a for a in actions if a.kind == TableAction.NEW_GAME]
    if starts and starts[0].args.get("seed_hash") != game.seed_hash:
        report.problems.append(f"{label}: the commitment in the log differs from the stored one")
    if game.rolls != len(rolls):
        report.problems.append(f"{label}: roll counter {game.rolls} but {len(rolls)} logged rolls")
    if game.dice == DiceSource.INJECTED:
        report.injected_games += 1
        return
    if game.seed is None or game.seed_hash is None:
        report.problems.append(f"{label}: fair dice without a seed or commitment")
        return
    recipe = starts[0].args.get("recipe", RECIPE) if starts else RECIPE
    named = starts[0].args.get("beacon") if starts else None
    contributions, randomness = _claims(report, label, related, game.number, game.seed_hash, recipe, named, beacon,
                                        bool(rolls))  # fmt: skip
    if recipe == RECIPE_V3:
        report.luck.append(f"{label}: {protection_words(related, game.number, {0: 'side 0', 1: 'side 1'})}")
    _prove(report, label, game.seed, game.seed_hash, rolls, over and not game.seed_revealed, recipe, contributions,
           randomness)  # fmt: skip


def protection_words(actions, number: int, players: dict[int, str]) -> str:
    """Whether each of ``players`` (who → label: a match's sides, a chouette's member ids) is protected by his own
    luck in v3 series ``number`` of ``actions`` (luck set after the commitment), in words."""
    safe = {who for who, _at, protected, _ in luck_of(actions, number) if protected}
    return "; ".join(f"{label} {'protected by their own luck' if who in safe else 'added no luck after the commitment'}"
                     for who, label in players.items()) or "no players named"  # fmt: skip


def _claims(report: MatchReport, label: str, actions, number: int, commitment: str | None, recipe: str,
            named: dict | None, beacon: dict | None, rolled: bool) -> tuple[list, str | None]:  # fmt: skip
    """Check what a series' proof claims besides its rolls (RULES A1) and return ``(its client seeds, its beacon
    randomness)``: the commitment was published before any client seed; no v3 luck is shown as protection that
    was set before the commitment; the beacon round logged (``beacon``) is the one its starting action ``named``,
    due for its start and signed by the network; a series whose start named a round has no roll without it
    (``rolled``). ``actions``: those holding its commitment and client seeds."""
    contributions = logged_contributions(actions, number) if recipe != RECIPE else []
    problems = commitment_first(actions, number, commitment) if contributions else []
    if recipe == RECIPE_V3:
        problems += luck_problems(actions, number, commitment)
    if beacon is not None:
        problems += [problem] if (problem := beacon_problem(beacon)) else []
        if named is not None and named.get("round") != beacon.get("round"):
            problems.append(f"beacon round {beacon.get('round')} is not the one named at its start ({named['round']})")
    elif named is not None and rolled:
        problems.append(f"rolled without the beacon round named at the start ({named.get('round')})")
    report.problems.extend(f"{label}: {problem}" for problem in problems)
    return contributions, None if beacon is None else beacon.get("randomness")


def beacon_problem(args: dict) -> str | None:
    """What is wrong with a logged beacon round (``beacon`` action args), or None: its chain must be known, its round
    the one due for the game's start, its signature the network's, its randomness SHA-256 of the signature."""
    chain = CHAINS.get(args.get("chain", ""))
    if chain is None:
        return f"beacon chain {args.get('chain')!r} is not one this bot knows ({', '.join(CHAINS)})"
    if args["round"] != chain.round_due(args["start_ms"]):
        return f"beacon round {args['round']} is not the one due ({chain.round_due(args['start_ms'])})"
    try:
        if chain.verify(args["round"], args["signature"]) != args["randomness"]:
            return "the beacon randomness is not SHA-256 of its signature"
    except BeaconError as error:
        return str(error)
    return None


def commitment_first(actions, number: int, commitment: str | None, subject: str = "game") -> list[str]:
    """The problems with the order of game (or series) ``number``'s commitment and its client seeds in the log:
    ``commitment`` must appear in an action's args (``seed_hash`` / ``next_seed_hash``) strictly
    before the first ``client_seed`` action for it."""
    published = next((a.seq for a in actions if commitment and commitment in (a.args.get("seed_hash"),
                      a.args.get("next_seed_hash"))), None)  # fmt: skip
    seeds = [a.seq for a in actions if a.kind == CLIENT_SEED and a.args.get(subject) == number]
    if published is None:
        return ["its commitment is nowhere in the log"]
    if seeds and min(seeds) <= published:
        return [f"a client seed (seq {min(seeds)}) was fixed before the commitment was published (seq {published})"]
    return []


def _prove(
    report: MatchReport,
    label: str,
    seed,
    commitment,
    rolls,
    unrevealed: bool,
    recipe: str = RECIPE,
    contributions=(),
    beacon: str | None = None,
) -> None:
    """Check one fair dice series (a game's, or a chouette's series) against its commitment and count its proven
    rolls (RULES A1, :func:`club.dice.verify_rolls` by ``recipe`` with the client seeds ``contributions``);
    ``unrevealed``: it is over but the seed was not revealed."""
    if unrevealed:
        report.problems.append(f"{label}: over but its seed was not revealed")
    problems = verify_rolls(seed, commitment, rolls, recipe=recipe, contributions=contributions, beacon=beacon)
    report.problems.extend(f"{label}: {problem}" for problem in problems)
    if not problems:
        report.proven_rolls += len(rolls)


async def verify_database(db: Database) -> list[MatchReport]:
    """:func:`verify_match` for every stored match, then :func:`verify_chouette` for every chouette session, plus
    ``PRAGMA integrity_check`` (reported on a pseudo-match 0 when it fails)."""
    reports = []
    integrity = await db.integrity_check()
    if integrity != ["ok"]:
        reports.append(MatchReport(0, problems=[f"integrity: {line}" for line in integrity]))
    for match_id in await db.match_ids():
        reports.append(await verify_match(db, match_id))
    reports.extend(await verify_chouettes(db))
    return reports


# -- chouettes ------------------------------------------------------------------------------------------------------
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
        table = await asyncio.to_thread(replay_chouette, actions)  # off the event loop (a long log takes seconds)
    except (BackgammonError, KeyError, TypeError, ValueError) as error:
        report.problems.append(f"the log does not replay: {error}")
        return report
    if dumps(table.to_json()) != dumps(canonical(StoredState.CHOUETTE, record.state)):
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
    await _check_sheet(store, record, sheet.rows, report)
    sums: dict[int, int] = defaultdict(int)
    for game, _member, points, _stake in stored:
        sums[game] += points
    report.problems.extend(f"game {g} results sum to {s}, not zero (RULES C11)" for g, s in sorted(sums.items()) if s)
    await _check_dice(store, session_id, actions, table, report)
    return report


async def _check_sheet(store: ChouetteStore, record, replayed, report: ChouetteReport) -> None:
    """Every finished game's sheet row is stored (``chouette_sheet``, or still in a state of an older format) and
    says what the replayed log says (crossing through is derived when shown, so it is not compared)."""

    def bare(row: dict) -> dict:
        return {key: value for key, value in row.items() if key != "crossed"}

    stored = {row["game"]: bare(row) for row in await store.sheet(record.id)}
    held = {game for game, _ in held_sheet_rows(record.state) or ()}
    for row in replayed:
        if row.game in stored:
            if stored[row.game] != bare(row.to_json()):
                report.problems.append(f"game {row.game}: the stored sheet row differs from the log's")
        elif row.game not in held:
            report.problems.append(f"game {row.game}: its sheet row is not stored")
    extra = sorted(set(stored) - {row.game for row in replayed})
    if extra:
        report.problems.append(f"sheet rows of games the log does not finish: {extra[:6]}")


async def _check_dice(store: ChouetteStore, session_id: int, actions, table, report: ChouetteReport) -> None:
    rolls = chouette_rolls(actions)
    finished = {row.game for row in table.session.sheet().rows}
    if table.finished:
        revealed = {series.seed_hash for series in (await store.dice(session_id)).values() if series.seed_revealed}
        report.problems.extend(all_opened(actions, revealed))
    recipes = chouette_recipes(actions)
    beacons = {a.args.get("game"): a.args for a in actions if a.kind == BEACON}
    named = {(a.args["number"] if a.kind == ChouetteAction.START_GAME else 0): a.args.get("beacon")
             for a in actions if a.kind in (ChouetteAction.START_GAME, ChouetteAction.SEAT_CALL)}  # fmt: skip
    for number, series in (await store.dice(session_id)).items():
        label = "seating dice" if number == 0 else f"game {number} dice"
        logged = rolls.get(number, [])
        if series.rolls != len(logged):
            report.problems.append(f"{label}: roll counter {series.rolls} but {len(logged)} logged rolls")
        if series.dice == DiceSource.INJECTED:
            report.injected_games += 1
            continue
        due = number in finished if number else table.finished
        recipe = recipes.get(number, RECIPE)
        contributions, randomness = _claims(report, label, actions, number, series.seed_hash, recipe,
                                            named.get(number), beacons.get(number), bool(logged))  # fmt: skip
        if recipe == RECIPE_V3:
            players = {member: f"member {member}" for member in chouette_members(actions, number)}
            report.luck.append(f"{label}: {protection_words(actions, number, players)}")
        _prove(report, label, series.seed, series.seed_hash, logged, due and not series.seed_revealed, recipe,
               contributions, randomness)  # fmt: skip


async def verify_chouettes(db: Database) -> list[ChouetteReport]:
    """:func:`verify_chouette` for every stored chouette session."""
    store = ChouetteStore(db)
    return [await verify_chouette(db, session_id) for session_id in await store.session_ids()]
