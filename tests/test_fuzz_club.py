"""A fuzz run through the club/ layer: ≥ 10,000 hostile calls — wrong types, huge and control
texts, NaN and infinities, ids of nothing or of another server, stale versions, other members' turns, random
play texts — mixed with legal decisions so that every stage of 1-on-1 games, money sessions and chouettes is hit.
Every call either succeeds or is refused with a :class:`~backgammon.errors.BackgammonError` whose explained message
fits Discord (0 uncaught exceptions), and a refused call changes no row (the connection's ``total_changes`` stays,
and every 250th refusal a full snapshot of every table is compared)."""

from __future__ import annotations

import math
import os
import random
import time
import traceback

import pytest

from backgammon.errors import BackgammonError
from club import ClubService, ManualClock, frontend
from club.chouette import ChouetteService
from club.records.service import ClubRecords
from club.requests import Request
from storage import Database
from tests.clubkit import ALICE, BOB, CAROL, GUILD, NAMES, decide, snapshot

pytestmark = pytest.mark.backends

CALLS = int(os.environ.get("FUZZ_CALLS", "2000"))
"""Calls of the default run; the Must-show run is :func:`test_ten_thousand_hostile_calls` (``-m slow``)."""
OTHER_GUILD = 99
HOSTILE = [None, 0, -1, 2**63, 2**70, 1.5, math.nan, math.inf, -math.inf, True, "", "1", "x" * 5000, "\x00",
           "24/18\x00", "bar/off " * 300, [], {}, {"a": 1}, (1,), b"bytes", object()]  # fmt: skip
MEMBER_ACTIONS = ("accept", "decline", "cancel", "roll", "double", "take", "drop", "beaver", "raccoon",
                  "accept_resignation", "reject_resignation", "stop")  # fmt: skip


def _value(rng: random.Random):
    return rng.choice(HOSTILE)


async def _hostile(rng, service, chouettes, records, matches, sessions):
    """One hostile call (returns a coroutine's result or raises)."""
    players = (ALICE, BOB, CAROL)
    match_id = rng.choice([*matches, *HOSTILE[:6], 10**6]) if matches else _value(rng)
    member = rng.choice([*players, *HOSTILE[:6], 424242])
    choice = rng.randrange(16)
    if choice == 0:
        return await getattr(service, rng.choice(MEMBER_ACTIONS))(match_id, member, version=rng.choice(
            [None, 1, 10**9, -3, "v", math.nan]))  # fmt: skip
    if choice == 1:
        text = rng.choice(["24/18 13/11", "13/7 8/7", "bar/20", "6/off 5/off", "25/0", "24/23*/22", "pass", "",
                           "13/7 13/7 13/7 13/7 13/7", "0/25", "24/18 24/18 24/18", _value(rng)])  # fmt: skip
        return await service.play(match_id, member, text)
    if choice == 2:
        return await service.resign(match_id, member, rng.choice([0, 1, 2, 3, 4, -1, "gammon", _value(rng)]))
    if choice == 3:
        return await service.challenge(rng.choice([GUILD, OTHER_GUILD, _value(rng)]), member,
                                       rng.choice([*players, _value(rng)]), length=rng.choice([0, 1, 3, 100, -1, _value(rng)]),
                                       rules=rng.choice([None, "money", "tournament", "nonsense", _value(rng)]),
                                       stake=rng.choice([0, 5, -5, 2**64, _value(rng)]))  # fmt: skip
    if choice == 4:
        name = rng.choice(["reminders", "max_stake", "move_time", "challenge_time", "expiry_policy", "match_rules",
                           "rule_overrides", "game_channel", "bogus"])  # fmt: skip
        value = rng.choice([_value(rng), [math.nan], [math.inf], [-1], 10**40, {"cube_cap": "x"}])
        return await service.configure_club(rng.choice([GUILD, _value(rng)]), **{name: value})
    if choice == 5:
        return await service.set_preferences(member, **{rng.choice(["auto_roll", "notify", "bogus"]): _value(rng)})
    if choice == 6:
        request = Request(member, guild_id=rng.choice([GUILD, OTHER_GUILD]))
        return await frontend.perform(service, match_id, request, rng.choice([*MEMBER_ACTIONS, "play", "resign",
                                      "explode", _value(rng)]), _value(rng))  # fmt: skip
    if choice == 7:
        return await frontend.resolve_match(service, member, guild_id=rng.choice([GUILD, OTHER_GUILD]),
                                            given=rng.choice([match_id, None]), here=rng.choice([match_id, None]))  # fmt: skip
    if choice == 8:
        return await rng.choice([service.state, service.log])(match_id)
    if choice == 9:
        return await service.legal_plays(match_id, member)
    if choice == 10:
        return await service.game(match_id, rng.choice([1, 2, 0, -1, 10**9, _value(rng)]))
    if choice == 11:
        return await frontend.dice_proof(service, match_id, rng.choice([None, 1, 99, _value(rng)]),
                                         guild_id=rng.choice([GUILD, OTHER_GUILD]))  # fmt: skip
    if choice == 12:
        return await records.correct(rng.choice([GUILD, OTHER_GUILD]), CAROL, member, rng.choice([*players, _value(rng)]),
                                     reason=rng.choice(["\x00", "", "x" * 600, "ok", _value(rng)]),
                                     points=rng.choice([0, -1, 10**13, _value(rng)]), money=rng.choice([0, _value(rng)]))  # fmt: skip
    sid = rng.choice([*sessions, *HOSTILE[:6]]) if sessions else _value(rng)
    if choice == 13:
        return await chouettes.act(sid, member, rng.choice(["roll", "double", "take", "drop", "pass", "extra",
                                   "explode", _value(rng)]), subject=rng.choice([None, member, _value(rng)]),
                                   mark=rng.choice([None, "1.1", "x", _value(rng)]))  # fmt: skip
    if choice == 14:
        return await chouettes.play(sid, member, rng.choice(["24/18 13/11", "", _value(rng)]),
                                    mark=rng.choice([None, _value(rng)]))  # fmt: skip
    return await rng.choice([chouettes.join, chouettes.leave, chouettes.seat])(sid, member)


@pytest.mark.sqlite_only
async def test_hostile_calls(tmp_path):
    """:data:`CALLS` hostile calls (the default run, a few seconds)."""
    await _fuzz(tmp_path, CALLS)


@pytest.mark.slow
@pytest.mark.sqlite_only
async def test_ten_thousand_hostile_calls(tmp_path):
    """10,000 hostile calls (about 40 s on one free core)."""
    await _fuzz(tmp_path, 10_000)


async def _fuzz(tmp_path, calls: int) -> None:
    path = tmp_path / "fuzz.sqlite3"
    rng = random.Random(12)
    uncaught: list[str] = []
    changed: list[str] = []
    refused = succeeded = 0
    started = time.perf_counter()
    async with Database.open(path, synchronous="OFF") as db:  # durability is not what is tested: no fsync
        service = ClubService(db, clock=ManualClock())
        for user, name in NAMES.items():
            await service.register(GUILD, user, name)
        chouettes = ChouetteService(service)
        records = ClubRecords(service)
        await service.register(OTHER_GUILD, CAROL, "Carol")
        matches = [(await service.challenge(GUILD, ALICE, BOB, length=n)).match_id for n in (0, 3, 1)]
        await service.accept(matches[0], BOB)
        await service.accept(matches[1], BOB)
        sessions = [(await chouettes.start(GUILD, 555, ALICE)).session_id]
        await chouettes.join(sessions[0], BOB)
        conn = service.db._conn
        for call in range(calls):
            if call % 4 == 0:  # a legal step keeps the games moving through their stages
                for match_id in matches:
                    view = await service.state(match_id)
                    if view.status == "active" and view.waiting_for is not None:
                        await decide(service, view, rng, cube=0.2, resign=0.01)
                        break
                else:
                    matches.append((await service.challenge(GUILD, BOB, ALICE, length=rng.choice([0, 1]))).match_id)
                    await service.accept(matches[-1], ALICE)
            before = conn.total_changes
            full = snapshot(path) if refused % 250 == 0 else None
            try:
                await _hostile(rng, service, chouettes, records, matches, sessions)
                succeeded += 1
            except BackgammonError as error:
                refused += 1
                message = frontend.explain(error)
                if len(message) >= 2000 or not message.strip():
                    uncaught.append(f"call {call}: a message of {len(message)} characters")
                if conn.total_changes != before or (full is not None and snapshot(path) != full):
                    changed.append(f"call {call}: {type(error).__name__}: {str(error)[:120]}")
            except Exception as error:
                where = traceback.extract_tb(error.__traceback__)[-4:]
                trail = " < ".join(f"{frame.name}:{frame.lineno}" for frame in reversed(where))
                uncaught.append(f"call {call}: {type(error).__name__}: {str(error)[:80]} at {trail}")
    seconds = time.perf_counter() - started
    print(f"{calls} hostile calls in {seconds:.1f} s: {refused} refused, {succeeded} done, "
          f"{len(uncaught)} uncaught, {len(changed)} changed state")  # fmt: skip
    kinds = {}
    for item in uncaught:
        kinds.setdefault(item.split(": ", 1)[1][:70], item)
    assert not uncaught, sorted(kinds.values())
    assert not changed, changed[:10]
    assert refused > calls * 0.6
