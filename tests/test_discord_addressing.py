"""Game addressing in Discord: a command given outside a game's thread, without ``game:``, goes to **the
one game waiting for that member** (:func:`club.frontend.choose_game`); with none or several it is refused
privately with the list — each game with a jump link to its board — and never goes to the last game named."""

from __future__ import annotations

from club import InjectedDice
from tests.discordkit import GUILD, Harness


def _links(h: Harness, text: str) -> set[int]:
    """The message ids of the jump links (to this guild) in ``text``."""
    prefix = f"https://discord.com/channels/{GUILD}/"
    return {int(part[len(prefix) :].split("/")[1]) for part in text.split() if part.startswith(prefix)}


async def _boards(h: Harness, match_id: int) -> set[int]:
    return {(await h.bot.service.messages(match_id, purpose="board"))[-1].message_id}


async def test_two_open_games_outside_their_threads(tmp_path):
    """Alice plays Bob (#1) and Carol (#2), both waiting for her. In the lobby a bare /bg move is refused with both
    games and their board links (nothing changes); /bg move game:2 plays #2 — then a bare /bg move goes to #1, the
    one still waiting for her, not to #2 (the last one named); with none waiting a bare /bg resign is refused with
    the list, and so is /bg board (two games, none hers to act in)."""
    dice = InjectedDice([(6, 1), (6, 1)], fallback=b"addressing")  # Alice opens both with 6-1
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
        lobby = h.channel("lobby")
        service = h.bot.service
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="5")
        await h.press(bob, h.last(lobby), "Accept")
        await h.command(alice, "bg challenge", lobby, opponent=carol, length="5")
        await h.press(carol, h.last(lobby), "Accept")
        assert {(await service.state(i)).waiting_for for i in (1, 2)} == {alice.id}
        versions = [(await service.state(i)).version for i in (1, 2)]

        refused = await h.command(alice, "bg move", lobby, play="13/7 8/7")
        assert refused.private and "2 games waiting for you" in refused.text, refused.text
        assert "#1 vs Bob" in refused.text and "#2 vs Carol" in refused.text
        assert _links(h, refused.text) == await _boards(h, 1) | await _boards(h, 2), "a jump link to each board"
        assert [(await service.state(i)).version for i in (1, 2)] == versions, "a refusal changes nothing"

        played = await h.command(alice, "bg move", lobby, play="13/7 8/7", game=2)
        assert played.private and (await service.state(2)).waiting_for == carol.id
        again = await h.command(alice, "bg move", lobby, play="13/7 8/7")  # the one game waiting for her: #1
        assert again.private and "Alice plays 13/7 8/7" in again.text, again.text
        assert (await service.state(1)).waiting_for == bob.id and (await service.state(2)).waiting_for == carol.id

        versions = [(await service.state(i)).version for i in (1, 2)]
        resign = await h.command(alice, "bg resign", lobby, level="gammon")
        assert resign.private and "No game is waiting for you to act" in resign.text, resign.text
        assert _links(h, resign.text) == await _boards(h, 1) | await _boards(h, 2)
        board = await h.command(alice, "bg board", lobby)
        assert board.private and "You have 2 games" in board.text and len(_links(h, board.text)) == 2, board.text
        assert [(await service.state(i)).version for i in (1, 2)] == versions

        thread = h.thread_of(next(m for m in h.messages(lobby) if m.id in h.world.channels and "Bob" in m.text))
        inside = await h.command(alice, "bg board", thread)  # in a game's thread: that game
        assert inside.private and "Bob" in inside.text and inside.messages[0].png is not None, inside.text


def test_apostrophes_of_names_are_not_quotes():
    """The apostrophes of "Carol's turn … Bob's turn" are not quotes: a refusal's list is never cut in the middle of
    a jump link as a quoted value over 100 characters would be (:func:`club.wording.clip`)."""
    from club.wording import clip

    link = "https://discord.com/channels/777000000000000001/1577293239566729228/1577293240946655259"
    text = f"#2 vs Carol · Carol's turn · {link}\n#1 vs Bob · Bob's turn · {link}"
    assert clip(text) == text
    long = "x" * 150
    assert clip(f"not {long!r} here") == f"not '{'x' * 80}…' (cut) here"


async def test_chouette_commands_outside_its_channel(tmp_path):
    """Ann sits in two chouettes (Box of #1, seated; in #2's lobby): in the lobby channel a bare /bg chouette move
    goes to #1, the one waiting for her decision; /bg chouette status there is refused with both and their board
    links (she sits in two); Bob, in #1 only, gets its status; Dave, in none, is told so."""
    seating = [(6, 6), (6, 5), (5, 5)]  # Ann Box, Bob Captain, Cy
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice([*seating, (2, 1)], fallback=b"ch")) as h:
        ann, bob, cy, carol, dave = (h.member(name) for name in ("Ann", "Bob", "Cy", "Carol", "Dave"))
        first, second, lobby = h.channel("first"), h.channel("second"), h.channel("lobby")
        await h.command(ann, "bg chouette start", first)
        for member in (bob, cy):
            await h.command(member, "bg chouette join", first)
        assert "Box Ann" in (await h.command(cy, "bg chouette seat", first)).text
        await h.command(carol, "bg chouette start", second)
        await h.command(ann, "bg chouette join", second)
        chouettes = h.bot.chouettes
        view = await chouettes.state(1)
        assert [d.actor for d in view.decisions] == [ann.id] and view.decisions[0].pending == "play"

        status = await h.command(ann, "bg chouette status", lobby)
        assert status.private and "You have 2 chouettes" in status.text, status.text
        boards = {(await chouettes.messages(i, purpose="board"))[-1].message_id for i in (1, 2)}
        assert _links(h, status.text) == boards
        assert "Chouette #1" in (await h.command(bob, "bg chouette status", lobby)).text
        nobody = await h.command(dave, "bg chouette status", lobby)
        assert nobody.private and "none has you at the table" in nobody.text, nobody.text

        play = (await chouettes.legal_plays(1, ann.id))[0]
        moved = await h.command(ann, "bg chouette move", lobby, play=play)
        assert moved.private and (await chouettes.state(1)).version > view.version, moved.text
        assert (await chouettes.state(2)).phase == "lobby"
