"""Persistent buttons through the harness (tests/discordkit.py): only the member concerned can press, stale buttons
are refused, buttons survive a restart; errors are ephemeral and explain what is possible; unexpected errors are
logged with an apology."""

from __future__ import annotations

import logging

import bot as botmod
from club import InjectedDice
from cogs.errors import APOLOGY
from tests.clubkit import snapshot
from tests.discordkit import GUILD, Harness


async def open_match(h: Harness, length="5"):
    """Alice challenges Bob in a lobby; Carol looks at her games (a club member too)."""
    alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
    lobby = h.channel("lobby")
    await h.command(alice, "bg challenge", lobby, opponent=bob, length=length)
    challenge = h.last(lobby)
    assert (await h.command(carol, "bg games", lobby)).private
    return alice, bob, carol, lobby, challenge


async def test_another_members_button_is_refused_and_changes_nothing(tmp_path):
    """Only the member concerned can press: Carol (not a player) and Alice (the challenger) pressing Bob's Accept,
    then Bob pressing Alice's play menu, are refused privately and the database is byte-for-byte unchanged."""
    path = tmp_path / "club.sqlite3"
    async with Harness.start(path, dice=InjectedDice([(6, 1)], fallback=b"b")) as h:
        alice, bob, carol, lobby, challenge = await open_match(h)
        before = snapshot(path)
        pressed = await h.press(carol, challenge, "Accept")
        assert pressed.private and "You do not play in match 1" in pressed.text
        pressed = await h.press(alice, challenge, "Accept")
        assert pressed.private and "Bob must accept or decline" in pressed.text
        assert snapshot(path) == before
        assert challenge.actions == ["accept", "decline", "cancel", "luck"], "the buttons are still there for Bob"
        await h.press(bob, challenge, "Accept")
        board = h.last(h.thread_of(challenge))
        assert board.content.startswith(alice.mention)
        before = snapshot(path)
        pressed = await h.press(bob, board, board.action_id("play"), values=[board.menu_options[0]])
        assert pressed.private and "It is not your turn: Alice must play 6-1" in pressed.text
        assert snapshot(path) == before


async def test_stale_button_explains_and_changes_nothing(tmp_path):
    """A button drawn for an older version (the game moved on) answers privately "Already done" and changes
    nothing; the current one works with no answer beyond the silent update."""
    path = tmp_path / "club.sqlite3"
    async with Harness.start(path, dice=InjectedDice([(6, 1)], fallback=b"s")) as h:
        alice, bob, carol, lobby, challenge = await open_match(h)
        old_challenge = challenge.seen()
        await h.press(bob, challenge, "Accept")
        thread = h.thread_of(challenge)
        board = h.last(thread)
        old_board = board.seen()
        await h.press(alice, board, board.action_id("play"), values=["13/7 8/7"])
        before = snapshot(path)
        again = await h.press(bob, old_challenge, "Accept")
        assert again.private and again.text.startswith("Already done")
        stale = await h.press(alice, old_board, old_board.action_id("play"), values=["24/23 24/18"])
        assert stale.private and "Already done" in stale.text
        assert snapshot(path) == before
        current = h.last(thread)
        assert current.actions == ["roll", "double", "luck"] and current.content.startswith(bob.mention)
        pressed = await h.press(bob, current, "Roll")
        assert pressed.initial == 6 and pressed.messages == [], "a working button needs no extra reply"
        assert (await h.bot.service.state(1)).pending == "play"


async def test_button_created_before_a_restart_works_after_it(tmp_path):
    """The persistent buttons carry everything in their custom_id: a board posted by one bot process is pressed
    after that bot closed and a new one started on the same database, through discord.py's own dispatch of the
    dynamic items registered in setup_hook."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1), (3, 2)], fallback=b"r")) as h:
        alice, bob, carol, lobby, challenge = await open_match(h)
        await h.press(bob, challenge, "Accept")
        thread = h.thread_of(challenge)
        await h.command(alice, "bg move", thread, play="13/7 8/7")
        board = h.last(thread)
        first = h.bot
        await h.restart()
        assert first.is_closed() and first.database is None and h.bot is not first
        pressed = await h.press(bob, board, "Roll")
        assert pressed.initial == 6 and pressed.messages == []
        view = await h.bot.service.state(1)
        assert view.pending == "play" and view.game.dice == (3, 2)
        assert h.last(thread).content.startswith(bob.mention)
        assert h.last(thread).id == board.id and board.edits >= 1, "Bob keeps acting: his board is edited"
        # and the menu of plays works after the restart too
        current = h.last(thread)
        await h.press(bob, current, current.action_id("play"), values=[current.menu_options[0]])
        assert (await h.bot.service.state(1)).waiting_for == alice.id


async def test_bot_opens_and_closes_its_own_database(tmp_path):
    """bot.py: setup_hook opens storage, loads the extensions and registers the persistent items; close() closes the
    database (an open aiosqlite connection would hang the event loop at exit). Direct, not through the harness:
    it is about the bot's life cycle with no Discord at all (no login, no interaction)."""
    settings = botmod.Settings(database=tmp_path / "own.sqlite3")
    bot = botmod.BgBot(settings)
    await bot._async_setup_hook()
    await bot.setup_hook()
    assert bot.database is not None and (tmp_path / "own.sqlite3").exists()
    assert set(bot.extensions) == set(botmod.EXTENSIONS) and {"cogs.bg", "cogs.reminders"} <= set(bot.extensions)
    patterns = {pattern.pattern for pattern in bot._connection._view_store._dynamic_items}
    assert any(pattern.startswith("t:") for pattern in patterns)
    assert any(pattern.startswith("tm:") for pattern in patterns)
    assert not bot.intents.members and not bot.intents.message_content and not bot.intents.presences
    await bot.close()
    assert bot.database is None


async def test_refusals_are_ephemeral_and_say_what_is_possible(tmp_path):
    """Rules errors become private messages with what is possible: a garbled play lists the legal plays (RULES
    G10), an action out of turn says whose turn it is, a double in the wrong phase says what is awaited."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1)], fallback=b"e")) as h:
        alice, bob, carol, lobby, challenge = await open_match(h)
        await h.press(bob, challenge, "Accept")
        thread = h.thread_of(challenge)
        garbled = await h.command(alice, "bg move", thread, play="13:7")
        assert "is not a move" in garbled.text and "13/7 8/7" in garbled.text
        out_of_turn = await h.command(bob, "bg roll", thread)
        assert "It is not your turn: Alice must play 6-1" in out_of_turn.text
        wrong_phase = await h.command(alice, "bg double", thread)
        assert "You cannot double now: you already rolled: play 6-1 (RULES D1" in wrong_phase.text
        no_raccoon = await h.command(alice, "bg raccoon", thread)
        assert "You cannot raccoon now: you must play 6-1" in no_raccoon.text
        nothing = await h.command(carol, "bg roll", lobby)
        assert "You have no game in progress" in nothing.text
        a_bot = h.member("Robot", bot=True)
        refused = await h.command(alice, "bg challenge", lobby, opponent=a_bot)
        assert "is a bot" in refused.text
        assert all(answer.private for answer in (garbled, out_of_turn, wrong_phase, no_raccoon, nothing, refused))


async def test_unexpected_error_is_logged_and_the_member_gets_an_apology(tmp_path, caplog):
    """A bug is not a refusal: it is logged with the context (command, member, guild, match) and the member gets a
    short apology — never Discord's "This interaction failed"."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1)], fallback=b"u")) as h:
        alice, bob, carol, lobby, challenge = await open_match(h)
        h.allow_apology = True

        async def broken(*args, **kwargs):
            raise RuntimeError("disk on fire")

        h.bot.service.accept = broken
        with caplog.at_level(logging.ERROR, logger="bgclub.discord"):
            pressed = await h.press(bob, challenge, "Accept")
            typed = await h.command(bob, "bg accept", lobby)
        for answer in (pressed, typed):
            assert answer.private and answer.messages[-1].content == APOLOGY
        records = [record for record in caplog.records if "unexpected error" in record.getMessage()]
        assert len(records) == 2 and records[0].exc_info[0] is RuntimeError
        assert "button accept" in records[0].getMessage() and f"guild {GUILD}" in records[0].getMessage()
        assert "/bg accept" in records[1].getMessage() and "match=1" in records[1].getMessage()
