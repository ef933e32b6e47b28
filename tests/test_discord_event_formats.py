"""Each event format run to its end through the Discord harness — every format, and between them every size the
issue names (2, 3, 5, 8 and 13 players) — with a withdrawal after the start in the larger fields and a restart of
the bot in the middle: the event's channel gets each round's challenges and results by itself, the event ends,
and its standings answer with their picture. (Every format at every size runs through the console and the pure
layer: tests/test_console_events.py, tests/test_event_formats.py.)"""

from __future__ import annotations

import pytest

from tests.discordkit import Harness
from tests.eventkit import win

RUNS = [
    ("single", 5, {"consolation": True}),
    ("double", 5, {}),
    ("round_robin", 2, {"cycles": 2}),
    ("swiss", 3, {"rounds": 3}),
    ("swiss", 8, {"out_after": 2}),
    ("ladder", 3, {}),
    ("league", 8, {"division_size": 4}),
    pytest.param("double", 13, {}, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("format", "size", "options"), RUNS, ids=lambda v: str(v) if not isinstance(v, dict) else
                         "-".join(f"{k}={w}" for k, w in v.items()))  # fmt: skip
async def test_each_format_to_its_end_through_discord(tmp_path, format, size, options):
    async with Harness.start(tmp_path / "club.sqlite3", reviews=False) as h:
        players = [h.member("Olga", admin=True)] + [h.member(f"M{i}") for i in range(2, size + 1)]
        room = h.channel("events")
        created = await h.command(players[0], "event create", room, name="Run", format=format, lengths="1", **options)
        assert "Run is open" in created.text, created.text
        for member in players:
            await h.command(member, "event join", room, event="Run")
        started = await h.command(players[0], "event start", room, event="Run")
        assert f"Run has started with {size} players" in started.text
        if format == "ladder":  # the bottom challenges the top, the winner takes the place; the organiser closes it
            event = await h.bot.events.find(h.guild, "Run")
            bottom, top = event.state.ladder[-1], event.state.ladder[0]
            made = await h.command(h.members[bottom], "event challenge", room, event="Run", opponent=h.members[top])
            assert "X1:" in made.text, made.text
        if size >= 5:
            quitter = players[-1]
            withdrew = await h.command(quitter, "event withdraw", room, event="Run")
            assert "You withdrew from Run" in withdrew.text
        restarted = False
        for _ in range(60):
            event = await h.bot.events.find(h.guild, "Run")
            pending = [p for p in event.state.pending() if p.b is not None]
            if not pending:
                break
            links = await h.bot.events.store.matches(event.id)
            for pairing in pending:
                await win(h.bot.service, links[h.bot.events._link(event, pairing.key)], min(pairing.players,
                          key=event.state.seed_of.get))  # fmt: skip
            await h.settle()
            if not restarted:
                await h.restart()
                restarted = True
        if format == "ladder":
            closed = await h.command(players[0], "event admin close", room, event="Run")
            assert "Run is over" in closed.text
        event = await h.bot.events.find(h.guild, "Run")
        assert event.status.value == "over" and restarted
        posted = "\n".join(m.content for m in h.messages(room))
        made = [m for m in (await h.bot.events.store.matches(event.id)).values() if m is not None]
        assert posted.count("accepts to start") == len(made) > 0  # each match posted once, after the restart too
        if format != "ladder":
            assert "Run is over." in posted
        standings = await h.command(players[1], "event standings", room, event="Run")
        assert standings.private and standings.messages[0].png and "why" in standings.text
