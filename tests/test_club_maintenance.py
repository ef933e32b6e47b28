"""Maintenance entries: ``python -m club verify`` replays every stored game's log against the stored state and the
dice commitments (and catches tampering); ``python -m storage backup`` / the backup function copy a live database."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from club.__main__ import main as club_main
from club.verify import verify_database
from storage import Database
from storage.__main__ import main as storage_main
from tests.clubkit import club_service, decide, new_table, seeded

pytestmark = pytest.mark.backends


def build(path, games: int = 2) -> list[int]:
    async def run():
        rng = random.Random(4)
        ids = []
        async with club_service(path, seeds=seeded(4)) as service:
            for length in (1, 0)[:games]:
                outcome = await new_table(service, length)
                ids.append(outcome.match_id)
                for _ in range(60):
                    if outcome.view.status != "active":
                        break
                    outcome = await decide(service, outcome.view, rng, cube=0.2)
        return ids

    return asyncio.run(run())


@pytest.mark.sqlite_only
def test_verify_command_accepts_a_sound_database(tmp_path, capsys):
    path = tmp_path / "club.sqlite"
    build(path)
    assert club_main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 matches checked, 0 with problems" in out and "rolls proven" in out
    assert club_main(["verify", str(tmp_path / "missing.sqlite")]) == 1


@pytest.mark.sqlite_only
def test_verify_catches_a_changed_state_and_a_forged_roll(tmp_path, capsys):
    path = tmp_path / "club.sqlite"
    first, second = build(path)
    conn = sqlite3.connect(path)
    try:
        # a stored state that the log does not give
        conn.execute("UPDATE games SET state = json_set(state, '$.cube.value', 64) WHERE match_id = ?", (second,))
        # a forger who removes the append-only trigger and changes a logged roll
        conn.execute("DROP TRIGGER actions_no_update")
        row = conn.execute(
            "SELECT id, dice FROM actions WHERE match_id = ? AND kind = 'roll' ORDER BY seq LIMIT 1", (first,)
        ).fetchone()
        forged = "66" if row[1] != "66" else "11"
        conn.execute("UPDATE actions SET dice = ? WHERE id = ?", (forged, row[0]))
        conn.commit()
    finally:
        conn.close()
    assert club_main(["verify", "--quiet", str(path)]) == 1
    out = capsys.readouterr().out
    assert "2 matches checked, 2 with problems" in out
    assert "differs from the state the log rebuilds" in out
    assert f"logged ({forged[0]}, {forged[1]}), but the seed gives" in out


@pytest.mark.sqlite_only
def test_backup_command_and_function_give_a_verifiable_copy(tmp_path, capsys):
    path = tmp_path / "club.sqlite"
    build(path, games=1)
    copy = tmp_path / "backup.sqlite"
    assert storage_main(["backup", str(path), str(copy)]) == 0
    assert club_main(["verify", str(copy)]) == 0

    async def compare():
        async with Database.open(path) as db, Database.open(copy) as backup:
            assert await backup.integrity_check() == ["ok"]
            assert [a.seq for a in await backup.actions(1)] == [a.seq for a in await db.actions(1)]
            reports = await verify_database(backup)
            assert all(r.ok for r in reports)

    asyncio.run(compare())
    assert storage_main(["backup", str(tmp_path / "nothing.sqlite"), str(tmp_path / "x.sqlite")]) == 1
