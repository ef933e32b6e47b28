"""PostgreSQL: a real server (tests/pgcluster.py: one throwaway cluster per session, a fresh
database per test). Two bot processes on one database never double-apply an action (the version check) and never
lose one; one process at a time runs the reminder loop (the scheduler's lease, an advisory lock) and another takes
over when it dies. Without PostgreSQL installed these tests are skipped locally and fail in CI (CI=true), where .ci/run
installs Debian's postgresql package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

asyncpg = pytest.importorskip("asyncpg")

import asyncio  # noqa: E402
import random  # noqa: E402

from club import ClubService, ManualClock  # noqa: E402
from club.__main__ import main as club_main  # noqa: E402
from club.records import ClubRecords  # noqa: E402
from club.verify import verify_database  # noqa: E402
from storage import ConstraintError, Database, MatchWrite, NewAction, SchemaError  # noqa: E402
from storage.__main__ import main as storage_main  # noqa: E402
from storage.migrate import compare  # noqa: E402
from storage.pgstore import PgDatabase  # noqa: E402
from storage.records import Commit  # noqa: E402
from tests.casekit import ROOT  # noqa: E402
from tests.clubkit import ALICE, BOB, GUILD, club_service, new_table, play_out, seeded  # noqa: E402

WORKER = (sys.executable, "-m", "tests.pgworker")
"""A bot process of its own (tests/pgworker.py), started in the repository's root (``cwd=ROOT``)."""


def _run_workers(url: str, what: str, amount: float, lead: float = 1.5) -> list[dict]:
    start = time.time() + lead  # both processes start together
    procs = [
        subprocess.Popen(
            [*WORKER, url, name, what, str(amount), str(start)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for name in ("shard0", "shard1")
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


# -- the real store on PostgreSQL (storage.pgstore) -------------------------------------------------------------------
async def test_two_processes_racing_on_the_real_store_never_double_apply_nor_lose_an_action(pg_url):
    """Two bot processes racing through the real store (``Database.open(url)``, :meth:`storage.Database.commit`),
    600 trials each, every one a read of match 1 → a commit at the version read. Each success is in the
    log exactly once at its own seq, the version is the number of logged actions, the state counts the successes, and
    the two processes really raced."""
    async with Database.open(pg_url) as db:
        club = await db.ensure_club(1, 0.0)
        for user in (ALICE, BOB):
            await db.ensure_member(user, str(user), 0.0, club_id=club.id)
        await db.create_match(
            club_id=club.id, kind="money", length=0, players=(ALICE, BOB), rules={}, stake=0,
            match=MatchWrite("active", {"n": 0}, 0, ALICE, "roll", 0, 0), action=NewAction("challenge", side=0),
            deadline=None, now=0.0,
        )  # fmt: skip
    results = _run_workers(pg_url, "store", 600, lead=3.0)
    async with Database.open(pg_url) as db:
        match = await db.get_match(1)
        log = await db.actions(1)
    logged = [(a.args["by"], a.args["trial"]) for a in log[1:]]
    applied = [(name, trial) for name, r in zip(("shard0", "shard1"), results, strict=True) for trial in r["applied"]]
    assert sorted(logged) == sorted(applied)  # 0 lost
    assert len(set(logged)) == len(logged)  # 0 double-applied
    assert [a.seq for a in log] == list(range(1, len(log) + 1))
    assert match.version == len(log) and match.state == {"n": len(logged)}
    assert sum(len(r["applied"]) + r["conflicts"] for r in results) == 1200
    assert sum(r["conflicts"] for r in results) > 0, "the two processes never raced"


async def test_the_postgresql_schema_refuses_what_sqlite_refuses(pg_url):
    """The append-only log and the audit trail refuse changes (:class:`~storage.ConstraintError`, as on SQLite); a newer
    schema is refused; opening again migrates nothing; ``integrity_check`` is ``ok``."""
    async with Database.open(pg_url) as db:
        assert isinstance(db, PgDatabase) and await db.user_version() == migrations_version()
        club = await db.ensure_club(1, 0.0)
        await db.ensure_member(ALICE, "A", 0.0, club_id=club.id)
        await db.ensure_member(BOB, "B", 0.0, club_id=club.id)
        await db.create_match(
            club_id=club.id, kind="money", length=0, players=(ALICE, BOB), rules={}, stake=0,
            match=MatchWrite("active", {}, 0, ALICE, "roll", 0, 0), action=NewAction("challenge", side=0),
            deadline=None, now=0.0,
        )  # fmt: skip
        for sql in ("UPDATE actions SET kind = 'forged'", "DELETE FROM actions"):
            with pytest.raises(ConstraintError, match="append-only"):
                async with db.transaction() as tx:
                    await tx.execute(sql)
        assert [a.kind for a in await db.actions(1)] == ["challenge"]
        assert await db.integrity_check() == ["ok"]
        async with db.transaction() as tx:
            await tx.execute("DROP TRIGGER corrections_no_delete ON corrections")
        assert await db.integrity_check() == [
            "the trigger corrections_no_delete is missing: its table is no longer append-only"
        ]
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO bgclub_schema (version) VALUES (?)", (migrations_version() + 1,))
    with pytest.raises(SchemaError, match="newer"):
        await Database.open(pg_url)


def migrations_version() -> int:
    from storage.migrations import SCHEMA_VERSION

    return SCHEMA_VERSION


async def test_migrate_to_copies_a_played_file_and_the_copy_verifies(tmp_path, pg_url, capsys):
    """``python -m storage migrate-to URL --from FILE``: a file with a money session and a match played through the
    club is copied whole (every table the same rows), ``club verify`` passes on the copy, the books read the same on
    both, the bot goes on playing on the copy (new ids after the copied ones); a second copy into the now full
    database is refused and writes nothing; the comparison finds a row more and a value changed."""
    path = tmp_path / "club.sqlite3"
    rng = random.Random(7)
    async with club_service(path, clock=ManualClock(1_700_000_000.0), seeds=seeded(7)) as service:
        await play_out(service, await new_table(service, 0, stake=5), rng, stop=lambda o: o.view.game_number > 3)
        await play_out(service, await new_table(service, 3), rng)
        ledger = await ClubRecords(service).ledger(GUILD, "all")
    assert await asyncio.to_thread(storage_main, ["migrate-to", pg_url, "--from", str(path)]) == 0
    out = capsys.readouterr().out
    assert "DIFFERENT" not in out and "every table the same" in out and "actions:" in out
    assert await asyncio.to_thread(club_main, ["verify", pg_url, "--quiet"]) == 0  # python -m club verify URL
    assert "0 with problems" in capsys.readouterr().out
    assert (await compare(path, pg_url)).ok
    assert await asyncio.to_thread(storage_main, ["check", pg_url]) == 0  # python -m storage check URL
    assert capsys.readouterr().out.strip() == "ok"
    async with Database.open(pg_url) as db:
        assert all(report.ok for report in await verify_database(db))
        service = ClubService(db, clock=ManualClock(1_700_100_000.0), seeds=seeded(9))
        assert await ClubRecords(service).ledger(GUILD, "all") == ledger
        copied_ids = await db.match_ids()
        outcome = await new_table(service, 0)
        assert outcome.match_id == max(copied_ids) + 1
        rows = (await db._fetchone("SELECT count(*) FROM actions"))[0]
    problems = (await compare(path, pg_url)).problems  # the comparison sees the new table the copy has
    assert any(p.startswith("matches: ") for p in problems) and any(p.startswith("actions: ") for p in problems)
    async with Database.open(pg_url) as db, db.transaction() as tx:  # one changed value is found too
        await tx.execute("UPDATE clubs SET name = 'forged' WHERE id = 1")
    problems = (await compare(path, pg_url)).problems
    assert "clubs: the same number of rows but not the same rows" in problems
    assert await asyncio.to_thread(storage_main, ["migrate-to", pg_url, "--from", str(path)]) == 2
    assert "already has rows" in capsys.readouterr().err
    async with Database.open(pg_url) as db:
        assert (await db._fetchone("SELECT count(*) FROM actions"))[0] == rows
    assert await asyncio.to_thread(storage_main, ["migrate-to", pg_url, "--from", str(tmp_path / "none")]) == 1


async def test_a_postgresql_database_of_an_older_schema_is_upgraded_by_the_same_steps(pg_url):
    """Migrations for both dialects: a PostgreSQL database at schema version 5 (the first PostgreSQL release: no
    ``match_prs``, no ``chouette_sheet``, no ``reply_tallies``) is brought to the current version by SQLite's steps 6
    and 7 translated, step 8's PostgreSQL text, step 9 (the deadlines' ``marked_at``), step 10 (events), step 11
    (quizzes), step 12 (the games' quiz screens) and step 13 (notices) translated
    (:func:`storage.pgdialect.pg_migrations`), the new tables'
    append-only triggers included, and step 8's backfill buckets the replies already logged as the commits do."""
    from storage.migrations import SCHEMA_VERSION
    from storage.pgdialect import PG_FIRST_VERSION

    async with Database.open(pg_url) as db:
        club = await db.ensure_club(1, 0.0)
        for member in (11, 12):
            await db.ensure_member(member, f"M{member}", 0.0, club_id=club.id)
        record = await db.create_match(
            club_id=club.id, kind="money", length=0, players=(11, 12), rules={}, stake=0,
            match=MatchWrite("active", {}, 0, None, None, 0, 0),
            action=NewAction("challenge", side=0, member_id=11), deadline=None, now=100.0,
        )  # fmt: skip
        version = record.version
        for at, member in ((164.5, 12), (4000.25, 11), (4001.0, 12)):
            entry = NewAction("note", member_id=member)
            version = await db.commit(
                Commit(record.id, version, at, [entry], MatchWrite("active", {}, 0, None, None, 0, 0), [])
            )
        kept = [tuple(row) for row in await db._fetchall("SELECT * FROM reply_tallies ORDER BY 1, 2, 3")]
    assert kept == [(club.id, 11, 3808, 1, 3835.75), (club.id, 12, 0, 1, 0.75), (club.id, 12, 64, 1, 64.5)]
    async with Database.open(pg_url) as db, db.transaction() as tx:
        await tx.execute("DROP TABLE reply_tallies")
        await tx.execute("DROP TABLE chouette_sheet")
        await tx.execute("DROP TABLE match_prs")
        for table in ("deadlines", "chouette_deadlines"):  # step 9's column
            await tx.execute(f"ALTER TABLE {table} DROP COLUMN marked_at")
        for table in ("event_matches", "event_actions", "events"):  # step 10's tables
            await tx.execute(f"DROP TABLE {table}")
        for table in ("quiz_answers", "quizzes"):  # step 11's tables
            await tx.execute(f"DROP TABLE {table}")
        await tx.execute("DROP TABLE quiz_screens")  # step 12's table
        await tx.execute("DROP TABLE notices")  # step 13's
        await tx.execute("DELETE FROM bgclub_schema")
        await tx.execute("INSERT INTO bgclub_schema (version) VALUES (?)", (PG_FIRST_VERSION,))
    async with Database.open(pg_url) as db:
        assert await db.user_version() == SCHEMA_VERSION
        assert await db.integrity_check() == ["ok"]
        names = {row[0] for row in await db._fetchall("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")}
        assert {"chouette_sheet_no_update", "chouette_sheet_no_delete"} <= names
        assert {"event_actions_no_update", "event_actions_no_delete"} <= names
        assert (await db._fetchone("SELECT count(*) FROM match_prs"))[0] == 0
        assert (await db._fetchone("SELECT count(*) FROM quizzes"))[0] == 0
        assert (await db._fetchone("SELECT count(*) FROM quiz_answers"))[0] == 0
        assert (await db._fetchone("SELECT count(*) FROM quiz_screens"))[0] == 0
        assert (await db._fetchone("SELECT count(*) FROM notices"))[0] == 0
        assert [tuple(row) for row in await db._fetchall("SELECT * FROM reply_tallies ORDER BY 1, 2, 3")] == kept


# -- the bot's reminder loop under the scheduler's lease (storage.lease) -----------------------------------------------
HOUR = 3600.0
BATCH = 8  # tables per batch: the first batch fires before the leader is killed, the second after
WAIT = 60.0  # real seconds a notice may take to fire on a loaded machine (it takes one 0.05 s round when idle)


def _rounds(*logs: Path) -> list[dict]:
    lines = [line for log in logs if log.exists() for line in log.read_text(encoding="utf-8").splitlines()]
    return sorted((json.loads(line) for line in lines), key=lambda r: r["start"])


def _set_clock(path: Path, text: str) -> None:
    """Write the workers' club time (or ``stop``) whole: they never read half a number."""
    part = path.with_suffix(".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


async def _fired_by(logs, wanted: Counter, workers) -> None:
    """Wait until the logs of the ``workers`` (processes) hold every notice of ``wanted`` (a :class:`Counter` of
    ``(kind, table)``)."""
    deadline = time.time() + WAIT
    while True:
        fired = Counter(tuple(f) for r in _rounds(*logs) for f in r["fired"])
        if not wanted - fired:
            return
        assert time.time() < deadline, f"not fired: {wanted - fired}; workers: {[p.poll() for p in workers]}"
        await asyncio.sleep(0.05)


async def test_two_bot_processes_run_the_reminder_loop_one_at_a_time_and_the_other_takes_over(pg_url, tmp_path):
    """Two bot processes run the real reminder loop (cogs/reminders.py, every 0.05 s) on one
    PostgreSQL database with 16 matches waiting (each: a 4-hour and a 1-hour reminder, then the expiry). Only the
    holder of the scheduler's lease runs ``run_due``: the rounds of the two processes never overlap, and while both
    live only one of them runs at all. The leader is killed (SIGKILL) once the first 8 matches fired; the other takes
    over and fires the last 8. Every reminder and expiry is sent exactly once, none is lost.

    The workers' club clock is the injected one: the test moves it to each deadline in turn and waits until that
    deadline's notice fired, so however loaded the machine, every reminder falls in a round of its own."""
    t0 = 1_000_000.0
    clock = ManualClock(t0)
    second_batch = t0 + 7.8 * HOUR  # its reminders fall after the first batch's expiries
    async with club_service(pg_url, clock=clock) as service:
        await service.configure_club(
            GUILD, move_time=10 * HOUR, reminders=[4 * HOUR, 1 * HOUR], expiry_policy="nothing"
        )
        tables, created = [], {}
        for at in [t0 + 60 * k for k in range(BATCH)] + [second_batch + 60 * k for k in range(BATCH)]:
            clock.set(at)
            tables.append((await new_table(service)).match_id)
            created[tables[-1]] = at
        lease = service.db.scheduler_lease()
        assert await lease.hold(), "nobody else holds the lease yet"
        await lease.release()
    due = sorted((at + offset, kind, table) for table, at in created.items()
                 for offset, kind in ((6 * HOUR, "reminder"), (9 * HOUR, "reminder"), (10 * HOUR, "expiry")))  # fmt: skip
    club_clock = tmp_path / "clock.txt"
    _set_clock(club_clock, str(t0 + 6 * HOUR - 60))  # nothing due yet
    start = time.time() + 1.0  # both processes start their loops together
    logs = {name: tmp_path / f"{name}.jsonl" for name in ("shard0", "shard1")}
    procs = {
        name: subprocess.Popen(
            [
                *WORKER,
                pg_url,
                name,
                "scheduler",
                str(10 * WAIT),
                str(start),
                str(log),
                str(club_clock),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for name, log in logs.items()
    }
    wanted: Counter = Counter()
    try:
        first = [item for item in due if item[2] in tables[:BATCH]]
        for at, kind, table in first:
            _set_clock(club_clock, str(at))
            wanted[(kind, table)] += 1
            await _fired_by(logs.values(), wanted, procs.values())
        async with Database.open(pg_url) as db:
            assert not await db.scheduler_lease().hold(), "a third process does not get the lease while one leads"
        leaders = {r["by"] for r in _rounds(*logs.values())}
        assert len(leaders) == 1, f"both processes ran the scheduler: {leaders}"
        leader = leaders.pop()
        survivor = next(name for name in logs if name != leader)
        procs[leader].kill()
        procs[leader].wait(timeout=10)
        killed_at = time.time()
        for at, kind, table in due[len(first) :]:
            _set_clock(club_clock, str(at))
            wanted[(kind, table)] += 1
            await _fired_by(logs.values(), wanted, procs.values())
        _set_clock(club_clock, f"stop {due[-1][0]}")
        out, err = procs[survivor].communicate(timeout=WAIT)
        assert procs[survivor].returncode == 0, err
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    rounds = _rounds(*logs.values())
    for before, after in zip(rounds, rounds[1:], strict=False):
        assert before["end"] <= after["start"], f"two rounds overlapped: {before} {after}"
    assert all(r["end"] <= killed_at for r in rounds if r["by"] == leader)
    taken_over = [r["start"] for r in rounds if r["by"] == survivor]
    assert taken_over and min(taken_over) >= killed_at - 0.5, "the survivor ran while the leader lived"
    fired = [(kind, table) for r in rounds for kind, table in r["fired"]]
    expected = [(kind, table) for table in tables for kind in ("reminder", "reminder", "expiry")]
    assert sorted(fired) == sorted(expected), "each reminder and expiry exactly once"
    assert {table for r in rounds if r["by"] == survivor for _, table in r["fired"]} == set(tables[BATCH:])
    async with Database.open(pg_url) as db:
        lease = db.scheduler_lease()
        assert await lease.hold(), "the survivor gave the lease up when it stopped"


async def test_a_notice_recorded_by_a_killed_leader_is_posted_once_by_the_process_taking_the_lease_over(
    pg_url, tmp_path
):
    """At-least-once notices on PostgreSQL: the leader's reminder loop fires a reminder (recorded pending with its
    firing) and the process is killed before the post reaches Discord; the lease goes with its session, a second
    bot process takes it over and posts the pending notice — exactly once, with the notice's nonce — and fires
    nothing again."""
    t0 = 1_000_000.0
    clock = ManualClock(t0)
    async with club_service(pg_url, clock=clock) as service:
        await service.configure_club(GUILD, move_time=10 * HOUR, reminders=[1 * HOUR], expiry_policy="nothing")
        table = (await new_table(service)).match_id
    club_clock = tmp_path / "clock.txt"
    _set_clock(club_clock, str(t0 + 9 * HOUR + 1))  # the reminder is due
    logs = {name: tmp_path / f"{name}.jsonl" for name in ("leader", "successor")}

    def worker(name: str, *extra: str) -> subprocess.Popen:
        return subprocess.Popen([*WORKER, pg_url, name, "scheduler", str(10 * WAIT), str(time.time()),
                                 str(logs[name]), str(club_clock), *extra], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip

    leader, successor = worker("leader", "dies"), None
    try:
        leader.wait(timeout=WAIT)
        assert leader.returncode == 137, leader.stderr.read() if leader.stderr else ""
        assert [r["fired"] for r in _rounds(logs["leader"])] == [[["reminder", table]]]
        assert not Path(f"{logs['leader']}.posted").exists(), "killed before its post"
        successor = worker("successor")
        posted_log = Path(f"{logs['successor']}.posted")
        deadline = time.time() + WAIT
        while not posted_log.exists():
            assert time.time() < deadline and successor.poll() is None, "the pending notice was not posted"
            await asyncio.sleep(0.05)
        seen = len(_rounds(logs["successor"]))
        while len(_rounds(logs["successor"])) < seen + 3:  # three more rounds of the loop: nothing posted twice
            assert time.time() < deadline and successor.poll() is None, "the loop stopped"
            await asyncio.sleep(0.05)
        _set_clock(club_clock, f"stop {t0 + 9 * HOUR + 1}")
        _out, err = successor.communicate(timeout=WAIT)
        assert successor.returncode == 0, err
    finally:
        for proc in (leader, successor):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    posted = [json.loads(line) for line in posted_log.read_text(encoding="utf-8").splitlines()]
    assert [(p["by"], p["kind"], p["table_id"]) for p in posted] == [("successor", "reminder", table)]
    assert posted[0]["nonce"].startswith("bgn")
    assert all(r["fired"] == [] for r in _rounds(logs["successor"])), "the successor fired nothing again"
    async with Database.open(pg_url) as db:
        row = await db._fetchone("SELECT count(*), count(posted_at) FROM notices")
    assert tuple(row) == (1, 1)


async def test_the_scheduler_lease_is_one_holder_at_a_time_and_is_freed_with_a_lost_session(pg_url):
    """Two bot processes' leases (two databases opened on one server): the first holds it and keeps it round after
    round, the second is refused; when the holder's session is lost (its backend terminated) the lock goes with it,
    the second takes it, and the first, reconnecting, is refused. SQLite's lease is always granted."""
    async with Database.open(pg_url) as first_db, Database.open(pg_url) as second_db:
        first, second = first_db.scheduler_lease(), second_db.scheduler_lease()
        assert await first.hold() and await first.hold()
        assert not await second.hold()
        pid = await first._conn.fetchval("SELECT pg_backend_pid()")
        async with second_db.read() as tx:
            assert (await tx.fetchone("SELECT pg_terminate_backend(?)", (pid,)))[0]
        for _ in range(100):  # the server frees the lock once the terminated backend is gone
            if await second.hold():
                break
            await asyncio.sleep(0.02)
        assert await second.hold(), "the lost session's lock was freed and taken over"
        assert not await first.hold(), "the old holder reconnects and is refused"
        await second.release()
        assert await first.hold()
    async with Database.open(pg_url) as db:
        assert await db.scheduler_lease().hold(), "closing the database released its lease"


async def test_the_sqlite_scheduler_lease_is_always_granted(tmp_path):
    """One bot process per SQLite file: the lease is granted every round."""
    async with Database.open(tmp_path / "club.sqlite3") as db:
        lease = db.scheduler_lease()
        assert await lease.hold() and await lease.hold()
        await lease.release()


async def test_a_database_that_cannot_be_used_is_one_line_in_every_tool(pg_cluster, tmp_path, capsys):
    """What an operator gets wrong (storage.pgerrors): a database that does not exist, a role that
    does not exist, no server at the socket folder, a bad URL parameter, a role that may not create the club's tables
    — ``python -m storage check``, ``migrate-to``, ``python -m club verify`` and the console each say it in one line
    naming the database, with what to do, never a traceback and never the password."""
    conn = await asyncpg.connect(pg_cluster.url())
    try:
        await conn.execute("DROP ROLE IF EXISTS plain")
        await conn.execute("CREATE ROLE plain LOGIN")
        await conn.execute("DROP DATABASE IF EXISTS not_his")
        await conn.execute("CREATE DATABASE not_his TEMPLATE template0")  # owned by the superuser
    finally:
        await conn.close()
    host = f"host={pg_cluster.socket_dir}&port={pg_cluster.port}"
    cases = {
        f"postgresql://{pg_cluster.user}:s3cret@/no_such_db?{host}": ('database "no_such_db"', "createdb -O"),
        f"postgresql://nobody:s3cret@/postgres?{host}": ('"nobody"', "createuser"),
        f"postgresql://{pg_cluster.user}:s3cret@/postgres?host={tmp_path}/none&port=1": (
            "cannot reach",
            "is it running",
        ),
        f"postgresql://{pg_cluster.user}:s3cret@/postgres?{host}&sslmode=bogus": ("the URL is not right", "sslmode"),
        f"postgresql://plain:s3cret@/not_his?{host}": ("permission denied", "must own the database"),
    }
    source = tmp_path / "club.sqlite3"
    async with Database.open(source):
        pass
    for url, (what, hint) in cases.items():
        outputs = []
        assert await asyncio.to_thread(storage_main, ["check", url]) == 1
        outputs.append(capsys.readouterr())
        assert await asyncio.to_thread(storage_main, ["migrate-to", url, "--from", str(source)]) == 2
        outputs.append(capsys.readouterr())
        assert await asyncio.to_thread(club_main, ["verify", url]) == 1
        outputs.append(capsys.readouterr())
        console = subprocess.run(
            [sys.executable, str(ROOT / "bot.py"), "--console", "--no-images", "--no-review"], input="quit\n",
            capture_output=True, text=True, timeout=60, env={**os.environ, "BGCLUB_DATABASE_URL": url},
        )  # fmt: skip
        assert console.returncode == 2, console.stderr
        outputs.append(console)
        for output in outputs:
            text = output.out if hasattr(output, "out") else output.stdout
            text += output.err if hasattr(output, "err") else output.stderr
            lines = [line for line in text.splitlines() if line.strip()]
            assert len(lines) == 1 and what in lines[0] and hint in lines[0], (url, text)
            assert "Traceback" not in text and "s3cret" not in text, (url, text)


async def test_backup_and_restore_of_a_postgresql_database_with_the_same_commands(tmp_path, pg_url, capsys):
    """``python -m storage backup URL FILE`` (pg_dump's archive) and ``python -m storage restore FILE URL``
    (pg_restore in one transaction): the actions played after the backup are gone, the database holds exactly the
    backup's rows, and ``club verify`` passes; a file that is not such an archive is refused and changes nothing."""
    from tests.clubkit import NAMES
    from tests.pgkit import snapshot_rows

    dump = tmp_path / "club.dump"
    rng = random.Random(5)
    async with Database.open(pg_url) as db:
        service = ClubService(db, clock=ManualClock(1_700_000_000.0), seeds=seeded(5))
        for user, name in NAMES.items():
            await service.register(GUILD, user, name)
        await play_out(service, await new_table(service, 3), rng)
    assert await asyncio.to_thread(storage_main, ["backup", pg_url, str(dump)]) == 0
    assert str(dump) in capsys.readouterr().out and (dump.stat().st_mode & 0o777) == 0o600
    kept = snapshot_rows(pg_url)
    async with Database.open(pg_url) as db:
        service = ClubService(db, clock=ManualClock(1_700_100_000.0), seeds=seeded(6))
        await play_out(service, await new_table(service, 1), rng)
    assert snapshot_rows(pg_url) != kept
    assert await asyncio.to_thread(storage_main, ["restore", str(dump), pg_url]) == 0
    out = capsys.readouterr().out
    assert "integrity check: ok" in out and f"python -m club verify {pg_url}" in out
    assert snapshot_rows(pg_url) == kept
    assert await asyncio.to_thread(club_main, ["verify", pg_url, "--quiet"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("checked, 0 with problems")
    bad = tmp_path / "bad.dump"
    bad.write_bytes(b"not an archive")
    assert await asyncio.to_thread(storage_main, ["restore", str(bad), pg_url]) == 2
    err = capsys.readouterr().err
    assert "not restored" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert snapshot_rows(pg_url) == kept
