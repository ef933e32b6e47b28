"""The ``/event`` subcommands beyond create, join and start, each through the Discord harness with its outcome
read back from the event's log (:class:`club.events.service.EventService`): leaving and checking in before the
start, withdrawing, ladder challenges, the organiser's decisions, check-in, close and next season, and the export.
Every refusal is private, says what was wrong, and stores nothing (the database is the same row for row)."""

from __future__ import annotations

import csv
import io
import json
import zipfile

from tests.clubkit import snapshot
from tests.discord_fake import FORUM
from tests.discordkit import Harness
from tests.eventkit import win


async def _open_event(h: Harness, room: int, name: str, format: str, players, **options):
    """An event created by ``players[0]`` (an admin) with ``players`` joined; returns nothing."""
    created = await h.command(players[0], "event create", room, name=name, format=format, lengths="1", **options)
    assert "is open" in created.text, created.text
    for member in players:
        joined = await h.command(member, "event join", room, event=name)
        assert "You are in the field" in joined.text, joined.text


async def test_leave_before_the_start_and_not_after(tmp_path):
    """/event leave takes a member out of the field before the start; a member not in it, and anyone after the
    start, is refused privately with nothing stored."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga, ann, bob = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob")
        room = h.channel("events")
        await _open_event(h, room, "Cup", "single", [olga, ann, bob])
        left = await h.command(bob, "event leave", room, event="Cup")
        assert left.private and "You left Cup" in left.text
        event = await h.bot.events.find(h.guild, "Cup")
        assert event.entrants == [olga.id, ann.id]
        before = snapshot(db)
        stranger = await h.command(bob, "event leave", room, event="Cup")
        assert stranger.private and "You are not in Cup" in stranger.text
        unknown = await h.command(ann, "event leave", room, event="Nope")
        assert unknown.private and "There is no event called 'Nope'" in unknown.text and "Cup" in unknown.text
        assert snapshot(db) == before
        await h.command(olga, "event start", room, event="Cup")
        before = snapshot(db)
        late = await h.command(ann, "event leave", room, event="Cup")
        assert late.private and "Cup has started: leaving is closed; use /event withdraw" in late.text
        assert snapshot(db) == before
        event = await h.bot.events.find(h.guild, "Cup")
        assert ann.id in event.state.seeds and bob.id not in event.state.seeds


async def test_checkin_seeds_only_those_who_checked_in(tmp_path):
    """/event admin checkin (the organiser only) opens check-in; /event checkin by a member of the field records
    him; at the start only those checked in are seeded. Refused with nothing stored: check-in before it opens,
    by a member outside the field, twice, after it closed, and opening it by a member who may not organise."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga, ann, bob, cy = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob"), h.member("Cy")
        room = h.channel("events")
        await _open_event(h, room, "Night", "single", [olga, ann, bob])
        await h.command(cy, "event show", room)  # Cy is a member of the club, not of the field
        before = snapshot(db)
        early = await h.command(ann, "event checkin", room, event="Night")
        assert early.private and "Night has no check-in open" in early.text
        opened = await h.command(ann, "event admin checkin", room, event="Night", hours=2)
        assert opened.private and "Only the organiser of Night" in opened.text
        assert snapshot(db) == before
        opened = await h.command(olga, "event admin checkin", room, event="Night", hours=2)
        assert opened.private and "Check-in for Night is open for 2 h" in opened.text
        event = await h.bot.events.find(h.guild, "Night")
        assert event.checkin_until == h.clock.now() + 2 * 3600
        for member in (olga, ann):
            checked = await h.command(member, "event checkin", room, event="Night")
            assert checked.private and "You are checked in to Night" in checked.text
        before = snapshot(db)
        twice = await h.command(ann, "event checkin", room, event="Night")
        assert twice.private and "already checked in" in twice.text
        outside = await h.command(cy, "event checkin", room, event="Night")
        assert outside.private and "not in the field of Night" in outside.text and "/event join" in outside.text
        h.clock.advance(3 * 3600)
        late = await h.command(bob, "event checkin", room, event="Night")
        assert late.private and "Check-in for Night has closed" in late.text
        assert snapshot(db) == before
        event = await h.bot.events.find(h.guild, "Night")
        assert set(event.checked_in) == {olga.id, ann.id}
        started = await h.command(olga, "event start", room, event="Night")
        assert "Night has started with 2 players" in started.text
        event = await h.bot.events.find(h.guild, "Night")
        assert set(event.state.seeds) == {olga.id, ann.id}


async def test_withdraw_forfeits_the_remaining_match(tmp_path):
    """/event withdraw from a running event: the member's pending match is a walkover to his opponent (not rated)
    and its club match ends. Refused with nothing stored: before the start, by a member not playing, twice."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga, ann, bob, cy = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob"), h.member("Cy")
        room = h.channel("events")
        await _open_event(h, room, "Cup", "single", [olga, ann, bob, cy])
        before = snapshot(db)
        early = await h.command(ann, "event withdraw", room, event="Cup")
        assert early.private and "Cup has not started yet" in early.text
        assert snapshot(db) == before
        await h.command(olga, "event start", room, event="Cup")
        dan = h.member("Dan")
        before = snapshot(db)
        stranger = await h.command(dan, "event withdraw", room, event="Cup")
        assert stranger.private and "You do not play in Cup" in stranger.text
        event = await h.bot.events.find(h.guild, "Cup")
        pairing = event.pairing_of(ann.id)
        opponent = pairing.other(ann.id)
        withdrew = await h.command(ann, "event withdraw", room, event="Cup")
        assert withdrew.private and "You withdrew from Cup" in withdrew.text
        assert f"{pairing.key}: {h.members[opponent].name} wins by walkover against Ann (not rated)" in withdrew.text
        event = await h.bot.events.find(h.guild, "Cup")
        result = event.state.results[pairing.key]
        assert (result.winner, result.loser, result.how.value) == (opponent, ann.id, "walkover")
        assert not result.how.rated and ann.id in event.state.withdrawn
        match_id = (await h.bot.events.store.matches(event.id))[pairing.key]
        assert (await h.bot.service.db.get_match(match_id)).status not in ("challenged", "active")
        before = snapshot(db)
        twice = await h.command(ann, "event withdraw", room, event="Cup")
        assert twice.private and "already withdrawn from Cup" in twice.text
        assert snapshot(db) == before


async def test_a_ladder_challenge_and_closing_the_ladder(tmp_path):
    """/event challenge on a ladder pairs the challenger with a member up to ``reach`` places above and posts the
    match with both mentioned; out of reach, a second open challenge and a challenge in a knock-out are refused
    with nothing stored. /event admin close (its organiser only) ends the ladder, and calls off an event not yet played."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga, ann, bob, cy = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob"), h.member("Cy")
        room = h.channel("ladder")
        await _open_event(h, room, "Ladder", "ladder", [olga, ann, bob, cy], reach=1, seeding="rating")
        await h.command(olga, "event start", room, event="Ladder")
        event = await h.bot.events.find(h.guild, "Ladder")
        ladder = list(event.state.ladder)
        bottom, above, top = (h.members[p] for p in (ladder[3], ladder[2], ladder[0]))
        before = snapshot(db)
        far = await h.command(bottom, "event challenge", room, event="Ladder", opponent=top)
        assert far.private and "You can challenge 1 place above you" in far.text
        assert snapshot(db) == before
        made = await h.command(bottom, "event challenge", room, event="Ladder", opponent=above)
        assert made.private and f"X1: {bottom.name} v {above.name} — match" in made.text
        event = await h.bot.events.find(h.guild, "Ladder")
        pairing = event.state.pairings["X1"]
        assert (pairing.a, pairing.b) == (bottom.id, above.id) and pairing.deadline > h.clock.now()
        post = next(m for m in h.messages(room) if "Ladder X1:" in m.content)
        assert f"<@{bottom.id}>" in post.content and f"<@{above.id}>" in post.content
        before = snapshot(db)
        busy = await h.command(bottom, "event challenge", room, event="Ladder", opponent=above)
        assert busy.private and "already has a ladder match to play" in busy.text
        refused = await h.command(ann, "event admin close", room, event="Ladder")
        assert refused.private and "Only the organiser of Ladder" in refused.text
        assert snapshot(db) == before
        closed = await h.command(olga, "event admin close", room, event="Ladder")
        assert closed.private and "Ladder is over" in closed.text
        assert (await h.bot.events.find(h.guild, "Ladder")).status.value == "over"
        before = snapshot(db)
        again = await h.command(olga, "event admin close", room, event="Ladder")
        assert again.private and "Ladder is already over" in again.text
        await _open_event(h, room, "Off", "single", [olga, ann])
        off = await h.command(olga, "event admin close", room, event="Off")
        assert off.private and "Off is called off" in off.text
        assert (await h.bot.events.find(h.guild, "Off")).status.value == "cancelled"
        await _open_event(h, room, "Cup", "single", [olga, ann])
        await h.command(olga, "event start", room, event="Cup")
        before = snapshot(db)
        knockout = await h.command(ann, "event challenge", room, event="Cup", opponent=olga)
        assert knockout.private and "Challenges are for ladders" in knockout.text
        assert snapshot(db) == before


async def test_the_organiser_decides_an_unplayed_match(tmp_path):
    """/event admin decide awards a pairing to either player (a forfeit, not rated), replays it, or puts both
    out; a member who may not organise, an unknown key and a decided one are refused with nothing stored."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga, ann, bob, cy = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob"), h.member("Cy")
        room = h.channel("events")
        await _open_event(h, room, "Cup", "single", [olga, ann, bob, cy])
        await h.command(olga, "event start", room, event="Cup")
        event = await h.bot.events.find(h.guild, "Cup")
        first, second = (event.state.pairings[k] for k in ("W1-1", "W1-2"))
        before = snapshot(db)
        refused = await h.command(ann, "event admin decide", room, event="Cup", match="W1-1", decision="a")
        assert refused.private and "Only the organiser of Cup" in refused.text
        unknown = await h.command(olga, "event admin decide", room, event="Cup", match="W9-9", decision="a")
        assert unknown.private and "'W9-9' is not an undecided match of Cup" in unknown.text
        assert "W1-1, W1-2" in unknown.text
        assert snapshot(db) == before
        links = await h.bot.events.store.matches(event.id)
        replayed = await h.command(olga, "event admin decide", room, event="Cup", match="w1-2", decision="replay")
        assert replayed.private and "Decided W1-2: replayed — a new match and a new deadline." in replayed.text
        event = await h.bot.events.find(h.guild, "Cup")
        assert event.replays == {"W1-2": 1} and "W1-2" not in event.state.results
        relinked = await h.bot.events.store.matches(event.id)
        assert relinked["W1-2#1"] != links["W1-2"]  # a new club match for the replay
        awarded = await h.command(olga, "event admin decide", room, event="Cup", match="W1-1", decision="b")
        assert awarded.private and f"Decided W1-1: awarded to {h.members[first.b].name}." in awarded.text
        event = await h.bot.events.find(h.guild, "Cup")
        result = event.state.results["W1-1"]
        assert (result.winner, result.loser, result.how.value) == (first.b, first.a, "forfeit")
        assert not result.how.rated
        out = await h.command(olga, "event admin decide", room, event="Cup", match="W1-2", decision="both_out")
        assert out.private and "Decided W1-2: both out" in out.text
        event = await h.bot.events.find(h.guild, "Cup")
        assert event.state.results["W1-2"].winner is None
        assert second.key == "W1-2"
        before = snapshot(db)
        again = await h.command(olga, "event admin decide", room, event="Cup", match="W1-1", decision="a")
        assert again.private and "'W1-1' is not an undecided match" in again.text
        assert snapshot(db) == before


async def test_a_league_season_and_the_next(tmp_path):
    """/event admin season starts a finished league's next season with the same players, the top of the lower
    division promoted and the bottom of the upper one relegated (divisions of 3: one each way, named), in a post of its own when the club has an event
    forum; refused before the season is over (nothing stored) and for a member who may not organise."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga = h.member("Olga", admin=True)
        players = [olga] + [h.member(name) for name in ("Ann", "Bob", "Cy", "Dee", "Eve")]
        room = h.channel("league")
        await _open_event(h, room, "Autumn", "league", players, division_size=3)
        await h.command(olga, "event start", room, event="Autumn")
        before = snapshot(db)
        early = await h.command(olga, "event admin season", room, event="Autumn", name="Winter")
        assert early.private and "Autumn is not a finished league season" in early.text
        assert snapshot(db) == before
        events = h.bot.events
        for _ in range(20):  # every pairing awarded to its first player as it is made
            event = await events.find(h.guild, "Autumn")
            pending = [p for p in event.state.pending() if p.b is not None]
            if not pending:
                break
            for pairing in pending:
                await events.decide(h.guild, "Autumn", olga.id, pairing.key, "a", organiser=True)
        await h.settle()
        event = await events.find(h.guild, "Autumn")
        assert event.status.value == "over"
        upper, lower = (list(d) for d in event.state.divisions)
        _, tables = await events.standings(h.guild, "Autumn")
        top_of_lower = tables[1][0].player
        bottom_of_upper = tables[0][-1].player
        refused = await h.command(players[1], "event admin season", room, event="Autumn", name="Winter")
        assert refused.private and "Only a club admin or a member with the club's organiser role" in refused.text
        forum = h.channel("seasons", kind=FORUM)
        await h.command(olga, "event admin settings", room, forum=forum)
        season = await h.command(olga, "event admin season", room, event="Autumn", name="Winter")
        up, down = h.members[top_of_lower].name, h.members[bottom_of_upper].name
        assert season.private and (f"Winter has started: 2 divisions from Autumn. Up to division 1: {up}; down to "
                                   f"division 2: {down}.") in season.text, season.text  # fmt: skip
        winter = await events.find(h.guild, "Winter")
        assert f"<#{winter.posts['forum']}>" in season.text  # the new season's own forum post
        assert h.world.channels[winter.posts["forum"]]["name"] == "Winter"
        assert winter.status.value == "running" and set(winter.state.seeds) == set(upper + lower)
        assert top_of_lower in winter.state.divisions[0] and bottom_of_upper in winter.state.divisions[1]
        assert any(p.b is not None for p in winter.state.pending())


async def test_export_is_a_zip_of_the_results(tmp_path):
    """/event export sends a ZIP with results.csv (one line per pairing, the winner and how), event.json
    (seeds, results, standings) and the played matches' .mat files; before the start it is refused."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db, reviews=False) as h:
        olga, ann = h.member("Olga", admin=True), h.member("Ann")
        room = h.channel("events")
        await _open_event(h, room, "Duel", "single", [olga, ann])
        early = await h.command(ann, "event export", room, event="Duel")
        assert early.private and "Duel has not started yet" in early.text
        await h.command(olga, "event start", room, event="Duel")
        event = await h.bot.events.find(h.guild, "Duel")
        (pairing,) = event.state.pending()
        links = await h.bot.events.store.matches(event.id)
        await win(h.bot.service, links[pairing.key], ann.id)
        await h.settle()
        exported = await h.command(ann, "event export", room, event="Duel")
        assert exported.private
        (message,) = exported.messages
        (name,) = message.files
        assert name == f"event-{event.id}.zip" and "results.csv" in message.content
        with zipfile.ZipFile(io.BytesIO(message.files[name])) as archive:
            names = archive.namelist()
            rows = list(csv.DictReader(io.StringIO(archive.read("results.csv").decode())))
            data = json.loads(archive.read("event.json"))
        assert [(r["match"], r["winner"], r["how"], r["rated"]) for r in rows] == [(pairing.key, "Ann", "played", "1")]
        assert data["status"] == "over" and data["standings"][0][0]["name"] == "Ann"
        assert any(n.startswith(f"matches/{pairing.key}-") and n.endswith(".mat") for n in names)


async def test_a_capped_event_with_an_entry(tmp_path):
    """/event create with a cap and an entry: members past the cap join the waiting list, the first moves up when
    one leaves; the entry is recorded (no money changes hands) and shown."""
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        olga, ann, bob = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob")
        room = h.channel("events")
        created = await h.command(olga, "event create", room, name="Cup", format="single", lengths="1", cap=2,
                                  entry=5)  # fmt: skip
        assert "Cup is open" in created.text
        for member in (olga, ann):
            await h.command(member, "event join", room, event="Cup")
        late = await h.command(bob, "event join", room, event="Cup")
        assert late.private and "You are on the waiting list of Cup" in late.text
        shown = await h.command(bob, "event show", room, event="Cup")
        assert "cap 2; waiting list: Bob" in shown.text
        await h.command(ann, "event leave", room, event="Cup")
        await h.command(olga, "event start", room, event="Cup")
        event = await h.bot.events.find(h.guild, "Cup")
        assert set(event.state.seeds) == {olga.id, bob.id} and event.entry == 5
        shown = await h.command(bob, "event show", room, event="Cup")
        assert "entry 5" in shown.text


async def test_a_league_sets_its_promotion_and_relegation_places(tmp_path):
    """/event create has the ``up`` and ``down`` options the organisers' guide names for a league: the event says
    them back and keeps them."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga = h.member("Olga", admin=True)
        room = h.channel("league")
        created = await h.command(olga, "event create", room, name="Spring", format="league", division_size=6, up=1,
                                  down=3)  # fmt: skip
        assert created.private and "divisions of about 6, 1 up and 3 down" in created.text, created.text
        event = await h.bot.events.find(h.guild, "Spring")
        assert (event.settings.up, event.settings.down) == (1, 3)


async def test_an_option_the_format_does_not_use_is_refused(tmp_path):
    """/event create refuses an option of another format privately, naming the option and the formats it applies
    to (rounds on a knock-out, up on a Swiss); nothing is stored."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga = h.member("Olga", admin=True)
        room = h.channel("events")
        await h.command(olga, "event my", room)
        before = snapshot(db)
        knockout = await h.command(olga, "event create", room, name="Cup", format="single", rounds=3)
        assert knockout.private and "rounds applies to Swiss only" in knockout.text, knockout.text
        swiss = await h.command(olga, "event create", room, name="Open", format="swiss", rounds=3, up=1)
        assert swiss.private and "up applies to league only" in swiss.text, swiss.text
        assert snapshot(db) == before


async def test_pairings_of_a_round_that_does_not_exist_are_refused(tmp_path):
    """/event pairings of a round the event does not have is a private refusal naming the rounds it has, not an
    answer; the event's own rounds still answer."""
    db = tmp_path / "club.sqlite3"
    async with Harness.start(db) as h:
        olga, ann, bob, cy = h.member("Olga", admin=True), h.member("Ann"), h.member("Bob"), h.member("Cy")
        room = h.channel("events")
        await _open_event(h, room, "Cup", "single", [olga, ann, bob, cy])
        await h.command(olga, "event start", room, event="Cup")
        shown = await h.command(ann, "event pairings", room, event="Cup", round=1)
        assert shown.private and "Cup — round 1" in shown.text
        before = snapshot(db)
        missing = await h.command(ann, "event pairings", room, event="Cup", round=9)
        assert missing.private and missing.text == "Cup has round 1 only: there is no round 9.", missing.text
        assert snapshot(db) == before
