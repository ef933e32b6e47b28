"""The public randomness beacon (RULES A1, :mod:`club.beacon`): the round due for a game, the BLS check of a drand
round — a real quicknet round against the League of Entropy's public key, and a fake relay on 127.0.0.1 signing with
a test key through the same code — and every way a round is refused."""

from __future__ import annotations

import pytest

from club.beacon import QUICKNET, Beacon, BeaconError, ForgedRoundError, check_answer, snowflake_ms
from tests.beaconkit import TEST_CHAIN, FakeBeacon, answer

# A real quicknet round as published with its signature (the drand-verify package's documentation on PyPI:
# verify_quicknet(657413, "b71371…") -> "fc1873…").
REAL_ROUND = 657413
REAL_SIGNATURE = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
REAL_RANDOMNESS = "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"


def test_a_real_quicknet_round_verifies_against_the_league_of_entropys_key():
    assert QUICKNET.verify(REAL_ROUND, REAL_SIGNATURE) == REAL_RANDOMNESS
    with pytest.raises(ForgedRoundError, match="not the network's signature of that round"):
        QUICKNET.verify(REAL_ROUND + 1, REAL_SIGNATURE)  # the same signature claimed for the next round
    with pytest.raises(ForgedRoundError, match="not the network's signature"):
        TEST_CHAIN.verify(REAL_ROUND, REAL_SIGNATURE)  # another key
    with pytest.raises(ForgedRoundError, match="not a BLS point"):
        QUICKNET.verify(REAL_ROUND, "00" * 48)


def test_the_round_due_is_the_first_one_at_least_30_seconds_after_the_message():
    # quicknet round r is published at genesis + 3 (r - 1)
    assert QUICKNET.time_of(1) == QUICKNET.genesis and QUICKNET.time_of(REAL_ROUND) == 1692803367 + 3 * 657412
    start_ms = QUICKNET.time_of(1000) * 1000 - 30_000  # exactly 30 s before round 1000
    assert QUICKNET.round_due(start_ms) == 1000
    assert QUICKNET.round_due(start_ms + 1) == 1001  # one millisecond later: round 1000 is less than 30 s after it
    for offset in range(0, 9000, 250):
        due = QUICKNET.round_due(start_ms + offset)
        assert QUICKNET.time_of(due) * 1000 >= start_ms + offset + 30_000 > QUICKNET.time_of(due - 1) * 1000
    # Discord writes the time into the snowflake: 2015-01-01 UTC + (id >> 22) ms
    assert snowflake_ms(175928847299117063) == 1462015105796


async def test_the_fake_relay_signs_with_the_test_key_and_the_same_code_checks_it():
    beacon = FakeBeacon()
    url = await beacon.start()
    try:
        relay = Beacon(TEST_CHAIN, (url,), retries=2, pause=0, now=lambda: 4e9)
        got = await relay.fetch(1234)
        assert (got.chain, got.number, got.signature) == ("test", 1234, answer(1234)["signature"])
        assert got.randomness == TEST_CHAIN.verify(1234, got.signature) == answer(1234)["randomness"]
        assert got.field() == f"test:1234:{got.signature}"
    finally:
        await beacon.stop()


@pytest.mark.parametrize(
    ("forge", "refusal"),
    [
        ("value", "randomness given is not SHA-256 of the signature"),
        ("signature", "not the network's signature of that round"),
        ("round", "answered round 1233 where round 1234 was asked"),
    ],
)
async def test_a_forged_value_signature_or_past_round_is_refused_at_once(forge, refusal):
    beacon = FakeBeacon()
    url = await beacon.start()
    try:
        beacon.forge = forge
        relay = Beacon(TEST_CHAIN, (url,), retries=3, pause=0, now=lambda: 4e9)
        with pytest.raises(ForgedRoundError, match=refusal):
            await relay.fetch(1234)
        assert beacon.asked == [1234]  # a forged answer is refused, not retried until it suits
    finally:
        await beacon.stop()


async def test_an_unreachable_beacon_is_retried_then_refused_clearly():
    beacon = FakeBeacon()
    url = await beacon.start()
    slept: list[float] = []

    async def sleep(seconds):
        slept.append(seconds)

    try:
        beacon.down = True
        relay = Beacon(TEST_CHAIN, (url,), retries=3, pause=0.5, now=lambda: 4e9, sleep=sleep)
        with pytest.raises(BeaconError, match=r"round 1234 of test could not be fetched \(3 tries; last: .*HTTP 503"):
            await relay.fetch(1234)
        assert beacon.asked == [1234] * 3 and slept == [0.5, 0.5]
    finally:
        await beacon.stop()
    relay = Beacon(TEST_CHAIN, (url,), retries=2, pause=0, now=lambda: 4e9)  # nobody listens there now
    with pytest.raises(BeaconError, match="could not be fetched .*the dice are not rolled without it"):
        await relay.fetch(1234)


async def test_the_bot_waits_for_the_round_to_be_published():
    beacon = FakeBeacon()
    url = await beacon.start()
    slept: list[float] = []

    async def sleep(seconds):
        slept.append(seconds)

    try:
        now = TEST_CHAIN.time_of(500) - 31.5
        relay = Beacon(TEST_CHAIN, (url,), pause=0, now=lambda: now, sleep=sleep)
        assert (await relay.fetch(500)).number == 500 and slept == [31.5]
    finally:
        await beacon.stop()


def test_an_answer_that_is_not_a_round_is_refused():
    with pytest.raises(ValueError, match="not a drand round"):
        check_answer(TEST_CHAIN, 5, {"round": 5})
    with pytest.raises(ValueError, match="not a drand round"):
        check_answer(TEST_CHAIN, 5, ["round", 5])
