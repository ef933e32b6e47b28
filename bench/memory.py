"""Memory benchmark: the real bot process with ``--games`` open games (default 10,000).

The bot runs in a process of its own (:mod:`tests.botprocess`): ``bot.py``'s start-up with discord.py, Pillow and
every cog loaded, the start-up heap settled, its own settings (SQLite with ``synchronous=FULL``, 900-px boards),
against the fake Discord of :mod:`tests.discord_fake` served by this process. Its members challenge one another with
``/bg challenge`` and the challenged press *Accept* — each game gets its thread and its first board picture, as in
Discord — ``--batch`` games at a time, until ``--games`` games are open. The bot process's resident memory (its
``VmRSS``: this process, which plays Discord, is not counted) is read after start-up and after every step, once the
bot has finished what it was doing. The bot's child processes — its picture worker and multiprocessing's resource
tracker — are counted too (their ``VmRSS``).

Targets: at most 10 KB per open game (the slope from a tenth of the games, once the caches are warm, to the end)
and under 200 MB in all (the bot and its child processes) with 10,000 open games. Prints the figures and the bot's
CPU time.

Run: ``python -m bench.memory [--games 10000] [--batch 100] [--members 400]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from tests.botprocess import BotProcess, Gateway

PER_GAME_KB = 10.0
TOTAL_MB = 200.0


async def run(games: int, batch: int, members_count: int, seed: int) -> int:
    """Open ``games`` games through the bot process; print the memory figures; 0 if the targets are met."""
    rng = random.Random(seed)
    gateway = Gateway()
    with tempfile.TemporaryDirectory(prefix="bgclub-memory-") as folder:
        base = await gateway.open()
        started = time.perf_counter()
        bot = await BotProcess.start(base, db=Path(folder) / "club.sqlite3")
        try:
            gateway.attach(bot)
            members = [gateway.member(f"Member {i}") for i in range(members_count)]
            channel = gateway.channel("games")
            first = await bot.settle()
            print(f"bot started in {time.perf_counter() - started:.1f} s: {first['rss_kb'] / 1024:.1f} MB resident, "
                  f"{first['cpu_s']:.2f} s CPU")  # fmt: skip
            steps: list[tuple[int, int, int]] = []  # (open games, bot KB, workers KB)
            opened = 0
            while opened < games:
                count = min(batch, games - opened)
                pairs = [rng.sample(members, 2) for _ in range(count)]
                await gateway.open_games(bot, pairs, channel)
                settled = await bot.settle()
                opened += count
                workers = bot.children_rss_kb()
                steps.append((opened, settled["rss_kb"], workers))
                gateway.world.requests.clear()  # what the fake Discord keeps is this process's, not the bot's
                gateway.world.files.clear()
                if opened % max(batch, games // 10) == 0 or opened == games:
                    print(f"  {opened:6d} open games: bot {settled['rss_kb'] / 1024:6.1f} MB, render workers "
                          f"{workers / 1024:5.1f} MB, bot CPU {settled['cpu_s']:7.1f} s, "
                          f"{time.perf_counter() - started:6.0f} s")  # fmt: skip
            cpu = bot.cpu_seconds()
        finally:
            await bot.stop()
            await gateway.close()
    unanswered = sum(1 for record in gateway.world.interactions.values() if len(record.callbacks) != 1)
    (n0, kb0, _), (n1, kb1, workers) = next(s for s in steps if s[0] >= games // 10), steps[-1]  # past warming up
    per_game = (kb1 - kb0) / max(1, n1 - n0)
    total_mb = (kb1 + workers) / 1024
    ok = per_game <= PER_GAME_KB and total_mb < TOTAL_MB and not unanswered
    print(f"{n1} open games: bot process {kb1 / 1024:.1f} MB + render workers {workers / 1024:.1f} MB = "
          f"{total_mb:.1f} MB ({'within' if total_mb < TOTAL_MB else 'OVER'} {TOTAL_MB:.0f} MB); "
          f"{per_game:.2f} KB per open game from {n0} to {n1} ({'within' if per_game <= PER_GAME_KB else 'OVER'} "
          f"{PER_GAME_KB:.0f} KB); bot CPU {cpu:.1f} s; {unanswered} interactions not answered exactly once; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    return 0 if ok else 1


def main() -> int:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--members", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return asyncio.run(run(args.games, args.batch, args.members, args.seed))


if __name__ == "__main__":
    sys.exit(main())
