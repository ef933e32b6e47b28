"""Hot state without history (issue 13 item 1, issue 17 step 4): the stored state of a money session does not grow
with the games played, and a chouette's holds no event history — the finished games are in their own rows and the
log."""

from __future__ import annotations

import json
import random

from chouette_clubkit import chouettes, decide_randomly, seated
from clubkit import club_service, decide, new_table

from storage import dumps


async def test_a_money_sessions_state_does_not_grow_with_its_games(tmp_path):
    async with club_service(tmp_path / "c.sqlite3") as service:
        rng = random.Random(4)
        outcome = await new_table(service, 0)
        sizes = {}
        while outcome.view.game_number <= 12:
            number = outcome.view.game_number
            if number not in sizes:
                state = dict((await service.db.get_match(outcome.match_id)).state)
                book = state.pop("dice")  # the dice book (issue 12 item 1): the current and next game's only
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
                assert "history" not in state["session"]
                sizes.append(len(dumps(state)))
        assert len(sizes) == 4
        # between games only the sheet grows: one row per game (a few hundred bytes), not the game's events
        assert max(b - a for a, b in zip(sizes, sizes[1:], strict=False)) < 600, sizes
