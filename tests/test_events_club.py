"""Club events through the use-cases (club/events/service.py) on real databases: the lifecycle, each pairing an
ordinary club match whose end feeds the event, byes, no-shows, a bracket reset, withdrawals, deadlines and the
organiser's decisions, refusals that store nothing, a restart in the middle and two results racing."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from club import ManualClock
from club.errors import InvalidRequestError
from club.events.formats import Format, How, Settings
from club.events.log import Status
from club.events.service import EventService
from tests.clubkit import GUILD, club_service, snapshot
from tests.eventkit import members, play_round, win

pytestmark = pytest.mark.backends

DOUBLE = Settings(Format.DOUBLE, lengths=(1,), round_hours=72)


async def open_event(service, events, name, settings, players, **options):
    organiser = players[0]
    await events.create(GUILD, organiser, name, settings, organiser=True, seeding="random"
                        if options.pop("random", False) else "rating", **options)  # fmt: skip
    for p in players:
        await events.join(GUILD, name, p)
    return await events.start(GUILD, name, organiser, organiser=False)


async def test_double_elimination_with_bye_no_show_and_reset(tmp_path):
    async with club_service(tmp_path / "club.db") as service:
        events = EventService(service)
        players = await members(service, 6)
        start = await open_event(service, events, "Winter Cup", DOUBLE, players)
        seeds = start.event.state.seeds
        assert seeds == tuple(players)  # nobody rated yet: the order they joined
        assert {p.key for p, _ in start.matches} == {"W1-2", "W1-4"}  # seeds 1 and 2 have byes
        assert "Byes to round 2: P1, P2." in start.text
        byes = [r for r in start.results if r.how is How.BYE]
        assert byes == []  # structural byes of the bracket: no match, nobody's record changes
        # a no-show: the second player of W1-2 declines his event match
        links = await events.store.matches(start.event.id)
        w12 = start.event.state.pairings["W1-2"]
        await service.decline(links["W1-2"], w12.b)
        event = await events.find(GUILD, "Winter Cup")
        assert event.state.results["W1-2"].how is How.FORFEIT and event.state.results["W1-2"].winner == w12.a
        # everything else: the lower seed number wins, except the grand final, won by the losers' champion
        seed = {p: i for i, p in enumerate(seeds)}
        for _ in range(12):
            event = await events.find(GUILD, "Winter Cup")
            if event.status is Status.OVER:
                break
            if "GF" in event.state.pairings and "GF" not in event.state.results:
                gf = event.state.pairings["GF"]
                await play_round(service, events, "Winter Cup", choose=lambda ps, gf=gf: gf.b)
            else:
                await play_round(service, events, "Winter Cup", choose=lambda ps: min(ps, key=seed.get))
        event = await events.find(GUILD, "Winter Cup")
        assert event.status is Status.OVER
        assert "GF2" in event.state.pairings and event.state.results["GF2"].how is How.PLAYED
        _, (rows,) = await events.standings(GUILD, "Winter Cup")
        assert rows[0].place == 1 and rows[1].place == 2
        assert all(r.why for r in rows[:-1])
        my = await events.my(GUILD, players[0])
        assert my == []


async def test_refusals_store_nothing(tmp_path):
    async with club_service(tmp_path / "club.db") as service:
        events = EventService(service)
        players = await members(service, 3)
        with pytest.raises(InvalidRequestError, match="admin or a member with the club's organiser role"):
            await events.create(GUILD, players[0], "Open", Settings(Format.SWISS, rounds=2), organiser=False)
        await events.create(GUILD, players[0], "Open", Settings(Format.SWISS, rounds=2, lengths=(1,)), organiser=True)
        await events.join(GUILD, "Open", players[0])
        before = snapshot(tmp_path / "club.db")
        with pytest.raises(InvalidRequestError, match="already in the field"):
            await events.join(GUILD, "open", players[0])
        with pytest.raises(InvalidRequestError, match="needs at least 2 players to start; it has 1"):
            await events.start(GUILD, "Open", players[0], organiser=True)
        with pytest.raises(InvalidRequestError, match="Only the organiser"):
            await events.start(GUILD, "Open", players[1], organiser=False)
        with pytest.raises(InvalidRequestError, match="There is no event called 'Closed'. This club's events: Open"):
            await events.join(GUILD, "Closed", players[1])
        with pytest.raises(InvalidRequestError, match="already has an event called 'Open'"):
            await events.create(GUILD, players[0], "Open", Settings(Format.SINGLE), organiser=True)
        assert snapshot(tmp_path / "club.db") == before
        await events.join(GUILD, "Open", players[1])
        started = await events.start(GUILD, "Open", players[0], organiser=True)
        before = snapshot(tmp_path / "club.db")
        with pytest.raises(InvalidRequestError, match="has started: joining is closed"):
            await events.join(GUILD, "Open", players[2])
        pairing, match_id = started.matches[0]
        with pytest.raises(InvalidRequestError, match="only its two players report"):
            await events.report(GUILD, "Open", players[2], players[0])
        with pytest.raises(InvalidRequestError, match="still being played"):
            await events.report(GUILD, "Open", players[0], players[0])
        assert snapshot(tmp_path / "club.db") == before
        events.club.match_end_hooks.clear()  # the hook is missed (a crash): the report records it
        await win(service, match_id, pairing.a)
        with pytest.raises(InvalidRequestError, match="the match's own result stands"):
            await events.report(GUILD, "Open", pairing.b, pairing.b)
        update = await events.report(GUILD, "Open", pairing.b, pairing.a)
        assert update.results[0].winner == pairing.a and update.results[0].how is How.PLAYED
        assert update.matches  # round 2 made


async def test_two_results_racing_make_the_next_round_once(tmp_path):
    async with club_service(tmp_path / "club.db") as service:
        events = EventService(service)
        second = EventService(service)  # a second process's service on the same database: both hear every end
        players = await members(service, 4)
        start = await open_event(service, events, "Swiss", Settings(Format.SWISS, rounds=2, lengths=(1,)), players)
        assert len(start.matches) == 2
        await asyncio.gather(*(win(service, match_id, pairing.a) for pairing, match_id in start.matches))
        event = await events.find(GUILD, "Swiss")
        round_two = [p for p in event.state.pairings.values() if p.round == 2]
        assert len(round_two) == 2
        assert len(await events.store.matches(event.id)) == 4
        log = await events.store.log(event.id)
        assert sum(1 for a in log if a.kind == "pair") == 2
        assert sum(1 for a in log if a.kind == "result") == 2
        assert second.store is not events.store


async def test_restart_in_the_middle_loses_nothing(tmp_path):
    path = tmp_path / "club.db"
    clock = ManualClock()
    settings = Settings(Format.ROUND_ROBIN, lengths=(1,))
    async with club_service(path, clock) as service:
        events = EventService(service)
        players = await members(service, 3)
        await open_event(service, events, "Trio", settings, players)
        await play_round(service, events, "Trio")
        before = await events.find(GUILD, "Trio")
        made = await events.store.matches(before.id)
        # a crash after the pairing's commit and before its match: the claim is there, the match is not
        pending = [p for p in before.state.pending() if p.b is not None]
        assert pending and all(made[p.key] for p in pending)
    async with club_service(path, clock) as service:
        events = EventService(service)
        again = await events.find(GUILD, "Trio")
        assert again.state.pairings == before.state.pairings and again.version == before.version
        assert await events.resume() == []
        for _ in range(3):
            await play_round(service, events, "Trio")
        done = await events.find(GUILD, "Trio")
        assert done.status is Status.OVER
        assert len([r for r in done.state.results.values() if r.how is How.PLAYED]) == 3


async def test_a_crash_between_the_claim_and_the_match_is_resumed(tmp_path):
    async with club_service(tmp_path / "club.db") as service:
        events = EventService(service)
        players = await members(service, 2)
        real = events._make_matches

        async def crash(event, *, force=False):
            if event.state is None:
                return ()
            for pairing in event.state.pending():
                await events.store.claim_pairing(event.id, pairing.key, 0.0)
            return ()

        events._make_matches = crash
        await open_event(service, events, "Duel", Settings(Format.SINGLE, lengths=(1,)), players)
        event = await events.find(GUILD, "Duel")
        assert await events.store.matches(event.id) == {"W1-1": None}
        events._make_matches = real
        resumed = await events.resume()
        assert [p.key for p, _ in resumed[0].matches] == ["W1-1"]
        assert await events.resume() == []


async def test_deadlines_forfeit_the_late_member_and_ask_the_organiser(tmp_path):
    clock = ManualClock()
    async with club_service(tmp_path / "club.db", clock) as service:
        events = EventService(service, grace=24)
        players = await members(service, 4)
        await service.configure_club(GUILD, expiry_policy="forfeit_match")
        start = await open_event(service, events, "Clocked", Settings(Format.SWISS, rounds=1, lengths=(3,),
                                                                         round_hours=24), players)  # fmt: skip
        (first, m1), (second, m2) = start.matches
        await service.accept(m1, first.b)  # one match starts: someone acted in it
        clock.advance(25 * 3600)
        updates = await events.tick()
        assert updates
        event = await events.find(GUILD, "Clocked")
        assert first.key in event.state.results
        assert event.state.results[first.key].how in (How.FORFEIT, How.CLAIM)
        assert event.asked.keys() == {second.key}
        assert "the organiser decides" in updates[-1].text
        with pytest.raises(InvalidRequestError, match="Only the organiser"):
            await events.decide(GUILD, "Clocked", second.a, second.key, "a", organiser=False)
        clock.advance(25 * 3600)
        await events.tick()
        event = await events.find(GUILD, "Clocked")
        assert event.state.results[second.key].how is How.BOTH_OUT
        assert event.status is Status.OVER


async def test_organiser_awards_and_withdrawals(tmp_path):
    async with club_service(tmp_path / "club.db") as service:
        events = EventService(service)
        players = await members(service, 4)
        start = await open_event(service, events, "Cup", Settings(Format.SINGLE, lengths=(1,)), players)
        (p1, m1), (p2, m2) = start.matches
        await service.accept(m2, p2.b)  # this one is being played when its player withdraws
        update = await events.decide(GUILD, "Cup", players[0], p1.key, "b", organiser=False)
        assert update.results[0].winner == p1.b and update.results[0].how is How.FORFEIT
        assert (await service.db.get_match(m1)).status == "expired"  # the challenge no longer counts: closed
        withdrawn = p2.a
        update = await events.withdraw(GUILD, "Cup", withdrawn)
        walk = [r for r in update.results if r.how is How.WALKOVER]
        assert walk and walk[0].loser == withdrawn
        final = update.event.state.pairings["W2-1"]
        assert set(final.players) == {p1.b, p2.b}
        assert update.matches and update.matches[0][0].key == "W2-1"
        assert update.matches[0][0].final
        ended = await service.db.get_match(m2)
        assert ended.status == "over" and ended.players[ended.winner] == p2.b  # forfeited by the one who withdrew
        event = await events.find(GUILD, "Cup")
        assert event.state.results[p2.key].how is How.WALKOVER  # the hook found it decided already


async def test_forfeits_in_events_are_not_rated(tmp_path):
    from club.records import ClubRecords

    clock = ManualClock()
    async with club_service(tmp_path / "club.db", clock) as service:
        events = EventService(service)
        records = ClubRecords(service)
        players = await members(service, 4)
        await service.configure_club(GUILD, expiry_policy="forfeit_match")
        start = await open_event(service, events, "Rated", Settings(Format.SINGLE, lengths=(1,), round_hours=24),
                                 players)  # fmt: skip
        (played, played_id), (late, late_id) = start.matches
        await win(service, played_id, played.a)
        await service.accept(late_id, late.b)  # the late match starts, then nobody moves
        clock.advance(25 * 3600)
        await events.tick()
        event = await events.find(GUILD, "Rated")
        assert event.state.results[late.key].how is How.FORFEIT
        assert (await service.db.get_match(late_id)).winner is not None  # the club match ended by forfeit
        ratings = await records.ratings(GUILD)
        assert set(ratings) == set(played.players), "only the match played out is rated"


RESTART_FORMATS = [
    Settings(Format.SINGLE, lengths=(1,), consolation=True),
    Settings(Format.DOUBLE, lengths=(1,)),
    Settings(Format.ROUND_ROBIN, lengths=(1,)),
    Settings(Format.SWISS, lengths=(1,), out_after=2),
    Settings(Format.LEAGUE, lengths=(1,), division_size=3),
]


@pytest.mark.parametrize("settings", RESTART_FORMATS, ids=lambda s: s.format.value)
async def test_a_restart_in_the_middle_of_each_format(tmp_path, settings):
    """Half the matches, a restart (a new process on the same database), the rest: the event rebuilt from its log
    is the one before, and it runs to its end."""
    path, clock = tmp_path / "club.db", ManualClock()
    count = 6 if settings.format is Format.LEAGUE else 5
    async with club_service(path, clock) as service:
        events = EventService(service)
        players = await members(service, count)
        await open_event(service, events, "Mid", settings, players)
        for _ in range(2):
            await play_round(service, events, "Mid")
        before = await events.find(GUILD, "Mid")
        assert before.status is Status.RUNNING
    async with club_service(path, clock) as service:
        events = EventService(service)
        after = await events.find(GUILD, "Mid")
        assert (after.state.pairings, after.state.results, after.version) == (
            before.state.pairings, before.state.results, before.version)  # fmt: skip
        for _ in range(30):
            if (await events.find(GUILD, "Mid")).status is Status.OVER:
                break
            await play_round(service, events, "Mid")
        assert (await events.find(GUILD, "Mid")).status is Status.OVER


async def test_a_ladder_across_a_restart(tmp_path):
    path = tmp_path / "club.db"
    async with club_service(path) as service:
        events = EventService(service)
        players = await members(service, 4)
        await open_event(service, events, "Rungs", Settings(Format.LADDER, lengths=(1,)), players)
        update = await events.challenge(GUILD, "Rungs", players[3], players[1])
        ((pairing, match_id),) = update.matches
    async with club_service(path) as service:
        events = EventService(service)
        await win(service, match_id, players[3])
        event = await events.find(GUILD, "Rungs")
        assert event.state.ladder == [players[0], players[3], players[1], players[2]]
        closed = await events.close(GUILD, "Rungs", players[0], organiser=False)
        assert closed.event.status is Status.OVER


async def test_export_and_the_members_record(tmp_path):
    import io
    import json
    import zipfile

    async with club_service(tmp_path / "club.db") as service:
        events = EventService(service)
        players = await members(service, 3)
        assert (await events.member_events(GUILD, players[0])).text() == "Events: no event finished yet."
        await open_event(service, events, "Trio", Settings(Format.ROUND_ROBIN, lengths=(1,)), players)
        for _ in range(3):
            await play_round(service, events, "Trio")
        name, data = await events.export(GUILD, "Trio")
        archive = zipfile.ZipFile(io.BytesIO(data))
        files = archive.namelist()
        assert name == "event-1.zip" and {"results.csv", "event.json"} <= set(files)
        assert sum(1 for f in files if f.endswith(".mat")) == 3
        rows = archive.read("results.csv").decode().splitlines()
        assert rows[0].startswith("round,match,player_a,player_b,winner") and len(rows) == 1 + 6  # 3 matches, 3 byes
        data = json.loads(archive.read("event.json"))
        assert data["status"] == "over" and [r["place"] for r in data["standings"][0]] == [1, 2, 3]
        champion = data["standings"][0][0]["member"]
        assert (await events.member_events(GUILD, champion)).text() == "Events: 1 played, best finish 1st in Trio."


@pytest.mark.sqlite_only
async def test_two_processes_racing_make_the_next_round_once(tmp_path):
    """Two bot processes on one database file, each hearing the end of its own match of the same round at the
    same moment: one event commit wins, the other starts again from the log — round 2 is paired once and its
    matches made once."""
    from club import ClubService
    from storage import Database

    path, clock = tmp_path / "club.db", ManualClock()
    async with club_service(path, clock) as first:
        events_one = EventService(first)
        players = await members(first, 4)
        start = await open_event(first, events_one, "Race", Settings(Format.SWISS, rounds=2, lengths=(1,)), players)
        (p1, m1), (p2, m2) = start.matches
        async with Database.open(path) as other:
            second = ClubService(other, clock=clock)
            EventService(second)
            await asyncio.gather(win(first, m1, p1.a), win(second, m2, p2.a))
        event = await events_one.find(GUILD, "Race")
        assert sorted(k for k in event.state.pairings if k.startswith("S2-")) == ["S2-1", "S2-2"]
        assert len(await events_one.store.matches(event.id)) == 4
        log = await events_one.store.log(event.id)
        assert [a.kind for a in log].count("pair") == 2


async def test_a_stale_writer_starts_again_from_the_log(tmp_path):
    """The second writer read the event before the first one's result (its read is made stale on purpose): its
    commit is refused (nothing written), it reads the log again and commits its result and round 2 once."""
    from storage.errors import VersionConflictError

    async with club_service(tmp_path / "club.db") as service:
        events = EventService(service)
        players = await members(service, 4)
        start = await open_event(service, events, "Stale", Settings(Format.SWISS, rounds=2, lengths=(1,)), players)
        (p1, m1), (p2, m2) = start.matches
        stale = await events.load(start.event.id)
        await win(service, m1, p1.a)
        real_load, real_commit, conflicts = events.load, events.store.commit, []

        async def load_once_stale(event_id):
            events.load = real_load
            return stale

        async def commit(*args, **kwargs):
            try:
                return await real_commit(*args, **kwargs)
            except VersionConflictError as error:
                conflicts.append(error)
                raise

        events.load, events.store.commit = load_once_stale, commit
        await win(service, m2, p2.a)
        assert len(conflicts) == 1
        event = await events.find(GUILD, "Stale")
        assert sorted(k for k in event.state.pairings if k.startswith("S2-")) == ["S2-1", "S2-2"]
        assert [a.kind for a in await events.store.log(event.id)].count("result") == 2


async def test_a_capped_field_waits_and_seeding_follows_the_rating(tmp_path):
    """A cap puts later members on a waiting list, the first of whom moves up when a member leaves; the entry is
    recorded. Seeding by rating puts the better rated first whatever the order of joining; random seeding seeds
    exactly the field."""
    async with club_service(tmp_path / "club.db") as service:
        events = EventService(service)
        p1, p2, p3 = await members(service, 3)
        outcome = await service.challenge(GUILD, p1, p2, length=1)
        await win(service, outcome.match_id, p2)  # a rated match: P2 now rates above P1
        await events.create(GUILD, p1, "Capped", Settings(Format.SINGLE, lengths=(1,)), organiser=True, cap=2,
                            entry=5)  # fmt: skip
        for member in (p1, p3, p2):
            await events.join(GUILD, "Capped", member)
        event = await events.find(GUILD, "Capped")
        assert (event.entrants, event.waiting, event.entry) == ([p1, p3], [p2], 5)
        left = await events.leave(GUILD, "Capped", p3)
        assert (left.event.entrants, left.event.waiting) == ([p1, p2], [])
        started = await events.start(GUILD, "Capped", p1, organiser=False)
        assert started.event.state.seeds == (p2, p1)
        await events.create(GUILD, p1, "Lots", Settings(Format.SINGLE, lengths=(1,)), organiser=True, seeding="random")
        for member in (p1, p2, p3):
            await events.join(GUILD, "Lots", member)
        drawn = await events.start(GUILD, "Lots", p1, organiser=False)
        assert sorted(drawn.event.state.seeds) == sorted((p1, p2, p3))


@contextlib.asynccontextmanager
async def late_match(tmp_path, clock, policy: str):
    """A club with expiry policy ``policy`` and a one-round Swiss of two whose match has started (someone acted)
    and waits for one of them: ``(service, events, pairing, match id, late, waiting)``."""
    async with club_service(tmp_path / "club.db", clock) as service:
        events = EventService(service, grace=24)
        players = await members(service, 2)
        await service.configure_club(GUILD, expiry_policy=policy)
        start = await open_event(service, events, "Late", Settings(Format.SWISS, rounds=1, lengths=(3,),
                                                                      round_hours=24), players)  # fmt: skip
        ((pairing, match_id),) = start.matches
        await service.accept(match_id, pairing.b)
        late = (await service.db.get_match(match_id)).waiting_for
        yield service, events, pairing, match_id, late, pairing.other(late)


@pytest.mark.parametrize("policy", ["forfeit_match", "forfeit_game"])
async def test_a_forfeit_policy_forfeits_the_match_at_the_round_deadline(tmp_path, policy):
    """Under forfeit_game too the late member loses the whole match at a round's deadline: a round must close."""
    clock = ManualClock()
    async with late_match(tmp_path, clock, policy) as (service, events, pairing, match_id, late, waiting):
        clock.advance(25 * 3600)
        await events.tick()
        event = await events.find(GUILD, "Late")
        result = event.state.results[pairing.key]
        assert (result.winner, result.loser, result.how) == (waiting, late, How.FORFEIT)
        assert (await service.db.get_match(match_id)).status == "over" and not event.asked


async def test_policy_nothing_asks_the_organiser_and_the_match_plays_on(tmp_path):
    """Under ``nothing`` nobody forfeits at the round's deadline: the organiser is asked (naming the late member),
    the match may still be played out in the grace period and then counts; unplayed, both are out after it."""
    clock = ManualClock()
    async with late_match(tmp_path, clock, "nothing") as (service, events, pairing, match_id, late, waiting):
        clock.advance(25 * 3600)
        (update,) = await events.tick()
        assert update.asked == (pairing.key,) and not update.results and not update.notices
        assert "keeps waiting for" in update.text and "both are out" in update.text
        assert (await service.db.get_match(match_id)).status == "active"
        clock.advance(23 * 3600)
        assert not await events.tick()
        await win(service, match_id, late)  # played out within the grace period: it counts, rated
        event = await events.find(GUILD, "Late")
        assert event.state.results[pairing.key].how is How.PLAYED and not event.asked


async def test_policy_claim_lets_the_waiting_member_claim_the_match_unrated(tmp_path):
    """Under ``claim`` nothing happens by itself at the round's deadline: the waiting member gets the claim
    notice (Claim the match, the event named) and the organiser is asked; his claim decides the pairing as a
    claim, not rated; the buttons of the late member are refused."""
    from club.correspondence import Correspondence
    from club.errors import NotNowError
    from club.records import ClubRecords

    clock = ManualClock()
    async with late_match(tmp_path, clock, "claim") as (service, events, pairing, match_id, late, waiting):
        clock.advance(25 * 3600)
        (update,) = await events.tick()
        assert update.asked == (pairing.key,) and not update.results
        (notice,) = update.notices
        assert (notice.table_id, notice.offer_to, notice.subject) == (match_id, waiting, late)
        assert "claim_match" in notice.offer and "Late" in notice.text and pairing.key in notice.text
        assert (await service.db.get_match(match_id)).status == "active"
        cases = Correspondence(service)
        with pytest.raises(NotNowError):
            await cases.claim(match_id, late, "claim_match", version=notice.version)
        await cases.claim(match_id, waiting, "claim_match", version=notice.version)
        event = await events.find(GUILD, "Late")
        result = event.state.results[pairing.key]
        assert (result.winner, result.how) == (waiting, How.CLAIM) and not result.how.rated
        assert event.status is Status.OVER and not event.asked
        assert await ClubRecords(service).ratings(GUILD) == {}, "a claimed event match is not rated"


async def test_policy_claim_unclaimed_falls_to_the_default(tmp_path):
    """Under ``claim``, a waiting member who does not claim within the organiser's grace period gets the default
    of an undecided pairing: both are out (the club match ends, nobody plays a match that no longer counts)."""
    clock = ManualClock()
    async with late_match(tmp_path, clock, "claim") as (service, events, pairing, match_id, late, waiting):
        clock.advance(25 * 3600)
        await events.tick()
        clock.advance(25 * 3600)
        await events.tick()
        event = await events.find(GUILD, "Late")
        assert event.state.results[pairing.key].how is How.BOTH_OUT and event.status is Status.OVER
        assert (await service.db.get_match(match_id)).status != "active"
