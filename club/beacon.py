"""A public randomness beacon in the dice (RULES A1): one future round of a drand chain, which nobody — the bot's
operator included — can know before it is published, and which anyone can check.

drand (the League of Entropy's network) publishes a *round* every ``period`` seconds from ``genesis`` on: round
``r`` at ``genesis + (r - 1) × period`` (Unix seconds). Each round carries a BLS signature over the round number by
the network's threshold key; the round's randomness is ``SHA-256(signature)``. Nobody can make a valid signature for
a round without a threshold of the network's members, and the signature of a round is unique, so its randomness can
be neither predicted nor chosen.

The dice of a game use the round *due* for that game (:func:`round_due`): the first round published at least
:data:`LEAD_SECONDS` after the Discord timestamp of the message that starts the game (Discord writes the time into
every message id, a *snowflake*; the bot does not choose it). The round is named on the game's opening board, so a
member checks that it was named before it existed: its time (:meth:`Chain.time_of`) is after that message's time.

The signature is checked with py-arkworks-bls12381 (the Ethereum Foundation's bindings of the arkworks BLS12-381
library: about 8 ms per round here, where the pure-Python py_ecc takes 2 s): for quicknet's scheme
``bls-unchained-g1-rfc9380`` the signature is a G1 point, the message is ``SHA-256(round as 8 big-endian bytes)``
hashed to G1 (RFC 9380, :data:`DST_G1`), the public key a G2 point, and ``e(signature, g2) = e(H(message), key)``.
The same code is in ``tools/verify_dice.py`` (offline, the public keys written in it).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

LEAD_SECONDS = 30
"""The due round is the first one published at least this long after the message that starts the game."""

DST_G1 = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
"""The hash-to-curve domain of drand's ``bls-unchained-g1-rfc9380`` scheme (quicknet)."""

DISCORD_EPOCH_MS = 1420070400000
"""Discord snowflakes count milliseconds from 2015-01-01 UTC in their top 42 bits."""


class BeaconError(Exception):
    """A beacon round that cannot be used: unreachable, not published, or not what it claims (the message says
    which). Nothing is rolled and nothing is stored when it is raised."""


class ForgedRoundError(BeaconError):
    """A round that is not what it claims: another round than the one asked, a signature that does not verify, a
    randomness that is not SHA-256 of the signature. Never retried."""


@dataclass(frozen=True, slots=True)
class Chain:
    """A drand chain: ``name``, its ``hash`` (hex, the id in the HTTP API), ``public_key`` (hex of the compressed
    G2 point), ``period`` and ``genesis`` (seconds), and the ``urls`` of its HTTP API relays."""

    name: str
    hash: str
    public_key: str
    period: int
    genesis: int
    urls: tuple[str, ...] = ()

    def time_of(self, round_: int) -> int:
        """The Unix time (seconds) at which round ``round_`` (≥ 1) is published."""
        return self.genesis + (round_ - 1) * self.period

    def round_due(self, start_ms: int) -> int:
        """The first round published at least :data:`LEAD_SECONDS` after ``start_ms`` (Unix milliseconds)."""
        wait = start_ms + LEAD_SECONDS * 1000 - self.genesis * 1000
        return max(1, math.ceil(wait / (self.period * 1000)) + 1)

    def verify(self, round_: int, signature_hex: str) -> str:
        """The randomness (64 hex digits, SHA-256 of the signature) of round ``round_`` after checking its BLS
        signature against this chain's public key. Raises :class:`BeaconError` for a signature that is not hex, not
        a point, or not the network's signature of that round (:class:`ForgedRoundError`)."""
        return verify_round(self.public_key, round_, signature_hex)


QUICKNET = Chain(
    "quicknet",
    "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc"
    "22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
    3,
    1692803367,
    ("https://api.drand.sh", "https://api2.drand.sh", "https://api3.drand.sh", "https://drand.cloudflare.com"),
)
"""The League of Entropy's quicknet: a round every 3 s, unchained BLS signatures on G1 (RFC 9380)."""

CHAINS = {QUICKNET.name: QUICKNET}
"""The chains the bot knows by name (``[dice] beacon = "quicknet"``)."""


def snowflake_ms(snowflake: int) -> int:
    """The Unix time in milliseconds that Discord wrote into ``snowflake`` (a message or interaction id)."""
    return (int(snowflake) >> 22) + DISCORD_EPOCH_MS


def start_ms_of(value: str | None, now: float) -> int:
    """When the message that starts a game was sent (Unix ms): the Discord timestamp in ``value`` (the request's
    interaction id, a snowflake: Discord writes it, not the bot), else ``now`` (Unix s: the console, the club's own
    step)."""
    if value is not None and value.isdigit() and int(value) >> 22 > 0:
        return snowflake_ms(int(value))
    return round(now * 1000)


def verify_round(public_key_hex: str, round_: int, signature_hex: str) -> str:
    """The randomness (hex SHA-256 of the signature) of round ``round_`` signed with ``signature_hex`` under
    ``public_key_hex`` (scheme ``bls-unchained-g1-rfc9380``). Raises :class:`ForgedRoundError` when it does not
    verify."""
    from py_arkworks_bls12381 import GT, G1Point, G2Point  # only a table with the beacon needs it

    try:
        signature = bytes.fromhex(signature_hex)
        point = G1Point.from_compressed_bytes(signature)
        key = G2Point.from_compressed_bytes(bytes.fromhex(public_key_hex))
    except Exception as error:  # the bindings raise their own exception types
        raise ForgedRoundError(f"round {round_}: the signature {signature_hex[:16]!r}… is not a BLS point") from error
    message = hashlib.sha256(int(round_).to_bytes(8, "big")).digest()
    if not GT.pairing_check([point, -G1Point.hash_to_curve(message, DST_G1)], [G2Point(), key]):
        raise ForgedRoundError(f"round {round_}: the signature is not the network's signature of that round")
    return hashlib.sha256(signature).hexdigest()


@dataclass(frozen=True, slots=True)
class Round:
    """A verified beacon round: the ``chain`` name, the ``number``, the ``signature`` and ``randomness`` (hex)."""

    chain: str
    number: int
    signature: str
    randomness: str

    def field(self) -> str:
        """The proof's ``beacon=`` value: ``chain:round:signature`` (the randomness is SHA-256 of the signature)."""
        return f"{self.chain}:{self.number}:{self.signature}"


class Beacon:
    """Fetches and verifies rounds of one :class:`Chain` over HTTPS (the relays of ``urls``, each in turn, with
    ``retries`` attempts ``pause`` seconds apart). ``sleep`` and ``now`` (Unix seconds) are injectable for tests."""

    def __init__(
        self,
        chain: Chain,
        urls: tuple[str, ...] | None = None,
        *,
        retries: int = 5,
        pause: float = 1.0,
        timeout: float = 5.0,
        now: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        import time

        self.chain = chain
        self.urls = tuple(urls or chain.urls)
        self.retries = retries
        self.pause = pause
        self.timeout = timeout
        self.now = now or time.time
        self.sleep = sleep

    def due(self, start_ms: int) -> int:
        """The round due for a game started at ``start_ms`` (:meth:`Chain.round_due`)."""
        return self.chain.round_due(start_ms)

    async def fetch(self, round_: int) -> Round:
        """Round ``round_``, verified: waits until its publication time, then asks each relay in turn, up to
        ``retries`` times. Raises :class:`ForgedRoundError` at once for an answer that does not verify (a forged
        value or signature, another round), :class:`BeaconError` when no relay answers."""
        import aiohttp

        wait = self.chain.time_of(round_) - self.now()
        if wait > 0:
            await self.sleep(wait)
        reasons: list[str] = []
        timeout = aiohttp.ClientTimeout(total=self.timeout)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            for attempt in range(self.retries):
                for url in self.urls:
                    try:
                        return await self._ask(session, url, round_)
                    except (TimeoutError, aiohttp.ClientError, ValueError) as error:
                        reasons.append(f"{url}: {type(error).__name__}: {error}".rstrip(": "))
                if attempt + 1 < self.retries:
                    await self.sleep(self.pause)
        raise BeaconError(
            f"beacon round {round_} of {self.chain.name} could not be fetched ({self.retries} tries; last: "
            f"{reasons[-1] if reasons else 'no relay'}): the dice are not rolled without it"
        )

    async def _ask(self, session, url: str, round_: int) -> Round:
        async with session.get(f"{url.rstrip('/')}/{self.chain.hash}/public/{round_}") as reply:
            if reply.status != 200:
                raise ValueError(f"HTTP {reply.status}")
            data = await reply.json(content_type=None)
        return check_answer(self.chain, round_, data)


def check_answer(chain: Chain, round_: int, data: object) -> Round:
    """The :class:`Round` of a relay's JSON answer ``data`` for round ``round_`` of ``chain``. Raises
    :class:`ForgedRoundError` for another round than the one asked, a signature that does not verify, or a randomness
    that is not SHA-256 of the signature; ``ValueError`` for an answer that is not a round at all."""
    if not isinstance(data, dict) or not isinstance(data.get("signature"), str):
        raise ValueError("the answer is not a drand round")
    if data.get("round") != round_:
        raise ForgedRoundError(f"the relay answered round {data.get('round')!r} where round {round_} was asked")
    randomness = chain.verify(round_, data["signature"])
    if "randomness" in data and data["randomness"] != randomness:
        raise ForgedRoundError(f"round {round_}: the randomness given is not SHA-256 of the signature")
    return Round(chain.name, round_, data["signature"], randomness)


async def round_for_game(beacon: Beacon, due: int, game: int) -> tuple[Round | None, str]:
    """Fetch and verify round ``due`` of ``beacon`` for game ``game`` (a 1-on-1's or a chouette's; 0: a
    chouette's seat throws): ``(the round,
    the sentence naming it)``, or ``(None, why the dice are not rolled)`` — then nothing is rolled or stored, and the
    next action on the table tries again."""
    try:
        found = await beacon.fetch(due)
    except BeaconError as error:
        return None, (f"The dice of this game are not rolled: {error}. Nothing is lost: the next action on this "
                      "table tries again.")  # fmt: skip
    what = "The seat throws" if game == 0 else f"Game {game}'s dice"
    return found, (f"{what} use drand {found.chain} round {found.number}: the first published 30 s or more after "
                   "the message that started them, its signature verified.")  # fmt: skip
