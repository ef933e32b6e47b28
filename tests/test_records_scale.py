"""The running totals of the books (storage.tallies): kept when each game ends, they give the same
ledger as summing every stored game, for any period, even when games end out of time order."""

from __future__ import annotations

import json
import random

import pytest

from storage import Database, MatchWrite, NewAction, books, tallies
from tests.bookkit import store_chouette, store_table

pytestmark = pytest.mark.backends

MEMBERS = [101, 102, 103, 104, 105, 106]


async def scanned_ledger(
    db: Database, club_id: int, low: float, high: float
) -> dict[tuple[int, str], tuple[int, int, int]]:
    """The ledger of ``[low, high)`` by reading every finished game and chouette result (what the tallies replace)."""
    totals: dict[tuple[int, str], list[int]] = {}

    def add(member, kind, points, money):
        entry = totals.setdefault((member, kind), [0, 0, 0])
        entry[0] += points
        entry[1] += money
        entry[2] += 1

    rows = await db._fetchall(
        "SELECT m.kind, m.player0, m.player1, m.stake, g.result FROM games g JOIN matches m ON m.id = g.match_id "
        "WHERE m.club_id = ? AND g.status = 'over' AND g.ended_at >= ? AND g.ended_at < ?",
        (club_id, low, high),
    )
    for kind, player0, player1, stake, text in rows:
        result = json.loads(text)
        for side, member in enumerate((player0, player1)):
            points = result["points"] if result["winner"] == side else -result["points"]
            add(member, kind, points, points * stake)
    rows = await db._fetchall(
        "SELECT r.member_id, r.points, r.stake FROM chouette_results r JOIN chouette_sessions s ON s.id = r.session_id "
        "WHERE s.club_id = ? AND r.at >= ? AND r.at < ?",
        (club_id, low, high),
    )
    for member, points, stake in rows:
        add(member, "chouette", points, points * stake)
    return {key: tuple(value) for key, value in totals.items()}


async def fill(db: Database, rng: random.Random) -> int:
    """Money sessions, matches and chouettes whose games end at random times (out of order); returns the club id."""
    club = await db.ensure_club(1, 0.0)
    for member in MEMBERS:
        await db.ensure_member(member, f"M{member}", 0.0, club_id=club.id)
    for _ in range(25):
        kind = rng.choice(["money", "match", "chouette"])
        at = rng.uniform(1000, 100_000)
        if kind == "chouette":
            players = rng.sample(MEMBERS, 4)
            rows = []
            for n in range(rng.randint(1, 4)):
                points = {m: rng.choice([-2, -1, 1, 2]) for m in players[1:]}
                points[players[0]] = -sum(points.values())
                rows.append((points, at + 100 * n))
            await store_chouette(db, club.id, players[0], rows, stake=rng.choice([1, 3]))
            continue
        players = tuple(rng.sample(MEMBERS, 2))
        games = [(rng.randint(0, 1), rng.choice([1, 2, 4]), at + 50 * n) for n in range(rng.randint(1, 5))]
        await store_table(db, club.id, players, games, length=0 if kind == "money" else 7, stake=rng.choice([0, 5]))
    return club.id


def as_dict(totals) -> dict[tuple[int, str], tuple[int, int, int]]:
    return {(t.member, t.kind): (t.points, t.money, t.entries) for t in totals if t.kind != "correction"}


async def test_tallies_give_the_scanned_ledger_for_every_period_even_out_of_order(tmp_path):
    """Games written in random time order: the ledger of 40 random periods (and all time) from the running totals
    equals the sum over every stored game; a rebuild from the record writes the same running totals."""
    path = tmp_path / "t.sqlite3"
    rng = random.Random(4)
    async with Database.open(path) as db:
        club_id = await fill(db, rng)
        periods = [(float("-inf"), float("inf"))] + [
            sorted(rng.uniform(0, 110_000) for _ in range(2)) for _ in range(40)
        ]
        for low, high in periods:
            got = as_dict(await books.ledger_totals(db, club_id, start=low, end=high))
            assert got == await scanned_ledger(db, club_id, low, high), (low, high)
        before = await db._fetchall("SELECT member_id, kind, source_id, game_number, points_run, money_run, "
                                    "entries_run FROM tallies ORDER BY kind, source_id, game_number, member_id")  # fmt: skip
        totals = await db._fetchall("SELECT * FROM tally_totals ORDER BY 1, 2, 3")
        await tallies.rebuild(db)
        after = await db._fetchall("SELECT member_id, kind, source_id, game_number, points_run, money_run, "
                                   "entries_run FROM tallies ORDER BY kind, source_id, game_number, member_id")  # fmt: skip
        assert [tuple(r) for r in after] == [tuple(r) for r in before] and len(before) > 100
        assert [tuple(r) for r in await db._fetchall("SELECT * FROM tally_totals ORDER BY 1, 2, 3")] == [
            tuple(r) for r in totals
        ]


async def test_a_session_ledger_and_a_game_tallied_once(tmp_path):
    """A session's ledger (source) sums only its games; committing the finished game again adds nothing."""
    path = tmp_path / "s.sqlite3"
    async with Database.open(path) as db:
        club = await db.ensure_club(1, 0.0)
        for member in MEMBERS[:3]:
            await db.ensure_member(member, f"M{member}", 0.0, club_id=club.id)
        first = await store_table(db, club.id, (101, 102), [(0, 2, 10.0), (1, 1, 20.0)], stake=5)
        await store_table(db, club.id, (101, 103), [(0, 4, 30.0)], stake=1)
        got = as_dict(await books.ledger_totals(db, club.id, source=("money", first)))
        assert got == {(101, "money"): (1, 5, 2), (102, "money"): (-1, -5, 2)}
        async with db.transaction() as tx:
            await tallies.record_game(tx, first, 1)
        assert (await db._fetchone("SELECT count(*) FROM tallies"))[0] == 6


async def test_ratings_kept_incrementally_equal_ratings_from_scratch(tmp_path):
    """RULES A3 (FIBS ratings): ClubRecords rates only the matches finished since its last call; after more matches
    (one of them ending back in time) its ratings equal those of a fresh ClubRecords that rates every match."""
    from club import ClubService, ManualClock
    from club.records import ClubRecords

    rng = random.Random(9)
    async with Database.open(tmp_path / "r.sqlite3") as db:
        service = ClubService(db, clock=ManualClock(10**6))
        for member in MEMBERS:
            await service.register(1, member, f"M{member}")
        club_id = (await db.get_club(1)).id
        kept = ClubRecords(service)

        async def matches(times):
            for at in times:
                players = tuple(rng.sample(MEMBERS, 2))
                await store_table(db, club_id, players, [(rng.randint(0, 1), 7, at)], length=7)

        await matches([100.0 * n for n in range(1, 6)])
        first = await kept.ratings(1)
        await matches([1000.0, 1100.0])
        assert await kept.ratings(1) == await ClubRecords(service).ratings(1) != first
        await matches([150.0])  # ended before matches already rated
        assert await kept.ratings(1) == await ClubRecords(service).ratings(1)
        assert sum(r.matches for r in (await kept.ratings(1)).values()) == 16


async def test_the_batched_sheets_of_an_export_equal_the_sheets_one_by_one(tmp_path):
    """RULES A3: ClubRecords.sheets (one query for all the sessions of an export) gives each session's sheet exactly
    as ClubRecords.sheet does, with the corrections that name it; an unknown session is left out."""
    from club import ClubService, ManualClock
    from club.records import ClubRecords
    from club.records.periods import SessionRef

    rng = random.Random(5)
    async with Database.open(tmp_path / "b.sqlite3") as db:
        service = ClubService(db, clock=ManualClock(10**6))
        for member in MEMBERS:
            await service.register(1, member, f"M{member}")
        club_id = await fill(db, rng)
        records = ClubRecords(service)
        await records.correct(1, 1, MEMBERS[0], MEMBERS[1], reason="slip", points=2, session="money:1")
        refs = [SessionRef(s.source, s.id) for s in await records.sessions(1, limit=100)]
        assert len(refs) == 25 and club_id
        batched = await records.sheets(1, [*refs, SessionRef("match", 999)])
        assert batched == [await records.sheet(1, ref) for ref in refs]
        assert any(sheet.rows and len(sheet.rows[-1].points) for sheet in batched)


async def logged_replies(db: Database, club_id: int, member: int) -> list[float]:
    """``member``'s reply times read from the action log itself (what ``reply_tallies`` replaces):
    each of his own actions after somebody else's, or the club's, in a match of his."""
    rows = await db._fetchall(
        "SELECT a.at - b.at FROM actions a JOIN matches m ON m.id = a.match_id "
        "JOIN actions b ON b.match_id = a.match_id AND b.seq = a.seq - 1 "
        "WHERE a.member_id = ? AND a.auto = 0 AND m.club_id = ? AND (m.player0 = ? OR m.player1 = ?) "
        "AND (b.member_id IS NULL OR b.member_id <> a.member_id OR b.auto = 1)",
        (member, club_id, member, member),
    )
    return [max(0.0, float(row[0])) for row in rows]  # a clock set back: no negative reply


async def test_reply_times_kept_per_commit_equal_the_log_and_a_rebuild(tmp_path):
    """Matches whose players, the club and auto-steps act at random moments (seconds to days apart, a clock set
    back once): each member's reply count and mean from the histogram equal the log's, the median is within 1/64
    of it, a rebuild from the log writes the same rows, and SQL buckets every value as Python does."""
    import statistics

    from storage import replies
    from storage.records import Commit

    rng = random.Random(8)
    async with Database.open(tmp_path / "r.sqlite3") as db:
        club = await db.ensure_club(1, 0.0)
        for member in MEMBERS:
            await db.ensure_member(member, f"M{member}", 0.0, club_id=club.id)
        now = 1000.0
        for _ in range(6):
            players = tuple(rng.sample(MEMBERS, 2))
            record = await db.create_match(
                club_id=club.id, kind="money", length=0, players=players, rules={}, stake=0,
                match=MatchWrite("active", {}, 0, None, None, 0, 0),
                action=NewAction("challenge", side=0, member_id=players[0]), deadline=None, now=now,
            )  # fmt: skip
            version = record.version
            for _ in range(40):
                now += rng.choice([0.0, 0.4, 7.0, 63.9, 64.0, 1800.0, rng.uniform(1, 400_000), -30.0])
                entries = []
                for _ in range(rng.randint(1, 3)):
                    who = rng.choice([players[0], players[1], None, MEMBERS[-1]])
                    entries.append(NewAction("note", member_id=who, auto=who is not None and rng.random() < 0.2))
                match = MatchWrite("active", {}, 0, None, None, 0, 0)
                version = await db.commit(Commit(record.id, version, now, entries, match, []))
        kept = await db._fetchall("SELECT * FROM reply_tallies ORDER BY 1, 2, 3")
        for member in MEMBERS:
            waits = await logged_replies(db, club.id, member)
            count, mean, median = await replies.summary(db, club.id, member)
            assert count == len(waits)
            if waits:
                assert mean == pytest.approx(statistics.fmean(waits))
                assert abs(median - statistics.median(waits)) <= max(1.0, abs(statistics.median(waits)) / 64)
        assert sum(row[3] for row in kept) > 100
        await tallies.rebuild(db)
        rebuilt = await db._fetchall("SELECT * FROM reply_tallies ORDER BY 1, 2, 3")
        assert [tuple(r[:4]) for r in rebuilt] == [tuple(r[:4]) for r in kept]
        assert [r[4] for r in rebuilt] == pytest.approx([r[4] for r in kept])
        values = [0.0, 0.99, 1.0, 63.999, 64.0, 127.5, 128.0, 3600.0, 3599.9999, 2.0**26, 1e9] + [
            rng.uniform(0, 10 ** rng.randint(1, 8)) for _ in range(300)
        ]
        for value in values:
            sql = replies.bucket_sql("CAST(? AS DOUBLE PRECISION)", db.dialect)
            got = await db._fetchone(f"SELECT {sql}", [value] * sql.count("?"))
            assert got[0] == replies.bucket(value), value


def test_reply_buckets_are_at_most_one_64th_wide_and_bounded():
    """Whole seconds below 64 s, then 1/64 of an octave; at most MAX_BUCKETS of them (storage.replies)."""
    from storage import replies

    assert [replies.bucket(v) for v in (-5.0, 0.0, 0.5, 1.0, 63.9, 64.0, 65.9, 66.0, 128.0, 130.1)] == [
        0, 0, 0, 1, 63, 64, 65, 66, 128, 130,
    ]  # fmt: skip
    rng = random.Random(1)
    for _ in range(2000):
        value = rng.uniform(64, 2.0**26)
        low = replies.bucket(value)
        assert low <= value < low + max(1, low / 64) + 1e-9
    assert len({replies.bucket(2.0 ** (e / 50)) for e in range(0, 2000)}) <= replies.MAX_BUCKETS
