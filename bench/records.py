"""Benchmark of the club records over many stored games with realistic rows.

Plays ``--tables`` distinct tables (default 500: money sessions, matches and chouettes) for real through ``club/``
once (``bench/records_rows.py``), then copies their rows — game states, whole action logs, results, dice — under
new ids until ``--games`` finished games (default 10,000 and 50,000) are stored for ``--members`` members (default
200) over a year, and times through the use-cases of :class:`club.records.ClubRecords`:

- the ledger (all time, a month, a week), settle-up (all time, a month),
- the leaderboards (money, matches, chouette), a member's statistics, a score sheet, the ledger's picture,
- the export of the books (``export_books``, a ZIP) of last month and of all time, in seconds per 10,000 games of
  the period (the match files are those kept when each table ended) — wall time, and the CPU time of all the
  process's threads beside it (the machine may be shared) — and the event loop's worst lag meanwhile.

Targets: ledger, settle-up, leaderboard and member statistics ≤ 50 ms each (median) at 50,000 games and 200
members; the export ≤ 2 s per 10,000 games, with nothing left out. Prints the data (how many distinct played tables,
how many copies of each), the medians and p90 in ms and the verdicts.

Run: ``python -m bench.records [--games 10000 50000] [--tables 500] [--members 200] [--repeat 9] [--db PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.records_rows import GUILD, play_templates, replicate
from club import ClubService, ManualClock
from club.records import ClubRecords, export_books, pictures
from storage import Database, tallies

YEAR = 365 * 86400.0
START = 1_700_000_000.0
TARGET_MS = 50.0
EXPORT_TARGET_S = 2.0
BUDGETED = ("ledger", "settle-up", "leaderboard", "member statistics")


async def timed(call, repeat: int) -> list[float]:
    """Milliseconds of ``repeat`` awaits of ``call()``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return times


async def ticker(lags: list[float], tick: float = 0.005) -> None:
    """Append to ``lags`` how late (ms) each ``tick``-second sleep wakes up, until cancelled."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(tick)
        lags.append((time.perf_counter() - started - tick) * 1000)


async def run(folder: Path, templates, games: int, members: list[int], repeat: int, db_path: str | None) -> bool:
    """Build a database of ``games`` games and time the records on it; returns whether every target was met."""
    path = Path(db_path) if db_path else folder / f"records-{games}.sqlite3"
    path.unlink(missing_ok=True)
    async with Database.open(path, synchronous="OFF") as db:
        service = ClubService(db, clock=ManualClock(START))
        for member in members:
            await service.register(GUILD, member, f"Member {member}")
    started = time.perf_counter()
    counts = replicate(path, templates, games, members, start=START, year=YEAR)
    async with Database.open(path, synchronous="OFF") as db:
        await tallies.rebuild(db)  # the copies' running totals, as the schema 4 migration writes them
        built = time.perf_counter() - started
        rows = {table: (await db._fetchone(f"SELECT count(*) FROM {table}"))[0]
                for table in ("matches", "games", "actions", "chouette_results")}  # fmt: skip
        size = (await db._fetchone("SELECT avg(length(state)) FROM games"))[0]
        print(f"\n== {sum(counts.values())} finished games {counts}, {len(members)} members: built in {built:.1f} s")
        print(f"   rows {rows}; average game state {size:.0f} bytes")
        clock = ManualClock(START + YEAR + 3600)
        service = ClubService(db, clock=clock)
        records = ClubRecords(service)
        ledger = await records.ledger(GUILD, "all")
        assert ledger.is_zero_sum(), ledger.column_totals()
        member = max(ledger.lines, key=lambda line: line.games).member
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
        worst = 0.0
        for name, call in checks.items():
            times = sorted(await timed(call, repeat))
            median = statistics.median(times)
            p90 = times[int(0.9 * (len(times) - 1))]
            if name.startswith(BUDGETED) and "picture" not in name:
                worst = max(worst, median)
            print(f"  {name:<24} median {median:8.2f} ms   p90 {p90:8.2f} ms")
        ok = worst <= TARGET_MS
        print(f"  slowest of ledger / settle-up / leaderboard / member statistics: {worst:.2f} ms median "
              f"({'within' if ok else 'OVER'} the {TARGET_MS:.0f} ms target)")  # fmt: skip
        results = []
        complete = True
        for label in ("last month", "all"):
            chosen = await records.period(GUILD, label)
            low, high = chosen.start or 0.0, chosen.end or float("inf")
            in_period = (await db._fetchone(
                "SELECT (SELECT count(*) FROM games WHERE status = 'over' AND ended_at >= ? AND ended_at < ?) + "
                "(SELECT count(DISTINCT session_id || '.' || game_number) FROM chouette_results WHERE at >= ? AND at < ?)",
                (low, high, low, high),
            ))[0]  # fmt: skip
            lags: list[float] = []
            ticking = asyncio.create_task(ticker(lags))
            started, cpu = time.perf_counter(), time.process_time()
            books = await export_books(records, GUILD, label)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            ticking.cancel()
            per_10k = seconds / max(in_period, 1) * 10_000
            results.append(per_10k)
            mats = sum(name.startswith("mat/") for name in books.names)
            sheets = sum(name.startswith("sheets/") for name in books.names)
            left_out = books.left_out + books.sheets_left_out + len(books.failed)
            complete &= not left_out
            print(f"  export of {label}: {in_period} games, {len(books.names)} files ({sheets} sheets, {mats} .mat; "
                  f"left out: {books.left_out} .mat, {books.sheets_left_out} sheets, {len(books.failed)} failed), "
                  f"{books.size / 1e6:.1f} MB in {seconds:.2f} s = {per_10k:.2f} s per 10,000 games (CPU time of "
                  f"all threads {cpu / max(in_period, 1) * 10_000:.2f} s per 10,000 games); event loop worst lag "
                  f"{max(lags, default=0):.1f} ms; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
            books.file.close()
        ok_export = max(results) <= EXPORT_TARGET_S and complete
        print(f"  export: {max(results):.2f} s per 10,000 games at worst (target {EXPORT_TARGET_S:.0f} s), "
              f"{'nothing' if complete else 'SOMETHING'} left out → {'met' if ok_export else 'NOT met'}")  # fmt: skip
    return ok and ok_export


async def main(args: argparse.Namespace) -> int:
    members = list(range(1001, 1001 + args.members))
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        started = time.perf_counter()
        templates = await play_templates(folder, tables=args.tables)
        kinds = {kind: [t for t in templates if t.kind == kind] for kind in ("money", "match", "chouette")}
        summary = ", ".join(f"{len(ts)} {kind} ({sum(t.games for t in ts)} games)" for kind, ts in kinds.items())
        played = sum(t.games for t in templates)
        print(f"data: {len(templates)} distinct tables played for real in {time.perf_counter() - started:.0f} s — "
              f"{summary}; each stored game below is a copy of one of these {played} played games (about "
              f"{max(args.games) / played:.0f} copies of each at {max(args.games)} games) under new ids, members "
              f"and times")  # fmt: skip
        results = [await run(folder, templates, games, members, args.repeat, args.db) for games in args.games]
    print("\nall targets met" if all(results) else "\nsome targets NOT met")
    return 0 if all(results) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 50_000])
    parser.add_argument("--tables", type=int, default=500, help="distinct tables played for real")
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--db", help="keep the (last) database at this path")
    sys.exit(asyncio.run(main(parser.parse_args())))
