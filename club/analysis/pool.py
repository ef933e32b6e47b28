"""The worker processes the engine runs in: analysis and engine turns never run on the event loop.

:class:`AnalysisPool` wraps a :class:`concurrent.futures.ProcessPoolExecutor` (``spawn`` start method: the bot's
process has threads, which ``fork`` would copy half-way). Each worker builds its engines once
(:func:`engine`, cached per level) and keeps them for every task. The tasks are module-level functions taking and
returning plain, picklable values; the coroutine :meth:`AnalysisPool.run` awaits one without blocking the loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
from collections.abc import Callable
from typing import Any

from . import require_engine

_ENGINES: dict[str, Any] = {}


def engine(level: str = "2ply"):
    """This process's :class:`~club.analysis.sage.SageEngine` at ``level`` (built on first use, then kept). Raises
    :class:`~club.analysis.AnalysisUnavailableError` without the engine installed."""
    if level not in _ENGINES:
        require_engine()
        from .sage import SageEngine

        _ENGINES[level] = SageEngine(level)
    return _ENGINES[level]


def default_workers() -> int:
    """Worker processes by default: the machine's cores, at most 4 (``os.cpu_count``)."""
    return max(1, min(4, os.cpu_count() or 1))


class AnalysisPool:
    """A lazily started pool of ``workers`` engine processes. ``submit``/``map`` for scripts, ``run`` for coroutines;
    ``shutdown`` stops the workers (also on ``with``). Raises :class:`~club.analysis.AnalysisUnavailableError` on
    first use when the engine is not installed (checked in this process, before any worker starts). ``screened``
    keeps the screens of finished games its workers (or a review) computed (:mod:`club.analysis.screen`)."""

    def __init__(self, workers: int | None = None) -> None:
        from .screen import ScreenCache

        self.workers = workers or default_workers()
        self.screened = ScreenCache()
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            require_engine()
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._executor

    def submit(self, fn: Callable, *args: Any) -> concurrent.futures.Future:
        """Run ``fn(*args)`` in a worker; returns its future."""
        return self._pool().submit(fn, *args)

    def map(self, fn: Callable, *iterables: Any) -> list:
        """``[fn(*args) for args in zip(*iterables)]`` across the workers, in order."""
        return list(self._pool().map(fn, *iterables))

    async def run(self, fn: Callable, *args: Any) -> Any:
        """Await ``fn(*args)`` run in a worker (the event loop stays free)."""
        return await asyncio.wrap_future(self.submit(fn, *args))

    def shutdown(self) -> None:
        """Stop the workers (waits for running tasks)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def __enter__(self) -> AnalysisPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
