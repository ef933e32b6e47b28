"""Backup and restore as one command each: ``python -m storage backup`` and ``python -m storage restore``.

A restore moves the damaged file and its ``-wal``/``-shm`` aside (a stale ``-wal`` left by a killed process would
otherwise be replayed onto the copied backup), copies the backup in, checks it and says what it did; a backup or a
restore onto its own source is refused with one line.
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from club import ClubService
from club.__main__ import main as club_main
from storage import Database
from storage.__main__ import main as storage_main
from tests.clubkit import ALICE, BOB, GUILD, NAMES, decide, snapshot

pytestmark = pytest.mark.sqlite_only


async def _setup(path: Path) -> None:
    async with Database.open(path) as db:
        service = ClubService(db)
        for user, name in NAMES.items():
            await service.register(GUILD, user, name)
        challenge = await service.challenge(GUILD, ALICE, BOB, length=0)
        await service.accept(challenge.match_id, BOB)


async def _play(path: Path, ready: int) -> None:
    """Play money-game decisions forever; one byte to ``ready`` after the first 20 (the -wal then holds frames)."""
    rng = random.Random(7)
    async with Database.open(path) as db:
        service = ClubService(db)
        done = 0
        while True:
            active = await db.match_ids(["active"])
            if not active:
                challenge = await service.challenge(GUILD, ALICE, BOB, length=0)
                await service.accept(challenge.match_id, BOB)
                continue
            await decide(service, await service.state(active[0]), rng)
            done += 1
            if done == 20:
                os.write(ready, b".")


def _killed_while_playing(path: Path) -> None:
    """Fork a process that plays on ``path`` and SIGKILL it mid-play, leaving its -wal behind."""
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(ready_r)
        try:
            asyncio.run(asyncio.wait_for(_play(path, ready_w), timeout=20))
        finally:
            os._exit(1)
    os.close(ready_w)
    readable, _, _ = select.select([ready_r], [], [], 20)
    os.close(ready_r)
    assert readable, "the child did not play 20 decisions within 20 s"
    time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def _one_line(text: str) -> None:
    assert "Traceback" not in text
    assert len([line for line in text.splitlines() if line.strip()]) == 1, text


def test_restore_after_a_sigkill_gives_exactly_the_backup_and_verify_says_so(tmp_path, capsys):
    path = tmp_path / "club.sqlite3"
    backups = tmp_path / "backups"
    backups.mkdir()
    backup = backups / "club-monday.sqlite3"
    asyncio.run(_setup(path))
    assert storage_main(["backup", str(path), str(backup)]) == 0
    expected = snapshot(backup)
    _killed_while_playing(path)
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 0  # the killed process left frames the backup does not hold
    capsys.readouterr()

    assert storage_main(["restore", str(backup), str(path)]) == 0
    out = capsys.readouterr().out
    aside = sorted(p.name for p in tmp_path.iterdir() if ".damaged-" in p.name)
    assert len(aside) >= 2 and any(name.endswith("-wal") for name in aside)  # the file and its -wal, kept
    for name in aside:
        assert name in out
    assert str(backup) in out and "ok" in out and "python -m club verify" in out
    assert not wal.exists() or wal.stat().st_size == 0
    assert snapshot(path) == expected  # exactly the backup: no frame of the stale -wal replayed onto it
    assert club_main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("checked, 0 with problems")


def test_backup_or_restore_onto_its_own_source_is_refused(tmp_path, capsys):
    path = tmp_path / "club.sqlite3"
    asyncio.run(_setup(path))
    before = path.read_bytes()
    for command in (["backup", str(path), str(path)], ["backup", str(path), str(tmp_path / "." / "club.sqlite3")],
                    ["restore", str(path), str(path)]):  # fmt: skip
        assert storage_main(command) == 2
        err = capsys.readouterr().err
        _one_line(err)
        assert "itself" in err
    assert path.read_bytes() == before


def test_restore_refuses_a_backup_that_is_not_a_sound_club_database(tmp_path, capsys):
    path = tmp_path / "club.sqlite3"
    asyncio.run(_setup(path))
    before = snapshot(path)
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"\x00garbage" * 500)
    foreign = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    for source in (bad, foreign, tmp_path / "missing.sqlite3"):
        assert storage_main(["restore", str(source), str(path)]) != 0
        err = capsys.readouterr().err
        _one_line(err)
        assert str(source) in err and "not restored" in err
    assert snapshot(path) == before
    assert not [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
