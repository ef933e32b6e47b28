"""The scheduler's lease: exactly one bot process on a database runs the reminder loop
(:func:`club.scheduler.run_due`, driven by :mod:`cogs.reminders`) at a time.

Get one with :meth:`storage.Database.scheduler_lease`; before each round the loop asks :meth:`hold` and runs only
when it is True (a process that was refused asks again on the next round).

- SQLite (:class:`GrantedLease`): always granted — one bot process per database file.
- PostgreSQL (:class:`AdvisoryLease`): a session-level ``pg_try_advisory_lock`` on a connection of its own (not one
  of the pool's), kept across rounds. PostgreSQL frees the lock with its session, so a process that dies (or loses
  that connection) gives the lead up, and another process takes it on its next round. :meth:`hold` checks that the
  session is still alive before every round; a lost session is dropped and the lock asked for again.

The lease keeps two schedulers from running at once; a notice is still fired at most once even if two ran (the
conditional mark on each deadline, :mod:`club.scheduler`).
"""

from __future__ import annotations

from typing import Any, Protocol

SCHEDULER_LOCK = 0x6267636C7564
"""The advisory lock key of the reminder scheduler (next to :data:`storage.pgstore.WRITE_LOCK`)."""


class Lease(Protocol):
    """What :meth:`storage.Database.scheduler_lease` gives: :class:`GrantedLease` or :class:`AdvisoryLease`."""

    async def hold(self) -> bool:
        """True when this process may run the scheduler now."""
        ...

    async def release(self) -> None:
        """Give the lease up."""
        ...


class GrantedLease:
    """The lease of a SQLite database: always held (one process per file)."""

    async def hold(self) -> bool:
        """True: this process may run the scheduler now."""
        return True

    async def release(self) -> None:
        """Nothing to give up."""


class AdvisoryLease:
    """The scheduler's lease on PostgreSQL at ``url``: a session-level advisory lock on key ``key`` (default
    :data:`SCHEDULER_LOCK`) held on a dedicated connection (see the module docstring)."""

    def __init__(self, url: str, key: int = SCHEDULER_LOCK, *, timeout: float = 10.0) -> None:
        self.url, self.key, self.timeout = url, key, timeout
        self._conn: Any = None  # an asyncpg.Connection (asyncpg is loaded only for a PostgreSQL database)
        self._held = False

    async def hold(self) -> bool:
        """Whether this process holds the lease now: True when it held it and its session is alive, or it got it
        just now (``pg_try_advisory_lock``); False when another process holds it. Raises ``OSError`` /
        ``asyncpg.PostgresError`` only when the server cannot be reached at all (the loop logs it and tries again)."""
        import asyncpg

        if self._conn is not None and not self._conn.is_closed():
            try:
                if self._held:
                    await self._conn.fetchval("SELECT 1", timeout=self.timeout)  # the session (and its lock) lives
                    return True
                self._held = bool(
                    await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", self.key, timeout=self.timeout)
                )
                return self._held
            except _lost(asyncpg):
                pass  # the session is gone, and its lock with it: ask again on a new connection
        await self._drop()
        self._conn = await asyncpg.connect(self.url, timeout=self.timeout)
        self._held = bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", self.key, timeout=self.timeout))
        return self._held

    async def release(self) -> None:
        """Give the lease up (closing its connection frees the lock; another process takes it on its next round).
        Idempotent."""
        await self._drop()

    async def _drop(self) -> None:
        import asyncpg

        conn, self._conn, self._held = self._conn, None, False
        if conn is not None and not conn.is_closed():
            try:
                await conn.close(timeout=self.timeout)
            except _lost(asyncpg):
                conn.terminate()


def _lost(asyncpg) -> tuple[type[BaseException], ...]:
    """The errors of a session that is gone (or unreachable)."""
    return (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError)
