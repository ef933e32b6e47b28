"""One button scheme (:mod:`cogs.buttons`): the 1-on-1's and the chouette's components are one
DynamicItem family keyed by (kind, id, stamp, action); the ``custom_id`` templates of before (``bg:``, ``bgplay:``,
``ch:``, ``chs:``) stay registered, so a message posted by the old code — fed through the harness exactly as Discord
would send it — still works; an old button pressed again is stale, and forged ids are refused and change nothing."""

from __future__ import annotations

import copy
import re

import discord
import pytest

from club import InjectedDice
from cogs.buttons import Key, TableButton, TableMenu
from tests.clubkit import snapshot
from tests.discordkit import Harness, Msg


def old_id(custom_id: str) -> str:
    """The ``custom_id`` the code before the one scheme drew for the same component."""
    parts = custom_id.split(":")
    if parts[:2] == ["t", "m"]:
        return f"bg:{parts[2]}:{parts[3]}:{parts[4]}"
    if parts[:2] == ["tm", "m"]:
        return f"bgplay:{parts[2]}:{parts[3]}"
    if parts[:2] == ["t", "c"]:
        return f"ch:{parts[2]}:{parts[3]}:{parts[5]}:{parts[6]}:{parts[4]}"
    if parts[:2] == ["tm", "c"]:
        return f"chs:{parts[2]}:{parts[3]}:{parts[5]}:{parts[4]}"
    return custom_id


def as_posted_before(message: Msg) -> Msg:
    """``message`` as the old code posted it: every component under its old ``custom_id`` (a frozen copy pressed
    through the harness: discord.py parses it from the interaction payload)."""
    data = copy.deepcopy(message.data)
    for row in data.get("components") or []:
        for item in row.get("components") or []:
            if item.get("custom_id"):
                item["custom_id"] = old_id(item["custom_id"])
    return Msg(message.world, message.id, data)


def forged(message: Msg, custom_id: str) -> Msg:
    """A frozen copy of ``message`` with one button carrying ``custom_id`` (a client sending what it likes)."""
    data = copy.deepcopy(message.data)
    data["components"] = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}]}]
    return Msg(message.world, message.id, data)


def test_a_key_on_the_wrong_kind_of_component_is_refused():
    """A button's id that comes on a menu (or a menu's on a button) rebuilds nothing: TypeError, which discord.py
    logs before dropping the interaction."""
    key = Key("m", 12, "34", "take")
    menu = discord.ui.Select(custom_id=key.custom_id("tm"), options=[discord.SelectOption(label="a", value="a")])
    button = discord.ui.Button(label="Take", custom_id=key.custom_id("t"))
    with pytest.raises(TypeError, match="came on a Select"):
        TableButton.rebuild(key, menu)
    with pytest.raises(TypeError, match="came on a Button"):
        TableMenu.rebuild(key, button)
    assert TableButton.rebuild(key, button).item.label == "Take"
    assert TableMenu.rebuild(key, menu).item.options[0].value == "a"


def test_new_ids_round_trip_through_the_key():
    """A key renders to its custom_id and parses back from it (button and menu templates)."""
    from cogs.buttons import BUTTON_TEMPLATE, MENU_TEMPLATE

    for key, prefix, template in (
        (Key("m", 12, "34", "take"), "t", BUTTON_TEMPLATE),
        (Key("c", 5, "3.7", "take", ("1234567890123456789", "12>34")), "t", BUTTON_TEMPLATE),
        (Key("c", 5, "3.7", "take", ("1234567890123456789",)), "tm", MENU_TEMPLATE),
    ):
        custom_id = key.custom_id(prefix)
        assert len(custom_id) <= 100
        assert Key.of(re.fullmatch(template, custom_id)) == key


async def test_old_match_buttons_still_work_and_stale_or_forged_are_refused(tmp_path):
    """A challenge and a board posted with ``bg:``/``bgplay:`` ids: Accept, Roll and the play menu work; the old
    Accept pressed again says "Already done"; a forged kind or a stamp of the wrong shape is refused privately;
    none of the refusals changes the database."""
    path = tmp_path / "club.sqlite3"
    async with Harness.start(path, dice=InjectedDice([(6, 1), (5, 2)], fallback=b"old-ids")) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        games = h.channel()
        await h.command(alice, "bg challenge", games, opponent=bob, length="3")
        challenge = h.last(games)
        assert any(i.startswith("t:m:1:") for i in challenge.custom_ids), "the new scheme is drawn"
        old_challenge = as_posted_before(challenge)
        assert "bg:1:1:accept" in old_challenge.custom_ids or any(
            i.startswith("bg:1:") and i.endswith(":accept") for i in old_challenge.custom_ids
        )
        accept = next(i for i in old_challenge.custom_ids if i.endswith(":accept"))
        await h.press(bob, old_challenge, accept)
        view = await h.bot.service.state(1)
        assert view.status == "active" and view.pending == "play" and view.waiting_for == alice.id
        board = as_posted_before(h.with_component(f"tm:m:1:{view.version}:play"))
        menu = f"bgplay:1:{view.version}"
        await h.press(alice, board, menu, values=["13/7 8/7"])
        view = await h.bot.service.state(1)
        assert view.waiting_for == bob.id and view.pending == "roll_or_double"
        board = as_posted_before(h.with_component(f"t:m:1:{view.version}:roll"))
        await h.press(bob, board, f"bg:1:{view.version}:roll")
        view = await h.bot.service.state(1)
        assert view.pending == "play" and view.game.dice == (5, 2)

        before = snapshot(path)
        again = await h.press(bob, old_challenge, accept)
        assert again.private and again.text.startswith("Already done")
        current = h.with_component(f"tm:m:1:{view.version}:play")
        for custom_id in (f"t:z:1:{view.version}:roll", f"t:m:1:{view.version}.1:roll", f"t:m:1:{view.version}:roll:9",
                          "t:m::1:roll", "bg:1:x:roll", f"t:m:1:{view.version}:more_time:x"):  # fmt: skip
            refused = await h.press(bob, forged(current, custom_id), custom_id)
            assert refused.private and "not one the bot drew" in refused.text, (custom_id, refused.text)
        assert snapshot(path) == before
        assert (await h.bot.service.state(1)).version == view.version
        h.assert_clean()


async def test_old_chouette_buttons_still_work_and_stale_or_forged_are_refused(tmp_path):
    """A chouette board and window posted with ``chs:``/``ch:`` ids: Box plays from the old menu, a Team member
    passes with his old button; that button pressed again is refused, a chouette id with a version-shaped stamp
    (the wrong kind's staleness rule) is refused; nothing stored changes."""
    seating = [(6, 6), (6, 5), (5, 5)]  # Ann Box, Bob Captain, Cy
    path = tmp_path / "club.sqlite3"
    async with Harness.start(path, dice=InjectedDice([*seating, (2, 1)], fallback=b"old-chouette")) as h:
        ann, bob, cy = (h.member(name) for name in ("Ann", "Bob", "Cy"))
        room = h.channel("club-night")
        await h.command(ann, "bg chouette start", room)
        for member in (bob, cy):
            await h.command(member, "bg chouette join", room)
        await h.command(cy, "bg chouette seat", room)
        board = as_posted_before(h.last(room))
        menu = next(i for i in board.custom_ids if i.startswith("chs:") and i.endswith(f":{ann.id}:play"))
        await h.press(ann, board, menu, values=[board.options(menu)[0]])
        view = await h.bot.chouettes.state(1)
        assert view.game_number == 1 and {d.pending for d in view.decisions} == {"double"}
        window = as_posted_before(h.last(room))
        cy_pass = next(i for i in window.custom_ids if i.startswith("ch:") and f":{cy.id}::pass" in i)
        done = await h.press(cy, window, cy_pass)
        assert done.private and "Cy" in done.text
        view = await h.bot.chouettes.state(1)
        assert cy.id not in {d.subject for d in view.decisions}, "Cy passed with the old button"

        before = snapshot(path)
        again = await h.press(cy, window, cy_pass)
        assert again.private and "no decision to make" in again.text, again.text
        stamp_like_a_version = f"t:c:1:{view.version}:pass:{bob.id}:"
        refused = await h.press(bob, forged(h.last(room), stamp_like_a_version), stamp_like_a_version)
        assert refused.private and "not one the bot drew" in refused.text
        assert snapshot(path) == before
        h.assert_clean()


async def test_old_rematch_and_claim_ids_rebuild_into_the_scheme(harness):
    """``bgrematch:<match>`` and ``bgc:<match>:<version>:<action>`` (posted before the claim and rematch buttons
    joined the scheme) rebuild into the same :class:`~cogs.buttons.TableButton` as the new ids; a finished match's
    old Rematch button, pressed through the harness, challenges again."""
    import discord

    from cogs.buttons import ClaimButton, RematchButton, TableButton
    from tests.test_discord_platform import _finished

    for legacy, old, key in (
        (RematchButton, "bgrematch:7", Key("m", 7, "0", "rematch")),
        (ClaimButton, "bgc:7:12:claim_match", Key("m", 7, "12", "claim_match")),
    ):
        item = discord.ui.Button(label="x", custom_id=old)
        match = legacy.__discord_ui_compiled_template__.fullmatch(old)
        rebuilt = await legacy.from_custom_id(None, item, match)
        assert isinstance(rebuilt, TableButton) and rebuilt.key == key

    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    _, thread = await _finished(h, alice, bob, games)
    last = next(m for m in reversed(h.messages(thread)) if "Rematch" in m.labels)
    assert last.custom_ids == ["t:m:1:0:rematch"]
    old = Msg(last.world, last.id, copy.deepcopy(last.data))
    old.data["components"][0]["components"][0]["custom_id"] = "bgrematch:1"
    asked = await h.press(bob, old, "bgrematch:1")
    assert asked.private and "Rematch" in asked.text
    assert (await h.bot.service.state(2)).status == "challenged"
