"""Admission control for actions (backpressure): at most ``limit`` actions are worked on at once; the others wait
their turn in arrival order (``asyncio.Semaphore`` is fair). Nothing is refused unless a caller asks for refusals.

Why. Every action loads a game, applies it and commits it through one database; a thousand clicks arriving in the same
second would otherwise all load their states at once, so the memory of the work in progress grew with the queue.
With admission it is bounded by ``limit`` loaded states, and the waiting clicks hold only their small requests.

Every click is done: Discord's deadline is for the first answer, which the bot gives (a defer) before the action
waits here, and a member told "busy, try again" would only click again. A caller may still set ``max_wait`` (refuse
an action that cannot start within so many seconds) and ``max_waiting`` (refuse at once past so many waiting); the
refusal is :class:`BusyError`, with nothing loaded or stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from .errors import ClubError

DEFAULT_LIMIT = 16
"""Actions worked on at once (each holds one loaded game state)."""


class BusyError(ClubError):
    """The club is too busy to start this action now (see :mod:`club.admission`); nothing was stored."""


class Admission:
    """At most ``limit`` actions at once, the others waiting their turn. Only when asked: an action that waits longer
    than ``max_wait`` seconds is refused, and so is one that finds ``max_waiting`` actions already waiting (at once:
    it could not start in time anyway); None (the default) refuses none.

    Use ``async with admission.slot():`` around one action's load → apply → commit. ``limit=None``: no limit (what a
    :class:`~club.service.ClubService` has unless it is given one; the bot gives it the default limit). Raises
    ``ValueError`` for a limit below 1 or a negative wait or queue. ``admitted`` and ``refused`` count the actions so
    far; ``waiting`` is how many wait now."""

    def __init__(
        self,
        limit: int | None = DEFAULT_LIMIT,
        max_wait: float | None = None,
        max_waiting: int | None = None,
    ) -> None:
        self.admitted = self.refused = self.waiting = 0
        if limit is None:  # unbounded: every action starts at once (tests, tools, the console)
            self.limit, self.max_wait, self.max_waiting, self._slots = None, None, None, None
            return
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit is a whole number of actions ≥ 1, not {limit!r}")
        if max_wait is not None and (not isinstance(max_wait, int | float) or max_wait < 0):
            raise ValueError(f"max_wait is a number of seconds ≥ 0 or None, not {max_wait!r}")
        if max_waiting is not None and (isinstance(max_waiting, bool) or not isinstance(max_waiting, int)
                                        or max_waiting < 0):  # fmt: skip
            raise ValueError(f"max_waiting is a whole number of actions ≥ 0 or None, not {max_waiting!r}")
        self.limit = limit
        self.max_wait = None if max_wait is None else float(max_wait)
        self.max_waiting = max_waiting
        self._slots = asyncio.Semaphore(limit)

    def __repr__(self) -> str:
        return f"Admission(limit={self.limit}, max_wait={self.max_wait}, max_waiting={self.max_waiting})"

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """One action's turn: waits for a free slot — at most ``max_wait`` seconds, else raises :class:`BusyError`
        (at once when ``max_waiting`` actions already wait)."""
        if self._slots is None:
            self.admitted += 1
            yield
            return
        busy = BusyError("The club is very busy right now: nothing was done. Try again in a moment.")
        if not self._slots.locked():
            await self._slots.acquire()  # a free slot and nobody waiting: at once
        elif self.max_waiting is not None and self.waiting >= self.max_waiting:
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
