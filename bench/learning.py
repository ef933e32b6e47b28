"""Benchmark: learning from the club's games. Target: a highlight (the turning point found and drawn as an
animated GIF, :func:`club.highlight.compute_highlight`) in ≤ 2 s, at most 2 MB.

    python -m bench.learning [--matches 10]

The matches are the project's match files (``tests/cases/matches``) replayed by the rules engine; the turning
point is chosen by the pip count (as without the engine) and drawn 600 px wide. Prints, per match, the time and
the size, then the median and the worst against the target.
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
    args = parser.parse_args(argv)
    ok = bench_highlights(args.matches)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
