"""Two clicks at once: the same action (roll, play, double, take, drop) fired twice concurrently on one game, 1,000+
times. Exactly one applies each time; the other gets a clear "already done" / "not your turn" / "not now" error, and
the log holds each action exactly once (RULES G10: a play is final; D1: one double per offer).

Also across two database connections (two bot processes): the version check lets exactly one writer win.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from club import ClubService, ManualClock, NotNowError, NotYourTurnError, StaleVersionError
from club.verify import verify_database
from storage import Database
from tests.clubkit import ALICE, BOB, club_service, new_table, seeded

pytestmark = [pytest.mark.asyncio, pytest.mark.backends]

REFUSALS = (StaleVersionError, NotYourTurnError, NotNowError)


def choose(view, counts: Counter) -> tuple[str, tuple]:
    """The action to fire twice, keeping the four kinds balanced and the cube small."""
    pending = view.pending
    game = view.game
    if pending == "roll_or_double":
        return ("double", ()) if counts["double"] <= counts["roll"] else ("roll", ())
    if pending == "roll":
        return "roll", ()
    if pending == "answer_double":  # take 2, 4 and 8; drop 16: the game ends and the next one starts
        return ("take", ()) if game.cube_offered <= 8 else ("drop", ())
    if pending == "play":
        return "play", ()
    raise AssertionError(f"unexpected pending {pending}")


async def fire_twice(services, view, kind, use_version: bool):
    member = view.waiting_for
    kwargs = {"version": view.version} if use_version else {}
    calls = []
    for service in services:
        method = getattr(service, kind)
        if kind == "play":
            plays = await service.legal_plays(view.match_id, member)
            calls.append(method(view.match_id, member, plays[len(plays) // 2], **kwargs))
        else:
            calls.append(method(view.match_id, member, **kwargs))
    return await asyncio.gather(*calls, return_exceptions=True)


def split(results):
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    return applied, refused


async def test_one_thousand_double_clicks_apply_exactly_once(tmp_path):
    async with club_service(tmp_path / "club.sqlite", seeds=seeded(1000)) as service:
        for member in (ALICE, BOB):
            await service.set_preferences(member, auto_roll=False)
        outcome = await new_table(service, 0, rules="money", overrides={"beavers": False})
        match_id = outcome.match_id
        view = outcome.view
        counts: Counter = Counter()
        refusal_types: Counter = Counter()
        pairs = 0
        while pairs < 1000 or min(counts[k] for k in ("roll", "play", "double", "take")) < 200:
            kind, _ = choose(view, counts)
            results = await fire_twice([service, service], view, kind, use_version=pairs % 2 == 0)
            applied, refused = split(results)
            assert len(applied) == 1 and len(refused) == 1, results
            error = refused[0]
            assert isinstance(error, REFUSALS), repr(error)
            text = str(error)
            assert any(words in text for words in ("Already done", "not your turn", "cannot")), text
            refusal_types[type(error).__name__] += 1
            counts[kind] += 1
            pairs += 1
            view = applied[0].view
        assert refusal_types["StaleVersionError"] >= 500  # the clicks that carried the version they saw
        assert refusal_types["NotYourTurnError"] + refusal_types["NotNowError"] >= 400
        log = await service.log(match_id)
        logged = Counter(a.kind for a in log if not a.auto)
        for kind in ("double", "take", "drop"):
            assert logged[kind] == counts[kind], kind  # each applied exactly once
        assert logged["roll"] == counts["roll"] and logged["play"] >= counts["play"]
        reports = await verify_database(service.db)
        assert all(report.ok for report in reports), [r.problems for r in reports]


async def test_two_connections_racing_apply_exactly_once(tmp_path):
    """Two services on two connections to one file (two processes): no shared asyncio lock, only the database's
    conditional update decides. Exactly one of each pair applies."""
    path = tmp_path / "club.sqlite"
    async with club_service(path, seeds=seeded(7)) as first:
        for member in (ALICE, BOB):
            await first.set_preferences(member, auto_roll=False)
        outcome = await new_table(first, 0, rules="money", overrides={"beavers": False})
        async with Database.open(path) as db2:
            second = ClubService(db2, clock=ManualClock(), seeds=seeded(8))
            view = outcome.view
            counts: Counter = Counter()
            for pair in range(150):
                kind, _ = choose(view, counts)
                results = await fire_twice([first, second], view, kind, use_version=pair % 3 == 0)
                applied, refused = split(results)
                assert len(applied) == 1 and len(refused) == 1, results
                assert isinstance(refused[0], REFUSALS), repr(refused[0])
                counts[kind] += 1
                view = applied[0].view
            log = await first.log(view.match_id)
            assert Counter(a.kind for a in log if not a.auto)["double"] == counts["double"]
            reports = await verify_database(db2)
            assert all(report.ok for report in reports), [r.problems for r in reports]
