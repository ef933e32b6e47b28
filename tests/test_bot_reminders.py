"""The reminder loop (RULES A2, M5): what the scheduler says is due is posted in the game's thread — a reminder to
the member who must act, and at the deadline the club's policy (here: he forfeits the game) with the new board."""

from __future__ import annotations

import pytest
from botkit import GUILD, call, cog_of, running_bot

from club import InjectedDice, ManualClock

pytestmark = pytest.mark.backends

ALICE, BOB = 101, 202


async def test_reminders_and_expiry_are_posted_once(tmp_path):
    """RULES A2: a reminder an hour before the deadline mentions the member (and DMs him, as he asked); at the
    deadline the forfeit_game policy ends the game (M5) and the next board is posted; nothing fires twice."""
    clock = ManualClock()
    async with running_bot(tmp_path / "club.sqlite3", clock=clock, dice=InjectedDice([(6, 1)], fallback=b"t")) as (
        bot,
        fake,
    ):
        cog = cog_of(bot)
        reminders = bot.get_cog("Reminders")
        await bot.service.configure_club(GUILD, move_time=7200.0, reminders=[3600.0], expiry_policy="forfeit_game")
        alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
        lobby = fake.text_channel()
        await call(cog.notify, cog, fake.interaction(alice, lobby), state="on")
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length="5")
        await fake.press(bob, fake.last(lobby.id).custom_id("accept"))
        thread = fake.last(lobby.id).threads[0]
        assert await reminders.tick() == []

        clock.advance(3601)
        notices = await reminders.tick()
        assert [notice.kind for notice in notices] == ["reminder"]
        post = fake.last(thread)
        assert post.content.startswith(f"<@{ALICE}>") and "Reminder" in post.content and "hours left" in post.content
        assert fake.dms and fake.dms[-1][0] == ALICE and "Reminder" in fake.dms[-1][1]
        assert await reminders.tick() == [], "a reminder fires once"

        clock.advance(3600)
        notices = await reminders.tick()
        assert [notice.kind for notice in notices] == ["expiry"]
        texts = [p.content for p in fake.in_channel(thread)]
        assert any("Time is up for Alice" in text for text in texts)
        board = fake.last(thread)
        assert board.png is not None and "forfeits the game" in board.embed.description
        view = await bot.service.state(1)
        assert view.game_number == 2 and view.score[view.side_of(BOB)] >= 1
        assert await reminders.tick() == [], "the expiry fires once"


async def test_a_failed_post_does_not_stop_the_others(tmp_path, caplog):
    """One notice that cannot be posted is logged; the loop goes on with the rest."""
    clock = ManualClock()
    async with running_bot(tmp_path / "club.sqlite3", clock=clock) as (bot, fake):
        cog = cog_of(bot)
        reminders = bot.get_cog("Reminders")
        await bot.service.configure_club(GUILD, challenge_time=7200.0, reminders=[3600.0])
        alice, bob, carol = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob"), fake.member(303, "Carol")
        lobby = fake.text_channel()
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length="3")
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=carol, length="3")
        calls = []
        original = bot.publisher.post_notice

        async def flaky(notice):
            calls.append(notice.table_id)
            if notice.table_id == 1:
                raise RuntimeError("Discord is down")
            await original(notice)

        bot.publisher.post_notice = flaky
        clock.advance(3601)
        notices = await reminders.tick()
        assert sorted(calls) == [1, 2] and len(notices) == 2
        assert "Reminder: Carol" in fake.last(lobby.id).content
        assert any("could not post the reminder of match 1" in record.getMessage() for record in caplog.records)
