"""Benchmark: time per legal_plays() call over a fixed corpus, and the ratio to gnubg_nn.moves (C) on the same input.

Corpus: the opening with all 21 rolls; 300 seeded contact middle games, bar positions, bear-offs and races with all
21 rolls; and the worst doublets (spread positions with 1-1 … 6-6). Prints median, 90th percentile and worst
milliseconds per call. Targets (issue "rules engine"): median ≤ 0.2 ms, worst ≤ 5 ms, pure Python, 2 cores.

    python bench/legal_plays.py [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from randompos import random_position  # noqa: E402

from backgammon.moves import legal_plays  # noqa: E402
from backgammon.position import Position  # noqa: E402

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def corpus() -> list[tuple[str, Position, tuple[int, int]]]:
    rng = random.Random(2026)
    items = [("opening", Position.initial(), roll) for roll in ROLLS]
    for kind in ("contact", "bar", "bearoff", "race"):
        for _ in range(75):
            position = random_position(rng, kind)
            items += [(kind, position, roll) for roll in ROLLS]
    # worst doublets: checkers spread over many open points, no opposing blocks
    spread = Position.from_points(
        {24: 1, 23: 1, 22: 1, 21: 1, 20: 1, 18: 1, 16: 1, 13: 2, 11: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 1: -15}
    )
    items += [("worst doublets", spread, (d, d)) for d in range(1, 7)]
    return items


def time_calls(func, items, repeat: int) -> list[float]:
    times = []
    for _, position, roll in items:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            func(position, roll)
            best = min(best, time.perf_counter() - start)
        times.append(best * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per call; the best is kept (default 3)")
    args = parser.parse_args()
    items = corpus()
    ours = time_calls(legal_plays, items, args.repeat)
    print(f"corpus: {len(items)} (position, roll) pairs")
    print(
        f"ours:  median {statistics.median(ours):.3f} ms  p90 {statistics.quantiles(ours, n=10)[-1]:.3f} ms  "
        f"worst {max(ours):.3f} ms"
    )
    by_kind: dict[str, list[float]] = {}
    for (kind, _, _), t in zip(items, ours, strict=True):
        by_kind.setdefault(kind, []).append(t)
    for kind, values in by_kind.items():
        print(f"  {kind:15s} median {statistics.median(values):.3f} ms  worst {max(values):.3f} ms")
    built = time_calls(lambda p, r: [play.position for play in legal_plays(p, r)], items, args.repeat)
    print(
        f"ours, every resulting position built too: median {statistics.median(built):.3f} ms  worst {max(built):.3f} ms"
    )
    try:
        import gnubg_nn
    except ImportError:
        print("gnubg_nn not installed: no reference ratio")
        return
    theirs = time_calls(lambda p, r: gnubg_nn.moves(p.to_gnubg(), *r), items, args.repeat)
    print(
        f"gnubg: median {statistics.median(theirs):.3f} ms  worst {max(theirs):.3f} ms  "
        f"(includes converting the board to lists)"
    )
    print(
        f"ratio ours/gnubg: median {statistics.median(ours) / statistics.median(theirs):.1f}x  "
        f"worst {max(ours) / max(theirs):.1f}x"
    )


if __name__ == "__main__":
    main()
