"""Who organises a club's events, where they are posted and their live nights, through the Discord harness: the
club's organiser role (``/event admin settings``), the event forum with one post per event (rounds and the picture
there, the challenges in the event's channel), the picture's message kept across a restart, and a Discord
scheduled event for a live night (``/event admin live``), cancelled when the event is called off. Every refusal is
private and stores nothing."""

from __future__ import annotations

import datetime as dt
import time

from club import ManualClock
from tests.clubkit import snapshot
from tests.discord_fake import FORUM, VOICE
from tests.discordkit import Harness
from tests.eventkit import win


async def _join(h: Harness, room: int, name: str, players) -> None:
    for member in players:
        joined = await h.command(member, "event join", room, event=name)
        assert "You are in the field" in joined.text, joined.text


async def test_the_club_names_the_role_that_organises(tmp_path):
    """A member with the club's organiser role ("Organiser" by default) creates and starts an event; one without it
    is refused privately with nothing stored. An admin renames the role (the old one no longer organises, the new
    one does, whatever its case, another member's event too) or names none (admins only); a non-admin cannot change
    it."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga, ann, bob, cy = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob"), h.member("Cy")
        h.role("Organiser", ann)
        h.role("Referee", bob)
        room = h.channel("events")
        for member in (olga, ann, bob, cy):
            await h.command(member, "event show", room)  # members of the club (registered) before anything is refused
        made = await h.command(ann, "event create", room, name="Ann Cup", format="single", lengths="1")
        assert made.private and "Ann Cup is open" in made.text
        await _join(h, room, "Ann Cup", [ann, cy])
        started = await h.command(ann, "event start", room, event="Ann Cup")
        assert "Ann Cup has started with 2 players" in started.text
        before = snapshot(db)
        refused = await h.command(bob, "event create", room, name="Bob Cup", format="single")
        assert refused.private and "organiser role (Organiser)" in refused.text
        shown = await h.command(olga, "event admin settings", room)
        assert shown.private and "club admins and members with the role Organiser" in shown.text
        denied = await h.command(ann, "event admin settings", room, organiser_role="Ann")
        assert denied.private and "Only club admins" in denied.text
        assert snapshot(db) == before
        renamed = await h.command(olga, "event admin settings", room, organiser_role="referee")
        assert renamed.private and "members with the role referee" in renamed.text
        assert (await h.bot.service.club_settings(h.guild)).organiser_role == "referee"
        before = snapshot(db)
        old = await h.command(ann, "event create", room, name="Again", format="single")
        assert old.private and "organiser role (referee)" in old.text
        assert snapshot(db) == before
        made = await h.command(bob, "event create", room, name="Bob Cup", format="single", lengths="1")
        assert made.private and "Bob Cup is open" in made.text
        await h.command(olga, "event create", room, name="Olga Cup", format="single", lengths="1")
        before = snapshot(db)
        other = await h.command(ann, "event admin checkin", room, event="Olga Cup", hours=2)
        assert other.private and "Only the organiser of Olga Cup" in other.text
        assert snapshot(db) == before
        opened = await h.command(bob, "event admin checkin", room, event="Olga Cup", hours=2)  # not his, his role's
        assert "Check-in for Olga Cup is open" in opened.text
        await h.command(olga, "event admin settings", room, organiser_role="none")
        before = snapshot(db)
        nobody = await h.command(bob, "event create", room, name="Third", format="single")
        assert nobody.private and "Only a club admin can create an event" in nobody.text
        assert snapshot(db) == before
        refused = await h.command(bob, "event admin close", room, event="Olga Cup")
        assert refused.private and "Only the organiser of Olga Cup" in refused.text
        assert snapshot(db) == before


async def test_each_event_has_its_forum_post_and_keeps_its_picture_across_a_restart(tmp_path):
    """With the club's event forum set, creating an event opens one post in it (a thread with its first message);
    the round's pairings, the results and the bracket picture go to that post, the challenges (each pinging both
    players) to the event's channel. The picture is one message, edited after each result — after a restart too."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db, reviews=False) as h:
        olga, ann, bob, cy = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob"), h.member("Cy")
        room, forum = h.channel("events"), h.channel("event-posts", kind=FORUM)
        await h.command(olga, "event admin settings", room, forum=forum)
        created = await h.command(olga, "event create", room, name="Cup", format="single", lengths="1")
        event = await h.bot.events.find(h.guild, "Cup")
        post = event.posts["forum"]
        assert created.private and f"<#{post}>" in created.text
        thread = h.world.channels[post]
        assert thread["name"] == "Cup" and int(thread["parent_id"]) == forum
        assert "Cup" in h.messages(post)[0].content and h.messages(post)[0].id == post  # the post's first message
        await _join(h, room, "Cup", [olga, ann, bob, cy])
        await h.command(olga, "event start", room, event="Cup")
        challenges = [m for m in h.messages(room) if "Cup W1-" in m.content]
        assert len(challenges) == 2 and all("Accept" in m.labels for m in challenges)
        assert any("W1-1:" in m.content and "— match" in m.content for m in h.messages(post))
        for number, key in enumerate(("W1-1", "W1-2"), 1):
            events = h.bot.events  # a new one after the restart
            event = await events.find(h.guild, "Cup")
            pairing = event.state.pairings[key]
            await win(h.bot.service, (await events.store.matches(event.id))[key], pairing.a)
            await h.settle()
            pictures = [m for m in h.messages(post) if m.png is not None]
            assert len(pictures) == 1 and pictures[0].edits == number - 1
            assert any(f"{key}: {h.members[pairing.a].name} beat" in m.content for m in h.messages(post))
            if number == 1:
                await h.restart()
        assert not any(m.png or " beat " in m.content for m in h.messages(room))  # the room has the challenges only
        event = await h.bot.events.find(h.guild, "Cup")
        assert event.posts["picture"] == pictures[0].id


async def test_the_picture_is_edited_after_a_restart_without_a_forum(tmp_path):
    """Without a forum the picture is posted in the event's channel; a restart between two rounds edits that same
    message (its id is in the event's log) instead of posting another."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db, reviews=False) as h:
        olga, ann, bob = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob")
        room = h.channel("swiss")
        await h.command(olga, "event create", room, name="Friday", format="swiss", rounds=2, lengths="1")
        await _join(h, room, "Friday", [olga, ann, bob])
        await h.command(olga, "event start", room, event="Friday")
        for round_no in (1, 2):
            event = await h.bot.events.find(h.guild, "Friday")
            (pairing,) = [p for p in event.state.pending() if p.b is not None]
            await win(h.bot.service, (await h.bot.events.store.matches(event.id))[pairing.key], pairing.a)
            await h.settle()
            if round_no == 1:
                await h.restart()
        pictures = [m for m in h.messages(room) if m.png is not None]
        assert len(pictures) == 1 and pictures[0].edits >= 1


def _at(seconds: float) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y-%m-%d %H:%M")


async def test_a_live_night_is_a_discord_scheduled_event(tmp_path):
    """/event admin live schedules a Discord event named after the event — external with a link to the event, or
    in a voice channel — and logs it; a time in the past, a time that cannot be read, a member who may not organise
    and Discord's refusal are refused privately with nothing stored; calling the event off cancels its nights."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db, clock=ManualClock(time.time())) as h:  # Discord checks the start on its own clock
        olga, ann = h.member("Olga", admin=True), h.member("Ann")
        room, voice = h.channel("events"), h.channel("Club night", kind=VOICE)
        await h.command(ann, "event show", room)
        await h.command(olga, "event create", room, name="Cup", format="single", lengths="1")
        when = _at(h.clock.now() + 86_400)
        live = await h.command(olga, "event admin live", room, event="Cup", when=when, hours=3)
        assert live.private and "Scheduled on Discord and announced. Live night of Cup" in live.text
        (scheduled,) = h.world.scheduled_events.values()
        announced = h.last(room)  # in the event's channel (its forum post when it has one), with the event's link
        assert "Live night of Cup" in announced.content
        assert announced.content.endswith(f"https://discord.com/events/{h.guild}/{scheduled['id']}")
        start = dt.datetime.fromisoformat(when).replace(tzinfo=dt.UTC).timestamp()
        assert scheduled["name"] == "Cup" and scheduled["entity_type"] == 3 and scheduled["status"] == 1
        assert dt.datetime.fromisoformat(scheduled["scheduled_start_time"]).timestamp() == start
        assert dt.datetime.fromisoformat(scheduled["scheduled_end_time"]).timestamp() == start + 3 * 3600
        assert scheduled["entity_metadata"]["location"].endswith(f"/{h.guild}/{room}")
        in_voice = await h.command(olga, "event admin live", room, event="Cup", when=_at(h.clock.now() + 2 * 86_400),
                                   channel=voice)  # fmt: skip
        assert in_voice.private and f"<#{voice}>" in in_voice.text
        event = await h.bot.events.find(h.guild, "Cup")
        assert [night.id for night in event.live] == [int(i) for i in h.world.scheduled_events]
        assert h.world.scheduled_events[event.live[1].id]["channel_id"] == str(voice)
        before = snapshot(db)
        past = await h.command(olga, "event admin live", room, event="Cup", when=_at(h.clock.now() - 3600))
        assert past.private and "A live night starts in the future" in past.text
        unread = await h.command(olga, "event admin live", room, event="Cup", when="friday evening")
        assert unread.private and "'friday evening' is not a date and time: write it as" in unread.text
        stranger = await h.command(ann, "event admin live", room, event="Cup", when=when)
        assert stranger.private and "Only the organiser of Cup" in stranger.text
        h.fail(r"POST /guilds/\d+/scheduled-events", 50013)
        refused = await h.command(olga, "event admin live", room, event="Cup", when=when)
        assert refused.private and "Discord refused the live night" in refused.text
        assert snapshot(db) == before and len(h.world.scheduled_events) == 2
        off = await h.command(olga, "event admin close", room, event="Cup")
        assert off.private and "Cup is called off" in off.text and "2 live nights cancelled on Discord" in off.text
        assert [e["status"] for e in h.world.scheduled_events.values()] == [4, 4]
