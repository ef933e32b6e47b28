"""Benchmark: club events at scale, against the targets of the events feature.

- pair one Swiss round of 256 players (round 5, after four rounds of random results): ≤ 1 s;
- from a result to the next pairing in a 128-player double elimination (record the result, settle): ≤ 50 ms,
  the worst over every result of a whole event;
- standings (with tie-breaks and explanations) at 256 players after a 7-round Swiss: ≤ 100 ms;
- the bracket image of a 128-player double elimination half played: ≤ 200 ms (when rendering.events is there).

Each figure is the median and the worst of ``--repeat`` runs, with the ratio to its target.

    python bench/events.py [--repeat N]
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

from club.events.formats import (  # noqa: E402
    EventState,
    Format,
    Result,
    Settings,
    apply_due,
    pair_swiss,
    settle,
    swiss_active,
)
from club.events.standings import standings  # noqa: E402

TARGETS_MS = {
    "swiss round, 256 players": 1000.0,
    "result → next pairing, 128 double elim": 50.0,
    "standings, 256 players": 100.0,
    "bracket image, 128 double elim": 200.0,
}


def swiss_after(rounds: int, n: int, seed: int) -> EventState:
    """A Swiss of ``n`` after ``rounds`` rounds of random results."""
    rng = random.Random(seed)
    state = EventState(Settings(Format.SWISS, rounds=rounds + 1), tuple(range(1, n + 1)))
    for _ in range(rounds):
        apply_due(state, settle(state))
        for pairing in state.pending():
            winner = rng.choice(pairing.players)
            state.decide(Result(pairing.key, winner, pairing.other(winner), 7, rng.randint(0, 6)))
    return state


def time_swiss(repeat: int) -> list[float]:
    out = []
    for r in range(repeat):
        state = swiss_after(4, 256, r)
        start = time.perf_counter()
        pairings = pair_swiss(state, swiss_active(state), 5)
        out.append((time.perf_counter() - start) * 1000)
        assert len(pairings) == 128
    return out


def double_elimination(n: int, seed: int, upto: float = 1.0) -> tuple[EventState, list[float]]:
    """Play a double elimination of ``n`` with random results (stopping after ``upto`` of its matches); the time
    from each result to the next pairing."""
    rng = random.Random(seed)
    state = EventState(Settings(Format.DOUBLE), tuple(range(1, n + 1)))
    apply_due(state, settle(state))
    times = []
    total = 2 * n - 1
    while state.pending() and len(state.results) < upto * total:
        pairing = rng.choice(state.pending())
        winner = rng.choice(pairing.players)
        start = time.perf_counter()
        state.decide(Result(pairing.key, winner, pairing.other(winner), 5, rng.randint(0, 4)))
        apply_due(state, settle(state))
        times.append((time.perf_counter() - start) * 1000)
    return state, times


def time_standings(repeat: int) -> list[float]:
    state = swiss_after(7, 256, 99)
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        rows = standings(state)
        out.append((time.perf_counter() - start) * 1000)
        assert len(rows) == 256
    return out


def time_bracket_image(repeat: int) -> list[float] | None:
    try:
        from rendering.events import bracket_image
    except ImportError:
        return None
    state, _ = double_elimination(128, 5, upto=0.5)
    names = {p: f"Player {p}" for p in state.seeds}
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        png = bracket_image(state, names)
        out.append((time.perf_counter() - start) * 1000)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return out


def line(name: str, times: list[float]) -> str:
    target = TARGETS_MS[name]
    median, worst = statistics.median(times), max(times)
    verdict = "ok" if worst <= target else "OVER"
    return (
        f"{name:42s} median {median:8.2f} ms  worst {worst:8.2f} ms  target {target:6.0f} ms  "
        f"ratio {worst / target:5.2f}  {verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(line("swiss round, 256 players", time_swiss(args.repeat)))
    worst: list[float] = []
    for seed in range(max(1, args.repeat // 2)):
        worst += double_elimination(128, seed)[1]
    print(line("result → next pairing, 128 double elim", worst))
    print(line("standings, 256 players", time_standings(args.repeat)))
    image = time_bracket_image(args.repeat)
    if image is None:
        print("bracket image, 128 double elim: rendering.events is not there")
    else:
        print(line("bracket image, 128 double elim", image))


if __name__ == "__main__":
    main()
