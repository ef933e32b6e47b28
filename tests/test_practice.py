"""The practice opponent: a match against the engine in a seat the bot takes, through the club layer —
played to the end, unrated (the club's books unchanged), no clock for the engine, hints allowed there."""

from __future__ import annotations

import random

import pytest

from club import frontend
from club.analysis import AnalysisUnavailableError, engine_available
from club.analysis.hints import HintRefusedError, check_hint_allowed, practice_request
from club.errors import InvalidRequestError
from club.practice import ENGINE_NAME, engine_turns, room_of, start_practice
from club.records import ClubRecords
from tests.clubkit import ALICE, BOB, GUILD, club_service, new_table, play_out

pytestmark = pytest.mark.backends  # and on PostgreSQL

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")
ENGINE = 990_001


@pytest.fixture(scope="module")
def pool():
    """One worker process for the module (engines loaded once)."""
    from club.analysis.pool import AnalysisPool

    with AnalysisPool(1) as running:
        yield running


async def books(records: ClubRecords) -> tuple:
    """What the club's records say of Alice: ledger, ratings, stats and the leaderboards (match, money)."""
    ledger = await records.ledger(GUILD, "all")
    stats = await records.stats(GUILD, ALICE)
    ratings = await records.ratings(GUILD)
    boards = [await records.leaderboard(GUILD, kind) for kind in ("matches", "money")]
    return (
        [(line.member, dict(line.points), line.money, line.games) for line in ledger.lines],
        {member: (round(rating.rating, 6), rating.experience) for member, rating in ratings.items()},
        stats,
        [[(row.member, row.values) for row in board.rows] for board in boards],
    )


async def member_turn(service, view, rng: random.Random):
    """Alice's decision: roll (never doubles), a random legal play, takes every double."""
    match_id = view.match_id
    if view.pending in ("roll", "roll_or_double"):
        return await service.roll(match_id, ALICE)
    if view.pending == "play":
        return await service.play(match_id, ALICE, rng.choice(await service.legal_plays(match_id, ALICE)))
    if view.pending in ("answer_double", "answer_beaver", "answer_raccoon"):
        return await service.take(match_id, ALICE)
    if view.pending == "answer_resignation":
        return await service.accept_resignation(match_id, ALICE)
    raise AssertionError(f"Alice has nothing to do: {view.pending}")


@needs_engine
async def test_a_practice_match_is_played_to_the_end_and_is_unrated(tmp_path, pool):
    async with club_service(tmp_path / "club.db") as service:
        records = ClubRecords(service)
        await play_out(service, await new_table(service, 3), random.Random(1))  # a rated match, finished
        money = await new_table(service, 0, stake=2)  # a money session: one game, then stopped
        await play_out(service, money, random.Random(2), stop=lambda o: o.view.game_number > 1)
        rated = await new_table(service, 1)  # a rated match in progress, for the hint refusal
        before = await books(records)
        assert before[0] and before[1]  # the books have entries to keep
        outcome = await start_practice(service, GUILD, ALICE, ENGINE, length=1, strength="advanced")
        view = outcome.view
        match_id = view.match_id
        assert view.practice and view.status == "active" and view.names == ("Alice", ENGINE_NAME)
        assert view.strength == "advanced" and view.players == (ALICE, ENGINE)
        # the practice room holds it, not the club; the front ends still find it in this server
        room = await room_of(service.db, GUILD)
        club = await service.db.get_club(GUILD)
        assert view.club_id == room != club.id
        assert await frontend.in_club(service, match_id, GUILD) == match_id
        with pytest.raises(Exception, match="no match or session"):
            await frontend.in_club(service, match_id, GUILD + 1)
        rng = random.Random(15)
        engine_actions = member_actions = 0
        hinted = False
        for _ in range(400):
            if view.status == "over":
                break
            if view.engine_to_act:
                assert await service.db.get_deadline(match_id) is None  # no clock for the engine seat
                done = await engine_turns(service, match_id, pool)
                assert done, "the engine did not act on its turn"
                assert all(o.view.players[o.view.engine_side] == ENGINE for o in done)
                engine_actions += len(done)
                view = done[-1].view
                continue
            assert view.waiting_for == ALICE
            if not hinted:  # hints are allowed in a practice game (its thread: here=match_id)
                await check_hint_allowed(service, ALICE, GUILD, None, here=match_id)
                found = await practice_request(service, ALICE, match_id)
                assert found is not None and found[0].position_id() in (
                    view.game.position_id,
                    view.game.board.swap().position_id(),
                )
                hinted = True
            view = (await member_turn(service, view, rng)).view
            member_actions += 1
        assert view.status == "over" and view.winner in (0, 1)
        assert engine_actions >= 3 and member_actions >= 3
        assert await service.db.get_deadline(match_id) is None
        # the engine's actions are in the log under its seat, through the same use-cases
        log = await service.log(match_id)
        assert {a.kind for a in log if a.member_id == ENGINE} >= {"accept", "play"}
        # unrated: the club's ledger, ratings, stats and leaderboards are as before
        assert await books(records) == before
        # and a hint is still refused in the rated match being played (RULES 003 1.5)
        with pytest.raises(HintRefusedError):
            await check_hint_allowed(service, ALICE, GUILD, None, here=rated.match_id)
        with pytest.raises(HintRefusedError):
            await check_hint_allowed(service, ALICE, GUILD, rated.view.game.position_id)


@needs_engine
async def test_practice_refusals_store_nothing(tmp_path):
    async with club_service(tmp_path / "club.db") as service:
        for length, strength, words in (
            (26, None, "1–25 points"),
            (3, "godlike", "choose one of"),
            (-1, None, "points"),
        ):
            with pytest.raises(InvalidRequestError, match=words):
                await start_practice(service, GUILD, ALICE, ENGINE, length=length, strength=strength)
        with pytest.raises(InvalidRequestError, match="not a member of this club"):
            await start_practice(service, GUILD + 5, BOB, ENGINE)
        assert await room_of(service.db, GUILD) is None
        assert await service.history(ALICE) == []


async def test_without_the_engine_practice_says_how_to_enable_it(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "bgsage", None)
    async with club_service(tmp_path / "club.db") as service:
        with pytest.raises(AnalysisUnavailableError, match="requirements-analysis.txt"):
            await start_practice(service, GUILD, ALICE, ENGINE, length=1)
        assert await service.history(ALICE) == []


# -- the console ---------------------------------------------------------------------------------------------------
@needs_engine
@pytest.mark.sqlite_only  # the engine's whole match (10-18 s); the practice room's storage runs on both above
async def test_the_console_plays_a_practice_match_to_the_end(tmp_path):
    """``practice 1 beginner``, then the member's turns typed (roll, move, take); the engine's turns follow each at
    once; then ``review`` of the finished match; hints allowed in the practice game, refused in a rated one."""
    from club import ClubService, ManualClock
    from console import Console, member_id
    from storage import Database

    rng = random.Random(5)
    async with Database.open(tmp_path / "c.sqlite3") as database:
        service = ClubService(database, clock=ManualClock())
        console = Console(service, images=None)  # (the board pictures have their own tests)
        try:
            assert "practice [LENGTH|money] [STRENGTH]" in await console.handle("help")
            await console.handle("as alice")
            assert "not a length" in await console.handle("practice 3 godlike")
            out = await console.handle("practice 1 beginner")
            assert "Open Sage accepts the challenge" in out, out
            match_id = console.last_match
            alice = member_id("alice")
            assert "Best plays" in await console.handle("hint") or "No double" in await console.handle("hint")
            for _ in range(300):
                view = await service.state(match_id)
                if view.status == "over":
                    break
                assert view.waiting_for == alice, "the engine's turn was left unplayed"
                if view.pending == "play":
                    out = await console.handle(f"move {rng.choice(await service.legal_plays(match_id, alice))}")
                elif view.pending in ("roll", "roll_or_double"):
                    out = await console.handle("roll")
                elif view.pending == "answer_resignation":
                    out = await console.handle("accept")
                else:
                    out = await console.handle("take")
                assert not out.startswith("Refused"), out
            assert view.status == "over", view
            assert "is over" in out and f"review {match_id}" in out
            out = await console.handle(f"review {match_id}")
            assert "Review:" in out and "Open Sage" in out and "PR" in out, out
            # a rated match being played: no hint (RULES 003 1.5)
            await console.handle("as bob")
            await console.handle("as alice")
            await console.handle("challenge bob 1")
            await console.handle("as bob")
            await console.handle("accept")
            assert "No hints in match" in await console.handle("hint")
        finally:
            if console.analysis_pool is not None:
                console.analysis_pool.shutdown()


async def test_the_console_without_the_engine_says_how_to_enable_it(tmp_path, monkeypatch):
    import sys

    from club import ClubService, ManualClock
    from club.analysis import ENABLE_ANALYSIS
    from console import Console
    from storage import Database

    monkeypatch.setitem(sys.modules, "bgsage", None)
    async with Database.open(tmp_path / "c.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock()), images=None)
        await console.handle("as alice")
        assert await console.handle("practice 1") == ENABLE_ANALYSIS
        assert await console.handle("hint 4HPwATDgc/ABMA 31") == ENABLE_ANALYSIS
        assert console.analysis_pool is None


async def test_a_finished_practice_match_offers_practice_not_a_rematch(tmp_path, monkeypatch):
    """A practice game has no rematch (the engine is no member of the club): another practice instead. (No engine
    call is made here, so the test runs without the engine installed.)"""
    from club.correspondence import rematch_terms
    from club.errors import NotNowError
    from cogs.components import table_components

    monkeypatch.setattr("club.practice.require_engine", lambda: None)
    async with club_service(tmp_path / "club.db") as service:
        match_id = (await start_practice(service, GUILD, ALICE, ENGINE, length=1)).match_id
        await service.resign(match_id, ALICE, 1)
        table, _ = await service.table_state(match_id)
        assert table.engine_to_act()  # the engine answers the resignation
        view = (await service.accept_resignation(match_id, ENGINE)).view
        assert view.status == "over" and view.practice and view.winner == 1
        with pytest.raises(NotNowError, match="start another with /study practice"):
            await rematch_terms(service, GUILD, ALICE, match_id)
        assert table_components(view) is None


async def test_the_console_refuses_a_hint_in_a_chouette_being_played(tmp_path):
    from club import ClubService, ManualClock
    from console import Console
    from storage import Database

    async with Database.open(tmp_path / "c.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock()), images=None)
        await console.handle("as ann")
        await console.handle("chouette start")
        out = await console.handle("hint")
        assert out.startswith("Refused:") and "No hints in the chouette" in out and "003 1.5" in out, out


async def test_the_console_refuses_a_hint_for_the_board_of_ones_own_chouette(tmp_path):
    """The newcomer's repro: the Captain asks for the best play of the board he is to play, by its Position ID —
    refused, as for a match (RULES 003 1.5); so is Box, and a Team member who left during the game (he takes part
    until it ends, RULES C2)."""
    from club import ClubService, ManualClock
    from console import Console
    from storage import Database

    async with Database.open(tmp_path / "c.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock()), images=None)
        for line in ("as ann", "chouette start", "as ben", "join", "as cy", "join", "as dee", "join", "seat"):
            await console.handle(line)
        view = await console.chouettes.state(1)
        start = view.board.board.position_id()
        await console.handle(f"as {console_name(view, view.team[-1])}")
        assert "(leaves after this game)" in await console.handle("leave")
        for who in (view.box, view.captain, view.team[-1]):
            await console.handle(f"as {console_name(view, who)}")
            out = await console.handle(f"hint {start} 64")
            assert out.startswith("Refused:") and "No hints in your chouette #1" in out and "003 1.5" in out, out


def console_name(view, member: int) -> str:
    """The console name of ``member`` at the chouette of ``view``."""
    return view.names[member]


@needs_engine
@pytest.mark.parametrize("policy", ["claim", "forfeit_match"])
async def test_a_practice_game_has_no_clock_at_all(tmp_path, pool, policy):
    """Nothing is at stake in a practice game, so it has no member clock either: no reminder, no expiry, no claim
    (the engine would never claim: a lapsed game waited forever) — under every expiry policy the member comes back
    when he likes and plays on."""
    from club import ManualClock
    from club.scheduler import run_due
    from club.settings import HOUR

    clock = ManualClock()
    async with club_service(tmp_path / "club.db", clock=clock) as service:
        await service.configure_club(GUILD, move_time=2 * HOUR, reminders=[HOUR], expiry_policy=policy)
        view = (await start_practice(service, GUILD, ALICE, ENGINE, length=3)).view
        if view.engine_to_act:
            view = (await engine_turns(service, view.match_id, pool))[-1].view
        assert view.status == "active" and view.waiting_for == ALICE
        assert await service.db.get_deadline(view.match_id) is None
        clock.advance(30 * 24 * HOUR)
        assert await run_due(service) == []
        later = await service.state(view.match_id)
        assert later.status == "active" and later.waiting_for == ALICE and later.score == view.score
        assert (await member_turn(service, later, random.Random(1))).view.status == "active"


async def test_the_practice_room_follows_the_clubs_settings(tmp_path, monkeypatch):
    """The practice room is made with the club's settings; a later change of the club's applies to it too (its
    tables read the club's current settings: :func:`club.practice.settings_of`)."""
    from club.practice import room_guild, settings_of
    from club.settings import HOUR

    monkeypatch.setattr("club.practice.require_engine", lambda: None)
    async with club_service(tmp_path / "club.db") as service:
        await start_practice(service, GUILD, ALICE, ENGINE, length=1)
        changed = await service.configure_club(
            GUILD, move_time=5 * HOUR, expiry_policy="claim", away_days=3, nudge_hours=6
        )
        room = await service.db.get_club(room_guild(GUILD))
        assert await settings_of(service.db, room) == changed
        club = await service.db.get_club(GUILD)
        assert await settings_of(service.db, club) == changed


@needs_engine
async def test_a_practice_deadline_stored_before_they_had_none_ends_quietly(tmp_path, pool, monkeypatch):
    """A database from before: a practice game with a member's deadline under the ``claim`` policy. At its expiry
    nobody is told and no claim is offered (the engine would never take it up); the game goes on."""
    from club import ManualClock
    from club.scheduler import run_due
    from club.settings import HOUR
    from club.table import MatchTable

    clock = ManualClock()
    async with club_service(tmp_path / "club.db", clock=clock) as service:
        await service.configure_club(GUILD, move_time=2 * HOUR, reminders=[], expiry_policy="claim")
        view = (await start_practice(service, GUILD, ALICE, ENGINE, length=3)).view
        match_id = view.match_id
        while view.status == "active":  # until Alice's roll leaves her a play (a dance passes the turn)
            if view.engine_to_act:
                view = (await engine_turns(service, match_id, pool))[-1].view
            elif view.pending in ("roll", "roll_or_double"):
                with monkeypatch.context() as old_code:  # a unit of work that gives the member a clock
                    old_code.setattr(MatchTable, "practice", property(lambda table: False))
                    view = (await service.roll(match_id, ALICE)).view
                if view.waiting_for == ALICE:
                    break
            else:
                view = (await member_turn(service, view, random.Random(3))).view
        assert view.waiting_for == ALICE and await service.db.get_deadline(match_id) is not None
        clock.advance(3 * HOUR)
        assert await run_due(service) == []
        assert (await service.db.get_deadline(match_id)).expired_at is not None
        assert (await service.state(match_id)).status == "active"
