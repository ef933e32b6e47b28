"""Helpers for the club/ and storage/ tests: a service on a real SQLite file, a random but legal player, snapshots.

Everything goes through the public use-cases of ``club.ClubService`` — the same calls the Discord cogs make.
"""

from __future__ import annotations

import random
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path

from backgammon.errors import BackgammonError
from club import ClubService, ManualClock
from storage import Database

GUILD = 1
ALICE, BOB, CAROL = 10, 20, 30
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


def snapshot(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, read with a separate plain sqlite3 connection (for byte-for-byte comparisons); in
    the ``[postgresql]`` copy of a test, of the database that stands for ``path`` (tests/pgkit.py)."""
    from tests import pgkit

    url = pgkit.ROUTES.get(str(Path(path).resolve()))
    if url is not None:
        return pgkit.snapshot_rows(url)
    conn = sqlite3.connect(path)
    try:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in tables}
    finally:
        conn.close()


def seeded(seed: int):
    """A deterministic seed source (fair dice, reproducible test)."""
    rng = random.Random(seed)
    return lambda: rng.randbytes(32)


@asynccontextmanager
async def club_service(path: Path, clock: ManualClock | None = None, **options):
    """An open database at ``path`` and a service on it; Alice, Bob and Carol registered in guild 1. The dice are
    seeded (``seeds``, default :func:`seeded` ``(0)``) and the members' client seeds reproducible (``contributions``),
    so that a test plays the same games every run; pass ``seeds=new_seed`` (:mod:`club.dice`) for secret dice."""
    options.setdefault("seeds", seeded(0))
    if "contributions" not in options:
        counter = iter(range(1, 10**9))
        options["contributions"] = lambda: f"client-{next(counter)}"
    async with Database.open(path) as db:
        service = ClubService(db, clock=clock or ManualClock(), **options)
        for user, name in NAMES.items():
            await service.register(GUILD, user, name)
        yield service


async def new_table(service: ClubService, length: int = 0, *, players=(ALICE, BOB), **options):
    """Challenge and accept; returns the outcome of the accept (game 1 started)."""
    challenge = await service.challenge(GUILD, players[0], players[1], length=length, **options)
    return await service.accept(challenge.match_id, players[1])


async def decide(service: ClubService, view, rng: random.Random, *, cube: float = 0.08, resign: float = 0.0):
    """Make one random but legal decision for the member the view waits for; returns the outcome."""
    match_id, who, pending = view.match_id, view.waiting_for, view.pending
    legal = view.legal
    if resign and "resign" in legal and rng.random() < resign:
        try:
            return await service.resign(match_id, who, rng.randint(1, 3))
        except BackgammonError:  # RULES G12: that offer was refused already this turn; decide otherwise
            pass
    if pending == "roll_or_double":
        if rng.random() < cube:
            return await service.double(match_id, who)
        return await service.roll(match_id, who)
    if pending == "roll":
        return await service.roll(match_id, who)
    if pending == "play":
        plays = await service.legal_plays(match_id, who)
        return await service.play(match_id, who, rng.choice(plays))
    if pending in ("answer_double", "answer_beaver", "answer_raccoon"):
        options = [name for name in ("take", "drop", "beaver", "raccoon") if name in legal]
        weights = {"take": 6, "drop": 3, "beaver": 1, "raccoon": 1}
        choice = rng.choices(options, [weights[o] for o in options])[0]
        return await getattr(service, choice)(match_id, who)
    if pending == "answer_resignation":
        if rng.random() < 0.7:
            return await service.accept_resignation(match_id, who)
        return await service.reject_resignation(match_id, who)
    raise AssertionError(f"nothing to decide: {pending}")


async def play_out(service: ClubService, outcome, rng: random.Random, *, max_calls: int = 5000, stop=None, **kw):
    """Decide until the table is finished (or ``stop(outcome)`` is true); returns the last outcome."""
    for _ in range(max_calls):
        if outcome.view.status != "active" or (stop is not None and stop(outcome)):
            return outcome
        outcome = await decide(service, outcome.view, rng, **kw)
    raise AssertionError("the table did not finish")
