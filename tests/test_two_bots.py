"""Two bot processes on one PostgreSQL database, through the fake Discord (:mod:`tests.botprocess`): two real bots
(``bot.py``'s start-up, every cog) share the club, as two shards would. Their interactions are answered once each,
wherever a game's last action was made; the scheduler's lease is held by one of them at a time; a SIGKILL of either,
with an action in flight, loses nothing — the other goes on with the same games, and every game's log verifies."""

from __future__ import annotations

import asyncio
import random

import pytest

asyncpg = pytest.importorskip("asyncpg")

from club import ClubService  # noqa: E402
from club.verify import verify_database  # noqa: E402
from cogs.errors import APOLOGY  # noqa: E402
from storage import Database  # noqa: E402
from tests.botprocess import BotProcess, Gateway  # noqa: E402

pytestmark = pytest.mark.slow  # two bot processes started, a few seconds each

SETTINGS = {"width": 400, "reminder_seconds": 0.2}


async def _act(gateway: Gateway, bot: BotProcess, service: ClubService, match_id: int, rng: random.Random):
    """The member on turn in match ``match_id`` makes his decision with a slash command in the game's thread (a
    command needs no board of the current version: the one before a kill may never have been posted); returns the
    interaction's record, sent to ``bot`` (not awaited)."""
    view = await service.state(match_id)
    member = gateway.members[view.waiting_for]
    thread = (await service.messages(match_id, purpose="home"))[-1].channel_id
    if view.pending == "play":
        play = rng.choice(await service.legal_plays(match_id, member.id))
        return gateway.command(bot, member, "bg", "move", thread, [{"type": 3, "name": "play", "value": play}])
    assert view.pending in ("roll", "roll_or_double"), view.pending
    return gateway.command(bot, member, "bg", "roll", thread, [])


def _answered_once(record) -> None:
    assert len(record.callbacks) == 1, f"{record.label}: {len(record.callbacks)} initial responses"


async def _lease_held_by_a_bot(url: str) -> bool:
    """Whether a bot holds the scheduler's lease: a third process cannot take it."""
    async with Database.open(url) as db:
        lease = db.scheduler_lease()
        try:
            return not await lease.hold()
        finally:
            await lease.release()


@pytest.mark.parametrize("killed", [0, 1])
async def test_two_bots_share_the_club_and_a_kill_of_either_loses_nothing(pg_url, killed):
    rng = random.Random(killed)
    gateway = Gateway()
    base = await gateway.open()
    bots: list[BotProcess] = []
    try:
        bots = list(await asyncio.gather(*(BotProcess.start(base, url=pg_url, settings=SETTINGS) for _ in range(2))))
        for bot in bots:
            gateway.attach(bot)
            bot.ready()  # the reminder loops start: each asks for the scheduler's lease every 0.2 s
        members = [gateway.member(name) for name in ("Ann", "Bob", "Cy", "Di")]
        channel = gateway.channel("games")
        await gateway.open_games(bots[0], [(members[0], members[1])], channel)  # challenged on one,
        await gateway.open_games(bots[1], [(members[2], members[3])], channel)  # and on the other
        async with Database.open(pg_url) as db:
            service = ClubService(db)
            sent = []
            for turn in range(12):  # each game's turns alternate between the two bots
                bot = bots[turn % 2]
                sent.append(await _act(gateway, bot, service, 1 + turn % 2, rng))
                await bot.settle()
                _answered_once(sent[-1])
            for bot in bots:
                await bot.settle()
            assert await _lease_held_by_a_bot(pg_url), "one bot holds the scheduler's lease"
            versions = {match: (await service.state(match)).version for match in (1, 2)}
            in_flight = await _act(gateway, bots[killed], service, 1, rng)
            await bots[killed].process.stdin.drain()
            await bots[killed].kill()  # SIGKILL, its action in flight
            gateway.detach(bots[killed])
            survivor = bots[1 - killed]
            assert len(in_flight.callbacks) <= 1
            moved = (await service.state(1)).version > versions[1]  # done before the kill, or not at all
            for turn in range(6):  # the survivor plays on, both games, from whatever was stored
                sent.append(await _act(gateway, survivor, service, 1 + turn % 2, rng))
                await survivor.settle()
                _answered_once(sent[-1])
            for _ in range(100):  # the lease of a killed holder is freed with its session; the survivor takes it
                if await _lease_held_by_a_bot(pg_url):
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("nobody holds the scheduler's lease after the kill")
            assert not [r for r in await verify_database(db) if r.problems], "every game's log verifies"
            assert (await service.state(1)).version >= versions[1] + 3 + moved  # nothing done was lost
        apologies = [m for m in gateway.world.messages.values() if APOLOGY[:40] in (m.get("content") or "")]
        assert not apologies and not gateway.world.violations and not gateway.world.unhandled
        assert await survivor.stop() == 0
        assert not await _lease_held_by_a_bot(pg_url), "the survivor gave the lease up when it stopped"
    finally:
        for bot in bots:
            if bot.process.returncode is None:
                await bot.kill()
        await gateway.close()
