"""Every commitment published is opened when its table ends, whatever the ending (RULES A1): a declined, withdrawn
or lapsed challenge; a match won before its last game (by play, by a dropped double, by a resignation); a stopped
money session; a claimed match; a match forfeited at the deadline; a closed chouette. The seed committed ahead is
revealed in an ``unused_seed`` action, the proof lists it with ``status=unused``, ``tools/verify_dice.py`` checks it
and ``python -m club verify`` finds no commitment left unopened."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from club.commitments import UNUSED_SEED
from club.correspondence import Correspondence
from club.dice import seed_hash
from club.export import export_mat
from club.proof import chouette_lines, match_lines
from club.settings import HOUR
from club.verify import verify_chouette, verify_match
from tests.clubkit import ALICE, BOB, GUILD, club_service, new_table, play_out, seeded

TOOL = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"


def _published(log) -> set[str]:
    return {a.args["next_seed_hash"] for a in log if a.args.get("next_seed_hash")}


async def _opened(service, match_id: int, tmp_path: Path) -> str:
    """Check that every commitment of ended table ``match_id`` is opened; returns the verifier's output."""
    log = await service.log(match_id)
    games = {g.seed_hash: g for g in await service.db.games(match_id)}
    unused = [a for a in log if a.kind == UNUSED_SEED]
    assert len(unused) <= 1 and all(seed_hash(bytes.fromhex(a.args["seed"])) == a.args["seed_hash"] for a in unused)
    for commitment in _published(log):
        assert (commitment in games and games[commitment].seed_revealed) or commitment in {
            a.args["seed_hash"] for a in unused
        }, f"commitment {commitment} left unopened"
    report = await verify_match(service.db, match_id)
    assert report.ok, report.problems
    state = (await service.db.get_match(match_id)).state
    assert (state.get("dice") or {}).get("ahead") is None, "the seed ahead is no longer kept secret"
    lines = "\n".join(await match_lines(service, match_id))
    if unused:
        assert f"DiceGame{unused[0].args['game']}" in lines and "status=unused" in lines
    file = tmp_path / f"m{match_id}.txt"
    file.write_text(lines)
    result = subprocess.run([sys.executable, str(TOOL), str(file)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("ending", ["decline", "cancel", "lapse"])
async def test_a_challenge_that_never_starts_opens_game_1s_commitment(tmp_path, ending):
    async with club_service(tmp_path / "c.sqlite3", seeds=seeded(1)) as service:
        challenge = await service.challenge(GUILD, ALICE, BOB, length=5)
        if ending == "decline":
            await service.decline(challenge.match_id, BOB)
        elif ending == "cancel":
            await service.cancel(challenge.match_id, ALICE)
        else:
            version = (await service.db.get_match(challenge.match_id)).version
            await service.expire(challenge.match_id, None, "lapse", version=version)
        out = await _opened(service, challenge.match_id, tmp_path)
        assert "DiceGame1: unused — its seed is revealed and hashes to its commitment" in out, out


@pytest.mark.parametrize(("ending", "options"), [("play", {}), ("drop", {"cube": 0.5}), ("resign", {"resign": 0.3})])
async def test_a_match_won_before_its_last_game_opens_the_next_games_commitment(tmp_path, ending, options):
    async with club_service(tmp_path / "c.sqlite3", seeds=seeded(2)) as service:
        outcome = await new_table(service, 3)
        final = await play_out(service, outcome, random.Random(5), **options)
        assert final.view.status == "over"
        log = await service.log(outcome.match_id)
        assert any(a.kind == UNUSED_SEED for a in log), "the match ended with a game committed ahead"
        await _opened(service, outcome.match_id, tmp_path)
        name, text = await export_mat(service, outcome.match_id)
        assert "status=unused" in text


async def test_a_stopped_money_session_opens_the_next_games_commitment(tmp_path):
    async with club_service(tmp_path / "c.sqlite3", seeds=seeded(3)) as service:
        outcome = await new_table(service, 0)
        await service.stop(outcome.match_id, ALICE)
        final = await play_out(service, outcome, random.Random(6))
        assert final.view.status == "over"
        out = await _opened(service, outcome.match_id, tmp_path)
        assert "DiceGame2: unused" in out, out


@pytest.mark.parametrize("ending", ["claim", "forfeit"])
async def test_a_claimed_or_forfeited_match_opens_the_next_games_commitment(tmp_path, ending):
    async with club_service(tmp_path / "c.sqlite3", seeds=seeded(4)) as service:
        policy = "claim" if ending == "claim" else "forfeit_match"
        await service.configure_club(GUILD, move_time=10 * HOUR, reminders=[], expiry_policy=policy)
        outcome = await new_table(service, 7)
        late = outcome.view.waiting_for
        service.clock.advance(11 * HOUR)
        from club.scheduler import run_due

        notices = await run_due(service)
        if ending == "claim":
            waiting = BOB if late == ALICE else ALICE
            await Correspondence(service).claim(outcome.match_id, waiting, "claim_match", version=notices[0].version)
        assert (await service.state(outcome.match_id)).status == "over"
        out = await _opened(service, outcome.match_id, tmp_path)
        assert "DiceGame2: unused" in out, out


async def test_a_closed_chouette_opens_the_next_games_commitment(tmp_path):
    from tests.chouette_clubkit import ANN, BOB, CY, DI, ED, chouettes, decide_randomly, seated

    async with chouettes(tmp_path / "ch.sqlite3") as service:
        outcome = await seated(service)
        rng = random.Random(8)
        for member in (ANN, BOB, CY, DI, ED):  # each leaves when game 1 ends (RULES C2)
            outcome = await service.leave(outcome.session_id, member)
        for _ in range(3000):
            if outcome.view.status == "closed" or not outcome.view.decisions:
                break
            outcome = await decide_randomly(service, outcome, rng)
        assert outcome.view.status == "closed"
        actions = await service.store.actions(outcome.session_id)
        unused = [a for a in actions if a.kind == UNUSED_SEED]
        assert len(unused) == 1 and unused[0].args["game"] == 2
        report = await verify_chouette(service.club.db, outcome.session_id)
        assert report.ok, report.problems
        text = "\n".join(await chouette_lines(service, outcome.session_id))
    file = tmp_path / "chouette.txt"
    file.write_text(text)
    result = subprocess.run([sys.executable, str(TOOL), str(file)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "Series2: unused" in result.stdout, result.stdout
