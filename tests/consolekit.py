"""The console on a fresh database for the in-process console tests (``tests/test_console_*.py``): fair seeded dice,
a manual clock, the :data:`CAST` registered (``as NAME``: ``challenge`` names members only), acting as alice."""

from __future__ import annotations

from contextlib import asynccontextmanager

from club import ClubService, ManualClock
from console import Console
from storage import Database
from tests.clubkit import seeded

CAST = ("bob", "carol", "erin", "finn")
"""Members made (``as NAME``) before alice acts: the tests challenge them."""


@asynccontextmanager
async def console_in(tmp_path, seed: int = 7, *, cast: tuple[str, ...] = CAST, **options):
    """A console (:class:`~console.Console`, ``options`` its keyword arguments) on a fresh database in
    ``tmp_path`` (fair dice seeded by ``seed``, a manual clock) where ``cast`` are members, acting as alice."""
    async with Database.open(tmp_path / "club.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock(), seeds=seeded(seed)), **options)
        for name in cast:
            await console.handle(f"as {name}")
        await console.handle("as alice")
        yield console


async def say(console, line: str) -> str:
    """Type ``line``; it must be accepted (no refusal, internal error or unknown verb). Returns the reply."""
    reply = await console.handle(line)
    assert not reply.startswith(("Refused", "Internal", "Unknown")), (line, reply)
    return reply


async def enter(console, name: str, spec: str, players) -> None:
    """ann creates event ``name`` (``spec``: format and options), ``players`` join, ann acts again."""
    await say(console, "as ann")
    await say(console, f"event create {name} {spec}")
    for player in players:
        await say(console, f"as {player}")
        await say(console, f"event join {name}")
    await say(console, "as ann")
