"""Hot state without history: the stored state of a money session does not grow
with the games played, and a chouette's holds no event history and no sheet rows — the finished games are in their
own rows (``games``, ``chouette_results``, ``chouette_sheet``) and the log."""

from __future__ import annotations

import json
import random

import pytest

from storage import dumps
from tests.chouette_clubkit import chouettes, decide_randomly, seated
from tests.clubkit import club_service, decide, new_table

pytestmark = pytest.mark.backends


async def test_a_money_sessions_state_does_not_grow_with_its_games(tmp_path):
    async with club_service(tmp_path / "c.sqlite3") as service:
        rng = random.Random(4)
        outcome = await new_table(service, 0)
        sizes = {}
        while outcome.view.game_number <= 12:
            number = outcome.view.game_number
            if number not in sizes:
                state = dict((await service.db.get_match(outcome.match_id)).state)
                book = state.pop("dice")  # the dice book: the current and next game's only
                assert len(book["clients"]) <= 4 and {c[0] for c in book["clients"]} <= {number, number + 1}
                sizes[number] = len(dumps(state))
            outcome = await decide(service, outcome.view, rng, cube=0.2)
        assert max(sizes.values()) - min(sizes.values()) <= 16, sizes  # a few digits of the totals and counters
        games = await service.db.games(outcome.match_id)
        assert len(games) == 13 and all(g.result for g in games[:12])  # the finished games, in their own rows


async def test_a_chouettes_state_holds_no_event_history(tmp_path):
    async with chouettes(tmp_path / "c.sqlite3") as service:
        rng = random.Random(6)
        outcome = await seated(service)
        sizes = []
        for _ in range(4000):
            if len(outcome.view.sheet.rows) >= 4:
                break
            games = len(outcome.view.sheet.rows)
            outcome = await decide_randomly(service, outcome, rng, double=0.2)
            if len(outcome.view.sheet.rows) > games:
                state = json.loads((await service.club.db.store.row(("chouette", outcome.session_id)))["state"])
                book = state.pop("dice")  # the dice book: series 0, this game's and the next's
                assert {c[0] for c in book["clients"]} <= {0, outcome.view.game_number, outcome.view.game_number + 1}
                assert "history" not in state["session"]
                assert state["session"]["sheet"]["rows"] == [], "the sheet rows are not in the hot state"
                sizes.append(len(dumps(state)))
        assert len(sizes) == 4
        # between games nothing grows but the running totals' digits: the sheet rows are rows of their own
        assert max(b - a for a, b in zip(sizes, sizes[1:], strict=False)) < 40, sizes
        stored = await service.store.sheet(outcome.session_id)
        assert [row["game"] for row in stored] == [1, 2, 3, 4]
        view = await service.state(outcome.session_id)
        assert [row.game for row in view.sheet.rows] == [1, 2, 3, 4] and view.sheet.zero_sum
        assert sum(view.sheet.totals.values()) == 0 and view.sheet.totals == outcome.view.sheet.totals


async def test_the_chouette_sheet_from_its_rows_is_the_engines(tmp_path):
    """The sheet shown from the stored rows (``chouette_sheet`` plus the hot state's totals) is the sheet the engine
    keeps when it replays the whole log: the same rows, points, circles and crossings-through (003 Atlanta 10.1:
    derived from who was Box later, since a stored row is never rewritten) and the same totals."""
    from club.chouette.table import member_id, replay

    async with chouettes(tmp_path / "c.sqlite3") as service:
        rng = random.Random(8)
        outcome = await seated(service)
        for _ in range(8000):
            if len(outcome.view.sheet.rows) >= 8:
                break
            outcome = await decide_randomly(service, outcome, rng, double=0.2)
        view = await service.state(outcome.session_id)
        engine = replay(await service.store.actions(outcome.session_id)).session.sheet()
        assert len(engine.rows) == len(view.sheet.rows) == 8
        for shown, row in zip(view.sheet.rows, engine.rows, strict=True):
            assert shown.game == row.game and shown.points == {member_id(m): p for m, p in row.points.items()}
            assert shown.circled == tuple(member_id(m) for m in (row.marks or {}).get("circled", []))
            assert shown.crossed == tuple(member_id(m) for m in row.crossed), row.game
        assert view.sheet.totals == {member_id(m): t for m, t in engine.totals().items()}
        assert any(row.crossed for row in engine.rows), "a circled loser became Box later: his circle is crossed"
        # the rows an action reads are the new ones only (the others are known): another service, with nothing
        # read yet, shows the same sheet
        from club.chouette import ChouetteService

        fresh = await ChouetteService(service.club).state(outcome.session_id)
        assert fresh.sheet == view.sheet


async def test_a_chouette_decision_that_ends_no_game_neither_reads_nor_builds_the_sheet(tmp_path):
    """The cost of a decision does not grow with the games played. A decision that ends no game
    reads no stored sheet row and builds no sheet; one that ends a game reads that game's row only, and the sheet
    it shows then (and ``state``'s) is the whole sheet, as the engine keeps it."""
    async with chouettes(tmp_path / "c.sqlite3") as service:
        rng = random.Random(6)
        outcome = await seated(service)
        reads: list[int] = []
        sheet = service.store.sheet

        async def counted(session_id, *, after=0):
            rows = await sheet(session_id, after=after)
            reads.append(len(rows))
            return rows

        service.store.sheet = counted
        games, checked = 0, 0
        for _ in range(4000):
            if games >= 3:
                break
            outcome = await decide_randomly(service, outcome, rng, double=0.2)
            if outcome.finished:
                games = len(outcome.view.sheet.rows)
                assert [row.game for row in outcome.view.sheet.rows] == list(range(1, games + 1))
            elif games and outcome.view.board_live:
                assert "sheet" not in outcome.view.__dict__, "the sheet was built for a decision that ended no game"
                checked += 1
        assert games == 3 and checked > 10
        assert sum(reads) == 2 and len(reads) == 2, reads  # games 1 and 2's rows, each once (3's is not read yet)
        reads.clear()
        await service.state(outcome.session_id)
        assert reads == [1], "game 3's row only: the rows read before are not read again"
        reads.clear()
        await service.state(outcome.session_id)
        assert reads == [], "every stored row was read before: none is read again"
        view = await service.state(outcome.session_id)
        assert [row.game for row in view.sheet.rows] == [1, 2, 3] and view.sheet.zero_sum
