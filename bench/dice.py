"""Are the dice fair? A chi-square test of the club's dice recipe (RULES A1): by default the recipe games use now,
:data:`club.dice.RECIPE_V2` (:func:`club.dice.derive_dice_v2`: each game has two client seeds, the
second counting from roll 2 as a late first action does), or ``--recipe v1`` (:func:`club.dice.derive_dice`).

Rolls ``--rolls`` (default 1,000,000) rolls — ``--games`` seeds of ``rolls / games`` rolls each, counters 0, 1, 2 …
as in a game — and prints two goodness-of-fit tests with their p-values:

1. each die face 1–6 (2 dice per roll; expected 1/6 each; 5 degrees of freedom);
2. each of the 21 rolls (a double 1/36, any other roll 2/36; 20 degrees of freedom).

Target: neither p-value below 0.001 (a fair recipe fails that by chance once in a thousand runs). Run
``python -m bench.dice [--rolls N] [--games G] [--seed TEXT]``; with ``--seed`` the server seeds are
SHA-256(seed:game) and the client seeds ``seed:game:0`` / ``seed:game:1`` (reproducible), else fresh
:func:`club.dice.new_seed` seeds and :func:`club.dice.new_contribution` client seeds.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
import time
from collections import Counter

from club.dice import RECIPE, RECIPE_V2, derive, new_contribution, new_seed

TARGET_P = 0.001


def chi_square_p(statistic: float, dof: int) -> float:
    """P(X ≥ ``statistic``) for X chi-square with ``dof`` degrees of freedom: the regularized upper incomplete gamma
    Q(dof/2, statistic/2), by its series below a + 1 and its continued fraction above (Numerical Recipes 6.2)."""
    a, x = dof / 2.0, statistic / 2.0
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = x + 1 - a  # Lentz's continued fraction for Q
    c, d = 1e300, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi_square(observed: Counter, expected: dict) -> tuple[float, int]:
    """(statistic, degrees of freedom) of ``observed`` counts against ``expected`` counts."""
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items()), len(expected) - 1


def main(argv: list[str] | None = None) -> int:
    """Roll, test, print; exit status 1 if a p-value is under the target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", default=None, help="reproducible server and client seeds")
    parser.add_argument("--recipe", choices=("v1", "v2"), default="v2", help="the dice recipe (default v2)")
    args = parser.parse_args(argv)
    per_game = max(1, args.rolls // args.games)
    recipe = RECIPE_V2 if args.recipe == "v2" else RECIPE
    faces, rolls = Counter(), Counter()
    started = time.perf_counter()
    total = 0
    for game in range(args.games):
        seed = new_seed() if args.seed is None else hashlib.sha256(f"{args.seed}:{game}".encode()).digest()
        clients = [(0, new_contribution()), (2, new_contribution())]
        if args.seed is not None:
            clients = [(0, f"{args.seed}:{game}:0"), (2, f"{args.seed}:{game}:1")]
        for counter in range(per_game):
            d1, d2 = derive(recipe, seed, counter, clients)
            faces[d1] += 1
            faces[d2] += 1
            rolls[(max(d1, d2), min(d1, d2))] += 1
            total += 1
    seconds = time.perf_counter() - started
    face_stat, face_dof = chi_square(faces, {f: 2 * total / 6 for f in range(1, 7)})
    expected_rolls = {(h, low): total * (1 if h == low else 2) / 36 for h in range(1, 7) for low in range(1, h + 1)}
    roll_stat, roll_dof = chi_square(rolls, expected_rolls)
    face_p, roll_p = chi_square_p(face_stat, face_dof), chi_square_p(roll_stat, roll_dof)
    print(f"recipe {recipe}: {total:,} rolls ({args.games:,} seeds × {per_game} rolls) in {seconds:.1f} s "
          f"({total / seconds:,.0f} rolls/s)")  # fmt: skip
    print(
        "faces:  " + "  ".join(f"{f}: {faces[f] / (2 * total):.5f}" for f in range(1, 7)) + f"  (expected {1 / 6:.5f})"
    )
    print(f"faces:  chi-square {face_stat:.2f} with {face_dof} dof, p = {face_p:.4f}")
    doubles = sum(rolls[(f, f)] for f in range(1, 7)) / total
    print(f"rolls:  doubles {doubles:.5f} (expected {1 / 6:.5f}); chi-square {roll_stat:.2f} with {roll_dof} dof, "
          f"p = {roll_p:.4f}")  # fmt: skip
    ok = face_p >= TARGET_P and roll_p >= TARGET_P
    print(f"target: both p ≥ {TARGET_P} — {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
