"""Admission control for actions (backpressure): at most ``limit`` actions are worked on at once,
and an action that cannot start within ``max_wait`` seconds is refused at once with :class:`BusyError` — nothing
is loaded or stored for it, and the member is told to try again — instead of queueing without bound.

Why. Every action loads a game, applies it and commits it through one database; a thousand clicks arriving in the same
second would otherwise all load their states at once (memory grows with the queue) and the last would be answered
after every other one (11 s measured with 1,000 games, ``bench/load.py``). With admission the memory of the work in
progress is bounded by ``limit`` states, and every click is answered — done, or "busy, try again" — within about
``max_wait`` plus one action's time; past ``max_waiting`` waiting actions a click is refused at once. Waiting actions are admitted in arrival order (``asyncio.Semaphore`` is fair).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from .errors import ClubError

DEFAULT_LIMIT = 16
"""Actions worked on at once (each holds one loaded game state)."""

DEFAULT_MAX_WAIT = 0.8
"""Seconds an action may wait for its turn before it is refused as busy."""

DEFAULT_MAX_WAITING = 64
"""Actions that may wait at once; one more is refused at once (it could not start within the wait anyway)."""


class BusyError(ClubError):
    """The club is too busy to start this action now (see :mod:`club.admission`); nothing was stored."""


class Admission:
    """At most ``limit`` actions at once; an action that waits longer than ``max_wait`` seconds is refused, and so
    is one that finds ``max_waiting`` actions already waiting (at once: it could not start in time anyway).

    Use ``async with admission.slot():`` around one action's load → apply → commit. ``limit=None``: no limit (what a
    :class:`~club.service.ClubService` has unless it is given one; the bot gives it the defaults). Raises
    ``ValueError`` for a limit below 1 or a negative wait or queue. ``admitted`` and ``refused`` count the actions so
    far; ``waiting`` is how many wait now."""

    def __init__(
        self,
        limit: int | None = DEFAULT_LIMIT,
        max_wait: float = DEFAULT_MAX_WAIT,
        max_waiting: int = DEFAULT_MAX_WAITING,
    ) -> None:
        self.admitted = self.refused = self.waiting = 0
        if limit is None:  # unbounded: every action starts at once (tests, tools, the console)
            self.limit, self.max_wait, self.max_waiting, self._slots = None, float("inf"), None, None
            return
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit is a whole number of actions ≥ 1, not {limit!r}")
        if not isinstance(max_wait, int | float) or max_wait < 0:
            raise ValueError(f"max_wait is a number of seconds ≥ 0, not {max_wait!r}")
        if isinstance(max_waiting, bool) or not isinstance(max_waiting, int) or max_waiting < 0:
            raise ValueError(f"max_waiting is a whole number of actions ≥ 0, not {max_waiting!r}")
        self.limit = limit
        self.max_wait = float(max_wait)
        self.max_waiting = max_waiting
        self._slots = asyncio.Semaphore(limit)

    def __repr__(self) -> str:
        return f"Admission(limit={self.limit}, max_wait={self.max_wait}, max_waiting={self.max_waiting})"

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """One action's turn: waits at most ``max_wait`` seconds for a free slot, else raises :class:`BusyError`
        (at once when ``max_waiting`` actions already wait)."""
        if self._slots is None:
            self.admitted += 1
            yield
            return
        busy = BusyError("The club is very busy right now: nothing was done. Try again in a moment.")
        if not self._slots.locked():
            await self._slots.acquire()  # a free slot and nobody waiting: at once
        elif self.waiting >= self.max_waiting:
            self.refused += 1
            raise busy
        else:
            self.waiting += 1
            try:
                await asyncio.wait_for(self._slots.acquire(), timeout=self.max_wait)
            except TimeoutError:
                self.refused += 1
                raise busy from None
            finally:
                self.waiting -= 1
        self.admitted += 1
        try:
            yield
        finally:
            self._slots.release()
