"""Long CPU work of the bot in a worker process, never on the event loop.

Replaying a 300-game money session's log (30,000 actions: ``/bg export``, ``club verify``, the match file kept when
a table ends) takes seconds of CPU. In a worker *thread* it still stalls the event loop: the thread holds the GIL
between switches, and the 150,000 objects the replay builds make every full garbage collection of the process pause
all its threads for 50–200 ms (``bench/loop_lag.py``). So the work runs in a worker *process*, which reads the rows
itself from the SQLite file (:func:`source`, :func:`rows`; for another backend the event loop reads them and hands
them over), builds the records, replays and returns its answer (a text, a report).

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
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

WORKERS = 1
"""Worker processes: one (the bot shares its machine; long work waits its turn rather than taking every core)."""

_pool: concurrent.futures.ProcessPoolExecutor | None = None

Packed = tuple[tuple[str, ...], list[tuple]]
"""Rows as ``(column names, [values of one row, …])``: what crosses into the worker process."""

Queries = dict[str, tuple[str, tuple]]
"""Named queries: name → ``(SQL with ? placeholders, parameters)``."""


async def source(db: Any, queries: Queries) -> tuple:
    """Where the worker process finds the rows of ``queries``: for an SQLite file, the file itself (the worker reads
    them in one read transaction: nothing is built or copied in this process, and pickling 30,000 rows across
    would hold the GIL for a long stretch); otherwise (PostgreSQL, a database in memory) the rows, read here and
    :func:`packed`. Give it to :func:`rows` in the worker."""
    path = getattr(db, "path", None)
    if getattr(db, "dialect", "sqlite") == "sqlite" and path is not None and Path(path).is_file():
        return ("file", str(path), queries)
    return ("rows", {name: packed(await db._fetchall(sql, params)) for name, (sql, params) in queries.items()})


def rows(found: tuple) -> dict[str, list]:
    """In the worker: the rows :func:`source` points to, by query name (each row indexable by column name)."""
    if found[0] == "rows":
        return {name: unpacked(packed_rows, dict) for name, packed_rows in found[1].items()}
    _, path, queries = found
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("BEGIN")  # one read transaction: the queries see one moment
        answer = {name: conn.execute(sql, params).fetchall() for name, (sql, params) in queries.items()}
        conn.execute("COMMIT")
        return answer
    finally:
        conn.close()


def packed(rows: Sequence[Any]) -> Packed:
    """``rows`` (``sqlite3.Row``-like: ``keys()`` and iteration) as :data:`Packed`."""
    if not rows:
        return (), []
    return tuple(rows[0].keys()), [tuple(row) for row in rows]


def unpacked(rows: Packed, build: Callable[[dict], Any]) -> list:
    """``[build(row as a dict) for each row]`` (``build`` e.g. ``ActionRecord.from_row``)."""
    columns, values = rows
    return [build(dict(zip(columns, row, strict=True))) for row in values]


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
