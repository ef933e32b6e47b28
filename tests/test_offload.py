"""Long work in the worker process (:mod:`club.offload`): the replays of ``/bg export`` and ``club
verify`` run in another process, read the same rows whether the worker reads the SQLite file itself or is handed
them (another backend, :meth:`storage.Database.match_rows`), and their errors come back as raised."""

from __future__ import annotations

import os
import random
import sqlite3

import pytest

from club import ManualClock, offload
from club.errors import UnknownGameError
from club.export import export_mat, mat_text_of_rows
from club.verify import verify_match
from storage import MatchRows
from tests.clubkit import club_service, new_table, play_out, seeded

pytestmark = pytest.mark.backends  # and on PostgreSQL


def _pid() -> int:
    return os.getpid()


async def test_work_runs_in_another_process_and_its_errors_are_raised_here():
    assert await offload.run(_pid) != os.getpid()
    with pytest.raises(UnknownGameError, match="no match or session 5"):
        empty = MatchRows(5, ("actions", "games"), rows={"actions": ((), []), "games": ((), [])})
        await offload.run(mat_text_of_rows, empty, ("A", "B"), 5)


@pytest.mark.sqlite_only  # the file route (the PostgreSQL one is the rows', forced below)
async def test_the_worker_reads_the_file_or_is_handed_the_rows_with_the_same_answer(tmp_path, monkeypatch):
    path = tmp_path / "offload.sqlite3"
    async with club_service(path, clock=ManualClock(1_700_000_000.0), seeds=seeded(4)) as service:
        outcome = await new_table(service, 0, stake=2)
        outcome = await play_out(service, outcome, random.Random(2), stop=lambda o: o.view.game_number >= 3)
        match_id = outcome.match_id
        found = await service.db.match_rows(match_id, ("match",))
        assert found.file == str(path) and found.rows is None
        from_file = (await verify_match(service.db, match_id), await export_mat(service, match_id))
        assert from_file[0].ok and from_file[0].games == 3 and from_file[1][1].count("Game ") >= 3
        monkeypatch.setattr(type(service.db), "dialect", "postgresql")  # as a backend without a file
        found = await service.db.match_rows(match_id, ("match",))
        assert found.file is None and [row["id"] for row in found.read()["match"]] == [match_id]
        assert (await verify_match(service.db, match_id), await export_mat(service, match_id)) == from_file
        monkeypatch.undo()
        conn = sqlite3.connect(path)  # a changed game state is caught either way
        conn.execute("UPDATE games SET state = json_set(state, '$.cube.value', 64) WHERE match_id = ? AND number = 2",
                     (match_id,))  # fmt: skip
        conn.commit()
        conn.close()
        report = await verify_match(service.db, match_id)
        assert report.problems == ["game 2: the stored state differs from the state the log rebuilds"]
        monkeypatch.setattr(type(service.db), "dialect", "postgresql")
        assert (await verify_match(service.db, match_id)).problems == report.problems
        assert (await verify_match(service.db, 99_999)).problems == ["no such match"]
