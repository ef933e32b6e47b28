"""Long CPU work of the bot in a worker process, never on the event loop.

Replaying a 300-game money session's log (30,000 actions: ``/bg export``, ``club verify``, the match file kept when
a table ends) takes seconds of CPU. In a worker *thread* it still stalls the event loop: the thread holds the GIL
between switches, and the 150,000 objects the replay builds make every full garbage collection of the process pause
all its threads for 50–200 ms (``bench/loop_lag.py``). So the work runs in a worker *process*, which reads the rows
itself (:meth:`storage.Database.match_rows` says where they are: the SQLite file, or for another backend the rows
read on the event loop; :meth:`storage.worker_rows.MatchRows.read` reads them in the worker), builds the records,
replays and returns its answer (a text, a report).

:func:`run` awaits ``fn(*args)`` in the one shared worker process (started on first use with the ``spawn`` method,
as :mod:`club.analysis.pool` does: the bot's threads make ``fork`` unsafe), falling back to a worker thread when no
process can be started.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

WORKERS = 1
"""Worker processes: one (the bot shares its machine; long work waits its turn rather than taking every core)."""

_pool: concurrent.futures.ProcessPoolExecutor | None = None

NICENESS = 10
"""How much lower the worker's scheduling priority is (``os.nice``): on a busy machine the operating system runs the
bot's event loop first, and the long work in the time left."""


def _lower_priority() -> None:
    """In the worker, at its start: lower its priority by :data:`NICENESS` (where the system allows it)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICENESS)


def _executor() -> concurrent.futures.ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = concurrent.futures.ProcessPoolExecutor(
            WORKERS, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
        )
    return _pool


def shutdown() -> None:
    """Stop the worker process (at exit; a later :func:`run` starts a new one)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


atexit.register(shutdown)


async def run(fn: Callable, *args: Any) -> Any:
    """Await ``fn(*args)`` (a module-level function; picklable arguments and answer) in the worker process; raises
    what ``fn`` raises. A worker that cannot be started or died is replaced once; if that fails too, the call runs in
    a worker thread instead (logged)."""
    for _attempt in range(2):
        try:
            future = _executor().submit(fn, *args)
        except (BrokenProcessPool, OSError, RuntimeError) as error:  # cannot start, or shut down meanwhile
            log.warning("no worker process (%s); starting another", error)
            shutdown()
            continue
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool as error:  # the worker died (killed, out of memory)
            log.warning("the worker process died (%s); starting another", error)
            shutdown()
    log.warning("no worker process: running %s in a thread", getattr(fn, "__name__", fn))
    return await asyncio.to_thread(fn, *args)
