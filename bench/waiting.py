"""Benchmark: "games waiting for me" (``ClubService.waiting``) with 10,000 stored matches and sessions.

Stores ``--stored`` challenges (most accepted: games in progress) among ``--members`` members in a file database
and times the query for 50 members. Target: ≤ 20 ms. (The cost of a turn at
any session length is ``bench/turns.py``; memory with 1,000 games acting at once is ``bench/load.py``.)

Run: ``python -m bench.waiting [--stored 10000] [--members 200] [--synchronous NORMAL|FULL] [--db PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from club import ClubService
from storage import Database

GUILD = 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def bench(args) -> None:
    folder = tempfile.TemporaryDirectory()
    path = Path(args.db) if args.db else Path(folder.name) / "bench.sqlite"
    rng = random.Random(1)
    async with Database.open(path, synchronous=args.synchronous) as db:
        service = ClubService(db)
        members = list(range(1000, 1000 + args.members))
        for user in members:
            await service.register(GUILD, user, f"member {user}")

        # stored games and the "waiting for me" query --------------------------------------------------------------
        started = time.perf_counter()
        stored = len(await db.match_ids())
        while stored < args.stored:
            a, b = rng.sample(members, 2)
            challenge = await service.challenge(GUILD, a, b, length=rng.choice([0, 1, 3, 5, 7]))
            if rng.random() < 0.8:
                await service.accept(challenge.match_id, b)
            stored += 1
        print(f"stored {stored} matches/sessions in {time.perf_counter() - started:.1f} s")
        query_times = []
        sizes = []
        for member in rng.sample(members, min(50, len(members))):
            started = time.perf_counter()
            waiting = await service.waiting(member)
            query_times.append((time.perf_counter() - started) * 1000)
            sizes.append(len(waiting))
        print(
            f"games waiting for me with {stored} stored: median {statistics.median(query_times):.2f} ms, "
            f"max {max(query_times):.2f} ms ({statistics.mean(sizes):.0f} games listed on average; target 20 ms: "
            f"{'within' if statistics.median(query_times) <= 20 else 'OVER'})"
        )

    folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stored", type=int, default=10_000)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--synchronous", default="FULL")
    parser.add_argument("--db", default=None)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
