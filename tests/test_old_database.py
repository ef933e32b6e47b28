"""A database written by older code (``tests/fixtures/old_club.sql``, built by ``build_old_db.py`` with the code of
main at d79f26b) opens, verifies and plays on with today's code."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

from club import ClubService, ManualClock
from club.chouette import ChouetteService
from club.states import upgrade_states
from club.verify import verify_database
from storage import Database, dumps
from storage.chouettes import ChouetteStore
from tests.chouette_clubkit import decide_randomly
from tests.clubkit import decide, seeded

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "old_club.sql"


def old_database(folder: Path) -> Path:
    """A fresh copy of the old database as a file in ``folder``."""
    path = folder / "old.sqlite3"
    conn = sqlite3.connect(path)
    try:
        conn.executescript(FIXTURE.read_text(encoding="utf-8"))
    finally:
        conn.close()
    return path


def test_the_old_database_opens_verifies_upgrades_and_plays_on(tmp_path):
    path = old_database(tmp_path)

    async def main():
        async with Database.open(path) as db:
            reports = await verify_database(db)
            assert [r.problems for r in reports if not r.ok] == []
            labels = sorted(getattr(r, "label", f"match {r.match_id}") for r in reports if r.match_id)
            assert labels == sorted(
                ["chouette 1", "chouette 2", "match 1", "match 2", "match 3", "match 4", "match 5"]
            ), labels
            # the state-format migration replays every log and rewrites the old states, once
            sizes = {match_id: len(dumps((await db.get_match(match_id)).state)) for match_id in (1, 3, 4)}
            report = await upgrade_states(db)
            assert report.problems == [] and report.current == 0
            assert sorted(report.upgraded) == sorted(
                [("match", n) for n in range(1, 6)] + [("chouette", 1), ("chouette", 2)]
            )
            for match_id in (1, 3, 4):
                state = (await db.get_match(match_id)).state
                assert state["format"] == 2 and state["match"]["games"] == []
                assert len(dumps(state)) < sizes[match_id]
            chouette = json.loads((await db.store.row(("chouette", 2)))["state"])
            assert chouette["format"] == 3 and "history" not in chouette["session"]
            # the finished games' sheet rows moved out of the hot state into rows of their own
            assert chouette["session"]["sheet"]["rows"] == [] and chouette["session"]["sheet"]["earlier"] == 2
            store = ChouetteStore(db)
            for session_id in (1, 2):
                rows = await store.sheet(session_id)
                results = {r.game_number for r in await store.results(session_id)}
                assert [row["game"] for row in rows] == sorted(results) and rows, session_id
                assert all(sum(row["points"].values()) == 0 for row in rows)
            again = await upgrade_states(db)
            assert again.upgraded == [] and again.current == 7 and again.problems == []
            reports = await verify_database(db)
            assert [r.problems for r in reports if not r.ok] == []
            club = ClubService(db, clock=ManualClock(1_767_100_000.0), seeds=seeded(5))
            chouettes = ChouetteService(club)
            rng = random.Random(3)
            # the unfinished match and money session go on to new games
            for match_id, games in ((2, 4), (4, 7)):
                view = await club.state(match_id)
                assert view.status == "active"
                start = view.game_number
                for _ in range(20000):
                    if view.status != "active" or view.game_number >= max(games, start + 1) + 1:
                        break
                    view = (await decide(club, view, rng, cube=0.1)).view
                assert view.game_number > start or view.status == "over"
                recipes = [a.args.get("recipe") for a in await club.log(match_id) if a.kind == "new_game"]
                if view.game_number > start:  # old games keep v1 (never rewritten), new ones roll the current v3
                    assert recipes[0] is None and recipes[-1] == "bgclub-hmac-sha256-v3", recipes
            money = await club.state(4)
            assert sum(money.score) == 0
            # the open challenge can still be answered
            outcome = await club.accept(5, 10)
            assert outcome.view.status == "active"
            # the unfinished chouette plays on to a new game; the closed one stays closed
            outcome = None
            view = await chouettes.state(2)
            games_before = len(view.sheet.rows)
            assert games_before == 2 and view.sheet.zero_sum, "the rows stored apart are on the sheet"
            from club.chouette.views import ChouetteOutcome

            outcome = ChouetteOutcome(view, "")
            for _ in range(5000):
                if len(outcome.view.sheet.rows) > games_before or not outcome.view.decisions:
                    break
                outcome = await decide_randomly(chouettes, outcome, rng, double=0.2)
            assert len(outcome.view.sheet.rows) > games_before
            assert outcome.view.sheet.zero_sum
            assert (await chouettes.state(1)).status == "closed"
            reports = await verify_database(db)
            assert [r.problems for r in reports if not r.ok] == []

    asyncio.run(main())
