"""Correspondence play through the Discord harness (the real bot, discord.py's real parsing,
the fake Discord): ``/player away`` posts one notice per game and pauses the clocks, ``/player back`` ends it early,
repeated pauses still let the deadline arrive; at a lapsed deadline under the ``claim`` policy the Claim the game /
Claim the match / Give 24 h more buttons work for the waiting member only; ``/player nudge`` has its cooldown;
``/player ping`` reaches all my games; ``/bg games`` links each board with whose turn it is and the time left; the
Rematch button of the last board after a claimed match; ``/player autoroll`` off, on and with hours."""

from __future__ import annotations

from club import InjectedDice
from club.settings import DAY, HOUR
from tests.discordkit import GUILD, Harness, Member


async def configure(h: Harness, **options) -> None:
    """``/bg config`` by a club admin (the admin is a member of his own)."""
    admin = h.member("Admin", admin=True)
    answer = await h.command(admin, "bg config", h.channel("admin"), **options)
    assert answer.private and "Club settings updated" in answer.text, answer.text


async def open_game(h: Harness, lobby: int, challenger: Member, opponent: Member, length: str = "7") -> int:
    """A match challenged in ``lobby`` and accepted with the button; returns its thread."""
    await h.command(challenger, "bg challenge", lobby, opponent=opponent, length=length)
    challenge = h.last(lobby)
    await h.press(opponent, challenge, "Accept")
    return h.thread_of(challenge)


async def due(h: Harness, match_id: int) -> float:
    return (await h.bot.service.db.get_deadline(match_id)).due_at


def mentioned(message, member: Member) -> bool:
    return message.content.startswith(member.mention)


async def test_away_pauses_each_game_and_back_ends_it_early(tmp_path):
    """/player away 2 holiday: one notice in each of Alice's two games' threads, mentioning her opponent; her clock
    (in #1, where she must act) moves 2 days, Carol's (#2) does not; /player back an hour later: a notice in each,
    her clock back to the time it had, one unused day given back."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1), (1, 6)], fallback=b"away")) as h:
        await configure(h, away_days=10, move_hours=10.0)
        alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
        lobby = h.channel("lobby")
        threads = [await open_game(h, lobby, alice, bob), await open_game(h, lobby, alice, carol)]
        service = h.bot.service
        assert [(await service.state(i)).waiting_for for i in (1, 2)] == [alice.id, carol.id]
        before = [await due(h, 1), await due(h, 2)]
        counts = [len(h.messages(t)) for t in threads]
        asked = await h.command(alice, "player away", lobby, days=2, reason="holiday")
        assert asked.private and "2 games told" in asked.text and "8 away days left" in asked.text, asked.text
        for thread, count, opponent in zip(threads, counts, (bob, carol), strict=True):
            posts = h.messages(thread)[count:]
            assert len(posts) == 1, [p.content for p in posts]
            assert mentioned(posts[0], opponent) and "Alice is away until <t:" in posts[0].content
            assert "holiday" in posts[0].content
        assert await due(h, 1) == before[0] + 2 * DAY and await due(h, 2) == before[1]
        again = await h.command(alice, "player away", lobby, days=1)
        assert again.private and "away already" in again.text and await due(h, 1) == before[0] + 2 * DAY
        h.clock.advance(HOUR)
        back = await h.command(alice, "player back", threads[0])
        assert back.private and "2 games told" in back.text
        assert all("Alice is back" in h.last(t).content for t in threads)
        assert before[0] <= await due(h, 1) <= before[0] + HOUR + 1 and await due(h, 2) == before[1]
        games = await h.command(alice, "bg games", lobby)
        assert "Away days this year: 1 used, 9 left of 10." in games.text, games.text


async def test_away_in_a_club_without_away_days_names_the_setting(tmp_path):
    """/player away in a club that gives no away days said "You have 0 away days left … ask for 0 or fewer."; now
    that away days are not enabled and the /bg config option an admin sets them with."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice(fallback=b"off")) as h:
        asked = await h.command(h.member("Alice"), "player away", h.channel("lobby"), days=2)
        assert asked.private and "Away days are not enabled in this club" in asked.text, asked.text
        assert "/bg config away_days:14" in asked.text and "or fewer" not in asked.text, asked.text


async def test_repeated_pauses_and_the_deadline_still_arrives(tmp_path):
    """The OGS bug through the bot: away 1 and back, again and again, until the allowance (2) is spent and the next
    away is refused; then the reminder loop: the clock lapses, one away day would be used but none is left, and the
    club's policy acts — the late member forfeits the game and game 2's board is posted."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice(fallback=b"pauses")) as h:
        await configure(h, away_days=2, move_hours=10.0, reminders="none", expiry="forfeit_game")
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        thread = await open_game(h, lobby, alice, bob)
        late = h.members[(await h.bot.service.state(1)).waiting_for]
        start = h.clock.now()
        for _ in range(2):
            assert (await h.command(late, "player away", lobby, days=1)).private
            h.clock.advance(HOUR)
            assert (await h.command(late, "player back", lobby)).private
        refused = await h.command(late, "player away", lobby, days=1)
        assert refused.private and "0 away days left" in refused.text, refused.text
        for _ in range(60):
            h.clock.advance(HOUR)
            await h.tick()
            if (await h.bot.service.state(1)).game_number == 2:
                break
        assert (await h.bot.service.state(1)).game_number == 2, "the deadline arrived"
        assert h.clock.now() - start <= 10 * HOUR + 2 * DAY + 2 * HOUR
        assert any("forfeits the game" in m.text for m in h.messages(thread)) and "Game 2" in h.last(thread).text


async def test_claim_buttons_at_a_lapsed_deadline_and_the_rematch(tmp_path):
    """Expiry policy ``claim``: at the deadline the reminder loop posts the notice with Claim the game / Claim the
    match / Give 24 h more, mentioning the waiting member; the late member pressing them is refused and nothing
    changes; Give 24 h more moves the deadline (the old Claim is refused until it lapses again); Claim the game
    forfeits his game; at the next lapse Claim the match ends the match (RULES M5); the last board's Rematch,
    pressed by the loser, is accepted by the winner."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice(fallback=b"claims")) as h:
        await configure(h, expiry="claim", move_hours=10.0, reminders="none")
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        thread = await open_game(h, lobby, alice, bob)
        service = h.bot.service
        late = h.members[(await service.state(1)).waiting_for]
        waiting = bob if late is alice else alice
        h.clock.advance(10 * HOUR)
        await h.tick()
        post = h.last(thread)
        assert mentioned(post, waiting) and "claim the game" in post.content
        claim_game = "Claim the game: 1 point (single, a single game at the cube)"  # said before it is pressed
        assert post.labels == [claim_game, "Claim the match", "Give 24 h more"]
        version = (await service.state(1)).version
        for label in post.labels:
            refused = await h.press(late, post, label)
            assert refused.private and "nothing to claim" in refused.text.lower(), refused.text
        assert (await service.state(1)).version == version
        more = await h.press(waiting, post, "Give 24 h more")
        assert more.private and "24 hours more" in more.text
        assert mentioned(h.last(thread), late) and "24 hours more" in h.last(thread).content
        early = await h.press(waiting, post, claim_game)
        assert early.private and "still has" in early.text and (await service.state(1)).version == version
        h.clock.advance(24 * HOUR)
        await h.tick()
        second = h.last(thread)
        assert second.labels == [claim_game, "Claim the match", "Give 24 h more"]
        await h.press(waiting, second, claim_game)
        assert (await service.state(1)).game_number == 2, "the late member forfeited the game"
        assert any("forfeits the game" in m.text for m in h.messages(thread))
        for _ in range(5):  # game 2: whoever keeps it waiting, his opponent claims the match at the lapse
            h.clock.advance(10 * HOUR)
            await h.tick()
            offer = h.last(thread)
            if "Claim the match" in offer.labels:
                break
        else:
            raise AssertionError("no claim was offered in game 2")
        late2 = h.members[(await service.state(1)).waiting_for]
        winner = bob if late2 is alice else alice
        claimed = await h.press(winner, offer, "Claim the match")
        assert claimed.private
        view = await service.state(1)
        assert view.status == "over" and view.winner == view.side_of(winner.id)
        last = next(m for m in reversed(h.messages(thread)) if "Rematch" in m.labels)
        await h.press(late2, last, "Rematch")
        challenge = h.last(lobby)
        assert winner.mention in challenge.content
        await h.press(winner, challenge, "Accept")
        second_match = await service.state(2)
        assert second_match.status == "active" and (second_match.length, second_match.rules) == (7, view.rules)


async def test_give_24_hours_more_acts_once_and_only_on_its_own_deadline(tmp_path):
    """Give 24 h more pressed twice on one notice: 24 hours and one notice, the second press told the deadline has
    moved; at the next lapse the first notice's button changes nothing and says so, the new notice's works."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice(fallback=b"more")) as h:
        await configure(h, expiry="claim", move_hours=10.0, reminders="none")
        alice, bob = h.member("Alice"), h.member("Bob")
        thread = await open_game(h, h.channel("lobby"), alice, bob)
        late = h.members[(await h.bot.service.state(1)).waiting_for]
        waiting = bob if late is alice else alice
        h.clock.advance(10 * HOUR)
        await h.tick()
        first = h.last(thread)
        lapsed = await due(h, 1)
        given = await h.press(waiting, first, "Give 24 h more")
        assert given.private and "24 hours more" in given.text
        again = await h.press(waiting, first, "Give 24 h more")
        assert again.private and "earlier deadline: nothing changed" in again.text, again.text
        assert await due(h, 1) == lapsed + 24 * HOUR
        assert sum("24 hours more in match 1" in m.content for m in h.messages(thread)) == 1
        h.clock.advance(24 * HOUR)
        await h.tick()
        second = h.last(thread)
        assert second.id != first.id and "Give 24 h more" in second.labels
        old = await h.press(waiting, first, "Give 24 h more")
        assert old.private and "earlier deadline: nothing changed" in old.text, old.text
        assert await due(h, 1) == lapsed + 24 * HOUR
        await h.press(waiting, second, "Give 24 h more")
        assert await due(h, 1) == h.clock.now() + 24 * HOUR
        assert sum("24 hours more in match 1" in m.content for m in h.messages(thread)) == 2


async def test_nudge_has_a_cooldown(tmp_path):
    """/player nudge (in the lobby: to the one game waiting for the opponent): refused before the club's hours;
    then a new message in the game's thread that mentions the late member; refused again until that many hours
    later; the late member has nobody to nudge."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice(fallback=b"nudge")) as h:
        await configure(h, nudge_hours=2.0)
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        thread = await open_game(h, lobby, alice, bob)
        late = h.members[(await h.bot.service.state(1)).waiting_for]
        waiting = bob if late is alice else alice
        early = await h.command(waiting, "player nudge", lobby)
        assert early.private and "after 2 hours" in early.text, early.text
        h.clock.advance(3 * HOUR)
        count = len(h.messages(thread))
        assert (await h.command(waiting, "player nudge", lobby)).text == "Nudged."
        assert len(h.messages(thread)) == count + 1
        assert mentioned(h.last(thread), late) and "Nudge from" in h.last(thread).content
        again = await h.command(waiting, "player nudge", thread)
        assert again.private and "next nudge is possible in 2.0 hours" in again.text, again.text
        assert len(h.messages(thread)) == count + 1
        h.clock.advance(2 * HOUR)
        assert (await h.command(waiting, "player nudge", lobby, game=1)).text == "Nudged."
        nobody = await h.command(late, "player nudge", lobby)
        assert nobody.private and "nobody to nudge" in nobody.text, nobody.text


async def test_ping_all_my_games_and_the_games_list(tmp_path):
    """/player ping: a message in each of my games' threads, mentioning each opponent. /bg games: each entry links
    to its newest board message (a jump link), says whose turn it is and the time left."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1), (1, 6)], fallback=b"ping")) as h:
        await configure(h, move_hours=10.0)
        alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
        lobby = h.channel("lobby")
        threads = [await open_game(h, lobby, alice, bob), await open_game(h, lobby, alice, carol)]
        pinged = await h.command(alice, "player ping", lobby, text="back Monday")
        assert pinged.private and "Pinged 2 games." in pinged.text
        for thread, opponent in zip(threads, (bob, carol), strict=True):
            assert mentioned(h.last(thread), opponent) and "back Monday" in h.last(thread).content
        h.clock.advance(2 * HOUR)
        games = await h.command(alice, "bg games", lobby)
        assert games.private
        mine, theirs = games.text.split("Waiting for your opponent:")
        for match_id, part in ((1, mine), (2, theirs)):
            board = (await h.bot.service.messages(match_id, purpose="board"))[-1]
            assert f"https://discord.com/channels/{GUILD}/{board.channel_id}/{board.message_id}" in part
            assert "8.0 h left" in part
        assert "Your turn:" in mine and "#1 vs Bob" in mine and "#2 vs Carol" in theirs and "Carol's turn" in theirs


async def test_autoroll_off_on_and_roll_for_me_after_hours(tmp_path):
    """/player autoroll: off — in a 1-point match (dead cube, RULES M4) Bob gets a Roll button instead of an
    automatic roll; on — the next time his roll is made for him; on with hours — in a 7-point match, where he may
    double, the reminder loop rolls for him once that many hours have passed (said so), not before."""
    dice = InjectedDice([(6, 1), (3, 2), (5, 4), (4, 3), (6, 1)], fallback=b"autoroll")  # Alice opens both with 6-1
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        service = h.bot.service
        off = await h.command(bob, "player autoroll", lobby, state="off")
        assert off.private and "Auto-roll is off" in off.text
        thread = await open_game(h, lobby, alice, bob, length="1")
        await h.command(alice, "bg move", thread, play="13/7 8/7")
        view = await service.state(1)
        assert (view.waiting_for, view.pending) == (bob.id, "roll")
        assert "Roll" in h.last(thread).labels and "Double" not in h.last(thread).labels
        on = await h.command(bob, "player autoroll", lobby, state="on", hours=2.0)
        assert on.private and "within 2 hours" in on.text
        await h.press(bob, h.last(thread), "Roll")
        await h.command(bob, "bg move", thread, play=(await service.legal_plays(1, bob.id))[0])
        view = await service.state(1)
        assert (view.waiting_for, view.pending) == (alice.id, "play"), "Alice's roll is made for her (the default)"
        await h.command(alice, "bg move", thread, play=(await service.legal_plays(1, alice.id))[0])
        view = await service.state(1)
        assert (view.waiting_for, view.pending) == (bob.id, "play"), "Bob's roll was made for him"
        second = await open_game(h, lobby, alice, bob, length="7")
        await h.command(alice, "bg move", second, play="13/7 8/7")
        view = await service.state(2)
        assert (view.waiting_for, view.pending) == (bob.id, "roll_or_double")
        h.clock.advance(HOUR)
        await h.tick()
        assert (await service.state(2)).pending == "roll_or_double", "not before 2 hours"
        h.clock.advance(1.5 * HOUR)
        await h.tick()
        assert (await service.state(2)).pending == "play"
        assert any("did not double within 2 hours" in m.text for m in h.messages(second))


async def test_the_final_position_of_a_game_is_shown_before_the_next_opening(tmp_path):
    """Found by a user: a game that did not end the match never showed its final position — the deciding action
    went straight to the next game's opening board. Now the thread gets the last position of game 1 with its result
    (a board image, no buttons), then game 2's opening board."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice(fallback=b"final")) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        thread = await open_game(h, lobby, alice, bob, length="5")
        loser = h.members[(await h.bot.service.state(1)).waiting_for]
        winner = bob if loser is alice else alice
        await h.command(loser, "bg resign", thread, level="gammon")
        before = len(h.messages(thread))
        await h.press(winner, h.last(thread), "Accept resignation")
        posts = h.messages(thread)[before:]
        result = f"{winner.name} wins game 1: gammon, 2 points"
        finals = [post for post in posts if post.embed.get("description") == result]
        assert len(finals) == 1, [post.embed.get("description") for post in posts]
        final = finals[0]
        assert final.png is not None and not final.custom_ids and "Game 1" in final.embed["footer"]["text"]
        opening = h.last(thread)
        ids = [post.id for post in posts]
        assert opening.id != final.id and ids.index(final.id) < ids.index(opening.id)
        assert (await h.bot.service.state(1)).game_number == 2 and "Game 2" in opening.embed["footer"]["text"]


async def test_club_stats_show_reply_times_and_games_waiting(tmp_path):
    """/club stats: a member's average and median reply time (from the turn being his to his action) and the games
    waiting on him now. Bob accepts at once and rolls and plays an hour after his turn came; Alice plays her
    opening 3 hours after the game started and is on turn again."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1), (3, 2)], fallback=b"stats")) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        thread = await open_game(h, lobby, alice, bob)
        service = h.bot.service
        h.clock.advance(3 * HOUR)
        await h.command(alice, "bg move", thread, play="13/7 8/7")
        h.clock.advance(HOUR)
        await h.press(bob, h.last(thread), "Roll")
        await h.command(bob, "bg move", thread, play=(await service.legal_plays(1, bob.id))[0])
        assert (await service.state(1)).waiting_for == alice.id
        mine = await h.command(alice, "club stats", lobby)
        assert mine.private
        assert "Reply time: average 3.0 h, median 3.0 h over 1 reply; games waiting on Alice now: 1" in mine.text
        theirs = await h.command(alice, "club stats", lobby, member=bob)
        assert "median 30 min over 2 replies; games waiting on Bob now: 0" in theirs.text, theirs.text
