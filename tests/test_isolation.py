"""Club isolation (RULES A2 "only in his own server"): a match or chouette of another server is
"no such game here" in commands, autocomplete, the use-case calls a front end makes, and forged ``custom_id`` s."""

from __future__ import annotations

import pytest

from club import frontend
from club.errors import UnknownGameError
from club.requests import Request
from tests.clubkit import ALICE, BOB, GUILD, club_service, new_table, snapshot

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
                await frontend.perform(service, match_id, Request(ALICE, guild_id=OTHER_GUILD), action)
        with pytest.raises(UnknownGameError):
            await frontend.dice_proof(service, match_id, guild_id=OTHER_GUILD)
        assert await frontend.game_choices(service, ALICE, OTHER_GUILD, "") == []
        assert snapshot(tmp_path / "c.sqlite3") == before
        assert await frontend.resolve_match(service, ALICE, guild_id=GUILD, given=match_id) == match_id
        assert [m for _, m in await frontend.game_choices(service, ALICE, GUILD, "")] == [match_id]
        with pytest.raises(UnknownGameError, match="here"):
            await frontend.resolve_match(service, ALICE, guild_id=GUILD, given=9999)


async def test_forged_custom_id_and_commands_from_another_server(tmp_path):
    """Through the Discord harness: a board, rules, verify or export with game:1 sent from another server, and a
    forged button of match 1 pressed from there, get "no such game here" and change nothing."""
    from tests.discordkit import Harness, Msg

    path = tmp_path / "b.sqlite3"
    async with Harness.start(path) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="3")
        await h.press(bob, h.last(lobby), "Accept")
        view = await h.bot.service.state(1)
        before = _play_rows(path)
        elsewhere = h.channel("elsewhere")
        with h.from_guild(888):
            for command in ("bg board", "bg rules", "bg verify", "bg export"):
                answer = await h.command(alice, command, elsewhere, game=1)
                assert answer.private and "no match or session 1 here" in answer.text, answer.text
                assert all(not message.files for message in answer.messages)
        who = h.members[view.waiting_for]
        board = h.last((await h.bot.service.messages(1))[-1].channel_id).seen()
        forged = Msg(h.world, board.id, {**board.data, "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "Resign", "custom_id": f"t:m:1:{view.version}:resign"}]}]})  # fmt: skip
        with h.from_guild(888):
            pressed = await h.press(who, forged, "Resign")
        assert pressed.private and "no match or session 1 here" in pressed.text
        assert _play_rows(path) == before


async def test_forged_chouette_button_from_another_server(tmp_path):
    """A chouette's button pressed from another server (through the Discord harness) is "no such chouette here"."""
    from club import InjectedDice
    from tests.discordkit import Harness

    path = tmp_path / "ch.sqlite3"
    dice = InjectedDice([(6, 6), (6, 5), (2, 1)], fallback=b"iso")
    async with Harness.start(path, dice=dice) as h:
        ann, bob, cy = h.member("Ann"), h.member("Bob"), h.member("Cy")
        room = h.channel("club-night")
        await h.command(ann, "bg chouette start", room)
        for member in (bob, cy):
            await h.command(member, "bg chouette join", room)
        await h.command(cy, "bg chouette seat", room)
        board = h.last(room)
        menu = board.chouette_id(ann.id, "play")
        before = _play_rows(path)
        chouette_rows = snapshot(path)["chouette_sessions"]
        with h.from_guild(888):
            pressed = await h.press(ann, board, menu, values=[board.options(menu)[0]])
        assert pressed.private and "no chouette 1 here" in pressed.text
        assert _play_rows(path) == before
        assert snapshot(path)["chouette_sessions"] == chouette_rows
