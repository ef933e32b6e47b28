"""Helpers for the event tests: a club of members, event matches played to a chosen end through the ordinary
match use-cases (1-point matches ended by a resignation: quick, and a real match's end)."""

from __future__ import annotations

import random

from club import ClubService
from club.events.service import EventService
from tests.clubkit import GUILD, decide

PLAYERS = {100 + i: f"P{i}" for i in range(1, 14)}


async def members(service: ClubService, count: int) -> list[int]:
    """Register ``count`` members P1, P2 … in the guild; their ids."""
    ids = list(PLAYERS)[:count]
    for member in ids:
        await service.register(GUILD, member, PLAYERS[member])
    return ids


async def win(service: ClubService, match_id: int, winner: int, rng: random.Random | None = None):
    """Play club match ``match_id`` (an event's challenge) until ``winner`` has won it: the second player accepts
    (unless he has), then the loser resigns at his first chance and the winner accepts. Returns the last view."""
    rng = rng or random.Random(match_id)
    record = await service.db.get_match(match_id)
    loser = record.players[1] if record.players[0] == winner else record.players[0]
    if record.status == "challenged":
        view = (await service.accept(match_id, record.players[1])).view
    else:
        view = await service.state(match_id)
    for _ in range(400):
        if view.status != "active":
            return view
        if view.waiting_for == loser and "resign" in view.legal and view.pending != "answer_resignation":
            outcome = await service.resign(match_id, loser, 3)
        elif view.pending == "answer_resignation":
            outcome = await service.accept_resignation(match_id, view.waiting_for)
        else:
            outcome = await decide(service, view, rng, cube=0.0)
        view = outcome.view
    raise AssertionError("the match did not end")


async def play_round(service: ClubService, events: EventService, name: str, choose=min) -> None:
    """Play every undecided match of event ``name``, the winner ``choose(players)``."""
    event = await events.find(GUILD, name)
    links = await events.store.matches(event.id)
    for pairing in event.state.pending():
        match_id = links.get(events._link(event, pairing.key))
        if match_id is not None:
            await win(service, match_id, choose(pairing.players))
