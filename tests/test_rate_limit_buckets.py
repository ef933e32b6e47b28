"""The bot's HTTP client sweeps discord.py's rate-limit buckets (one per channel and route) at most once a minute,
not once for every new bucket: with a thread per game, a burst on a thousand games would otherwise sweep thousands
of buckets a thousand times."""

from __future__ import annotations

import asyncio

from discord.http import HTTPClient

from botapp.discord_bot import SWEEP_SECONDS, sweep_buckets_sparingly


def _idle_buckets(http: HTTPClient, prefix: str, count: int) -> None:
    """``count`` buckets whose last request was 10 minutes ago (discord.py drops them at its next sweep)."""
    for index in range(count):
        http.get_ratelimit(f"{prefix}:{index}:None:None")._last_request -= 600


async def test_new_buckets_sweep_the_idle_ones_at_most_once_a_minute():
    """300 idle buckets (their sweep came while they were still in use), then 50 new ones within the minute: no
    sweep, all kept; a minute later the next new bucket sweeps, and the idle ones go."""
    http = HTTPClient(asyncio.get_running_loop())
    now = [1000.0]
    sweep_buckets_sparingly(http, clock=lambda: now[0])
    _idle_buckets(http, "POST /channels/{channel_id}/messages", 300)
    for index in range(50):
        http.get_ratelimit(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{index}:None:None")
    assert len(http._buckets) == 350, "no sweep within the minute"
    now[0] += SWEEP_SECONDS
    http.get_ratelimit("PATCH /channels/{channel_id}/messages/{message_id}:99:None:None")
    assert len(http._buckets) == 51, "a minute later the idle ones go"


async def test_the_bot_sweeps_sparingly(harness):
    """The bot's own HTTP client has the sparing sweep."""
    sweep = harness.bot.http._try_clear_expired_ratelimits
    assert getattr(sweep, "__name__", "") == "sparingly", sweep
