"""One clock for every table: one deadline model, one ``run_due``, one reminder loop; the 1-on-1's
and the chouette's expiry rules stay hooks of their tables (RULES A2, M5, C9)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from club import InjectedDice, ManualClock
from club.clocks import ChouetteClock, Deadline, MatchClock, clocks_of
from club.scheduler import due, run_due
from tests.chouette_clubkit import ANN, BOB, CY, DI, ED, GUILD, HOUR, chouettes, seated

pytestmark = pytest.mark.backends

ROOT = Path(__file__).resolve().parent.parent
SEATING = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]  # Ann Box, Bob Captain


async def test_one_run_due_fires_a_match_and_a_chouette_with_their_own_rules(tmp_path):
    """A match and a chouette wait for members at once: one ``run_due`` over both tables' hooks reminds each once
    (one :class:`Deadline` model for both) and at each deadline applies the table's own rule — the match forfeits
    the game (the club's policy, M5), the chouette marks Ed away and passes him over in the Team's window: no double, and the Captain rolls (C9)."""
    clock = ManualClock()
    async with chouettes(tmp_path / "c.sqlite3", clock, dice=InjectedDice([*SEATING, (2, 1)], fallback=b"1")) as svc:
        club = svc.club
        await club.configure_club(GUILD, move_time=10 * HOUR, reminders=[2 * HOUR], expiry_policy="forfeit_game")
        sid = (await seated(svc)).session_id
        plays = await svc.legal_plays(sid, ANN)
        mark = (await svc.play(sid, ANN, plays[0])).view.mark
        for member in (BOB, CY, DI):
            await svc.act(sid, member, "pass", mark=mark)
        challenge = await club.challenge(GUILD, CY, DI, length=9)
        match = await club.accept(challenge.match_id, DI)
        late = match.view.waiting_for
        clocks = clocks_of(club, svc)
        assert [type(c) for c in clocks] == [MatchClock, ChouetteClock]

        clock.advance(8 * HOUR + 1)
        items = await due(clocks)
        assert [(kind, d.table, d.subject) for kind, d in items] == [("reminder", "match", late)]
        assert isinstance(items[0][1], Deadline) and items[0][1].stage == "member"
        reminders = await run_due(clocks)
        assert [(n.kind, n.table, n.ping) for n in reminders] == [("reminder", "match", (late,))]
        assert f"hours left to {clocks[0].words(match.view.pending)} in match {match.match_id}." in reminders[0].text

        clock.advance(14 * HOUR)  # 22 h: the match's deadline passed, the chouette's reminder is due
        fired = await run_due(clocks)
        assert sorted((n.kind, n.table) for n in fired) == [("expiry", "match"), ("reminder", "chouette")]
        expiry = next(n for n in fired if n.table == "match")
        assert "forfeits the game" in expiry.text and expiry.outcome.view.game_number == 2
        chouette = next(n for n in fired if n.table == "chouette")
        assert (chouette.subject, chouette.actor, chouette.ping) == (ED, ED, (ED,))
        assert "in chouette 1." in chouette.text
        assert await run_due(clocks) == [], "each fires once"

        clock.advance(2 * HOUR)  # 24 h: Ed missed the window: the chouette's rule, not the match's
        fired = await run_due(clocks)
        assert [(n.kind, n.table, n.subject, n.ping) for n in fired] == [("expiry", "chouette", ED, (BOB,))]
        assert "passed over" in fired[0].text, fired[0].text
        assert (await svc.state(sid)).game_number == 1, "no forfeit: Ed is away and passed over (no double)"
        assert [(kind, d.stage, d.actor) for kind, d in await due(clocks)] == []
        waiting = [(d.table, d.stage, d.actor) for d in await ChouetteClock(svc).due_deadlines(clock.now() + 1e6)]
        assert waiting == [("chouette", "member", BOB)], "the window closed without him: the Captain rolls"


def test_one_reminder_loop_and_no_chouette_timers():
    """One module runs the loop: cogs/reminders.py; club/chouette/timers.py and the chouette cog's loop are gone."""
    assert not (ROOT / "club" / "chouette" / "timers.py").exists()
    loops = []
    for path in sorted((ROOT / "cogs").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "loop" and getattr(node.value, "id", "") == "tasks":
                loops.append(path.name)
    assert loops == ["reminders.py"]
