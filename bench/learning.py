"""Benchmark: learning from the club's games. Targets: picking a quiz from the club's last 50 matches
(:func:`club.quiz.pick_question`) in ≤ 10 s with 2 worker processes, the event loop never blocked for long; a
highlight (the turning point found and drawn as an animated GIF, :func:`club.highlight.compute_highlight`) in
≤ 2 s, at most 2 MB.

    python -m bench.learning [--matches 10] [--club-matches 50] [--no-quiz]

The quiz: a club on a SQLite file in a temporary folder with ``--club-matches`` finished 3-point matches played with
random legal plays (seeded); the workers are started (and their engines built) before timing, as in a running bot.
While the quiz is picked a ticker measures the event loop's longest stall. The highlights: the project's match
files (``tests/cases/matches``) replayed by the rules engine; the turning point is chosen by the pip count (as
without the engine) and drawn 600 px wide. Prints the figures against the targets.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from backgammon.matfile import parse_mat
from backgammon.replay import replay
from club.highlight import compute_highlight
from rendering import warm_up
from rendering.animation import MAX_BYTES
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


async def _bench_quiz(matches: int) -> bool:
    import asyncio
    import tempfile
    from pathlib import Path

    from club.analysis.pool import AnalysisPool
    from club.quiz import QUIZ_LEVEL, SCREEN_LEVEL, pick_question, warm_task

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        service, club_id, opened = await _club(Path(folder) / "club.sqlite3", matches)
        print(f"quiz: a club of {matches} finished 3-point matches built in {time.perf_counter() - start:.1f} s")
        try:
            with AnalysisPool(2) as pool:
                await asyncio.gather(
                    *(pool.run(warm_task, level) for level in (SCREEN_LEVEL, QUIZ_LEVEL) for _ in "ab")
                )
                stall = 0.0
                done = False

                async def ticker() -> None:
                    nonlocal stall
                    while not done:
                        before = time.perf_counter()
                        await asyncio.sleep(0.01)
                        stall = max(stall, time.perf_counter() - before - 0.01)

                ticking = asyncio.create_task(ticker())
                start = time.perf_counter()
                question = await pick_question(service, club_id, pool, threshold=0.08)
                elapsed = time.perf_counter() - start
                done = True
                await ticking
        finally:
            await opened.__aexit__(None, None, None)
    ok = elapsed <= QUIZ_TARGET and stall <= STALL_TARGET
    print(
        f"quiz: picked in {elapsed:.2f} s (target ≤ {QUIZ_TARGET:.0f} s, ratio {elapsed / QUIZ_TARGET:.2f}); longest "
        f"event-loop stall {stall * 1000:.0f} ms (≤ {STALL_TARGET * 1000:.0f} ms) — {'OK' if ok else 'OVER'}"
    )
    print(f"  {question.poll_question(1, False)} {question.answers()}")
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
    args = parser.parse_args(argv)
    ok = True
    if not args.no_quiz:
        import asyncio

        from club.analysis import engine_available

        if engine_available():
            ok = asyncio.run(_bench_quiz(args.club_matches))
        else:
            print("quiz: not measured — the engine is not installed (pip install -r requirements-analysis.txt)")
    ok = bench_highlights(args.matches) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
