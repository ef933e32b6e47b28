"""Benchmark of the use-case layer on a file database (no rendering).

Prints:
1. per-turn latency of club/ calls (roll, play, double, take, drop …: load, apply, append to the log, save) while
   playing whole games with random legal decisions — median, p90, p99, max;
2. the time of "games waiting for me" (``ClubService.waiting``) with 10,000 stored games;
3. the process's memory (resident set) with 1,000 games in progress.

Targets (issue "Durable asynchronous games"): ≤ 10 ms median per turn, ≤ 20 ms for the query, < 200 MB.

Run: ``python bench/turns.py [--stored 10000] [--in-progress 1000] [--turns 3000] [--synchronous NORMAL|FULL]
[--db PATH]``. The database goes to a temporary folder unless ``--db`` is given. A "play" turn is timed as a
front end does it: list the legal plays, then play one (two calls).
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

from club import ClubService  # noqa: E402
from storage import Database  # noqa: E402

GUILD = 1


def rss_mb() -> float:
    """Current resident set size of this process in MB (Linux /proc), else the peak from getrusage."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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

        # 1. per-turn latency -----------------------------------------------------------------------------------------
        timings: dict[str, list[float]] = {}
        turns = 0
        while turns < args.turns:
            a, b = rng.sample(members, 2)
            challenge = await service.challenge(GUILD, a, b, length=rng.choice([0, 3, 5]))
            outcome = await service.accept(challenge.match_id, b)
            for _ in range(400):
                if outcome.view.status != "active" or turns >= args.turns:
                    break
                started = time.perf_counter()
                outcome = await decide(service, outcome.view, rng, cube=0.1)
                elapsed = (time.perf_counter() - started) * 1000
                kind = outcome.events[0].kind if outcome.events else "?"
                timings.setdefault(kind, []).append(elapsed)
                turns += 1
        everything = [t for values in timings.values() for t in values]
        print(f"database: {path} (synchronous={args.synchronous})")
        print(f"per-turn latency over {len(everything)} calls through club/ (ms):")
        print(
            f"  all      median {statistics.median(everything):6.2f}  p90 {percentile(everything, 0.9):6.2f}  "
            f"p99 {percentile(everything, 0.99):6.2f}  max {max(everything):6.2f}"
        )
        for kind, values in sorted(timings.items(), key=lambda item: -len(item[1])):
            print(
                f"  {kind:<8} median {statistics.median(values):6.2f}  p90 {percentile(values, 0.9):6.2f}  "
                f"(n={len(values)})"
            )

        # 2. stored games and the "waiting for me" query --------------------------------------------------------------
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
            f"max {max(query_times):.2f} ms ({statistics.mean(sizes):.0f} games listed on average)"
        )

        # 3. memory with games in progress ---------------------------------------------------------------------------
        active = await db.match_ids(["active"])
        in_progress = rng.sample(active, min(args.in_progress, len(active)))
        for match_id in in_progress:  # touch every game in progress once more, as a busy club would
            view = await service.state(match_id)
            if view.waiting_for is not None:
                await decide(service, view, rng, cube=0.1)
        print(f"memory with {len(in_progress)} games in progress (all touched): {rss_mb():.1f} MB resident")
    folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stored", type=int, default=10_000)
    parser.add_argument("--in-progress", type=int, default=1_000)
    parser.add_argument("--turns", type=int, default=3_000)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--synchronous", default="FULL")
    parser.add_argument("--db", default=None)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
