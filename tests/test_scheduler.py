"""Time limits with an injected clock (RULES A2, M5): reminders and expiries fire once each, also across a restart;
the club's policy applies at expiry (nothing, forfeit the game, forfeit the match); unanswered challenges lapse."""

from __future__ import annotations

import asyncio
import random

import pytest

from club import ClubService, ManualClock
from club.scheduler import due, run_due
from club.verify import verify_database
from storage import Database
from tests.clubkit import ALICE, BOB, GUILD, club_service, decide, new_table, seeded

pytestmark = [pytest.mark.asyncio, pytest.mark.backends]

HOUR = 3600.0


async def configure(service, policy: str) -> None:
    await service.configure_club(
        GUILD, move_time=10 * HOUR, challenge_time=20 * HOUR, reminders=[4 * HOUR, 1 * HOUR], expiry_policy=policy
    )


async def test_reminders_and_expiry_fire_once_each_across_restarts_a2(tmp_path):
    path = tmp_path / "club.sqlite"
    clock = ManualClock(1_000_000)
    async with club_service(path, clock=clock, seeds=seeded(1)) as service:
        await configure(service, "nothing")
        outcome = await new_table(service, 3)
        match_id, late = outcome.match_id, outcome.view.waiting_for
        start = clock.now()
        assert outcome.view.due_at == start + 10 * HOUR
        assert await due(service) == [] and await run_due(service) == []
        clock.advance(6 * HOUR)
        assert [(kind, d.subject) for kind, d in await due(service)] == [("reminder", late)]
        notices = await run_due(service)
        assert [(n.kind, n.table_id, n.subject) for n in notices] == [("reminder", match_id, late)]
        assert "4.0 hours left" in notices[0].text and notices[0].ping == (late,)
        assert await run_due(service) == []  # once
    # restart: a new process, same database
    async with Database.open(path) as db:
        service = ClubService(db, clock=clock, seeds=seeded(2))
        assert await run_due(service) == []  # the first reminder is not sent again
        clock.advance(3 * HOUR)
        notices = await run_due(service)
        assert [n.kind for n in notices] == ["reminder"] and "1.0 hours left" in notices[0].text
        assert await run_due(service) == []
        clock.advance(1 * HOUR)
        notices = await run_due(service)
        assert [n.kind for n in notices] == ["expiry"] and notices[0].outcome is None
        assert set(notices[0].ping) == {ALICE, BOB} and "Time is up" in notices[0].text
        assert await run_due(service) == []
        clock.advance(100 * HOUR)
        assert await run_due(service) == []  # policy "nothing": the game waits, nothing fires again
        view = await service.state(match_id)
        assert view.waiting_for == late and view.status == "active"
    async with Database.open(path) as db:
        service = ClubService(db, clock=clock, seeds=seeded(3))
        assert await run_due(service) == []  # not after another restart either
        # the late member acts at last: a fresh deadline with fresh reminders
        outcome = await decide(service, await service.state(match_id), random.Random(1), cube=0)
        assert outcome.view.due_at == clock.now() + 10 * HOUR
        clock.advance(9.5 * HOUR)  # both reminders overtaken at once: one notice, not two
        notices = await run_due(service)
        assert [n.kind for n in notices] == ["reminder"]
        assert await run_due(service) == []
        deadline = await db.get_deadline(match_id)
        assert deadline.reminders_sent == 1 and deadline.reminders == ()
        reports = await verify_database(db)
        assert all(r.ok for r in reports)


async def test_forfeit_game_policy_forfeits_and_starts_the_next_game_m5(tmp_path):
    clock = ManualClock(2_000_000)
    async with club_service(tmp_path / "club.sqlite", clock=clock, seeds=seeded(4)) as service:
        await configure(service, "forfeit_game")
        outcome = await new_table(service, 5)
        match_id, late = outcome.match_id, outcome.view.waiting_for
        clock.advance(10 * HOUR)
        kinds = [kind for kind, _d in await due(service)]
        assert kinds == ["expiry"]  # reminders overtaken by the expiry are not sent
        notices = await run_due(service)
        assert len(notices) == 1 and notices[0].outcome is not None
        result = notices[0].outcome
        assert [e.kind for e in result.events][:2] == ["forfeit", "game_over"]
        assert "ran out of time and forfeits the game" in notices[0].text
        winner = 1 - result.view.side_of(late)
        assert result.view.score[winner] >= 1 and result.view.game_number == 2 and result.view.status == "active"
        assert result.view.due_at == clock.now() + 10 * HOUR  # the new game has its own deadline
        log = await service.log(match_id)
        forfeit = next(a for a in log if a.kind == "forfeit")
        assert forfeit.member_id is None and forfeit.side == result.view.side_of(late)  # the club acted
        assert await run_due(service) == []
        assert all(r.ok for r in await verify_database(service.db))


async def test_forfeit_match_policy_ends_the_match_m5(tmp_path):
    clock = ManualClock(3_000_000)
    async with club_service(tmp_path / "club.sqlite", clock=clock, seeds=seeded(5)) as service:
        await configure(service, "forfeit_match")
        outcome = await new_table(service, 7)
        money = await new_table(service, 0)
        late = outcome.view.waiting_for
        clock.advance(11 * HOUR)
        notices = await run_due(service)
        assert {n.table_id for n in notices} == {outcome.match_id, money.match_id}
        match_view = await service.state(outcome.match_id)
        assert match_view.status == "over" and match_view.players[match_view.winner] != late
        assert match_view.waiting_for is None and match_view.due_at is None
        money_view = await service.state(money.match_id)
        assert money_view.status == "over" and sum(money_view.score) == 0
        assert await run_due(service) == []
        assert await service.waiting(late) == []
        assert all(r.ok for r in await verify_database(service.db))


async def test_unanswered_challenge_lapses_and_acting_in_time_cancels_the_expiry(tmp_path):
    clock = ManualClock(4_000_000)
    async with club_service(tmp_path / "club.sqlite", clock=clock, seeds=seeded(6)) as service:
        await configure(service, "forfeit_game")
        lapsing = await service.challenge(GUILD, ALICE, BOB, length=3)
        answered = await service.challenge(GUILD, BOB, ALICE, length=3)
        clock.advance(19 * HOUR)
        outcome = await service.accept(answered.match_id, ALICE)  # in time: the challenge deadline is replaced
        late = outcome.view.waiting_for
        clock.advance(1 * HOUR)
        notices = await run_due(service)
        lapse = next(n for n in notices if n.table_id == lapsing.match_id)
        assert lapse.kind == "expiry" and lapse.outcome.view.status == "expired"
        assert "did not answer in time" in lapse.text
        assert answered.match_id not in {n.table_id for n in notices if n.kind == "expiry"}
        # the member to act moves just before his deadline: the old expiry never fires
        clock.advance(8.9 * HOUR)
        view = await service.state(answered.match_id)
        assert view.waiting_for == late
        await decide(service, view, random.Random(1), cube=0)
        clock.advance(0.2 * HOUR)  # past the old deadline
        assert [n for n in await run_due(service) if n.table_id == answered.match_id] == []
        assert (await service.state(answered.match_id)).status == "active"


async def test_two_schedulers_at_once_fire_each_expiry_once(tmp_path):
    clock = ManualClock(5_000_000)
    async with club_service(tmp_path / "club.sqlite", clock=clock, seeds=seeded(7)) as service:
        await configure(service, "forfeit_game")
        tables = [await new_table(service, 3) for _ in range(5)]
        clock.advance(10 * HOUR)
        first, second = await asyncio.gather(run_due(service), run_due(service))
        fired = [n.table_id for n in first + second if n.kind == "expiry"]
        assert sorted(fired) == sorted(t.match_id for t in tables)
        for table in tables:
            log = await service.log(table.match_id)
            assert [a.kind for a in log].count("forfeit") == 1


async def test_two_bots_on_one_database_send_each_reminder_and_expiry_once(tmp_path):
    """Two bot processes on one database (two connections, two services, each with its own
    per-match locks) run the reminder loop at the same moment: every reminder and every expiry notice goes out once
    in all (the deadline is marked only if nobody marked it first), none is lost."""
    path = tmp_path / "club.sqlite"
    clock = ManualClock(3_000_000)
    async with club_service(path, clock=clock, seeds=seeded(11)) as first:
        await configure(first, "nothing")
        tables = [(await new_table(first, 3)).match_id for _ in range(6)]
        async with Database.open(path) as db:
            second = ClubService(db, clock=clock, seeds=seeded(12))
            sent = []
            for hours in (6, 3, 1):  # the 4-hour reminder, the 1-hour reminder, the expiry
                clock.advance(hours * HOUR)
                both = await asyncio.gather(run_due(first), run_due(second))
                sent += [(n.kind, n.table_id) for notices in both for n in notices]
    assert sorted(sent) == sorted([(kind, t) for t in tables for kind in ("reminder", "reminder", "expiry")])
