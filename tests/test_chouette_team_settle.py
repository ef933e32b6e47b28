"""Settlements between Team members (RULES C10; 003 Atlanta 4.4) through the club: offered, accepted, declined or
preempted by Box, the points entering the game's row on the score sheet and the club's ledger (rows sum to zero),
shown by the console and by the Discord seat panel."""

from __future__ import annotations

import pytest

from backgammon.chouette import ChouetteRules
from backgammon.errors import ChouetteError
from club.chouette.views import ChouetteView
from club.errors import ClubError
from club.records import ClubRecords
from cogs.chouette_present import seats_text as discord_seats
from console import member_id
from tests.chouette_clubkit import ANN, BOB, CY, DI, seated_table
from tests.test_console_club import console_in

NAMES = ("alice", "bob", "cy", "di")


async def _to_box_on_roll(console) -> ChouetteView:
    """Play the chouette on (no doubles) until Box is to roll and may double: nothing else pending."""
    names = {member_id(n): n for n in NAMES}
    for _ in range(300):
        view = await console.chouettes.state(1)
        decision = view.decisions[0]
        await console.handle(f"as {names[decision.actor]}")
        if decision.pending == "roll" and decision.subject == view.box and "double" in decision.actions:
            return view
        if decision.pending == "play":
            plays = await console.chouettes.legal_plays(1, decision.actor)
            out = await console.handle(f"move {plays[0]}")
        elif decision.pending == "double":
            out = await console.handle("no-double")
        else:
            out = await console.handle("roll")
        assert not out.startswith("Refused"), out
    raise AssertionError("Box never came to roll with a cube to turn")


async def test_a_captain_buys_a_members_interest_and_the_sheet_and_ledger_carry_it(tmp_path):
    """The worked example (003 Atlanta 4.4, 'A' offers 'B' for his interest): four members at 1 a point. The
    Captain first offers the other Team member 2 points — declined; then 1 point — accepted: the Captain pays him 1 and
    holds his cube. Box doubles every cube and the Captain drops both his cubes, the last member drops his: Box's
    side wins 1 on each of the three cubes (+3, shared with a Partner if there is one), the Captain −1 −1 −1 = −3,
    the seller +1 (the settlement), the last member −1. The row sums to zero on the chouette's sheet and in the
    club's ledger; the console and the Discord panel show the open offer and each step."""
    names = {member_id(n): n for n in NAMES}
    async with console_in(tmp_path, seed=4) as console:
        await console.handle("chouette start stake=1")
        for name in NAMES[1:]:
            await console.handle(f"as {name}")
            await console.handle("chouette join")
        await console.handle("chouette seat")
        view = await _to_box_on_roll(console)
        captain = view.captain
        others = [m for m in view.team if m not in (captain, view.partner)]
        seller, last = others[0], others[1]
        assert {view.box, captain, seller, last} | ({view.partner} - {None}) == set(names)
        await console.handle(f"as {names[captain]}")
        out = await console.handle(f"chouette team-settle offer {names[seller]} 2")
        assert f"{names[captain]} offers to buy {names[seller]}'s interest in the game" in out, out
        offered = await console.chouettes.state(1)
        for panel in (await console.handle("chouette status"), discord_seats(offered)):
            assert f"Offer: {names[captain]} buys {names[seller]}'s interest for 2 points" in panel, panel
        assert (await console.handle("chouette team-settle accept")).startswith("Refused")  # only the seller accepts
        await console.handle(f"as {names[seller]}")
        assert f"{names[seller]} declines" in await console.handle("chouette team-settle decline")
        assert (await console.chouettes.state(1)).team_offer is None
        await console.handle(f"as {names[captain]}")
        await console.handle(f"chouette team-settle offer {names[seller]} 1")
        await console.handle(f"as {names[seller]}")
        out = await console.handle("chouette team-settle accept")
        assert f"{names[captain]} pays {names[seller]} 1 point and {names[captain]} holds" in out, out
        view = await console.chouettes.state(1)
        held = {cube.member: cube.team for cube in view.cubes if not cube.extra}
        assert held[seller] == captain and held[captain] == captain and view.team_offer is None
        await console.handle(f"as {names[view.box]}")
        assert not (await console.handle("double")).startswith("Refused")
        await console.handle(f"as {names[captain]}")
        assert not (await console.handle("drop")).startswith("Refused")
        await console.handle(f"as {names[last]}")
        out = await console.handle("drop")
        assert "Game 1 is over" in out, out
        view = await console.chouettes.state(1)
        row = view.sheet.rows[0].points
        box_side = row[view.box] + (row[view.partner] if view.partner is not None else 0)
        assert (box_side, row[captain], row[seller], row[last]) == (3, -3, 1, -1) and sum(row.values()) == 0
        sheet = await ClubRecords(console.service).sheet(1, "chouette:1")
        ledger_row = sheet.rows[0].points
        assert {m: p for m, p in ledger_row.items() if p} == {m: p for m, p in row.items() if p}
        assert sum(ledger_row.values()) == 0


def _table(rules: ChouetteRules):
    """Ann Box, Bob Captain, Cy and Di the Team (003 Atlanta, no Partner with four), the board at the opening."""
    table = seated_table(rules, [ANN, BOB, CY, DI], [(6, 6), (6, 5), (5, 5), (5, 4)])
    table.apply("start_game", None, {"number": 1, "dice": "injected", "seed_hash": None})
    table.apply("opening_roll", None, {"dice": [2, 1]})
    return table


def test_box_preempts_and_pays_the_seller_himself():
    """4.4 "If 'B' accepts the offer, Box may preempt the offer, paying 'B' in order to reduce the Team": Bob offers
    Cy 1 point; Box (Ann) preempts; Cy accepts — Ann pays Cy 1, Cy's cube is settled with Box (not Bob's), and
    Bob holds only his own cube. Only Box preempts; only Cy accepts; a refused step changes nothing."""
    rules = ChouetteRules.preset("chouette-atlanta", box_partner=False)
    table = _table(rules)
    table.apply("team_settle", BOB, {"step": "offer", "seller": CY, "points": 1})
    before = table.to_json()
    for member, step in ((DI, "preempt"), (BOB, "accept"), (DI, "decline")):
        with pytest.raises(ClubError):
            table.apply("team_settle", member, {"step": step})
        assert table.to_json() == before
    with pytest.raises(ClubError):  # one offer at a time
        table.apply("team_settle", DI, {"step": "offer", "seller": CY, "points": 1})
    table.apply("team_settle", ANN, {"step": "preempt"})
    logged = table.apply("team_settle", CY, {"step": "accept"})
    assert logged["preempt"] is True and table.open_offer() is None
    game = table.session.game
    cy_cube = game.cubes[str(CY)]
    assert (cy_cube.status, cy_cube.team) == ("settled", str(CY))
    assert [(t.payer, t.payee, t.points) for t in game.transfers] == [(str(ANN), str(CY), 1)]
    assert {c.team for c in game.cubes.values() if c.live} == {str(BOB), str(DI)}


def test_without_team_settlements_the_offer_is_refused_and_nothing_changes():
    """RULES C10 is optional: with ``team_settlements`` off an offer is refused by the rules; a seller without a cube
    with Box in play (Box himself) is refused too."""
    table = _table(ChouetteRules.preset("chouette-atlanta", team_settlements=False))
    before = table.to_json()
    with pytest.raises(ChouetteError, match="4.4"):
        table.apply("team_settle", BOB, {"step": "offer", "seller": CY, "points": 1})
    assert table.to_json() == before
    table = _table(ChouetteRules.preset("chouette-atlanta"))
    with pytest.raises(ChouetteError):
        table.apply("team_settle", BOB, {"step": "offer", "seller": ANN, "points": 1})
    assert table.open_offer() is None


async def test_the_settlement_through_discord_player_settle(tmp_path):
    """Through the real bot (the harness): in a five-member chouette Bob (Captain) offers Cy 1 point with
    ``/player settle``; the board's seat panel shows the offer; Cy's ``accept`` is published in the channel and Bob
    holds Cy's cube; a refused step (Di accepting) is answered privately and changes nothing."""
    from club import InjectedDice
    from tests.discordkit import Harness

    seating = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]  # Ann Box, Bob Captain, then Cy, Di, Ed
    dice = InjectedDice([*seating, (2, 1)], fallback=b"team-settle")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        ann, bob, cy, di, ed = (h.member(name) for name in ("Ann", "Bob", "Cy", "Di", "Ed"))
        room = h.channel("club-night")
        await h.command(ann, "bg chouette start", room)
        for member in (bob, cy, di, ed):
            await h.command(member, "bg chouette join", room)
        await h.command(ed, "bg chouette seat", room)
        view = await h.bot.chouettes.state(1)
        assert (view.box, view.captain) == (ann.id, bob.id) and not [d for d in view.decisions if d.pending != "play"]
        offered = await h.command(bob, "player settle", room, step="offer", member=cy, points=1)
        assert offered.private and "offers to buy Cy's interest" in offered.text, offered.text
        assert "Offer: Bob buys Cy's interest for 1 point" in h.last(room).text
        before = (await h.bot.chouettes.state(1)).version
        refused = await h.command(di, "player settle", room, step="accept")
        assert refused.private and (await h.bot.chouettes.state(1)).version == before
        accepted = await h.command(cy, "player settle", room, step="accept")
        assert "Bob pays Cy 1 point" in accepted.text, accepted.text
        view = await h.bot.chouettes.state(1)
        assert {c.member: c.team for c in view.cubes if not c.extra}[cy.id] == bob.id and view.team_offer is None
