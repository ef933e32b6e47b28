"""Persistent buttons: only the member concerned can press, stale buttons are refused, buttons survive a restart;
errors are ephemeral and explain what is possible; unexpected errors are logged with an apology."""

from __future__ import annotations

import logging

from botkit import GUILD, call, cog_of, last_reply, running_bot
from clubkit import snapshot

import bot as botmod
from club import InjectedDice
from cogs.errors import APOLOGY

ALICE, BOB, CAROL = 101, 202, 303


async def open_match(bot, fake, length="5"):
    cog = cog_of(bot)
    alice, bob, carol = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob"), fake.member(CAROL, "Carol")
    lobby = fake.text_channel("lobby")
    await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length=length)
    await call(cog.games, cog, fake.interaction(carol, lobby))  # Carol is a club member too
    return alice, bob, carol, lobby, fake.last(lobby.id)


async def test_another_members_button_is_refused_and_changes_nothing(tmp_path):
    """Only the member concerned can press: Carol (not a player) and Alice (the challenger) pressing Bob's Accept,
    then Bob pressing Alice's play menu, are refused privately and the database is byte-for-byte unchanged."""
    path = tmp_path / "club.sqlite3"
    async with running_bot(path, dice=InjectedDice([(6, 1)], fallback=b"b")) as (bot, fake):
        alice, bob, carol, lobby, challenge = await open_match(bot, fake)
        before = snapshot(path)
        pressed = await fake.press(carol, challenge.custom_id("accept"))
        assert last_reply(pressed).ephemeral and "You do not play in match 1" in last_reply(pressed).content
        pressed = await fake.press(alice, challenge.custom_id("accept"))
        assert last_reply(pressed).ephemeral and "Bob must accept or decline" in last_reply(pressed).content
        assert snapshot(path) == before
        assert challenge.actions == ["accept", "decline", "cancel"], "the buttons are still there for Bob"
        await fake.press(bob, challenge.custom_id("accept"))
        thread = challenge.threads[0]
        board = fake.last(thread)
        assert board.content.startswith(f"<@{ALICE}>")
        before = snapshot(path)
        pressed = await fake.press(bob, board.custom_id("play"), value=board.menu_options[0])
        reply = last_reply(pressed)
        assert reply.ephemeral and "It is not your turn: Alice must play 6-1" in reply.content
        assert snapshot(path) == before


async def test_stale_button_explains_and_changes_nothing(tmp_path):
    """A button drawn for an older version (the game moved on) answers privately "Already done" and changes
    nothing; the current one works."""
    path = tmp_path / "club.sqlite3"
    async with running_bot(path, dice=InjectedDice([(6, 1)], fallback=b"s")) as (bot, fake):
        alice, bob, carol, lobby, challenge = await open_match(bot, fake)
        accept = challenge.custom_id("accept")
        old_challenge = fake.as_seen(challenge)
        await fake.press(bob, accept)
        board = fake.last(challenge.threads[0])
        old_board = fake.as_seen(board)
        menu = board.custom_id("play")
        await fake.press(alice, menu, value="13/7 8/7")
        before = snapshot(path)
        again = await fake.press(bob, accept, seen=old_challenge)
        assert last_reply(again).ephemeral and last_reply(again).content.startswith("Already done")
        stale = await fake.press(alice, menu, value="24/23 24/18", seen=old_board)
        assert last_reply(stale).ephemeral and "Already done" in last_reply(stale).content
        assert snapshot(path) == before
        current = fake.last(challenge.threads[0])
        assert current.actions == ["roll", "double"] and current.content.startswith(f"<@{BOB}>")
        pressed = await fake.press(bob, current.custom_id("roll"))
        assert [reply.kind for reply in pressed.replies] == ["defer"], "a working button needs no extra reply"
        assert (await bot.service.state(1)).pending == "play"


async def test_button_created_before_a_restart_works_after_it(tmp_path):
    """The persistent buttons carry everything in their custom_id: a board posted by one bot process is pressed
    after that bot closed and a new one started on the same database, through discord.py's own dispatch of the
    dynamic items registered in setup_hook."""
    path = tmp_path / "club.sqlite3"
    async with running_bot(path, dice=InjectedDice([(6, 1)], fallback=b"r")) as (first, fake):
        alice, bob, carol, lobby, challenge = await open_match(first, fake)
        await fake.press(bob, challenge.custom_id("accept"))
        thread = challenge.threads[0]
        cog = cog_of(first)
        await call(cog.move, cog, fake.interaction(alice, fake.channels[thread]), play="13/7 8/7")
        board = fake.last(thread)
        roll = board.custom_id("roll")
    assert first.database is not None and first.is_closed()
    async with running_bot(path, dice=InjectedDice([(3, 2)], fallback=b"r2")) as (second, _unused):
        fake.attach(second)  # the same Discord: channels, threads and messages outlive the bot process
        pressed = await fake.press_via_library(fake.members[BOB], roll)
        assert [reply.kind for reply in pressed.replies] == ["defer"]
        view = await second.service.state(1)
        assert view.pending == "play" and view.game.dice == (3, 2)
        assert fake.last(thread).content.startswith(f"<@{BOB}>")
        assert fake.last(thread).id == board.id and board.edits >= 1, "Bob keeps acting: his board is edited"
        # and the menu of plays works after the restart too
        menu = fake.last(thread).custom_id("play")
        option = fake.last(thread).menu_options[0]
        await fake.press_via_library(fake.members[BOB], menu, value=option)
        assert (await second.service.state(1)).waiting_for == ALICE


async def test_bot_opens_and_closes_its_own_database(tmp_path):
    """bot.py: setup_hook opens storage, loads the extensions and registers the persistent items; close() closes the
    database (an open aiosqlite connection would hang the event loop at exit)."""
    settings = botmod.Settings(database=tmp_path / "own.sqlite3")
    bot = botmod.BgBot(settings)
    await bot._async_setup_hook()
    await bot.setup_hook()
    assert bot.database is not None and (tmp_path / "own.sqlite3").exists()
    assert set(bot.extensions) == set(botmod.EXTENSIONS) and {"cogs.bg", "cogs.reminders"} <= set(bot.extensions)
    patterns = {pattern.pattern for pattern in bot._connection._view_store._dynamic_items}
    assert {"t:", "tm:", "bg:", "bgplay:", "ch:", "chs:"} <= {pattern.split("(")[0] for pattern in patterns}
    assert not bot.intents.members and not bot.intents.message_content and not bot.intents.presences
    await bot.close()
    assert bot.database is None


async def test_refusals_are_ephemeral_and_say_what_is_possible(tmp_path):
    """Rules errors become private messages with what is possible: a garbled play lists the legal plays (RULES
    G10), an action out of turn says whose turn it is, a double in the wrong phase says what is awaited."""
    async with running_bot(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1)], fallback=b"e")) as (bot, fake):
        cog = cog_of(bot)
        alice, bob, carol, lobby, challenge = await open_match(bot, fake)
        await fake.press(bob, challenge.custom_id("accept"))
        thread = fake.channels[challenge.threads[0]]
        garbled = await call(cog.move, cog, fake.interaction(alice, thread), play="13-7")
        reply = last_reply(garbled)
        assert reply.ephemeral and "is not a move" in reply.content and "13/7 8/7" in reply.content
        out_of_turn = await call(cog.roll, cog, fake.interaction(bob, thread))
        assert "It is not your turn: Alice must play 6-1" in last_reply(out_of_turn).content
        wrong_phase = await call(cog.double, cog, fake.interaction(alice, thread))
        assert "You cannot double now: you already rolled: play 6-1 (RULES D1" in last_reply(wrong_phase).content
        no_raccoon = await call(cog.raccoon, cog, fake.interaction(alice, thread))
        assert "You cannot raccoon now: you must play 6-1" in last_reply(no_raccoon).content
        nothing = await call(cog.roll, cog, fake.interaction(carol, lobby))
        assert "You have no game in progress" in last_reply(nothing).content
        a_bot = fake.member(999, "Robot", bot=True)
        refused = await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=a_bot)
        assert "is a bot" in last_reply(refused).content
        assert all(reply.ephemeral for i in (garbled, out_of_turn, wrong_phase, nothing, refused) for reply in
                   i.replies if reply.kind != "defer")  # fmt: skip


async def test_unexpected_error_is_logged_and_the_member_gets_an_apology(tmp_path, caplog):
    """A bug is not a refusal: it is logged with the context (command, member, guild, match) and the member gets a
    short apology — never Discord's "This interaction failed"."""
    async with running_bot(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1)], fallback=b"u")) as (bot, fake):
        cog = cog_of(bot)
        alice, bob, carol, lobby, challenge = await open_match(bot, fake)

        async def broken(*args, **kwargs):
            raise RuntimeError("disk on fire")

        bot.service.accept = broken
        with caplog.at_level(logging.ERROR, logger="bgclub.discord"):
            pressed = await fake.press(bob, challenge.custom_id("accept"))
            typed = await call(cog.accept, cog, fake.interaction(bob, lobby))
        for interaction in (pressed, typed):
            assert last_reply(interaction).ephemeral and last_reply(interaction).content == APOLOGY
        records = [record for record in caplog.records if "unexpected error" in record.getMessage()]
        assert len(records) == 2 and records[0].exc_info[0] is RuntimeError
        assert "button accept" in records[0].getMessage() and f"guild {GUILD}" in records[0].getMessage()
        assert "/bg accept" in records[1].getMessage() and "match=1" in records[1].getMessage()
