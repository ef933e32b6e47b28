"""Benchmark: the turn of a money session at game 1, 100 and 300 (issue 13, Must show).

Builds each session as ``bench/loop_lag.py`` does (three games played for real through ``club/``, the log repeated to
``N`` games and replayed once to store the state it gives), then plays ``--turns`` turns of the next game with random
legal decisions through ``ClubService`` and prints the median and p90 per turn. Target: game 300 within 10 % of game 1.

Run: ``python bench/session_turns.py [--games 1 100 300] [--turns 150]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from clubkit import decide  # noqa: E402
from loop_lag import lengthen, played, store_state  # noqa: E402

from club import ClubService, ManualClock  # noqa: E402
from storage import Database  # noqa: E402


async def turns_at(folder: Path, games: int, turns: int) -> list[float]:
    """Milliseconds of ``turns`` turns played after ``games`` finished games of one session."""
    path = folder / f"s{games}.sqlite3"
    match_id = await played(path, min(games, 3))
    if games > 3:
        lengthen(path, match_id, 3, games)
    async with Database.open(path) as db:
        if games > 3:
            await store_state(db, match_id)
        service = ClubService(db, clock=ManualClock(1_800_000_000.0))
        view = await service.state(match_id)
        rng = random.Random(games)
        print(
            f"  (session {games}: {view.status}, waiting for {view.waiting_for}, {view.pending}, game {view.game_number})"
        )
        times = []
        while len(times) < turns and view.status == "active" and view.waiting_for is not None:
            started = time.perf_counter()
            outcome = await decide(service, view, rng, cube=0.05)
            times.append((time.perf_counter() - started) * 1000)
            view = outcome.view
        return times


async def main(args) -> None:
    with tempfile.TemporaryDirectory() as folder:
        medians = {}
        for games in args.games:
            times = sorted(await turns_at(Path(folder), games, args.turns))
            medians[games] = statistics.median(times)
            print(f"  after {games:>3} games: median {medians[games]:6.2f} ms, p90 {times[int(0.9 * (len(times) - 1))]:6.2f}"
                  f" ms ({len(times)} turns)")  # fmt: skip
        first, last = medians[args.games[0]], medians[args.games[-1]]
        ratio = last / first
        print(
            f"game {args.games[-1]} / game {args.games[0]}: {ratio:.2f} ({'within' if ratio <= 1.1 else 'OVER'} 1.10)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 100, 300])
    parser.add_argument("--turns", type=int, default=150)
    asyncio.run(main(parser.parse_args()))
