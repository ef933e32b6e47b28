"""Correspondence play at the club layer (RULES A2, M5): away periods pause a member's clocks, away days
are used automatically, clocks always end, the opponent may claim or give more time, nudges have a cooldown, and
"ping all my games" reaches every game. A refused request changes nothing."""

from __future__ import annotations

import statistics

import pytest

from club.correspondence import Correspondence, away_state
from club.errors import InvalidRequestError, NotAPlayerError, NotNowError
from club.scheduler import run_due
from club.settings import DAY, HOUR
from storage.pgstore import PgTx
from storage.store import Tx
from tests.clubkit import ALICE, BOB, CAROL, GUILD, club_service, new_table, seeded, snapshot

pytestmark = [pytest.mark.asyncio, pytest.mark.backends]  # and on PostgreSQL


async def setup_club(service, **settings):
    options = {"move_time": 10 * HOUR, "reminders": [], "expiry_policy": "forfeit_game", "away_days": 5}
    options.update(settings)
    await service.configure_club(GUILD, **options)


async def club_id(service) -> int:
    return (await service.db.get_club(GUILD)).id


async def test_away_pauses_my_clocks_tells_each_game_and_back_gives_days_back(tmp_path):
    """/player away 3: the member's clock in each of his matches moves 3 days later (the time he had left starts
    again when he is back), one notice per game pings the opponent, 3 days come off the allowance; back after one
    day gives the 2 unused days back and the clocks run with the time they had."""
    async with club_service(tmp_path / "c.sqlite", seeds=seeded(1)) as service:
        await setup_club(service)
        first = await new_table(service, 5)
        second = await new_table(service, 5, players=(CAROL, first.view.waiting_for))
        member = first.view.waiting_for
        cases = Correspondence(service)
        before = {m: (await service.db.get_deadline(m)) for m in (first.match_id, second.match_id)}
        notices = await cases.away(GUILD, member, 3, "holiday in Crete")
        assert sorted(n.table_id for n in notices) == sorted([first.match_id, second.match_id])
        assert all("away until" in n.text and "holiday in Crete" in n.text for n in notices)
        assert all(member not in n.ping and len(n.ping) == 1 for n in notices), "the opponents are pinged"
        for match_id, old in before.items():
            new = await service.db.get_deadline(match_id)
            if old.member_id == member:
                assert new.due_at == pytest.approx(old.due_at + 3 * DAY)
            else:
                assert new.due_at == old.due_at, "the opponent's clock is not his to pause"
        state = await away_state(service, await club_id(service), member)
        assert state.until is not None and state.used == 3 and state.left == 2
        with pytest.raises(InvalidRequestError, match="away already"):
            await cases.away(GUILD, member, 1)
        service.clock.advance(DAY)
        back = await cases.back(GUILD, member)
        assert len(back) == 2 and all("is back" in n.text for n in back)
        state = await away_state(service, await club_id(service), member)
        assert state.until is None and state.used == 1 and state.left == 4
        mine = await service.db.get_deadline(first.match_id)
        if mine.member_id == member:
            assert mine.due_at == pytest.approx(before[first.match_id].due_at + DAY)


async def test_bad_away_requests_change_nothing(tmp_path):
    """More days than are left, zero days, coming back when not away: refused with what is possible."""
    path = tmp_path / "c.sqlite"
    async with club_service(path, seeds=seeded(2)) as service:
        await setup_club(service, away_days=2)
        outcome = await new_table(service, 3)
        cases = Correspondence(service)
        before = snapshot(path)
        with pytest.raises(InvalidRequestError, match="2 away days left"):
            await cases.away(GUILD, outcome.view.waiting_for, 3)
        with pytest.raises(InvalidRequestError, match="whole number of days"):
            await cases.away(GUILD, outcome.view.waiting_for, 0)
        with pytest.raises(NotNowError, match="not away"):
            await cases.back(GUILD, outcome.view.waiting_for)
        assert snapshot(path) == before
        await setup_club(service, away_days=0)  # a club that gives none: not "0 left, ask for 0 or fewer"
        before = snapshot(path)
        with pytest.raises(InvalidRequestError, match="Away days are not enabled in this club.*away_days:14"):
            await cases.away(GUILD, outcome.view.waiting_for, 1)
        assert snapshot(path) == before


async def test_clocks_always_end_through_repeated_pauses(tmp_path):
    """The OGS bug (a pause that made games never end): a member goes away and comes back again and again, then
    lets his away days run out automatically — each pause costs at least one day of a finite allowance, so the
    deadline still arrives and the club's policy applies (here he forfeits the game), within the move time plus
    the allowance."""
    async with club_service(tmp_path / "c.sqlite", seeds=seeded(3)) as service:
        await setup_club(service, away_days=4)
        outcome = await new_table(service, 5)
        late = outcome.view.waiting_for
        cases = Correspondence(service)
        start = service.clock.now()
        pauses = 0
        while True:
            try:
                await cases.away(GUILD, late, 1)
            except InvalidRequestError:
                break
            pauses += 1
            service.clock.advance(HOUR)
            await cases.back(GUILD, late)
            assert pauses <= 4, "a pause and a return always cost a day"
        assert pauses == 4
        kinds = []
        for _ in range(200):
            service.clock.advance(HOUR)
            kinds += [n.kind for n in await run_due(service)]
            if "expiry" in kinds:
                break
        assert "expiry" in kinds, "the deadline arrived"
        assert service.clock.now() - start <= 10 * HOUR + 4 * DAY + 5 * HOUR
        view = await service.state(outcome.match_id)
        assert view.game_number == 2, "the late member forfeited the game"


async def test_a_lapsing_clock_uses_away_days_automatically(tmp_path):
    """A clock that would lapse uses one away day (24 hours more, said so) while any is left this year; then the
    club's policy applies."""
    async with club_service(tmp_path / "c.sqlite", seeds=seeded(4)) as service:
        await setup_club(service, away_days=2)
        outcome = await new_table(service, 5)
        late = outcome.view.waiting_for
        service.clock.advance(10 * HOUR)
        first = await run_due(service)
        assert [(n.kind, n.ping) for n in first] == [("away_day", (late,))]
        assert "one away day was used automatically" in first[0].text and "1 away day left" in first[0].text
        service.clock.advance(DAY)
        second = await run_due(service)
        assert [n.kind for n in second] == ["away_day"] and "0 away days left" in second[0].text
        service.clock.advance(DAY)
        third = await run_due(service)
        assert [n.kind for n in third] == ["expiry"] and "forfeits the game" in third[0].text


class Killed(BaseException):
    """The process dies here: nothing after this point runs."""


async def test_an_away_day_is_spent_in_the_transaction_that_moves_the_deadline(tmp_path, monkeypatch):
    """The away day used at a lapsing clock is written in the very transaction that moves the deadline: a failure
    injected where the day is spent (the member's preferences written) leaves the deadline where it was and the
    day unspent; the next round moves it once and spends one day."""
    async with club_service(tmp_path / "c.sqlite", seeds=seeded(4)) as service:
        await setup_club(service, away_days=2)
        outcome = await new_table(service, 5)
        match_id, late = outcome.view.match_id, outcome.view.waiting_for
        club = await club_id(service)
        due = (await service.db.get_deadline(match_id)).due_at
        service.clock.advance(10 * HOUR)
        for tx in (Tx, PgTx):

            async def execute(self, sql, params=(), original=tx.execute):
                if sql.startswith("UPDATE members SET preferences"):
                    raise Killed
                return await original(self, sql, params)

            monkeypatch.setattr(tx, "execute", execute)
        with pytest.raises(Killed):
            await run_due(service)
        monkeypatch.undo()
        assert (await service.db.get_deadline(match_id)).due_at == due, "the deadline did not move alone"
        assert (await away_state(service, club, late)).used == 0
        (notice,) = await run_due(service)
        assert notice.kind == "away_day" and "1 away day left" in notice.text
        assert (await service.db.get_deadline(match_id)).due_at == due + DAY
        assert (await away_state(service, club, late)).used == 1


async def test_claims_and_more_time_at_the_deadline(tmp_path):
    """Expiry policy ``claim``: nothing happens silently — at the deadline the opponent is reminded with Claim the
    game / Claim the match / Give 24 h more. Before it nobody may claim; the late member cannot claim his own
    game; Give 24 h more moves the deadline (it fires again later); then a claim forfeits the game (RULES M5)."""
    path = tmp_path / "c.sqlite"
    async with club_service(path, seeds=seeded(5)) as service:
        await setup_club(service, expiry_policy="claim", away_days=0)
        outcome = await new_table(service, 7)
        late = outcome.view.waiting_for
        waiting = BOB if late == ALICE else ALICE
        cases = Correspondence(service)
        before = snapshot(path)
        with pytest.raises(NotNowError, match="still has"):
            await cases.claim(outcome.match_id, waiting, "claim_game")
        with pytest.raises(NotNowError, match="nothing to claim"):
            await cases.claim(outcome.match_id, late, "claim_game")
        with pytest.raises(NotAPlayerError):
            await cases.claim(outcome.match_id, CAROL, "claim_game")
        assert snapshot(path) == before
        service.clock.advance(10 * HOUR)
        notices = await run_due(service)
        assert len(notices) == 1 and notices[0].offer == ("claim_game", "claim_match", "more_time")
        assert notices[0].offer_to == waiting and waiting in notices[0].ping and "claim the game" in notices[0].text
        assert (await service.state(outcome.match_id)).game_number == 1, "nothing happened by itself"
        more = await cases.more_time(outcome.match_id, waiting, 24)
        assert "24 hours more" in more[0].text and more[0].ping == (late,)
        assert await run_due(service) == []
        service.clock.advance(24 * HOUR)
        again = await run_due(service)
        assert [n.offer_to for n in again] == [waiting], "the deadline fired again after the time given"
        result = await cases.claim(outcome.match_id, waiting, "claim_game", version=again[0].version)
        assert result.view.game_number == 2 and "forfeits the game" in result.message
        from club.records.service import ClubRecords

        stats = await ClubRecords(service).stats(GUILD, waiting)  # the forfeit is a win, not a gammon played
        assert (stats.games, stats.wins) == (1, 1) and (stats.gammons, stats.backgammons) == (0, 0)
        assert (await ClubRecords(service).stats(GUILD, late)).gammons_lost == 0


async def test_nudge_after_n_hours_at_most_once_per_n_hours(tmp_path):
    """A nudge is a new message that pings the member keeping the game waiting: only after the club's
    ``nudge_hours`` of waiting, and at most once per that many hours."""
    async with club_service(tmp_path / "c.sqlite", seeds=seeded(6)) as service:
        await setup_club(service, nudge_hours=12.0, move_time=7 * DAY)
        outcome = await new_table(service, 5)
        late = outcome.view.waiting_for
        waiting = BOB if late == ALICE else ALICE
        cases = Correspondence(service)
        with pytest.raises(NotNowError, match="after 12 hours"):
            await cases.nudge(outcome.match_id, waiting)
        service.clock.advance(13 * HOUR)
        nudged = await cases.nudge(outcome.match_id, waiting)
        assert nudged[0].ping == (late,) and "Nudge from" in nudged[0].text
        with pytest.raises(NotNowError, match="next nudge is possible in"):
            await cases.nudge(outcome.match_id, waiting)
        service.clock.advance(12 * HOUR)
        assert (await cases.nudge(outcome.match_id, waiting))[0].ping == (late,)
        with pytest.raises(NotNowError):
            await cases.nudge(outcome.match_id, late)


async def test_ping_all_my_games(tmp_path):
    """/player ping: one message in each of the member's games, mentioning his opponents."""
    async with club_service(tmp_path / "c.sqlite", seeds=seeded(7)) as service:
        await setup_club(service)
        first = await new_table(service, 3)
        second = await new_table(service, 3, players=(ALICE, CAROL))
        notices = await Correspondence(service).ping(GUILD, ALICE, "back on Monday")
        assert {(n.table_id, n.ping) for n in notices} == {(first.match_id, (BOB,)), (second.match_id, (CAROL,))}
        assert all("back on Monday" in n.text for n in notices)


async def test_roll_for_me_when_i_do_not_double_within_n_hours(tmp_path):
    """The opt-in "roll for me when I do not double within N hours": a member on roll who may double and waits
    longer is rolled for (said so); before N hours nothing happens; without the preference nothing ever does."""
    async with club_service(tmp_path / "c.sqlite", seeds=seeded(8)) as service:
        await setup_club(service, move_time=7 * DAY)
        for member in (ALICE, BOB):
            await service.register(GUILD, member, "Alice" if member == ALICE else "Bob")
        outcome = await new_table(service, 5)
        view = outcome.view
        for _ in range(30):  # play on until a member is to roll or double
            if view.pending == "roll_or_double":
                break
            plays = await service.legal_plays(view.match_id, view.waiting_for)
            view = (await service.play(view.match_id, view.waiting_for, plays[0])).view
        assert view.pending == "roll_or_double"
        member = view.waiting_for
        service.clock.advance(5 * HOUR)
        assert [n.kind for n in await run_due(service)] == [], "no preference: he decides himself"
        await service.set_preferences(member, roll_after=6.0)
        assert [n.kind for n in await run_due(service)] == [], "not yet 6 hours"
        service.clock.advance(1.5 * HOUR)
        notices = await run_due(service)
        assert [n.kind for n in notices] == ["auto_roll"] and "did not double within 6 hours" in notices[0].text
        after = await service.state(view.match_id)
        assert after.version > view.version and (after.pending != "roll_or_double" or after.waiting_for != member)


async def test_a_play_after_the_clubs_roll_for_him_is_a_reply(tmp_path):
    """A 1-point match (the cube is dead, RULES M2): the club rolls for each member, and each of his plays is a
    reply timed from that roll — not left out because the roll is logged under his own id (auto)."""
    from club.records.service import ClubRecords

    async with club_service(tmp_path / "c.sqlite", seeds=seeded(4)) as service:
        await setup_club(service, move_time=7 * DAY)
        for member, name in ((ALICE, "Alice"), (BOB, "Bob")):
            await service.register(GUILD, member, name)
        view = (await new_table(service, 1)).view
        waits = {ALICE: [], BOB: [0.0]}  # Bob answered the challenge at once
        for hours in (2, 5, 1, 3, 4, 6):
            if view.status != "active" or view.pending != "play":
                break
            service.clock.advance(hours * HOUR)
            member = view.waiting_for
            waits[member].append(hours * HOUR)
            plays = await service.legal_plays(view.match_id, member)
            view = (await service.play(view.match_id, member, plays[0])).view
        assert len(waits[ALICE]) + len(waits[BOB]) >= 5
        records = ClubRecords(service)
        for member in (ALICE, BOB):
            stats = await records.stats(GUILD, member)
            assert stats.replies == len(waits[member])
            assert stats.reply_mean == pytest.approx(sum(waits[member]) / len(waits[member]))


async def test_club_stats_show_reply_times_and_games_waiting(tmp_path):
    """/club stats: each member's average and median reply time (from the turn being his to his action; the club's
    automatic steps are not replies) and the games waiting on him now."""
    from club.records.service import ClubRecords
    from club.records.texts import stats_text

    async with club_service(tmp_path / "c.sqlite", seeds=seeded(9)) as service:
        await setup_club(service, move_time=7 * DAY)
        for member, name in ((ALICE, "Alice"), (BOB, "Bob")):
            await service.register(GUILD, member, name)
        outcome = await new_table(service, 5)
        view = outcome.view
        waits = {ALICE: [], BOB: [0.0]}  # Bob answered the challenge at once: a reply too
        for hours in (1, 3, 2, 6, 5):  # each turn: the member replies after some hours (a roll, then his play)
            service.clock.advance(hours * HOUR)
            member = view.waiting_for
            waits[member].append(hours * HOUR)
            if view.pending == "roll_or_double":
                view = (await service.roll(view.match_id, member)).view
            if view.pending == "play" and view.waiting_for == member:
                plays = await service.legal_plays(view.match_id, member)
                view = (await service.play(view.match_id, member, plays[0])).view
        records = ClubRecords(service)
        for member in (ALICE, BOB):
            stats = await records.stats(GUILD, member)
            assert stats.replies == len(waits[member]) and waits[member]
            assert stats.reply_mean == pytest.approx(sum(waits[member]) / len(waits[member]))
            assert stats.reply_median == pytest.approx(statistics.median(waits[member]))
            assert stats.waiting_on == (1 if view.waiting_for == member else 0)
            text = stats_text(stats)
            assert "Reply time: " in text and "games waiting on" in text
