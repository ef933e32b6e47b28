"""Members verify the dice without trusting the bot: the standalone ``tools/verify_dice.py``
(standard library only) recomputes 100 % of the rolls of a finished match, a money session and a chouette from
their published values alone — a ``.mat`` export, the text of ``/bg verify`` — run as a subprocess, no database."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from club import frontend
from club.dice import RECIPE_V3, RECIPE_V3_TEXT
from club.export import export_mat
from club.proof import chouette_lines
from tests.clubkit import ALICE, BOB, GUILD, club_service, new_table, play_out, seeded

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "verify_dice.py"


def _run(*files) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", str(TOOL), *map(str, files)], capture_output=True, text=True,
                          cwd=files[0].parent if files else None, timeout=60)  # fmt: skip


def _reproduced(out: str) -> tuple[int, int]:
    pairs = [tuple(map(int, m)) for m in re.findall(r"(\d+) of (\d+) rolls reproduced", out)]
    return sum(a for a, _ in pairs), sum(b for _, b in pairs)


def test_the_verifier_uses_the_standard_library_only():
    """At module level the standard library only; the BLS pairing library is imported only to check a beacon
    round (tests/test_dice_beacon.py)."""
    imports = re.findall(r"^(?:from|import) (\w+)", TOOL.read_text(), re.M)
    assert set(imports) <= {"__future__", "hashlib", "hmac", "re", "sys"}
    nested = re.findall(r"^[ \t]+(?:from|import) (\w+)", TOOL.read_text(), re.M)
    assert nested == ["py_arkworks_bls12381"]
    assert len(TOOL.read_text().splitlines()) < 220


async def test_a_finished_match_and_a_money_session_from_their_mat_exports(tmp_path):
    async with club_service(tmp_path / "c.sqlite3") as service:
        for member in (ALICE, BOB):  # standing phrases: luck in every game
            await service.set_preferences(member, seed=f"luck of {member}")
        outcome = await new_table(service, 3)
        await play_out(service, outcome, random.Random(3))
        match_id = outcome.match_id
        money = await new_table(service, 0)
        money = await play_out(service, money, random.Random(4), stop=lambda o: o.view.game_number >= 3)
        await service.stop(money.match_id, money.view.players[0])  # the session ends with this game
        money = await play_out(service, money, random.Random(4))
        assert money.view.status == "over"
        files, logged = [], []
        for mid in (match_id, money.match_id):
            name, text = await export_mat(service, mid)
            assert f"recipe={RECIPE_V3}" in text and "clients=side" in text
            (tmp_path / name).write_text(text)
            files.append(tmp_path / name)
            logged.append(sum(1 for a in await service.log(mid) if a.dice is not None))
    for file, rolls in zip(files, logged, strict=True):
        result = _run(file)  # a subprocess: the published values alone, no database, no bot code
        assert result.returncode == 0, result.stdout + result.stderr
        assert _reproduced(result.stdout) == (rolls, rolls) and rolls > 20, result.stdout
        assert "(bgclub-hmac-sha256-v3, side0 " in result.stdout and "secret" not in result.stdout
        print(f"{file.name}: {rolls} of {rolls} rolls reproduced")


async def test_a_changed_roll_or_seed_in_the_file_is_caught(tmp_path):
    async with club_service(tmp_path / "c.sqlite3") as service:
        outcome = await new_table(service, 1)
        await play_out(service, outcome, random.Random(5))
        name, text = await export_mat(service, outcome.match_id)
    line = next(line for line in text.splitlines() if line.startswith("; [DiceGame1 "))
    rolls = re.search(r"rolls=(\S+)\"", line).group(1).split(",")
    counter, digits = rolls[3].split(":")
    swapped = f"{counter}:{(int(digits[0]) % 6) + 1}{digits[1]}"
    forged = text.replace(line, line.replace(f",{rolls[3]},", f",{swapped},"))
    (tmp_path / "forged.mat").write_text(forged)
    result = _run(tmp_path / "forged.mat")
    assert result.returncode == 1 and f"roll {counter}: listed" in result.stdout
    seed = re.search(r"seed=([0-9a-f]+)", line).group(1)
    other = text.replace(seed, seed[:-1] + ("0" if seed[-1] != "0" else "1"))
    (tmp_path / "seed.mat").write_text(other)
    assert "not the commitment" in _run(tmp_path / "seed.mat").stdout


async def test_bg_verify_states_the_recipe_and_every_value_and_its_text_verifies(tmp_path):
    """The /bg verify text of a finished game (a short one: a long game's rolls are in /bg export) verifies."""
    async with club_service(tmp_path / "c.sqlite3", seeds=seeded(9)) as service:
        challenge = await service.challenge(GUILD, ALICE, BOB, length=1)
        service.clock.advance(3)
        await service.set_preferences(BOB, seed="bob's phrase, set after the commitment")
        outcome = await service.accept(challenge.match_id, BOB)
        await play_out(service, outcome, random.Random(6))
        proof = await frontend.dice_proof(service, outcome.match_id, 1)
        names = (await service.state(outcome.match_id)).names
    assert RECIPE_V3_TEXT[:60] in proof.text and "tools/verify_dice.py" in proof.text
    # each player's luck names him and his side, says whether it protects him, its text in typographic quotes
    seeds = re.findall(r"^Luck of (\S+) \(side ([01])\), set (after|before) the commitment[^“]*“([^”]+)”$", proof.text,
                       re.M)  # fmt: skip
    assert [(who, int(side), when) for who, side, when, _ in seeds] == [(names[1], 1, "after")]
    assert f"{names[0]} (side 0) added no luck after the commitment: not protected" in proof.text
    assert "No beacon" in proof.text
    (tmp_path / "verify.txt").write_text(proof.text if "DiceGame1" in proof.text else proof.published)
    assert "DiceGame1" in proof.published  # /bg verify attaches it as a file
    result = _run(tmp_path / "verify.txt")
    assert result.returncode == 0, result.stdout
    done, total = _reproduced(result.stdout)
    assert done == total > 5


async def test_a_chouette_from_its_published_values(tmp_path):
    """A chouette played to its close (two games; everyone leaves during the second): every series — the seat
    throws' and both games' — is revealed and the verifier reproduces 100 % of the logged rolls and throws."""
    from tests.chouette_clubkit import ANN, BOB, CY, DI, ED, chouettes, decide_randomly, seated

    async with chouettes(tmp_path / "ch.sqlite3") as service:
        outcome = await seated(service)
        rng, left = random.Random(8), False
        for _ in range(5000):
            if outcome.view.status == "closed" or not outcome.view.decisions:
                break
            if outcome.view.game_number >= 2 and not left:
                for member in (ANN, BOB, CY, DI, ED):  # each leaves when the game ends (RULES C2)
                    outcome = await service.leave(outcome.session_id, member)
                left = True
                continue
            outcome = await decide_randomly(service, outcome, rng, double=0.1)
        assert outcome.view.status == "closed"
        text = "\n".join(await chouette_lines(service, outcome.session_id))
        logged = sum(len(a.dice) if a.kind in ("seat", "rethrow") else 1
                     for a in await service.store.actions(outcome.session_id) if a.dice is not None)  # fmt: skip
    (tmp_path / "chouette.txt").write_text(text)
    result = _run(tmp_path / "chouette.txt")
    assert result.returncode == 0 and "secret" not in result.stdout, result.stdout
    assert all(f"Series{n}: ok" in result.stdout for n in (0, 1, 2)), result.stdout
    assert "Series1: ok" in result.stdout and "(bgclub-hmac-sha256-v3, m101 added no luck after the commitment;" in (
        result.stdout
    )  # v3: nothing a member did not choose himself counts as his luck
    assert _reproduced(result.stdout) == (logged, logged) and logged > 30
    print(f"chouette: {logged} of {logged} rolls and throws reproduced")


async def test_bg_chouette_verify_publishes_a_file_the_verifier_reproduces(tmp_path):
    """``/bg chouette verify`` (through the Discord harness) attaches the published lines; after a finished game
    they verify 100 %."""
    from club import ManualClock
    from club.chouette import ChouetteOutcome
    from tests.chouette_clubkit import decide_randomly
    from tests.discordkit import Harness

    async with Harness.start(tmp_path / "b.sqlite3", clock=ManualClock(), reviews=False) as h:
        ann, bob, cy = h.member("Ann"), h.member("Bob"), h.member("Cy")
        room = h.channel("night")
        await h.command(ann, "bg chouette start", room)
        for member in (bob, cy):
            await h.command(member, "bg chouette join", room)
        await h.command(cy, "bg chouette seat", room)
        sid = await h.bot.chouettes.session_in(room)
        rng = random.Random(2)
        outcome = ChouetteOutcome(await h.bot.chouettes.state(sid), "")
        for _ in range(3000):
            if outcome.view.game_number >= 2 or not outcome.view.decisions:
                break
            outcome = await decide_randomly(h.bot.chouettes, outcome, rng)
        answer = await h.command(ann, "bg chouette verify", room)
    files = answer.messages[-1].files
    assert answer.private and RECIPE_V3 in answer.text and len(files) == 1
    assert "Dice of game 1: " in answer.text and "Ann: added no luck after the commitment" in answer.text
    (tmp_path / "dice.txt").write_bytes(next(iter(files.values())))
    result = _run(tmp_path / "dice.txt")
    assert "Series1: ok" in result.stdout and "PROBLEMS" not in result.stdout, result.stdout
    done, total = _reproduced(result.stdout)
    assert done == total > 10


def test_the_dice_proof_command_gives_the_output_it_shows():
    """docs/dice.md "Checking them yourself": the published file's command and output, as written there."""
    page = (ROOT / "docs" / "dice.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n\$ (python tools/verify_dice\.py [^\n]+)\n(.*?)```", page, re.S)
    assert block, "docs/dice.md lacks the dice-proof command block"
    command, shown = block.group(1).split(), block.group(2)
    assert command[:2] == ["python", "tools/verify_dice.py"] and (ROOT / command[2]).is_file()
    run = subprocess.run([sys.executable, "-I", *command[1:]], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0 and run.stdout == shown, run.stderr
    assert "ok" in shown and "side0 protected by their own luck" in shown


async def test_the_published_dice_proof_is_what_the_generator_writes():
    """``examples/dice-proof.mat`` is deterministic: the generator writes it again byte for byte."""
    from examples import generate

    assert await generate.dice_proof() == (ROOT / "examples" / "dice-proof.mat").read_text(encoding="utf-8")
