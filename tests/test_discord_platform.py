"""Platform edge cases, each through the Discord harness with Discord's real error codes: a thinking defer always
completed, commands in a finished match's thread, archived threads, deleted threads and messages, missing
permissions before anything is stored, closed DMs, direct messages without GET /users/{id} each time, 429s;
interaction tokens past their 15 minutes (tests/test_discord_protocol.py)."""

from __future__ import annotations

import asyncio

import pytest


async def _challenge(h, alice, bob, channel, length="3"):
    await h.command(alice, "bg challenge", channel, opponent=bob, length=length)
    return h.last(channel)


async def _game(h, alice, bob, channel, length="3"):
    challenge = await _challenge(h, alice, bob, channel, length)
    await h.press(bob, challenge, "Accept")
    return challenge, h.thread_of(challenge)


# -- a thinking defer is always completed -------------------------------------------------------------------------
async def test_decline_by_command_answers_the_member(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    challenge = await _challenge(h, alice, bob, games)
    answer = await h.command(bob, "bg decline", games)
    assert answer.thinking and answer.private and "declin" in answer.text.lower()
    assert challenge.custom_ids == []  # the challenge message closed: no buttons left


async def test_withdraw_by_command_answers_the_member(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    await _challenge(h, alice, bob, games)
    answer = await h.command(alice, "bg decline", games)
    assert answer.private and "withdr" in answer.text.lower() or "cancel" in answer.text.lower()


async def test_accept_with_nowhere_to_post_answers_the_member(harness):
    """The challenge's channel is deleted before the answer: the game starts and the member is told."""
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games, lobby = h.channel("games"), h.channel("lobby")
    await _challenge(h, alice, bob, games)
    h.delete_channel(games)
    answer = await h.command(bob, "bg accept", lobby)
    assert answer.private and answer.text
    assert (await h.bot.service.state(1)).status == "active"


async def test_resign_with_nowhere_to_post_answers_the_member(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games, lobby = h.channel("games"), h.channel("lobby")
    _, thread = await _game(h, alice, bob, games)
    h.delete_channel(thread)
    h.delete_channel(games)
    view = await h.bot.service.state(1)
    resigner = h.members[view.waiting_for]
    answer = await h.command(resigner, "bg resign", lobby)
    assert answer.private and answer.text


# -- a finished match's thread ---------------------------------------------------------------------------------------
async def _finished(h, alice, bob, games):
    """A 1-point match that Alice resigns (Bob accepts): over, its thread kept."""
    challenge, thread = await _game(h, alice, bob, games, length="1")
    await h.command(alice, "bg resign", thread)
    view = await h.bot.service.state(1)
    assert view.pending == "answer_resignation", view.pending
    await h.command(bob, "bg accept", thread)
    assert (await h.bot.service.state(1)).status == "over"
    return challenge, thread


async def test_accept_in_a_finished_matchs_thread_answers_the_new_challenge(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    _, thread = await _finished(h, alice, bob, games)
    await h.command(bob, "bg challenge", games, opponent=alice, length="1")
    answer = await h.command(alice, "bg accept", thread)
    assert "is over" not in answer.text
    assert (await h.bot.service.state(2)).status == "active"


async def test_roll_in_a_finished_matchs_thread_finds_the_open_game(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    _, thread = await _finished(h, alice, bob, games)
    await h.command(bob, "bg challenge", games, opponent=alice, length="1")
    await h.command(alice, "bg accept", games)
    view = await h.bot.service.state(2)
    member = h.members[view.waiting_for]
    if view.pending in ("roll", "roll_or_double"):
        answer = await h.command(member, "bg roll", thread)
        assert "is over" not in answer.text and "Match 1" not in answer.text
        assert (await h.bot.service.state(2)).version > view.version


# -- archived, deleted -----------------------------------------------------------------------------------------------
async def _to_roll(h, match_id=1):
    """Drive the match with /bg commands until someone must roll; returns the view."""
    import random

    from tests.discordkit import play_turn

    rng = random.Random(5)
    for _ in range(50):
        view = await h.bot.service.state(match_id)
        if view.pending in ("roll", "roll_or_double"):
            return view
        await play_turn(h, match_id, rng)
    raise AssertionError("nobody came to roll")


async def test_an_archived_thread_is_unarchived_and_the_board_kept_current(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    _, thread = await _game(h, alice, bob, games)
    view = await _to_roll(h)
    h.archive(thread)
    member = h.members[view.waiting_for]
    answer = await h.command(member, "bg roll", thread)  # he rolls and plays next: the board is edited in place
    assert "could not be posted" not in answer.text
    now = await h.bot.service.state(1)
    assert f"v{now.version}" in h.last(thread).text
    assert not h.world.channels[thread]["thread_metadata"]["archived"]


async def test_a_deleted_thread_gets_a_fresh_board_where_the_game_can_be_seen(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    _, thread = await _game(h, alice, bob, games)
    view = await _to_roll(h)
    h.delete_channel(thread)
    member = h.members[view.waiting_for]
    answer = await h.command(member, "bg roll", games)
    now = await h.bot.service.state(1)
    assert now.version > view.version
    homes = await h.bot.service.messages(1, purpose="home")
    home = homes[-1].channel_id
    assert home in h.world.channels and home != thread
    assert f"v{now.version}" in h.last(home).text
    assert "Board:" in answer.text


async def test_a_deleted_board_message_is_posted_again(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    _, thread = await _game(h, alice, bob, games)
    view = await _to_roll(h)
    h.delete_message(h.last(thread))
    member = h.members[view.waiting_for]
    await h.command(member, "bg roll", thread)
    now = await h.bot.service.state(1)
    assert f"v{now.version}" in h.last(thread).text


# -- missing permissions: refused before anything is stored ----------------------------------------------------------
@pytest.mark.parametrize(("permission", "words"), [
    ("send_messages", "Send Messages"), ("embed_links", "Embed Links"), ("attach_files", "Attach Files"),
    ("create_public_threads", "Create Public Threads"),
])  # fmt: skip
async def test_a_challenge_where_the_bot_may_not_post_is_refused_and_nothing_stored(harness, permission, words):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    h.deny(games, permission)
    answer = await h.command(alice, "bg challenge", games, opponent=bob, length="3")
    assert answer.private and words in answer.text
    assert await h.bot.service.db.get_match(1) is None


async def test_a_chouette_where_the_bot_may_not_post_is_refused_and_nothing_stored(harness):
    h = harness
    ann = h.member("Ann")
    room = h.channel("chouette")
    h.deny(room, "send_messages")
    answer = await h.command(ann, "bg chouette start", room)
    assert answer.private and "Send Messages" in answer.text
    assert await h.bot.chouettes.session_in(room) is None


# -- direct messages ---------------------------------------------------------------------------------------------------
async def test_direct_messages_reuse_the_dm_channel_even_after_a_restart(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    for member in (alice, bob):
        await h.command(member, "bg notify", games, state="on")
    await _game(h, alice, bob, games)
    await _to_roll(h)
    await h.restart()
    view = await _to_roll(h)
    await h.command(h.members[view.waiting_for], "bg roll", games)
    assert h.requests("GET", "/users/1") == []
    assert len(h.requests("POST", "/users/@me/channels")) <= 2
    assert h.dms(alice) and h.dms(bob)


async def test_closed_dms_fall_back_to_the_mention_and_say_so_once(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    await h.command(bob, "bg notify", games, state="on")
    h.close_dms(bob)
    _, thread = await _game(h, alice, bob, games)
    await _to_roll(h)
    await _to_roll(h) if False else None
    notes = [m for m in h.messages(thread) if "direct message" in m.content and bob.mention in m.content]
    assert len(notes) == 1


async def test_direct_messages_resume_once_the_member_opens_them_again(harness):
    """A refused direct message (50007) is not the end: after :data:`club.service.DM_RETRY_SECONDS` the bot tries
    again and the member's messages resume once he opened them; /bg notify on tries again at once."""
    from club.service import DM_RETRY_SECONDS

    h = harness
    bob = h.member("Bob")
    games = h.channel()
    await h.command(bob, "bg notify", games, state="on")

    async def told(text: str) -> bool:  # what every notice and turn does for a member who asked for DMs
        return await h.bot.publisher.direct_message(bob.id, text, home=h.bot.get_channel(games))

    h.close_dms(bob)
    assert not await told("one")
    assert (await h.bot.service.dm_channel(bob.id)) == 0
    assert sum("cannot send you direct messages" in m.content for m in h.messages(games)) == 1
    h.open_dms(bob)
    assert not await told("two"), "within the pause after a refusal: not tried"
    h.clock.advance(DM_RETRY_SECONDS)
    assert await told("three"), "tried again after the pause: his direct messages resume"
    h.close_dms(bob)
    assert not await told("four") and (await h.bot.service.dm_channel(bob.id)) == 0
    h.open_dms(bob)
    answer = await h.command(bob, "bg notify", games, state="on")
    assert answer.private and "direct message" in answer.text
    assert await told("five"), "/bg notify on: tried again at once"
    assert [m.content for m in h.dms(bob)] == ["three", "five"]


# -- rate limits and old tokens ----------------------------------------------------------------------------------------
async def test_a_rate_limited_game_does_not_stall_another(harness):
    import asyncio
    import time

    h = harness
    alice, bob, carol, dan = (h.member(n) for n in ("Alice", "Bob", "Carol", "Dan"))
    games = h.channel()
    _, first = await _game(h, alice, bob, games)
    await h.command(carol, "bg challenge", games, opponent=dan, length="3")
    await h.press(dan, h.last(games), "Accept")
    view1, view2 = await _to_roll(h, 1), await _to_roll(h, 2)
    h.rate_limit(f"/channels/{first}/messages", 1.5, times=1)
    started = time.monotonic()
    slow = asyncio.ensure_future(h.command(h.members[view1.waiting_for], "bg roll", games))
    await asyncio.sleep(0.05)
    fast = await h.command(h.members[view2.waiting_for], "bg roll", games)
    await slow
    answered = [r.at for r in h.requests("POST", fast.record.token) if "callback" not in r.path]
    assert fast.text and answered and answered[0] - started < 1.4  # while the other game waits out its 1.5 s
    assert slow.result().text and (await h.bot.service.state(1)).version > view1.version


def test_the_readme_lists_the_permissions_the_code_checks():
    """README "Discord set-up" names exactly the permissions cogs.platform checks (View Channels is Discord's name
    for view_channel), "no cube, no talk" the two more it needs."""
    import re
    from pathlib import Path

    from cogs.platform import POST, PRIVATE_THREADS, THREADS, permission_name

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    invite = readme[readme.index("2. **Invite it.**") : readme.index("3. **Register the commands")]
    listed = set(re.findall(r"\*\*([A-Z][A-Za-z ]+)\*\*", invite)) - {"Invite it."}
    spelled = {"View Channel": "View Channels"}
    assert listed == {spelled.get(permission_name(p), permission_name(p)) for p in POST + THREADS}
    chouette = readme[readme.index('"No cube, no talk" needs') :].split("\n")[0]
    assert set(re.findall(r"\*\*([A-Z][A-Za-z ]+)\*\*", chouette)) == {permission_name(p) for p in PRIVATE_THREADS}


async def test_rematch_on_a_finished_matchs_last_board(harness):
    """Rematch: same length, rules and stake; the opponent accepts; only a player may press it; after a restart
    too."""
    h = harness
    alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
    games = h.channel()
    _, thread = await _finished(h, alice, bob, games)
    last = next(m for m in reversed(h.messages(thread)) if "Rematch" in m.labels)
    refused = await h.press(carol, last, "Rematch")
    assert refused.private and "Only Alice and Bob" in refused.text
    await h.restart()
    asked = await h.press(bob, last, "Rematch")
    assert asked.private and "Rematch" in asked.text
    first, second = await h.bot.service.state(1), await h.bot.service.state(2)
    assert (second.length, second.rules, second.stake) == (first.length, first.rules, first.stake)
    assert second.players == (bob.id, alice.id) and second.status == "challenged"
    challenge = h.last(games)
    assert alice.mention in challenge.content
    for member in (bob, alice):  # pressed again, or by the other player: the one challenge stands
        again = await h.press(member, last, "Rematch")
        assert again.private and "Match #1 has its rematch already: match #2." in again.text, again.text
    assert await h.bot.service.db.get_match(3) is None and h.last(games).id == challenge.id
    await h.press(alice, challenge, "Accept")
    assert (await h.bot.service.state(2)).status == "active"


async def test_rematch_pressed_twice_at_once_posts_one_challenge(harness):
    """A double click: two presses of Rematch arriving together make one challenge; the other press is told."""
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    _, thread = await _finished(h, alice, bob, games)
    last = next(m for m in reversed(h.messages(thread)) if "Rematch" in m.labels)
    answers = await asyncio.gather(h.press(bob, last, "Rematch"), h.press(bob, last, "Rematch"))
    assert sorted("has its rematch already" in answer.text for answer in answers) == [False, True], answers
    assert (await h.bot.service.state(2)).status == "challenged" and await h.bot.service.db.get_match(3) is None
    assert sum(alice.mention in m.content and "challenge" in m.content.lower() for m in h.messages(games)) == 1


async def test_a_deleted_chouette_board_is_posted_again(harness):
    """The chouette's board message deleted (10008): the next join posts a fresh one instead of failing."""
    h = harness
    ann, bob = h.member("Ann"), h.member("Bob")
    room = h.channel("chouette")
    await h.command(ann, "bg chouette start", room)
    h.delete_message(h.last(room))
    joined = await h.command(bob, "bg chouette join", room)
    assert "Board:" in joined.text
    assert "Bob" in h.last(room).text and "Ann" in h.last(room).text


async def test_a_burst_of_edits_for_one_table_is_coalesced(tmp_path):
    """The Team's window: four passes pressed at once while the board's first edit waits out a 429 — the later
    edits become one (the newest), and the board ends current."""
    import asyncio

    from club import InjectedDice
    from tests.discordkit import Harness

    seating = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]
    dice = InjectedDice([*seating, (2, 1), (3, 1), (1, 2)], fallback=b"burst")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        ann, bob, cy, di, ed = (h.member(name) for name in ("Ann", "Bob", "Cy", "Di", "Ed"))
        room = h.channel()
        await h.command(ann, "bg chouette start", room)
        for member in (bob, cy, di, ed):
            await h.command(member, "bg chouette join", room)
        await h.command(ed, "bg chouette seat", room)
        board = h.last(room)
        menu = next(i for i in board.custom_ids if i.startswith("tm:c:"))
        await h.press(ann, board, menu, values=[board.options(menu)[0]])
        window = h.last(room)
        ids = {int(i.split(":")[5]): i for i in window.custom_ids if i.startswith("t:c:") and ":pass:" in i}
        h.rate_limit(f"PATCH /channels/{room}/messages/{window.id}$", 0.5, times=1)
        before = len(h.requests("PATCH", f"/messages/{window.id}"))
        await asyncio.gather(*(h.press(m, window, ids[m.id]) for m in (bob, cy, di)))
        edits = len(h.requests("PATCH", f"/messages/{window.id}")) - before
        assert edits < 4, f"{edits} requests for 3 passes (one of them a 429)"
        view = await h.bot.chouettes.state(1)
        assert f"v{view.version}" in h.last(room).text or h.last(room).id != window.id
