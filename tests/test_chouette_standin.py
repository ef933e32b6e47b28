"""Nobody waits on an absent member (RULES C9; 003 Atlanta 6.2, 7.1), through the Discord harness and the console:
an Acting Captain stands in for a Captain who left or missed his deadline, standing orders answer at once, members
away with nobody present to decide for them are passed over — and the log, the sheet and the dice proof verify.
SQLite only: the chouette's storage on PostgreSQL is covered by tests/test_chouette_club.py and test_chouette_bot.py."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from club import InjectedDice, ManualClock
from club.verify import verify_chouette
from tests.consolekit import console_in
from tests.discordkit import GUILD, Harness, Msg, chouette_parts

HOUR = 3600.0
TOOL = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"
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
        assert "Ed leaves a standing order: no doubles (until they are back)" in board.embed["description"]
        assert "Ed does not double (their standing order, RULES C9)" in board.embed["description"]
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
        assert f"{other} takes (their standing order, RULES C9)." in out, out
        view = await console.chouettes.state(1)
        assert names[other] not in {d.subject for d in view.decisions}
        await console.handle(f"as {captain}")
        out = await console.handle("chouette leave")
        assert f"is Acting Captain for {captain}" in out and f"Box {box} vs Acting Captain" in out, out
        await console.handle(f"as {other}")
        assert "withdraws their standing order" in await console.handle("chouette order clear")
        assert (await console.handle("chouette order clear")).startswith("Refused")
        log = await console.chouettes.log(1)
        assert [a.args for a in log if a.kind == "answer" and a.args.get("why")] == [
            {"member": names[other], "decision": "take", "cube": None, "why": "order"}
        ]
        assert (await verify_chouette(console.service.db, 1)).ok


def _choose(decision, rng: random.Random, doubles: bool = True) -> str:
    """A random but legal action for ``decision`` (``doubles``: now and then, so Box's doubles reach away members)."""
    if decision.pending == "roll":
        return "double" if doubles and "double" in decision.actions and rng.random() < 0.3 else "roll"
    if decision.pending == "double":
        return "double" if doubles and rng.random() < 0.2 else "pass"
    if decision.pending == "extra":
        return "no_extra"
    return rng.choice(["take", "take", "drop"])


def _absent_never_asked(view) -> None:
    asked_absent = [d for d in view.decisions if d.actor in view.away]
    assert not asked_absent, f"an absent member is waited on: {asked_absent}"


async def test_must_show_five_members_the_captain_leaves_two_away_without_proxies_discord(tmp_path):
    """The issue's must-show, through the harness (fair dice): five members; in the first Team window two members
    (no proxy) let their deadline pass — they are away and passed over at once; then the Captain leaves mid-game
    with no proxy. The game plays to its end by buttons with Box doubling now and then, and at no step is a decision
    waiting on an absent member (the Acting Captain rolls, plays and answers for the three, RULES C9); the sheet
    row sums to zero and the log, sheet and dice proof verify (the verify use-case of ``python -m club verify``)."""
    clock = ManualClock()
    rng = random.Random(5)
    async with Harness.start(tmp_path / "club.sqlite3", clock=clock, seed=3) as h:
        room = h.channel("club-night")
        people = {m.id: m for m in (h.member(n) for n in ("Ann", "Bob", "Cy", "Di", "Ed"))}
        first = next(iter(people.values()))
        await h.bot.service.register(GUILD, first.id, "Ann")
        await h.bot.service.configure_club(GUILD, move_time=48 * HOUR)
        await chouette(h, first, "start", room, hours=24.0, proxy_hours=12.0)
        for member in list(people.values())[1:]:
            await chouette(h, member, "join", room)
        await chouette(h, first, "seat", room)
        chouettes = h.bot.chouettes

        async def act(view, doubles: bool = True) -> None:
            decision = view.decisions[0]
            action = _choose(decision, rng, doubles)
            plays = await chouettes.legal_plays(1, decision.actor) if decision.pending == "play" else []
            if len(plays) > 25:  # no menu holds them: /bg chouette move
                moved = await chouette(h, people[decision.actor], "move", room, play=plays[0])
                assert not moved.text.startswith("Refused"), moved.text
                return
            message = carrying(h, room, decision.subject, "play" if decision.pending == "play" else action)
            key = message.chouette_id(decision.subject, "play" if decision.pending == "play" else action)
            values = [message.options(key)[0]] if decision.pending == "play" else None
            pressed = await h.press(people[decision.actor], message, key, values=values)
            assert pressed.private and not pressed.text.startswith("Refused"), pressed.text

        view = await chouettes.state(1)
        while not any(d.pending == "double" for d in view.decisions):  # the first Team window, every cube centred
            await act(view, doubles=False)
            view = await chouettes.state(1)
        captain = view.captain
        late = [m for m in view.team if m != captain][1:3]
        for decision in view.decisions:
            if decision.subject not in late:
                message = carrying(h, room, decision.subject, "pass")
                await h.press(people[decision.actor], message, message.chouette_id(decision.subject, "pass"))
        clock.advance(25 * HOUR)
        await h.bot.get_cog("Reminders").tick()
        await h.settle()
        view = await chouettes.state(1)
        assert set(late) <= set(view.away) and view.proxies == {}
        assert "passed over" in h.last(room).embed["description"]
        await chouette(h, people[captain], "leave", room)
        view = await chouettes.state(1)
        acting = view.player
        assert acting not in (captain, *late) and captain in view.away
        assert "Acting Captain" in h.last(room).embed["title"]
        for _ in range(400):
            view = await chouettes.state(1)
            if view.sheet.rows:
                break
            _absent_never_asked(view)
            assert view.decisions, "the game waits for nobody"
            await act(view)
        row = view.sheet.rows[0]
        assert sum(row.points.values()) == 0 and set(row.points) == set(people)
        log = await chouettes.log(1)
        assert any(a.kind == "stand_in" for a in log)
        answered_for = {a.args["member"] for a in log if a.kind == "answer" and a.member_id == acting}
        assert {captain, *late} <= answered_for, "Box's double to the absent three: the Acting Captain answers (7.1)"
        after = log[[a.kind for a in log].index("stand_in") :]
        assert not [a for a in after if a.member_id in (captain, *late)], "nobody absent acts after the stand-in"
        report = await verify_chouette(h.bot.service.db, 1)
        assert report.ok and report.games >= 1, report.problems


async def test_must_show_five_members_the_captain_leaves_two_away_without_proxies_console(tmp_path):
    """The same must-show in the console: two members let the first Team window's deadline pass (``wait``), the
    Captain types ``chouette leave``; the game plays to its end by typed verbs with nobody waiting on an absent
    member; ``chouette verify FILE`` writes the dice proof and ``tools/verify_dice.py`` accepts it; the verify
    use-case finds the log and the sheet sound."""
    rng = random.Random(2)
    async with console_in(tmp_path, seed=9, cast=("bob", "cy", "di", "ed")) as console:
        await console.handle("config move_hours 48")
        await console.handle("chouette start")
        for name in ("bob", "cy", "di", "ed"):
            await console.handle(f"as {name}")
            await console.handle("chouette join")
        await console.handle("chouette seat")

        async def act(view, doubles: bool = True) -> str:
            decision = view.decisions[0]
            await console.handle(f"as {view.names[decision.actor]}")
            proxy = f" for {view.names[decision.subject]}"  # whose, when he decides for several
            if decision.pending == "play":
                plays = await console.chouettes.legal_plays(1, decision.actor)
                out = await console.handle(f"move {plays[0]}")
            else:
                verb = {"pass": "no-double", "no_extra": "no-extra"}.get(
                    action := _choose(decision, rng, doubles), action
                )
                out = await console.handle(verb + ("" if decision.pending in ("roll", "box_answer") else proxy))
            assert not out.startswith("Refused"), out
            return out

        view = await console.chouettes.state(1)
        while not any(d.pending == "double" for d in view.decisions):  # the first Team window, every cube centred
            await act(view, doubles=False)
            view = await console.chouettes.state(1)
        captain = view.captain
        late = [m for m in view.team if m != captain][1:3]
        for decision in view.decisions:
            if decision.subject not in late:
                await console.handle(f"as {view.names[decision.actor]}")
                await console.handle("no-double")
        out = await console.handle("wait 25h")
        assert out.count("passed over") >= 2, out
        await console.handle(f"as {view.names[captain]}")
        out = await console.handle("chouette leave")
        assert "Acting Captain" in out, out
        for _ in range(400):
            view = await console.chouettes.state(1)
            if view.sheet.rows:
                break
            _absent_never_asked(view)
            assert view.decisions, "the game waits for nobody"
            await act(view)
        row = view.sheet.rows[0]
        assert sum(row.points.values()) == 0 and len(row.points) == 5
        assert (await verify_chouette(console.service.db, 1)).ok
        proof = tmp_path / "proof.txt"
        assert "Wrote" in await console.handle(f"chouette verify {proof}")
    result = subprocess.run([sys.executable, str(TOOL), str(proof)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


async def test_money_play_standing_take_is_private_and_applied_when_the_double_arrives(tmp_path):
    """RULES D2, C9 in 1-on-1 money play, through the harness: Bob leaves ``/player autotake upto:2``; the answer is
    private (nothing posted in the channel or the thread names it, his opponent sees nothing); Alice's double to 2
    arrives and Bob takes at once, logged as his take; a bad value and someone else's session are refused, storing
    nothing."""
    from tests.test_discord_flows import play_turn

    dice = InjectedDice([(6, 1)], fallback=b"autotake")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
        games = h.channel()
        await h.command(alice, "bg challenge", games, opponent=bob, length="money", rules="money")
        await h.press(bob, h.last(games), "Accept")
        thread = h.thread_of(h.messages(games)[0])
        service = h.bot.service
        before = [m.text for m in h.messages(games) + h.messages(thread)]
        refused = await h.command(carol, "player autotake", games, upto=2, game=1)
        assert refused.private and "You do not play in game 1" in refused.text
        refused = await h.command(bob, "player autotake", thread, upto=3)
        assert refused.private and "cube value" in refused.text
        set_it = await h.command(bob, "player autotake", thread, upto=2)
        assert set_it.private and "Only you see this" in set_it.text and "cube of 2" in set_it.text
        assert [m.text for m in h.messages(games) + h.messages(thread)] == before, "nothing public about it"
        assert (await service.preferences(bob.id)).take_upto == {"match:1": 2}
        for _ in range(200):
            view = await service.state(1)
            member = h.members[view.waiting_for]
            if view.pending == "roll_or_double" and "double" in view.legal and member.id == alice.id:
                await h.press(alice, h.with_component(f"t:m:1:{view.version}:double"), "Double")
                break
            await play_turn(h, 1, random.Random(view.version))
        view = await service.state(1)
        assert view.pending != "answer_double" and view.game.cube_value == 2, "taken at once when the double arrived"
        actions = await service.db.actions(1)
        assert [(a.kind, a.member_id, a.auto) for a in actions if a.kind in ("double", "take")] == [
            ("double", alice.id, False),
            ("take", bob.id, True),
        ]


async def test_console_autotake(tmp_path):
    """``autotake N`` in the console: a private line for the member, the double to a bigger cube is still his to
    answer; ``autotake off`` withdraws it."""
    async with console_in(tmp_path) as console:
        await console.handle("challenge bob money money 5")
        await console.handle("as bob")
        await console.handle("accept")
        out = await console.handle("autotake 4")
        assert "Only you see this" in out and "cube of 4" in out
        assert (await console.service.preferences(console.member)).take_upto == {"match:1": 4}
        assert "every double yourself" in await console.handle("autotake off")
        assert (await console.service.preferences(console.member)).take_upto == {}
        assert (await console.handle("autotake 5")).startswith("Refused")


async def test_the_buyer_of_a_team_settlement_carries_the_sellers_cube_on_the_panel(tmp_path):
    """003 Atlanta 4.4 on the seat panel: after cy buys dee's interest, dee's line says cy holds his cube, and cy's
    own line says he carries dee's cube too — whose interest each cube carries, read from either line."""
    async with console_in(tmp_path, cast=("ann", "ben", "cy", "dee")) as console:
        for line in ("as ann", "chouette start", "as ben", "chouette join", "as cy", "chouette join", "as dee",
                     "chouette join", "chouette seat"):  # fmt: skip
            await console.handle(line)
        view = await console.chouettes.state(1)
        buyer, seller = (view.names[m] for m in view.team[1:3])
        await console.handle(f"as {buyer}")
        assert "offers to buy" in await console.handle(f"chouette team-settle offer {seller} 1")
        await console.handle(f"as {seller}")
        status = await console.handle("chouette team-settle accept")
        assert f"Team {seller} — cube 1 centred, held by {buyer} (settled)" in status, status
        assert f"Team {buyer} — cube 1 centred, carries {seller}'s cube too (003 Atlanta 4.4)" in status, status


def test_the_engine_stand_in_replays_and_the_acting_captain_is_the_default_proxy():
    """RULES C9 in the engine (pure): an away Captain's stand-in is the next Team member present and still in the
    game, refused for anyone else; the Captain keeps his cube and seat, the Acting Captain plays and is the default
    proxy of members away without one (7.1); the history replays to the same session. Classic (RULES C4): the Acting
    Captain doubles for the Team."""
    from backgammon.chouette import ChouetteRules, ChouetteSession
    from backgammon.errors import ChouetteError

    session = ChouetteSession(ChouetteRules.preset("chouette-atlanta"))
    session.seat({"Ann": [6, 5], "Bob": [5, 4], "Cy": [4, 3], "Di": [2, 1]})
    session.start_game()
    session.turn("team")
    assert session.stand_in_due() is None and session.player == "Bob"
    session.leave("Bob")
    session.leave("Cy")
    assert session.stand_in_due() == "Di", "Cy is away too: the next one present"
    with pytest.raises(ChouetteError, match="the next Team member present"):
        session.stand_in("Cy")
    session.stand_in("Di")
    assert (session.captain, session.player, session.proxy_for("Bob"), session.proxy_for("Cy")) == (
        "Bob", "Di", "Di", "Di")  # fmt: skip
    assert session.named_proxy("Bob") is None
    session.no_double("Bob", by="Di")
    replayed = ChouetteSession.replay(session.rules, session.history)
    assert replayed.to_json() == session.to_json()

    classic = ChouetteSession(ChouetteRules.preset("chouette-classic"))
    classic.seat({"Ann": 6, "Bob": 5, "Cy": 4})
    classic.start_game()
    classic.turn("box")
    classic.turn("team")
    classic.leave("Bob")
    classic.stand_in("Cy")
    assert classic.may_double("Bob") == [] and classic.may_double("Cy") == ["Bob", "Cy"]
    assert classic.team_double("Cy") == {"Bob": 2, "Cy": 2}


async def test_passed_over_extras_and_answers_with_nobody_present(tmp_path):
    """RULES C9's passed-over answers (003 Atlanta 5.7, 7.1): Cy leaves (away, no proxy); Box doubles every cube:
    Cy's answer goes to Bob, the Captain, who is present (7.1) — he drops it, Di drops, Bob takes his own; the
    extras round opens and Cy, a dropper away with nobody present to decide for him, offers no extra at once while
    Di decides; the log verifies."""
    from tests.chouette_clubkit import ANN, BOB, CY, DI, chouettes, seated

    dice = InjectedDice([(6, 6), (6, 5), (5, 5), (5, 4), (1, 2)], fallback=b"passed-over")
    async with chouettes(tmp_path / "c.sqlite3", dice=dice) as svc:
        outcome = await seated(svc, (ANN, BOB, CY, DI))
        sid = outcome.session_id
        outcome = await svc.leave(sid, CY)
        outcome = await svc.play(sid, BOB, (await svc.legal_plays(sid, BOB))[0])
        outcome = await svc.act(sid, ANN, "double", mark=outcome.view.mark)
        deciders = {d.subject: d.actor for d in outcome.view.decisions}
        assert deciders == {BOB: BOB, CY: BOB, DI: DI}, "Cy's answer goes to the Captain (7.1), who is present"
        await svc.act(sid, BOB, "drop", subject=CY, mark=outcome.view.mark)
        await svc.act(sid, DI, "drop", mark=outcome.view.mark)
        outcome = await svc.act(sid, BOB, "take", mark=outcome.view.mark)
        assert "offers no extra (003 Atlanta 5.7) (away with nobody present to decide for them: passed over" in (
            outcome.message
        )
        assert [(d.subject, d.pending) for d in outcome.view.decisions] == [(DI, "extra")]
        log = await svc.log(sid)
        assert [(a.kind, a.member_id, a.args) for a in log if a.args.get("why")] == [
            ("extra", None, {"member": CY, "offer": False, "why": "passed_over"})
        ]
        assert (await verify_chouette(svc.club.db, sid)).ok


async def test_with_nobody_on_the_team_present_box_doubles_are_dropped_at_once(tmp_path):
    """RULES C9: Bob (Captain) and Cy both leave; nobody on the Team is present to answer Box's double for them, so
    both are passed over and drop (their count before the double, 000 Ch.8) — the game ends on drops at once, nobody
    waited on; the sheet row sums to zero and the log verifies."""
    from tests.chouette_clubkit import ANN, BOB, CY, chouettes, seated

    dice = InjectedDice([(6, 6), (6, 5), (5, 5), (1, 2)], fallback=b"nobody")
    async with chouettes(tmp_path / "c.sqlite3", dice=dice) as svc:
        outcome = await seated(svc, (ANN, BOB, CY))
        sid = outcome.session_id
        outcome = await svc.play(sid, BOB, (await svc.legal_plays(sid, BOB))[0])
        await svc.leave(sid, BOB)
        outcome = await svc.leave(sid, CY)
        assert [(d.subject, d.pending) for d in outcome.view.decisions] == [(ANN, "roll")]
        outcome = await svc.act(sid, ANN, "double", mark=outcome.view.mark)
        assert outcome.finished == (1,), outcome.message
        assert outcome.message.count("drops (away with nobody present") == 2, outcome.message
        assert outcome.view.sheet.rows[0].points == {ANN: 2, BOB: -1, CY: -1}
        assert (await verify_chouette(svc.club.db, sid)).ok


async def test_a_chouette_result_counted_single_by_jacoby_says_so(tmp_path):
    """RULES D4 (newcomer report, item 9): a board forfeited at the time limit scores as a resignation at its level,
    and on cubes never turned Jacoby counts it single — "Box wins the board: a backgammon" followed by ±1 each read
    as a scoring bug: the game's lines now say which cubes were counted single (Jacoby)."""
    async with console_in(tmp_path, cast=("bob", "cy")) as console:
        await console.handle("config move_hours 1 expiry forfeit_game")
        await console.handle("chouette start")
        for name in ("bob", "cy"):
            await console.handle(f"as {name}")
            await console.handle("chouette join")
        await console.handle("chouette seat")
        out = ""
        for _ in range(4):  # the late Captain is stood in for; then nobody present is left and the board is forfeited
            out += await console.handle("wait 2h")
            if "is over" in out:
                break
        assert "Game 1 is over (forfeit)" in out, out
        assert "Counted single (Jacoby: never turned, RULES D4) on the cube of" in out, out


async def test_a_log_of_the_older_code_where_a_leaving_captain_played_on_still_replays(tmp_path, monkeypatch):
    """Old logs replay: before stand-ins and passed-over members, a Captain who left went on rolling and playing and
    was asked for every window. Such a log (written here with the stand-in and the club's decisions switched off)
    replays with today's code — the verify use-case finds the state, the sheet and the dice as stored."""
    from backgammon.chouette import ChouetteSession
    from club.chouette.table import ChouetteTable
    from tests.chouette_clubkit import ANN, BOB, CY, DI, chouettes, decide_randomly, seated

    with monkeypatch.context() as older:
        older.setattr(ChouetteSession, "stand_in_due", lambda self: None)
        older.setattr(ChouetteTable, "automatic", lambda self: [])
        async with chouettes(tmp_path / "c.sqlite3") as svc:
            outcome = await seated(svc, (ANN, BOB, CY, DI))
            sid = outcome.session_id
            captain = outcome.view.captain
            outcome = await svc.leave(sid, captain)
            rng = random.Random(3)
            for _ in range(40):  # some turns: his rolls, plays and window entries are his own
                outcome = await decide_randomly(svc, outcome, rng)
            log = await svc.log(sid)
            assert [a for a in log if a.kind in ("roll", "play") and a.member_id == captain], "he played on"
            assert not [a for a in log if a.kind == "stand_in" or a.args.get("why")]
            db_path = tmp_path / "c.sqlite3"
    async with chouettes(db_path) as svc:
        report = await verify_chouette(svc.club.db, 1)
        assert report.ok, report.problems
