"""Club records (RULES A3): the ledger by period, settle-up, score sheets, statistics, leaderboards, corrections.

The books of :func:`books` are small enough to work out by hand (``T0`` = Monday 2024-03-04 00:00 UTC):

- money session M1, Ann v Ben at 5 a point, day 1: Ann +2 (gammon), Ben +4 (double to 4 dropped), Ann +1
  → Ann −1 point (−5), Ben +1 (+5); an admin then moves 1 point and 10 from Ben to Ann for it ("stake misread")
- match X, Ben v Cy to 3, day 2: Cy +2, Ben +1, Cy +1 → Cy wins 3–1; points Ben −2, Cy +2; no stake
- chouette S, Ann (Box), Ben, Cy, Dee at 2 a point, day 9: Ann +3 / −1 −1 −1, then Ann −4 / +2 +2 0
  → Ann −1 (−2), Ben +1 (+2), Cy +1 (+2), Dee −1 (−2)
- money session M2, Cy v Dee, no stake, day 31 (April): Dee +2, Dee +1 → Cy −3, Dee +3
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta, timezone

import pytest

from club import ClubService, InvalidRequestError, ManualClock, UnknownGameError, UnknownMemberError
from club.records import ClubRecords, SessionRef, parse_period, period_at, settle_up
from storage import SCHEMA_VERSION, ConstraintError, Database
from tests.bookkit import store_chouette, store_table
from tests.clubkit import snapshot

pytestmark = pytest.mark.backends

GUILD = 7
ANN, BEN, CY, DEE, ADMIN = 101, 102, 103, 104, 999
NAMES = {ANN: "Ann", BEN: "Ben", CY: "Cy", DEE: "Dee", ADMIN: "Admin"}
T0 = 1_709_510_400.0  # Monday 2024-03-04 00:00 UTC
HOUR, DAY = 3600.0, 86400.0


async def books(db: Database, clock: ManualClock) -> tuple[ClubRecords, dict[str, int]]:
    """The club of the module docstring; returns the records service and the ids of M1, X, S, M2."""
    service = ClubService(db, clock=clock)
    for member, name in NAMES.items():
        await service.register(GUILD, member, name)
    club_id = (await db.get_club(GUILD)).id
    ids = {
        "M1": await store_table(
            db,
            club_id,
            (ANN, BEN),
            [(0, 2, T0 + HOUR, "gammon"), (1, 4, T0 + 2 * HOUR, "single", 4, "drop"), (0, 1, T0 + 3 * HOUR)],
            stake=5,
        ),
        "X": await store_table(
            db, club_id, (BEN, CY), [(1, 2, T0 + DAY), (0, 1, T0 + DAY + HOUR), (1, 1, T0 + DAY + 2 * HOUR)], length=3
        ),
        "S": await store_chouette(
            db,
            club_id,
            ANN,
            [
                ({ANN: 3, BEN: -1, CY: -1, DEE: -1}, T0 + 8 * DAY),
                ({ANN: -4, BEN: 2, CY: 2, DEE: 0}, T0 + 8 * DAY + HOUR),
            ],
            stake=2,
        ),
        "M2": await store_table(db, club_id, (CY, DEE), [(1, 2, T0 + 30 * DAY), (1, 1, T0 + 30 * DAY + HOUR)]),
    }
    records = ClubRecords(service)
    clock.set(T0 + 5 * HOUR)
    await records.correct(GUILD, ADMIN, BEN, ANN, points=1, money=10, reason="stake misread", session=f"money:{ids['M1']}",
                          counts_at=T0 + 4 * HOUR)  # fmt: skip
    return records, ids


def summary(ledger) -> dict[str, tuple[int, int]]:
    """Name → (total points, money)."""
    return {line.name: (line.total_points, line.money) for line in ledger.lines}


def cleared(settlement) -> bool:
    """Whether the payments bring every balance of the settlement's ledger to zero."""
    left = settlement.ledger.balances(settlement.unit)
    for payment in settlement.payments:
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    return not any(left.values())


# -- the ledger by period ------------------------------------------------------------------------------------------
async def test_ledger_of_each_period_matches_the_hand_sums_and_is_zero_sum(tmp_path):
    async with Database.open(tmp_path / "books.sqlite3") as db:
        clock = ManualClock(T0)
        records, ids = await books(db, clock)
        clock.set(T0 + 9 * DAY)  # Wednesday of the second week
        week1 = await records.ledger(GUILD, "last week")
        assert week1.period.label == "week of 2024-03-04"
        assert summary(week1) == {"Ann": (0, 5), "Ben": (-2, -5), "Cy": (2, 0)}
        ann = week1.line_of(ANN)
        assert dict(ann.points) == {"money": -1, "match": 0, "chouette": 0, "correction": 1}
        assert (ann.games, ann.corrections) == (3, 1)
        week2 = await records.ledger(GUILD, "week")
        assert summary(week2) == {"Ben": (1, 2), "Cy": (1, 2), "Ann": (-1, -2), "Dee": (-1, -2)}
        march = await records.ledger(GUILD, "month")
        assert march.period.label == "March 2024"
        assert summary(march) == {"Ben": (-1, -3), "Cy": (3, 2), "Ann": (-1, 3), "Dee": (-1, -2)}
        assert (await records.ledger(GUILD, "last month")).lines == ()
        everything = await records.ledger(GUILD, "all")
        assert summary(everything) == {"Cy": (0, 2), "Dee": (2, -2), "Ann": (-1, 3), "Ben": (-1, -3)}
        day1 = await records.ledger(GUILD, period_at("day", T0 + HOUR))
        assert summary(day1) == {"Ann": (0, 5), "Ben": (0, -5)}
        session = await records.ledger(GUILD, "session", session=f"money:{ids['M1']}")
        assert summary(session) == summary(day1) and session.period.label == f"money session {ids['M1']}"
        chouette = await records.ledger(GUILD, "session", session=f"chouette:{ids['S']}")
        assert summary(chouette) == summary(week2)
        for ledger in (week1, week2, march, everything, day1, session, chouette):
            assert ledger.is_zero_sum(), ledger.column_totals()


async def test_ledger_is_zero_sum_for_every_period_of_random_books(tmp_path):
    """Random money sessions (with stakes), matches, chouettes and corrections over ten weeks: every day, week,
    month, session and all time sums to zero in every column, and settle-up clears it in at most n − 1 payments."""
    rng = random.Random(11)
    members = [ANN, BEN, CY, DEE, 105, 106]
    async with Database.open(tmp_path / "random.sqlite3") as db:
        clock = ManualClock(T0)
        service = ClubService(db, clock=clock)
        for member in members:
            await service.register(GUILD, member, f"M{member}")
        club_id = (await db.get_club(GUILD)).id
        at = T0
        for _ in range(40):
            at += rng.uniform(2 * HOUR, 2 * DAY)
            if rng.random() < 0.3:
                seated = rng.sample(members, rng.randint(3, 5))
                games = []
                for n in range(rng.randint(1, 4)):
                    points = {m: rng.choice([-2, -1, 1, 2, 4]) for m in seated[1:]}
                    points[seated[0]] = -sum(points.values())
                    games.append((points, at + n * HOUR))
                await store_chouette(db, club_id, seated[0], games, stake=rng.randint(1, 3))
            else:
                length = rng.choice([0, 0, 3, 5])
                games = [(rng.randint(0, 1), rng.choice([1, 2, 4]), at + n * HOUR) for n in range(rng.randint(1, 5))]
                await store_table(db, club_id, tuple(rng.sample(members, 2)), games, length=length,
                                  stake=rng.choice([0, 1, 5]) if length == 0 else 0)  # fmt: skip
            if rng.random() < 0.3:
                payer, payee = rng.sample(members, 2)
                await ClubRecords(service).correct(GUILD, ADMIN, payer, payee, points=rng.randint(0, 3),
                                                   money=rng.randint(1, 9), reason="random fix", counts_at=at)  # fmt: skip
        records = ClubRecords(service)
        periods = ["all"]
        for weeks_back in range(11):
            clock.set(T0 + weeks_back * 7 * DAY + DAY)
            periods += [period_at("week", clock.now()), period_at("day", clock.now())]
        periods += [period_at("month", T0), period_at("month", T0 + 40 * DAY)]
        sessions = await records.sessions(GUILD, limit=100)
        assert len(sessions) == 40
        ledgers = [await records.ledger(GUILD, period) for period in periods]
        ledgers += [await records.ledger(GUILD, "session", session=f"{s.source}:{s.id}") for s in sessions]
        assert sum(bool(ledger.lines) for ledger in ledgers) > 30
        for ledger in ledgers:
            assert ledger.is_zero_sum(), (ledger.period, ledger.column_totals())
            for unit in ("money", "points"):
                payments = settle_up(ledger.balances(unit))
                open_ = sum(1 for value in ledger.balances(unit).values() if value)
                assert len(payments) <= max(0, open_ - 1)
        settlement = await records.settle(GUILD, "all")
        assert settlement.unit == "money" and cleared(settlement)


async def test_settle_up_clears_the_period_in_money_or_in_points(tmp_path):
    async with Database.open(tmp_path / "settle.sqlite3") as db:
        clock = ManualClock(T0)
        records, _ = await books(db, clock)
        clock.set(T0 + 9 * DAY)
        week1 = await records.settle(GUILD, "last week")
        assert week1.unit == "money"
        assert [(p.payer, p.payee, p.amount) for p in week1.payments] == [(BEN, ANN, 5)]
        week2 = await records.settle(GUILD, "week")
        assert len(week2.payments) == 2 and cleared(week2)  # {Ann, Ben} and {Cy, Dee} settle apart
        assert {p.amount for p in week2.payments} == {2}
        clock.set(T0 + 31 * DAY)
        april = await records.settle(GUILD, "month")  # M2 had no stake: settle in points
        assert april.unit == "points"
        assert [(p.payer, p.payee, p.amount) for p in april.payments] == [(CY, DEE, 3)]
        assert cleared(await records.settle(GUILD, "all"))


# -- sheets ----------------------------------------------------------------------------------------------------------
async def test_sheet_of_a_money_session_has_a_row_per_game_and_the_correction(tmp_path):
    async with Database.open(tmp_path / "sheet.sqlite3") as db:
        clock = ManualClock(T0)
        records, ids = await books(db, clock)
        sheet = await records.sheet(GUILD, f"money:{ids['M1']}")
        assert sheet.members == (ANN, BEN) and sheet.title == f"Money session {ids['M1']}: Ann v Ben"
        assert [row.label for row in sheet.rows] == ["1", "2", "3", "correction 1"]
        assert [row.points[ANN] for row in sheet.rows] == [2, -4, 1, 1]
        assert [row.money[BEN] for row in sheet.rows] == [-10, 20, -5, -10]
        assert [row.note for row in sheet.rows] == ["gammon", "double dropped, cube 4", "single", "stake misread"]
        assert all(sum(row.points.values()) == 0 and sum(row.money.values()) == 0 for row in sheet.rows)
        assert sheet.totals() == {ANN: 0, BEN: 0} and sheet.totals("money") == {ANN: 5, BEN: -5}
        ledger = await records.ledger(GUILD, "session", session=SessionRef("money", ids["M1"]))
        assert sheet.totals("money") == ledger.balances("money")
        chouette = await records.sheet(GUILD, f"chouette:{ids['S']}")
        assert chouette.members == (ANN, BEN, CY, DEE) and chouette.games == 2
        assert chouette.totals("money") == {ANN: -2, BEN: 2, CY: 2, DEE: -2}
        latest = await records.sheet(GUILD, member=ANN)  # his latest session: the chouette
        assert latest.session == SessionRef("chouette", ids["S"])
        assert (await records.sheet(GUILD)).session == SessionRef("money", ids["M2"])  # the club's latest
        with pytest.raises(UnknownGameError, match="no match 999"):
            await records.sheet(GUILD, "match:999")
        with pytest.raises(InvalidRequestError, match="money:ID"):
            await records.sheet(GUILD, "table 4")


# -- statistics and leaderboards -----------------------------------------------------------------------------------
async def test_member_statistics_count_games_gammons_cubes_and_chouettes(tmp_path):
    async with Database.open(tmp_path / "stats.sqlite3") as db:
        records, _ = await books(db, ManualClock(T0))
        ann = await records.stats(GUILD, ANN)
        assert (ann.games, ann.wins, ann.losses, ann.gammons, ann.backgammons, ann.gammons_lost) == (3, 2, 1, 1, 0, 0)
        assert ann.average_cube == pytest.approx((1 + 4 + 1) / 3)
        assert (ann.money_points, ann.money) == (-1, -5)
        assert (ann.chouette_games, ann.chouette_wins, ann.chouette_points, ann.chouette_money) == (2, 1, -1, -2)
        assert ann.rating.rating == 1500 and ann.rating.matches == 0
        cy = await records.stats(GUILD, CY)
        assert (cy.games, cy.wins) == (5, 2) and cy.rating.wins == 1
        assert cy.rating.rating == pytest.approx(1500 + 10 * 3**0.5)  # 4 × 5 × √3 × ½
        with pytest.raises(UnknownMemberError):
            await records.stats(GUILD, 4242)


async def test_leaderboards_rank_money_chouettes_and_ratings_with_shared_ranks(tmp_path):
    async with Database.open(tmp_path / "boards.sqlite3") as db:
        records, _ = await books(db, ManualClock(T0 + 40 * DAY))
        money = await records.leaderboard(GUILD, "money")
        assert money.headings == ("money", "points", "games")
        assert [(r.rank, r.name, r.values[0]) for r in money.rows] == [
            (1, "Ann", 3), (2, "Cy", 2), (3, "Dee", -2), (4, "Ben", -3)
        ]  # fmt: skip
        chouette = await records.leaderboard(GUILD, "chouette")
        assert [(r.rank, r.name) for r in chouette.rows] == [(1, "Ben"), (1, "Cy"), (3, "Ann"), (3, "Dee")]
        matches = await records.leaderboard(GUILD, "matches")
        assert [r.name for r in matches.rows] == ["Cy", "Ben"]
        with pytest.raises(InvalidRequestError, match="money, matches, chouette"):
            await records.leaderboard(GUILD, "darts")


# -- corrections -----------------------------------------------------------------------------------------------------
async def test_corrections_keep_the_audit_trail_and_refuse_bad_input_without_writing(tmp_path):
    path = tmp_path / "corrections.sqlite3"
    async with Database.open(path) as db:
        clock = ManualClock(T0)
        records, ids = await books(db, clock)
        trail = await records.corrections(GUILD, "all")
        assert [(c.admin_id, c.payer, c.payee, c.points, c.money, c.reason, c.at, c.counts_at) for c in trail] == [
            (ADMIN, BEN, ANN, 1, 10, "stake misread", T0 + 5 * HOUR, T0 + 4 * HOUR)
        ]
        assert (trail[0].source, trail[0].source_id) == ("money", ids["M1"])
        before = snapshot(path)
        bad = [
            ({"points": 1, "reason": "   "}, InvalidRequestError, "reason"),
            ({"points": 0, "money": 0, "reason": "x"}, InvalidRequestError, "some points or money"),
            ({"points": -2, "reason": "x"}, InvalidRequestError, "points is a whole number"),
            ({"money": 1.5, "reason": "x"}, InvalidRequestError, "money is a whole number"),
            ({"points": 1, "reason": "x" * 501}, InvalidRequestError, "at most 500"),
            ({"points": 1, "reason": "x", "session": "match:999"}, UnknownGameError, "no match 999"),
            ({"points": 1, "reason": "x", "counts_at": float("nan")}, InvalidRequestError, "counts_at"),
        ]
        for kwargs, error, words in bad:
            with pytest.raises(error, match=words):
                await records.correct(GUILD, ADMIN, BEN, ANN, **kwargs)
        with pytest.raises(InvalidRequestError, match="two members"):
            await records.correct(GUILD, ADMIN, BEN, BEN, points=1, reason="x")
        with pytest.raises(UnknownMemberError):
            await records.correct(GUILD, ADMIN, BEN, 4242, points=1, reason="x")
        with pytest.raises(InvalidRequestError, match="no club"):
            await records.correct(GUILD + 1, ADMIN, BEN, ANN, points=1, reason="x")
        assert snapshot(path) == before
        with pytest.raises(ConstraintError, match="audit trail"):
            await db._fetchall("UPDATE corrections SET points = 0")
        with pytest.raises(ConstraintError, match="audit trail"):
            await db._fetchall("DELETE FROM corrections")
        undo = await records.correct(GUILD, ADMIN, ANN, BEN, points=1, money=10, reason="undo #1: it was right")
        assert undo.id == 2 and (await records.ledger(GUILD, "all")).is_zero_sum()


@pytest.mark.sqlite_only
async def test_a_version_2_file_gains_the_corrections_table(tmp_path):
    """A version 2 file (every later table and index dropped) climbs every migration to :data:`SCHEMA_VERSION`; version 3
    adds the corrections audit trail (storage.migrations)."""
    path = tmp_path / "v2.sqlite3"
    async with Database.open(path):
        pass
    conn = sqlite3.connect(path)
    conn.executescript(
        "ALTER TABLE deadlines DROP COLUMN marked_at; ALTER TABLE chouette_deadlines DROP COLUMN marked_at; "
        "DROP TABLE notices; DROP TABLE quiz_screens; DROP TABLE quiz_answers; DROP TABLE quizzes; DROP TABLE event_matches; DROP TABLE event_actions; DROP TABLE events; "
        "DROP TABLE reply_tallies; DROP TABLE chouette_sheet; DROP TABLE match_prs; DROP TABLE dm_channels; DROP TABLE corrections; DROP TABLE tallies; DROP TABLE tally_totals; DROP TABLE mat_files; "
        "DROP INDEX actions_member; DROP INDEX games_ended; DROP INDEX matches_finished; PRAGMA user_version = 2;"
    )
    conn.close()
    async with Database.open(path) as db:
        assert await db.user_version() == SCHEMA_VERSION
        records, _ = await books(db, ManualClock(T0))
        assert len(await records.corrections(GUILD)) == 1
        assert await db.integrity_check() == ["ok"]


# -- periods -------------------------------------------------------------------------------------------------------
def test_periods_parse_and_cut_weeks_and_months_in_the_club_time_zone():
    assert parse_period(None) == ("week", 0) and parse_period("Last Week") == ("week", 1)
    assert parse_period("today") == ("day", 0) and parse_period("all time") == ("all", 0)
    assert parse_period("previous month") == ("month", 1) and parse_period("session") == ("session", 0)
    for bad in ("fortnight", "last all", "last session"):
        with pytest.raises(InvalidRequestError, match="session, day, week, month or all"):
            parse_period(bad)
    sunday_night = T0 + 6 * DAY + 23 * HOUR  # Sunday 2024-03-10 23:00 UTC
    week = period_at("week", sunday_night)
    assert (week.start, week.end) == (T0, T0 + 7 * DAY)
    new_york_winter = timezone(timedelta(hours=-5))
    local = period_at("week", T0 + 2 * HOUR, tz=new_york_winter)  # still Sunday evening in New York
    assert datetime.fromtimestamp(local.start, UTC) == datetime(2024, 2, 26, 5, tzinfo=UTC)
    january = period_at("month", T0, offset=2)
    assert january.label == "January 2024" and january.end - january.start == 31 * DAY
    assert period_at("month", datetime(2024, 1, 15, tzinfo=UTC).timestamp(), offset=1).label == "December 2023"
    with pytest.raises(InvalidRequestError):
        period_at("week", T0, offset=-1)


async def test_a_chouette_played_through_the_club_enters_the_ledger_and_sheet(tmp_path):
    """RULES A3, C11: the chouette's own sheet (club.chouette) and the club ledger agree, point for point, at the
    session's stake."""
    from tests.chouette_clubkit import ANN as C_ANN
    from tests.chouette_clubkit import GUILD as C_GUILD
    from tests.chouette_clubkit import chouettes, decide_randomly, seated

    rng = random.Random(1)
    async with chouettes(tmp_path / "chouette.sqlite3") as service:
        outcome = await seated(service, stake=3)
        for _ in range(3000):
            if outcome.view.game_number >= 2:
                break
            outcome = await decide_randomly(service, outcome, rng, double=0.2)
        own = await service.sheet(outcome.view.session_id)
        assert len(own.rows) == 1
        records = ClubRecords(service.club)
        ledger = await records.ledger(C_GUILD, "all")
        assert ledger.balances("points") == own.totals
        assert ledger.balances("money") == {m: 3 * p for m, p in ledger.balances("points").items()}
        sheet = await records.sheet(C_GUILD, member=C_ANN)
        assert sheet.session == SessionRef("chouette", outcome.view.session_id)
        assert sheet.totals() == own.totals and ledger.is_zero_sum()


async def test_the_books_in_words(tmp_path):
    from club.records import texts

    async with Database.open(tmp_path / "words.sqlite3") as db:
        clock = ManualClock(T0)
        records, ids = await books(db, clock)
        clock.set(T0 + 9 * DAY)
        week1 = await records.settle(GUILD, "last week")
        assert texts.settlement_text(week1).splitlines()[1:] == ["Ben pays Ann 5", "1 payment clears 2 balances."]
        assert "Everybody is square" in texts.settlement_text(await records.settle(GUILD, "last month"))
        ledger = texts.ledger_text(await records.ledger(GUILD, "last week"))
        assert "Ann: 0 pts, +5 (3 games)" in ledger and "Ben: −2 pts, −5 (6 games)" in ledger
        rating, rank, rated = await records.rating(GUILD, CY)
        assert texts.rating_text("Cy", rating, rank, rated).startswith("**Cy**: rating 1517.32, #1 of 2")
        stats = texts.stats_text(await records.stats(GUILD, ANN))
        assert "Games 3: won 2 (67%), gammons won 1" in stats and "average cube 2.00" in stats
        assert "Chouettes: 2 games, 1 won, −1 pts, −2 at the stakes" in stats
        board = texts.leaderboard_text(await records.leaderboard(GUILD, "chouette"))
        assert board.splitlines()[1] == "1. Ben — +1 pts, +2, games 2"
        sheet = texts.sheet_text(await records.sheet(GUILD, f"money:{ids['M1']}"))
        assert sheet.endswith("Ann +5, Ben −5")
        trail = (await records.corrections(GUILD))[0]
        assert texts.correction_text(trail, NAMES) == (
            f"Correction #1: Ben gives Ann 1 point and 10 at the stakes (money:{ids['M1']}), counted 2024-03-04 04:00 "
            "UTC. Reason: stake misread — recorded by Admin."
        )
