"""Shared test helpers: where the worked cases live, and the project root on sys.path."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT.parent / "shared" / "cases"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def load_cases(name: str):
    """The parsed JSON of ``../shared/cases/<name>`` (never copied into the project)."""
    return json.loads((CASES / name).read_text(encoding="utf-8"))


def pytest_unconfigure(config):
    """Stop aiosqlite worker threads that a failed test left open (pytest keeps its frames alive), so that a red run
    ends with its report instead of hanging at interpreter exit on a non-daemon thread."""
    import gc

    import aiosqlite

    for obj in gc.get_objects():
        if isinstance(obj, aiosqlite.Connection) and getattr(obj, "_running", False):
            obj.stop()


import pytest  # noqa: E402


@pytest.fixture
async def harness(tmp_path):
    """The Discord harness (:mod:`discordkit`): the real bot on a fresh database in ``tmp_path``, logged in to a
    fake Discord; the test fails on leaving if any Discord rule or limit was broken."""
    from discordkit import Harness

    async with Harness.start(tmp_path / "club.sqlite3") as h:
        yield h
