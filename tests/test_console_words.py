"""A new user's report on the console's words: each test is a message that was wrong or a name that was read two
ways, and failed before its fix."""

from __future__ import annotations

from contextlib import asynccontextmanager

from clubkit import seeded

from club import ClubService, ManualClock
from club.console import Console, member_id
from storage import Database


@asynccontextmanager
async def console_in(tmp_path, seed: int = 7):
    """A console on a fresh database (fair seeded dice, a manual clock), acting as alice."""
    async with Database.open(tmp_path / "club.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock(), seeds=seeded(seed)))
        await console.handle("as alice")
        yield console


async def test_as_refuses_a_name_of_two_words(tmp_path):
    """``as a b`` answered "You are a b.": a member no command could name again (``challenge a b 3`` read ``b`` as
    the length). Now refused, saying a name is one word, with a_b as the example; nobody was registered."""
    async with console_in(tmp_path) as console:
        out = await console.handle("as a b")
        assert out.startswith("Refused:") and "one word" in out and "a_b" in out, out
        assert console.name == "alice"
        assert member_id("a b") not in await console.service.db.get_members([member_id("a b")])
        assert await console.handle("as a_b") == "You are a_b."


async def test_as_at_name_is_the_member_every_command_means(tmp_path):
    """``as @bob`` made a new member "@bob" while ``challenge @bob`` and ``club stats @bob`` meant bob."""
    async with console_in(tmp_path) as console:
        await console.handle("as bob")
        assert await console.handle("as @bob") == "You are bob."
        assert console.member == member_id("bob")
        assert member_id("@bob") not in await console.service.db.get_members([member_id("@bob")])


async def test_an_unknown_command_in_a_group_names_the_unknown_word(tmp_path):
    """``/club frobnicate`` answered "Unknown command 'club'", naming the group, while ``/bg frobnicate`` named
    ``frobnicate``; now every group names the unknown word and the group's help."""
    async with console_in(tmp_path) as console:
        for group in ("club", "chouette", "player", "study"):
            for line in (f"/{group} frobnicate", f"{group} frobnicate"):
                out = await console.handle(line)
                assert out == f"Unknown command 'frobnicate' in /{group}: type help {group} for the list.", out
            assert f"help {group}" in await console.handle(f"/{group}")
        assert "Unknown command 'frobnicate':" in await console.handle("/bg frobnicate")
        assert "club ledger" in await console.handle("help club")
