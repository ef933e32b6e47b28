"""The suite's fixtures and hooks: the Discord harness, both storage backends, reproducible client seeds, and the
harness tests kept on one worker in a parallel run. Paths and worked cases: :mod:`tests.casekit`."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_unconfigure(config):
    """Stop aiosqlite worker threads that a failed test left open (pytest keeps its frames alive), so that a red run
    ends with its report instead of hanging at interpreter exit on a non-daemon thread."""
    import gc

    import aiosqlite

    for obj in gc.get_objects():
        if isinstance(obj, aiosqlite.Connection) and getattr(obj, "_running", False):
            obj.stop()


@pytest.fixture
async def harness(tmp_path):
    """The Discord harness (:mod:`discordkit`): the real bot on a fresh database in ``tmp_path``, logged in to a
    fake Discord; the test fails on leaving if any Discord rule or limit was broken."""
    from tests.discordkit import Harness

    async with Harness.start(tmp_path / "club.sqlite3") as h:
        yield h


# -- both storage backends (tests/pgkit.py) ------------------------------------------------------
def pytest_configure(config):
    """The markers of the two backends."""
    config.addinivalue_line("markers", "backends: run each test on SQLite and on PostgreSQL ([sqlite], [postgresql])")
    config.addinivalue_line("markers", "sqlite_only: reads the SQLite file itself; runs on SQLite only")


def pytest_generate_tests(metafunc):
    """Tests of modules marked ``backends`` run on both backends (unless marked ``sqlite_only``)."""
    from tests import pgkit

    marked = metafunc.definition.get_closest_marker("backends")
    if marked is None or metafunc.definition.get_closest_marker("sqlite_only") or not pgkit.enabled():
        return
    metafunc.parametrize("backend", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(scope="session")
def pg_cluster():
    """One throwaway PostgreSQL cluster for the whole test session (tests/pgcluster.py), with the club schema's
    template database (tests/pgkit.py)."""
    import os

    from tests import pgkit

    cluster = pgkit.start_cluster()
    if cluster is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed: .ci/run installs Debian's postgresql package")
        pytest.skip("PostgreSQL server binaries not found (install Debian's postgresql package)")
    yield cluster
    cluster.stop()


@pytest.fixture
async def pg_url(pg_cluster, request):
    """A fresh, empty database on the session's cluster; its URL."""
    import asyncpg

    name = "t_" + "".join(ch if ch.isalnum() else "_" for ch in request.node.name)[:50].lower()
    conn = await asyncpg.connect(pg_cluster.url())
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name}")
        await conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    finally:
        await conn.close()
    return pg_cluster.url(name)


@pytest.fixture(autouse=True)
def reproducible_client_seeds(request, monkeypatch):
    """The client seed a member's action contributes when no front end gives one (``club.dice.new_contribution``,
    a fresh ``secrets`` value in production) drawn from a generator seeded by the test's id, so that a test's dice
    are the same on every run (every roll depends on client seeds). Tests that need other values
    pass their own ``contributions=``; the Discord harness's interaction ids are deterministic already."""
    import random

    import club.dice

    rng = random.Random(request.node.nodeid)
    monkeypatch.setattr(club.dice, "new_contribution", lambda: f"{rng.getrandbits(128):032x}")


@pytest.fixture(autouse=True)
def backend(request):
    """``"sqlite"`` (every test), or ``"postgresql"`` in the PostgreSQL copy of a test of a ``backends`` module: then
    ``Database.open`` of a file path opens a fresh database on the session's cluster (tests/pgkit.py)."""
    name = getattr(request, "param", "sqlite")
    if name != "postgresql":
        yield name
        return
    from tests import pgkit

    router = pgkit.Router(request.getfixturevalue("pg_cluster"), request.node.nodeid)
    router.install()
    try:
        yield name
    finally:
        router.close()


COVERAGE_TEST = "test_discord_coverage.py"
"""The file whose tests read :data:`discordkit.SESSION`: they run last, and only when the session runs every harness
test (a subset would leave commands uninvoked through no fault of the bot)."""


def _harness_files() -> set[str]:
    """The test files that drive the bot through the harness (they use the ``harness`` fixture or discordkit)."""
    here = Path(__file__).resolve().parent
    return {path.name for path in here.glob("test_*.py") if path.name != COVERAGE_TEST
            and ("discordkit" in (text := path.read_text(encoding="utf-8")) or "(harness" in text)}  # fmt: skip


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """A parallel run (``-n``, pytest-xdist): every other test goes to whichever worker is free, one at a time; the
    harness tests and :data:`COVERAGE_TEST` all go to one worker, in collection order (the coverage tests last), so
    that :data:`discordkit.SESSION` there sees the whole harness suite, as in a run of one process."""
    from xdist.scheduler import LoadScopeScheduling

    together = _harness_files() | {COVERAGE_TEST}

    class HarnessOnOneWorker(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "the Discord harness" if nodeid.split("::", 1)[0].rsplit("/", 1)[-1] in together else nodeid

    return HarnessOnOneWorker(config, log)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(session, config, items):
    """Put the tests of :data:`COVERAGE_TEST` last; deselect them when ``-k``, ``-m`` or the paths given leave out
    any (not slow) harness test, since they judge the whole harness suite (in a parallel run, one worker runs them
    all: :func:`pytest_xdist_make_scheduler`)."""
    files = _harness_files()
    wanted = {item.nodeid for item in items if item.path.name in files and not item.get_closest_marker("slow")}
    present = {item.path.name for item in items}
    result = yield
    coverage = [item for item in items if item.path.name == COVERAGE_TEST]
    if coverage:
        items[:] = [item for item in items if item.path.name != COVERAGE_TEST]
        kept = {item.nodeid for item in items}
        if files <= present and wanted <= kept:
            items.extend(coverage)
        else:
            config.hook.pytest_deselected(items=coverage)
    return result
