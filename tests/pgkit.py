"""Running the storage and club suites on PostgreSQL too.

A test module marked ``pytestmark = pytest.mark.backends`` runs each of its tests twice, ``[sqlite]`` and
``[postgresql]`` (``conftest.pytest_generate_tests``); a test marked ``sqlite_only`` (it reads the SQLite file
itself: PRAGMAs, file modes, backups) runs once. In the ``[postgresql]`` copy every ``Database.open(path)`` of a file
path opens instead a fresh database on the session's throwaway cluster (:mod:`pgcluster`), one per path — copied
from a template that already has the schema (``CREATE DATABASE … TEMPLATE``), or one of an earlier test emptied
(``TRUNCATE``, milliseconds) — so the same test
code drives the real :class:`storage.pgstore.PgDatabase`: opening the same path again reopens the same database (a
restart), two paths are two databases. :func:`snapshot_rows` reads every table of it, as ``clubkit.snapshot`` does
of a file.

``BGCLUB_TEST_PG=0`` leaves the PostgreSQL copies out. Without a PostgreSQL server they are skipped locally and fail
in CI (``CI`` set), where ``.ci/run`` installs Debian's ``postgresql`` package.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from pathlib import Path

import asyncpg

from storage import Database
from storage.database import _Opener
from storage.migrations import SCHEMA_VERSION
from storage.pgstore import PgDatabase, is_url
from tests.pgcluster import Cluster, find_bindir

TEMPLATE = "bgclub_template"

FREE: list[str] = []
"""Databases of earlier tests, emptied (``TRUNCATE``), ready for the next one."""

TABLES = [0]
"""How many tables the club schema has (besides ``bgclub_schema``; counted in the template): a database with
others is not reused."""

ROUTES: dict[str, str] = {}
"""File path (resolved, as text) → the URL of the PostgreSQL database that stands for it in the running test."""


def enabled() -> bool:
    """Whether the PostgreSQL copies run (``BGCLUB_TEST_PG`` is not ``0``)."""
    return os.environ.get("BGCLUB_TEST_PG", "1") != "0"


def in_thread(coroutine_function, *args):
    """Run ``coroutine_function(*args)`` to the end on a loop of its own in another thread (from sync code, even
    while the test's loop runs); returns its result or raises its error."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = asyncio.run(coroutine_function(*args))
        except BaseException as error:  # handed to the caller
            box["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def start_cluster() -> Cluster | None:
    """A started cluster with the template database migrated, or None when no PostgreSQL server is installed."""
    bindir = find_bindir()
    if bindir is None:
        return None
    cluster = Cluster(bindir).start()
    try:
        in_thread(_make_template, cluster)
    except BaseException:
        cluster.stop()
        raise
    return cluster


async def _make_template(cluster: Cluster) -> None:
    conn = await asyncpg.connect(cluster.url())
    try:
        await conn.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await conn.close()
    database = await PgDatabase.connect(cluster.url(TEMPLATE), max_size=1)
    try:
        rows = await database._fetchall(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
            "AND table_name <> 'bgclub_schema'"
        )
        TABLES[0] = rows[0][0]
    finally:
        await database.close()


class Router:
    """The ``[postgresql]`` copy of one test: ``Database.open`` of a file path opens a fresh database (see the
    module docstring); :meth:`close` drops them."""

    def __init__(self, cluster: Cluster, test_name: str) -> None:
        self.cluster = cluster
        self.prefix = "t" + hashlib.sha1(test_name.encode()).hexdigest()[:10]
        self.created: list[str] = []
        self._original = Database.__dict__["open"]

    def url_of(self, path) -> str:
        """The database that stands for the file ``path``: an emptied one of an earlier test, else a new one
        (created from the template on first open)."""
        key = str(Path(path).resolve())
        if key not in ROUTES:
            name = FREE.pop() if FREE else f"{self.prefix}_{len(self.created)}"
            self.created.append(name)
            ROUTES[key] = self.cluster.url(name)
        return ROUTES[key]

    def install(self) -> None:
        """Route ``Database.open`` of file paths to this test's PostgreSQL databases."""
        router, original = self, self._original.__func__

        async def connect(url: str) -> PgDatabase:
            await router.ensure(url)
            return await PgDatabase.connect(url)

        def open_routed(cls, path, *, synchronous: str = "FULL", busy_timeout_ms: int = 10_000, exclusive: bool = False):
            # exclusive (one program per SQLite file) has no meaning on PostgreSQL: several processes may share it
            if is_url(path):
                return original(cls, path, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms)
            original(cls, ":memory:", synchronous=synchronous)  # the same refusals of bad arguments (connects nothing)
            return _Opener(connect, router.url_of(path))

        Database.open = classmethod(open_routed)

    async def ensure(self, url: str) -> None:
        """Create the database of ``url`` from the template if it does not exist yet."""
        name = url.split("@/", 1)[1].split("?")[0]
        conn = await asyncpg.connect(self.cluster.url())
        try:
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
                await conn.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        finally:
            await conn.close()

    def close(self) -> None:
        """Put ``Database.open`` back and empty this test's databases for the next tests (``TRUNCATE … RESTART
        IDENTITY``: as new, in milliseconds, where ``CREATE DATABASE`` takes a second or two)."""
        Database.open = self._original
        for key in [key for key, url in ROUTES.items() if url in self._urls()]:
            del ROUTES[key]
        if self.created:
            FREE.extend(in_thread(self._empty))

    def _urls(self) -> set[str]:
        return {self.cluster.url(name) for name in self.created}

    async def _empty(self) -> list[str]:
        """Empty each database this test used (one it damaged is dropped instead); returns those emptied."""
        emptied = []
        for name in self.created:
            try:
                conn = await asyncpg.connect(self.cluster.url(name))
            except asyncpg.InvalidCatalogNameError:
                continue  # routed but never opened
            try:
                version = await conn.fetchval("SELECT max(version) FROM bgclub_schema")
                tables = await conn.fetch(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                    "AND table_name <> 'bgclub_schema'"
                )
                if version == SCHEMA_VERSION and len(tables) == TABLES[0]:
                    await conn.execute(f"TRUNCATE {', '.join(r[0] for r in tables)} RESTART IDENTITY")
                    emptied.append(name)
            except asyncpg.PostgresError:
                pass
            finally:
                await conn.close()
            if name not in emptied:
                server = await asyncpg.connect(self.cluster.url())
                try:
                    await server.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                finally:
                    await server.close()
        return emptied


def snapshot_rows(url: str) -> dict[str, list[tuple]]:
    """Every row of every club table of the PostgreSQL database ``url`` (ordered by its first two columns), as
    tuples — ``clubkit.snapshot`` of a file, for the ``[postgresql]`` copies."""

    async def read() -> dict[str, list[tuple]]:
        try:
            conn = await asyncpg.connect(url)
        except asyncpg.InvalidCatalogNameError:
            return {}  # never opened: no tables, like a file that was never created
        try:
            names = await conn.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                "AND table_name <> 'bgclub_schema' ORDER BY table_name"
            )
            return {
                row[0]: [tuple(r) for r in await conn.fetch(f"SELECT * FROM {row[0]} ORDER BY 1, 2")] for row in names
            }
        finally:
            await conn.close()

    return in_thread(read)
