"""Benchmark: time to analyse a 7-point match, and one engine turn of the practice opponent,
with the worker pool of 2 processes (this machine has 2 cores). Targets: ≤ 20 s and ≤ 3 s.

    python -m bench.analysis [--file tests/cases/matches/gnubgexport_7pt_01.mat] [--level 2ply]

Prints the time to start the workers, to analyse the match once they run (and the decisions per second), the
worst and median time of a practice-opponent turn (cube decision, then the checker play) over the match's
positions at the ``expert`` strength (the slowest), and the same for the practice opponent's real turns in a club
practice match (:func:`club.practice.engine_turns`: the engine's choices in the pool, applied through the unit of
work on a SQLite file, from the moment the member's action is stored to the moment the member is to act again).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from backgammon.matfile import parse_mat
from backgammon.replay import replay
from club.analysis.match import DEFAULT_LEVEL, analyse_record
from club.analysis.pool import AnalysisPool, engine
from club.analysis.practice import choose_play_task, cube_action_task
from club.analysis.walk import PLAY, decisions
from tests.casekit import MATCHES

MATCH_TARGET = 20.0
TURN_TARGET = 3.0
MEMBER, ENGINE, GUILD = 10, 20, 1


async def practice_turns(pool, turns: int, strength: str = "expert") -> list[float]:
    """Seconds per engine turn of practice matches (7 points, ``strength``) played until ``turns`` were timed; the
    member plays random legal plays, rolls and takes."""
    import random
    import tempfile

    from club import ClubService, ManualClock
    from club.practice import engine_turns, start_practice
    from storage import Database

    rng = random.Random(15)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        async with Database.open(Path(folder) / "bench.sqlite3") as db:
            service = ClubService(db, clock=ManualClock())
            await service.register(GUILD, MEMBER, "Member")
            while len(times) < turns:
                view = (await start_practice(service, GUILD, MEMBER, ENGINE, length=7, strength=strength)).view
                while view.status == "active" and len(times) < turns:
                    if view.engine_to_act:
                        started = time.perf_counter()
                        done = await engine_turns(service, view.match_id, pool)
                        times.append(time.perf_counter() - started)
                        view = done[-1].view
                    elif view.pending == "play":
                        plays = await service.legal_plays(view.match_id, MEMBER)
                        view = (await service.play(view.match_id, MEMBER, rng.choice(plays))).view
                    elif view.pending in ("roll", "roll_or_double"):
                        view = (await service.roll(view.match_id, MEMBER)).view
                    elif view.pending == "answer_resignation":
                        view = (await service.accept_resignation(view.match_id, MEMBER)).view
                    else:
                        view = (await service.take(view.match_id, MEMBER)).view
    return times


def _warm() -> bool:
    engine("2ply")
    engine("1ply")
    return True


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (see the module docstring); exit status 0, 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = MATCHES / "gnubgexport_7pt_01.mat"
    parser.add_argument("--file", type=Path, default=default)
    parser.add_argument("--level", default=DEFAULT_LEVEL)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args(argv)
    record = parse_mat(args.file.read_text(encoding="utf-8"))
    with AnalysisPool(2) as pool:
        started = time.perf_counter()
        for future in [pool.submit(_warm) for _ in range(2)]:
            future.result()
        start_up = time.perf_counter() - started
        started = time.perf_counter()
        analysis = analyse_record(record, pool=pool, level=args.level)
        took = time.perf_counter() - started
        counted = sum(p.decisions for p in analysis.players)
        print(f"{args.file.name}: {record.length}-point match, {analysis.games} games, {counted} counted decisions")
        print(f"  workers started (2 processes, engines loaded): {start_up:.2f} s")
        print(
            f"  analysis at {args.level}: {took:.2f} s (target ≤ {MATCH_TARGET:.0f} s), {counted / took:.1f} decisions/s"
        )
        for line in analysis.lines()[1:]:
            print(f"    {line}")
        report = replay(record)
        found = [d for g in report.games if g.game is not None for d in decisions(g.game)]
        turns = [d for d in found if d.kind == PLAY and d.choices > 1][:: max(1, len(found) // (3 * args.turns))]
        times = []
        for number, turn in enumerate(turns[: args.turns]):
            started = time.perf_counter()
            pool.submit(cube_action_task, turn.position.position_id(), turn.cube, "expert", number, False).result()
            pool.submit(choose_play_task, turn.position.position_id(), turn.dice, turn.cube, "expert", number).result()
            times.append(time.perf_counter() - started)
        print(
            f"  practice opponent turn (expert, cube + play), {len(times)} turns: median "
            f"{statistics.median(times):.2f} s, worst {max(times):.2f} s (target ≤ {TURN_TARGET:.0f} s)"
        )
        import asyncio

        club_times = asyncio.run(practice_turns(pool, args.turns * 3))
        print(
            f"  practice engine turn in a club match (expert, through the unit of work), {len(club_times)} turns: "
            f"median {statistics.median(club_times):.2f} s, worst {max(club_times):.2f} s "
            f"(target ≤ {TURN_TARGET:.0f} s)"
        )
    worst = max(max(times), max(club_times))
    return 0 if took <= MATCH_TARGET and worst <= TURN_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
