"""A small fake Discord on 127.0.0.1 (aiohttp): the REST API the bot uses, answering with Discord-shaped JSON and
Discord's error codes, and checking every request against Discord's limits (:mod:`discord_limits`).

discord.py talks to it over a real socket (``Route.BASE`` points here), so everything above the socket runs as in
production: ``HTTPClient.request`` with its rate-limit buckets, the webhook adapter of interaction responses,
multipart uploads. The world it keeps: one guild, its roles, channels (text, forum, voice) and threads (archived or
not; a forum's posts are threads opened with their first message), its scheduled events, messages with their
attachments, direct-message channels, interaction tokens (3 s for the first answer, 15 minutes for the rest) and
failures injected by a test. Read it through :class:`discordkit.Harness`; this module is the server side.

Error answers (status, code, message as Discord sends them): 10003 Unknown Channel, 10008 Unknown Message, 10015
Unknown Webhook, 10062 Unknown interaction, 10070 Unknown Guild Scheduled Event, 40060 Interaction has already been acknowledged, 50001 Missing Access,
50007 Cannot send messages to this user, 50013 Missing Permissions, 50027 Invalid Webhook Token, 50083 Thread is
archived, 50035 Invalid Form Body (a limit broken), 429 with ``retry_after``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.discord_limits import check_message, check_thread_name, check_tree

DISCORD_EPOCH_MS = 1_420_070_400_000
SNOWFLAKE_START_MS = 1_764_547_200_000
"""The timestamp of the first id (2025-12-01 00:00 UTC)."""
EPHEMERAL = 64
TEXT, DM, VOICE, PUBLIC_THREAD, PRIVATE_THREAD, FORUM = 0, 1, 2, 11, 12, 15
THREADS = (PUBLIC_THREAD, PRIVATE_THREAD)
ERRORS = {
    10003: (404, "Unknown Channel"),
    10008: (404, "Unknown Message"),
    10013: (404, "Unknown User"),
    10015: (404, "Unknown Webhook"),
    10062: (404, "Unknown interaction"),
    10070: (404, "Unknown Guild Scheduled Event"),
    40060: (400, "Interaction has already been acknowledged."),
    50001: (403, "Missing Access"),
    50005: (403, "Cannot edit a message authored by another user"),
    50007: (403, "Cannot send messages to this user"),
    50013: (403, "Missing Permissions"),
    50027: (401, "Invalid Webhook Token"),
    50035: (400, "Invalid Form Body"),
    50083: (400, "Thread is archived"),
}
TOKEN_SECONDS = 15 * 60
WORLD = web.AppKey("world", object)
RECORD = web.RequestKey("record", object)
FIRST_ANSWER_SECONDS = 3.0


def iso(when: float) -> str:
    """Discord's ISO-8601 timestamp of Unix time ``when``."""
    return dt.datetime.fromtimestamp(when, dt.UTC).isoformat()


class DiscordError(Exception):
    """Raised inside a handler: answer with Discord's error ``code`` (its status and message from :data:`ERRORS`)."""

    def __init__(self, code: int, detail: str = "") -> None:
        super().__init__(code, detail)
        self.code, self.detail = code, detail


@dataclass
class Failure:
    """An injected failure: requests whose ``METHOD path`` matches ``pattern`` get ``code`` (a Discord error code,
    or 429 with ``retry_after``) ``times`` times (None = always)."""

    pattern: re.Pattern
    code: int
    times: int | None = 1
    retry_after: float = 0.0
    hits: int = 0

    def applies(self, method: str, path: str) -> bool:
        """Whether this failure answers ``method path`` now (and count it)."""
        if self.times is not None and self.hits >= self.times:
            return False
        if not self.pattern.search(f"{method} {path}"):
            return False
        self.hits += 1
        return True


@dataclass
class Request:
    """One request the bot made: method, path, JSON payload (``payload_json`` of a multipart), uploaded files
    (name → bytes), when (monotonic seconds) and the status answered."""

    method: str
    path: str
    payload: Any
    files: dict[str, bytes]
    at: float
    status: int = 0


@dataclass
class InteractionRecord:
    """What Discord knows of one interaction: its kind, when it was created (Discord's clock), the initial
    callbacks, followups and edits of the original response."""

    id: int
    token: str
    kind: int
    created: float
    sent_at: float
    channel_id: int
    message_id: int | None = None
    callbacks: list[dict] = field(default_factory=list)
    callback_delays: list[float] = field(default_factory=list)
    followups: list[int] = field(default_factory=list)
    original_edits: list[dict] = field(default_factory=list)
    original: int | None = None
    refused: list[tuple[str, int]] = field(default_factory=list)
    label: str = ""
    focused_type: int = 3


class World:
    """The state of the fake Discord: ids, the guild, channels, messages, users, interactions, failures, requests,
    and the limit violations found."""

    def __init__(self, *, guild_id: int, bot_user: dict, application_id: int) -> None:
        self._counter = itertools.count(1)
        self.guild_id = guild_id
        self.bot_user = bot_user
        self.application_id = application_id
        self.channels: dict[int, dict] = {}
        self.messages: dict[int, dict] = {}
        self.files: dict[int, dict[str, bytes]] = {}
        self.edits: dict[int, int] = {}
        self.votes: dict[int, dict[int, dict[str, dict]]] = {}  # poll message → answer id → voter id → user
        self.users: dict[int, dict] = {}
        self.roles: dict[int, dict] = {}
        self.scheduled_events: dict[int, dict] = {}
        self.dm_channels: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}  # (channel, nonce) → (message, when posted)
        self.denied: dict[int, set[str]] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        self.failures: list[Failure] = []
        self.requests: list[Request] = []
        self.violations: list[str] = []
        self.unhandled: list[str] = []
        self.commands: dict[int | None, list[dict]] = {}
        self.offset = 0.0  # Discord's clock runs ahead of the wall clock by this many seconds
        self.gateway: Callable[[str, dict], None] = lambda event, data: None
        self.hooks: list[tuple[re.Pattern, Callable[[Request], Any]]] = []

    # -- time and ids ---------------------------------------------------------------------------------------------
    def now(self) -> float:
        """Discord's clock (Unix seconds): the wall clock plus :attr:`offset`."""
        return time.time() + self.offset

    def snowflake(self) -> int:
        """A new id: a timestamp (a fixed start, plus Discord's clock offset, plus one millisecond per id) in its
        timestamp bits, the counter below. Not the wall clock: the ids are the same on every run, and so are the dice
        that take interaction ids as client seeds (:attr:`club.requests.Request.contribution`)."""
        count = next(self._counter)
        stamp = SNOWFLAKE_START_MS + int(self.offset * 1000) + count
        return (stamp - DISCORD_EPOCH_MS) << 22 | (count & 0x3FFFFF)

    # -- channels ---------------------------------------------------------------------------------------------------
    def add_channel(self, name: str, *, kind: int = TEXT, parent_id: int | None = None, channel_id: int | None = None,
                    owner_id: int | None = None) -> dict:  # fmt: skip
        """A text channel (a forum or voice channel by ``kind``, or a thread of ``parent_id``) in the guild; returns
        its payload."""
        channel_id = channel_id or self.snowflake()
        payload: dict[str, Any] = {
            "id": str(channel_id), "type": kind, "guild_id": str(self.guild_id), "name": name, "position": 0,
            "permission_overwrites": [], "nsfw": False, "parent_id": str(parent_id) if parent_id else None,
            "last_message_id": None, "rate_limit_per_user": 0, "flags": 0,
        }  # fmt: skip
        if kind in THREADS:
            payload.update(
                owner_id=str(owner_id or self.bot_user["id"]), message_count=0, member_count=1, total_message_sent=0,
                thread_metadata={"archived": False, "auto_archive_duration": 10080, "locked": False,
                                 "archive_timestamp": iso(self.now()), "invitable": kind == PUBLIC_THREAD,
                                 "create_timestamp": iso(self.now())},
            )  # fmt: skip
            payload.pop("permission_overwrites")
            payload.pop("position")
        if kind == FORUM:
            payload.update(topic=None, available_tags=[], default_reaction_emoji=None, default_sort_order=None,
                           default_forum_layout=0, default_thread_rate_limit_per_user=0,
                           default_auto_archive_duration=4320)  # fmt: skip
        elif kind == VOICE:
            payload.update(bitrate=64000, user_limit=0, rtc_region=None)
        self.channels[channel_id] = payload
        return payload

    def channel(self, channel_id: int) -> dict:
        """The channel's payload; :class:`DiscordError` 10003 if it does not exist (any more)."""
        channel = self.channels.get(channel_id)
        if channel is None:
            raise DiscordError(10003)
        return channel

    def permitted(self, channel_id: int, permission: str) -> bool:
        """Whether the bot has ``permission`` (discord.py's name) in the channel (a thread: in its parent)."""
        channel = self.channels.get(channel_id)
        if channel is not None and channel["type"] in THREADS:
            parent = int(channel["parent_id"])
            return permission not in self.denied.get(parent, set()) and permission not in self.denied.get(
                channel_id, set()
            )
        return permission not in self.denied.get(channel_id, set())

    def require(self, channel_id: int, *permissions: str) -> None:
        """:class:`DiscordError` 50013 unless the bot has every one of ``permissions`` in the channel."""
        for permission in permissions:
            if not self.permitted(channel_id, permission):
                raise DiscordError(50013, permission)

    # -- messages ---------------------------------------------------------------------------------------------------
    def message_payload(self, message_id: int) -> dict:
        """The stored message (as Discord returns it)."""
        message = self.messages.get(message_id)
        if message is None:
            raise DiscordError(10008)
        return message

    def store_message(self, channel_id: int, payload: dict, files: dict[str, bytes], *, author: dict | None = None,
                      flags: int = 0, interaction: InteractionRecord | None = None,
                      message_id: int | None = None) -> dict:  # fmt: skip
        """Create a message in ``channel_id`` from a create payload and the uploaded files (``message_id``: the id
        it must have, as a forum post's first message has its thread's); returns its JSON."""
        message_id = message_id or self.snowflake()
        message = {
            "id": str(message_id), "channel_id": str(channel_id), "author": author or self.bot_user,
            "content": payload.get("content") or "", "timestamp": iso(self.now()), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
            "type": 0 if interaction is None else 20, "flags": flags | int(payload.get("flags") or 0),
            "embeds": payload.get("embeds") or [], "components": payload.get("components") or [], "attachments": [],
        }  # fmt: skip
        if channel_id in self.channels and self.channels[channel_id]["type"] != DM:
            message["guild_id"] = str(self.guild_id)
        if interaction is not None:
            message["webhook_id"] = str(self.application_id)
            message["interaction_metadata"] = {"id": str(interaction.id), "type": interaction.kind,
                                               "user": self.bot_user}  # fmt: skip
        if payload.get("poll") is not None:
            message["poll"] = self._new_poll(payload["poll"])
            self.votes[message_id] = {}
        self.messages[message_id] = message
        self.files[message_id] = {}
        self.edits[message_id] = 0
        self._attach(message, payload, files)
        if channel_id in self.channels:
            self.channels[channel_id]["last_message_id"] = str(message_id)
        return message

    # -- polls ------------------------------------------------------------------------------------------------------
    def _new_poll(self, create: dict) -> dict:
        """A poll as Discord returns it from its create payload: answers numbered from 1, ``expiry`` the creation
        time plus ``duration`` hours, results not final (Discord's counts may be stale until then)."""
        answers = [{"answer_id": number, "poll_media": answer["poll_media"]}
                   for number, answer in enumerate(create["answers"], start=1)]  # fmt: skip
        return {
            "question": create["question"], "answers": answers,
            "expiry": iso(self.now() + 3600 * float(create.get("duration", 24))),
            "allow_multiselect": bool(create.get("allow_multiselect")), "layout_type": create.get("layout_type", 1),
            "results": {"is_finalized": False, "answer_counts": []},
        }  # fmt: skip

    def vote(self, message_id: int, user: dict, answer_id: int) -> None:
        """``user`` votes for answer ``answer_id`` of the poll of ``message_id`` (one answer: a new vote replaces
        his old one). Raises :class:`DiscordError` for a message without a poll, a closed poll or no such answer."""
        message = self.message_payload(message_id)
        poll = message.get("poll")
        if poll is None or poll["results"]["is_finalized"]:
            raise DiscordError(50035, "the poll is closed" if poll else "the message has no poll")
        if not any(a["answer_id"] == answer_id for a in poll["answers"]):
            raise DiscordError(50035, f"no answer {answer_id}")
        votes = self.votes[message_id]
        if not poll["allow_multiselect"]:
            for voters in votes.values():
                voters.pop(user["id"], None)
        votes.setdefault(answer_id, {})[user["id"]] = user

    def end_poll(self, message_id: int) -> dict:
        """Close the poll of ``message_id`` with its final results (``is_finalized``: Discord's final state);
        returns the message."""
        message = self.message_payload(message_id)
        poll = message["poll"]
        votes = self.votes[message_id]
        poll["results"] = {
            "is_finalized": True,
            "answer_counts": [{"id": a["answer_id"], "count": len(votes.get(a["answer_id"], {})), "me_voted": False}
                              for a in poll["answers"]],
        }  # fmt: skip
        poll["expiry"] = min(poll["expiry"], iso(self.now()))
        return message

    def voters(self, message_id: int, answer_id: int, *, after: int = 0, limit: int = 25) -> list[dict]:
        """The users who voted for ``answer_id`` (by id, after ``after``, at most ``limit``: Discord's page)."""
        self.message_payload(message_id)
        users = sorted(self.votes.get(message_id, {}).get(answer_id, {}).values(), key=lambda u: int(u["id"]))
        return [u for u in users if int(u["id"]) > after][:limit]

    def _attach(self, message: dict, payload: dict, files: dict[str, bytes]) -> None:
        message_id = int(message["id"])
        kept = {}
        if "attachments" in payload and payload["attachments"] is not None:
            old = {a["id"]: a for a in message["attachments"]}
            for attachment in payload["attachments"]:
                if str(attachment.get("id")) in old:
                    kept[str(attachment["id"])] = old[str(attachment["id"])]
            names = {a["filename"] for a in kept.values()}
            self.files[message_id] = {k: v for k, v in self.files.get(message_id, {}).items() if k in names}
            message["attachments"] = list(kept.values())
        for name, data in files.items():
            attachment_id = self.snowflake()
            message["attachments"].append({
                "id": str(attachment_id), "filename": name, "size": len(data),
                "url": f"https://cdn.discordapp.com/attachments/{message['channel_id']}/{attachment_id}/{name}",
                "proxy_url": f"https://media.discordapp.net/attachments/{message['channel_id']}/{attachment_id}/{name}",
                "content_type": "image/png" if name.endswith(".png") else "application/octet-stream",
            })  # fmt: skip
            self.files[message_id][name] = data

    def edit_message(self, message: dict, payload: dict, files: dict[str, bytes]) -> dict:
        """Apply an edit payload (content, embeds, components, attachments) to a stored message."""
        for key in ("content", "embeds", "components"):
            if key in payload:
                message[key] = payload[key] if payload[key] is not None else ([] if key != "content" else "")
        if "flags" in payload and payload["flags"] is not None:
            message["flags"] = int(payload["flags"]) | (message["flags"] & EPHEMERAL)
        if "attachments" in payload or files:
            self._attach(message, payload, files)
        message["edited_timestamp"] = iso(self.now())
        self.edits[int(message["id"])] = self.edits.get(int(message["id"]), 0) + 1
        return message

    # -- limits -----------------------------------------------------------------------------------------------------
    def check(self, what: str, payload: dict | None, files: dict[str, bytes], *, kept: tuple[str, ...] = ()) -> None:
        """Check a message payload against Discord's limits; a violation is recorded and answered with 50035."""
        problems = check_message(payload or {}, {name: len(data) for name, data in files.items()}, kept=kept)
        if problems:
            self.violations.extend(f"{what}: {problem}" for problem in problems)
            raise DiscordError(50035, "; ".join(problems))


def _json_response(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    # discord.py compares the header with "application/json" exactly, as Discord sends it (no charset)
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json", **(headers or {})}
    )


async def read_request(request: web.Request) -> tuple[Any, dict[str, bytes]]:
    """The JSON payload and the uploaded files (name → bytes) of a request, JSON or multipart as discord.py sends."""
    if request.content_type.startswith("multipart/"):
        payload, files = None, {}
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.filename:
                files[part.filename] = bytes(await part.read())
        return payload, files
    body = await request.read()
    return (json.loads(body) if body else None), {}


class FakeDiscordServer:
    """The aiohttp application serving :class:`World` on 127.0.0.1 (``await start()``, ``base`` is the API URL
    discord.py's ``Route.BASE`` is set to; ``await stop()``)."""

    def __init__(self, world: World) -> None:
        from tests.discord_routes import ROUTES

        self.world = world
        self.app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        for method, path, handler in ROUTES:
            self.app.router.add_route(method, "/api/v10" + path, handler)
        self.app.router.add_route("*", "/{tail:.*}", self._unknown)
        self.app[WORLD] = world
        self.runner: web.AppRunner | None = None
        self.base = ""

    async def start(self) -> str:
        """Listen on a free port of 127.0.0.1; returns the API base URL."""
        self.runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}/api/v10"
        return self.base

    async def stop(self) -> None:
        """Stop listening and close the connections."""
        if self.runner is not None:
            await self.runner.cleanup()

    async def _unknown(self, request: web.Request) -> web.Response:
        self.world.unhandled.append(f"{request.method} {request.path}")
        return _json_response({"message": "404: Not Found", "code": 0}, 404)

    @web.middleware
    async def _middleware(self, request: web.Request, handler) -> web.Response:
        world = self.world
        path = request.path.removeprefix("/api/v10")
        for failure in world.failures:
            if failure.applies(request.method, path):
                if failure.code == 429:
                    world.requests.append(Request(request.method, path, None, {}, time.monotonic(), 429))
                    return _json_response(
                        {"message": "You are being rate limited.", "retry_after": failure.retry_after,
                         "global": False, "code": 0}, 429,
                        {"Via": "1.1 google", "Retry-After": str(max(1, int(failure.retry_after))),
                         "X-RateLimit-Scope": "user"},
                    )  # fmt: skip
                status, message = ERRORS[failure.code]
                world.requests.append(Request(request.method, path, None, {}, time.monotonic(), status))
                return _json_response({"message": message, "code": failure.code}, status)
        try:
            response = await handler(request)
        except DiscordError as error:
            status, message = ERRORS[error.code]
            body: dict[str, Any] = {"message": message, "code": error.code}
            if error.code == 50035:
                body["errors"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": error.detail}]}
            response = _json_response(body, status)
        record = request.get(RECORD)
        if record is not None:
            record.status = response.status
        for pattern, hook in list(world.hooks):
            if record is not None and pattern.search(f"{request.method} {path}"):
                result = hook(record)
                if asyncio.iscoroutine(result):
                    await result
        return response


def json_answer(data: Any, status: int = 200) -> web.Response:
    """A JSON answer (for the route handlers)."""
    return _json_response(data, status)


def no_content() -> web.Response:
    """204 No Content."""
    return web.Response(status=204)


__all__ = ["FakeDiscordServer", "World", "DiscordError", "Failure", "Request", "InteractionRecord", "read_request",
           "json_answer", "no_content", "check_tree", "check_thread_name", "iso"]  # fmt: skip
