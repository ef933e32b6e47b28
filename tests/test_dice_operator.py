"""A test that plays the operator (RULES A1, :data:`club.dice.RECIPE_V3`): it knows every server seed it commits to,
grinds seeds, reports whatever per-click values it likes and refuses clicks until the dice suit its side (side 0).
Over 300 games per setting, simulated at the dice layer (the recipe itself, no Discord), the openings won by side 0
stay within the binomial 99 % bounds (a) when side 1 added luck of his own after the commitment and (b) when the
beacon is on; and the same operator wins far more when neither holds, so the test can fail."""

from __future__ import annotations

import hashlib
import math
import random

from club.dice import RECIPE_V2, RECIPE_V3, derive

GAMES = 300
CANDIDATES = 2000


def bounds(n: int, p: float = 0.5, level: float = 0.99) -> tuple[int, int]:
    """The smallest and largest counts of a binomial(n, p) outside which lies at most (1 - level) / 2 on each side."""
    tail = (1 - level) / 2
    pmf = [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
    low = next(k for k in range(n + 1) if sum(pmf[: k + 1]) > tail)
    high = next(k for k in range(n, -1, -1) if sum(pmf[k:]) > tail)
    return low, high


LOW, HIGH = bounds(GAMES)


def opener(recipe: str, seed: bytes, clients, beacon: str | None = None) -> int:
    """Who wins the opening roll (RULES G2: roll 0, 1, … until the two dice differ; side 0's die first)."""
    counter = 0
    while True:
        d0, d1 = derive(recipe, seed, counter, clients, 2, beacon)
        if d0 != d1:
            return 0 if d0 > d1 else 1
        counter += 1


def operator_seed(rng: random.Random, recipe: str, guess) -> bytes:
    """The seed the operator commits to: the first of its candidates that gives side 0 the opening against
    ``guess`` (what it expects the client seeds to be), else the last one."""
    for _ in range(CANDIDATES):
        seed = rng.randbytes(32)
        if opener(recipe, seed, guess) == 0:
            return seed
    return seed


def test_the_bounds_are_the_binomial_ones():
    assert (LOW, HIGH) == (128, 172)  # 150 ± 2.58 σ (σ = 8.66)


def test_without_luck_after_the_commitment_or_a_beacon_the_operator_wins_the_openings():
    """Neither protection: the seed is the operator's choice among 2,000 (no luck of side 1 after the
    commitment, his standing phrase known in advance), or the v2 recipe's per-click values (the interaction ids
    only the bot sees) are the operator's choice — side 0 wins nearly every opening."""
    rng = random.Random(23)
    phrase = [(0, "side 1's phrase, set last month")]
    chosen = sum(opener(RECIPE_V3, operator_seed(rng, RECIPE_V3, phrase), phrase) == 0 for _ in range(GAMES))
    assert chosen > HIGH + 100, chosen
    reported = 0
    for _ in range(GAMES):
        seed = rng.randbytes(32)  # an honest seed; the operator picks the best of 2,000 ids of side 1's click
        ids = [str(rng.getrandbits(63)) for _ in range(CANDIDATES)]
        best = next((i for i in ids if opener(RECIPE_V2, seed, [(0, i)]) == 0), ids[-1])
        reported += opener(RECIPE_V2, seed, [(0, best)]) == 0
    assert reported > HIGH + 100, reported


def test_luck_added_after_the_commitment_keeps_the_operator_within_the_bounds():
    """(a) The operator grinds its seed against a guess, then side 1 types his luck. In v3 nothing per click enters
    the dice: refusing the click that makes the first roll 20 times and waiting for the next gives the same
    dice, and no id it could report is in the recipe. With v2's per-click value the same refusals win."""
    rng = random.Random(24)
    won = refusing_v2 = 0
    for _ in range(GAMES):
        seed = operator_seed(rng, RECIPE_V3, [(0, "a guess")])
        luck = [(0, rng.choice(["lucky sevens", "gammon!", "🎲"]) + str(rng.getrandbits(40)))]  # after the commitment
        for _click in range(20):  # refuse each click whose dice do not suit side 0 …
            side = opener(RECIPE_V3, seed, luck)  # … in v3 the next click makes the same dice
            if side == 0:
                break
        won += side == 0
        for _click in range(20):  # the same refusals against v2, where each click adds its id
            side = opener(RECIPE_V2, seed, [*luck, (0, str(rng.getrandbits(63)))])
            if side == 0:
                break
        refusing_v2 += side == 0
    assert LOW <= won <= HIGH, won
    assert refusing_v2 > HIGH + 100, refusing_v2


def test_with_the_beacon_the_operator_stays_within_the_bounds_even_choosing_every_other_value():
    """(b) Beacon on, no luck of side 1 at all: the operator chooses the seed and side 0's luck among 2,000 each,
    knowing everything but the randomness of the round due, which is published after all of it is fixed."""
    rng = random.Random(25)
    won = 0
    for _ in range(GAMES):
        guess = hashlib.sha256(b"a guess of the round").hexdigest()
        seed = operator_seed(rng, RECIPE_V3, [])
        luck = next(
            (
                [(0, text)]
                for text in (str(n) for n in range(CANDIDATES))
                if opener(RECIPE_V3, seed, [(0, text)], guess) == 0
            ),
            [],
        )
        round_randomness = hashlib.sha256(rng.randbytes(48)).hexdigest()  # SHA-256 of a signature nobody had yet
        won += opener(RECIPE_V3, seed, luck, round_randomness) == 0
    assert LOW <= won <= HIGH, won
