"""Benchmark: legal_plays() with every resulting position built (what gnubg_nn.moves returns), against GNU
Backgammon's C generator on the same (position, roll) pairs, and the worst single call with garbage collection on.

Corpus: the opening with all 21 rolls; 300 seeded contact middle games, bar positions, bear-offs and races with all
21 rolls; and the worst doublets (spread positions with 1-1 … 6-6). Per call: our ``legal_plays`` plus the
``.position`` of each play (the resulting positions, as gnubg returns them), and ``gnubg_nn.moves`` (board
conversion included). Steady figures are the best of ``--repeat`` runs per pair; the **worst single call** is the
slowest of every call timed, with Python's garbage collector left on (a collection that lands in a call is counted
in it), in wall-clock time and in the thread's CPU time (the verdict uses the CPU time: on a shared machine the wall
clock also counts other processes' time slices; the load average is printed).

The heap is the bot's: the bench imports every module the bot loads (discord.py, Pillow, the club, the cogs) and,
as the bot does once started (``botapp.heap.settle_heap``), freezes that start-up heap and sets the youngest
generation's threshold to 2,000; the corpus is built after, like the tables a running bot holds, so full collections
traverse it. The worst call is measured that way (the verdict) and again with Python's defaults (the start-up heap
unfrozen, the threshold 700), to show what the bot's settings save. Targets: ratio
ours/gnubg ≤ 20× (median and total), worst single call ≤ 5 ms.

    python -m bench.legal_plays [--repeat N]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time

from backgammon.moves import legal_plays
from backgammon.position import Position
from tests.randompos import random_position

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]
TARGET_RATIO = 20.0
TARGET_WORST_MS = 5.0


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


def ours_built(position: Position, roll: tuple[int, int]) -> list[Position]:
    """Our generator with every resulting position built (gnubg returns the resulting positions)."""
    return [play.position for play in legal_plays(position, roll)]


class GcMeter:
    """Python's collections as they happen (``gc.callbacks``): CPU ms per generation, and the ms spent collecting
    since :meth:`mark` (to split a call's time into our code and the collector's)."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.since_mark = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.thread_time()
        else:
            pause = (time.thread_time() - self._start) * 1000
            self.pauses[info["generation"]].append(pause)
            self.since_mark += pause

    def mark(self) -> None:
        self.since_mark = 0.0


def time_calls(func, items, repeat: int, meter: GcMeter | None = None) -> tuple[list[float], float, float, float]:
    """(best ms per pair over ``repeat`` runs, worst single call in ms of wall clock, worst single call in ms of
    this process's CPU time, worst single call in CPU ms without the collector's pauses in it), the collector on.
    The CPU figure leaves out the time slices other processes take on a shared machine; garbage collection runs in
    this process and is counted in both (``meter`` measures it)."""
    best = [float("inf")] * len(items)
    worst = worst_cpu = worst_own = 0.0
    clock = time.perf_counter
    cpu = time.thread_time
    gc.enable()
    if meter is not None:
        gc.callbacks.append(meter)
    try:
        for _ in range(repeat):
            for index, (_, position, roll) in enumerate(items):
                if meter is not None:
                    meter.mark()
                start_cpu = cpu()
                start = clock()
                func(position, roll)
                elapsed = (clock() - start) * 1000
                elapsed_cpu = (cpu() - start_cpu) * 1000
                if elapsed < best[index]:
                    best[index] = elapsed
                worst = max(worst, elapsed)
                worst_cpu = max(worst_cpu, elapsed_cpu)
                worst_own = max(worst_own, elapsed_cpu - (meter.since_mark if meter is not None else 0.0))
    finally:
        if meter is not None:
            gc.callbacks.remove(meter)
    return best, worst, worst_cpu, worst_own


def bot_heap() -> int:
    """Import every module the bot loads at start-up (its cogs included); returns the number of objects the
    collector tracks then."""
    import importlib
    import pkgutil

    import bot  # noqa: F401  (discord.py, Pillow, aiosqlite, the club, storage, rendering)
    import cogs

    for module in pkgutil.iter_modules(cogs.__path__, "cogs."):
        importlib.import_module(module.name)
    gc.collect()
    return len(gc.get_objects())


def worst_line(label: str, meter: GcMeter, worst: float, worst_cpu: float, worst_own: float) -> str:
    """One line: the worst single call (wall clock, CPU, without the collector) and the collections met."""
    full = meter.pauses[2]
    return (
        f"  worst single call, {label}: {worst:.3f} ms wall clock, {worst_cpu:.3f} ms CPU time, {worst_own:.3f} ms CPU "
        "without the collector's pauses; collections during our calls: "
        + ", ".join(f"gen{g} {len(p)} (max {max(p, default=0):.2f} ms)" for g, p in meter.pauses.items())
        + (f"; a full collection {statistics.median(full):.2f} ms median" if full else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs over the corpus (default 3)")
    args = parser.parse_args()
    from botapp.heap import settle_heap

    started_heap = bot_heap()
    frozen = settle_heap()  # as the bot does once started
    items = corpus()  # after: like the tables a running bot holds
    meter = GcMeter()
    ours, ours_worst, ours_worst_cpu, ours_worst_own = time_calls(ours_built, items, args.repeat, meter)
    print(f"corpus: {len(items)} (position, roll) pairs, {args.repeat} runs; the bot's heap: {started_heap} tracked "
          f"objects at start-up, {frozen} frozen, {len(gc.get_objects())} tracked after the corpus")  # fmt: skip
    print(
        f"ours (positions built): median {statistics.median(ours):.3f} ms  p90 {statistics.quantiles(ours, n=10)[-1]:.3f}"
        f" ms  total {sum(ours):.0f} ms"
    )
    as_the_bot = worst_line("as the bot runs (start-up heap frozen, threshold 2,000)", meter, ours_worst,
                            ours_worst_cpu, ours_worst_own)  # fmt: skip
    load = f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    print(f"{as_the_bot}  [target ≤ {TARGET_WORST_MS} ms; {load}]")
    gc.unfreeze()
    gc.set_threshold(700, *gc.get_threshold()[1:])  # Python's default
    unfrozen = GcMeter()
    _, worst_unfrozen, worst_unfrozen_cpu, worst_unfrozen_own = time_calls(ours_built, items, args.repeat, unfrozen)
    print(
        worst_line(
            "Python's defaults (start-up heap not frozen, threshold 700)",
            unfrozen,
            worst_unfrozen,
            worst_unfrozen_cpu,
            worst_unfrozen_own,
        )
    )
    by_kind: dict[str, list[float]] = {}
    for (kind, _, _), t in zip(items, ours, strict=True):
        by_kind.setdefault(kind, []).append(t)
    for kind, values in by_kind.items():
        print(f"  {kind:15s} median {statistics.median(values):.3f} ms  worst {max(values):.3f} ms")
    try:
        import gnubg_nn
    except ImportError:
        print("gnubg_nn not installed: no reference ratio")
        return
    theirs, theirs_worst, _, _ = time_calls(lambda p, r: gnubg_nn.moves(p.to_gnubg(), *r), items, args.repeat)
    print(
        f"gnubg: median {statistics.median(theirs):.3f} ms  total {sum(theirs):.0f} ms  worst {theirs_worst:.3f} ms"
        " (includes converting the board to lists)"
    )
    median_ratio = statistics.median(ours) / statistics.median(theirs)
    total_ratio = sum(ours) / sum(theirs)
    worst_ok = ours_worst_cpu <= TARGET_WORST_MS  # wall clock on a loaded machine includes other processes' slices
    verdict = "met" if max(median_ratio, total_ratio) <= TARGET_RATIO and worst_ok else "NOT met"
    print(
        f"ratio ours/gnubg: median {median_ratio:.1f}x  total {total_ratio:.1f}x  [target ≤ {TARGET_RATIO:.0f}x]; "
        f"targets {verdict}"
    )


if __name__ == "__main__":
    main()
