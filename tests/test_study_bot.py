"""Issue 15 in Discord: ``/study hint`` (refused in a rated game and in a chouette while it is played, 003 1.5;
given for a position by ID), ``/study review`` and the review posted in the game's thread when a match ends (with
the costliest plays as board images), and the bot without the engine."""

from __future__ import annotations

import asyncio

import pytest
from botkit import PNG_MAGIC, call, cog_of, last_reply, running_bot
from chouette_botkit import command as chouette_command

from backgammon.position import Position
from club.analysis import ENABLE_ANALYSIS, engine_available

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")

ALICE, BOB = 101, 202


async def challenge_and_accept(bot, fake, *, length="1", rules=None):
    """(kept from the old tests/test_bot_game.py until this module moves onto the harness) Alice challenges Bob (command), Bob presses Accept; returns (alice, bob, thread)."""
    cog = cog_of(bot)
    alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
    lobby = fake.text_channel("lobby")
    interaction = await call(
        cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length=length, rules=rules
    )
    assert last_reply(interaction).ephemeral and "challenges Bob" in last_reply(interaction).content
    post = fake.last(lobby.id)
    assert post.content.startswith(f"<@{BOB}>"), "the challenged member is mentioned"
    assert post.actions == ["accept", "decline", "cancel"]
    await fake.press(bob, post.custom_id("accept"))
    assert post.custom_ids == [], "the answered challenge loses its buttons"
    assert len(post.threads) == 1, "the game gets its own thread, opened from the challenge"
    thread = fake.channels[post.threads[0]]
    assert f"<#{thread.id}>" in post.embed.description
    return alice, bob, thread


def study(bot):
    return bot.get_cog("Study")


async def test_hint_refused_during_a_rated_game_with_the_reason(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        alice, bob, thread = await challenge_and_accept(bot, fake, length="3")
        cog = study(bot)
        # in the game's thread, without a position: this match is being played
        asked = await call(cog.hint, cog, fake.interaction(alice, thread))
        text = last_reply(asked).content
        assert "No hints in match #1 while it is being played" in text and "003 1.5" in text
        # the Position ID of his own game in progress, from another channel: refused too
        view = await bot.service.state(1)
        elsewhere = fake.text_channel("lobby")
        for position_id in (view.game.board.position_id(), view.game.board.swap().position_id()):
            asked = await call(cog.hint, cog, fake.interaction(bob, elsewhere), position=position_id, dice="31")
            assert "your match #1" in last_reply(asked).content and "003 1.5" in last_reply(asked).content


async def test_hint_refused_in_a_chouette_being_played(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        ann = fake.member(301, "Ann")
        room = fake.text_channel("chouette")
        await chouette_command(bot, fake, "start", ann, room)
        cog = study(bot)
        asked = await call(cog.hint, cog, fake.interaction(ann, room), position=Position.initial().position_id())
        text = last_reply(asked).content
        assert "No hints in the chouette of this channel" in text and "003 1.5" in text


@needs_engine
async def test_hint_for_a_position_by_id(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        alice = fake.member(ALICE, "Alice")
        lobby = fake.text_channel("lobby")
        cog = study(bot)
        start = Position.initial().position_id()
        asked = await call(cog.hint, cog, fake.interaction(alice, lobby), position=start, dice="3-1")
        reply = last_reply(asked)
        assert reply.ephemeral and "Best plays of 3-1" in reply.content
        assert reply.content.splitlines()[3].startswith("1. 8/5 6/5")
        asked = await call(cog.hint, cog, fake.interaction(alice, lobby), position=start)
        assert "Right action: no double, take" in last_reply(asked).content
        asked = await call(cog.hint, cog, fake.interaction(alice, lobby), position="nonsense", dice="31")
        assert "is not a Position ID" in last_reply(asked).content


async def _play_to_the_end(bot, match_id: int) -> None:
    """Both members play the first legal play of every roll until the match is over (the service, not buttons)."""
    service = bot.service
    for _ in range(600):
        view = await service.state(match_id)
        if view.status == "over":
            return
        member = view.waiting_for
        if view.pending == "play":
            plays = await service.legal_plays(match_id, member)
            outcome = await service.play(match_id, member, plays[0], version=view.version)
        elif "roll" in view.legal:
            outcome = await service.roll(match_id, member, version=view.version)
        elif "take" in view.legal:
            outcome = await service.take(match_id, member, version=view.version)
        else:
            raise AssertionError(f"unexpected: {view.pending} {view.legal}")
        await bot.publisher.publish(outcome, actor=member)
    raise AssertionError("the match did not end")


@needs_engine
async def test_review_posted_at_match_end_with_images(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        alice, bob, thread = await challenge_and_accept(bot, fake, length="1")
        cog = study(bot)
        # no review while it is being played
        asked = await call(cog.review, cog, fake.interaction(alice, thread))
        assert "while it is being played" in last_reply(asked).content
        await _play_to_the_end(bot, 1)
        for _ in range(600):  # the review is posted by a listener task, the engine working in its processes
            reviews = [p for p in fake.in_channel(thread.id) if p.content.startswith("**Review:")]
            if reviews:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("no review was posted")
        text = reviews[0].content
        assert "Alice: PR" in text and "Bob: PR" in text and "Costliest plays:" in text and "Cube errors" in text
        # the review has the three costliest plays as pictures: the play made and the best play, with equities
        review = await cog.review_of(1)
        assert len(review.images) == 6
        assert all(png.startswith(PNG_MAGIC) for _, _, png in review.images)
        assert [caption.split(":")[1].split()[0] for _, caption, _ in review.images[:2]] == ["played", "best"]
        asked = await call(cog.review, cog, fake.interaction(bob, thread))
        assert last_reply(asked).content.startswith("**Review: Alice vs Bob, 1-point match (#1)")


async def test_without_the_engine_study_says_how_to_enable_it(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "bgsage", None)  # `import bgsage` fails, as without the optional install
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        alice = fake.member(ALICE, "Alice")
        cog = study(bot)
        lobby = fake.text_channel("lobby")
        asked = await call(cog.hint, cog, fake.interaction(alice, lobby), position=Position.initial().position_id())
        assert last_reply(asked).content == ENABLE_ANALYSIS
        asked = await call(cog.review, cog, fake.interaction(alice, lobby), game=1)
        assert last_reply(asked).content == ENABLE_ANALYSIS


@needs_engine
async def test_chouette_review_grades_each_members_cube_decisions(tmp_path):
    import random

    from chouette_clubkit import decide_randomly

    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        members = [fake.member(uid, name) for uid, name in ((301, "Ann"), (302, "Ben"), (303, "Cy"))]
        room = fake.text_channel("chouette")
        await chouette_command(bot, fake, "start", members[0], room)
        for member in members[1:]:
            await chouette_command(bot, fake, "join", member, room)
        sid = await bot.chouettes.session_in(room.id)
        outcome = await bot.chouettes.seat(sid, 303)
        rng = random.Random(3)
        while outcome.view.game_number < 2:
            outcome = await decide_randomly(bot.chouettes, outcome, rng, double=0.4)
        cog = study(bot)
        asked = await call(cog.review, cog, fake.interaction(members[0], room))
        text = last_reply(asked).content
        assert text.startswith("**Cube review: chouette #1**")
        assert sum(name in text for name in ("Ann", "Ben", "Cy")) >= 2 and "cube decisions" in text


@needs_engine
async def test_review_of_another_servers_match_is_unknown_here(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        alice, _bob, thread = await challenge_and_accept(bot, fake, length="1")
        cog = study(bot)
        elsewhere = fake.interaction(alice, fake.text_channel("lobby"))
        elsewhere.guild_id = 999
        asked = await call(cog.review, cog, elsewhere, game=1)
        assert "There is no match or session 1 here." in last_reply(asked).content
