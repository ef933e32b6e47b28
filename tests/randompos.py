"""Random legal positions for oracle and property tests (contact, bar, bear-off, races)."""

from __future__ import annotations

import random

from backgammon.errors import InvalidPositionError
from backgammon.position import Position


def random_position(rng: random.Random, kind: str | None = None) -> Position:
    """A random valid position; ``kind`` is "contact", "bar", "bearoff", "race" or None (any)."""
    kind = kind or rng.choice(["contact", "contact", "bar", "bearoff", "race"])
    while True:
        board = {}
        player = [0] * 25
        opponent = [0] * 25
        if kind == "bearoff":
            for _ in range(rng.randint(1, 15)):
                player[rng.randint(0, 5)] += 1
            for _ in range(rng.randint(1, 15)):
                opponent[rng.randint(0, 23)] += 1
        elif kind == "race":
            split = rng.randint(4, 20)
            for _ in range(rng.randint(1, 15)):
                player[rng.randint(0, split - 1)] += 1
            for _ in range(rng.randint(1, 15)):
                opponent[rng.randint(0, 23 - split)] += 1
        else:
            for _ in range(rng.randint(8, 15)):
                player[rng.randint(0, 23)] += 1
            for _ in range(rng.randint(8, 15)):
                opponent[rng.randint(0, 23)] += 1
            if kind == "bar":
                player[24] = rng.randint(1, 3)
                opponent[24] = rng.randint(0, 2)
        # resolve clashes: a point goes to whoever has more there
        for p in range(1, 25):
            mine, theirs = player[p - 1], opponent[24 - p]
            if mine and theirs:
                if rng.random() < 0.5:
                    player[p - 1] = 0
                else:
                    opponent[24 - p] = 0
        if sum(player) <= 15 and sum(opponent) <= 15 and sum(player) and sum(opponent):
            del board
            try:
                return Position(tuple(player), tuple(opponent))
            except InvalidPositionError:  # both on the bar against closed boards (gnubg CheckPosition, BG27)
                continue
