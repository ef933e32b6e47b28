"""A pool of worker processes for CPU work the event loop must not do (:mod:`club.offload`, :mod:`club.picture_pool`).

The processes start on first use with the ``spawn`` method (the bot's threads make ``fork`` unsafe). A pool that
cannot be started, or whose worker died, is replaced once; if that fails too, the call runs in a worker thread
instead (logged), so the work is always done.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import multiprocessing
import sys
import types
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)


@contextlib.contextmanager
def _without_main_module() -> Iterator[None]:
    """While worker processes start: no main module for them to import. ``spawn`` otherwise runs the program's main
    file again in each worker (``bot.py`` imports discord.py and every cog)."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


class WorkerPool:
    """``workers`` processes, each run ``initializer`` first; ``name`` says what they are in the log ("picture
    worker"); ``bare`` starts them without the program's main module (they import only what the functions they
    run need)."""

    def __init__(self, workers: int, name: str, *, initializer: Callable[[], None] | None = None,
                 bare: bool = False) -> None:  # fmt: skip
        self.workers = workers
        self.name = name
        self.initializer = initializer
        self.bare = bare
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        atexit.register(self.shutdown)

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=self.initializer
            )
        return self._pool

    def shutdown(self) -> None:
        """Stop the workers (at exit; a later :meth:`run` starts new ones)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def pids(self) -> list[int]:
        """The process ids of the workers running now (none before the first call)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return [process.pid for process in list(processes.values()) if process.pid is not None]

    async def run(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Await ``fn(*args, **kwargs)`` (a module-level function; picklable arguments and answer) in a worker;
        raises what ``fn`` raises."""
        for _attempt in range(2):
            try:
                with _without_main_module() if self.bare else contextlib.nullcontext():
                    future = self._executor().submit(fn, *args, **kwargs)  # the workers start here
            except (BrokenProcessPool, OSError, RuntimeError) as error:  # cannot start, or shut down meanwhile
                log.warning("no %s (%s); starting another", self.name, error)
                self.shutdown()
                continue
            try:
                return await asyncio.wrap_future(future)
            except BrokenProcessPool as error:  # a worker died (killed, out of memory)
                log.warning("a %s died (%s); starting another", self.name, error)
                self.shutdown()
        log.warning("no %s: running %s in a thread", self.name, getattr(fn, "__name__", fn))
        return await asyncio.to_thread(fn, *args, **kwargs)
