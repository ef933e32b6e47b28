"""Board pictures drawn in worker processes, so that the bot's event loop and its pictures use two cores.

A board picture is about 10 ms of CPU (drawing, mapping to the palette, PNG deflate). In a worker *thread* it holds
the GIL most of that time, so a burst of a thousand actions ran on one core, and the bot process kept Pillow's
image buffers (several MB a picture) in its own heap. Here the caller builds what to draw — a small picklable
:class:`rendering.BoardView` or sheet view — and :func:`draw` hands it with the drawing function to a worker process,
which returns the PNG bytes. :data:`WORKERS` processes (one core left to the event loop), started on first use with
the ``spawn`` method (the bot's threads make ``fork`` unsafe: :class:`club.workers.WorkerPool`) and importing only
:mod:`rendering`; each keeps its own caches of what does not change (the empty board, sprites, palette:
:func:`rendering.warm_up`) and maps its big image buffers on their own (:func:`rendering.map_big_blocks`). When no
process can be started, or one died, the picture is drawn in a worker thread instead (logged).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any

from rendering import map_big_blocks

from .workers import WorkerPool

WORKERS = max(1, (os.cpu_count() or 2) - 1)
"""Worker processes: every core but one, which the event loop keeps (one on a 2-core machine)."""

POOL = WorkerPool(WORKERS, "picture worker", initializer=map_big_blocks, bare=True)
"""The picture workers, started without the program's main module: they import only :mod:`rendering`."""


def shutdown() -> None:
    """Stop the worker processes (at exit; a later :func:`draw` starts new ones)."""
    POOL.shutdown()


def worker_pids() -> list[int]:
    """The process ids of the workers running now (none before the first picture)."""
    return POOL.pids()


async def draw(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Await ``fn(*args, **kwargs)`` — a module-level drawing function of :mod:`rendering` with small picklable
    arguments — in a worker process; raises what ``fn`` raises; drawn in a worker thread when no worker can be had
    (:meth:`WorkerPool.run`)."""
    return await POOL.run(fn, *args, **kwargs)


async def warm(theme: str, *, width: int, home: str) -> None:
    """Start the workers and build their caches for (``theme``, ``width``, ``home``) now (each worker's first
    picture would otherwise take about a second)."""
    from rendering import warm_up

    await asyncio.gather(*(draw(warm_up, theme, width=width, home=home) for _ in range(WORKERS)))
