"""Provably fair dice (RULES A1): secret server seeds from :mod:`secrets`, rolls derived by HMAC-SHA256.

How a game's dice are made and how anyone can check them:

1. When a game starts the server draws a 32-byte seed with ``secrets.token_bytes`` and shows its commitment,
   ``SHA-256(seed)`` in hex (:func:`seed_hash`). The seed itself stays secret while the game is played.
2. Roll number ``n`` of the game (``n`` = 0, 1, 2, … in order, opening rolls included) is derived by
   :func:`derive_dice`: for ``block`` = 0, 1, 2, … compute ``HMAC-SHA256(key=seed, msg=ASCII("{n}:{block}"))`` and
   read its 32 bytes in order; a byte ``b < 252`` gives the die ``b % 6 + 1``, a byte ``b >= 252`` is skipped
   (rejection sampling: 252 = 42 × 6, so each face has exactly 42 of the accepted byte values and the dice are
   unbiased). The first two accepted bytes are the roll. An opening roll is one such roll: its first die is side
   0's, its second side 1's (RULES G2).
3. When the game ends the seed is revealed. :func:`verify_rolls` (and ``python -m club verify``) checks that the
   seed hashes to the commitment and recomputes every logged roll from it.

Because the seed is fixed before the first roll and committed to in public, the server cannot pick dice during the
game; because it is secret until the end, nobody can predict the next roll.

Tests and replays may inject dice instead (:class:`InjectedDice`); such games are marked ``'injected'`` and have no
seed to prove.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SEED_BYTES = 32
RECIPE = "bgclub-hmac-sha256-v1"
"""The name of the recipe below, published with every game's dice (``tools/verify_dice.py`` knows it by name)."""

RECIPE_TEXT = (
    "roll n (n = 0, 1, 2 … in order, opening rolls and ties included) of a game with server seed S: for block = 0, "
    '1, 2 … take the 32 bytes of HMAC-SHA256(key = S, message = ASCII "n:block") in order, skip every byte ≥ 252, '
    "and each other byte b gives the die b mod 6 + 1; the first two dice are the roll (an opening roll: side 0's die, "
    "then side 1's). The commitment is SHA-256(S) in hex."
)
"""The exact recipe in words (shown by ``/bg verify``)."""
_ACCEPT_BELOW = 252  # 42 * 6: bytes 252..255 are rejected so each face has exactly 42 byte values


def new_seed() -> bytes:
    """A fresh secret server seed: 32 bytes from :func:`secrets.token_bytes`."""
    return secrets.token_bytes(SEED_BYTES)


def seed_hash(seed: bytes) -> str:
    """The public commitment to ``seed``: its SHA-256 as 64 lowercase hex digits."""
    return hashlib.sha256(seed).hexdigest()


def derive_dice(seed: bytes, counter: int, count: int = 2) -> tuple[int, ...]:
    """The ``count`` dice (each 1–6) of roll number ``counter`` (≥ 0) of the game with server seed ``seed``.

    See the module docstring for the exact recipe (HMAC-SHA256 of ``"{counter}:{block}"``, bytes ≥ 252 rejected).
    Raises ``ValueError`` for a negative counter, an empty seed or ``count`` < 1.
    """
    if not isinstance(counter, int) or isinstance(counter, bool) or counter < 0:
        raise ValueError(f"the roll counter is a whole number ≥ 0, not {counter!r}")
    if not seed:
        raise ValueError("the server seed is empty")
    if count < 1:
        raise ValueError(f"count is the number of dice, at least 1; got {count!r}")
    dice: list[int] = []
    block = 0
    while True:
        digest = hmac.new(seed, f"{counter}:{block}".encode("ascii"), hashlib.sha256).digest()
        for byte in digest:
            if byte < _ACCEPT_BELOW:
                dice.append(byte % 6 + 1)
                if len(dice) == count:
                    return tuple(dice)
        block += 1


@dataclass(frozen=True, slots=True)
class RollCheck:
    """The check of one logged roll: ``index`` (the counter), the ``logged`` dice and the ``derived`` ones."""

    index: int
    logged: tuple[int, ...]
    derived: tuple[int, ...]

    @property
    def ok(self) -> bool:
        """Whether the logged dice are the derived ones."""
        return self.logged == self.derived


def verify_rolls(seed_hex: str, commitment: str, rolls: Iterable[tuple[int, Sequence[int]]]) -> list[str]:
    """Check a finished game's dice: ``seed_hex`` (the revealed seed) must hash to ``commitment`` and every logged
    roll ``(counter, dice)`` must be :func:`derive_dice` of the seed and its counter; the counters must run 0, 1, 2 …
    without gaps or repeats. Returns the problems found, in words (empty list = the dice are proven fair)."""
    problems: list[str] = []
    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        return [f"the revealed seed {seed_hex!r} is not hex"]
    if seed_hash(seed) != commitment:
        problems.append(f"SHA-256 of the revealed seed is {seed_hash(seed)}, not the commitment {commitment}")
    expected_index = 0
    for index, dice in rolls:
        logged = tuple(dice)
        if index != expected_index:
            problems.append(f"roll counter {index} where {expected_index} was due (a roll missing or repeated)")
        derived = derive_dice(seed, index, len(logged))
        if derived != logged:
            problems.append(f"roll {index}: logged {logged}, but the seed gives {derived}")
        expected_index = index + 1
    return problems


class InjectedDice:
    """Dice given from outside, for tests and replays: a callable ``(match_id, game_number, counter) -> (d1, d2)``.

    ``rolls`` is consumed in order across all games (each roll is two dice 1–6; an opening roll is (side 0's die,
    side 1's die)); :meth:`add` appends more. When the queue is empty, ``fallback`` (a seed) derives the dice so a
    test can script only the rolls it cares about; without a fallback an empty queue raises ``LookupError``.
    """

    def __init__(self, rolls: Iterable[Sequence[int]] = (), *, fallback: bytes | None = None) -> None:
        self._queue: list[tuple[int, int]] = []
        self._fallback = fallback
        self.add(*rolls)

    def add(self, *rolls: Sequence[int]) -> None:
        """Queue more rolls (pairs of dice 1–6). Raises ``ValueError`` for a die out of range."""
        for roll in rolls:
            d1, d2 = (int(die) for die in roll)
            if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                raise ValueError(f"injected dice {roll!r} must be two numbers 1–6")
            self._queue.append((d1, d2))

    @property
    def pending(self) -> int:
        """How many queued rolls are left."""
        return len(self._queue)

    def __call__(self, match_id: int, game_number: int, counter: int) -> tuple[int, int]:
        """The next roll for roll ``counter`` of game ``game_number`` of match ``match_id``."""
        if self._queue:
            return self._queue.pop(0)
        if self._fallback is None:
            raise LookupError("no injected dice left")
        return derive_dice(self._fallback + f"{match_id}:{game_number}".encode(), counter)  # type: ignore[return-value]
