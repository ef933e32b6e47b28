"""Benchmark of one turn end to end through the Discord layer: from a command or button callback to its reply.

Drives the real bot (``bot.BgBot`` with its cogs) with the autospec'd fake interactions of ``tests/botkit.py``:
every call goes through the cog (or the persistent button), the use-case layer, SQLite on a file, the board PNG
rendered off the event loop, and the message posted or edited — only Discord's network is missing. Games are
played with random legal decisions: ``/bg move`` (the play typed, as after autocomplete), the play menu, and the
Roll / Double / Take / Drop buttons.

Prints the median, p90 and max time from the callback's start to the moment its reply (the board post or edit,
and for a command its private acknowledgement) has been made, per kind and overall. Target (issue "The Discord
bot"): a median ≤ 60 ms.

Run: ``python bench/turn_e2e.py [--turns 600] [--width 900] [--db PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from botkit import call, cog_of, running_bot  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def bench(args) -> None:
    folder = tempfile.TemporaryDirectory()
    path = Path(args.db) if args.db else Path(folder.name) / "bench.sqlite3"
    rng = random.Random(1)
    timings: dict[str, list[float]] = {}
    async with running_bot(path, width=args.width) as (bot, fake):
        cog = cog_of(bot)
        players = [fake.member(1000 + i, f"Player {i}") for i in range(8)]
        lobby = fake.text_channel("lobby")
        turns = 0
        match_id = 0
        while turns < args.turns:
            a, b = rng.sample(players, 2)
            await call(
                cog.challenge, cog, fake.interaction(a, lobby), opponent=b, length=rng.choice(["3", "5", "money"])
            )
            match_id += 1
            challenge = fake.last(lobby.id)
            interaction, item = await fake.prepare_press(b, challenge.custom_id("accept"))
            started = time.perf_counter()
            await item.callback(interaction)
            timings.setdefault("button accept", []).append(time.perf_counter() - started)
            thread = fake.channels[challenge.threads[0]]
            members = {a.id: a, b.id: b}
            for _ in range(300):
                view = await bot.service.state(match_id)
                if view.status != "active" or turns >= args.turns:
                    break
                who = members[view.waiting_for]
                post = fake.last(thread.id)
                if view.pending == "play":
                    plays = await bot.service.legal_plays(match_id, view.waiting_for)
                    if "play" in post.actions and rng.random() < 0.5:
                        kind = "menu play"
                        pressed = await fake.prepare_press(
                            who, post.custom_id("play"), value=rng.choice(post.menu_options)
                        )
                    else:
                        kind = "/bg move"
                        interaction = fake.interaction(who, thread)
                        action = cog.move.callback(cog, interaction, play=rng.choice(plays))
                        pressed = None
                elif view.pending in ("roll", "roll_or_double"):
                    double = "double" in view.legal and rng.random() < 0.08
                    kind = "button double" if double else "button roll"
                    pressed = await fake.prepare_press(who, post.custom_id("double" if double else "roll"))
                elif view.pending in ("answer_double", "answer_beaver", "answer_raccoon"):
                    choice = rng.choice([x for x in ("take", "drop") if x in view.legal])
                    kind = f"button {choice}"
                    pressed = await fake.prepare_press(who, post.custom_id(choice))
                else:
                    kind = "button accept_resignation"
                    pressed = await fake.prepare_press(who, post.custom_id("accept_resignation"))
                if pressed is not None:
                    interaction, item = pressed
                    action = item.callback(interaction)
                started = time.perf_counter()
                await action
                timings.setdefault(kind, []).append(time.perf_counter() - started)
                turns += 1
    folder.cleanup()
    everything = [t for values in timings.values() for t in values]
    ms = 1000.0
    print(
        f"{len(everything)} callbacks (fake Discord; real cogs, SQLite file, PNG {args.width} px rendered in a thread)"
    )
    print(f"  all                  median {statistics.median(everything) * ms:6.1f} ms  "
          f"p90 {percentile(everything, 0.9) * ms:6.1f}  max {max(everything) * ms:6.1f}")  # fmt: skip
    for kind, values in sorted(timings.items(), key=lambda item: -len(item[1])):
        print(f"  {kind:<20} median {statistics.median(values) * ms:6.1f} ms  "
              f"p90 {percentile(values, 0.9) * ms:6.1f}  (n={len(values)})")  # fmt: skip
    verdict = "OK" if statistics.median(everything) * ms <= 60 else "OVER"
    print(f"target: median ≤ 60 ms — {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=600)
    parser.add_argument("--width", type=int, default=900)
    parser.add_argument("--db", default=None)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
