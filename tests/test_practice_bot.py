"""Practice in Discord, through the harness: ``/study practice`` starts a game against the engine in its own thread,
the engine's turns are played by the bot (its seat: the bot's user), hints are allowed there and still refused in a
rated game; without the engine the command says how to enable analysis."""

from __future__ import annotations

import random
import sys

import pytest

from club.analysis import ENABLE_ANALYSIS, engine_available
from tests.discordkit import BOT_ID, Harness, play_turn

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")


@needs_engine
async def test_practice_starts_and_the_engine_plays_its_turns(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    answer = await h.command(alice, "study practice", games, length=1, strength="beginner")
    assert answer.private and "practice: Alice vs Open Sage (beginner), 1-point match" in answer.text, answer.text
    service = h.bot.service
    match_id = (await service.history(alice.id, limit=1))[0].match_id
    thread = h.thread_of(h.messages(games)[0])
    view = await service.state(match_id)
    assert view.practice and view.players == (alice.id, BOT_ID) and view.status == "active"
    assert view.waiting_for == alice.id  # the engine's opening turn, if it had one, is played already
    # a hint in the practice thread: allowed, for the current position
    hint = await h.command(alice, "study hint", thread)
    assert hint.private and ("Best plays of" in hint.text or "Right action" in hint.text), hint.text
    rng = random.Random(4)
    engine_plays = 0
    for _ in range(200):
        view = await service.state(match_id)
        if view.status == "over" or engine_plays >= 2:
            break
        assert view.waiting_for == alice.id, f"the engine's turn was left: {view.pending}"
        assert await service.db.get_deadline(match_id) is None  # a practice game has no clock at all
        await play_turn(h, match_id, rng)
        engine_plays = sum(a.kind == "play" and a.member_id == BOT_ID for a in await service.log(match_id))
    assert engine_plays >= 1 or view.status == "over"
    # the engine's boards are posted in the thread like anyone's: the last one names what it played
    texts = [m.text for m in h.messages(thread)]
    assert any("Open Sage plays" in text for text in texts), texts[-3:]
    # a rated match between members: hints refused there (RULES 003 1.5)
    await h.command(alice, "bg challenge", games, opponent=bob, length="3")
    await h.press(bob, h.last(games), "Accept")
    rated = h.thread_of(h.last(games))
    refused = await h.command(alice, "study hint", rated)
    assert "No hints in match" in refused.text and "003 1.5" in refused.text


async def test_practice_without_the_engine_says_how_to_enable_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)  # `import bgsage` fails, as without the optional install
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice = h.member("Alice")
        answer = await h.command(alice, "study practice", h.channel(), length=3)
        assert answer.private and answer.text == ENABLE_ANALYSIS
        assert await h.bot.service.history(alice.id) == []


@needs_engine
async def test_an_engine_turn_left_by_a_failure_is_played_after_a_restart(tmp_path, monkeypatch):
    """The engine's turn fails (its worker gone, say): the game waits, nothing is stored; after a restart the bot
    plays the turn it owed (cogs.study resume_practice)."""

    async def broken(*args, **kwargs):
        raise RuntimeError("the engine's worker is gone")

    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice = h.member("Alice")
        await h.command(alice, "study practice", h.channel(), length=3, strength="advanced")
        service = h.bot.service
        match_id = (await service.history(alice.id, limit=1))[0].match_id
        module = sys.modules[type(h.bot.get_cog("Study")).__module__]  # (load_extension made a module of its own)
        monkeypatch.setattr(module, "engine_turns", broken)
        rng = random.Random(8)
        for _ in range(20):
            view = await service.state(match_id)
            if view.engine_to_act:
                break
            await play_turn(h, match_id, rng)
        view = await service.state(match_id)
        assert view.engine_to_act and await service.db.get_deadline(match_id) is None
        version = view.version
        h.clock.advance(30 * 86400)  # a month: the scheduler neither reminds nor expires the engine seat
        await h.tick()
        assert (await service.state(match_id)).version == version
        await h.restart()  # a new bot: its cog module loaded again, the real engine_turns
        await h.settle()
        view = await h.bot.service.state(match_id)
        assert view.version > version and not view.engine_to_act and view.waiting_for in (alice.id, None)


@needs_engine
async def test_a_practice_match_to_its_end_in_discord_is_reviewed_but_not_kept(harness):
    """Played to the end through the buttons: the review is posted in its thread (hints and reviews are the point of
    practice), but no PR enters the club's records and the PR leaderboard stays empty."""
    import asyncio

    from storage.prs import match_prs

    h = harness
    alice = h.member("Alice")
    games = h.channel()
    await h.command(alice, "study practice", games, length=1, strength="beginner")
    service = h.bot.service
    match_id = (await service.history(alice.id, limit=1))[0].match_id
    thread = h.thread_of(h.messages(games)[0])
    rng = random.Random(21)
    for _ in range(300):
        view = await service.state(match_id)
        if view.status == "over":
            break
        assert view.waiting_for == alice.id
        await play_turn(h, match_id, rng)
    assert view.status == "over"
    for _ in range(600):
        reviews = [m for m in h.messages(thread) if m.text.startswith("**Review:")]
        if reviews:
            break
        await asyncio.sleep(0.1)
    assert reviews and "Open Sage: PR" in reviews[0].text
    await h.settle()
    assert await match_prs(service.db, match_id) == []
    from club.records import ClubRecords

    assert (await ClubRecords(service).leaderboard(h.world.guild_id, "pr")).rows == ()
