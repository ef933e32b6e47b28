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

That recipe (:data:`RECIPE`, ``bgclub-hmac-sha256-v1``) still lets the bot *choose* the seed it commits to. Games
started now use :data:`RECIPE_V2` (the standard server-seed / client-seed / nonce scheme): each
player adds a *client seed* fixed only after the commitment is public, and every roll depends on them all:

4. The commitment to a game's server seed is published before anything a player does could be reacted to: game 1's
   in the challenge, game n+1's when game n starts (:mod:`club.step`; a chouette's in the action before its series
   starts, :mod:`club.chouette.step`).
5. A player's contribution to a game is fixed at his first own action after that commitment: an unpredictable
   value of that action (the Discord interaction id; a fresh :mod:`secrets` value in the console: the
   ``contribution`` of the member's :class:`~club.requests.Request`), after the phrase he set (``/player seed``, console ``seed``) and ``" | "`` if he set one
   (:func:`club.commitments.contribution_text`). It is logged as a ``client_seed`` action
   ``{"game", "from_roll", "seed"}`` and counts from roll ``from_roll`` on (the next roll made).
6. Roll ``n`` (:func:`derive_dice_v2`): the contributions in force are the non-empty ones with ``from_roll <= n``,
   in the published order; for block = 0, 1, 2 … take ``HMAC-SHA256(key=S, msg=ASCII("{n}:{block}") + for each
   contribution in force ASCII(":" + hex(UTF-8 of its text)))`` and sample dice from its bytes exactly as in
   step 2. (With none in force this is the v1 roll: ``python bot.py --console --seed`` — reproducible dice for
   scripts, not play that matters — contributes empty client seeds, so its scripts replay the same games.)

v2 counts as protection a value the member never sees (the interaction id of his click): the bot could report any
id, or drop a click and wait for the next. Games started now use :data:`RECIPE_V3`, where only what a member can
check, or anyone can, enters the dice:

7. A member's *luck* is text of his own: typed in the modal of the challenge's or the board's "Add your luck"
   button, or his standing ``/player seed`` phrase. It is logged as a ``client_seed`` action ``{"game",
   "from_roll": 0, "seed", "set_at", "protected"}``; ``protected`` says whether the text was set after the game's
   commitment was published (``set_at`` > the time of the action that published it): only then could the bot not
   have chosen its seed against it. Nothing else (no interaction id) enters the dice.
8. A game's client seeds are fixed at its first roll: none is added once roll 0 is made (with the beacon, neither
   is its round), so whoever knows the server seed early knows nothing of the dice until the game starts.
9. With ``[dice] beacon`` on, the dice also use the randomness ``R`` (SHA-256 of the BLS signature) of one drand
   round (:mod:`club.beacon`): the first one published at least 30 s after the Discord timestamp of the message that
   started the game, named on its opening board (a chouette's seat throws: the message calling the seat roll). Roll ``n`` is step 6's with every client seed counting from roll 0
   and ``"|" + R`` at the end of each message. Nobody — the operator, a member, or both together — knew ``R`` when
   the seed, the luck and the round were fixed.

Old games keep their recipe: a game logged with v1 verifies with v1 (the log is never rewritten).

Tests and replays may inject dice instead (:class:`InjectedDice`); such games are marked ``'injected'`` and have no
seed to prove.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from enum import StrEnum


class DiceSource(StrEnum):
    """Where a game's dice come from (stored as its value in the ``games`` rows and the log): ``fair``, derived by
    a recipe below from a committed seed; ``injected``, given from outside (a test or a replay), with no proof."""

    FAIR = "fair"
    INJECTED = "injected"


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
RECIPE_V2 = "bgclub-hmac-sha256-v2"
"""The recipe with client seeds (module docstring, steps 4–6): what every game started now uses."""

RECIPE_V2_TEXT = (
    "roll n (0, 1, 2 … in order, opening rolls and ties included) with server seed S and client seeds c (in the "
    "order listed, each from its roll from_roll on): for block = 0, 1, 2 … HMAC-SHA256(key = S, message = ASCII "
    '"n:block" then ":" + hex(UTF-8 of c) for each non-empty c with from_roll ≤ n); skip bytes ≥ 252, each other '
    "byte b is the die b mod 6 + 1; the first two dice are the roll (opening: side 0's die, then side 1's). "
    "Commitment: SHA-256(S) in hex."
)
"""The v2 recipe in words (shown by ``/bg verify``)."""

RECIPE_V3 = "bgclub-hmac-sha256-v3"
"""The recipe of every game started now (module docstring, steps 7–9): the members' luck fixed at the game's first
roll, and (``[dice] beacon``) a drand round nobody knew when the game started."""

RECIPE_V3_TEXT = (
    "roll n (0, 1, 2 … in order, opening rolls and ties included) with server seed S, the members' luck c (in the "
    "order listed, all fixed before roll 0) and, with a beacon, the randomness R of its round (SHA-256 of the "
    'round\'s BLS signature, 64 hex digits): for block = 0, 1, 2 … HMAC-SHA256(key = S, message = ASCII "n:block" '
    'then ":" + hex(UTF-8 of c) for each non-empty c, then "|" + R if there is a beacon); skip bytes ≥ 252, each '
    "other byte b is the die b mod 6 + 1; the first two dice are the roll (opening: side 0's die, then side 1's). "
    "Commitment: SHA-256(S) in hex."
)
"""The v3 recipe in words (shown by ``/bg verify``)."""

RECIPES = {RECIPE: RECIPE_TEXT, RECIPE_V2: RECIPE_V2_TEXT, RECIPE_V3: RECIPE_V3_TEXT}
"""Every recipe a stored game may have been rolled with, by name, and its text."""

MAX_CONTRIBUTION = 160
"""The longest client seed (characters): a phrase of ``/player seed`` (≤ 100) and an action's value (≤ 40)."""

Contribution = tuple[int, str]
"""A client seed as the recipe uses it: ``(from_roll, text)``."""

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
    Raises ``ValueError`` for a negative counter, an empty seed or ``count`` < 1. (The recipe is
    :func:`derive_dice_v2`'s without client seeds: the same HMAC messages, the same sampling.)
    """
    return derive_dice_v2(seed, counter, (), count)


def _sample(digests: Iterable[bytes], count: int) -> tuple[int, ...]:
    dice: list[int] = []
    for digest in digests:
        for byte in digest:
            if byte < _ACCEPT_BELOW:
                dice.append(byte % 6 + 1)
                if len(dice) == count:
                    return tuple(dice)
    raise AssertionError("unreachable: the digests never end")


def derive_dice_v2(
    seed: bytes, counter: int, contributions: Sequence[Contribution] = (), count: int = 2, beacon: str | None = None
) -> tuple[int, ...]:
    """The ``count`` dice (each 1–6) of roll ``counter`` (≥ 0) by :data:`RECIPE_V2` (module docstring, step 6):
    server seed ``seed`` and the client seeds ``contributions`` ``[(from_roll, text), …]`` in their published order
    (those with ``from_roll > counter`` do not count yet, empty ones never); with ``beacon`` (a round's randomness,
    64 hex digits) by :data:`RECIPE_V3` (step 9). Raises ``ValueError`` like :func:`derive_dice`, and for a
    contribution that is not ``(whole number ≥ 0, text)`` or a beacon value that is not 64 hex digits."""
    if not isinstance(counter, int) or isinstance(counter, bool) or counter < 0:
        raise ValueError(f"the roll counter is a whole number ≥ 0, not {counter!r}")
    if not seed:
        raise ValueError("the server seed is empty")
    if count < 1:
        raise ValueError(f"count is the number of dice, at least 1; got {count!r}")
    tail = ""
    for item in contributions:
        start, text = item
        if isinstance(start, bool) or not isinstance(start, int) or start < 0 or not isinstance(text, str):
            raise ValueError(f"a client seed is (from_roll ≥ 0, text), not {item!r}")
        if start <= counter and text:
            tail += ":" + text.encode("utf-8").hex()
    if beacon is not None:
        if len(beacon) != 64 or not all(c in "0123456789abcdef" for c in beacon):
            raise ValueError(f"a beacon round's randomness is 64 lowercase hex digits, not {beacon!r:.80}")
        tail += "|" + beacon

    def digests():
        block = 0
        while True:
            yield hmac.new(seed, f"{counter}:{block}{tail}".encode("ascii"), hashlib.sha256).digest()
            block += 1

    return _sample(digests(), count)


def derive(
    recipe: str,
    seed: bytes,
    counter: int,
    contributions: Sequence[Contribution] = (),
    count: int = 2,
    beacon: str | None = None,
) -> tuple[int, ...]:
    """Roll ``counter`` of a game by its ``recipe`` (:data:`RECIPE`: client seeds ignored; :data:`RECIPE_V2`;
    :data:`RECIPE_V3`: every client seed from roll 0, and the ``beacon`` randomness if the game has one).
    Raises ``ValueError`` for an unknown recipe or bad values (a v3 client seed counting from a later roll)."""
    if recipe == RECIPE_V3:
        if any(start != 0 for start, _ in contributions):
            raise ValueError("every client seed of a v3 game is fixed before its first roll (from_roll 0)")
        return derive_dice_v2(seed, counter, contributions, count, beacon)
    if recipe == RECIPE_V2:
        return derive_dice_v2(seed, counter, contributions, count)
    if recipe == RECIPE:
        return derive_dice(seed, counter, count)
    raise ValueError(f"unknown dice recipe {recipe!r}: known are {', '.join(RECIPES)}")


def new_contribution() -> str:
    """A fresh unpredictable client seed (32 hex digits from :mod:`secrets`): the console's per-line value, and what
    a member's action contributes when no front end gave one."""
    return secrets.token_hex(16)


def verify_rolls(
    seed_hex: str | None,
    commitment: str | None,
    rolls: Iterable[tuple[int, Sequence[int]]],
    *,
    recipe: str = RECIPE,
    contributions: Sequence[Contribution] = (),
    beacon: str | None = None,
) -> list[str]:
    """Check a finished game's dice: ``seed_hex`` (the revealed seed) must hash to ``commitment`` and every logged
    roll ``(counter, dice)`` must be :func:`derive` of the ``recipe``, the seed, the client seeds ``contributions``,
    the ``beacon`` randomness (v3) and its counter; the counters must run 0, 1, 2 … without gaps or repeats. Returns the problems found, in words
    (empty list = the dice are proven fair; a seed or commitment missing (None) is a problem)."""
    if recipe not in RECIPES:
        return [f"unknown dice recipe {recipe!r}"]
    if seed_hex is None or commitment is None:
        return ["no seed was revealed" if seed_hex is None else "no commitment was published"]
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
        try:
            derived = derive(recipe, seed, index, contributions, len(logged), beacon)
        except ValueError as error:
            return [*problems, str(error)]
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
