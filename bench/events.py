"""Benchmark: club events at scale, against the targets of the events feature.

- pair one Swiss round of 256 players (every round of a 12-round Swiss with random results, the worst): ≤ 1 s;
- from a result to the next pairing in a 128-player double elimination (record the result, settle): ≤ 50 ms,
  the worst over every result of a whole event;
- standings (with tie-breaks and explanations) at 256 players after a 7-round Swiss: ≤ 100 ms;
- the bracket image (club.events.pictures) of a 13-player and of a 128-player double elimination half played:
  ≤ 200 ms.

Each figure: the median and the worst wall-clock time of ``--repeat`` runs, the worst CPU time of the thread (the
verdict, as in bench/legal_plays.py: a shared machine's wall clock counts other processes too) and its ratio to
the target. The load average is printed.

    python -m bench.events [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager

from club.events.formats import (
    EventState,
    Format,
    Result,
    Settings,
    apply_due,
    pair_swiss,
    settle,
    swiss_active,
)
from club.events.standings import standings

TARGETS_MS = {
    "swiss round, 256 players": 1000.0,
    "result → next pairing, 128 double elim": 50.0,
    "standings, 256 players": 100.0,
    "bracket image, 13 double elim": 200.0,
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


def time_swiss(repeat: int, rounds: int = 12) -> list[tuple[float, float]]:
    """Each round of a 256-player Swiss of ``rounds`` rounds (random results), ``repeat`` times: the time to pair
    it (late rounds are where score groups run out of unplayed opponents and the matching steps in)."""
    out: list[tuple[float, float]] = []
    for r in range(repeat):
        rng = random.Random(r)
        state = EventState(Settings(Format.SWISS, rounds=rounds), tuple(range(1, 257)))
        for round_no in range(1, rounds + 1):
            with timed(out):
                pairings = pair_swiss(state, swiss_active(state), round_no)
            assert len(pairings) == 128
            for pairing in pairings:
                state.record(pairing)
                winner = rng.choice(pairing.players)
                state.decide(Result(pairing.key, winner, pairing.other(winner), 7, rng.randint(0, 6)))
    return out


def double_elimination(n: int, seed: int, upto: float = 1.0) -> tuple[EventState, list[tuple[float, float]]]:
    """Play a double elimination of ``n`` with random results (stopping after ``upto`` of its matches); the time
    from each result to the next pairing."""
    rng = random.Random(seed)
    state = EventState(Settings(Format.DOUBLE), tuple(range(1, n + 1)))
    apply_due(state, settle(state))
    times: list[tuple[float, float]] = []
    total = 2 * n - 1
    while state.pending() and len(state.results) < upto * total:
        pairing = rng.choice(state.pending())
        winner = rng.choice(pairing.players)
        with timed(times):
            state.decide(Result(pairing.key, winner, pairing.other(winner), 5, rng.randint(0, 4)))
            apply_due(state, settle(state))
    return state, times


def time_standings(repeat: int) -> list[tuple[float, float]]:
    state = swiss_after(7, 256, 99)
    out: list[tuple[float, float]] = []
    for _ in range(repeat):
        with timed(out):
            rows = standings(state)
        assert len(rows) == 256
    return out


def time_bracket_image(repeat: int, players: int) -> list[tuple[float, float]]:
    from club.events.pictures import bracket_png

    state, _ = double_elimination(players, 5, upto=0.5)
    names = {p: f"Player {p}" for p in state.seeds}
    out: list[tuple[float, float]] = []
    for _ in range(repeat):
        with timed(out):
            png = bracket_png(state, names, "Bench Open")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return out


@contextmanager
def timed(into: list[tuple[float, float]]) -> Iterator[None]:
    """Append the block's ``(wall ms, CPU ms of this thread)`` to ``into``."""
    wall, cpu = time.perf_counter(), time.thread_time()
    yield
    into.append(((time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000))


def line(name: str, times: list[tuple[float, float]]) -> str:
    """One figure: the median and worst wall-clock time, the worst CPU time (the verdict: on a shared machine the
    wall clock also counts other processes' time slices) and its ratio to the target."""
    target = TARGETS_MS[name]
    walls, cpus = [w for w, _ in times], [c for _, c in times]
    worst = max(cpus)
    verdict = "ok" if worst <= target else "OVER"
    return (
        f"{name:40s} median {statistics.median(walls):8.2f} ms  worst {max(walls):8.2f} ms wall, "
        f"{worst:8.2f} ms CPU  target {target:6.0f} ms  ratio {worst / target:5.2f}  {verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(line("swiss round, 256 players", time_swiss(args.repeat)))
    worst: list[tuple[float, float]] = []
    for seed in range(max(1, args.repeat // 2)):
        worst += double_elimination(128, seed)[1]
    print(line("result → next pairing, 128 double elim", worst))
    print(line("standings, 256 players", time_standings(args.repeat)))
    for players in (13, 128):
        print(line(f"bracket image, {players} double elim", time_bracket_image(args.repeat, players)))


if __name__ == "__main__":
    main()
