"""Nobody waits on an absent member (RULES C9; 003 Atlanta 6.2, 7.1), through the Discord harness and the console:
an Acting Captain stands in for a Captain who left or missed his deadline, standing orders answer at once, members
away with nobody present to decide for them are passed over — and the log, the sheet and the dice proof verify."""

from __future__ import annotations

import pytest

from club import InjectedDice, ManualClock
from club.verify import verify_chouette
from tests.consolekit import console_in
from tests.discordkit import GUILD, Harness, Msg, chouette_parts

pytestmark = pytest.mark.backends

HOUR = 3600.0
SEATING = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]  # Ann Box, Bob Captain, then Cy, Di, Ed


def mentioned(post: Msg) -> set[int]:
    return {int(part[2:-1]) for part in post.content.split() if part.startswith("<@") and part.endswith(">")}


async def chouette(h: Harness, who, what: str, room: int, **options):
    """``/bg chouette <what>`` by ``who`` in ``room``; its answer is private."""
    answer = await h.command(who, f"bg chouette {what}", room, **options)
    assert answer.private, answer
    return answer


def carrying(h: Harness, room: int, subject: int, action: str) -> Msg:
    """The newest message in ``room`` with ``subject``'s chouette ``action``."""
    for message in reversed(h.messages(room)):
        if any(chouette_parts(c) == (subject, action) for c in message.chouette_ids):
            return message
    raise AssertionError(f"no {action} for {subject} in the channel")


async def seated(h: Harness, room: int, clock: ManualClock):
    """Ann starts a chouette with 24 h per decision, the four others join, the seat roll: Box Ann, Captain Bob."""
    people = [h.member(name) for name in ("Ann", "Bob", "Cy", "Di", "Ed")]
    await h.bot.service.register(GUILD, people[0].id, "Ann")
    await h.bot.service.configure_club(GUILD, move_time=2 * HOUR, expiry_policy="forfeit_game")
    await chouette(h, people[0], "start", room, hours=24.0, proxy_hours=12.0)
    for member in people[1:]:
        await chouette(h, member, "join", room)
    seat = await chouette(h, people[-1], "seat", room)
    assert "Box Ann against Captain Bob" in seat.text
    return people


@pytest.mark.sqlite_only
async def test_a_captain_who_leaves_gets_an_acting_captain_and_his_proxy_decides_his_cube(tmp_path):
    """RULES C9 (003 Atlanta 6.2, 7.1): Bob, the Captain, named Di his proxy and leaves during the Team's window: Cy,
    the next Team member present, is Acting Captain at once — the board says so and he rolls and plays; Bob's double
    or pass goes to Di, not to Bob. Ed leaves a standing order "pass my doubles" for while he is away: he is away
    and his entry passes at once, on the board and in the log. Nobody is asked for an away member."""
    clock = ManualClock()
    dice = InjectedDice([*SEATING, (2, 1)], fallback=b"standin")
    async with Harness.start(tmp_path / "club.sqlite3", clock=clock, dice=dice) as h:
        room = h.channel("club-night")
        ann, bob, cy, di, ed = await seated(h, room, clock)
        await chouette(h, bob, "proxy", room, member=di)
        board = h.last(room)
        menu = board.chouette_id(ann.id, "play")
        await h.press(ann, board, menu, values=[board.options(menu)[0]])
        window = h.last(room)
        assert mentioned(window) == {bob.id, cy.id, di.id, ed.id}

        left = await chouette(h, bob, "leave", room)
        assert left.private
        board = h.last(room)
        assert "Cy is Acting Captain for Bob" in board.embed["description"]
        assert "Box Ann vs Acting Captain Cy (for Bob)" in board.embed["title"]
        state = await h.bot.chouettes.state(1)
        assert (state.captain, state.player, state.away) == (bob.id, cy.id, (bob.id,))
        assert {(d.subject, d.actor) for d in state.decisions} == {(bob.id, di.id), (cy.id, cy.id), (di.id, di.id),
                                                                   (ed.id, ed.id)}  # fmt: skip
        fields = " ".join(f["value"] for f in board.embed["fields"])
        assert "Acting Captain Cy" in fields and "Captain Bob" in fields

        ordered = await chouette(h, ed, "order", room, answers="pass until back")
        assert ordered.private
        board = h.last(room)
        assert "Ed leaves a standing order: no doubles (until he is back)" in board.embed["description"]
        assert "Ed does not double (his standing order, RULES C9)" in board.embed["description"]
        state = await h.bot.chouettes.state(1)
        assert ed.id in state.away and ed.id not in {d.subject for d in state.decisions}

        await h.press(cy, board, board.chouette_id(cy.id, "pass"))
        await h.press(di, board, board.chouette_id(bob.id, "pass"))
        await h.press(di, board, board.chouette_id(di.id, "pass"))
        state = await h.bot.chouettes.state(1)
        assert [(d.subject, d.pending) for d in state.decisions] in ([(cy.id, "play")], [(cy.id, "roll")])
        assert cy.id in mentioned(h.last(room)), "the Acting Captain is pinged to play"
        log = await h.bot.chouettes.log(1)
        assert [(a.kind, a.member_id, a.args) for a in log if a.kind in ("stand_in", "order")] == [
            ("stand_in", None, {"member": cy.id, "for": bob.id}),
            ("order", ed.id, {"pass_doubles": True, "take_upto": None, "drop_above": None, "until": "back"}),
        ]
        passed = [a for a in log if a.kind == "pass" and a.args["member"] == ed.id]
        assert [(a.member_id, a.args["why"]) for a in passed] == [(None, "order")]
        report = await verify_chouette(h.bot.service.db, 1)
        assert report.ok, report.problems


@pytest.mark.sqlite_only
async def test_console_standing_orders_answer_at_once_and_a_leaving_captain_is_stood_in_for(tmp_path):
    """RULES C9 in the console: ``chouette order take 4 drop 8`` for the game is shown on the seat panel; Box doubles
    every cube and cy's order takes his at once (logged as the club's ``answer`` with ``why: order``); the Captain
    ``leave``s and the next Team member present is Acting Captain on the board; ``chouette order clear`` withdraws an
    order, bad orders are refused and change nothing."""
    async with console_in(tmp_path, seed=4, cast=("bob", "cy", "di")) as console:
        await console.handle("chouette start")
        for name in ("bob", "cy", "di"):
            await console.handle(f"as {name}")
            await console.handle("chouette join")
        await console.handle("chouette seat")
        view = await console.chouettes.state(1)
        names = {view.names[m]: m for m in view.members}
        box, captain = view.names[view.box], view.names[view.captain]
        other = next(view.names[m] for m in view.team if m != view.captain)
        await console.handle(f"as {other}")
        for bad in ("chouette order take 3", "chouette order take 8 drop 4", "chouette order", "chouette order maybe"):
            assert (await console.handle(bad)).startswith("Refused"), bad
        out = await console.handle("chouette order take 4 drop 8")
        assert f"{other} leaves a standing order: takes up to 4, drops above 8 (this game)" in out
        assert "(standing order: takes up to 4, drops above 8 (this game))" in out
        for _ in range(200):  # play on until Box may double
            view = await console.chouettes.state(1)
            decision = view.decisions[0]
            await console.handle(f"as {view.names[decision.actor]}")
            if decision.pending == "roll" and decision.subject == view.box and "double" in decision.actions:
                break
            if decision.pending == "play":
                out = await console.handle(f"move {(await console.chouettes.legal_plays(1, decision.actor))[0]}")
            elif decision.pending == "double":
                out = await console.handle("no-double" if decision.actor == decision.subject else
                                           f"no-double for {view.names[decision.subject]}")  # fmt: skip
            else:
                out = await console.handle("roll")
            assert not out.startswith("Refused"), out
        out = await console.handle("double all")
        assert f"{other} takes (his standing order, RULES C9)." in out, out
        view = await console.chouettes.state(1)
        assert names[other] not in {d.subject for d in view.decisions}
        await console.handle(f"as {captain}")
        out = await console.handle("chouette leave")
        assert f"is Acting Captain for {captain}" in out and f"Box {box} vs Acting Captain" in out, out
        await console.handle(f"as {other}")
        assert "withdraws his standing order" in await console.handle("chouette order clear")
        assert (await console.handle("chouette order clear")).startswith("Refused")
        log = await console.chouettes.log(1)
        assert [a.args for a in log if a.kind == "answer" and a.args.get("why")] == [
            {"member": names[other], "decision": "take", "cube": None, "why": "order"}
        ]
        assert (await verify_chouette(console.service.db, 1)).ok
