"""Club isolation (issue 12 item 3, RULES A2 "only in his own server"): a match or chouette of another server is
"no such game here" in commands, autocomplete, the use-case calls a front end makes, and forged ``custom_id`` s."""

from __future__ import annotations

import pytest
from botkit import call, cog_of, last_reply, running_bot
from clubkit import ALICE, BOB, GUILD, club_service, new_table, snapshot

from club import frontend
from club.errors import UnknownGameError

pytestmark = pytest.mark.backends

OTHER_GUILD = 2
PLAY_TABLES = ("matches", "games", "actions", "deadlines", "messages")


def _play_rows(path):
    """The rows of the tables a game action writes (registration in another club may add club rows)."""
    rows = snapshot(path)
    return {table: rows[table] for table in PLAY_TABLES if table in rows}


async def _two_clubs(service):
    """Alice and Bob play match 1 in guild 1; Alice is also a member of the club of guild 2."""
    outcome = await new_table(service, 3)
    await service.register(OTHER_GUILD, ALICE, "Alice")
    return outcome.match_id


async def test_another_servers_match_is_no_such_game_here(tmp_path):
    """From guild 2 the match of guild 1 is unknown: naming it, the thread default, every action, the dice proof,
    and the autocomplete; in guild 1 it is found. Nothing stored changes."""
    async with club_service(tmp_path / "c.sqlite3") as service:
        match_id = await _two_clubs(service)
        before = snapshot(tmp_path / "c.sqlite3")
        with pytest.raises(UnknownGameError, match="no match or session 1 here"):
            await frontend.resolve_match(service, ALICE, guild_id=OTHER_GUILD, given=match_id)
        with pytest.raises(UnknownGameError):
            await frontend.resolve_match(service, BOB, guild_id=OTHER_GUILD, given=match_id)
        # the thread of the match, seen from the other server, is not "here"
        with pytest.raises(Exception) as caught:
            await frontend.resolve_match(service, ALICE, guild_id=OTHER_GUILD, here=match_id)
        assert "no game in progress" in str(caught.value)
        for action in ("roll", "double", "resign", "stop", "accept"):
            with pytest.raises(UnknownGameError, match="here"):
                await frontend.perform(service, match_id, ALICE, action, guild_id=OTHER_GUILD)
        with pytest.raises(UnknownGameError):
            await frontend.dice_proof(service, match_id, guild_id=OTHER_GUILD)
        assert await frontend.game_choices(service, ALICE, OTHER_GUILD, "") == []
        assert snapshot(tmp_path / "c.sqlite3") == before
        assert await frontend.resolve_match(service, ALICE, guild_id=GUILD, given=match_id) == match_id
        assert [m for _, m in await frontend.game_choices(service, ALICE, GUILD, "")] == [match_id]
        with pytest.raises(UnknownGameError, match="here"):
            await frontend.resolve_match(service, ALICE, guild_id=GUILD, given=9999)


async def test_forged_custom_id_and_commands_from_another_server(tmp_path):
    """A board, rules, verify or export with game:1 from another server, and a forged button of match 1, get
    "no such game here" and change nothing."""
    async with running_bot(tmp_path / "b.sqlite3") as (bot, fake):
        cog = cog_of(bot)
        alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
        lobby = fake.text_channel("lobby")
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length="3", rules=None)
        post = fake.last(lobby.id)
        await fake.press(bob, post.custom_id("accept"))
        view = await bot.service.state(1)
        before = _play_rows(tmp_path / "b.sqlite3")
        elsewhere = fake.text_channel("elsewhere")
        for command in (cog.board, cog.rules, cog.verify, cog.export):
            interaction = fake.interaction(alice, elsewhere)
            interaction.guild_id = 888
            await call(command, cog, interaction, game=1)
            reply = last_reply(interaction)
            assert reply.ephemeral and "no match or session 1 here" in reply.content, reply.content
            assert reply.file_bytes is None and reply.png is None
        who = alice if view.waiting_for == ALICE else bob
        board = fake.last((await bot.service.messages(1))[-1].channel_id)
        forged = fake.as_seen(board)
        forged.components = [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": "Resign", "custom_id": f"bg:1:{view.version}:resign"}],
            }
        ]
        interaction, item = await fake.prepare_press(who, f"bg:1:{view.version}:resign", seen=forged)
        interaction.guild_id = 888
        await item.callback(interaction)
        assert "no match or session 1 here" in last_reply(interaction).content
        assert _play_rows(tmp_path / "b.sqlite3") == before


async def test_forged_chouette_button_from_another_server(tmp_path):
    """A chouette's button pressed from another server (a forged ``ch:`` custom_id) is "no such chouette here"."""
    from chouette_botkit import chouette_bot, command, find_id, private_text
    from chouette_botkit import press as chouette_press

    from club import InjectedDice

    dice = InjectedDice([(6, 6), (6, 5), (2, 1)], fallback=b"iso")
    async with chouette_bot(tmp_path / "ch.sqlite3", dice=dice) as (bot, fake):
        ann, bob, cy = fake.member(101, "Ann"), fake.member(202, "Bob"), fake.member(303, "Cy")
        room = fake.text_channel("club-night")
        await command(bot, fake, "start", ann, room)
        for member in (bob, cy):
            await command(bot, fake, "join", member, room)
        await command(bot, fake, "seat", cy, room)
        board = fake.last(room.id)
        custom_id = find_id(board, 101, "play")
        before = _play_rows(tmp_path / "ch.sqlite3")
        chouette_rows = snapshot(tmp_path / "ch.sqlite3")["chouette_sessions"]
        original = fake.interaction

        def elsewhere(*args, **kwargs):
            interaction = original(*args, **kwargs)
            interaction.guild_id = 888
            return interaction

        fake.interaction = elsewhere
        pressed = await chouette_press(fake, ann, custom_id, ["pass"])
        fake.interaction = original
        assert "no chouette 1 here" in private_text(pressed)
        assert _play_rows(tmp_path / "ch.sqlite3") == before
        assert snapshot(tmp_path / "ch.sqlite3")["chouette_sessions"] == chouette_rows
