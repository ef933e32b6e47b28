"""Flows through the Discord harness from a fresh database: every subcommand of every group
invoked, a money session with double, beaver, redouble and drop, a stale button and another member's button, a
chouette from start to its score sheet, a restart between two actions."""

from __future__ import annotations

import random

import discord
from discord import app_commands

from club import InjectedDice
from tests.discordkit import Harness, chouette_parts, play_turn


def _leaves(tree: app_commands.CommandTree):
    for command in tree.get_commands():
        yield from _walk(command)


def _walk(command):
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _walk(child)
    else:
        yield command


def _required(h: Harness, command: app_commands.Command, other, channel: int) -> dict:
    values = {}
    for param in command.parameters:
        if not param.required:
            continue
        kind = param.type
        if param.choices:
            values[param.name] = param.choices[0].value
        elif kind in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            values[param.name] = other
        elif kind is discord.AppCommandOptionType.channel:
            values[param.name] = channel
        elif kind in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
            values[param.name] = param.min_value if param.min_value is not None else 1
        elif kind is discord.AppCommandOptionType.boolean:
            values[param.name] = False
        else:
            values[param.name] = "1"
    return values


async def test_every_subcommand_of_every_group_answers(harness):
    """Each leaf of the tree (/bg, /bg chouette, /club, /player, /study and whatever joins them), invoked once with
    its required options, by an admin in a channel with a game going: exactly one answer, private, no apology."""
    h = harness
    alice, bob = h.member("Alice", admin=True), h.member("Bob")
    games = h.channel()
    await h.command(alice, "bg challenge", games, opponent=bob, length="3")
    await h.press(bob, h.last(games), "Accept")
    invoked = []
    for command in _leaves(h.bot.tree):
        path = command.qualified_name
        answer = await h.command(alice, path, games, **_required(h, command, bob, games))
        assert answer.initial in (4, 5), f"/{path}: initial response {answer.initial}"
        assert answer.text or answer.messages, f"/{path}: no answer"
        invoked.append(path)
    assert {"bg challenge", "bg chouette start", "club sheet"} <= set(invoked)
    assert len(invoked) >= 35


async def test_a_money_session_with_double_beaver_redouble_and_drop(tmp_path):
    """RULES D1, D2, D4: Alice doubles, Bob beavers (the cube at 4, his), later Bob redoubles and Alice drops —
    all by buttons; every board shows exactly the actions then possible."""
    dice = InjectedDice([(6, 1)], fallback=b"money-session")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        games = h.channel()
        await h.command(alice, "bg challenge", games, opponent=bob, length="money", rules="money")
        await h.press(bob, h.last(games), "Accept")
        thread = h.thread_of(h.messages(games)[0])
        service = h.bot.service
        seen_beaver = seen_redouble = False
        for _ in range(200):
            view = await service.state(1)
            member = h.members[view.waiting_for]
            if (
                view.pending == "roll_or_double"
                and "double" in view.legal
                and member.id == alice.id
                and not seen_beaver
            ):
                await h.press(member, h.with_component(f"t:m:1:{view.version}:double"), "Double")
            elif view.pending == "answer_double" and not seen_beaver:
                assert "beaver" in view.legal
                await h.press(member, h.with_component(f"t:m:1:{view.version}:beaver"), "Beaver")
                seen_beaver = True
            elif view.pending == "answer_beaver":
                await h.press(member, h.with_component(f"t:m:1:{view.version}:take"), "Take")
            elif view.pending == "roll_or_double" and "double" in view.legal and member.id == bob.id and seen_beaver:
                await h.press(member, h.with_component(f"t:m:1:{view.version}:double"), "Double")
                seen_redouble = True
            elif view.pending == "answer_double" and seen_redouble:
                await h.press(member, h.with_component(f"t:m:1:{view.version}:drop"), "Drop")
                break
            else:
                await play_turn(h, 1, random.Random(view.version))
        view = await service.state(1)
        assert seen_beaver and seen_redouble
        assert view.score == (-4, 4), view.score  # the beavered cube at 4, redoubled to 8 and dropped: Bob wins 4
        assert any("drops" in message.text for message in h.messages(thread)), "the drop is shown in the thread"


async def test_a_stale_button_and_another_members_button_change_nothing(harness):
    h = harness
    alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
    games = h.channel()
    await h.command(alice, "bg challenge", games, opponent=bob, length="3")
    challenge = h.last(games)
    seen = challenge.seen()
    other = await h.press(carol, challenge, "Accept")
    assert other.private and (await h.bot.service.state(1)).status == "challenged"
    await h.press(bob, challenge, "Accept")
    version = (await h.bot.service.state(1)).version
    stale = await h.press(bob, seen, "Accept")  # the same button on his old screen
    assert stale.private and stale.text
    assert (await h.bot.service.state(1)).version == version


def _chouette_id(message, member: int, action: str) -> str:
    """The custom_id of ``member``'s ``action`` button (or menu: play, double, take) on ``message``."""
    for custom_id in message.custom_ids:
        if custom_id.startswith(("t:c:", "tm:c:")) and chouette_parts(custom_id) == (member, action):
            return custom_id
    raise AssertionError(f"no {action!r} for {member} on {message}: {message.custom_ids}")


def _mentioned(message) -> set[int]:
    return {int(part[2:-1]) for part in message.content.replace(",", " ").split() if part.startswith("<@")}


async def test_a_chouette_from_start_to_its_score_sheet(tmp_path):
    """RULES C1–C11: start → four join → seat → Box plays from the menu → the Team's window answered by several
    members (a restart in the middle: the buttons still work) → Box doubles all → every Team member drops → the
    score sheet image after the game, and /bg chouette sheet, status, rules."""
    seating = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]  # Ann Box, Bob Captain, then Cy, Di, Ed
    dice = InjectedDice([*seating, (2, 1), (3, 1), (1, 2)], fallback=b"chouette-flow")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        ann, bob, cy, di, ed = (h.member(name) for name in ("Ann", "Bob", "Cy", "Di", "Ed"))
        room = h.channel("club-night")
        started = await h.command(ann, "bg chouette start", room)
        assert started.private and "opens a chouette" in started.text
        for member in (bob, cy, di, ed):
            assert (await h.command(member, "bg chouette join", room)).private
        seat = await h.command(ed, "bg chouette seat", room)
        assert "Box Ann against Captain Bob" in seat.text
        board = h.last(room)
        menu = _chouette_id(board, ann.id, "play")
        await h.press(ann, board, menu, values=[board.options(menu)[0]])
        window = h.last(room)
        assert _mentioned(window) == {bob.id, cy.id, di.id, ed.id}, "exactly the Team members who decide (5.9)"
        await h.press(bob, window, _chouette_id(window, bob.id, "pass"))
        other = await h.press(di, window, _chouette_id(window, cy.id, "pass"))  # Cy's button, Cy is here
        assert other.private and "Cy" in other.text
        await h.restart()
        for member in (cy, di, ed):
            await h.press(member, window, _chouette_id(window, member.id, "pass"))
        for _ in range(20):  # the Captain and Box play on until Box may double
            board = h.last(room)
            ids = board.custom_ids
            box_double = [i for i in ids if i.startswith("t:c:") and chouette_parts(i) == (ann.id, "double")]
            if box_double:
                break
            view = await h.bot.chouettes.state(1)
            decision = view.decisions[0]
            actor = h.members[decision.actor]
            if decision.pending == "play":
                menu = _chouette_id(board, decision.subject, "play")
                await h.press(actor, board, menu, values=[board.options(menu)[0]])
            elif decision.pending == "roll":
                await h.press(actor, board, _chouette_id(board, decision.subject, "roll"))
            else:
                await h.press(actor, board, _chouette_id(board, decision.subject, "pass"))
        else:
            raise AssertionError("Box never came to double")
        await h.press(ann, board, box_double[0])
        answers = h.last(room)
        team = _mentioned(answers)
        assert team and ann.id not in team
        for member_id in sorted(team):
            await h.press(h.members[member_id], answers, _chouette_id(answers, member_id, "drop"))
        sheets = [m for m in h.messages(room) if m.content.startswith("Score sheet after game 1")]
        assert len(sheets) == 1 and sheets[0].png is not None
        sheet = await h.command(bob, "bg chouette sheet", room)
        assert sheet.private and "Score sheet of chouette #1" in sheet.text
        assert any(m.png for m in sheet.messages)
        assert (await h.command(cy, "bg chouette status", room)).private
        assert "Chouette #1" in (await h.command(di, "bg chouette rules", room)).text
