"""The console runs the whole club: chouettes, the books and money at the stakes are commands;
no input ends it with a traceback; an action without a game number goes to the one game waiting for the member;
a refused challenge or setting changes nothing. Each test here failed against the console before the fix."""

from __future__ import annotations

import subprocess
import sys

from console import member_id
from storage import OperationFailedError
from tests.casekit import ROOT
from tests.consolekit import console_in


def one_line_refusal(text: str) -> bool:
    """A refusal: one line saying what was wrong (a list of games or plays may follow on later lines)."""
    return text.startswith("Refused: ") and "Traceback" not in text and "Internal error" not in text


async def test_chouettes_and_books_are_commands(tmp_path):
    """``chouette start``, ``club ledger``, ``/club ledger`` and ``sheet`` are console commands."""
    async with console_in(tmp_path) as console:
        for line in ("chouette start", "/bg chouette status", "club ledger", "/club ledger", "ledger all",
                     "sheet", "/club settle", "leaderboard", "club rating", "stats"):  # fmt: skip
            reply = await console.handle(line)
            assert "Unknown command" not in reply, (line, reply)
        out = await console.handle("/bg chouette status")
        assert "Chouette #1" in out and "At the table: alice" in out


async def test_stakes_become_money(tmp_path):
    """A money session at 10 a point: the ledger, the sheet and the session's score show money at the stake."""
    async with console_in(tmp_path) as console:
        await console.handle("challenge bob money money 10")
        await console.handle("as bob")
        await console.handle("accept")
        view = await console.service.state(1)
        resigner = "bob" if view.waiting_for == member_id("bob") else "alice"
        await console.handle(f"as {resigner}")
        await console.handle("resign gammon 1")
        await console.handle("as " + ("alice" if resigner == "bob" else "bob"))
        game = (await console.service.state(1)).game
        factor = game.cube_value * game.cube_factor  # automatic doubles on an opening tie (RULES D6)
        out = await console.handle("accept 1")
        points = f"{factor} point{'s' if factor > 1 else ''}"
        assert f"a gammon, counted single (Jacoby), {points}" in out, "the Jacoby rule: a centred cube scores single"
        assert f"(= +{10 * factor} at 10 a point)" in out and f"(= -{10 * factor} at 10 a point)" in out, out
        ledger = await console.handle("club ledger all")
        assert "money at the stakes" in ledger and f"+{10 * factor}" in ledger and f"−{10 * factor}" in ledger
        sheet = await console.handle("club sheet money:1")
        assert "money" in sheet and f"+{10 * factor}" in sheet


async def test_inputs_that_ended_the_console(tmp_path, monkeypatch):
    """``config reminders abc``, ``config reminders x,y``, the players' guide's ``rule_overrides { cube_cap = 64 }``,
    a game id ≥ 2⁶³, ``export 1 /proc/nope/x.mat``, a full disk: each is one line (the TOML form is accepted)."""
    async with console_in(tmp_path, images=tmp_path / "images") as console:
        for line in ("config reminders abc", "config reminders x,y", "board 9223372036854775808", "roll #99999999999999999999",
                     "export 9223372036854775807", "accept game=18446744073709551616", "chouette status chouette=9223372036854775808"):  # fmt: skip
            reply = await console.handle(line)
            assert one_line_refusal(reply), (line, reply)
        assert "cube_cap" in await console.handle("config rule_overrides { cube_cap = 64 }")
        assert (await console.service.club_settings(1)).rule_overrides == {"cube_cap": 64}
        assert (await console.service.club_settings(1)).reminders == (86400, 14400)  # unchanged by the refusals
        await console.handle("config reminders 24,4")
        await console.handle("challenge bob 1")
        await console.handle("as bob")
        await console.handle("accept")
        await console.handle("as alice")
        for path in ("/proc/nope/x.mat", "/dev/full"):
            reply = await console.handle(f"export 1 {path}")
            assert one_line_refusal(reply) and path in reply and "\n" not in reply, reply
        assert "disk is full" in await console.handle("export 1 /dev/full")

        def full(*args, **kwargs):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(type(tmp_path), "write_bytes", full)
        out = await console.handle("board 1")
        assert "image not written" in out and "disk is full" in out and "Next:" in out

        async def database_full(*args, **kwargs):
            raise OperationFailedError("database or disk is full")

        monkeypatch.setattr(console.service.db, "create_match", database_full)
        reply = await console.handle("challenge carol 3")
        assert one_line_refusal(reply) and "full" in reply and "\n" not in reply


def test_bytes_that_are_not_utf8(tmp_path):
    """Invalid UTF-8 on standard input is one refused line; the console reads on and exits 0."""
    script = b"as bob\nas alice\n\xff\xfe roll \xc3\x28\nchallenge bob 1\n\x00\x00\nquit\n"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--console", "--db", str(tmp_path / "c.sqlite3"), "--seed", "x"],
        input=script, capture_output=True, timeout=120,
    )  # fmt: skip
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0 and b"Traceback" not in result.stderr, result.stderr
    assert "that line is not UTF-8 text (byte 0xff at position 1)" in out
    assert "alice challenges bob to a 1-point match" in out and "NUL" in out and out.rstrip().endswith("Bye.")


async def test_an_action_goes_to_the_one_game_waiting_for_him(tmp_path):
    """Two matches open; alice last named #1 (where bob is to act) and only #2 waits for her: ``resign gammon``
    goes to #2 — it went to #1, "the last one named"."""
    async with console_in(tmp_path, seed=3) as console:
        service, alice = console.service, member_id("alice")
        await console.handle("challenge bob 3")
        await console.handle("challenge carol 3")
        for name, number in (("bob", 1), ("carol", 2)):
            await console.handle(f"as {name}")
            await console.handle(f"accept {number}")
        for _ in range(40):  # play on until #1 waits for bob and #2 for alice
            one, two = await service.state(1), await service.state(2)
            if one.waiting_for == member_id("bob") and two.waiting_for == alice and two.pending != "play":
                break
            view = next(v for v in (one, two) if not (v.match_id == 1 and v.waiting_for == member_id("bob")))
            who = {alice: "alice", member_id("bob"): "bob", member_id("carol"): "carol"}[view.waiting_for]
            await console.handle(f"as {who}")
            plays = await service.legal_plays(view.match_id, view.waiting_for)
            await console.handle(f"move {plays[0]} game={view.match_id}" if plays else f"roll {view.match_id}")
        await console.handle("as alice")
        await console.handle("board 1")  # the last game named
        out = await console.handle("resign gammon")
        assert "alice offers to resign a gammon" in out and "match #2" in out, out
        assert (await service.state(1)).pending != "answer_resignation"
        assert (await service.state(2)).pending == "answer_resignation"
        out = await console.handle("roll")  # nothing waits for her now: refused with the list
        assert "No game is waiting for you to act" in out and "#1 vs bob" in out and "#2 vs carol" in out


async def test_a_refused_challenge_changes_nothing(tmp_path):
    """A refused challenge changes nothing: it does not register the opponent as a member."""
    async with console_in(tmp_path) as console:
        for line in ("challenge zed 100", "challenge zed 3 money", "challenge zed money stake=2000000",
                     "challenge zed sideways", "challenge alice 3"):  # fmt: skip
            assert one_line_refusal(await console.handle(line)), line
        assert member_id("zed") not in await console.service.db.get_members([member_id("zed")])


async def test_defaults_unusable_for_their_kind_are_refused(tmp_path):
    """``config match_rules money`` and ``config money_rules chouette-atlanta`` are refused when set: accepted, they
    would make every challenge of that kind fail."""
    async with console_in(tmp_path) as console:
        out = await console.handle("config match_rules money")
        assert one_line_refusal(out) and "cannot be used for matches" in out and "tournament" in out
        out = await console.handle("config money_rules chouette-atlanta")
        assert one_line_refusal(out) and "chouette rule set" in out
        settings = await console.service.club_settings(1)
        assert (settings.match_rules, settings.money_rules) == ("tournament", "money")
        assert "challenges bob to a 3-point match" in await console.handle("challenge bob 3")
        assert "challenges carol to a money session" in await console.handle("challenge carol money")


async def test_a_chouette_closed_in_its_lobby_reveals_its_seat_roll_seed(tmp_path):
    """Two members open a chouette and both leave before the seat roll; the session closes
    and ``python -m club verify`` must find its seating seed revealed (RULES A1)."""
    from club.verify import verify_chouette

    async with console_in(tmp_path) as console:
        await console.handle("chouette start")
        await console.handle("as bob")
        await console.handle("chouette join")
        await console.handle("as alice")
        await console.handle("chouette leave")
        await console.handle("as bob")
        assert "Chouette #1 · over" in await console.handle("chouette leave")
        report = await verify_chouette(console.service.db, 1)
        assert report.ok, report.problems


async def test_chouette_buttons_are_verbs(tmp_path):
    """Box's buttons typed: ``double NAME`` doubles only that cube, the member answers ``take``; a Team member's
    ``no-double``; "you can:" lists each decider's verbs after the board (RULES C5, 003 Atlanta 5.6, 5.9)."""
    async with console_in(tmp_path, seed=4) as console:
        await console.handle("chouette start stake=1")
        for name in ("bob", "cy", "di"):
            await console.handle(f"as {name}")
            await console.handle("chouette join")
        out = await console.handle("chouette seat")
        assert "you can:" in out or "can: move PLAY" in out
        names = {member_id(n): n for n in ("alice", "bob", "cy", "di")}
        for _ in range(200):
            view = await console.chouettes.state(1)
            decision = view.decisions[0]
            await console.handle(f"as {names[decision.actor]}")
            if decision.pending == "roll" and decision.subject == view.box and "double" in decision.actions:
                break
            if decision.pending == "play":
                plays = await console.chouettes.legal_plays(1, decision.actor)
                out = await console.handle(f"move {plays[0]}")
            elif decision.pending == "double":
                assert "no-double" in out and "double" in out
                out = await console.handle("no-double")
            else:
                out = await console.handle("roll")
            assert not out.startswith("Refused"), out
        target = next(m for m in view.team if m != view.captain)
        out = await console.handle(f"double {names[target]}")
        assert f"doubles {names[target]}" in out, out
        view = await console.chouettes.state(1)
        assert [(d.subject, d.pending) for d in view.decisions] == [(target, "answer")]
        assert f"{names[target]} can: take, drop" in out
        assert "Refused" in await console.handle("take")  # Box cannot answer his own double
        await console.handle(f"as {names[target]}")
        out = await console.handle("take")
        assert f"{names[target]} takes." in out


async def test_wait_lets_time_pass(tmp_path):
    """``wait``: the club's clock moves deadline by deadline — the reminder fires before the expiry, and at the
    expiry the club's policy acts (here the late member forfeits the game, RULES A2, M5)."""
    async with console_in(tmp_path) as console:
        await console.handle("config move_hours 2 reminders 1 expiry forfeit_game")
        await console.handle("challenge bob 7")
        await console.handle("as bob")
        await console.handle("accept")
        view = await console.service.state(1)
        late = "alice" if view.waiting_for == member_id("alice") else "bob"
        start = console.service.clock.now()
        assert "Refused" in await console.handle("wait soon")
        out = await console.handle("wait 3h")
        assert out.index(f"Reminder: {late}") < out.index(f"Time is up for {late}"), out
        assert out.count("wins game 1 (forfeit)") == 1 and console.service.clock.now() == start + 3 * 3600
        assert out.count("wins game 1: ") == 1, "the game's final board, with its result, once"
        assert (await console.service.state(1)).game_number == 2
