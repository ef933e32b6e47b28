"""Crash safety: a process playing games through club/ is killed with SIGKILL at random moments, 100 times.

After every kill the database opens, passes ``PRAGMA integrity_check`` (and the foreign-key check), and the log of
every match the killed process touched rebuilds its stored state, with every fair roll proven (RULES A1); the next
process resumes the same games. At the end every stored match is verified.
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import sqlite3
import time
import traceback

import pytest

from club import ClubService
from club.verify import verify_match
from storage import Database
from tests.clubkit import ALICE, BOB, CAROL, GUILD, NAMES, decide

pytestmark = pytest.mark.backends

KILLS = 100
PLAYERS = (ALICE, BOB, CAROL)


async def _setup(path) -> None:
    async with Database.open(path) as db:
        service = ClubService(db)
        for user, name in NAMES.items():
            await service.register(GUILD, user, name)


async def _work(path, seed: int, ready: int) -> None:
    """Play forever (until killed): resume active matches, start new ones, random legal decisions.

    One byte goes to the ``ready`` pipe once the database is open, so the parent's random delay before the kill is
    spent playing, not starting up, however loaded the machine is."""
    rng = random.Random(seed)
    async with Database.open(path) as db:
        service = ClubService(db)
        os.write(ready, b".")
        while True:
            active = await db.match_ids(["active"])
            if len(active) < 3 or rng.random() < 0.02:
                a, b = rng.sample(PLAYERS, 2)
                challenge = await service.challenge(GUILD, a, b, length=rng.choice([0, 1, 3, 5]))
                await service.accept(challenge.match_id, b)
                continue
            view = await service.state(rng.choice(active))
            await decide(service, view, rng, cube=0.2, resign=0.01)


def _child(path, seed: int, ready: int) -> None:
    status = 0
    try:
        asyncio.run(asyncio.wait_for(_work(path, seed, ready), timeout=10))
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        os._exit(status)


def _versions(path) -> dict[int, int]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT id, version FROM matches").fetchall())
    finally:
        conn.close()


async def _check(path, match_ids) -> list[str]:
    problems = []
    async with Database.open(path) as db:
        integrity = await db.integrity_check()
        if integrity != ["ok"]:
            problems.extend(integrity)
        for match_id in match_ids:
            report = await verify_match(db, match_id)
            problems.extend(f"match {match_id}: {p}" for p in report.problems)
    return problems


@pytest.mark.sqlite_only
def test_sigkill_at_random_moments_loses_nothing(tmp_path):
    path = tmp_path / "club.sqlite"
    asyncio.run(_setup(path))
    rng = random.Random(2024)
    progressed = 0
    for kill in range(KILLS):
        before = _versions(path)
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: play until killed
            os.close(ready_r)
            _child(path, kill, ready_w)
        os.close(ready_w)
        readable, _, _ = select.select([ready_r], [], [], 10)
        os.close(ready_r)
        assert readable, "the child did not open the database within 10 s"
        time.sleep(rng.uniform(0.02, 0.12))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
            "the child ended by itself (see stderr)"
        )
        after = _versions(path)  # the file opens (plain sqlite3 recovers the WAL)
        touched = [m for m, version in after.items() if before.get(m) != version]
        progressed += bool(touched)
        problems = asyncio.run(_check(path, touched))
        assert not problems, f"after kill {kill}: {problems[:5]}"
    assert progressed >= KILLS // 2  # the children were busy when killed
    all_matches = list(_versions(path))
    assert not asyncio.run(_check(path, all_matches))
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # at least one logged action per kill on average (how many more depends on the machine's load)
        assert conn.execute("SELECT count(*) FROM actions").fetchone()[0] > KILLS
        assert conn.execute("SELECT count(*) FROM games WHERE status = 'over'").fetchone()[0] >= 1
    finally:
        conn.close()
