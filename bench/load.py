"""Load benchmark: ``--games`` games (default 1,000) all acting at the same moment, through the real bot process.

The bot runs in a process of its own (:mod:`tests.botprocess`: ``bot.py``'s start-up with discord.py, Pillow and
every cog, its own settings — SQLite with ``synchronous=FULL``, 900-px boards drawn by its picture worker), against
the fake Discord of :mod:`tests.discord_fake` served by this process. ``--games`` money sessions are opened through
it (``/bg challenge``, *Accept*); then, ``--rounds`` times, every game's member on turn presses the button of his
board at the same moment — *Roll*, or the first play of the play menu — a thousand ``INTERACTION_CREATE`` at once,
the way a busy bot receives clicks. For every click it records the **first answer** (the defer Discord must have
within 3 s, from the click to its arrival at Discord; and apart, when the bot sent it — the fake Discord shares the
machine's cores with the bot, which the real one does not) and the **done** time (from the click to the new board posted
or edited in the game's thread), and it reads the bot's CPU time and its picture worker's.

Target (the issue's): every action done, none refused, none lost, and every first answer within Discord's 3 s
interaction deadline. The done times and the throughput — actions per second, CPU milliseconds per action in the bot
and in its picture worker — are figures of their own, printed beside the target, not part of it. Prints everything
with the load average (the machine is shared).

Run: ``python -m bench.load [--games 1000] [--rounds 3] [--members 400]``; with ``BGCLUB_PROFILE=FILE`` the bot
process profiles the bursts (:data:`tests.botprocess.PROFILE`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

from tests.botprocess import BotProcess, Gateway

DEADLINE_S = 3.0
POSTED = re.compile(r"^(POST|PATCH) /channels/(\d+)/messages")
LATE = re.compile(r"^first response after ([0-9.]+) s$")


def _figures(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"median {ordered[len(ordered) // 2]:.2f} s, p99 {ordered[int(0.99 * (len(ordered) - 1))]:.2f} s, "
            f"worst {ordered[-1]:.2f} s")  # fmt: skip


def _first_answer(record) -> float:
    """Seconds from the click to its first answer at Discord — also when it came too late and Discord refused it
    (``first response after … s``); -1 when none came."""
    if record.callback_delays:
        return record.callback_delays[0]
    for reason, _code in record.refused:
        if found := LATE.match(reason):
            return float(found.group(1))
    return -1.0


def _click(gateway: Gateway, bot: BotProcess, message: dict):
    """The member the board mentions presses Roll, or chooses the menu's first play; None when the board offers
    neither (a play of more than 25 choices, made with ``/bg move``)."""
    member = gateway.members.get(int(m.group(1))) if (m := re.search(r"<@!?(\d+)>", message["content"])) else None
    if member is None:
        return None
    for row in message.get("components") or []:
        for item in row.get("components") or []:
            custom_id = item.get("custom_id") or ""
            if custom_id.startswith("t:m:") and custom_id.endswith(":roll"):
                return gateway.press(bot, member, int(message["id"]), custom_id)
            if custom_id.startswith("tm:m:") and item.get("options"):
                return gateway.press(bot, member, int(message["id"]), custom_id, [item["options"][0]["value"]])
    return None


async def run(games: int, rounds: int, members_count: int, seed: int, settings: dict | None = None) -> int:
    """Open ``games`` games, fire ``rounds`` bursts; print the figures; 0 if the targets are met."""
    rng = random.Random(seed)
    gateway = Gateway()
    posted: dict[int, float] = {}  # channel → when the bot last posted or edited a message there
    with tempfile.TemporaryDirectory(prefix="bgclub-load-") as folder:
        base = await gateway.open()
        bot = await BotProcess.start(base, db=Path(folder) / "club.sqlite3", settings=settings)
        ok = True
        try:
            gateway.attach(bot)
            members = [gateway.member(f"Member {i}") for i in range(members_count)]
            channel = gateway.channel("games")
            started = time.perf_counter()
            for first in range(0, games, 100):
                await gateway.open_games(bot, [rng.sample(members, 2) for _ in range(min(100, games - first))],
                                         channel)  # fmt: skip
                gateway.world.requests.clear()
                gateway.world.files.clear()
            settled = await bot.settle()
            print(f"{games} games opened through the bot in {time.perf_counter() - started:.0f} s; bot process "
                  f"{settled['rss_kb'] / 1024:.0f} MB")  # fmt: skip

            def seen(request) -> None:
                found = POSTED.match(f"{request.method} {request.path}")
                if found:
                    posted.setdefault(int(found.group(2)), request.at)

            gateway.world.hooks.append((POSTED, seen))
            bot.profile(True)  # only with BGCLUB_PROFILE set (tests/botprocess.py)
            for round_ in range(rounds):
                boards = gateway.boards("t:m:") | gateway.boards("tm:m:")
                posted.clear()
                cpu_bot, cpu_workers = bot.cpu_seconds(), bot.children_cpu_seconds()
                clicks = [(message, record) for message in boards.values()
                          if (record := _click(gateway, bot, message)) is not None]  # fmt: skip
                began = time.perf_counter()
                await bot.process.stdin.drain()
                answered = (await bot.settle())["answered"]
                took = time.perf_counter() - began
                cpu_bot, cpu_workers = bot.cpu_seconds() - cpu_bot, bot.children_cpu_seconds() - cpu_workers
                first = [_first_answer(r) for _, r in clicks]
                late = sum(1 for delay in first if delay > DEADLINE_S)
                first = [delay for delay in first if delay >= 0]
                sent = [answered[str(r.id)] - r.sent_at for _, r in clicks if str(r.id) in answered]
                done = [posted[int(m["channel_id"])] - r.sent_at for m, r in clicks if int(m["channel_id"]) in posted]
                private = sum(1 for _, r in clicks if r.followups)  # a refusal is a private followup
                unanswered = sum(1 for _, r in clicks if len(r.callbacks) != 1)
                actions = max(1, len(done))
                print(f"  round {round_ + 1}: {len(clicks)} clicks at once, all handled in {took:.1f} s; "
                      f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
                print(f"    first answer (the defer): {_figures(first)}; {late} after {DEADLINE_S:.0f} s (refused by "
                      f"Discord: the click did nothing); {unanswered} without exactly one")  # fmt: skip
                print(f"    the defer sent by the bot: {_figures(sent)} (the rest of the first answer is the fake "
                      "Discord's, reading it on the same cores)")  # fmt: skip
                print(f"    done (board posted): {len(done)} of {len(clicks)}; {private} answered privately (refused)")
                print(f"    done times: {_figures(done)}")
                print(f"    throughput: {len(done) / took:.0f} actions/s; CPU per action: bot "
                      f"{1000 * cpu_bot / actions:.1f} ms + picture worker {1000 * cpu_workers / actions:.1f} ms "
                      f"(bot {cpu_bot:.1f} s, picture worker {cpu_workers:.1f} s in all)")  # fmt: skip
                round_ok = (not unanswered and not private and len(done) == len(clicks)
                            and max(first, default=DEADLINE_S + 1) <= DEADLINE_S)  # fmt: skip
                ok = ok and round_ok
                gateway.world.requests.clear()
                gateway.world.files.clear()
            bot.profile(False)
        finally:
            await bot.stop()
            await gateway.close()
    print(f"target: every click done, none refused, every first answer within {DEADLINE_S:.0f} s (Discord's "
          f"interaction deadline) → {'met' if ok else 'NOT met'}")  # fmt: skip
    return 0 if ok else 1


def main() -> int:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--members", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return asyncio.run(run(args.games, args.rounds, args.members, args.seed))


if __name__ == "__main__":
    sys.exit(main())
