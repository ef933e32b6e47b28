"""The backends :meth:`storage.Database.open` reaches by URL scheme (``storage.database.BACKENDS``, filled by the
:mod:`storage` package): each is loaded only when a URL of its scheme is opened, and builds on
:class:`~storage.database.Database` itself."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .database import BACKENDS, Database
from .errors import DatabaseUnavailableError
from .pgerrors import hide_password


def postgresql(url: str) -> Callable[[str], Awaitable[Database]]:
    """How to open a ``postgresql://`` URL (:meth:`storage.pgstore.PgDatabase.connect`). Raises
    :class:`~storage.errors.DatabaseUnavailableError` (naming ``url`` without its password and the install command)
    when asyncpg, the ``postgres`` extra, is not installed."""
    try:
        from .pgstore import PgDatabase  # asyncpg is only loaded for a PostgreSQL database
    except ModuleNotFoundError as error:
        if error.name != "asyncpg":
            raise
        raise DatabaseUnavailableError(
            f"{hide_password(url)}: PostgreSQL needs the asyncpg package: "
            'python -m pip install "bgclub[postgres]" (in a clone: -r requirements-postgres.txt)'
        ) from None
    return PgDatabase.connect


def register() -> None:
    """Make :meth:`storage.Database.open` open ``postgresql://`` and ``postgres://`` URLs."""
    BACKENDS.update(postgresql=postgresql, postgres=postgresql)
