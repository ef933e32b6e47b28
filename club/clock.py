"""Clocks: where the use-case layer gets "now" from (Unix seconds, UTC, as a float).

Injected everywhere time matters (deadlines, reminders, log timestamps), so tests move time by hand with
:class:`ManualClock` and the bot uses :class:`SystemClock` (RULES A2).
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Anything with ``now() -> float`` (Unix seconds)."""

    def now(self) -> float:
        """The current time in Unix seconds."""
        ...


class SystemClock:
    """The real time (``time.time()``)."""

    def now(self) -> float:
        """The current time in Unix seconds."""
        return time.time()


class ManualClock:
    """A clock that moves only when told: ``advance(seconds)`` or ``set(t)``. Starts at ``start`` (Unix seconds)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        """The clock's current time in Unix seconds."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move the clock forward by ``seconds`` (≥ 0; raises ``ValueError`` otherwise); returns the new time."""
        if seconds < 0:
            raise ValueError(f"a clock only moves forward; got {seconds} seconds")
        self._now += float(seconds)
        return self._now

    def set(self, when: float) -> None:
        """Set the time to ``when`` (Unix seconds)."""
        self._now = float(when)
