"""``/player`` and the claim buttons through the cogs with the fake Discord (tests/botkit.py): away posts one notice in
each game's thread and pauses the clock, back ends it; at a deadline under the ``claim`` policy the waiting member
gets Claim the game / Claim the match / Give 24 h more, and only he can use them; a nudge pings."""

from __future__ import annotations

from botkit import GUILD, call, cog_of, last_reply, running_bot

from club import InjectedDice, ManualClock
from club.settings import DAY, HOUR

ALICE, BOB = 101, 202


async def start(bot, fake, **settings):
    await bot.service.configure_club(GUILD, **settings)
    cog = cog_of(bot)
    alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
    lobby = fake.text_channel("lobby")
    await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length="7")
    await fake.press(bob, fake.last(lobby.id).custom_id("accept"))
    thread = fake.channels[fake.last(lobby.id).threads[0]]
    view = await bot.service.state(1)
    members = {ALICE: alice, BOB: bob}
    late = view.waiting_for
    return members, thread, late, (BOB if late == ALICE else ALICE)


async def test_away_and_back_through_player(tmp_path):
    """/player away 2 holiday: a notice in the game's thread mentions the opponent, the clock moves 2 days; /player
    back: another notice, the clock comes back."""
    clock = ManualClock()
    async with running_bot(tmp_path / "c.sqlite3", clock=clock, dice=InjectedDice(fallback=b"away")) as (bot, fake):
        members, thread, late, waiting = await start(bot, fake, away_days=10, move_time=10 * HOUR)
        player = bot.get_cog("Player")
        before = (await bot.service.db.get_deadline(1)).due_at
        asked = await call(player.away, player, fake.interaction(members[late], thread), days=2, reason="holiday")
        assert last_reply(asked).ephemeral and "8 away day(s) left" in last_reply(asked).content
        notice = fake.last(thread.id)
        assert notice.content.startswith(f"<@{waiting}>") and "is away until" in notice.content
        assert "holiday" in notice.content
        assert (await bot.service.db.get_deadline(1)).due_at == before + 2 * DAY
        clock.advance(HOUR)
        await call(player.back, player, fake.interaction(members[late], thread))
        assert "is back" in fake.last(thread.id).content
        assert (await bot.service.db.get_deadline(1)).due_at <= before + HOUR + 1


async def test_claim_buttons_at_the_deadline(tmp_path):
    """The claim policy: at the deadline the reminder loop posts the notice with three buttons for the waiting
    member; the late member pressing Claim is refused and nothing changes; Give 24 h more moves the deadline; at
    the next deadline Claim the game forfeits the late member's game and the next board is posted."""
    clock = ManualClock()
    async with running_bot(tmp_path / "c.sqlite3", clock=clock, dice=InjectedDice(fallback=b"claim")) as (bot, fake):
        members, thread, late, waiting = await start(bot, fake, expiry_policy="claim", move_time=10 * HOUR,
                                                     reminders=[])  # fmt: skip
        reminders = bot.get_cog("Reminders")
        clock.advance(10 * HOUR)
        notices = await reminders.tick()
        assert [n.offer_to for n in notices] == [waiting]
        post = fake.last(thread.id)
        assert post.content.startswith(f"<@{waiting}>") and "claim the game" in post.content
        ids = post.custom_ids
        assert [i.rsplit(":", 1)[1] for i in ids] == ["claim_game", "claim_match", "more_time"]
        refused = await fake.press_via_library(members[late], ids[0])
        assert "nothing to claim" in last_reply(refused).content.lower()
        assert (await bot.service.state(1)).game_number == 1
        more = await fake.press_via_library(members[waiting], ids[2])
        assert "24 hours more" in last_reply(more).content
        clock.advance(24 * HOUR)
        notices = await reminders.tick()
        post = fake.last(thread.id)
        claim = next(i for i in post.custom_ids if i.endswith("claim_game"))
        await fake.press_via_library(members[waiting], claim)
        view = await bot.service.state(1)
        assert view.game_number == 2, "the late member forfeited the game"
        assert "forfeits the game" in fake.last(thread.id).embed.description


async def test_nudge_pings_in_a_new_message(tmp_path):
    """/player nudge in the game's thread after the club's hours: a new message that mentions the late member."""
    clock = ManualClock()
    async with running_bot(tmp_path / "c.sqlite3", clock=clock, dice=InjectedDice(fallback=b"nudge")) as (bot, fake):
        members, thread, late, waiting = await start(bot, fake, nudge_hours=2.0)
        player = bot.get_cog("Player")
        early = await call(player.nudge, player, fake.interaction(members[waiting], thread))
        assert "after 2 hours" in last_reply(early).content
        clock.advance(3 * HOUR)
        count = len(fake.in_channel(thread.id))
        await call(player.nudge, player, fake.interaction(members[waiting], thread))
        assert len(fake.in_channel(thread.id)) == count + 1
        assert fake.last(thread.id).content.startswith(f"<@{late}>") and "Nudge from" in fake.last(thread.id).content


async def test_bg_games_links_each_board_with_whose_turn_and_time_left(tmp_path):
    """/bg games: each entry links to its board message (a jump link), says whose turn it is and the time left,
    and the member's away days are shown."""
    clock = ManualClock()
    async with running_bot(tmp_path / "c.sqlite3", clock=clock, dice=InjectedDice(fallback=b"games")) as (bot, fake):
        members, thread, late, waiting = await start(bot, fake, away_days=7, move_time=10 * HOUR)
        cog = cog_of(bot)
        clock.advance(2 * HOUR)
        board = fake.last(thread.id)
        link = f"https://discord.com/channels/{GUILD}/{thread.id}/{board.id}"
        mine = last_reply(await call(cog.games, cog, fake.interaction(members[late], thread))).content
        assert "Your turn:" in mine and "8.0 h left" in mine and link in mine
        assert "Away days this year: 0 used, 7 left of 7." in mine
        theirs = last_reply(await call(cog.games, cog, fake.interaction(members[waiting], thread))).content
        name = "Alice" if late == ALICE else "Bob"
        assert f"{name}'s turn" in theirs and "8.0 h left" in theirs and link in theirs


async def test_ping_all_my_games_and_autoroll(tmp_path):
    """/player ping posts in the game's thread mentioning the opponent; /player autoroll off|on [hours] sets the
    member's preferences and says what they mean."""
    clock = ManualClock()
    async with running_bot(tmp_path / "c.sqlite3", clock=clock, dice=InjectedDice(fallback=b"ping")) as (bot, fake):
        members, thread, late, waiting = await start(bot, fake)
        player = bot.get_cog("Player")
        pinged = await call(player.ping, player, fake.interaction(members[late], thread), text="back Monday")
        assert "Pinged 1 game(s)" in last_reply(pinged).content
        post = fake.last(thread.id)
        assert post.content.startswith(f"<@{waiting}>") and "back Monday" in post.content
        off = await call(player.autoroll, player, fake.interaction(members[late], thread), state="off")
        assert "Auto-roll is off" in last_reply(off).content
        assert not (await bot.service.preferences(late)).auto_roll
        on = await call(player.autoroll, player, fake.interaction(members[late], thread), state="on", hours=6.0)
        assert "within 6 hours" in last_reply(on).content
        prefs = await bot.service.preferences(late)
        assert prefs.auto_roll and prefs.roll_after == 6.0
