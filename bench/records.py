"""Benchmark of the club records over many stored games with realistic rows.

Plays ``--tables`` distinct tables (default 500: money sessions, matches and chouettes) for real through ``club/``
once (``bench/records_rows.py``), then copies their rows — game states, whole action logs, results, dice — under
new ids until ``--games`` finished games (default 10,000 and 50,000) are stored for ``--members`` members (default
200) over a year, and times through the use-cases of :class:`club.records.ClubRecords`:

- the ledger (all time, a month, a week), settle-up (all time, a month),
- the leaderboards (money, matches, chouette), a member's statistics, a score sheet, the ledger's picture,
- the export of the books (``export_books``, a ZIP written by the worker process) of last month and of all time, in
  seconds per 10,000 games of the period — the time it took, and the CPU it used (the bot's process and the worker
  process, started beforehand as in a running bot: the figure that does not depend on the machine's other load) —
  and the event loop's worst lag meanwhile, with the process's own part of it (the CPU it used during that lag; the
  rest is waiting for a core).

Targets: ledger, settle-up, leaderboard and member statistics ≤ 50 ms each (median) at 50,000 games and 200
members; the export ≤ 2 s of CPU per 10,000 games, with nothing left out, and no stall of the event loop of its own
over 50 ms. Prints the data (how many distinct played tables, how many copies of each), the medians and p90 in ms,
the load average and the verdicts.

Run: ``python -m bench.records [--games 10000 50000] [--tables 500] [--members 200] [--repeat 9] [--db PATH]
[--reuse]``. ``--db PATH`` keeps the (last) database built; ``--reuse`` times the one already at ``PATH`` (built by an
earlier run with ``--db``, one ``--games``) instead of playing and building again.
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
from club import ClubService, ManualClock, offload
from club.records import ClubRecords, export_books, pictures
from storage import Database, tallies
from tests.botprocess import processes_cpu

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


async def ticker(lags: list[float], own: list[float], tick: float = 0.005) -> None:
    """Append to ``lags`` how late (ms) each ``tick``-second sleep wakes up, and to ``own`` the part of it the process
    caused (as far as it used the CPU meanwhile), until cancelled."""
    while True:
        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.sleep(tick)
        lag = (time.perf_counter() - started - tick) * 1000
        lags.append(lag)
        own.append(min(lag, (time.process_time() - cpu) * 1000))


def worker_cpu() -> float:
    """CPU seconds used so far by the worker process of :mod:`club.offload` (Linux ``/proc``)."""
    return processes_cpu(offload.POOL.pids())


async def build(path: Path, templates, games: int, members: list[int]) -> dict[str, int]:
    """Store ``games`` finished games, copies of ``templates``, for ``members`` in a new database at ``path``;
    returns the number of games of each kind."""
    path.unlink(missing_ok=True)
    async with Database.open(path, synchronous="OFF") as db:
        service = ClubService(db, clock=ManualClock(START))
        for member in members:
            await service.register(GUILD, member, f"Member {member}")
    counts = replicate(path, templates, games, members, start=START, year=YEAR)
    async with Database.open(path, synchronous="OFF") as db:
        await tallies.rebuild(db)  # the copies' running totals, as the schema 4 migration writes them
    return counts


async def run(folder: Path, templates, games: int, members: list[int], repeat: int, db_path: str | None) -> bool:
    """Build a database of ``games`` games (or, without ``templates``, take the one at ``db_path``) and time the
    records on it; returns whether every target was met."""
    path = Path(db_path) if db_path else folder / f"records-{games}.sqlite3"
    started = time.perf_counter()
    if templates:
        counts = await build(path, templates, games, members)
    async with Database.open(path, synchronous="OFF") as db:
        built = time.perf_counter() - started
        if not templates:
            kinds = await db._fetchall(
                "SELECT m.kind, count(*) FROM games g JOIN matches m ON m.id = g.match_id WHERE g.status = 'over' "
                "GROUP BY m.kind UNION ALL SELECT 'chouette', count(DISTINCT session_id || '.' || game_number) "
                "FROM chouette_results"
            )
            counts = {row[0]: row[1] for row in kinds}
            members = [row[0] for row in await db._fetchall("SELECT user_id FROM members")]
        rows = {table: (await db._fetchone(f"SELECT count(*) FROM {table}"))[0]
                for table in ("matches", "games", "actions", "chouette_results")}  # fmt: skip
        size = (await db._fetchone("SELECT avg(length(state)) FROM games"))[0]
        how = f"built in {built:.1f} s" if templates else f"the database at {path}, built earlier"
        print(f"\n== {sum(counts.values())} finished games {counts}, {len(members)} members: {how}")
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
        worst_own = 0.0
        (await export_books(records, GUILD, "day")).file.close()  # the worker process started, as in a running bot
        for label in ("last month", "all"):
            chosen = await records.period(GUILD, label)
            low, high = chosen.start or 0.0, chosen.end or float("inf")
            in_period = (await db._fetchone(
                "SELECT (SELECT count(*) FROM games WHERE status = 'over' AND ended_at >= ? AND ended_at < ?) + "
                "(SELECT count(DISTINCT session_id || '.' || game_number) FROM chouette_results WHERE at >= ? AND at < ?)",
                (low, high, low, high),
            ))[0]  # fmt: skip
            lags: list[float] = []
            own: list[float] = []
            ticking = asyncio.create_task(ticker(lags, own))
            started, cpu, worker = time.perf_counter(), time.process_time(), worker_cpu()
            books = await export_books(records, GUILD, label)
            seconds = time.perf_counter() - started
            used = time.process_time() - cpu + worker_cpu() - worker
            ticking.cancel()
            per_10k = seconds / max(in_period, 1) * 10_000
            cpu_10k = used / max(in_period, 1) * 10_000
            results.append(cpu_10k)
            worst_own = max(worst_own, max(own, default=0))
            mats = sum(name.startswith("mat/") for name in books.names)
            sheets = sum(name.startswith("sheets/") for name in books.names)
            left_out = books.left_out + books.sheets_left_out + len(books.failed)
            complete &= not left_out
            print(f"  export of {label}: {in_period} games, {len(books.names)} files ({sheets} sheets, {mats} .mat; "
                  f"left out: {books.left_out} .mat, {books.sheets_left_out} sheets, {len(books.failed)} failed), "
                  f"{books.size / 1e6:.1f} MB in {seconds:.2f} s = {per_10k:.2f} s per 10,000 games, CPU "
                  f"{used:.2f} s = {cpu_10k:.2f} s per 10,000 games; event loop worst lag {max(lags, default=0):.1f} "
                  f"ms, its own part {max(own, default=0):.1f} ms; load average {os.getloadavg()[0]:.1f} on "
                  f"{os.cpu_count()} cores")  # fmt: skip
            books.file.close()
        ok_export = max(results) <= EXPORT_TARGET_S and complete and worst_own <= TARGET_MS
        print(f"  export: {max(results):.2f} s of CPU per 10,000 games at worst (target {EXPORT_TARGET_S:.0f} s), "
              f"{'nothing' if complete else 'SOMETHING'} left out, the event loop's own worst stall {worst_own:.1f} "
              f"ms (target {TARGET_MS:.0f} ms) → {'met' if ok_export else 'NOT met'}")  # fmt: skip
    return ok and ok_export


async def main(args: argparse.Namespace) -> int:
    members = list(range(1001, 1001 + args.members))
    if args.reuse:
        if not args.db or len(args.games) != 1:
            print("--reuse times the database at --db PATH: give it, and one --games")
            return 2
        ok = await run(Path(args.db).parent, [], args.games[0], members, args.repeat, args.db)
        print("\nall targets met" if ok else "\nsome targets NOT met")
        return 0 if ok else 1
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
    parser.add_argument("--reuse", action="store_true", help="time the database already at --db, built earlier")
    sys.exit(asyncio.run(main(parser.parse_args())))
