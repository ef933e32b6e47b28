"""The console (``python bot.py --console``): the same use-cases as Discord, typed in a terminal — an ASCII board
after each action and each turn's PNG in the images folder; scriptable from stdin."""

from __future__ import annotations

import random
import subprocess
import sys

from backgammon.matfile import parse_mat
from backgammon.replay import replay
from club import ClubService, ManualClock
from console import Console, member_id
from storage import Database
from tests.casekit import ROOT
from tests.clubkit import seeded

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run_script(tmp_path, script: str, seed: str = "demo") -> str:
    config = tmp_path / "config.toml"
    config.write_text(f'[console]\nimages = "{(tmp_path / "images").as_posix()}"\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--console", "--no-review", "--config", str(config), "--db",
         str(tmp_path / "console.sqlite3"), "--seed", seed],
        input=script, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout


def line_of(text: str, start: str) -> str:
    """The one line of ``text`` starting with ``start``."""
    (line,) = [line for line in text.splitlines() if line.startswith(start)]
    return line


def test_scripted_console_game(tmp_path):
    """``python bot.py --console < script``: pick the member (as alice), type the Discord commands; an illegal
    play is refused with the legal plays (RULES G10); a resignation ends the 1-point match (RULES G12, M1); each
    turn's board is a PNG in [console] images/<database stem>, named by the side it is seen from; the match exports to a .mat file (RULES A4)."""
    script = "\n".join([
        "# a scripted game (comments and blank lines are skipped)",
        "as bob",
        "as alice",
        "/bg challenge bob 1",
        "as bob",
        "/bg accept",
        "/bg move 13/8 8/7",
        "/bg plays 13/",
        "/bg move 24/18 13/11",
        "as alice",
        "/bg games",
        "/bg roll",
        "/bg resign gammon",
        "as bob",
        "/bg accept",
        f"/bg export {(tmp_path / 'match.mat').as_posix()}",
        "/bg verify",
        "quit",
    ])  # fmt: skip
    out = run_script(tmp_path, script)
    assert "alice challenges bob to a 1-point match" in out
    assert "Opening roll: alice 2, bob 6 — bob moves first with 6-2." in out
    assert "Refused: 13/8 8/7 is not legal with 6-2: 13/8 is 5 pips, which the dice 6-2 do not give (RULES G4" in out
    assert "The legal plays are: " in out
    assert "7 of 14 legal plays: 24/18 13/11, 24/22 13/7, 13/11 13/7, 13/7 8/6, 13/5, 13/7 6/4, 13/11 8/2" in out
    assert "bob plays 24/18 13/11." in out
    assert " +13-14-15-16-17-18------19-20-21-22-23-24-+" in out and "Position ID:" in out
    assert "alice offers to resign a gammon." in out
    assert "bob wins game 1 (resignation): a gammon, 2 points." in out
    assert "Match #1 is over: bob won 1–0." in out
    assert "the dice were fair" in out
    assert "alice rolls 3-2 (auto-roll: no cube decision)." in out, "a 1-point match has a dead cube (RULES M4)"
    assert "Refused: You cannot roll now: you already rolled: play 3-2." in out
    images = sorted((tmp_path / "images" / "console").glob("*.png"))  # one folder per database (its file stem)
    assert len(images) == 4 and all(path.read_bytes().startswith(PNG_MAGIC) for path in images)
    assert out.count("Board image:") == 4, "one image per turn: accept, bob's play, alice's offer, the result"
    report = replay(parse_mat((tmp_path / "match.mat").read_text(encoding="utf-8")))
    assert report.ok and report.winner == 1 and report.games[0].result.kind == "gammon"


async def test_console_plays_a_whole_money_session(tmp_path):
    """Driving :meth:`Console.handle` directly: a money session (doubles, takes, drops, beavers as the random player
    chooses) played to the end of a game and then stopped, every refusal changing nothing."""
    rng = random.Random(3)
    async with Database.open(tmp_path / "c.sqlite3") as database:
        service = ClubService(database, clock=ManualClock(), seeds=seeded(3))
        console = Console(service, images=tmp_path / "images")
        assert "Say who you are first" in await console.handle("/bg roll")
        await console.handle("as Bob")
        await console.handle("as Alice")
        out = await console.handle("challenge Bob money money 2")
        assert "Alice challenges Bob to a money session" in out and "Stake: 2 per point" in out
        await console.handle("as bob")
        out = await console.handle("accept")
        names = {"alice": member_id("alice"), "bob": member_id("bob")}
        finished = False
        for _ in range(600):
            view = await service.state(1)
            if view.game_number > 1 or view.status != "active":
                finished = True
                break
            who = "alice" if view.waiting_for == names["alice"] else "bob"
            await console.handle(f"as {who}")
            if view.pending == "play":
                plays = await service.legal_plays(1, view.waiting_for)
                out = await console.handle(f"move {rng.choice(plays)}")
            elif view.pending in ("roll", "roll_or_double"):
                out = await console.handle("double" if "double" in view.legal and rng.random() < 0.05 else "roll")
            elif view.pending.startswith("answer_") and view.pending != "answer_resignation":
                choice = rng.choice([a for a in ("take", "drop", "beaver") if a in view.legal])
                out = await console.handle(choice)
            assert not out.startswith("Refused"), out
        assert finished
        view = await service.state(1)
        await console.handle("as alice" if view.waiting_for == names["alice"] else "as bob")
        out = await console.handle("stop")
        assert "end the session" in out
        assert "Money session" in await console.handle("rules 1")
        images = list((tmp_path / "images").glob("*.png"))
        assert len(images) > 10


async def test_console_commands_and_refusals(tmp_path):
    """Help, unknown commands, bad arguments, notify and config answer in words and change nothing wrongly."""
    async with Database.open(tmp_path / "c.sqlite3") as database:
        service = ClubService(database, clock=ManualClock())
        console = Console(service, images=None)
        assert "challenge NAME" in await console.handle("help")
        await console.handle("as carol")
        assert console.prompt == "carol> "
        assert "Unknown command 'fly'" in await console.handle("/bg fly")
        assert "You have no game in progress" in await console.handle("roll")
        assert "Refused:" in await console.handle("challenge carol 3")  # not yourself
        assert "not a length" in await console.handle("challenge dave sideways")
        assert "notify on or notify off" in await console.handle("notify maybe")
        assert "Direct messages when it is your turn: on" in await console.handle("notify on")
        assert (await service.preferences(member_id("carol"))).notify
        assert "move_time = 7200" in await console.handle("config move_time 7200")
        assert "Refused:" in await console.handle("config move_time 5")
        assert (await service.club_settings(1)).move_time == 7200
        for name in ("dave", "erin", "carol"):
            await console.handle(f"as {name}")
        await console.handle("challenge dave 3")
        await console.handle("challenge erin 3")
        out = await console.handle("withdraw")
        assert (
            "You have 2 games: say which one, e.g. withdraw 2." in out and "#1 vs dave" in out and "#2 vs erin" in out
        )
        assert "withdraws the challenge" in await console.handle("withdraw 2")
        assert "resign single, gammon or backgammon" in await console.handle("resign often 1")


def readme_console_lines() -> list[str]:
    """The lines of the README's console example (the ```text block of "## A five-minute tour in the console")."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## A five-minute tour", 1)[1].split("\n## ", 1)[0]
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


async def test_readme_console_example_runs_when_pasted(tmp_path):
    """Every line of the README's console example, trailing comments (with apostrophes) included, is read and
    accepted: no refusal, no unreadable line; ``#2`` stays a game number, not a comment."""
    from bot import reproducible
    from console import strip_comment

    assert strip_comment("/bg challenge bob 5   # or: don't") == "/bg challenge bob 5"
    assert strip_comment("withdraw #2") == "withdraw #2" and strip_comment("# all of it") == ""
    assert strip_comment("config money_rules 'a # b'  # note") == "config money_rules 'a # b'"
    lines = readme_console_lines()
    assert any(" # " in line for line in lines), "the example shows trailing comments"
    async with Database.open(tmp_path / "c.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock(), **reproducible("demo")))  # --seed demo
        for line in lines:
            reply = await console.handle(line + "   # and it's commented")
            assert "Refused" not in reply and "Cannot read" not in reply and "Unknown" not in reply, (line, reply)
        view = await console.service.state(1)
        assert view.status == "active" and view.length == 5 and view.pending == "roll_or_double", "bob played"


async def test_console_speaks_console(tmp_path, monkeypatch):
    """Texts name the console's syntax: which game (``withdraw 2``, ``move … game=2``), how to start one, the exact
    ``python -m club verify PATH``; ``export`` without a file writes into the current directory; a mistyped game
    number is refused and then forgotten."""
    monkeypatch.chdir(tmp_path)
    async with Database.open(tmp_path / "c.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock(), seeds=seeded(2)))
        for name in ("bob", "carol", "alice"):
            await console.handle(f"as {name}")
        assert "Start one with: challenge NAME" in await console.handle("roll")
        await console.handle("challenge bob 1")
        await console.handle("challenge carol 1")
        assert "say which one, e.g. withdraw 2." in await console.handle("withdraw")
        assert "No game is waiting for you to act" in await console.handle("move 13/7 8/7")
        assert "no match or session 9" in await console.handle("board 9")
        assert "say which one, e.g. board 2." in await console.handle("board")
        await console.handle("as bob")
        await console.handle("accept")
        out = await console.handle("resign backgammon 1")
        await console.handle("as alice")
        out = await console.handle("accept 1")
        assert f"(in the project folder: python -m club verify {(tmp_path / 'c.sqlite3').resolve()})" in out
        out = await console.handle("export 1")
        written = list(tmp_path.glob("*.mat"))
        assert len(written) == 1 and f"Wrote {written[0].resolve()}" in out


def test_console_ctrl_c_and_eof_say_bye(tmp_path):
    """Ctrl-C at the prompt (a terminal) and EOF both end the console with Bye. and exit 0, no traceback."""
    import os
    import pty
    import signal

    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "bot.py"), "--console", "--db", str(tmp_path / "c.sqlite3")],
        stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    os.close(slave)
    seen = ""
    while not seen.endswith("> "):  # the prompt: the console waits for a line
        chunk = os.read(process.stdout.fileno(), 4096).decode()
        assert chunk, "the console ended before its prompt"
        seen += chunk
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    os.close(master)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert out.rstrip().endswith("Bye.")
    eof = run_script(tmp_path, "as alice")
    assert eof.rstrip().endswith("Bye.")


def test_seed_mode_never_reuses_a_stored_seed(tmp_path):
    """``--seed``: a console restarted on the same database deals each new game fresh dice (RULES A1); a fresh
    database replays the same games."""
    import re

    commitments = []
    for opponent in ("bob", "carol", "dave"):
        out = run_script(tmp_path, f"as {opponent}\nas alice\nchallenge {opponent} 1\nas {opponent}\naccept\n")
        commitments += re.findall(r"Dice commitment \(SHA-256 of the server seed\): ([0-9a-f]{64})", out)
    assert len(commitments) == 3 and len(set(commitments)) == 3
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    out = run_script(fresh, "as bob\nas alice\nchallenge bob 1\nas bob\naccept\n")
    assert commitments[0] in out


def test_a_restarted_console_goes_on_from_the_time_the_last_session_reached(tmp_path):
    """A console session that let time pass (``wait 2d``: a reminder, nothing logged) and ended; the console
    started again on the same database starts its clock where that session left it, not at the wall clock: the
    clock shows the time left as the first session left it (24 h of 72, not 72 again), and what the second
    session logs comes after everything the first one logged (the log in time order)."""
    import sqlite3

    first = run_script(tmp_path, "as bob\nas alice\nchallenge bob 3\nas bob\naccept\nwait 2d\ngames\n")
    match_line = "• #1 vs alice · 3-point match 0–0 · "
    assert "24.0 hours left" in first and line_of(first, match_line).endswith(" · 24.0 h left"), first
    second = run_script(tmp_path, "as bob\ngames\nchallenge alice 1\n", seed="again")
    assert line_of(second, match_line).endswith(" · 24.0 h left"), second
    conn = sqlite3.connect(tmp_path / "console.sqlite3")
    try:
        times = [at for (at,) in conn.execute("SELECT at FROM actions ORDER BY id")]
        (started,) = conn.execute("SELECT at FROM actions WHERE match_id = 1 AND seq = 1").fetchone()
        (challenged,) = conn.execute("SELECT at FROM actions WHERE match_id = 2 AND seq = 1").fetchone()
    finally:
        conn.close()
    assert times == sorted(times), times
    assert challenged >= started + 48 * 3600, (started, challenged)
