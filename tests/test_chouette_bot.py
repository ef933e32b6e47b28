"""``/bg chouette`` through the harness (tests/discordkit.py: the real bot, discord.py's own parsing, a fake Discord
checking every request): a five-member chouette over simulated days — an injected clock, deadlines passing, proxies
acting, a restart in the middle — ending with the right score sheet and its image; each member's own buttons; "no
cube, no talk" (RULES C1–C11, A2)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from club import InjectedDice, ManualClock
from club.chouette.images import sheet_view
from club.verify import verify_chouette
from rendering.sheet import ROW, render_sheet_image, sheet_layout
from storage import Database
from tests.clubkit import snapshot
from tests.discordkit import GUILD, PNG_MAGIC, Harness, Msg, chouette_parts

pytestmark = pytest.mark.backends

HOUR = 3600.0
SEATING = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]  # Ann Box, Bob Captain, then Cy, Di, Ed


def members(h: Harness):
    """Ann, Bob, Cy, Di and Ed."""
    return [h.member(name) for name in ("Ann", "Bob", "Cy", "Di", "Ed")]


def mentioned(post: Msg) -> set[int]:
    return {int(part[2:-1]) for part in post.content.split() if part.startswith("<@") and part.endswith(">")}


def deciders(post: Msg) -> set[int]:
    """The members whose chouette buttons the message carries."""
    return {chouette_parts(custom_id)[0] for custom_id in post.chouette_ids}


async def chouette(h: Harness, who, what: str, room: int, **options):
    """``/bg chouette <what>`` by ``who`` in ``room``; its answer is private."""
    answer = await h.command(who, f"bg chouette {what}", room, **options)
    assert answer.private, answer
    return answer


async def play_first(h: Harness, member, board: Msg):
    """``member`` chooses the first play of his menu on ``board``."""
    menu = board.chouette_id(member.id, "play")
    return await h.press(member, board, menu, values=[board.options(menu)[0]])


async def tick(h: Harness) -> list:
    """One round of the reminder loop; the notices it handled."""
    notices = await h.bot.get_cog("Reminders").tick()
    await h.settle()
    return notices


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
    and then Bob misses Ed's proxy time: the policy follows Bob's own drop (7.1). Game 2: Captain Cy is still away, so Di
    stands in as Acting Captain (C9); Di does not play in time, nor does each one standing in after him; with nobody
    present left, the club's policy forfeits the board. The sheet — points per member, zero-sum — and its image."""
    clock = ManualClock()
    path = tmp_path / "club.sqlite3"
    dice = InjectedDice([*SEATING, (2, 1), (3, 1), (1, 2)], fallback=b"days")
    async with Harness.start(path, clock=clock, dice=dice) as h:
        ann, bob, cy, di, ed = members(h)
        room = h.channel("club-night")
        await h.bot.service.register(GUILD, ann.id, "Ann")
        await h.bot.service.configure_club(GUILD, move_time=2 * HOUR, expiry_policy="forfeit_game")
        started = await chouette(h, ann, "start", room, hours=24.0, proxy_hours=12.0)
        assert "opens a chouette" in started.text
        for member in (bob, cy, di, ed):
            await chouette(h, member, "join", room)
        lobby = h.last(room)
        assert "Ann, Bob, Cy, Di, Ed" in lobby.embed["fields"][0]["value"] and lobby.edits == 4
        early = await chouette(h, cy, "proxy", room, member=di)
        assert "once the members are seated" in early.text
        seat = await chouette(h, ed, "seat", room)
        assert "Box Ann against Captain Bob" in seat.text
        board = h.last(room)
        assert mentioned(board) == {ann.id} and board.png.startswith(PNG_MAGIC)
        named = await chouette(h, cy, "proxy", room, member=di)
        assert "Cy names Di their proxy" in named.text
        await chouette(h, ed, "proxy", room, member=bob)
        assert h.last(room).id == board.id and board.content == "Waiting for Ann."
        await play_first(h, ann, board)

        window = h.last(room)
        assert mentioned(window) == {bob.id, cy.id, di.id, ed.id}, "exactly the members who must decide (5.9)"
        assert deciders(window) == {bob.id, cy.id, di.id, ed.id}
        seen = window.seen()
        edits = window.edits
        clock.advance(HOUR)
        await h.press(bob, window, window.chouette_id(bob.id, "pass"))
        await h.press(di, window, window.chouette_id(di.id, "double"))
        before = snapshot(path)
        refused = await h.press(di, seen, seen.chouette_id(cy.id, "double"))
        assert refused.private and "Cy is here and decides himself" in refused.text
        assert snapshot(path) == before
        await h.press(ed, window, window.chouette_id(ed.id, "pass"))
        assert h.last(room).id == window.id and window.edits == edits + 3, "passes edit the one board message"

        clock.advance(10 * HOUR)  # the night: nothing is due
        assert await tick(h) == []
        clock.advance(10 * HOUR)  # day 2: the reminder 4 hours before Cy's deadline
        reminders = await tick(h)
        assert [(n.kind, n.ping) for n in reminders] == [("reminder", (cy.id,))]
        assert "Reminder: Cy" in h.last(room).content and mentioned(h.last(room)) == {cy.id}
        clock.advance(4 * HOUR)
        expired = await tick(h)
        assert [(n.kind, n.subject, n.ping) for n in expired] == [("expiry", cy.id, (di.id,))]
        proxy_board = h.last(room)
        assert mentioned(proxy_board) == {di.id} and "Di for Cy: double or pass" in proxy_board.content
        assert "Cy missed their deadline" in proxy_board.embed["description"]
        pressed = await h.press(di, proxy_board, proxy_board.chouette_id(cy.id, "double"))
        assert pressed.private and "Cy doubles (for Cy, by Di)" in pressed.text

        answer = h.last(room)
        assert mentioned(answer) == {ann.id}
        await h.press(ann, answer, answer.chouette_id(ann.id, "drop"))
        captain = h.last(room)
        assert mentioned(captain) == {bob.id}
        await play_first(h, bob, captain)
        box_turn = h.last(room)
        assert mentioned(box_turn) == {ann.id}
        await h.press(ann, box_turn, box_turn.chouette_id(ann.id, "double"))
        answers = h.last(room)
        assert mentioned(answers) == {bob.id, ed.id}

        await h.restart()  # a new bot process on the same database and the same Discord
        pressed = await h.press(bob, answers, answers.chouette_id(bob.id, "drop"))
        assert pressed.private and "Bob drops" in pressed.text
        clock.advance(25 * HOUR)  # day 3: Ed missed his answer; his proxy Bob is pinged
        expired = await tick(h)
        assert [(n.subject, n.ping) for n in expired] == [(ed.id, (bob.id,))]
        clock.advance(13 * HOUR)  # Bob lets Ed's time pass too: Ed drops, as Bob did (003 Atlanta 7.1)
        expired = await tick(h)
        assert len(expired) == 1 and "Ed drops (time: the club's policy)" in expired[0].text
        assert expired[0].outcome.finished == (1,)
        sheet_post, game2 = h.messages(room)[-2:]
        assert sheet_post.content.startswith("Score sheet after game 1: Ann +0, Bob -1, Cy +1, Di +1, Ed -1")
        assert sheet_post.png.startswith(PNG_MAGIC)
        assert mentioned(game2) == {di.id}, "game 2: Captain Cy is still away: Di stands in and opens (C9)"
        assert "Di is Acting Captain for Cy" in h.messages(room)[-1].embed["description"]
        acting = []  # day 4: Di does not play within the club's move time, nor does any Team member after him
        for _ in range(5):
            clock.advance(3 * HOUR)
            expired = await tick(h)
            if expired[0].outcome.finished:
                break
            acting.append(expired[0].outcome.view.player)
            assert "is Acting Captain for" in expired[0].outcome.message
        assert acting == [bob.id], "Di is late: away; Ed is away since game 1, so Bob stands in (C9)"
        assert expired[0].outcome.finished == (2,), "nobody present is left: the club's policy forfeits the board"

        view = await h.bot.chouettes.state(1)
        rows = [row.points for row in view.sheet.rows]
        assert rows == [
            {ann.id: 0, bob.id: -1, cy.id: 1, di.id: 1, ed.id: -1},
            {ann.id: 4, bob.id: -1, cy.id: -1, di.id: -1, ed.id: -1},
        ]
        assert view.sheet.totals == {ann.id: 4, bob.id: -2, cy.id: 0, di.id: 0, ed.id: -2} and view.sheet.zero_sum
        assert view.sheet.rows[0].circled == (bob.id,) and view.order[:2] == (ann.id, di.id)

        asked = await chouette(h, di, "sheet", room)
        reply = asked.messages[-1]
        assert reply.png.startswith(PNG_MAGIC) and "Ann +4" in asked.text
        image = Image.open(io.BytesIO(reply.png))
        image.load()
        expected = render_sheet_image(sheet_view(view), h.bot.board_options.theme)
        assert image.size == expected.size
        layout = sheet_layout(sheet_view(view))
        for index in range(5):
            left, right = layout.member_column(index)
            assert ink(image.convert("RGB"), (left, layout.header_top, right, layout.header_top + ROW), (240,) * 3) > 20
        report = await verify_chouette(h.bot.service.db, 1)
        assert report.ok, report.problems
    async with Database.open(path) as db:  # the stored results, read after the bot closed its database
        rows = await db._fetchall(
            "SELECT game_number, sum(points), count(*) FROM chouette_results GROUP BY 1 ORDER BY 1"
        )
    assert [tuple(row) for row in rows] == [(1, 0, 5), (2, 0, 5)]


async def test_commands_are_a_subgroup_of_bg(harness):
    """``/bg chouette`` sits in the one ``/bg`` group; its commands and options follow Discord's limits and the
    whole ``/bg`` payload stays within 4000 characters."""
    from tests.test_bot_tree import check_option

    bot = harness.bot
    payload = bot.tree.get_command("bg").to_dict(bot.tree)
    sub = next(option for option in payload["options"] if option["name"] == "chouette")
    assert sub["type"] == 2
    names = {option["name"] for option in sub["options"]}
    assert names == {"start", "join", "leave", "seat", "status", "sheet", "proxy", "order", "rules", "move", "verify"}
    assert check_option(payload, "") <= 4000
    patterns = {pattern.pattern for pattern in bot._connection._view_store._dynamic_items}
    assert {"t:", "tm:", "ch:", "chs:"} <= {p.split("(")[0] for p in patterns}, "the one scheme and the old ids"
    proxy = bot.tree.get_command("bg").get_command("chouette").get_command("proxy")
    assert proxy.to_dict(bot.tree)["options"][0]["type"] == 6


async def test_buttons_work_after_a_restart_through_the_library(tmp_path):
    """The persistent items are registered in setup: a window button posted by one bot process is dispatched by
    discord.py itself in the next one."""
    dice = InjectedDice([*SEATING[:3], (2, 1)], fallback=b"lib")
    async with Harness.start(tmp_path / "c.sqlite3", dice=dice) as h:
        ann, bob, cy, di, ed = members(h)
        room = h.channel("club-night")
        await chouette(h, ann, "start", room)
        for member in (bob, cy):
            await chouette(h, member, "join", room)
        await chouette(h, ann, "seat", room)
        await play_first(h, ann, h.last(room))
        window = h.last(room)
        await h.restart()
        pressed = await h.press(cy, window, window.chouette_id(cy.id, "pass"))
        assert pressed.private and "Cy does not double" in pressed.text
        assert {d.subject for d in (await h.bot.chouettes.state(1)).decisions} == {bob.id}


async def test_no_cube_no_talk_thread(tmp_path):
    """ "No cube, no talk": a private thread holds Box and the members whose cube is in the game; a member whose cube
    is dropped is taken out of it."""
    dice = InjectedDice([*SEATING[:4], (1, 2)], fallback=b"talk")
    async with Harness.start(tmp_path / "c.sqlite3", dice=dice) as h:
        ann, bob, cy, di, ed = members(h)
        room = h.channel("club-night")
        await chouette(h, ann, "start", room, no_talk=True)
        for member in (bob, cy, di):
            await chouette(h, member, "join", room)
        await chouette(h, ann, "seat", room)
        threads = [int(c["id"]) for c in h.world.channels.values()
                   if c.get("parent_id") == str(room) and c["type"] == 12]  # fmt: skip
        assert len(threads) == 1, "one private thread"

        def members_of(method: str) -> set[int]:
            return {
                int(r.path.rsplit("/", 1)[1]) for r in h.requests(method, f"/channels/{threads[0]}/thread-members/")
            }

        assert members_of("PUT") == {ann.id, bob.id, cy.id, di.id}
        await play_first(h, bob, h.last(room))
        board = h.last(room)
        await h.press(ann, board, board.chouette_id(ann.id, "double"))
        board = h.last(room)
        await h.press(di, board, board.chouette_id(di.id, "drop"))
        assert members_of("DELETE") == {di.id}


async def test_status_rules_and_refusals_are_private(tmp_path):
    """``status`` shows the board with the panel privately; ``rules`` the rule set and times; a command in a channel
    without a chouette explains how to start one; a stranger's press is refused privately."""
    dice = InjectedDice([*SEATING[:3], (2, 1)], fallback=b"st")
    async with Harness.start(tmp_path / "c.sqlite3", dice=dice) as h:
        ann, bob, cy, di, ed = members(h)
        room, elsewhere = h.channel("club-night"), h.channel("lobby")
        nothing = await chouette(h, ann, "status", elsewhere)
        assert "start one with /bg chouette start" in nothing.text
        await chouette(h, ann, "start", room, rules="chouette-classic", stake=5)
        for member in (bob, cy):
            await chouette(h, member, "join", room)
        await chouette(h, ann, "seat", room)
        status = await chouette(h, cy, "status", room)
        shown = status.messages[-1]
        assert shown.png.startswith(PNG_MAGIC) and not shown.custom_ids
        rules = await chouette(h, cy, "rules", room)
        assert "classic family" in rules.text and "Stake: 5 per point" in rules.text
        board = h.last(room)
        menu = board.chouette_id(ann.id, "play")
        stranger = await h.press(ed, board, menu, values=[board.options(menu)[0]])
        assert stranger.private and "You do not sit in chouette 1" in stranger.text


async def test_more_than_five_deciders_overflow_into_a_second_message(tmp_path):
    """Discord allows five rows of components per message: with six Team members in the window (5.9) the sixth
    member's row goes into a second message; presses edit both in place, and the next board strips them."""
    seating = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4), (4, 3), (3, 3)]
    dice = InjectedDice([*seating, (2, 1)], fallback=b"o")
    async with Harness.start(tmp_path / "c.sqlite3", dice=dice) as h:
        people = [*members(h), h.member("Flo"), h.member("Gus")]
        ids = [member.id for member in people]
        room = h.channel("club-night")
        await chouette(h, people[0], "start", room)
        for member in people[1:]:
            await chouette(h, member, "join", room)
        await chouette(h, people[0], "seat", room)
        await play_first(h, people[0], h.last(room))
        board, more = h.messages(room)[-2:]
        assert mentioned(board) == set(ids[1:])
        assert len(board.data["components"]) == 5 and more.content == "More decisions:"
        assert deciders(more) == {ids[6]}
        await h.press(people[6], more, more.chouette_id(ids[6], "pass"))
        assert [m.id for m in h.messages(room)[-2:]] == [board.id, more.id] and more.custom_ids == []
        assert deciders(board) == set(ids[1:6])
        for user in people[1:6]:
            await h.press(user, board, board.chouette_id(user.id, "pass"))
        assert h.last(room).id != board.id and board.custom_ids == [], "the Captain's board replaces it"


async def test_leave_before_the_seats_and_after_them(harness):
    """``/bg chouette leave``: before the seat throw the member is out of the list at once; seated, he is told
    privately with the board's link, and the game in progress goes on."""
    h = harness
    ann, bob, cy, di, ed = members(h)
    room = h.channel("club-night")
    await chouette(h, ann, "start", room)
    for member in (bob, cy, di):
        await chouette(h, member, "join", room)
    left = await chouette(h, di, "leave", room)
    assert "Di" in left.text
    assert "Ann, Bob, Cy" in h.last(room).embed["fields"][0]["value"]
    assert "Di" not in h.last(room).embed["fields"][0]["value"]
    await chouette(h, cy, "seat", room)
    later = await chouette(h, bob, "leave", room)
    assert later.text.startswith("Bob leaves the chouette.") and "Board: " in later.text
    view = await h.bot.chouettes.state(1)
    assert di.id not in view.order and view.game_number == 1, "the game in progress goes on"


class Killed(BaseException):
    """The process dies here: nothing after this point runs."""


@pytest.mark.sqlite_only  # the commit's notices are Store.commit's, on PostgreSQL in tests/test_bot_reminders.py
@pytest.mark.parametrize("kill", ["after_the_step", "after_the_post"])
async def test_a_kill_at_a_chouette_deadline_posts_its_notice_once_after_the_restart(tmp_path, kill):
    """At-least-once notices, each posted once, for a chouette: Cy misses his window and the club acts for him (RULES
    C9); the process dies the moment that step is committed — its notice recorded pending in the same transaction —
    or once the notice has reached Discord but before it was marked posted. The restarted bot posts what is pending:
    the notice is in the channel exactly once (the post's nonce), with the board after it."""
    clock = ManualClock()
    dice = InjectedDice([*SEATING[:3], (2, 1)], fallback=b"kill")
    async with Harness.start(tmp_path / "c.sqlite3", clock=clock, dice=dice, reviews=False) as h:
        ann, bob, cy, _di, _ed = members(h)
        room = h.channel("club-night")
        await h.bot.service.register(GUILD, ann.id, "Ann")
        await h.bot.service.configure_club(GUILD, move_time=2 * HOUR, reminders=[], expiry_policy="forfeit_game")
        await chouette(h, ann, "start", room)
        for member in (bob, cy):
            await chouette(h, member, "join", room)
        await chouette(h, ann, "seat", room)
        await play_first(h, ann, h.last(room))
        window = h.last(room)
        await h.press(bob, window, window.chouette_id(bob.id, "pass"))
        version = (await h.bot.chouettes.state(1)).version
        if kill == "after_the_step":
            original = h.bot.chouettes.store.commit

            async def dies(commit):
                await original(commit)
                raise Killed

            h.bot.chouettes.store.commit = dies
        else:
            posted = h.bot.publisher.post_notice

            async def dies(notice, **options):
                await posted(notice, **options)
                raise Killed

            h.bot.publisher.post_notice = dies
        clock.advance(25 * HOUR)
        with pytest.raises(Killed):
            await h.bot.get_cog("Reminders").tick()
        await h.settle()
        assert (await h.bot.chouettes.state(1)).version > version, "the club's step was committed"

        def told() -> int:
            return sum("Time is up for Cy" in m.content for m in h.messages(room))

        assert told() == (1 if kill == "after_the_post" else 0)
        await h.restart()
        notices = await tick(h)
        assert [(n.kind, n.subject) for n in notices] == [("expiry", cy.id)] and told() == 1
        assert await tick(h) == [] and told() == 1
