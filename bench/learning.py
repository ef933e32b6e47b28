"""Benchmark: learning from the club's games. Targets: picking a quiz from the club's last 50 matches
(:func:`club.quiz.pick_question`) in ≤ 10 s with 2 worker processes, the event loop never blocked for long; a
highlight (the turning point found and drawn as an animated GIF, :func:`club.highlight.compute_highlight`) in
≤ 2 s, at most 2 MB.

    python -m bench.learning [--matches 10] [--club-matches 50] [--runs 3] [--no-quiz]

The quiz: a club on a SQLite file in a temporary folder with ``--club-matches`` finished 3-point matches played with
random legal plays (seeded); the workers are started (and their engines built) before timing, as in a running bot.
While the quiz is picked a ticker measures the event loop's longest stall. The cases: the games as they are (full
of errors: the screening stops at the first candidates); a *full screen* — a threshold no decision reaches, so every
game of the 50 matches is screened, as in a club of strong players — ``--runs`` times, each with new workers and
nothing kept; that full screen once more with the screens kept in memory, and again with new workers (a restart)
reading them from the database. Each prints the time and the CPU time (this process and the workers: the machine is
shared). The highlights: the project's match files (``tests/cases/matches``) replayed by the rules engine; the
turning point is chosen without the engine and drawn 600 px wide. Prints the figures against the targets."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from backgammon.matfile import parse_mat
from backgammon.replay import replay
from club.highlight import compute_highlight
from rendering import warm_up
from rendering.animation import MAX_BYTES
from tests.botprocess import processes_cpu
from tests.casekit import MATCHES

HIGHLIGHT_TARGET = 2.0
QUIZ_TARGET = 10.0
STALL_TARGET = 0.1
"""The longest the event loop may be held while a quiz is picked (s)."""


async def _club(path, matches: int):
    """A club with ``matches`` finished 3-point matches of random legal plays; returns (service, club id, closer)."""
    import random

    from tests.clubkit import club_service, new_table, play_out, seeded

    opened = club_service(path, seeds=seeded(11))
    service = await opened.__aenter__()
    rng = random.Random(11)
    for _ in range(matches):
        outcome = await play_out(service, await new_table(service, 3), rng, cube=0.03)
    return service, outcome.view.club_id, opened


def _worker_cpu(pool) -> float:
    """CPU seconds (user + system) the pool's worker processes have used so far (Linux ``/proc``)."""
    return processes_cpu(list(getattr(pool._executor, "_processes", {}) or {}))


async def _timed_pick(service, club_id: int, pool, threshold: float) -> tuple[float, float, float, object]:
    """Pick a quiz (``threshold``) while a ticker measures the event loop's longest stall: ``(seconds, CPU seconds
    of this process and the workers, stall, question or None)``."""
    import asyncio

    from club.quiz import NoQuizError, pick_question

    stall = 0.0
    done = False

    async def ticker() -> None:
        nonlocal stall
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            stall = max(stall, time.perf_counter() - before - 0.01)

    ticking = asyncio.create_task(ticker())
    cpu = time.process_time() + _worker_cpu(pool)
    start = time.perf_counter()
    try:
        question = await pick_question(service, club_id, pool, threshold=threshold)
    except NoQuizError:
        question = None
    elapsed = time.perf_counter() - start
    cpu = time.process_time() + _worker_cpu(pool) - cpu
    done = True
    await ticking
    return elapsed, cpu, stall, question


async def _warm_pool(workers: int):
    import asyncio

    from club.analysis.pool import AnalysisPool
    from club.analysis.screen import SCREEN_LEVEL
    from club.quiz import QUIZ_LEVEL, warm_task

    pool = AnalysisPool(workers)
    await asyncio.gather(*(pool.run(warm_task, level) for level in (SCREEN_LEVEL, QUIZ_LEVEL) for _ in range(workers)))
    return pool


def _line(what: str, elapsed: float, cpu: float, stall: float) -> bool:
    ok = elapsed <= QUIZ_TARGET and stall <= STALL_TARGET
    print(
        f"quiz, {what}: {elapsed:.2f} s (target ≤ {QUIZ_TARGET:.0f} s, ratio {elapsed / QUIZ_TARGET:.2f}), CPU "
        f"{cpu:.2f} s; longest event-loop stall {stall * 1000:.0f} ms (≤ {STALL_TARGET * 1000:.0f} ms) — "
        f"{'OK' if ok else 'OVER'}"
    )
    return ok


async def _bench_quiz(matches: int, runs: int) -> bool:
    import os
    import tempfile

    from storage.quizzes import forget_screens

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        service, club_id, opened = await _club(Path(folder) / "club.sqlite3", matches)
        print(f"quiz: a club of {matches} finished 3-point matches built in {time.perf_counter() - start:.1f} s")
        print(f"quiz: 2 worker processes, load average {os.getloadavg()[0]:.1f} at the start")
        ok = True
        try:
            pool = await _warm_pool(2)
            try:
                elapsed, cpu, stall, question = await _timed_pick(service, club_id, pool, 0.08)
                ok = _line("error-rich games (stops at the first candidates)", elapsed, cpu, stall) and ok
                print(f"  {question.poll_question(1, False)} {question.answers()}")
            finally:
                pool.shutdown()
            for run in range(1, runs + 1):
                await forget_screens(service.db)
                pool = await _warm_pool(2)
                try:
                    # a threshold no decision reaches: every game of the 50 matches screened (a club of strong
                    # players), nothing kept yet
                    elapsed, cpu, stall, _none = await _timed_pick(service, club_id, pool, 9.0)
                    ok = _line(f"full screen of {matches} matches, run {run}", elapsed, cpu, stall) and ok
                    if run == runs:
                        elapsed, cpu, stall, _none = await _timed_pick(service, club_id, pool, 9.0)
                        ok = _line("the same again, the screens kept in memory", elapsed, cpu, stall) and ok
                finally:
                    pool.shutdown()
            pool = await _warm_pool(2)
            try:
                elapsed, cpu, stall, _none = await _timed_pick(service, club_id, pool, 9.0)
                ok = _line("the same after a restart, the screens read from the database", elapsed, cpu, stall) and ok
            finally:
                pool.shutdown()
        finally:
            await opened.__aexit__(None, None, None)
    return ok


def match_games(count: int) -> list[tuple[str, tuple[str, str], list]]:
    """Up to ``count`` replayed match files: ``(file name, player names, games)``."""
    found = []
    for path in sorted(MATCHES.glob("*.mat")) + sorted(MATCHES.glob("*.txt")):
        try:
            record = parse_mat(path.read_text(encoding="utf-8", errors="replace"))
        except Exception:
            continue
        games = [g.game for g in replay(record).games if g.game is not None]
        if games:
            found.append((path.name, tuple(record.players), games))
        if len(found) >= count:
            break
    return found


def bench_highlights(count: int) -> bool:
    """Time :func:`compute_highlight` over ``count`` matches; prints the figures, returns True within target."""
    warm_up()
    times, sizes = [], []
    for number, (name, names, games) in enumerate(match_games(count), start=1):
        start = time.perf_counter()
        found = compute_highlight(games, names, number)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        sizes.append(len(found.data))
        print(f"  {name:28} {len(games):3} games  {elapsed:6.2f} s  {len(found.data) / 1024:7.0f} KB")
    median, worst = statistics.median(times), max(times)
    ok = worst <= HIGHLIGHT_TARGET and max(sizes) <= MAX_BYTES
    print(
        f"highlight: median {median:.2f} s, worst {worst:.2f} s (target ≤ {HIGHLIGHT_TARGET:.0f} s, ratio "
        f"{worst / HIGHLIGHT_TARGET:.2f}); largest {max(sizes) / 1024:.0f} KB (≤ {MAX_BYTES // 1024} KB) — "
        f"{'OK' if ok else 'OVER'}"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 0 when every figure is within its target."""
    parser = argparse.ArgumentParser(prog="python -m bench.learning", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--club-matches", type=int, default=50)
    parser.add_argument("--no-quiz", action="store_true")
    parser.add_argument("--runs", type=int, default=3, help="full screens measured (each with a new pool)")
    args = parser.parse_args(argv)
    ok = True
    if not args.no_quiz:
        import asyncio

        from club.analysis import engine_available

        if engine_available():
            ok = asyncio.run(_bench_quiz(args.club_matches, args.runs))
        else:
            print("quiz: not measured — the engine is not installed (pip install -r requirements-analysis.txt)")
    ok = bench_highlights(args.matches) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
