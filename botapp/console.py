"""The club in a terminal (``python bot.py --console``): ``_console`` opens the database and runs
:mod:`console` on a manual clock (starting no earlier than the database's latest stored time), and ``--seed``
gives reproducible dice for scripts and demos (:func:`reproducible`: committed, derived and revealed as always, RULES
A1, skipping the seeds of stored games). Split out of ``bot.py``, which re-exports these names."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from club import ClubService, ManualClock
from storage import Database

from .heap import settle_heap
from .settings import Settings
from .startup import upgrade_stored_states


def seed_source(text: str, used: frozenset[str] | set[str] = frozenset()):
    """A reproducible source of dice seeds (``--seed``): the candidates are SHA-256 of ``"<text>:0"``,
    ``"<text>:1"``, … and a candidate whose commitment (SHA-256 of the seed, hex) is in ``used`` is skipped, so a
    restarted console never deals a game the dice of a stored one. The dice stay provably fair (RULES A1:
    committed, derived, revealed) and a script replays the same games into a fresh database."""
    import hashlib
    import itertools

    from club.dice import seed_hash

    counter = itertools.count()

    def next_seed() -> bytes:
        while True:
            seed = hashlib.sha256(f"{text}:{next(counter)}".encode()).digest()
            if seed_hash(seed) not in used:
                return seed

    return next_seed


def no_contribution() -> str:
    """The client seed of a member's action under ``--seed``: empty (it does not count, :data:`club.dice.RECIPE_V2`),
    so that a script replays the same dice; without ``--seed`` each action contributes a fresh :mod:`secrets` value."""
    return ""


def reproducible(text: str, used: frozenset[str] | set[str] = frozenset()) -> dict:
    """The :class:`~club.service.ClubService` options of ``--seed text``: the seeds of :func:`seed_source` and empty
    client seeds (:func:`no_contribution`) — reproducible dice for scripts and demos, not for play that matters."""
    return {"seeds": seed_source(text, used), "contributions": no_contribution}


async def stored_commitments(database: Database) -> set[str]:
    """The seed commitments (hex) of every stored game and chouette dice series, and of the seeds committed ahead:
    the seeds ``--seed`` must skip."""
    return await database.seed_commitments()


async def _console(
    settings: Settings, database_path: Path | None, images: Path | None, seed: str | None = None, review: bool = True
) -> int:
    from console import run_console

    async with settings.open_database(database_path) as database:
        await upgrade_stored_states(database)
        options = {} if seed is None else reproducible(seed, await stored_commitments(database))
        # the console's time passes on request (``wait 6h``): a manual clock starting now, or where the last session
        # on this database left it if that is later (time never runs backwards between two sessions)
        start = max(time.time(), await database.store.latest_time() or 0.0)
        service = ClubService(database, defaults=settings.defaults(), clock=ManualClock(start), **options)
        # one folder per database, so two databases never overwrite each other's pictures
        stem = "postgresql" if database_path is None else Path(database_path).stem
        folder = None if images is None else images / stem
        settle_heap()  # started: later collections leave the start-up heap alone (botapp.heap)
        return await run_console(
            service, sys.stdin, sys.stdout, images=folder, options=settings.board_options(),
            review_after_match=review and settings.review_after_match,
        )  # fmt: skip
