"""Board pictures drawn in worker processes, so that the bot's event loop and its pictures use two cores.

A board picture is about 10 ms of CPU (drawing, mapping to the palette, PNG deflate). In a worker *thread* it holds
the GIL most of that time, so a burst of a thousand actions ran on one core, and the bot process kept Pillow's
image buffers (several MB a picture) in its own heap. Here the caller builds what to draw — a small picklable
:class:`rendering.BoardView` or sheet view — and :func:`draw` hands it with the drawing function to a worker process,
which returns the PNG bytes. :data:`WORKERS` processes (one core left to the event loop), started on first use with
the ``spawn`` method (the bot's threads make ``fork`` unsafe, as in :mod:`club.offload`) and importing only
:mod:`rendering`; each keeps its own caches of what does not change (the empty board, sprites, palette:
:func:`rendering.warm_up`) and maps its big image buffers on their own (:func:`rendering.map_big_blocks`). When no
process can be started, or one died, the picture is drawn in a worker thread instead (logged).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import sys
import types
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from rendering import map_big_blocks

log = logging.getLogger(__name__)

WORKERS = max(1, (os.cpu_count() or 2) - 1)
"""Worker processes: every core but one, which the event loop keeps (one on a 2-core machine)."""

_pool: concurrent.futures.ProcessPoolExecutor | None = None


@contextlib.contextmanager
def _without_main_module():
    """While worker processes start: no main module for them to import. ``spawn`` otherwise runs the program's main
    file again in each worker (``bot.py`` imports discord.py and every cog); the workers need only
    :mod:`rendering`, imported when they unpickle the function to run."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def _executor() -> concurrent.futures.ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = concurrent.futures.ProcessPoolExecutor(
            WORKERS, mp_context=multiprocessing.get_context("spawn"), initializer=map_big_blocks
        )
    return _pool


def shutdown() -> None:
    """Stop the worker processes (at exit; a later :func:`draw` starts new ones)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


atexit.register(shutdown)


def worker_pids() -> list[int]:
    """The process ids of the workers running now (none before the first picture)."""
    processes = getattr(_pool, "_processes", None) or {}
    return [process.pid for process in list(processes.values()) if process.pid is not None]


async def draw(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Await ``fn(*args, **kwargs)`` — a module-level drawing function returning PNG bytes, with picklable
    arguments — in a worker process; raises what ``fn`` raises. A pool that cannot be started or whose worker died
    is replaced once; if that fails too, the picture is drawn in a worker thread."""
    for _attempt in range(2):
        try:
            with _without_main_module():  # the workers start here, on the first submissions
                future = _executor().submit(fn, *args, **kwargs)
        except (BrokenProcessPool, OSError, RuntimeError) as error:  # cannot start, or shut down meanwhile
            log.warning("no picture worker (%s); starting another", error)
            shutdown()
            continue
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool as error:  # a worker died (killed, out of memory)
            log.warning("a picture worker died (%s); starting another", error)
            shutdown()
    log.warning("no picture worker: drawing %s in a thread", getattr(fn, "__name__", fn))
    return await asyncio.to_thread(fn, *args, **kwargs)


async def warm(theme: str, *, width: int, home: str) -> None:
    """Start the workers and build their caches for (``theme``, ``width``, ``home``) now (each worker's first
    picture would otherwise take about a second)."""
    from rendering import warm_up

    await asyncio.gather(*(draw(warm_up, theme, width=width, home=home) for _ in range(WORKERS)))
