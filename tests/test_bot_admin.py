"""Club settings (admins only, enforced by a check through discord.py's own dispatch), the game channel, direct
messages, and the read-only commands: board, games, rules, verify (RULES A1), export (RULES A4)."""

from __future__ import annotations

import discord
from botkit import GUILD, PNG_MAGIC, call, cog_of, last_reply, running_bot

from backgammon.matfile import parse_mat
from backgammon.replay import replay
from club import InjectedDice
from club.boards import board_view

ALICE, BOB = 101, 202


def config_data(**options) -> dict:
    """The interaction data Discord sends for ``/bg config`` with ``options`` (numbers as type 10, text 3)."""
    typed = [
        {"name": name, "type": 10 if isinstance(value, float) else 4 if isinstance(value, int) else 3, "value": value}
        for name, value in options.items()
    ]
    return {"id": "1", "name": "bg", "type": 1, "options": [{"name": "config", "type": 1, "options": typed}]}


async def test_config_is_for_club_admins_only(tmp_path):
    """RULES A2 settings are a club decision: /bg config, dispatched by discord.py's command tree, runs only for a
    member who may manage the server — a check, not just default permissions; others are refused privately and
    nothing changes."""
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        member = fake.member(ALICE, "Alice")
        lobby = fake.text_channel()
        data = config_data(move_hours=12.0, expiry="forfeit_game", reminders="6,1")
        plain = fake.interaction(member, lobby, data=data, permissions=discord.Permissions(send_messages=True))
        await bot.tree._call(plain)
        reply = last_reply(plain)
        assert reply.ephemeral and "Only club admins" in reply.content
        settings = await bot.service.club_settings(GUILD)
        assert settings.move_time == 3 * 86_400 and settings.expiry_policy == "nothing"

        admin = fake.interaction(member, lobby, data=data, permissions=discord.Permissions(manage_guild=True))
        await bot.tree._call(admin)
        reply = last_reply(admin)
        assert reply.ephemeral and reply.content.startswith("Club settings updated")
        settings = await bot.service.club_settings(GUILD)
        assert settings.move_time == 12 * 3600 and settings.expiry_policy == "forfeit_game"
        assert settings.reminders == (6 * 3600, 3600)
        assert "time per action: 12 h" in reply.content

        # the check is attached to the command itself, so every path into it is guarded
        config = cog_of(bot).config
        assert len(config.checks) == 1
        refused = fake.interaction(member, lobby, permissions=discord.Permissions.none())
        try:
            config.checks[0](refused)
        except discord.app_commands.CheckFailure as error:
            assert "Only club admins" in str(error)
        else:
            raise AssertionError("the check let a non-admin through")


async def test_config_game_channel_and_bad_values(tmp_path):
    """An admin sets the game channel: challenges are posted there (and the game's thread opened there); a bad
    value is refused with what is valid."""
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        cog = cog_of(bot)
        alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
        lobby, games = fake.text_channel("lobby"), fake.text_channel("games")
        admin = discord.Permissions(manage_guild=True)
        done = await call(cog.config, cog, fake.interaction(alice, lobby, permissions=admin), channel=games)
        assert f"<#{games.id}>" in last_reply(done).content
        bad = await call(cog.config, cog, fake.interaction(alice, lobby, permissions=admin), reminders="soon")
        assert "reminders are hours before the deadline" in last_reply(bad).content
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length="3")
        assert fake.in_channel(lobby.id) == [] and len(fake.in_channel(games.id)) == 1
        await fake.press(bob, fake.last(games.id).custom_id("accept"))
        thread = fake.last(games.id).threads[0]
        assert fake.channels[thread].parent_id == games.id


async def test_notify_sends_direct_messages_when_it_is_your_turn(tmp_path):
    """/bg notify on: a direct message (with a link to the board) when it becomes his turn; off by default."""
    async with running_bot(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1)], fallback=b"n")) as (bot, fake):
        cog = cog_of(bot)
        alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
        lobby = fake.text_channel()
        turned_on = await call(cog.notify, cog, fake.interaction(bob, lobby), state="on")
        assert "direct message" in last_reply(turned_on).content
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length="3")
        await fake.press(bob, fake.last(lobby.id).custom_id("accept"))
        thread = fake.channels[fake.last(lobby.id).threads[0]]
        assert fake.dms == [], "Alice has not asked for direct messages; Bob acted himself"
        await call(cog.move, cog, fake.interaction(alice, thread), play="13/7 8/7")
        assert len(fake.dms) == 1 and fake.dms[0][0] == BOB
        assert "Your turn" in fake.dms[0][1] and fake.last(thread.id).id in (int(part) for part in
                                                                              fake.dms[0][1].split("/")[-1:])  # fmt: skip
        await call(cog.notify, cog, fake.interaction(bob, lobby), state="off")
        await fake.press(bob, fake.last(thread.id).custom_id("roll"))
        await fake.press(bob, fake.last(thread.id).custom_id("play"), value=fake.last(thread.id).menu_options[0])
        assert len(fake.dms) == 1


async def test_board_games_rules_verify_and_export(tmp_path):
    """The read-only commands answer privately: the board from the asker's side (with his buttons only when he
    must act), his games, the rules, the dice proof (RULES A1) and the .mat export that replays to the same result
    (RULES A4)."""
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        cog = cog_of(bot)
        alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
        lobby = fake.text_channel()
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length="1")
        games = await call(cog.games, cog, fake.interaction(bob, lobby))
        assert "Your turn" in last_reply(games).content and "#1 vs Alice" in last_reply(games).content
        await fake.press(bob, fake.last(lobby.id).custom_id("accept"))
        thread = fake.channels[fake.last(lobby.id).threads[0]]
        view = await bot.service.state(1)
        mover = view.waiting_for
        members = {ALICE: alice, BOB: bob}
        other = BOB if mover == ALICE else ALICE

        for member in (mover, other):
            shown = await call(cog.board, cog, fake.interaction(members[member], lobby))
            reply = last_reply(shown)
            assert reply.ephemeral and reply.png.startswith(PNG_MAGIC)
            assert bool(reply.components) == (member == mover), "buttons only for the member who must act"
            assert board_view(view, member).viewer_name == view.names[view.side_of(member)]
        rules = await call(cog.rules, cog, fake.interaction(alice, thread))
        assert "1-point match" in last_reply(rules).content and "Crawford" in last_reply(rules).content
        proof = await call(cog.verify, cog, fake.interaction(alice, thread))
        assert "seed stays secret" in last_reply(proof).content
        assert view.game.seed_hash in last_reply(proof).content

        # the member with the dice resigns a backgammon (G12); the other accepts
        await call(cog.resign, cog, fake.interaction(members[mover], thread), level="backgammon")
        await fake.press(members[other], fake.last(thread.id).custom_id("accept_resignation"))
        proof = await call(cog.verify, cog, fake.interaction(alice, thread), game=1, number=1)
        assert "the dice were fair" in last_reply(proof).content
        exported = await call(cog.export, cog, fake.interaction(bob, thread))
        reply = last_reply(exported)
        assert reply.ephemeral and reply.filename.endswith(".mat")
        report = replay(parse_mat(reply.file_bytes.decode("utf-8")))
        assert report.ok and report.winner == view.side_of(other) and report.score[view.side_of(other)] == 1
        assert report.games[0].result.kind == "backgammon" and report.games[0].result.ended_by == "resignation"
