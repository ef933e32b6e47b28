"""``/bg chouette`` through the cog with fake interactions (tests/botkit.py): a five-member chouette over simulated
days — an injected clock, deadlines passing, proxies acting, a restart in the middle — ending with the right score
sheet and its image; each member's own buttons; "no cube, no talk" (RULES C1–C11, A2)."""

from __future__ import annotations

import io

import pytest
from botkit import PNG_MAGIC, last_reply
from chouette_botkit import (
    chouette_bot,
    chouette_ids,
    chouette_parts,
    command,
    find_id,
    group,
    options_of,
    press,
    private_text,
)
from clubkit import snapshot
from PIL import Image

from club import InjectedDice, ManualClock
from club.chouette.images import sheet_view
from club.verify import verify_chouette
from rendering.sheet import ROW, render_sheet_image, sheet_layout
from storage import Database

pytestmark = [pytest.mark.backends, pytest.mark.pg_slow]  # PostgreSQL copies: -m slow (the suite's minutes)

ANN, BOB, CY, DI, ED = 101, 202, 303, 404, 505
HOUR = 3600.0
SEATING = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]  # Ann Box, Bob Captain, then Cy, Di, Ed
GUILD = 777


def members(fake):
    return [fake.member(user, name) for user, name in ((ANN, "Ann"), (BOB, "Bob"), (CY, "Cy"), (DI, "Di"), (ED, "Ed"))]


def mentioned(post) -> set[int]:
    return {int(part[2:-1]) for part in post.content.split() if part.startswith("<@") and part.endswith(">")}


def ink(image, box, colour, tolerance=40) -> int:
    data = image.crop(tuple(int(v) for v in box)).convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for pixel in pixels if all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True)))


async def test_five_member_chouette_over_simulated_days(tmp_path):
    """The issue's must-show. Day 1: Ann starts, four join, the seat roll, Cy names Di and Ed names Bob as proxies;
    Box plays from the menu; the board pings exactly the four Team members for the window (5.9); Bob and Ed pass, Di
    doubles; Di may not press Cy's button while Cy is here. Overnight nothing fires; Cy is reminded, then misses the
    deadline: he is away and Di — pinged — doubles Cy's cube for him (C9); Box drops both (paid at once), the
    Captain plays; Box doubles the other two. The bot restarts. Bob's Drop button still works; Ed misses his answer
    and then Bob misses Ed's proxy time: the policy follows Bob's own drop (7.1). Game 2: the Captain does not play
    in time and the club's policy forfeits the board. The sheet — points per member, zero-sum — and its image."""
    clock = ManualClock()
    path = tmp_path / "club.sqlite3"
    dice = InjectedDice([*SEATING, (2, 1), (3, 1), (1, 2)], fallback=b"days")
    async with chouette_bot(path, clock=clock, dice=dice) as (bot, fake):
        ann, bob, cy, di, ed = members(fake)
        room = fake.text_channel("club-night")
        await bot.service.register(GUILD, ANN, "Ann")
        await bot.service.configure_club(GUILD, move_time=2 * HOUR, expiry_policy="forfeit_game")
        started = await command(bot, fake, "start", ann, room, hours=24.0, proxy_hours=12.0)
        assert "opens a chouette" in private_text(started)
        for member in (bob, cy, di, ed):
            await command(bot, fake, "join", member, room)
        lobby = fake.last(room.id)
        assert "Ann, Bob, Cy, Di, Ed" in lobby.embed.fields[0].value and lobby.edits == 4
        early = await command(bot, fake, "proxy", cy, room, member=di)
        assert "once the members are seated" in private_text(early)
        seat = await command(bot, fake, "seat", ed, room)
        assert "Box Ann against Captain Bob" in private_text(seat)
        board = fake.last(room.id)
        assert mentioned(board) == {ANN} and board.png.startswith(PNG_MAGIC)
        named = await command(bot, fake, "proxy", cy, room, member=di)
        assert "Cy names Di his proxy" in private_text(named)
        await command(bot, fake, "proxy", ed, room, member=bob)
        assert fake.last(room.id).id == board.id and board.content == "Waiting for Ann."
        menu = find_id(board, ANN, "play")
        await press(fake, ann, menu, [options_of(board, menu)[0]])

        window = fake.last(room.id)
        assert mentioned(window) == {BOB, CY, DI, ED}, "exactly the members who must decide (5.9)"
        assert {chouette_parts(i)[0] for i in chouette_ids(window)} == {BOB, CY, DI, ED}
        seen = fake.as_seen(window)
        clock.advance(HOUR)
        await press(fake, bob, find_id(window, BOB, "pass"))
        await press(fake, di, find_id(window, DI, "double"))
        before = snapshot(path)
        refused = await press(fake, di, find_id(seen, CY, "double"), seen=seen)
        assert "Cy is here and decides himself" in private_text(refused)
        assert snapshot(path) == before
        await press(fake, ed, find_id(window, ED, "pass"))
        assert fake.last(room.id).id == window.id and window.edits == 3, "passes edit the one board message"

        cog = bot.get_cog("Reminders")
        clock.advance(10 * HOUR)  # the night: nothing is due
        assert await cog.tick() == []
        clock.advance(10 * HOUR)  # day 2: the reminder 4 hours before Cy's deadline
        reminders = await cog.tick()
        assert [(n.kind, n.ping) for n in reminders] == [("reminder", (CY,))]
        assert "Reminder: Cy" in fake.last(room.id).content and mentioned(fake.last(room.id)) == {CY}
        clock.advance(4 * HOUR)
        expired = await cog.tick()
        assert [(n.kind, n.subject, n.ping) for n in expired] == [("expiry", CY, (DI,))]
        proxy_board = fake.last(room.id)
        assert mentioned(proxy_board) == {DI} and "Di for Cy: double or pass" in proxy_board.content
        assert "Cy missed his deadline" in proxy_board.embed.description
        pressed = await press(fake, di, find_id(proxy_board, CY, "double"))
        assert "Cy doubles (for Cy, by Di)" in private_text(pressed)

        answer = fake.last(room.id)
        assert mentioned(answer) == {ANN}
        await press(fake, ann, find_id(answer, ANN, "drop"))
        captain = fake.last(room.id)
        assert mentioned(captain) == {BOB}
        menu = find_id(captain, BOB, "play")
        await press(fake, bob, menu, [options_of(captain, menu)[0]])
        box_turn = fake.last(room.id)
        assert mentioned(box_turn) == {ANN}
        await press(fake, ann, find_id(box_turn, ANN, "double"))
        answers = fake.last(room.id)
        assert mentioned(answers) == {BOB, ED}
        drop = find_id(answers, BOB, "drop")

    # the restart: a new bot process on the same database and the same Discord
    async with chouette_bot(path, clock=clock, dice=dice) as (bot, old_fake):
        fake.attach(bot)
        cog = bot.get_cog("Reminders")
        pressed = await press(fake, bob, drop)
        assert "Bob drops" in private_text(pressed)
        clock.advance(25 * HOUR)  # day 3: Ed missed his answer; his proxy Bob is pinged
        expired = await cog.tick()
        assert [(n.subject, n.ping) for n in expired] == [(ED, (BOB,))]
        clock.advance(13 * HOUR)  # Bob lets Ed's time pass too: Ed drops, as Bob did (003 Atlanta 7.1)
        expired = await cog.tick()
        assert len(expired) == 1 and "Ed drops (time: the club's policy)" in expired[0].text
        assert expired[0].outcome.finished == (1,)
        sheet_post, game2 = fake.in_channel(room.id)[-2:]
        assert sheet_post.content.startswith("Score sheet after game 1: Ann +0, Bob -1, Cy +1, Di +1, Ed -1")
        assert sheet_post.png.startswith(PNG_MAGIC)
        assert mentioned(game2) == {CY}, "game 2: Captain Cy opens (the Team won the opening roll)"
        clock.advance(3 * HOUR)  # day 4: Cy does not play within the club's move time: the board is forfeited
        expired = await cog.tick()
        assert expired[0].outcome.finished == (2,)

        view = await bot.chouettes.state(1)
        rows = [row.points for row in view.sheet.rows]
        assert rows == [
            {ANN: 0, BOB: -1, CY: 1, DI: 1, ED: -1},
            {ANN: 4, BOB: -1, CY: -1, DI: -1, ED: -1},
        ]
        assert view.sheet.totals == {ANN: 4, BOB: -2, CY: 0, DI: 0, ED: -2} and view.sheet.zero_sum
        assert view.sheet.rows[0].circled == (BOB,) and view.order[:2] == (ANN, DI)

        asked = await command(bot, fake, "sheet", di, room)
        reply = last_reply(asked)
        assert reply.ephemeral and reply.png.startswith(PNG_MAGIC) and "Ann +4" in reply.content
        image = Image.open(io.BytesIO(reply.png))
        image.load()
        expected = render_sheet_image(sheet_view(view), bot.board_options.theme)
        assert image.size == expected.size
        layout = sheet_layout(sheet_view(view))
        for index in range(5):
            left, right = layout.member_column(index)
            assert ink(image.convert("RGB"), (left, layout.header_top, right, layout.header_top + ROW), (240,) * 3) > 20
        report = await verify_chouette(bot.service.db, 1)
        assert report.ok, report.problems
    async with Database.open(path) as db:  # the stored results, read after the bot closed its database
        rows = await db._fetchall(
            "SELECT game_number, sum(points), count(*) FROM chouette_results GROUP BY 1 ORDER BY 1"
        )
    assert [tuple(row) for row in rows] == [(1, 0, 5), (2, 0, 5)]


async def test_commands_are_a_subgroup_of_bg(tmp_path):
    """``/bg chouette`` sits in the one ``/bg`` group; its commands and options follow Discord's limits and the
    whole ``/bg`` payload stays within 4000 characters."""
    from test_bot_tree import check_option

    async with chouette_bot(tmp_path / "c.sqlite3") as (bot, _fake):
        payload = bot.tree.get_command("bg").to_dict(bot.tree)
        sub = next(option for option in payload["options"] if option["name"] == "chouette")
        assert sub["type"] == 2
        names = {option["name"] for option in sub["options"]}
        assert names == {"start", "join", "leave", "seat", "status", "sheet", "proxy", "rules", "move", "verify"}
        assert check_option(payload, "") <= 4000
        patterns = {pattern.pattern for pattern in bot._connection._view_store._dynamic_items}
        assert {"t:", "tm:", "ch:", "chs:"} <= {p.split("(")[0] for p in patterns}, "the one scheme and the old ids"
        assert group(bot).get_command("proxy").to_dict(bot.tree)["options"][0]["type"] == 6


async def test_buttons_work_after_a_restart_through_the_library(tmp_path):
    """The persistent items are registered in setup: a window button posted by one bot process is dispatched by
    discord.py itself in the next one."""
    path = tmp_path / "c.sqlite3"
    dice = InjectedDice([*SEATING[:3], (2, 1)], fallback=b"lib")
    async with chouette_bot(path, dice=dice) as (bot, fake):
        ann, bob, cy, di, ed = members(fake)
        room = fake.text_channel("club-night")
        await command(bot, fake, "start", ann, room)
        for member in (bob, cy):
            await command(bot, fake, "join", member, room)
        await command(bot, fake, "seat", ann, room)
        board = fake.last(room.id)
        menu = find_id(board, ANN, "play")
        await press(fake, ann, menu, [options_of(board, menu)[0]])
        custom_id = find_id(fake.last(room.id), CY, "pass")
    async with chouette_bot(path, dice=dice) as (bot, _unused):
        fake.attach(bot)
        pressed = await fake.press_via_library(fake.members[CY], custom_id)
        assert "Cy does not double" in private_text(pressed)
        assert {d.subject for d in (await bot.chouettes.state(1)).decisions} == {BOB}


async def test_no_cube_no_talk_thread(tmp_path):
    """ "No cube, no talk": a private thread holds Box and the members whose cube is in the game; a member whose cube
    is dropped is taken out of it."""
    dice = InjectedDice([*SEATING[:4], (1, 2)], fallback=b"talk")
    async with chouette_bot(tmp_path / "c.sqlite3", dice=dice) as (bot, fake):
        ann, bob, cy, di, ed = members(fake)
        room = fake.text_channel("club-night")
        threads = []

        async def create_thread(*, name, type=None, invitable=True, **kwargs):
            thread = fake._channel(__import__("discord").Thread, name)
            thread.parent_id = room.id
            threads.append(thread)
            return thread

        room.create_thread.side_effect = create_thread
        await command(bot, fake, "start", ann, room, no_talk=True)
        for member in (bob, cy, di):
            await command(bot, fake, "join", member, room)
        await command(bot, fake, "seat", ann, room)
        assert len(threads) == 1
        thread = threads[0]
        added = {call.args[0].id for call in thread.add_user.await_args_list}
        assert added == {ANN, BOB, CY, DI}
        board = fake.last(room.id)
        menu = find_id(board, BOB, "play")
        await press(fake, bob, menu, [options_of(board, menu)[0]])
        await press(fake, ann, find_id(fake.last(room.id), ANN, "double"))
        await press(fake, di, find_id(fake.last(room.id), DI, "drop"))
        removed = {call.args[0].id for call in thread.remove_user.await_args_list}
        assert removed == {DI}


async def test_status_rules_and_refusals_are_private(tmp_path):
    """``status`` shows the board with the panel privately; ``rules`` the rule set and times; a command in a channel
    without a chouette explains how to start one; a stranger's press is refused privately."""
    dice = InjectedDice([*SEATING[:3], (2, 1)], fallback=b"st")
    async with chouette_bot(tmp_path / "c.sqlite3", dice=dice) as (bot, fake):
        ann, bob, cy, di, ed = members(fake)
        room = fake.text_channel("club-night")
        elsewhere = fake.text_channel("lobby")
        nothing = await command(bot, fake, "status", ann, elsewhere)
        assert "start one with /bg chouette start" in private_text(nothing)
        await command(bot, fake, "start", ann, room, rules="chouette-classic", stake=5)
        for member in (bob, cy):
            await command(bot, fake, "join", member, room)
        await command(bot, fake, "seat", ann, room)
        status = await command(bot, fake, "status", cy, room)
        reply = last_reply(status)
        assert reply.ephemeral and reply.png.startswith(PNG_MAGIC) and not reply.components
        rules = await command(bot, fake, "rules", cy, room)
        assert "classic family" in private_text(rules) and "Stake: 5 per point" in private_text(rules)
        board = fake.last(room.id)
        stranger = await press(fake, ed, find_id(board, ANN, "play"), ["24/23 13/11"])
        assert "You do not sit in chouette 1" in private_text(stranger)


async def test_more_than_five_deciders_overflow_into_a_second_message(tmp_path):
    """Discord allows five rows of components per message: with six Team members in the window (5.9) the sixth
    member's row goes into a second message; presses edit both in place, and the next board strips them."""
    seating = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4), (4, 3), (3, 3)]
    dice = InjectedDice([*seating, (2, 1)], fallback=b"o")
    async with chouette_bot(tmp_path / "c.sqlite3", dice=dice) as (bot, fake):
        people = [*members(fake), fake.member(606, "Flo"), fake.member(707, "Gus")]
        room = fake.text_channel("club-night")
        await command(bot, fake, "start", people[0], room)
        for member in people[1:]:
            await command(bot, fake, "join", member, room)
        await command(bot, fake, "seat", people[0], room)
        board = fake.last(room.id)
        menu = find_id(board, ANN, "play")
        await press(fake, people[0], menu, [options_of(board, menu)[0]])
        board, more = fake.in_channel(room.id)[-2:]
        assert mentioned(board) == {BOB, CY, DI, ED, 606, 707}
        assert len(board.components) == 5 and more.content == "More decisions:"
        assert {chouette_parts(i)[0] for i in chouette_ids(more)} == {707}
        await press(fake, people[6], find_id(more, 707, "pass"))
        assert fake.in_channel(room.id)[-2:] == [board, more] and more.components == []
        assert {chouette_parts(i)[0] for i in chouette_ids(board)} == {BOB, CY, DI, ED, 606}
        for member, user in zip((BOB, CY, DI, ED), people[1:5], strict=True):
            await press(fake, user, find_id(board, member, "pass"))
        await press(fake, people[5], find_id(board, 606, "pass"))
        assert fake.last(room.id).id != board.id and board.components == [], "the Captain's board replaces it"
