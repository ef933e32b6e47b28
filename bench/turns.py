"""Benchmark: the cost of one action at any session length, through ``club/``.

1. **Money session:** the turn at game 1, 100 and 300. Each session is built as ``bench/loop_lag.py`` does it (three
   games played for real, the log repeated to ``N − 1`` finished games and replayed once to store the state it
   gives; game 1 is a fresh session), then ``--turns`` turns of each game are played with random legal decisions
   through :class:`club.ClubService` (load, check, apply, log, save; the engine's legal plays for a play), one turn
   of each session in turn, so that other work on the machine weighs on every game alike.
2. **Chouette of five members:** a decision (roll, play, cube action of the Box, Captain or a Team member) in game 1
   and in game 50 of one session played for real through :class:`club.chouette.ChouetteService` (random legal
   decisions, fair dice), with the size of its stored hot state at each game.

It runs as the bot does: SQLite with the bot's ``[storage] synchronous`` (FULL unless configured), the start-up heap
settled (:func:`botapp.heap.settle_heap`). Each action is timed in CPU time (the process's, the database thread's
included) and in wall time; the verdicts are on CPU time, which other work on a shared machine does not stretch.

Targets: the money turn at game 300 within 10 % of game 1; the chouette decision at game 50 within 20 % of game 1 —
compared at the first game's mix of kinds of turn (:func:`same_mix`: each kind's median weighted by its count in the
first game). Prints medians and p90 in ms, each kind's median, the ratios and verdicts. The front end's part (the cog and the board image) is
``bench/turn_e2e.py``.

Run: ``python -m bench.turns [--games 1 100 300] [--turns 150] [--chouette-games 50]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path

from bench.loop_lag import lengthen, played, store_state
from botapp.heap import settle_heap
from botapp.settings import Settings
from club import ClubService, ManualClock
from club.chouette import ChouetteService
from storage import Database
from tests.chouette_clubkit import decide_randomly
from tests.clubkit import decide, seeded

GUILD = 1
MONEY_TARGET = 1.10
CHOUETTE_TARGET = 1.20
MEMBERS = (21, 22, 23, 24, 25)
SYNCHRONOUS = Settings.synchronous
"""The bot's own durability setting (its default)."""


class Timer:
    """Times one action in CPU and wall milliseconds: ``with timer.time(kind):``; ``cpu`` and ``wall`` map each kind
    to its times."""

    def __init__(self) -> None:
        self.cpu: dict[str, list[float]] = {}
        self.wall: dict[str, list[float]] = {}

    @contextmanager
    def time(self, kind: str):
        """Add the CPU and wall milliseconds of the block to ``kind``."""
        cpu, wall = time.process_time(), time.perf_counter()
        yield
        self.cpu.setdefault(kind, []).append((time.process_time() - cpu) * 1000)
        self.wall.setdefault(kind, []).append((time.perf_counter() - wall) * 1000)


def summary(times: list[float]) -> tuple[float, float]:
    """(median, p90) of ``times``."""
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def same_mix(first: dict[str, list[float]], later: dict[str, list[float]]) -> float:
    """``later``'s cost over ``first``'s at ``first``'s mix of kinds (each kind's median weighted by how many of that
    kind ``first`` has): games differ in how many plays, rolls and cube actions they hold, and a play (the legal
    plays listed) costs more than a roll, so raw medians of two games compare mixes as much as costs."""
    common = [kind for kind in first if kind in later]
    weight = {kind: len(first[kind]) for kind in common}
    return sum(weight[k] * statistics.median(later[k]) for k in common) / sum(
        weight[k] * statistics.median(first[k]) for k in common
    )


def kinds_text(by_kind: dict[str, list[float]]) -> str:
    """``play 9.1 (n=40), roll 5.0 (n=30)``: each kind's median in ms and count."""
    return ", ".join(f"{kind} {statistics.median(t):.1f} (n={len(t)})" for kind, t in sorted(by_kind.items()))


def game_line(game: int, by_kind: dict[str, list[float]], what: str, digits: int = 2, extra: str = "") -> str:
    """One game's line of a report: median and p90 in ms of all its ``what`` (turns, decisions), ``extra`` (e.g. the
    stored state's size), then :func:`kinds_text`."""
    every = [t for times in by_kind.values() for t in times]
    median, p90 = summary(every)
    return (f"   game {game:>3}: median {median:6.{digits}f} ms, p90 {p90:6.{digits}f} ms ({len(every)} {what}); "
            f"{extra}by kind: {kinds_text(by_kind)}")  # fmt: skip


def ratio_line(first: int, last: int, ratio: float, target: float, what: str) -> str:
    """The verdict line: game ``last`` over game ``first`` at game ``first``'s mix of ``what``, against ``target``."""
    verdict = "within" if ratio <= target else "OVER"
    return f"   game {last} / game {first} at game {first}'s mix of {what}: {ratio:.2f} ({verdict} the target {target:.2f})"


async def money_turns(folder: Path, games: list[int], turns: int) -> dict[int, Timer]:
    """CPU and wall milliseconds of ``turns`` turns of each game of ``games``, each in a money session of its own
    (``game − 1`` games finished), by what the turn was (the pending decision: ``roll_or_double``, ``play``,
    ``answer_double`` …). The sessions' turns are taken in turn, one of each, so that other work on the machine
    weighs on every game alike."""
    async with AsyncExitStack() as stack:
        sessions = {}
        for game in games:
            path = folder / f"money{game}.sqlite3"
            finished = game - 1
            match_id = await played(path, min(finished, 3))
            if finished > 3:
                lengthen(path, match_id, 3, finished)
            db = await stack.enter_async_context(Database.open(path, synchronous=SYNCHRONOUS))
            if finished > 3:
                await store_state(db, match_id)
            service = ClubService(db, clock=ManualClock(1_800_000_000.0))
            view = await service.state(match_id)
            assert view.game_number == game, (view.game_number, game)
            sessions[game] = (service, view, random.Random(game))
        timers = {game: Timer() for game in games}
        for _ in range(turns):
            for game, (service, view, rng) in sessions.items():
                if view.status != "active" or view.waiting_for is None:
                    continue
                with timers[game].time(view.pending):
                    outcome = await decide(service, view, rng, cube=0.05)
                sessions[game] = (service, outcome.view, rng)
        return timers


async def chouette_decisions(folder: Path, games: int, per_game: int) -> dict[int, tuple[Timer, int]]:
    """One chouette of five members played to game ``games``: ``{game: (the CPU and wall ms of up to per_game
    decisions, stored state bytes)}`` for game 1 and game ``games`` (the games between are played as fast as
    possible, untimed)."""
    path = folder / "chouette.sqlite3"
    clock = ManualClock(1_800_000_000.0)
    rng = random.Random(9)
    out: dict[int, tuple[Timer, int]] = {}
    async with Database.open(path, synchronous=SYNCHRONOUS) as db:
        service = ClubService(db, clock=clock, seeds=seeded(9))
        for member in MEMBERS:
            await service.register(GUILD, member, f"Member {member}")
        chouettes = ChouetteService(service)
        outcome = await chouettes.start(GUILD, 777, MEMBERS[0])
        for member in MEMBERS[1:]:
            outcome = await chouettes.join(outcome.session_id, member)
        outcome = await chouettes.seat(outcome.session_id, MEMBERS[-1])
        session_id = outcome.session_id
        started_at = time.perf_counter()
        while outcome.view.game_number <= games:
            game = outcome.view.game_number
            timer = out.get(game, (Timer(), 0))[0]
            timed = game in (1, games) and sum(map(len, timer.cpu.values())) < per_game
            kind = outcome.view.decisions[0].pending
            clock.advance(rng.uniform(3, 40))
            if timed:
                with timer.time(kind):
                    outcome = await decide_randomly(chouettes, outcome, rng, double=0.1)
                row = await db.store.row(("chouette", session_id))
                out[game] = (timer, len(row["state"]))
            else:
                outcome = await decide_randomly(chouettes, outcome, rng, double=0.1)
            if game != outcome.view.game_number and game % 10 == 0:
                print(f"    (chouette game {game} done after {time.perf_counter() - started_at:.0f} s)")
    return out


async def main(args) -> int:
    ok = True
    settle_heap()  # the bot's heap: its start-up objects frozen, the young generation's threshold raised
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(f"synchronous={SYNCHRONOUS}, heap settled; load average {os.getloadavg()[0]:.1f}")
        print(f"1. money session, {args.turns} turns of each game (CPU ms per turn through ClubService; wall below):")
        found = await money_turns(folder, args.games, args.turns)
        for game in args.games:
            print(game_line(game, found[game].cpu, "turns"))
            print(f"      wall: {game_line(game, found[game].wall, 'turns').strip()}")
        first, last = args.games[0], args.games[-1]
        ratio = same_mix(found[first].cpu, found[last].cpu)
        ok &= ratio <= MONEY_TARGET
        print(ratio_line(first, last, ratio, MONEY_TARGET, "turns") + " in CPU time; in wall time "
              f"{same_mix(found[first].wall, found[last].wall):.2f}")  # fmt: skip
        last = args.chouette_games
        print(f"2. chouette of {len(MEMBERS)} members played to game {last} (CPU ms per decision through "
              f"ChouetteService):")  # fmt: skip
        chouette = await chouette_decisions(folder, last, args.turns)
        for game in (1, last):
            timer, size = chouette[game]
            print(game_line(game, timer.cpu, "decisions", extra=f"stored state {size / 1000:.1f} KB; "))
        ratio = same_mix(chouette[1][0].cpu, chouette[last][0].cpu)
        ok &= ratio <= CHOUETTE_TARGET
        print(ratio_line(1, last, ratio, CHOUETTE_TARGET, "decisions") + " in CPU time; in wall time "
              f"{same_mix(chouette[1][0].wall, chouette[last][0].wall):.2f}")  # fmt: skip
        print(f"load average {os.getloadavg()[0]:.1f}")
    print("all targets met" if ok else "some targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 100, 300])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--chouette-games", type=int, default=50)
    sys.exit(asyncio.run(main(parser.parse_args())))
