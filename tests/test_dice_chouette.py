"""Chouettes roll with the v3 recipe like the 1-on-1 tables (RULES A1, :data:`club.dice.RECIPE_V3`): every member —
Box, Captain, Team, and the lobby before the seat roll — adds luck of his own after the commitment is shown (the
board's button, the console's ``chouette luck``, his ``/player seed`` phrase), fixed at the series' first roll; with
``[dice] beacon`` each game waits for the round due after its start (named when it starts) and refuses to roll
without it; the proof, ``python -m club verify`` and ``tools/verify_dice.py`` say for each member whether his luck
protects him and refuse false claims; every ending reveals every commitment; a chouette started on v2 plays on."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from club.beacon import Beacon
from club.commitments import BEACON, CLIENT_SEED, UNUSED_SEED
from club.dice import RECIPE_V2, RECIPE_V3, seed_hash, verify_rolls
from club.errors import NotAPlayerError, NotNowError
from club.proof import chouette_lines, chouette_proof
from club.verify import verify_chouette
from tests.beaconkit import TEST_CHAIN, FakeBeacon
from tests.chouette_clubkit import ANN, BOB, CHANNEL, CY, DI, GUILD, HOUR, chouettes, decide_randomly, seated
from tests.clubkit import snapshot

TOOL = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"
CHAIN_OPTION = f"test={TEST_CHAIN.public_key}:{TEST_CHAIN.genesis}:{TEST_CHAIN.period}"


def _tool(path: Path, text: str, *options: str) -> subprocess.CompletedProcess:
    path.write_text(text)
    return subprocess.run([sys.executable, str(TOOL), *options, str(path)], capture_output=True, text=True,
                          timeout=60)  # fmt: skip


async def _play_until(service, outcome, rng, done):
    for _ in range(3000):
        if done(outcome) or not outcome.view.decisions:
            break
        outcome = await decide_randomly(service, outcome, rng)
    return outcome


async def test_box_and_a_team_member_add_luck_that_protects_them_and_every_verifier_agrees(tmp_path):
    async with chouettes(tmp_path / "ch.sqlite3") as service:
        opened = await service.start(GUILD, CHANNEL, ANN)
        sid = opened.session_id
        assert "Add your luck" in opened.message
        await service.join(sid, BOB)
        service.clock.advance(5)
        await service.add_luck(sid, ANN, "lobby luck of Ann")  # the seat throws' and game 1's
        await service.join(sid, CY)
        outcome = await service.seat(sid, CY)
        assert outcome.view.game_number == 1
        view = outcome.view
        box, team = view.order[0], view.order[-1]
        service.clock.advance(5)
        await service.add_luck(sid, box, "the Box's own words")  # game 2's, committed when game 1 started
        outcome = await service.add_luck(sid, team, "a Team member's own words")
        assert outcome.view.lucky == (box, team)  # the board names them, never their words
        assert "own words" not in outcome.message
        with pytest.raises(NotAPlayerError):
            await service.add_luck(sid, 999, "not at this table")
        outcome = await _play_until(service, outcome, random.Random(4), lambda o: o.view.game_number >= 3)
        assert outcome.view.game_number >= 3
        log = await service.store.actions(sid)
        dice = await service.store.dice(sid)
        luck = {(a.args["game"], a.member_id): a.args for a in log if a.kind == CLIENT_SEED}
        assert luck[(0, ANN)]["protected"] and luck[(1, ANN)]["protected"] and luck[(2, box)]["protected"]
        assert luck[(2, team)]["seed"] == "a Team member's own words" and (3, box) not in luck
        start2 = next(a for a in log if a.kind == "start_game" and a.args["number"] == 2)
        assert (
            start2.args["recipe"] == RECIPE_V3 and start2.args["members"][0] == box and team in start2.args["members"]
        )
        rolls = [(a.roll_index, a.dice) for a in log if a.series == 2 and a.dice is not None]
        clients = [(0, "the Box's own words"), (0, "a Team member's own words")]
        assert verify_rolls(dice[2].seed, dice[2].seed_hash, rolls, recipe=RECIPE_V3, contributions=clients) == []
        assert verify_rolls(dice[2].seed, dice[2].seed_hash, rolls, recipe=RECIPE_V3, contributions=[]) != []
        report = await verify_chouette(service.club.db, sid)
        assert report.ok and report.proven_rolls > 10, report.problems
        series, text = await chouette_proof(service, sid)
        names = outcome.view.names
        assert f"Dice of game 2: {names[box]}: protected by their own luck" in text, text
        assert f"{names[team]}: protected by their own luck" in text
        lines = "\n".join(await chouette_lines(service, sid))
    result = _tool(tmp_path / "proof.txt", lines)
    assert result.returncode == 0, result.stdout
    assert "Series2: ok" in result.stdout and f"m{box} protected by their own luck" in result.stdout, result.stdout
    # a false claim: luck set before the commitment shown as protection
    line = next(line for line in lines.splitlines() if "Series2" in line)
    early = int(re.search(r"committed=(\d+)", line)[1]) - 1000
    forged = lines.replace(line, re.sub(rf"m{box}:\d+:protected:", f"m{box}:{early}:protected:", line))
    assert forged != lines
    result = _tool(tmp_path / "forged.txt", forged)
    assert result.returncode == 1 and f"m{box}'s luck is shown as protection but was set before" in result.stdout


async def test_standing_phrases_join_at_the_first_action_and_luck_is_refused_once_nothing_waits(tmp_path):
    async with chouettes(tmp_path / "ch.sqlite3") as service:
        await service.club.set_preferences(BOB, seed="Bob's phrase, set before")
        opened = await service.start(GUILD, CHANNEL, ANN)
        sid = opened.session_id
        service.clock.advance(1)
        await service.club.set_preferences(CY, seed="Cy's phrase, set after")
        await service.join(sid, BOB)
        await service.join(sid, CY)
        log = await service.store.actions(sid)
        luck = {(a.args["game"], a.member_id): a.args["protected"] for a in log if a.kind == CLIENT_SEED}
        assert luck == {(0, BOB): False, (1, BOB): False, (0, CY): True, (1, CY): True}
        outcome = await service.seat(sid, CY)
        assert outcome.view.lucky == ()  # game 2's: nobody yet
    async with chouettes(tmp_path / "injected.sqlite3", dice=lambda *_: (3, 4)) as service:
        opened = await service.start(GUILD, CHANNEL, ANN)
        with pytest.raises(NotNowError):
            await service.add_luck(opened.session_id, ANN, "no dice to join")


async def test_a_chouette_emptied_before_its_seat_roll_opens_both_commitments(tmp_path):
    async with chouettes(tmp_path / "ch.sqlite3") as service:
        opened = await service.start(GUILD, CHANNEL, ANN)
        sid = opened.session_id
        await service.join(sid, BOB)
        await service.add_luck(sid, BOB, "never rolled")
        await service.leave(sid, BOB)
        closed = await service.leave(sid, ANN)
        assert closed.view.status == "closed"
        log = await service.store.actions(sid)
        (unused,) = [a for a in log if a.kind == UNUSED_SEED]
        assert unused.args["game"] == 1 and seed_hash(bytes.fromhex(unused.args["seed"])) == unused.args["seed_hash"]
        assert (await service.store.dice(sid))[0].seed_revealed
        report = await verify_chouette(service.club.db, sid)
        assert report.ok, report.problems
        lines = "\n".join(await chouette_lines(service, sid))
    result = _tool(tmp_path / "proof.txt", lines)
    assert result.returncode == 0 and "Series1: unused" in result.stdout and "Series0: ok" in result.stdout


async def test_a_chouette_started_on_v2_plays_on_and_verifies(tmp_path, monkeypatch):
    from club.chouette import service as chouette_service
    from club.chouette import step as chouette_step

    async with chouettes(tmp_path / "ch.sqlite3") as service:
        with monkeypatch.context() as old:  # the bot of before: v2 in the open and in game 1
            old.setattr(chouette_service, "RECIPE_V3", RECIPE_V2)
            old.setattr(chouette_step, "RECIPE_V3", RECIPE_V2)
            outcome = await seated(service)
        sid = outcome.session_id
        outcome = await _play_until(service, outcome, random.Random(9), lambda o: o.view.game_number >= 3)
        assert outcome.view.game_number >= 3
        log = await service.store.actions(sid)
        recipes = {a.args["number"]: a.args.get("recipe") for a in log if a.kind == "start_game"}
        assert log[0].args["recipe"] == RECIPE_V2 and recipes[1] == RECIPE_V2 and recipes[2] == RECIPE_V3
        v2 = [a for a in log if a.kind == CLIENT_SEED and a.args["game"] == 1]
        assert v2 and all("set_at" not in a.args for a in v2)  # the old client seeds kept coming
        report = await verify_chouette(service.club.db, sid)
        assert report.ok, report.problems
        lines = "\n".join(await chouette_lines(service, sid))
    result = _tool(tmp_path / "proof.txt", lines)
    assert result.returncode == 0 and "Series1: ok" in result.stdout and "Series2: ok" in result.stdout


@pytest.fixture
async def relay():
    beacon = FakeBeacon()
    await beacon.start()
    yield beacon
    await beacon.stop()


def _beacon(relay) -> Beacon:
    return Beacon(TEST_CHAIN, (relay.url,), retries=2, pause=0, now=lambda: 4e9)  # every round already published


async def test_the_seat_throws_and_each_game_wait_for_their_rounds_and_the_verifiers_check_them(
    tmp_path, relay, monkeypatch
):
    from club import beacon as beacons

    async with chouettes(tmp_path / "ch.sqlite3", beacon=_beacon(relay)) as service:
        start_ms = round(service.clock.now() * 1000)
        outcome = await seated(service)
        due = TEST_CHAIN.round_due(start_ms)
        assert f"calls the seat roll: its throws wait for drand test round {due}" in outcome.message
        assert f"The seat throws use drand test round {due}" in outcome.message
        assert f"Its dice wait for drand test round {due}" in outcome.message  # game 1's, named at its start
        assert f"Game 1's dice use drand test round {due}" in outcome.message
        outcome = await _play_until(service, outcome, random.Random(3), lambda o: o.view.game_number >= 2)
        sid = outcome.session_id
        log = await service.store.actions(sid)
        beacons_logged = {a.args["game"]: a for a in log if a.kind == BEACON}
        assert set(beacons_logged) == {0, 1, 2} and beacons_logged[1].args["round"] == due
        call, seat = (next(a for a in log if a.kind == kind) for kind in ("seat_call", "seat"))
        assert call.seq < beacons_logged[0].seq < seat.seq and call.args["beacon"]["round"] == due
        first_roll = min(a.seq for a in log if a.series == 1 and a.dice is not None)
        assert beacons_logged[1].seq < first_roll
        monkeypatch.setitem(beacons.CHAINS, "test", TEST_CHAIN)
        report = await verify_chouette(service.club.db, sid)
        assert report.ok, report.problems
        lines = "\n".join(await chouette_lines(service, sid))
    assert f"beacon=test:{due}:" in lines
    result = _tool(tmp_path / "proof.txt", lines, "--chain", CHAIN_OPTION)
    assert result.returncode == 0 and f"beacon test round {due} verified" in result.stdout, result.stdout
    signature = beacons_logged[1].args["signature"]
    for forged, refusal in [
        (lines.replace(f"test:{due}:", f"test:{due - 1}:"), "is not the one due"),
        (lines.replace(signature[8:20], "0" * 12), "is not the test network's"),
    ]:
        result = _tool(tmp_path / "forged.txt", forged, "--chain", CHAIN_OPTION)
        assert result.returncode == 1 and refusal in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("trouble", "refusal"),
    [
        ("value", "randomness given is not SHA-256 of the signature"),
        ("signature", "not the network's signature of that round"),
        ("round", "where round"),
        ("down", "could not be fetched"),
    ],
)
async def test_a_bad_or_missing_round_throws_nothing_in_a_chouette(tmp_path, relay, trouble, refusal):
    path = tmp_path / "ch.sqlite3"
    async with chouettes(path, beacon=_beacon(relay)) as service:
        relay.down, relay.forge = trouble == "down", None if trouble == "down" else trouble
        opened = await service.start(GUILD, CHANNEL, ANN)
        sid = opened.session_id
        for member in (BOB, CY):
            await service.join(sid, member)
        called = await service.seat(sid, CY)
        assert "The dice of this game are not rolled" in called.message and refusal in called.message
        log = await service.store.actions(sid)
        assert [a.kind for a in log][-1] == "seat_call" and not any(a.kind == BEACON or a.dice for a in log)
        before = snapshot(path)
        again = await service.seat(sid, ANN)
        assert "not rolled" in again.message and snapshot(path) == before  # nothing stored
        with pytest.raises(NotNowError, match="waits for its beacon round"):  # the throwers are fixed with it
            await service.join(sid, DI)
        with pytest.raises(NotNowError, match="waits for its beacon round"):
            await service.leave(sid, BOB)
        luck = await service.add_luck(sid, BOB, "too late for the seat throws")
        assert "to the dice of game 1 (" in luck.message and "not rolled" in luck.message
        relay.down, relay.forge = False, None
        seated_ = await service.seat(sid, ANN)  # the next call fetches it and throws
        log = await service.store.actions(sid)
        assert [a.args["game"] for a in log if a.kind == BEACON] == [0, 1] and seated_.view.decisions
        assert [a.kind for a in log].count("seat_call") == 1 and any(a.kind == "opening_roll" for a in log)


async def test_through_discord_a_team_member_and_box_add_luck_with_the_boards_button(tmp_path):
    """The chouette board carries *Add your luck* for every member: pressed, it opens the box; the words go into
    the dice waiting for their first roll, the board names who added luck (never the words), the member hears
    privately, and ``/bg chouette verify`` says whose luck protects him."""
    from tests.discordkit import Harness

    async with Harness.start(tmp_path / "b.sqlite3", reviews=False) as h:
        ann, bob, cy = h.member("Ann"), h.member("Bob"), h.member("Cy")
        room = h.channel("night")
        await h.command(ann, "bg chouette start", room)
        await h.command(bob, "bg chouette join", room)
        lobby = h.last(room)
        h.clock.advance(20)  # the commitments are shown; Bob types
        submitted = await h.submit(bob, await h.press(bob, lobby, "Add your luck"), "Bob in the lobby")
        assert submitted.private and "Your luck is in: “Bob in the lobby”" in submitted.text, submitted.text
        board = h.last(room)
        assert "Luck in the seat roll's and game 1's dice: Bob." in board.text and "Bob in the lobby" not in board.text
        await h.command(cy, "bg chouette join", room)
        await h.command(cy, "bg chouette seat", room)
        chouettes = h.bot.chouettes
        sid = await chouettes.session_in(room)
        view = await chouettes.state(sid)
        box, team = view.order[0], view.order[-1]
        by_id = {member.id: member for member in (ann, bob, cy)}
        h.clock.advance(5)  # game 2's commitment is shown with game 1's board
        for member, words in ((by_id[team], "a Team member's words"), (by_id[box], "the Box's words")):
            board = h.last(room)
            await h.submit(member, await h.press(member, board, "Add your luck"), words)
        board = h.last(room)
        names = view.names
        assert f"Luck in game 2's dice: {names[team]}, {names[box]}." in board.text, board.text
        log = await chouettes.log(sid)
        luck = [(a.member_id, a.args["game"], a.args["protected"]) for a in log if a.kind == CLIENT_SEED]
        assert luck == [(bob.id, 0, True), (bob.id, 1, True), (team, 2, True), (box, 2, True)]
        answer = await h.command(ann, "bg chouette verify", room)
    assert f"Dice of game 1: {names[box]}:" in answer.text and f"{names[bob.id]}: protected by their own luck" in (
        answer.text
    )


async def test_a_game_started_by_a_deadline_fetches_its_round_too(tmp_path, relay, monkeypatch):
    from club import beacon as beacons
    from club.scheduler import run_due

    monkeypatch.setitem(beacons.CHAINS, "test", TEST_CHAIN)
    async with chouettes(tmp_path / "ch.sqlite3", beacon=_beacon(relay)) as service:
        await service.club.configure_club(GUILD, move_time=HOUR, reminders=[], expiry_policy="forfeit_game")
        outcome = await seated(service)
        sid = outcome.session_id
        service.clock.advance(2 * HOUR)  # the roller lets his time pass: his side forfeits game 1
        notices = await run_due(service)
        assert notices and notices[0].outcome.view.game_number == 2
        log = await service.store.actions(sid)
        assert [a.args["game"] for a in log if a.kind == BEACON] == [0, 1, 2]
        assert [a.series for a in log if a.kind == "opening_roll"][-1] == 2 and notices[0].outcome.view.decisions
        report = await verify_chouette(service.club.db, sid)
        assert report.ok, report.problems


async def test_in_the_console_luck_goes_into_a_chouette_and_its_board_names_who(tmp_path):
    """The console's ``luck WORDS chouette=N`` is the board's button: in the lobby it joins the seat throws' and
    game 1's dice, once seated the next game's; ``chouette status`` names who added luck, never the words, and
    ``chouette verify`` writes a proof the tool checks, saying whose luck protects him."""
    from tests.consolekit import console_in

    async with console_in(tmp_path) as console:
        await console.handle("chouette start")
        console.service.clock.advance(3)
        out = await console.handle("luck alice's own words chouette=1")
        assert "added luck of their own to the dice of the seat roll and game 1" in out, out
        assert "Luck in the seat roll's and game 1's dice: alice." in out and "own words" not in out
        for name in ("bob", "carol"):
            await console.handle(f"as {name}")
            await console.handle("chouette join")
        await console.handle("chouette seat")
        console.service.clock.advance(3)
        out = await console.handle("luck carol's words")
        assert "to the dice of game 2" in out, out
        status = await console.handle("chouette status")
        assert "Luck in game 2's dice: carol." in status and "carol's words" not in status
        out = await console.handle(f"chouette verify {tmp_path / 'proof.txt'}")
        assert "Dice of the seat throws: " in out and "alice: protected by their own luck" in out, out
        assert "Dice of game 1: " in out
    result = _tool(tmp_path / "copy.txt", (tmp_path / "proof.txt").read_text())
    assert result.returncode == 0 and "Series0: seed still secret" in result.stdout, result.stdout  # open still


async def test_club_verify_refuses_luck_claimed_as_protection_but_set_before_the_commitment(tmp_path):
    import json
    import sqlite3

    from storage import Database

    path = tmp_path / "ch.sqlite3"
    async with chouettes(path) as service:
        opened = await service.start(GUILD, CHANNEL, ANN)
        service.clock.advance(3)
        await service.add_luck(opened.session_id, ANN, "after the commitment")
        assert (await verify_chouette(service.club.db, opened.session_id)).ok
    with sqlite3.connect(path) as db:  # the operator rewrites the time: as if set before the commitment
        db.execute("DROP TRIGGER chouette_actions_no_update")  # he owns the file
        for row_id, args in db.execute("SELECT id, args FROM chouette_actions WHERE kind = 'client_seed'").fetchall():
            db.execute(
                "UPDATE chouette_actions SET args = ? WHERE id = ?",
                (json.dumps({**json.loads(args), "set_at": 1.0}), row_id),
            )
    async with Database.open(path) as db:
        report = await verify_chouette(db, opened.session_id)
    assert (
        f"seating dice: the luck of {ANN} is shown as protection but was set before the commitment" in report.problems
    )


async def test_a_one_on_one_board_names_who_added_luck_never_the_words(tmp_path):
    """The 1-on-1's challenge and board say whose luck is in the next game's dice (item of the same rule as the
    chouette's board): the challenge once Alice adds hers, the board once Bob adds his to game 2's."""
    from tests.discordkit import Harness

    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="3")
        challenge = h.last(lobby)
        assert "Luck" not in challenge.text
        h.clock.advance(20)
        await h.submit(alice, await h.press(alice, challenge, "Add your luck"), "alice's secret words")
        assert "Luck in game 1's dice: Alice." in challenge.text and "secret words" not in challenge.text
        await h.press(bob, challenge, "Accept")
        board = h.last(h.thread_of(challenge))
        await h.submit(bob, await h.press(bob, board, "Add your luck"), "bob's words")
        board = h.last(h.thread_of(challenge))
        assert "Luck in game 2's dice: Bob." in board.text and "bob's words" not in board.text
        view = await h.bot.service.state(1)
        assert view.luck_text == "Luck in game 2's dice: Bob."


async def test_python_m_club_verify_says_whose_luck_protects_him(tmp_path, capsys):
    from club.__main__ import _verify

    path = tmp_path / "ch.sqlite3"
    async with chouettes(path) as service:
        opened = await service.start(GUILD, CHANNEL, ANN)
        await service.join(opened.session_id, BOB)
        service.clock.advance(2)
        await service.add_luck(opened.session_id, BOB, "after the commitment")
        await service.join(opened.session_id, CY)
        await service.seat(opened.session_id, CY)
    assert await _verify(path, False) == 0
    out = capsys.readouterr().out
    assert (
        f"luck: seating dice: member {ANN} added no luck after the commitment; member {BOB} protected by their "
        f"own luck; member {CY} added no luck after the commitment"
    ) in out, out
    assert "luck: game 1 dice: member" in out
