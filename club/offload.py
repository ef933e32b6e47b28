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

import contextlib
import os
from collections.abc import Callable
from typing import Any

from .workers import WorkerPool

NICENESS = 10
"""How much lower the worker's scheduling priority is (``os.nice``): on a busy machine the operating system runs the
bot's event loop first, and the long work in the time left."""


def _lower_priority() -> None:
    """In the worker, at its start: lower its priority by :data:`NICENESS` (where the system allows it)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICENESS)


POOL = WorkerPool(1, "worker process", initializer=_lower_priority)
"""One worker process: the bot shares its machine, so long work waits its turn rather than taking every core."""


def shutdown() -> None:
    """Stop the worker process (at exit; a later :func:`run` starts a new one)."""
    POOL.shutdown()


async def run(fn: Callable, *args: Any) -> Any:
    """Await ``fn(*args)`` (a module-level function; picklable arguments and answer) in the worker process; raises
    what ``fn`` raises (:meth:`WorkerPool.run`: a thread when no process can be had)."""
    return await POOL.run(fn, *args)
