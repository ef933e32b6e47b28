"""A fake drand beacon on 127.0.0.1 (aiohttp) that signs its rounds with a test key, for the tests of
:mod:`club.beacon` and of games rolled with a beacon: the same verification code checks its rounds as checks the
League of Entropy's.

:class:`FakeBeacon` serves ``GET /{chain hash}/public/{round}`` like a drand HTTP relay. ``forge`` makes it lie:
``"value"`` (a randomness that is not SHA-256 of the signature), ``"signature"`` (another key's signature),
``"round"`` (the round before the one asked: a past round). ``down`` makes it answer 503.
"""

from __future__ import annotations

import hashlib

from aiohttp import web
from py_arkworks_bls12381 import G1Point, G2Point, Scalar

from club.beacon import DST_G1, Chain

TEST_SECRET = 0x5EED_0F_D1CE
"""The test chain's secret key (a scalar); its public key is :data:`TEST_CHAIN`'s."""


def sign(secret: int, round_: int) -> str:
    """The signature (hex of the compressed G1 point) of round ``round_`` with the key ``secret``, by drand's
    ``bls-unchained-g1-rfc9380`` scheme."""
    message = hashlib.sha256(round_.to_bytes(8, "big")).digest()
    return (G1Point.hash_to_curve(message, DST_G1) * Scalar(secret)).to_compressed_bytes().hex()


def public_key(secret: int) -> str:
    """The public key (hex of the compressed G2 point) of ``secret``."""
    return (G2Point() * Scalar(secret)).to_compressed_bytes().hex()


TEST_CHAIN = Chain("test", "7e57" * 16, public_key(TEST_SECRET), 3, 1692803367)
"""A chain like quicknet (same period and genesis) whose rounds only :data:`TEST_SECRET` can sign."""


def answer(round_: int, secret: int = TEST_SECRET) -> dict:
    """A relay's JSON answer for ``round_`` signed with ``secret``."""
    signature = sign(secret, round_)
    return {"round": round_, "randomness": hashlib.sha256(bytes.fromhex(signature)).hexdigest(),
            "signature": signature}  # fmt: skip


class FakeBeacon:
    """The relay (``await start()`` returns its URL; ``await stop()``); ``asked`` lists the rounds asked."""

    def __init__(self, chain: Chain = TEST_CHAIN, secret: int = TEST_SECRET) -> None:
        self.chain = chain
        self.secret = secret
        self.forge: str | None = None
        self.down = False
        self.asked: list[int] = []
        self.app = web.Application()
        self.app.router.add_get("/{chain}/public/{round}", self._round)
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def start(self) -> str:
        """Listen on a free port of 127.0.0.1; returns the relay's URL."""
        self.runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
        return self.url

    async def stop(self) -> None:
        """Stop listening."""
        if self.runner is not None:
            await self.runner.cleanup()

    async def _round(self, request: web.Request) -> web.Response:
        round_ = int(request.match_info["round"])
        self.asked.append(round_)
        if self.down:
            return web.json_response({"error": "unavailable"}, status=503)
        if request.match_info["chain"] != self.chain.hash:
            return web.json_response({"error": "unknown chain"}, status=404)
        body = answer(round_ - 1 if self.forge == "round" else round_, self.secret)
        if self.forge == "value":
            body["randomness"] = hashlib.sha256(b"chosen by the operator").hexdigest()
        elif self.forge == "signature":
            body = answer(round_, self.secret + 1)
        return web.json_response(body)
