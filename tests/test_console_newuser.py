"""The console as a new user and a club organiser meet it from the README (a fresh clone, by hand): each test pins
a message that must be right, clear and consistent with the documents."""

from __future__ import annotations

from console import Console, member_id
from tests.consolekit import console_in

NAMES = ("alice", "bob", "cy", "di")


async def seated_chouette(console: Console) -> str:
    """alice opens a chouette at 1 a point, bob, cy and di join, the seat roll is thrown; the seat's reply."""
    await console.handle("chouette start stake=1")
    for name in NAMES[1:]:
        await console.handle(f"as {name}")
        await console.handle("chouette join")
    return await console.handle("chouette seat")


async def play_until(console: Console, stop) -> str:
    """Play the chouette on (first legal play, Box rolls, the Team passes) until ``stop(view)``; the last reply."""
    names = {member_id(n): n for n in NAMES}
    out = ""
    for _ in range(300):
        view = await console.chouettes.state(1)
        if stop(view):
            return out
        decision = view.decisions[0]
        await console.handle(f"as {names[decision.actor]}")
        if decision.pending == "play":
            plays = await console.chouettes.legal_plays(1, decision.actor)
            out = await console.handle(f"move {plays[0]}")
        elif decision.pending == "double":
            out = await console.handle("no-double")
        elif decision.pending == "answer":
            out = await console.handle("take")
        else:
            out = await console.handle("roll")
        assert not out.startswith("Refused"), out
    raise AssertionError("the chouette never reached the state asked for")


async def test_chouette_text_board_names_box_and_captain(tmp_path):
    """The chouette's text board names each side by its seat and member (``X: Box bob``, ``O: Captain cy``), as a
    match's says ``O: alice`` — never ``O: O`` and ``X: X``."""
    async with console_in(tmp_path) as console:
        out = await seated_chouette(console)
        view = await console.chouettes.state(1)
        box, captain = view.name(view.box), view.name(view.captain)
        assert "O: O" not in out and "X: X" not in out, out
        on_roll = f"Box {box}" if view.board.turn == 0 else f"Captain {captain}"
        off_roll = f"Captain {captain}" if view.board.turn == 0 else f"Box {box}"
        assert f"X: {on_roll}" in out and f"O: {off_roll}" in out, out


async def test_an_action_when_nothing_waits_names_the_games_not_none(tmp_path):
    """Box typing ``no-double`` while the Team's window is open, and a member whose one match waits for his
    opponent, are told that no game waits for them, with their games listed — not "You have no game in progress"
    (Box sits in the chouette) nor to add a game number, which could not help."""
    async with console_in(tmp_path) as console:
        await seated_chouette(console)
        view = await play_until(console, lambda v: v.decisions and v.decisions[0].pending == "double")
        view = await console.chouettes.state(1)
        await console.handle(f"as {view.name(view.box)}")
        out = await console.handle("no-double")
        assert out.startswith("Refused: No game is waiting for you to act"), out
        assert "no game in progress" not in out and "chouette=1" in out, out
        await console.handle("as erin")
        await console.handle("challenge finn 3")
        out = await console.handle("move 13/8 13/11")
        assert out.startswith("Refused: No game is waiting for you to act: it waits for someone else."), out
        assert "game=1" not in out and "#1 vs finn" in out, out


async def test_stop_twice_says_the_session_already_ends(tmp_path):
    """After ``stop`` the board says the session ends after this game and ``stop`` is not offered again; a second
    ``stop`` (by either player) says it was already asked — not a matter of turn ("you must play 3-2") — and
    nothing is stored."""
    async with console_in(tmp_path) as console:
        await console.handle("challenge bob money money 5")
        await console.handle("as bob")
        await console.handle("accept")
        out = await console.handle("stop")
        assert "bob asks to end the session" in out and "(bob asked)" in out, out
        assert not any(line.endswith(", stop") for line in out.splitlines() if "can:" in line), out
        version = (await console.service.state(1)).version
        again = await console.handle("stop")
        assert again == "Refused: You already asked to end the session: it ends when this game ends.", again
        await console.handle("as alice")
        other = await console.handle("stop 1")
        assert other == "Refused: bob already asked to end the session: it ends when this game ends.", other
        assert (await console.service.state(1)).version == version


def test_chouette_panel_shows_a_centred_cube_at_its_value(monkeypatch):
    """The chouette panel under the board shows each Team member's cube at its value, as the text panel does
    (``cube 1 centred``), so a centred cube never reads as a cube at 64; the board's own centred cube shows 64, the
    board's custom (RULES D1)."""
    import rendering.words as words
    from backgammon import Position
    from rendering import render_board
    from rendering.view import BoardView, ChouetteMember, ChouettePanel

    faces: list[str] = []
    real = words.cube_sprite

    def recording(theme, size, label):
        faces.append(label)
        return real(theme, size, label)

    monkeypatch.setattr(words, "cube_sprite", recording)  # the panel's cubes (the board's own cube is drawn apart)
    panel = ChouettePanel("Carmen", ChouetteMember("Oleg", 2, "taken"), (ChouetteMember("Priya", 1, "centred"),))
    render_board(BoardView(Position.initial(), chouette=panel))
    assert faces == ["2", "1"], faces  # Oleg's 2 taken, Priya's 1 centred


async def test_an_offered_cube_shows_the_value_offered(tmp_path):
    """When Box doubles every cube the text panel shows each cube at the value proposed, as the board image does
    (``cube 2 offered``, a beaver ``cube 4 beavered``), not the value before the double (RULES C5, D1, D3)."""
    async with console_in(tmp_path) as console:
        await seated_chouette(console)
        await play_until(
            console, lambda v: v.decisions and v.decisions[0].subject == v.box and "double" in v.decisions[0].actions
        )
        view = await console.chouettes.state(1)
        out = await console.handle(f"as {view.name(view.box)}")
        assert "you must roll or double" in out, out  # Box may double, so not just "roll"
        out = await console.handle("double all")
        assert "cube 1 offered" not in out and f"Captain {view.name(view.captain)} — cube 2 offered" in out, out
        await console.handle(f"as {view.name(view.captain)}")
        out = await console.handle("beaver")
        assert f"Captain {view.name(view.captain)} — cube 4 beavered" in out, out


def test_the_best_play_of_a_hint_loses_nothing_not_minus_nothing():
    """``hint``'s table showed the best play's loss as ``-0.000`` (a negated 0.0)."""
    from backgammon import Position
    from club.analysis.hints import hint_text

    result = {"plays": [("24/18 13/11", 0.014, 0.0), ("24/16", 0.003, 0.011)]}
    lines = hint_text(Position.initial(), (6, 2), result).lines
    assert lines[2].endswith("+0.014  +0.000") and lines[3].endswith("+0.003  -0.011"), lines
    assert "-0.000" not in "\n".join(lines)


def test_chouette_rules_name_the_rule_set_once():
    """``chouette start`` names the rule set once: the game rules' summary does not repeat the preset's name
    ("Rules: chouette-atlanta, atlanta family, chouette-atlanta, …" would)."""
    from backgammon.chouette.rules import CHOUETTE_PRESETS

    for name, rules in CHOUETTE_PRESETS.items():
        assert rules.describe().count(name) == 1, rules.describe()
    assert CHOUETTE_PRESETS["chouette-atlanta"].describe().startswith("chouette-atlanta, atlanta family, Jacoby")


async def test_the_dice_phrase_answer_has_no_internal_words(tmp_path):
    """``seed myphrase`` is answered in plain words: no issue-tracker number, the phrase in typographic quotes (not
    as a Python repr)."""
    async with console_in(tmp_path) as console:
        out = await console.handle("seed bob's lucky phrase")
        assert "issue" not in out and "“bob's lucky phrase”" in out, out


async def test_wait_ends_with_what_is_left_now(tmp_path):
    """``wait`` ends with who must act and the time left at the end of the wait — not the time left when the club
    last acted during it (after ``wait 2d``, "72.0 h" would be 36 hours out of date)."""
    async with console_in(tmp_path) as console:
        await console.handle("config move_hours 24 reminders 4 expiry forfeit_game")
        await console.handle("challenge bob 7")
        await console.handle("as bob")
        await console.handle("accept")
        out = await console.handle("wait 30h")
        assert "wins game 1 (forfeit)" in out, out
        now = out.split("— now, after 30 h:\n", 1)[1]
        view = await console.service.state(1)
        name = view.names[view.side_of(view.waiting_for)]
        assert now == f"Match #1: {name} must {view.pending_text} within 18.0 h.", now
        assert "Nothing else happened" in await console.handle("wait 1h")  # nothing fired: no "now" lines


def test_club_verify_counts_chouettes_as_chouettes(tmp_path, capsys):
    """``python -m club verify`` counts a chouette as a chouette, in the right number — not "1 matches checked"."""
    import asyncio

    from club.__main__ import main as club_main

    async def build():
        async with console_in(tmp_path) as console:
            await seated_chouette(console)
            await play_until(console, lambda view: view.game_number >= 2)

    asyncio.run(build())
    assert club_main(["verify", str(tmp_path / "club.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert "chouette 1: ok — " in out and ", 1 game, " in out and "1 chouette checked, 0 with problems" in out, out


def test_config_example_has_every_club_default_and_the_true_ranges():
    """``config.example.toml`` (the file the README says to copy) has every club default (``away_days`` and
    ``nudge_hours`` too), every expiry policy (``claim`` too) and the true ranges (the board width starts at 390)."""
    import dataclasses
    import tomllib

    from club.settings import EXPIRY_POLICIES, ClubSettings
    from rendering.layout import MIN_WIDTH
    from tests.casekit import ROOT

    text = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    defaults = tomllib.loads(text)["club"]["defaults"]
    assert {field.name for field in dataclasses.fields(ClubSettings)} <= set(defaults), sorted(defaults)
    assert ClubSettings(**defaults) == ClubSettings()  # the example is the defaults
    policy_line = next(line for line in text.splitlines() if line.startswith("expiry_policy"))
    assert all(f'"{policy}"' in policy_line for policy in EXPIRY_POLICIES), policy_line
    assert f"{MIN_WIDTH}–2000" in text


async def test_a_chouettes_dice_proof_and_rules_from_the_console(tmp_path):
    """``chouette verify`` (and ``verify chouette=1``: the help says [game] may be chouette=N) writes the chouette's
    dice proof file, which ``tools/verify_dice.py`` checks, and ``rules chouette=1`` gives the chouette's rules — the
    console's ``/bg chouette verify``."""
    import subprocess
    import sys

    from tests.casekit import ROOT

    async with console_in(tmp_path) as console:
        await seated_chouette(console)
        await play_until(console, lambda view: view.game_number >= 2)
        proof = tmp_path / "proof.txt"
        out = await console.handle(f"verify chouette=1 {proof}")
        assert out.startswith("Chouette #1 dice.") and out.endswith(f"Wrote {proof}."), out
        assert "Rules: " not in out and "chouette-atlanta, atlanta family" in await console.handle("rules chouette=1")
        assert "Chouettes: 1 game, " in await console.handle("stats alice")  # in the right number
    checked = subprocess.run([sys.executable, str(ROOT / "tools" / "verify_dice.py"), str(proof)],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert checked.returncode == 0 and ": ok — " in checked.stdout, checked.stdout + checked.stderr


def test_verify_dice_reads_a_missing_file_and_help_without_a_traceback(tmp_path):
    """``python tools/verify_dice.py --help`` prints the usage (exit 0) and a mistyped file name is one line (exit 1),
    never a traceback, while the other files are still checked."""
    import subprocess
    import sys

    from tests.casekit import ROOT

    tool = [sys.executable, str(ROOT / "tools" / "verify_dice.py")]
    helped = subprocess.run([*tool, "--help"], capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: python tools/verify_dice.py FILE")
    assert "Traceback" not in helped.stderr and "``" not in helped.stdout
    empty = tmp_path / "empty.txt"
    empty.write_text("no dice lines here\n", encoding="utf-8")
    missing = subprocess.run([*tool, str(tmp_path / "nope.mat"), str(empty)], capture_output=True, text=True,
                             timeout=60)  # fmt: skip
    assert missing.returncode == 1 and "Traceback" not in missing.stderr, missing.stderr
    assert f"== {tmp_path / 'nope.mat'}: cannot read it (No such file or directory)" in missing.stdout
    assert f"== {empty}" in missing.stdout, missing.stdout


def test_a_hint_for_a_bad_position_or_dice_says_it_once():
    """``hint xyz`` says once that a Position ID has 14 characters, and ``hint ID 7`` says once why ``7`` is not
    dice — each explanation given once, not repeated within the same message."""
    import pytest

    from club.analysis.hints import parse_request
    from club.errors import InvalidRequestError

    with pytest.raises(InvalidRequestError) as bad_position:
        parse_request("xyz", None)
    text = str(bad_position.value)
    assert text.count("14 characters") == 1 and "is not a Position ID" in text and "gnubg" in text, text
    with pytest.raises(InvalidRequestError) as bad_dice:
        parse_request("4HPwATDgc/ABMA", "7")
    text = str(bad_dice.value)
    assert text.count("'7'") == 1 and "e.g. '31' or '6-4'" in text, text


async def test_ping_without_games_says_there_is_nobody_to_ping(tmp_path):
    """``ping`` with no game says there is nobody to ping (not "Pinged 0 game(s).")."""
    async with console_in(tmp_path) as console:
        assert await console.handle("ping hello") == "You have no game in progress: there is nobody to ping."
        await console.handle("challenge bob 3")
        await console.handle("as bob")
        await console.handle("accept")
        assert (await console.handle("ping hello")).startswith("Pinged 1 game.")


async def test_as_without_a_name_is_a_refusal(tmp_path):
    """``as`` alone is a refusal like every other: it starts with "Refused:" and says ``as NAME, e.g. as alice``."""
    async with console_in(tmp_path) as console:
        assert await console.handle("as") == "Refused: as NAME: say who you are, e.g. as alice"
        assert console.name == "alice"  # still alice
