"""Consistent reads: a load reads the match, its game and its deadline (a chouette: its session,
dice series and deadlines) in one read transaction, so another process writing the same file never shows it a torn
state. A child process rewrites the rows in single transactions, each with one stamp; every load must see one stamp.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import time

import pytest

from storage import Database
from tests.clubkit import club_service, new_table

pytestmark = pytest.mark.backends

READS = 1500


def _writer(path: str, table_rows: list[tuple[str, str, str]], stop) -> None:
    """Rewrite the stamp columns of ``table_rows`` ((table, column, WHERE clause)) together, as fast as possible."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    stamp = 1.0
    while not stop.is_set():
        stamp += 1
        conn.execute("BEGIN IMMEDIATE")
        for table, column, where in table_rows:
            conn.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (stamp,))
        conn.execute("COMMIT")
    conn.close()


def _start_writer(path, rows):
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    process = context.Process(target=_writer, args=(str(path), rows, stop), daemon=True)
    process.start()
    return process, stop


async def _wait_for_writer(db) -> None:
    first = (await db.load(1))[0].updated_at
    limit = time.monotonic() + 30
    while (await db.load(1))[0].updated_at == first:
        assert time.monotonic() < limit, "the writer did not start within 30 s"
        time.sleep(0.01)


@pytest.mark.sqlite_only
async def test_load_never_shows_a_torn_match_game_deadline(tmp_path):
    """The match, game and deadline rows of one load carry the same stamp every time."""
    path = tmp_path / "club.sqlite3"
    async with club_service(path) as service:
        await new_table(service, 5)
    rows = [
        ("matches", "updated_at", "id = 1"),
        ("games", "started_at", "match_id = 1"),
        ("deadlines", "set_at", "match_id = 1"),
    ]
    process, stop = _start_writer(path, rows)
    torn = 0
    try:
        async with Database.open(path) as db:
            await _wait_for_writer(db)
            seen: set[float] = set()
            reads = 0
            # At least READS loads, and on until the writer has committed 21 times: a loaded machine may starve it.
            limit = time.monotonic() + 120
            while reads < READS or (len(seen) <= 20 and time.monotonic() < limit):
                reads += 1
                match, game, deadline = await db.load(1)
                stamps = {match.updated_at, game.started_at, deadline.set_at}
                seen.add(match.updated_at)
                torn += len(stamps) != 1
    finally:
        stop.set()
        process.join(10)
    assert len(seen) > 20, "the writer was writing while the loads ran"
    assert torn == 0, f"{torn} of {reads} loads were torn"


@pytest.mark.sqlite_only
async def test_chouette_load_never_shows_a_torn_session(tmp_path):
    """A chouette's session row, dice series and deadlines of one load carry the same stamp every time."""
    from storage.chouettes import ChouetteStore
    from tests.chouette_clubkit import chouettes, seated

    path = tmp_path / "club.sqlite3"
    async with chouettes(path) as service:
        outcome = await seated(service)
        sid = outcome.session_id
        assert await service.store.deadlines(sid), "the seated session waits for someone"
    rows = [
        ("chouette_sessions", "updated_at", f"id = {sid}"),
        ("chouette_dice", "rolls", f"session_id = {sid}"),
        ("chouette_deadlines", "set_at", f"session_id = {sid}"),
    ]
    process, stop = _start_writer(path, rows)
    torn = 0
    try:
        async with Database.open(path) as db:
            store = ChouetteStore(db)
            first = (await store.load(sid))[0].updated_at
            limit = time.monotonic() + 30
            while (await store.load(sid))[0].updated_at == first:
                assert time.monotonic() < limit, "the writer did not start within 30 s"
                time.sleep(0.01)
            for _ in range(READS):
                record, dice, deadlines = await store.load(sid)
                stamps = {record.updated_at} | {float(s.rolls) for s in dice.values()} | {d.set_at for d in deadlines}
                torn += len(stamps) != 1
    finally:
        stop.set()
        process.join(10)
    assert torn == 0, f"{torn} of {READS} chouette loads were torn"
