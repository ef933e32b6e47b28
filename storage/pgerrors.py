"""What an operator reads when a PostgreSQL database cannot be opened: one line naming the database
(its password hidden), what went wrong and what to do — never a traceback (``python -m storage``, ``python -m club``,
``bot.py`` and the console print :class:`~storage.errors.DatabaseUnavailableError` as it is)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from .errors import DatabaseUnavailableError


def url_password(url: str) -> str:
    """The password in a ``postgresql://user:password@host/…`` URL, or ``""``."""
    try:
        return urlsplit(url).password or ""
    except ValueError:
        return ""


def hide_password(url: str) -> str:
    """``url`` with its password (if any) shown as ``<hidden>``, for logs, messages and ``repr``."""
    password = url_password(url)
    return url.replace(f":{password}@", ":<hidden>@") if password else url


def _parts(url: str) -> tuple[str, str, str, str]:
    """``(database, host, port, user)`` of ``url`` as an operator checks them (a Unix-socket folder given as
    ``?host=`` stands for the host). Raises ``ValueError`` for a URL that does not parse."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    host = parts.hostname or (query.get("host") or ["the local socket"])[0]
    port = str(parts.port or (query.get("port") or ["5432"])[0])
    user = parts.username or (query.get("user") or ["(your login name)"])[0]
    return parts.path.lstrip("/") or user, host, port, user


def describe(url: str) -> str:
    """``database "bgclub" on localhost:5432 as user "bgclub"`` — the parts of ``url`` an operator checks."""
    try:
        name, host, port, user = _parts(url)
    except ValueError:
        return f"the database of {hide_password(url)!r}"
    return f'database "{name}" on {host}:{port} as user "{user}"'


def unavailable(error: BaseException, url: str) -> DatabaseUnavailableError | None:
    """The operator's one line for ``error`` raised while connecting to or setting up ``url`` (None for an error
    that is not about reaching or using the database: a bug, a :class:`~storage.errors.SchemaError` …)."""
    import asyncpg

    where = describe(url)
    try:
        name, _host, _port, user = _parts(url)
    except ValueError:
        name, user = "NAME", "USER"
    hint = None
    if isinstance(error, asyncpg.InvalidPasswordError):
        hint = "check the password in the URL ([storage] url, or BGCLUB_DATABASE_URL)"
    elif isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        hint = f"create the role (createuser -P {user}) or name another one in the URL"
    elif isinstance(error, asyncpg.InvalidCatalogNameError):
        hint = f"create it, owned by the bot's role: createdb -O {user} {name}"
    elif isinstance(error, asyncpg.InsufficientPrivilegeError):
        hint = (f"the bot's role must own the database to create the club's tables: createdb -O {user} {name}, or "
                f"ALTER DATABASE {name} OWNER TO {user}")  # fmt: skip
    elif isinstance(error, (asyncpg.ClientConfigurationError, asyncpg.InterfaceError, ValueError)):
        return DatabaseUnavailableError(f"cannot open {where}: the URL is not right: {error}")
    elif isinstance(error, TimeoutError):
        return DatabaseUnavailableError(f"cannot reach the PostgreSQL server for {where}: no answer in time")
    elif isinstance(error, OSError):
        reason = error.strerror or str(error) or type(error).__name__
        return DatabaseUnavailableError(
            f"cannot reach the PostgreSQL server for {where} ({reason}): is it running, and are the host and port "
            "(or ?host= socket folder) of the URL right?"
        )
    elif isinstance(error, asyncpg.PostgresError):
        hint = "see the server's log"
    if hint is None:
        return None
    return DatabaseUnavailableError(f"cannot use {where}: {error} — {hint}")
