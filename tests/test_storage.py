"""storage/: schema and migrations, WAL, foreign keys, conditional commits, the append-only log, queries, backup.

Real SQLite files in temporary folders. The use-case layer (club/) is tested in test_club*.py.
"""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import storage.migrations as migrations
from storage import (
    Commit,
    ConstraintError,
    Database,
    DeadlineWrite,
    DuplicateError,
    GameWrite,
    MatchWrite,
    NewAction,
    OperationFailedError,
    SchemaError,
    StorageError,
    VersionConflictError,
    backup_file,
    check_file,
)
from storage.__main__ import main as storage_main

pytestmark = [pytest.mark.asyncio, pytest.mark.backends]

NOW = 1_700_000_000.0


def snapshot(path) -> dict[str, list[tuple]]:
    """Every row of every table, read with a separate plain sqlite3 connection (byte-for-byte comparisons); in the
    ``[postgresql]`` copy, of the database standing for ``path`` (tests/pgkit.py)."""
    from tests import pgkit

    url = pgkit.ROUTES.get(str(path.resolve()))
    if url is not None:
        return pgkit.snapshot_rows(url)
    conn = sqlite3.connect(path)
    try:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall() for table in tables}
    except sqlite3.OperationalError:  # WITHOUT ROWID tables
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in tables}
    finally:
        conn.close()


async def make_match(db: Database, *, players=(1, 2), status="active", waiting_for=2) -> int:
    club = await db.ensure_club(99, NOW, name="test club")
    for user in players:
        await db.ensure_member(user, f"member {user}", NOW, club_id=club.id)
    record = await db.create_match(
        club_id=club.id,
        kind="match",
        length=5,
        players=players,
        rules={"name": "tournament"},
        stake=0,
        match=MatchWrite(status, {"n": 0}, 0, waiting_for, "answer_challenge", 0, 0),
        action=NewAction("challenge", side=0, member_id=players[0], args={"length": 5}),
        deadline=DeadlineWrite(waiting_for, "answer_challenge", NOW + 100, (NOW + 50,)),
        now=NOW,
    )
    return record.id


async def start_game(db: Database, match_id: int) -> int:
    """Insert game 1 of the match with a first logged action; returns the new match version (2)."""
    game = GameWrite(1, {"g": 0}, 1, "playing", 0, dice="injected")
    return await db.commit(commit_for(match_id, 1, n=0, game=game))


def commit_for(match_id: int, version: int, *, n: int, game: GameWrite | None = None, waiting_for=1) -> Commit:
    return Commit(
        match_id=match_id,
        expected_version=version,
        now=NOW + n,
        actions=[NewAction("roll", side=0, member_id=1, game_number=1, dice=(3, 1), roll_index=n)],
        match=MatchWrite("active", {"n": n}, 1, waiting_for, "play", n, 0),
        games=[game] if game else [],
        deadline=DeadlineWrite(waiting_for, "play", NOW + 1000 + n),
    )


@pytest.mark.sqlite_only
async def test_new_file_gets_schema_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        assert await db.user_version() == migrations.SCHEMA_VERSION
        assert await db.integrity_check() == ["ok"]
        journal = await db._fetchone("PRAGMA journal_mode")
        assert journal[0] == "wal"
        fk = await db._fetchone("PRAGMA foreign_keys")
        assert fk[0] == 1
        # a foreign key is enforced: a match of an unknown club is refused
        with pytest.raises(ConstraintError):
            await db.create_match(
                club_id=12345,
                kind="match",
                length=3,
                players=(1, 2),
                rules={},
                stake=0,
                match=MatchWrite("challenged", {}, 0, 2, "answer_challenge", 0, 0),
                action=NewAction("challenge"),
                deadline=None,
                now=NOW,
            )
    assert set(snapshot(path)) >= {"clubs", "members", "matches", "games", "actions", "messages", "deadlines"}


async def test_open_is_awaitable_and_reopen_keeps_data(tmp_path):
    path = tmp_path / "club.sqlite"
    db = await Database.open(path)
    try:
        match_id = await make_match(db)
    finally:
        await db.close()
    async with Database.open(path) as db:
        loaded = await db.load(match_id)
        assert loaded is not None
        match, game, deadline = loaded
        assert match.players == (1, 2) and match.version == 1 and game is None
        assert deadline.due_at == NOW + 100 and deadline.reminders == (NOW + 50,) and deadline.next_at == NOW + 50


@pytest.mark.sqlite_only
async def test_migrations_run_in_order_and_record_user_version(tmp_path, monkeypatch):
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        await make_match(db)
    base = migrations.SCHEMA_VERSION  # two made-up steps on top of the current schema
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", base + 2)
    monkeypatch.setattr(
        migrations,
        "MIGRATIONS",
        [
            *migrations.MIGRATIONS,
            (base + 1, "ALTER TABLE members ADD COLUMN rating REAL NOT NULL DEFAULT 1500;"),
            (base + 2, "CREATE TABLE ratings (user_id INTEGER PRIMARY KEY REFERENCES members (user_id));"),
        ],
    )
    import storage.database as database_module

    monkeypatch.setattr(database_module, "SCHEMA_VERSION", base + 2)
    monkeypatch.setattr(database_module, "MIGRATIONS", migrations.MIGRATIONS)
    async with Database.open(path) as db:
        assert await db.user_version() == base + 2
        rows = await db._fetchall("SELECT rating FROM members ORDER BY user_id")
        assert [row[0] for row in rows] == [1500.0, 1500.0]
        assert await db.integrity_check() == ["ok"]


@pytest.mark.sqlite_only
async def test_newer_or_foreign_files_are_refused(tmp_path):
    newer = tmp_path / "newer.sqlite"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {migrations.SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaError, match="newer"):
        await Database.open(newer)
    foreign = tmp_path / "foreign.sqlite"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.close()
    with pytest.raises(SchemaError, match="not a club database"):
        async with Database.open(foreign):
            pass
    with pytest.raises(ValueError):
        Database.open(tmp_path / "x.sqlite", synchronous="sometimes")


async def test_commit_appends_and_updates_only_at_the_expected_version(tmp_path):
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        match_id = await make_match(db)
        game = GameWrite(1, {"g": 1}, 1, "playing", 1, dice="fair", seed_hash="ab" * 32, seed="cd" * 32)
        version = await db.commit(commit_for(match_id, 1, n=1, game=game))
        assert version == 2
        before = snapshot(path)
        # a writer that read version 1 is refused and nothing changes
        with pytest.raises(VersionConflictError) as caught:
            await db.commit(commit_for(match_id, 1, n=9))
        assert caught.value.expected == 1 and caught.value.actual == 2
        assert snapshot(path) == before
        # the game row is updated only at its own version too
        stale_game = GameWrite(1, {"g": 2}, 3, "playing", 2, expected_version=7)
        with pytest.raises(VersionConflictError):
            await db.commit(commit_for(match_id, 2, n=2, game=stale_game))
        assert snapshot(path) == before
        good_game = GameWrite(
            1, {"g": 2}, 2, "over", 2, expected_version=1, seed_revealed=True, result={"w": 0}, ended=True
        )
        assert await db.commit(commit_for(match_id, 2, n=2, game=good_game)) == 3
        match, current, deadline = await db.load(match_id)
        assert match.version == 3 and match.state == {"n": 2} and match.waiting_for == 1
        assert current.state == {"g": 2} and current.status == "over" and current.seed_revealed
        assert current.result == {"w": 0} and current.ended_at == NOW + 2
        assert deadline.version == 3 and deadline.due_at == NOW + 1002
        log = await db.actions(match_id)
        assert [a.seq for a in log] == [1, 2, 3]
        assert [a.kind for a in log] == ["challenge", "roll", "roll"]
        assert log[1].dice == (3, 1) and log[1].roll_index == 1 and log[1].game_number == 1
        assert [a.seq for a in await db.actions(match_id, 1)] == [2, 3]
        with pytest.raises(ValueError, match="at least one action"):
            await db.commit(Commit(match_id, 3, NOW, [], MatchWrite("active", {}, 1, None, None, 0, 0)))


@pytest.mark.sqlite_only
async def test_action_log_is_append_only(tmp_path):
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        match_id = await make_match(db)
    conn = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE actions SET kind = 'forged' WHERE match_id = ?", (match_id,))
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM actions")
    finally:
        conn.close()


async def test_a_failing_transaction_writes_nothing(tmp_path):
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        match_id = await make_match(db)
        before = snapshot(path)
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute("UPDATE matches SET pending = 'x' WHERE id = ?", (match_id,))
                raise RuntimeError("boom")
        # an action naming a game that does not exist violates the (match, game) foreign key: nothing is written
        bad = Commit(match_id, 1, NOW, [NewAction("roll", game_number=7)], MatchWrite("active", {}, 7, 1, "x", 0, 0))
        with pytest.raises(ConstraintError):
            await db.commit(bad)
        assert snapshot(path) == before


async def test_errors_are_storage_s_own_on_both_backends(tmp_path):
    """A refused write and a failed statement raise :mod:`storage.errors`' classes, never ``sqlite3``'s or
    ``asyncpg``'s: a second row under a unique key :class:`DuplicateError` (a :class:`ConstraintError`), an
    append-only log's trigger :class:`ConstraintError`, a statement the database cannot run
    :class:`OperationFailedError`; each a :class:`StorageError`, with the database's words, and nothing written."""
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        match_id = await make_match(db)
        club = await db.ensure_club(4242, NOW)
        before = snapshot(path)
        with pytest.raises(DuplicateError) as duplicate:
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO clubs (guild_id, name, settings, created_at, updated_at) VALUES (?, '', '{}', ?, ?)",
                    (club.guild_id, NOW, NOW),
                )
        with pytest.raises(ConstraintError, match="append-only") as refused:
            async with db.transaction() as tx:
                await tx.execute("DELETE FROM actions WHERE match_id = ?", (match_id,))
        with pytest.raises(OperationFailedError) as failed:
            await db._fetchall("SELECT * FROM no_such_table")
        for error in (duplicate.value, refused.value, failed.value):
            assert isinstance(error, StorageError) and str(error)
            assert type(error).__module__ == "storage.errors" and not isinstance(error, sqlite3.Error)
        assert isinstance(duplicate.value, ConstraintError) and not isinstance(refused.value, DuplicateError)
        assert snapshot(path) == before


async def test_concurrent_commits_at_one_version_apply_once(tmp_path):
    """Two connections (two bot processes) commit from the same version: exactly one wins."""
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db1, Database.open(path) as db2:
        match_id = await make_match(db1)
        await start_game(db1, match_id)
        for round_number in range(30):
            version = (await db1.get_match(match_id)).version
            results = await asyncio.gather(
                db1.commit(commit_for(match_id, version, n=round_number)),
                db2.commit(commit_for(match_id, version, n=round_number)),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["VersionConflictError", "int"]
        assert [a.seq for a in await db2.actions(match_id)] == list(range(1, 33))


async def test_queries_waiting_for_history_members_messages(tmp_path):
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        first = await make_match(db, players=(1, 2), waiting_for=2)
        second = await make_match(db, players=(3, 1), waiting_for=1)
        third = await make_match(db, players=(2, 3), waiting_for=3)
        assert [m.id for m in await db.waiting_for(1)] == [second]
        assert [m.id for m in await db.waiting_for(2)] == [first]
        assert (await db.waiting_for(2))[0].due_at == NOW + 100
        assert sorted(m.id for m in await db.matches_of(1)) == [first, second]
        assert [m.id for m in await db.matches_of(3, statuses=["active"])] == [third, second]
        assert await db.matches_of(3, statuses=["over"]) == []
        assert await db.match_ids() == [first, second, third]
        club = await db.get_club(99)
        assert club.name == "test club" and await db.is_club_member(club.id, 3)
        assert not await db.is_club_member(club.id, 4)
        member = await db.ensure_member(1, "renamed", NOW + 5)
        assert member.display_name == "renamed" and member.updated_at == NOW + 5
        assert await db.set_preferences(1, {"auto_roll": False}, NOW + 6)
        assert (await db.get_member(1)).preferences == {"auto_roll": False}
        assert not await db.set_preferences(404, {}, NOW)
        assert set(await db.get_members([1, 2, 404])) == {1, 2}
        assert await db.set_club_settings(99, {"move_time": 3600}, NOW)
        assert (await db.get_club(99)).settings == {"move_time": 3600}
        message = await db.add_message(first, channel_id=10, message_id=20, now=NOW, game_number=None)
        assert (await db.message(10, 20)).match_id == first == message.match_id
        await db.add_message(first, 10, 21, NOW, purpose="result")
        assert [m.message_id for m in await db.messages(first)] == [20, 21]
        assert [m.message_id for m in await db.messages(first, purpose="result")] == [21]


async def test_deadlines_due_and_marked_only_for_their_version(tmp_path):
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        match_id = await make_match(db)
        assert await db.due_deadlines(NOW + 49) == []
        assert await db.next_deadline_at() == NOW + 50
        due = await db.due_deadlines(NOW + 50)
        assert [d.match_id for d in due] == [match_id]
        assert not await db.mark_deadline(match_id, 5, reminders=(), reminders_sent=1, expired_at=None, next_at=NOW)
        assert await db.mark_deadline(match_id, 1, reminders=(), reminders_sent=1, expired_at=None, next_at=NOW + 100)
        assert await db.due_deadlines(NOW + 99) == []
        deadline = await db.get_deadline(match_id)
        assert deadline.reminders_sent == 1 and deadline.reminders == ()


@pytest.mark.sqlite_only
async def test_online_backup_while_writing_and_cli(tmp_path, capsys):
    path = tmp_path / "club.sqlite"
    copy = tmp_path / "copy.sqlite"
    async with Database.open(path) as db:
        match_id = await make_match(db)

        async def writer():
            version = await start_game(db, match_id)
            for n in range(40):
                version = await db.commit(commit_for(match_id, version, n=n))

        await asyncio.gather(writer(), db.backup(copy))
        async with Database.open(copy) as restored:
            assert await restored.integrity_check() == ["ok"]
            copied = await restored.get_match(match_id)
            assert 2 <= copied.version <= 42
            assert len(await restored.actions(match_id)) == copied.version
    second = tmp_path / "second.sqlite"
    assert await backup_file(path, second) == second
    assert await check_file(second) == ["ok"]
    with pytest.raises(FileNotFoundError):
        await backup_file(tmp_path / "missing.sqlite", tmp_path / "never.sqlite")
    assert not (tmp_path / "never.sqlite").exists()


@pytest.mark.sqlite_only
async def test_storage_command_line(tmp_path, capsys):
    path = tmp_path / "club.sqlite"
    async with Database.open(path) as db:
        await make_match(db)
    third = tmp_path / "third.sqlite"
    assert await asyncio.to_thread(storage_main, ["backup", str(path), str(third)]) == 0
    assert await asyncio.to_thread(storage_main, ["check", str(third)]) == 0
    assert capsys.readouterr().out.strip().endswith("ok")
    assert snapshot(third)["matches"] == snapshot(path)["matches"]
    assert await asyncio.to_thread(storage_main, ["check", str(tmp_path / "nothing.sqlite")]) == 1


async def test_latest_time_is_the_newest_time_a_clock_stored(tmp_path):
    """Store.latest_time (where a restarted console clock starts): None for an empty database; then the newest of
    the matches' and the chouettes' logged actions, a deadline's recorded reminder or expiry (``marked_at``, which
    logs nothing), and the clubs' and members' updated_at."""
    from storage.chouettes import ChouetteCommit, ChouetteStore, DeadlineRow, NewChouetteAction
    from tests.bookkit import store_chouette

    async with Database.open(tmp_path / "club.sqlite") as db:
        assert await db.store.latest_time() is None
        match_id = await make_match(db)
        assert await db.store.latest_time() == NOW
        await start_game(db, match_id)
        await db.commit(commit_for(match_id, 2, n=30))
        assert await db.store.latest_time() == NOW + 30
        # a reminder sent at NOW + 40 logs no action: its time is kept on the deadline
        assert await db.mark_deadline(match_id, 3, reminders=(), reminders_sent=1, expired_at=None, next_at=NOW + 1030,
                                      at=NOW + 40)  # fmt: skip
        assert await db.store.latest_time() == NOW + 40
        # an expiry under the "nothing" policy: its time is the deadline's expired_at
        assert await db.mark_deadline(match_id, 3, reminders=(), reminders_sent=1, expired_at=NOW + 1030, next_at=None)
        assert await db.store.latest_time() == NOW + 1030
        club = await db.get_club(99)
        session = await store_chouette(db, club.id, 1, [({1: 2, 2: -2}, NOW + 2000)], close=False)
        assert await db.store.latest_time() == NOW + 2000
        chouettes = ChouetteStore(db)
        version = (await chouettes.get(session)).version
        row = DeadlineRow(1, 1, "roll", "member", "2.1", version + 1, NOW + 2100, NOW + 9000, (NOW + 5000,))
        await chouettes.commit(
            ChouetteCommit(
                session, version, NOW + 2100, [NewChouetteAction("roll", member_id=1)], "open", {}, 1, deadlines=[row]
            )  # fmt: skip
        )
        assert await db.store.latest_time() == NOW + 2100
        (deadline,) = await chouettes.deadlines(session)
        assert await chouettes.mark_deadline(deadline, reminders=(), reminders_sent=1, expired_at=None, at=NOW + 5000)
        assert await db.store.latest_time() == NOW + 5000
        assert await db.set_preferences(1, {"autoroll": 0}, NOW + 6000)
        assert await db.store.latest_time() == NOW + 6000
        assert await db.set_club_settings(99, {"move_time": 3600}, NOW + 7000)
        assert await db.store.latest_time() == NOW + 7000
        await db.commit(commit_for(match_id, 3, n=10))  # the newest action is older than the club's settings
        assert await db.store.latest_time() == NOW + 7000


async def test_the_notices_outbox_posts_each_once_and_keeps_a_week(tmp_path):
    """storage.notices: a notice recorded twice is one pending row; posted, it is no longer pending; a review's
    row is apart from the notices'; a row posted more than a week before the latest post is dropped."""
    from storage import notices

    async with Database.open(tmp_path / "club.sqlite3") as db:
        await notices.record(db, "a", {"text": "one"}, 10.0)
        await notices.record(db, "a", {"text": "one again"}, 11.0)
        await notices.record(db, f"{notices.REVIEW}7", {"match_id": 7}, 12.0)
        [row] = await notices.pending(db)
        assert (row.key, row.body) == ("a", {"text": "one"})
        assert [r.key for r in await notices.pending(db, prefix=notices.REVIEW)] == ["review:7"]
        await notices.posted(db, row.id, 100.0)
        assert await notices.pending(db) == []
        await notices.record(db, "b", {"text": "two"}, 200.0)
        [later] = await notices.pending(db)
        await notices.posted(db, later.id, 100.0 + notices.KEEP_SECONDS + 1)
        keys = [r[0] for r in await db._fetchall("SELECT key FROM notices ORDER BY id")]
        assert keys == ["review:7", "b"]
