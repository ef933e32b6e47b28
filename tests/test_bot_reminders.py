"""The reminder loop through the harness (RULES A2, M5): what the scheduler says is due is posted in the game's
thread — a reminder to the member who must act, and at the deadline the club's policy (here: he forfeits the game)
with the new board."""

from __future__ import annotations

import logging

import pytest

from club import InjectedDice, ManualClock
from tests.discordkit import GUILD, Harness

pytestmark = pytest.mark.backends


async def tick(h: Harness) -> list:
    """One round of the reminder loop (as its ``tasks.loop`` runs it); the notices it handled."""
    notices = await h.bot.get_cog("Reminders").tick()
    await h.settle()
    return notices


async def test_reminders_and_expiry_are_posted_once(tmp_path):
    """RULES A2: a reminder an hour before the deadline mentions the member (and DMs him, as he asked); at the
    deadline the forfeit_game policy ends the game (M5) and the next board is posted; nothing fires twice."""
    clock = ManualClock()
    dice = InjectedDice([(6, 1)], fallback=b"t")
    async with Harness.start(tmp_path / "club.sqlite3", clock=clock, dice=dice, reviews=False) as h:
        await h.bot.service.configure_club(GUILD, move_time=7200.0, reminders=[3600.0], expiry_policy="forfeit_game")
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel()
        await h.command(alice, "bg notify", lobby, state="on")
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="5")
        await h.press(bob, h.last(lobby), "Accept")
        thread = h.thread_of(h.last(lobby))
        assert await tick(h) == []

        clock.advance(3601)
        notices = await tick(h)
        assert [notice.kind for notice in notices] == ["reminder"]
        post = h.last(thread)
        assert post.content.startswith(alice.mention) and "Reminder" in post.content and "hours left" in post.content
        assert h.dms(alice) and "Reminder" in h.dms(alice)[-1].content
        assert await tick(h) == [], "a reminder fires once"

        clock.advance(3600)
        notices = await tick(h)
        assert [notice.kind for notice in notices] == ["expiry"]
        assert any("Time is up for Alice" in message.content for message in h.messages(thread))
        board = h.last(thread)
        assert board.png is not None and "forfeits the game" in board.embed["description"]
        view = await h.bot.service.state(1)
        assert view.game_number == 2 and view.score[view.side_of(bob.id)] >= 1
        assert await tick(h) == [], "the expiry fires once"


async def test_a_failed_post_does_not_stop_the_others(tmp_path, caplog):
    """One notice that cannot be posted is logged; the loop goes on with the rest."""
    clock = ManualClock()
    async with Harness.start(tmp_path / "club.sqlite3", clock=clock) as h:
        await h.bot.service.configure_club(GUILD, challenge_time=7200.0, reminders=[3600.0])
        alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
        lobby = h.channel()
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="3")
        await h.command(alice, "bg challenge", lobby, opponent=carol, length="3")
        calls = []
        original = h.bot.publisher.post_notice

        async def flaky(notice, **options):
            calls.append(notice.table_id)
            if notice.table_id == 1 and len(calls) < 3:
                raise RuntimeError("Discord is down")
            await original(notice, **options)

        h.bot.publisher.post_notice = flaky
        clock.advance(3601)
        with caplog.at_level(logging.INFO):
            notices = await tick(h)
        assert sorted(calls) == [1, 2] and [notice.table_id for notice in notices] == [2]
        assert "Reminder: Carol" in h.last(lobby).content
        assert any("could not post the reminder of match 1" in record.getMessage() for record in caplog.records)
        again = await tick(h)  # the notice that failed stays pending: posted the next round, once
        assert [notice.table_id for notice in again] == [1] and "Reminder: Bob" in h.last(lobby).content
        assert await tick(h) == [] and sum("Reminder: Bob" in m.content for m in h.messages(lobby)) == 1


class Killed(BaseException):
    """The process dies here: nothing after this point runs (not an error the loop would log and survive)."""


@pytest.mark.parametrize("after_the_post", [False, True])
async def test_a_kill_between_recording_and_posting_a_notice_posts_it_once_after_the_restart(tmp_path, after_the_post):
    """At-least-once notices, each posted once: the reminder is recorded pending with its firing, then the process
    dies — before its post reached Discord, or after it but before it was marked posted. The restarted bot (on
    PostgreSQL: a new process taking the scheduler's lease over, the dead one's given up) posts what is pending:
    the reminder is in the thread exactly once, and never again."""
    clock = ManualClock()
    async with Harness.start(tmp_path / "club.sqlite3", clock=clock, reviews=False) as h:
        await h.bot.service.configure_club(GUILD, challenge_time=7200.0, reminders=[3600.0])
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel()
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="3")
        original = h.bot.publisher.post_notice

        async def dies(notice, **options):
            if after_the_post:
                await original(notice, **options)
            raise Killed

        h.bot.publisher.post_notice = dies
        clock.advance(3601)
        with pytest.raises(Killed):
            await h.bot.get_cog("Reminders").tick()
        await h.settle()
        assert sum("Reminder: Bob" in m.content for m in h.messages(lobby)) == (1 if after_the_post else 0)
        await h.restart()
        notices = await tick(h)
        assert [notice.kind for notice in notices] == ["reminder"]
        assert sum("Reminder: Bob" in m.content for m in h.messages(lobby)) == 1
        assert await tick(h) == []
        await h.restart()
        assert await tick(h) == [] and sum("Reminder: Bob" in m.content for m in h.messages(lobby)) == 1


def dies_after(owner, name: str) -> None:
    """``owner.name`` (a coroutine method) does its work, then the process dies (:class:`Killed`)."""
    original = getattr(owner, name)

    async def dies(*args, **options):
        await original(*args, **options)
        raise Killed

    setattr(owner, name, dies)


@pytest.mark.parametrize("policy", ["forfeit_game", "lapse"])
async def test_a_kill_right_after_the_clubs_own_step_keeps_its_notice_and_posts_it_once(tmp_path, policy):
    """At-least-once notices, the club's own steps: at the deadline the club acts (the late member forfeits the
    game; an unanswered challenge lapses) and the process dies the moment that step is committed. The notice was
    recorded pending in the same transaction as the step, so the restarted bot posts it — exactly once."""
    clock = ManualClock()
    dice = InjectedDice([(6, 1)], fallback=b"t")
    async with Harness.start(tmp_path / "club.sqlite3", clock=clock, dice=dice, reviews=False) as h:
        await h.bot.service.configure_club(GUILD, move_time=7200.0, challenge_time=7200.0, reminders=[],
                                           expiry_policy="forfeit_game")  # fmt: skip
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel()
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="5")
        if policy == "forfeit_game":
            await h.press(bob, h.last(lobby), "Accept")
            where = h.thread_of(h.last(lobby))
        else:
            where = lobby
        dies_after(h.bot.service.db, "commit")
        clock.advance(7201)
        with pytest.raises(Killed):
            await h.bot.get_cog("Reminders").tick()
        await h.settle()
        view = await h.bot.service.state(1)
        assert view.status == ("active" if policy == "forfeit_game" else "expired") and view.version > 1
        assert view.game_number == (2 if policy == "forfeit_game" else 0), "the club's step was committed"

        def told() -> int:
            return sum("Time is up for" in m.content for m in h.messages(where))

        assert told() == 0
        await h.restart()
        notices = await tick(h)
        assert [notice.kind for notice in notices] == ["expiry"] and told() == 1
        assert await tick(h) == []
        await h.restart()
        assert await tick(h) == [] and told() == 1
