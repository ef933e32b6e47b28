"""Helpers for the chouette club tests: a chouette service on a real SQLite file, five members, a seated session,
and a random but legal decider (test code only)."""

from __future__ import annotations

import random
from contextlib import asynccontextmanager
from pathlib import Path

from club import ClubService, ManualClock
from club.chouette import ChouetteService
from storage import Database
from tests.clubkit import seeded

GUILD = 1
CHANNEL = 4242
ANN, BOB, CY, DI, ED = 101, 202, 303, 404, 505
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy", DI: "Di", ED: "Ed"}
HOUR = 3600.0


@asynccontextmanager
async def chouettes(path: Path, clock: ManualClock | None = None, *, synchronous: str = "FULL", **options):
    """An open database at ``path``, a club service (five members registered in guild 1) and its chouettes."""
    options.setdefault("seeds", seeded(11))
    if "contributions" not in options:  # reproducible client seeds too
        counter = iter(range(1, 10**9))
        options["contributions"] = lambda: f"client-{next(counter)}"
    async with Database.open(path, synchronous=synchronous) as db:
        club = ClubService(db, clock=clock or ManualClock(), **options)
        for user, name in NAMES.items():
            await club.register(GUILD, user, name)
        yield ChouetteService(club)


async def seated(service: ChouetteService, members=(ANN, BOB, CY, DI, ED), **start):
    """Open a chouette in :data:`CHANNEL` by ``members[0]``, the others join, and the seat roll is thrown; returns
    the last outcome (game 1 started)."""
    outcome = await service.start(GUILD, CHANNEL, members[0], **start)
    for member in members[1:]:
        outcome = await service.join(outcome.session_id, member)
    return await service.seat(outcome.session_id, members[-1])


async def decide_randomly(service: ChouetteService, outcome, rng: random.Random, *, double: float = 0.0):
    """Make one random but legal decision for the first member the session waits for; returns the new outcome."""
    view = outcome.view
    decision = view.decisions[0]
    actor, subject = decision.actor, decision.subject
    if decision.pending == "play":
        plays = await service.legal_plays(view.session_id, actor)
        return await service.play(view.session_id, actor, rng.choice(plays), mark=view.mark)
    if decision.pending == "roll":
        if "double" in decision.actions and rng.random() < double:
            return await service.act(view.session_id, actor, "double", mark=view.mark)
        return await service.act(view.session_id, actor, "roll", mark=view.mark)
    if decision.pending == "double":
        action = "double" if rng.random() < double else "pass"
        cube = decision.cubes[0] if action == "double" and len(decision.cubes) > 1 else None
        return await service.act(view.session_id, actor, action, subject=subject, cube=cube, mark=view.mark)
    if decision.pending == "extra":
        action = rng.choice(["offer_extra", "no_extra"])
        return await service.act(view.session_id, actor, action, subject=subject, mark=view.mark)
    weights = {"take": 6, "drop": 3, "beaver": 1, "raccoon": 1}
    options = [a for a in decision.actions if a in weights]
    action = rng.choices(options, [weights[o] for o in options])[0]
    return await service.act(view.session_id, actor, action, subject=subject, mark=view.mark)


def seated_table(rules, members, throws):
    """A :class:`~club.chouette.table.ChouetteTable` (no database) opened by ``members[0]`` under ``rules``, the
    others seated, and the seat throws ``throws`` (one list of dice per member, in order; RULES C1) thrown."""
    from club.chouette.table import ChouetteTable

    table = ChouetteTable.open(
        {
            "club_id": 1,
            "channel_id": 1,
            "creator": members[0],
            "rules": rules.to_json(),
            "stake": 0,
            "decision_time": 60.0,
            "proxy_time": 60.0,
            "move_time": 60.0,
            "no_talk": False,
        }  # fmt: skip
    )
    for member in members[1:]:
        table.apply("sit", member, {})
    table.apply("seat", None, {"throws": {str(m): list(d) for m, d in zip(members, throws, strict=False)}})
    return table
