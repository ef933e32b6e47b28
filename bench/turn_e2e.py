"""Benchmark: one turn end to end through the Discord layer, at any session length.

Drives the real bot (``bot.BgBot`` with its cogs) through the harness of ``tests/discordkit.py``: discord.py's own
parsing of genuine interaction payloads, the cog, the use-cases, SQLite on a file, the board PNG rendered in the
picture worker, and the board posted or edited over HTTP against a fake Discord on 127.0.0.1 (which checks every
request against Discord's limits). It runs with the bot's own settings — ``[storage] synchronous`` and
``[rendering] width`` at their defaults (FULL, 900 px), the start-up heap settled as ``bot.py`` does
(:func:`botapp.heap.settle_heap`) — not the harness's quicker test settings. A turn is timed from the interaction's
arrival until every task it started has finished (the board image rendered and sent included), in wall time and in
CPU time: this process's (the bot and the fake Discord, which runs in it) plus the picture worker's. The verdicts
are on CPU time, which other work on a shared machine does not stretch; the wall-time ratio is printed beside it.

1. **Money session:** the turn at game 1, 100 and 300 — in one harness, a session for each is challenged and accepted
   by command; those for game 100 and 300 play three games by buttons, then their logs are repeated to ``N − 1``
   finished games (``bench/loop_lag.py``); then ``--turns`` turns of each game are played by the board's buttons, its
   play menu or ``/bg move``, one turn of each session in turn, so that other work on the machine weighs on every
   game alike.
2. **Chouette of five members:** a decision at game 1 and at game 50 — started, joined and seated by command, game 1
   decided by the buttons of the posted boards and windows, games 2–49 decided through the use-cases (untimed), then
   game 50 by buttons again (the first board posted by ``/bg chouette move``).

Targets: game 300 within 10 % of game 1; the chouette's game 50 within 20 % of game 1 (both in CPU time, at the
first game's mix of decisions, ``bench/turns.py``'s ``same_mix``). In the chouette the Team members pass the cube
(the buttons this driver presses), so its timed decisions are plays, rolls and cube passes. Prints medians and p90
in ms, ratios and verdicts.

Run: ``python -m bench.turn_e2e [--games 1 100 300] [--turns 120] [--chouette-games 50]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path

from bench.loop_lag import lengthen, store_state
from bench.turns import CHOUETTE_TARGET, MONEY_TARGET, game_line, ratio_line, same_mix
from botapp.heap import settle_heap
from botapp.settings import Settings
from club import picture_pool
from club.chouette.views import ChouetteOutcome
from tests.botprocess import cpu_seconds
from tests.chouette_clubkit import decide_randomly
from tests.discordkit import Harness, Msg, chouette_parts, play_turn

BOT_SETTINGS = {"synchronous": Settings.synchronous, "width": Settings.width}
"""The bot's own defaults (``config.toml`` without these keys), not the harness's test settings (OFF, 400 px)."""


def cpu_now() -> float:
    """CPU seconds so far of this process and of the picture workers."""
    return time.process_time() + sum(cpu_seconds(pid) for pid in picture_pool.worker_pids())


class Timed:
    """CPU and wall milliseconds of awaited work by kind (``cpu``, ``wall``: kind → times)."""

    def __init__(self) -> None:
        self.cpu: dict[str, list[float]] = {}
        self.wall: dict[str, list[float]] = {}

    async def time(self, work, kind: str) -> None:
        """Await ``work``; add its CPU (:func:`cpu_now`) and wall milliseconds to ``kind``."""
        started, cpu = time.perf_counter(), cpu_now()
        await work
        self.cpu.setdefault(kind, []).append((cpu_now() - cpu) * 1000)
        self.wall.setdefault(kind, []).append((time.perf_counter() - started) * 1000)


@asynccontextmanager
async def bot_harness(path: Path, seed: int):
    """The harness with the bot's own settings and heap (see the module docstring)."""
    async with Harness.start(path, seed=seed, settings=BOT_SETTINGS) as h:
        settle_heap()
        yield h


async def money_turns(folder: Path, games: list[int], turns: int) -> dict[int, Timed]:
    """CPU and wall milliseconds of ``turns`` turns of each game of ``games`` of money sessions through one harness,
    by the pending decision (``roll_or_double``, ``play`` …). Every session but game 1's plays three games by buttons
    and is then repeated to its game (``lengthen``); the turns of the sessions are taken in turn, one of each, so that
    other work on the machine weighs on every game alike."""
    path = folder / "money.sqlite3"
    rng = random.Random(sum(games))
    matches: dict[int, int] = {}
    async with bot_harness(path, len(games)) as h:
        service = h.bot.service
        room = h.channel()
        for game in games:
            first, second = h.member(f"First {game}"), h.member(f"Second {game}")
            await h.command(first, "bg challenge", room, opponent=second, length="money")
            await h.press(second, h.last(room), "Accept")
            match_id = matches[game] = len(matches) + 1
            if game == 1:
                continue
            while (await service.state(match_id)).game_number < 4:  # three games by buttons
                await play_turn(h, match_id, rng, cube=0.05)
            await h.settle()
            lengthen(path, match_id, 3, game - 1)
            await store_state(service.db, match_id)
            view = await service.state(match_id)
            member = h.members[view.waiting_for]
            homes = await service.messages(match_id, purpose="home")
            if view.pending in ("roll", "roll_or_double"):  # no board of this version yet: the command posts one
                await h.command(member, "bg roll", homes[-1].channel_id)
            elif view.pending != "play":
                await h.command(member, "bg take", homes[-1].channel_id)
            assert (await service.state(match_id)).game_number == game
        timed_games = {game: Timed() for game in games}
        for _ in range(turns):
            for game, match_id in matches.items():
                view = await service.state(match_id)
                if view.status == "active":
                    await timed_games[game].time(play_turn(h, match_id, rng, cube=0.05), view.pending)
    return timed_games


def _newest_with(h: Harness, session_id: int, mark: str, member: int, action: str) -> tuple[Msg, str] | None:
    """The newest message carrying ``member``'s ``action`` component of chouette ``session_id`` at ``mark`` (the
    session's current mark: an older component is stale), and its id."""
    prefixes = (f"t:c:{session_id}:{mark}:", f"tm:c:{session_id}:{mark}:")
    for data in reversed(list(h.world.messages.values())):
        for row in data.get("components") or []:
            for item in row.get("components") or []:
                custom_id = item.get("custom_id", "")
                if custom_id.startswith(prefixes) and chouette_parts(custom_id) == (member, action):
                    return Msg(h.world, int(data["id"])), custom_id
    return None


async def chouette_press(h: Harness, session_id: int, rng: random.Random) -> str:
    """Make the first decision chouette ``session_id`` waits for by a button or menu of its newest post that has
    it; returns the kind of decision."""
    view = await h.bot.chouettes.state(session_id)
    decision = view.decisions[0]
    actor, subject = h.members[decision.actor], decision.subject
    if decision.pending == "play":
        found = _newest_with(h, session_id, view.mark, subject, "play")
        plays = await h.bot.chouettes.legal_plays(session_id, decision.actor)
        if found is None or len(plays) > 25:
            await h.command(actor, "bg chouette move", h.room, play=rng.choice(plays))
        else:
            message, custom_id = found
            await h.press(actor, message, custom_id, values=[rng.choice(message.options(custom_id))])
        return "play"
    wanted = {"roll": ["roll"], "double": ["pass"], "extra": ["no_extra"]}.get(
        decision.pending, [a for a in ("take", "drop") if a in decision.actions] or list(decision.actions)
    )
    action = rng.choice(wanted)
    found = _newest_with(h, session_id, view.mark, subject, action)
    if found is None:
        raise AssertionError(f"no {action!r} component for {subject} ({decision.pending})")
    await h.press(actor, found[0], found[1])
    return decision.pending


async def chouette_decisions(folder: Path, last: int, wall: dict) -> dict[int, dict[str, list[float]]]:
    """``{game: {kind of decision: [CPU ms, …]}}`` for games 1 and ``last`` of one chouette, through the harness;
    the wall milliseconds go to ``wall[game]``."""
    path = folder / "chouette.sqlite3"
    rng = random.Random(11)
    out: dict[int, dict[str, list[float]]] = {1: {}, last: {}}
    async with bot_harness(path, 11) as h:
        people = [h.member(name) for name in ("Ann", "Bob", "Cy", "Di", "Ed")]
        h.room = h.channel("club-night")
        await h.command(people[0], "bg chouette start", h.room)
        for member in people[1:]:
            await h.command(member, "bg chouette join", h.room)
        await h.command(people[-1], "bg chouette seat", h.room)
        chouettes = h.bot.chouettes
        while (view := await chouettes.state(1)).game_number <= last:
            game = view.game_number
            if game in out:
                started, cpu = time.perf_counter(), cpu_now()
                kind = await chouette_press(h, 1, rng)
                out[game].setdefault(kind, []).append((cpu_now() - cpu) * 1000)
                wall.setdefault(game, {}).setdefault(kind, []).append((time.perf_counter() - started) * 1000)
                continue
            outcome = ChouetteOutcome(view, "")
            while outcome.view.game_number == game or (  # untimed, through the use-cases, into the timed game up
                outcome.view.game_number == last and outcome.view.decisions[0].pending != "play"  # to its first play:
            ):  # /bg chouette move posts its first board (the boards posted before are stale)
                h.clock.advance(5)
                outcome = await decide_randomly(chouettes, outcome, rng, double=0.1)
            if game % 10 == 0:
                print(f"    (chouette game {game} done)")
    return out


async def main(args) -> int:
    ok = True
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(f"bot settings: {BOT_SETTINGS}, start-up heap settled; load average {os.getloadavg()[0]:.1f}")
        print(f"1. money sessions through the cog, {args.turns} turns of each game taken in turn (CPU ms per turn, "
              f"board image included):")  # fmt: skip
        money = await money_turns(folder, args.games, args.turns)
        for game in args.games:
            print(game_line(game, money[game].cpu, "turns", digits=1))
            print(f"      wall: {game_line(game, money[game].wall, 'turns', digits=1).strip()}")
        first, last_game = money[args.games[0]], money[args.games[-1]]
        ratio = same_mix(first.cpu, last_game.cpu)
        ok &= ratio <= MONEY_TARGET
        print(ratio_line(args.games[0], args.games[-1], ratio, MONEY_TARGET, "turns") + " in CPU time; in wall "
              f"time {same_mix(first.wall, last_game.wall):.2f}")  # fmt: skip
        last = args.chouette_games
        print("2. chouette of five members through the cog (CPU ms per decision, boards and windows included):")
        wall: dict[int, dict[str, list[float]]] = {}
        found = await chouette_decisions(folder, last, wall)
        for game in (1, last):
            print(game_line(game, found[game], "decisions", digits=1))
        ratio = same_mix(found[1], found[last])
        ok &= ratio <= CHOUETTE_TARGET
        print(ratio_line(1, last, ratio, CHOUETTE_TARGET, "decisions") + " in CPU time; in wall time "
              f"{same_mix(wall[1], wall[last]):.2f}")  # fmt: skip
        print(f"load average {os.getloadavg()[0]:.1f}")
    print("all targets met" if ok else "some targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 100, 300])
    parser.add_argument("--turns", type=int, default=120)
    parser.add_argument("--chouette-games", type=int, default=50)
    sys.exit(asyncio.run(main(parser.parse_args())))
