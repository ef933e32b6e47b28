"""Benchmark of the club records over many stored games (issue "Club records").

Stores ``--games`` finished games (default 10,000: money sessions with stakes, matches, chouettes; 40 members over
a year) straight through the storage functions (``tests/bookkit.py``: no playing), then times, through the
use-cases of :class:`club.records.ClubRecords`:

- the ledger (all time, a month, a week), settle-up (all time, a month),
- the leaderboards (money, matches, chouette), a member's statistics, a score sheet and the ledger's picture.

Target: ledger, settle-up and leaderboard ≤ 100 ms each (median). Prints the medians and p90 in ms.

Run: ``python bench/records.py [--games 10000] [--repeat 15] [--db PATH]``.
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

from bookkit import store_chouette, store_table  # noqa: E402

from club import ClubService, ManualClock  # noqa: E402
from club.records import ClubRecords, pictures  # noqa: E402
from storage import Database  # noqa: E402

GUILD = 1
MEMBERS = list(range(1001, 1041))
YEAR = 365 * 86400.0
START = 1_700_000_000.0


async def fill(db: Database, service: ClubService, games: int, rng: random.Random) -> tuple[dict[str, int], float]:
    """Store about ``games`` finished games over a year; returns how many of each kind and the last game's time."""
    for member in MEMBERS:
        await service.register(GUILD, member, f"Member {member}")
    club_id = (await db.get_club(GUILD)).id
    counts = {"money": 0, "match": 0, "chouette": 0}
    at = START
    while sum(counts.values()) < games:
        at += rng.uniform(0, YEAR / games * 10)  # tables hold about five games each
        kind = rng.choices(["money", "match", "chouette"], [5, 3, 2])[0]
        if kind == "chouette":
            players = rng.sample(MEMBERS, rng.randint(3, 6))
            rows = []
            for n in range(rng.randint(3, 12)):
                box, *team = players
                points = {m: rng.choice([-2, -1, 1, 1, 2, 4]) for m in team}
                points[box] = -sum(points.values())
                rows.append((points, at + 600 * n))
            await store_chouette(db, club_id, players[0], rows, stake=rng.choice([1, 2, 5]))
            counts["chouette"] += len(rows)
            continue
        players = tuple(rng.sample(MEMBERS, 2))
        length = 0 if kind == "money" else rng.choice([1, 3, 5, 7])
        n_games = rng.randint(1, 10) if kind == "money" else rng.randint(1, max(1, length))
        results = [
            (rng.randint(0, 1), rng.choice([1, 1, 2, 2, 4]), at + 300 * n, rng.choice(["single", "gammon"]),
             rng.choice([1, 2, 4]))
            for n in range(n_games)
        ]  # fmt: skip
        stake = rng.choice([0, 1, 5, 10]) if kind == "money" else 0
        await store_table(db, club_id, players, results, length=length, stake=stake)
        counts[kind] += n_games
    return counts, at


async def timed(call, repeat: int) -> list[float]:
    """Milliseconds of ``repeat`` awaits of ``call()``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return times


async def main(args: argparse.Namespace) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(args.db) if args.db else Path(folder) / "records.sqlite3"
        async with Database.open(path, synchronous="OFF") as db:
            clock = ManualClock(START)
            service = ClubService(db, clock=clock)
            started = time.perf_counter()
            counts, last = await fill(db, service, args.games, rng)
            clock.set(last + 3600)
            total = sum(counts.values())
            print(f"stored {total} finished games {counts} in {time.perf_counter() - started:.1f} s")
            records = ClubRecords(service)
            ledger = await records.ledger(GUILD, "all")
            member = MEMBERS[0]
            sheet = (await records.sessions(GUILD, limit=1))[0]
            checks = {
                "ledger all time": lambda: records.ledger(GUILD, "all"),
                "ledger last month": lambda: records.ledger(GUILD, "last month"),
                "ledger last week": lambda: records.ledger(GUILD, "last week"),
                "settle-up all time": lambda: records.settle(GUILD, "all"),
                "settle-up last month": lambda: records.settle(GUILD, "last month"),
                "leaderboard money": lambda: records.leaderboard(GUILD, "money"),
                "leaderboard matches": lambda: records.leaderboard(GUILD, "matches"),
                "leaderboard chouette": lambda: records.leaderboard(GUILD, "chouette"),
                "member statistics": lambda: records.stats(GUILD, member),
                "score sheet": lambda: records.sheet(GUILD, f"{sheet.source}:{sheet.id}"),
                "ledger picture (PNG)": lambda: pictures.png_async(pictures.ledger_table(ledger)),
            }
            assert ledger.is_zero_sum(), ledger.column_totals()
            month = await records.ledger(GUILD, "last month")
            print(f"ledger: {len(ledger.lines)} members, zero-sum in every column; last month is {month.period.label}")
            worst = 0.0
            for name, call in checks.items():
                times = sorted(await timed(call, args.repeat))
                median = statistics.median(times)
                p90 = times[int(0.9 * (len(times) - 1))]
                if name.startswith(("ledger all", "ledger last", "settle", "leaderboard")):
                    worst = max(worst, median)
                print(f"  {name:<24} median {median:7.2f} ms   p90 {p90:7.2f} ms")
            verdict = "within" if worst <= 100 else "OVER"
            print(f"slowest of ledger / settle-up / leaderboard: {worst:.2f} ms median ({verdict} the 100 ms budget)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--db", help="keep the database at this path")
    asyncio.run(main(parser.parse_args()))
