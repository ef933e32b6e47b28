"""Load benchmark: ``--games`` games (default 1,000) all acting at the same moment.

Starts ``--games`` money sessions and matches between 200 members on a file database (fair dice, synchronous FULL as
the bot runs), plays each a few random turns so that every state is a real one, then fires one action in every game
at once (``asyncio.gather``), ``--rounds`` times, the way a busy bot receives button clicks. For every action it
records the wait (from the click to the answer: done, or refused as busy by the club's admission control,
:class:`club.admission.Admission`), and it samples the resident memory while they run.

Targets: memory under 200 MB, worst wait ≤ 1 s. Prints the memory, the worst and p99 waits, how many actions were
done and how many were refused as busy (told to try again, nothing stored).

Run: ``python -m bench.load [--games 1000] [--rounds 3] [--no-admission]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from club import ClubService
from club.admission import Admission, BusyError
from storage import Database
from tests.clubkit import decide, seeded

GUILD = 1
MEMORY_MB = 200.0
WAIT_S = 1.0


def rss_mb() -> float:
    """Current resident set size of this process in MB (Linux /proc), else the peak from getrusage."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def main(args: argparse.Namespace) -> int:
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "load.sqlite3"
        async with Database.open(path) as db:
            admission = None if args.no_admission else Admission()
            service = ClubService(db, seeds=seeded(5), admission=admission)
            members = list(range(2000, 2200))
            for member in members:
                await service.register(GUILD, member, f"member {member}")
            started = time.perf_counter()
            views = []
            for _ in range(args.games):
                a, b = rng.sample(members, 2)
                challenge = await service.challenge(GUILD, a, b, length=rng.choice([0, 3, 5, 7]))
                outcome = await service.accept(challenge.match_id, b)
                for _ in range(rng.randint(0, 12)):
                    if outcome.view.status != "active":
                        break
                    outcome = await decide(service, outcome.view, rng, cube=0.05)
                views.append(outcome.view)
            print(f"{args.games} games started and played a little in {time.perf_counter() - started:.0f} s; "
                  f"memory {rss_mb():.0f} MB; admission: {admission}")  # fmt: skip
            stats = {"peak": rss_mb(), "done": 0, "busy": 0, "sampling": False}
            waits: list[float] = []

            async def sample():
                while stats["sampling"]:
                    stats["peak"] = max(stats["peak"], rss_mb())
                    await asyncio.sleep(0.05)

            async def act(view, seed: int):
                clicked = time.perf_counter()
                try:
                    outcome = await decide(service, view, random.Random(seed), cube=0.05)
                except BusyError:
                    stats["busy"] += 1
                    outcome = None
                waits.append(time.perf_counter() - clicked)
                if outcome is None:
                    return view
                stats["done"] += 1
                return outcome.view

            for round_ in range(args.rounds):
                stats["sampling"] = True
                sampler = asyncio.create_task(sample())
                live = [view for view in views if view.status == "active" and view.waiting_for is not None]
                started = time.perf_counter()
                views = list(await asyncio.gather(*(act(view, view.match_id + round_) for view in live)))
                stats["sampling"] = False
                await sampler
                views = [await service.state(view.match_id) for view in views]  # the boards the members now see
                print(f"  round {round_ + 1}: {len(live)} actions at once answered in "
                      f"{time.perf_counter() - started:.2f} s")  # fmt: skip
    peak, done, busy = stats["peak"], stats["done"], stats["busy"]
    waits.sort()
    worst, p99 = waits[-1], waits[int(0.99 * (len(waits) - 1))]
    print(f"memory peak {peak:.0f} MB ({'within' if peak < MEMORY_MB else 'OVER'} {MEMORY_MB:.0f} MB); worst wait "
          f"{worst:.2f} s, p99 {p99:.2f} s ({'within' if worst <= WAIT_S else 'OVER'} {WAIT_S:.0f} s); "
          f"{done} actions done, {busy} refused as busy (nothing stored; the member is told to try again)")  # fmt: skip
    return 0 if peak < MEMORY_MB and worst <= WAIT_S else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-admission", action="store_true")
    sys.exit(asyncio.run(main(parser.parse_args())))
