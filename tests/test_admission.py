"""Backpressure (club.admission): at most ``limit`` actions at once, the rest refused quickly as
busy with nothing stored — for the 1-on-1 game and the chouette alike."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from club.admission import Admission, BusyError
from tests.chouette_clubkit import ANN, chouettes, seated
from tests.clubkit import club_service, decide, new_table, snapshot

pytestmark = pytest.mark.backends


async def test_an_action_that_cannot_start_in_time_is_refused_and_stores_nothing(tmp_path):
    path = tmp_path / "a.sqlite3"
    admission = Admission(limit=1, max_wait=0.05)
    async with club_service(path, admission=admission) as service:
        outcome = await new_table(service)
        before = snapshot(path)
        async with admission.slot():  # another action holds the only slot
            started = time.perf_counter()
            with pytest.raises(BusyError, match="busy"):
                await decide(service, outcome.view, random.Random(1))
            assert time.perf_counter() - started < 1.0
        assert snapshot(path) == before and admission.refused == 1
        after = await decide(service, outcome.view, random.Random(1))  # with the slot free it goes through
        assert after.view.version > outcome.view.version


async def test_no_more_than_limit_actions_run_at_once_and_waiting_ones_are_admitted_in_order():
    admission = Admission(limit=2, max_wait=5)
    running, most, order = 0, 0, []

    async def action(n):
        nonlocal running, most
        async with admission.slot():
            running += 1
            most = max(most, running)
            order.append(n)
            await asyncio.sleep(0.01)
            running -= 1

    await asyncio.gather(*(action(n) for n in range(10)))
    assert most == 2 and order == list(range(10)) and admission.refused == 0


async def test_the_chouette_goes_through_the_same_admission(tmp_path):
    admission = Admission(limit=1, max_wait=0.01)
    async with chouettes(tmp_path / "c.sqlite3", admission=admission) as service:
        outcome = await seated(service)
        async with admission.slot():
            with pytest.raises(BusyError):
                await service.join(outcome.session_id, ANN)
    assert admission.refused == 1


def test_bad_limits_are_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="limit"):
        Admission(limit=0)
    with pytest.raises(ValueError, match="max_wait"):
        Admission(max_wait=-1)
    assert Admission(None).limit is None


async def test_past_max_waiting_an_action_is_refused_at_once():
    admission = Admission(limit=1, max_wait=5, max_waiting=2)
    release = asyncio.Event()

    async def holder():
        async with admission.slot():
            await release.wait()

    async def waiter():
        async with admission.slot():
            return "done"

    held = asyncio.create_task(holder())
    await asyncio.sleep(0)
    waiters = [asyncio.create_task(waiter()) for _ in range(2)]
    await asyncio.sleep(0)
    started = time.perf_counter()
    with pytest.raises(BusyError):
        async with admission.slot():
            pass
    assert time.perf_counter() - started < 0.1 and admission.waiting == 2
    release.set()
    assert await asyncio.gather(*waiters) == ["done", "done"]
    await held
    assert (admission.admitted, admission.refused) == (3, 1)


async def test_by_default_a_burst_past_the_limit_waits_its_turn_and_none_is_refused():
    admission = Admission(limit=2)  # the bot's admission: a bounded number at work, the rest queued
    running, most = 0, 0

    async def action():
        nonlocal running, most
        async with admission.slot():
            running += 1
            most = max(most, running)
            await asyncio.sleep(0)
            running -= 1
            return "done"

    answers = await asyncio.gather(*(action() for _ in range(500)))
    assert answers == ["done"] * 500 and most == 2
    assert admission.refused == 0 and admission.admitted == 500 and admission.waiting == 0
