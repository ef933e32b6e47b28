"""Games rolled with the beacon on (``[dice] beacon``, RULES A1, :mod:`club.beacon`): the round due — the first one
30 s or more after the game's start — is named when the game starts, fetched from a fake relay on 127.0.0.1 that signs
with a test key, verified, logged, and in every roll; ``tools/verify_dice.py`` checks it offline. A forged value, a
forged signature, a past round and an unreachable beacon are each refused: nothing is rolled or stored, and the next
action tries again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from club import beacon as beacons
from club.beacon import Beacon
from club.commitments import BEACON
from club.dice import RECIPE_V3, verify_rolls
from club.proof import match_lines
from club.verify import beacon_problem
from tests.beaconkit import TEST_CHAIN, FakeBeacon
from tests.clubkit import ALICE, BOB, GUILD, club_service, seeded, snapshot

TOOL = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"
CHAIN_OPTION = f"test={TEST_CHAIN.public_key}:{TEST_CHAIN.genesis}:{TEST_CHAIN.period}"


@pytest.fixture
async def relay():
    beacon = FakeBeacon()
    await beacon.start()
    yield beacon
    await beacon.stop()


def _service(path, relay, **options):
    beacon = Beacon(TEST_CHAIN, (relay.url,), retries=2, pause=0, now=lambda: 4e9)  # every round already published
    return club_service(path, seeds=seeded(7), beacon=beacon, **options)


def _tool(file: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), "--chain", CHAIN_OPTION, *options, str(file)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


async def test_each_game_uses_the_round_due_after_its_start_and_the_verifier_checks_it(tmp_path, relay, monkeypatch):
    async with _service(tmp_path / "c.sqlite3", relay) as service:
        challenge = await service.challenge(GUILD, ALICE, BOB, length=1)
        service.clock.advance(12)
        started_ms = round(service.clock.now() * 1000)
        accepted = await service.accept(challenge.match_id, BOB)
        assert accepted.view.game_number == 1 and accepted.view.waiting_for is not None, "the opening was rolled"
        due = TEST_CHAIN.round_due(started_ms)
        assert f"Game 1's dice use drand test round {due}" in accepted.message  # named on the opening board
        log = await service.log(challenge.match_id)
        new_game = next(a for a in log if a.kind == "new_game")
        due = TEST_CHAIN.round_due(started_ms)
        assert new_game.args["recipe"] == RECIPE_V3 and new_game.args["beacon"]["round"] == due  # named at the start
        assert TEST_CHAIN.time_of(due) * 1000 >= started_ms + 30_000 > TEST_CHAIN.time_of(due - 1) * 1000
        (logged,) = [a for a in log if a.kind == BEACON]
        assert relay.asked == [due] and logged.seq < min(a.seq for a in log if a.dice is not None)
        assert logged.args["randomness"] == TEST_CHAIN.verify(due, logged.args["signature"])
        monkeypatch.setitem(beacons.CHAINS, "test", TEST_CHAIN)
        assert beacon_problem(logged.args) is None
        assert "not the one due" in beacon_problem({**logged.args, "round": due - 1})
        # play the 1-point match out: the rolls are the recipe's with the round's randomness in
        import random

        from tests.clubkit import play_out

        final = await play_out(service, accepted, random.Random(2))
        assert final.view.status == "over"
        log = await service.log(challenge.match_id)
        game = (await service.db.games(challenge.match_id))[0]
        rolls = [(a.roll_index, a.dice) for a in log if a.dice is not None]
        kwargs = {"recipe": RECIPE_V3, "contributions": []}
        assert verify_rolls(game.seed, game.seed_hash, rolls, beacon=logged.args["randomness"], **kwargs) == []
        assert verify_rolls(game.seed, game.seed_hash, rolls, **kwargs) != [], "the round is in every roll"
        text = "\n".join(await match_lines(service, challenge.match_id))
    assert f"beacon=test:{due}:{logged.args['signature']} start={started_ms}" in text
    file = tmp_path / "proof.txt"
    file.write_text(text)
    result = _tool(file)
    assert result.returncode == 0 and f"beacon test round {due} verified" in result.stdout, result.stdout
    for forged, refusal in [
        (text.replace(f"test:{due}:", f"test:{due - 1}:"), f"round {due - 1} is not the one due"),  # a past round
        (text.replace(f"start={started_ms}", f"start={started_ms - 60_000}"), "is not the one due"),
        (text.replace(logged.args["signature"][8:20], "0" * 12), "is not the test network's"),
    ]:
        file.write_text(forged)
        result = _tool(file)
        assert result.returncode == 1 and refusal in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("trouble", "refusal"),
    [
        ("value", "randomness given is not SHA-256 of the signature"),
        ("signature", "not the network's signature of that round"),
        ("round", "where round"),  # the relay answers a past round
        ("down", "could not be fetched"),
    ],
)
async def test_a_bad_or_missing_round_is_refused_nothing_rolled_and_the_next_action_tries_again(
    tmp_path, relay, trouble, refusal
):
    path = tmp_path / "c.sqlite3"
    async with _service(path, relay) as service:
        challenge = await service.challenge(GUILD, ALICE, BOB, length=3)
        if trouble == "down":
            relay.down = True
        else:
            relay.forge = trouble
        accepted = await service.accept(challenge.match_id, BOB)
        assert "The dice of this game are not rolled" in accepted.message and refusal in accepted.message
        log = await service.log(challenge.match_id)
        assert not any(a.kind == BEACON or a.dice is not None for a in log), "nothing rolled, no round stored"
        assert accepted.view.waiting_for is None
        before = snapshot(path)
        again = await service.roll(challenge.match_id, ALICE)  # still refused: nothing changes
        assert "not rolled" in again.message and snapshot(path) == before
        relay.down, relay.forge = False, None
        rolled = await service.roll(challenge.match_id, ALICE)  # the next action fetches it and rolls the opening
        log = await service.log(challenge.match_id)
        assert [a.kind for a in log if a.kind == BEACON] == [BEACON] and rolled.view.waiting_for is not None
        assert any(a.kind == "opening_roll" for a in log)
