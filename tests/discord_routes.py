"""The REST routes of the fake Discord (:mod:`discord_fake`): each handler reads the request as Discord would,
enforces what Discord enforces (permissions, archived threads, deleted channels and messages, closed DMs, the 3 s
and 15 minute windows of an interaction token, Discord's limits) and answers with Discord-shaped JSON.
"""

from __future__ import annotations

import datetime as dt
import time

from aiohttp import web

from tests.discord_fake import (
    DM,
    EPHEMERAL,
    FIRST_ANSWER_SECONDS,
    FORUM,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    RECORD,
    THREADS,
    TOKEN_SECONDS,
    VOICE,
    WORLD,
    DiscordError,
    Request,
    World,
    check_thread_name,
    check_tree,
    json_answer,
    no_content,
    read_request,
)

MESSAGE_PERMISSIONS = ("view_channel",)
NONCE_SECONDS = 300.0
"""How long Discord keeps a nonce with ``enforce_nonce``: a second message of it within that returns the first."""


async def _begin(request: web.Request) -> tuple[World, object, dict]:
    world: World = request.app[WORLD]
    payload, files = await read_request(request)
    record = Request(request.method, request.path.removeprefix("/api/v10"), payload, files, time.monotonic())
    world.requests.append(record)
    request[RECORD] = record
    return world, payload, files


def _id(request: web.Request, name: str) -> int:
    return int(request.match_info[name])


def _writable(world: World, channel: dict, *, edit: bool = False) -> None:
    """Discord's checks before a message is posted (or edited) in ``channel``."""
    channel_id = int(channel["id"])
    if channel["type"] == DM:
        recipient = int(channel["recipients"][0]["id"])
        if recipient in world.closed_dms:
            raise DiscordError(50007)
        return
    world.require(channel_id, "view_channel")
    if channel["type"] in THREADS:
        meta = channel["thread_metadata"]
        if meta["archived"] and (edit or meta["locked"]):
            raise DiscordError(50083)
        if not edit:
            world.require(channel_id, "send_messages_in_threads")
            meta["archived"] = False  # a message in an archived (unlocked) thread unarchives it
    elif not edit:
        world.require(channel_id, "send_messages")


def _content_permissions(world: World, channel: dict, payload: dict | None, files: dict) -> None:
    if channel["type"] == DM:
        return
    if files:
        world.require(int(channel["id"]), "attach_files")
    if (payload or {}).get("embeds"):
        world.require(int(channel["id"]), "embed_links")


# -- users and the application ---------------------------------------------------------------------------------------
async def get_me(request):
    world, _, _ = await _begin(request)
    return json_answer(world.bot_user)


async def get_application(request):
    world, _, _ = await _begin(request)
    return json_answer({
        "id": str(world.application_id), "name": world.bot_user["username"], "icon": None, "description": "",
        "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0,
        "owner": {k: world.bot_user[k] for k in ("id", "username", "discriminator", "avatar")},
        "team": None, "summary": "", "rpc_origins": [], "interactions_endpoint_url": None,
    })  # fmt: skip


async def get_user(request):
    world, _, _ = await _begin(request)
    user = world.users.get(_id(request, "user_id"))
    if user is None:
        raise DiscordError(10013)
    return json_answer(user)


async def create_dm(request):
    world, payload, _ = await _begin(request)
    recipient = int(payload["recipient_id"])
    user = world.users.get(recipient)
    if user is None:
        raise DiscordError(10013)
    channel_id = world.dm_channels.get(recipient)
    if channel_id is None:
        channel_id = world.snowflake()
        world.dm_channels[recipient] = channel_id
        world.channels[channel_id] = {"id": str(channel_id), "type": DM, "recipients": [user],
                                      "last_message_id": None, "flags": 0}  # fmt: skip
    return json_answer(world.channels[channel_id])


# -- channels and threads --------------------------------------------------------------------------------------------
async def get_channel(request):
    world, _, _ = await _begin(request)
    channel = world.channel(_id(request, "channel_id"))
    if channel["type"] != DM and not world.permitted(int(channel["id"]), "view_channel"):
        raise DiscordError(50001)
    return json_answer(channel)


async def edit_channel(request):
    world, payload, _ = await _begin(request)
    channel = world.channel(_id(request, "channel_id"))
    if channel["type"] in THREADS:
        meta = channel["thread_metadata"]
        if meta["locked"] and not world.permitted(int(channel["id"]), "manage_threads"):
            raise DiscordError(50013, "manage_threads")
        for key in ("archived", "locked", "auto_archive_duration"):
            if key in payload:
                meta[key] = payload[key]
        if "name" in payload:
            channel["name"] = payload["name"]
        world.gateway("THREAD_UPDATE", channel)
    else:
        world.require(int(channel["id"]), "manage_channels")
        channel.update({k: v for k, v in payload.items() if k in ("name", "topic")})
        world.gateway("CHANNEL_UPDATE", channel)
    return json_answer(channel)


def _thread_name(world: World, payload: dict) -> None:
    problems = check_thread_name(payload.get("name", ""))
    if problems:
        world.violations.extend(f"thread: {p}" for p in problems)
        raise DiscordError(50035, "; ".join(problems))


def _new_thread(world: World, parent: dict, payload: dict, *, thread_id: int | None, kind: int) -> dict:
    _thread_name(world, payload)
    permission = "create_private_threads" if kind == PRIVATE_THREAD else "create_public_threads"
    world.require(int(parent["id"]), "view_channel", permission)
    if parent["type"] != 0:
        raise DiscordError(50035, "threads are made in text channels")
    thread = world.add_channel(payload["name"], kind=kind, parent_id=int(parent["id"]), channel_id=thread_id)
    if "auto_archive_duration" in payload:
        thread["thread_metadata"]["auto_archive_duration"] = payload["auto_archive_duration"]
    if kind == PRIVATE_THREAD:
        thread["thread_metadata"]["invitable"] = bool(payload.get("invitable", True))
    world.gateway("THREAD_CREATE", {**thread, "newly_created": True})
    return thread


async def thread_from_message(request):
    world, payload, _ = await _begin(request)
    parent = world.channel(_id(request, "channel_id"))
    message = world.message_payload(_id(request, "message_id"))
    if int(message["channel_id"]) != int(parent["id"]):
        raise DiscordError(10008)
    if _id(request, "message_id") in world.channels:
        raise DiscordError(50035, "a thread has already been created for this message")
    thread = _new_thread(world, parent, payload, thread_id=int(message["id"]), kind=PUBLIC_THREAD)
    message["thread"] = thread
    return json_answer(thread, 201)


def _forum_post(world: World, forum: dict, payload: dict, files: dict) -> dict:
    """A post in a forum channel: a public thread opened with its first message (``payload["message"]``), whose id
    is the thread's; Discord needs Send Messages in the forum. Returns the thread with ``message``."""
    message = payload.get("message")
    if not message:
        raise DiscordError(50035, "a forum post needs its first message")
    _thread_name(world, payload)
    world.require(int(forum["id"]), "view_channel", "send_messages")
    _content_permissions(world, forum, message, files)
    world.check(f"forum post in {forum['name']}", message, files)
    thread = world.add_channel(payload["name"], kind=PUBLIC_THREAD, parent_id=int(forum["id"]))
    meta = thread["thread_metadata"]
    meta["auto_archive_duration"] = payload.get("auto_archive_duration") or forum["default_auto_archive_duration"]
    first = world.store_message(int(thread["id"]), message, files, message_id=int(thread["id"]))
    thread.update(message_count=1, total_message_sent=1)
    world.gateway("THREAD_CREATE", {**thread, "newly_created": True})
    return {**thread, "message": first}


async def thread_without_message(request):
    world, payload, files = await _begin(request)
    parent = world.channel(_id(request, "channel_id"))
    if parent["type"] == FORUM:
        return json_answer(_forum_post(world, parent, payload or {}, files), 201)
    thread = _new_thread(world, parent, payload, thread_id=None, kind=int(payload.get("type") or PRIVATE_THREAD))
    return json_answer(thread, 201)


async def thread_member(request):
    world, _, _ = await _begin(request)
    thread = world.channel(_id(request, "channel_id"))
    if thread["type"] not in THREADS:
        raise DiscordError(50035, "not a thread")
    if thread["thread_metadata"]["archived"]:
        raise DiscordError(50083)
    return no_content()


# -- messages -----------------------------------------------------------------------------------------------------------
async def create_message(request):
    world, payload, files = await _begin(request)
    channel = world.channel(_id(request, "channel_id"))
    _writable(world, channel)
    _content_permissions(world, channel, payload, files)
    world.check(f"POST message in {channel.get('name', 'DM')}", payload, files)
    nonce = (payload or {}).get("nonce")
    if nonce is not None and (payload or {}).get("enforce_nonce"):  # Discord: the first message of this nonce, again
        seen = world.nonces.get((int(channel["id"]), str(nonce)))
        if seen is not None and seen[0] in world.messages and world.now() - seen[1] < NONCE_SECONDS:
            return json_answer(world.messages[seen[0]])
    message = world.store_message(int(channel["id"]), payload or {}, files)
    if nonce is not None:
        world.nonces[int(channel["id"]), str(nonce)] = (int(message["id"]), world.now())
    return json_answer(message)


def _message_in(world: World, channel_id: int, message_id: int) -> dict:
    world.channel(channel_id)
    message = world.message_payload(message_id)
    if int(message["channel_id"]) != channel_id or message.get("flags", 0) & EPHEMERAL:
        raise DiscordError(10008)
    return message


async def get_message(request):
    world, _, _ = await _begin(request)
    channel_id = _id(request, "channel_id")
    world.require(channel_id, "view_channel", "read_message_history")
    return json_answer(_message_in(world, channel_id, _id(request, "message_id")))


async def edit_message(request):
    world, payload, files = await _begin(request)
    channel = world.channel(_id(request, "channel_id"))
    message = _message_in(world, int(channel["id"]), _id(request, "message_id"))
    _writable(world, channel, edit=True)
    if int(message["author"]["id"]) != int(world.bot_user["id"]):
        raise DiscordError(50005)
    _content_permissions(world, channel, payload, files)
    kept = tuple(a["filename"] for a in message["attachments"]
                 if str(a["id"]) in {str(x.get("id")) for x in (payload or {}).get("attachments") or []}
                 or "attachments" not in (payload or {}))  # fmt: skip
    world.check(f"PATCH message in {channel.get('name', 'DM')}", payload, files, kept=kept)
    return json_answer(world.edit_message(message, payload or {}, files))


async def delete_message(request):
    world, _, _ = await _begin(request)
    channel_id = _id(request, "channel_id")
    _message_in(world, channel_id, _id(request, "message_id"))
    del world.messages[_id(request, "message_id")]
    return no_content()


# -- interactions ------------------------------------------------------------------------------------------------------
ALLOWED = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
"""Interaction type → the initial response types Discord accepts for it (application command, component,
autocomplete, modal submit)."""


def _interaction(world: World, token: str) -> object:
    record = world.interactions.get(token)
    if record is None:
        raise DiscordError(10015)
    return record


async def callback(request):
    world, payload, files = await _begin(request)
    token = request.match_info["token"]
    record = world.interactions.get(token)
    if record is None or record.id != _id(request, "interaction_id"):
        raise DiscordError(10062)
    delay = time.monotonic() - record.sent_at
    if record.callbacks:
        record.refused.append(("second initial response", 40060))
        raise DiscordError(40060)
    if delay > FIRST_ANSWER_SECONDS:
        record.refused.append((f"first response after {delay:.2f} s", 10062))
        raise DiscordError(10062)
    kind = int(payload["type"])
    if kind not in ALLOWED.get(record.kind, set()):
        world.violations.append(f"interaction {record.label}: response type {kind} to an interaction of type "
                                f"{record.kind}")  # fmt: skip
        raise DiscordError(50035, "bad response type")
    data = payload.get("data") or {}
    record.callbacks.append(payload)
    record.callback_delays.append(delay)
    answer = {"interaction": {"id": str(record.id), "type": record.kind,
                              "response_message_loading": kind == 5,
                              "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL)}}  # fmt: skip
    if kind == 8:
        from tests.discord_limits import check_choices

        option_type = record.focused_type
        problems = check_choices(data.get("choices") or [], option_type, f"autocomplete {record.label}")
        if len(data.get("choices") or []) > 25:
            problems.append(f"autocomplete {record.label}: {len(data['choices'])} choices (at most 25)")
        if problems:
            world.violations.extend(problems)
            record.callbacks.pop()
            raise DiscordError(50035, "; ".join(problems))
        return json_answer(answer)
    if kind in (4, 5):
        message_payload = data if kind == 4 else {"content": "", "flags": data.get("flags")}
        if kind == 4:
            world.check(f"response to {record.label}", data, files)
        message = world.store_message(record.channel_id, message_payload, files if kind == 4 else {},
                                      interaction=record, flags=int(data.get("flags") or 0) | (128 if kind == 5 else 0))  # fmt: skip
        record.original = int(message["id"])
        answer["interaction"]["response_message_id"] = message["id"]
        answer["resource"] = {"type": kind, "message": message}
    elif kind == 7:
        world.check(f"update by {record.label}", data, files)
        message = world.edit_message(world.message_payload(record.message_id), data, files)
        record.original = record.message_id
        answer["resource"] = {"type": kind, "message": message}
    elif kind == 6:
        record.original = record.message_id
    return json_answer(answer)


def _live(world: World, token: str):
    record = _interaction(world, token)
    if world.now() - record.created > TOKEN_SECONDS:
        record.refused.append(("token past 15 minutes", 50027))
        raise DiscordError(50027)
    if not record.callbacks:
        record.refused.append(("followup before the initial response", 10015))
        raise DiscordError(10015)
    return record


async def followup(request):
    world, payload, files = await _begin(request)
    record = _live(world, request.match_info["token"])
    world.check(f"followup of {record.label}", payload, files)
    flags = int((payload or {}).get("flags") or 0)
    first = record.callbacks[0]
    if int(first["type"]) == 5 and not record.followups and not record.original_edits:
        # the first followup after a thinking defer is the original response, in its ephemerality
        message = world.edit_message(world.message_payload(record.original), payload or {}, files)
        message["flags"] = message["flags"] & ~128
    else:
        message = world.store_message(record.channel_id, payload or {}, files, interaction=record, flags=flags)
    record.followups.append(int(message["id"]))
    return json_answer(message)


def _webhook_message(world: World, record, message_ref: str) -> dict:
    if message_ref == "@original":
        if record.original is None:
            raise DiscordError(10008)
        return world.message_payload(record.original)
    message_id = int(message_ref)
    if message_id not in record.followups and message_id != record.original:
        raise DiscordError(10008)
    return world.message_payload(message_id)


async def webhook_get(request):
    world, _, _ = await _begin(request)
    record = _live(world, request.match_info["token"])
    return json_answer(_webhook_message(world, record, request.match_info["message"]))


async def webhook_edit(request):
    world, payload, files = await _begin(request)
    record = _live(world, request.match_info["token"])
    message = _webhook_message(world, record, request.match_info["message"])
    kept = tuple(a["filename"] for a in message["attachments"])
    world.check(f"edit of {record.label}'s response", payload, files, kept=kept)
    if request.match_info["message"] == "@original":
        record.original_edits.append(payload or {})
    message = world.edit_message(message, payload or {}, files)
    message["flags"] = message["flags"] & ~128
    return json_answer(message)


async def webhook_delete(request):
    world, _, _ = await _begin(request)
    record = _live(world, request.match_info["token"])
    message = _webhook_message(world, record, request.match_info["message"])
    del world.messages[int(message["id"])]
    return no_content()


# -- application commands ----------------------------------------------------------------------------------------------
async def put_commands(request):
    world, payload, _ = await _begin(request)
    guild = request.match_info.get("guild_id")
    problems = check_tree(payload or [])
    if problems:
        world.violations.extend(f"command tree: {p}" for p in problems)
        raise DiscordError(50035, "; ".join(problems))
    stored = []
    for command in payload:
        stored.append({**command, "id": str(world.snowflake()), "application_id": str(world.application_id),
                       "version": str(world.snowflake()), "default_member_permissions": None,
                       "guild_id": guild, "type": command.get("type", 1)})  # fmt: skip
    world.commands[int(guild) if guild else None] = stored
    return json_answer(stored)


async def get_commands(request):
    world, _, _ = await _begin(request)
    guild = request.match_info.get("guild_id")
    return json_answer(world.commands.get(int(guild) if guild else None, []))


WEBHOOK = "/webhooks/{application_id}/{token}"


# -- scheduled events ------------------------------------------------------------------------------------------------
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
STATUS_MOVES = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
"""A scheduled event's status → the statuses Discord lets it move to."""
STAGE, VOICE_EVENT, EXTERNAL = 1, 2, 3


def _guild(world: World, request: web.Request) -> None:
    if _id(request, "guild_id") != world.guild_id:
        raise DiscordError(50001)
    if "create_events" in world.denied.get(world.guild_id, set()):
        raise DiscordError(50013, "create_events")


def _when(value) -> float:
    try:
        return dt.datetime.fromisoformat(str(value)).timestamp()
    except ValueError:
        raise DiscordError(50035, f"not an ISO 8601 timestamp: {value!r}") from None


def _check_scheduled(world: World, event: dict) -> None:
    """Discord's checks of a scheduled event as it would stand (50035 when broken)."""
    problems = []
    if not 1 <= len(event.get("name") or "") <= 100:
        problems.append("name: 1 to 100 characters")
    if len(event.get("description") or "") > 1000:
        problems.append("description: at most 1000 characters")
    if event.get("privacy_level") != 2:
        problems.append("privacy_level: must be 2 (guild only)")
    start = _when(event["scheduled_start_time"])
    end = event.get("scheduled_end_time")
    if end is not None and _when(end) <= start:
        problems.append("scheduled_end_time: must be after the start")
    kind = event.get("entity_type")
    if kind == EXTERNAL:
        location = (event.get("entity_metadata") or {}).get("location") or ""
        if not 1 <= len(location) <= 100 or end is None or event.get("channel_id") is not None:
            problems.append("an external event has a location (1 to 100 characters), an end and no channel")
    elif kind in (STAGE, VOICE_EVENT):
        channel = world.channels.get(int(event.get("channel_id") or 0))
        if channel is None or channel["type"] != (VOICE if kind == VOICE_EVENT else 13):
            problems.append("channel_id: a voice (or stage) channel of the guild")
    else:
        problems.append(f"entity_type: 1, 2 or 3, not {kind!r}")
    if problems:
        world.violations.extend(f"scheduled event: {p}" for p in problems)
        raise DiscordError(50035, "; ".join(problems))


async def create_scheduled_event(request):
    world, payload, _ = await _begin(request)
    _guild(world, request)
    payload = payload or {}
    if "scheduled_start_time" not in payload:
        raise DiscordError(50035, "scheduled_start_time is required")
    if _when(payload["scheduled_start_time"]) <= world.now():
        raise DiscordError(50035, "Cannot schedule event in the past")
    event_id = world.snowflake()
    event = {
        "id": str(event_id), "guild_id": str(world.guild_id), "channel_id": None, "creator_id": world.bot_user["id"],
        "creator": world.bot_user, "description": None, "scheduled_end_time": None, "entity_id": None,
        "entity_metadata": None, "status": SCHEDULED, "user_count": 0, "image": None, "recurrence_rule": None,
        **{key: payload[key] for key in ("name", "description", "scheduled_start_time", "scheduled_end_time",
                                         "privacy_level", "entity_type", "channel_id", "entity_metadata")
           if key in payload},
    }  # fmt: skip
    _check_scheduled(world, event)
    if event["channel_id"] is not None:
        event["channel_id"] = str(event["channel_id"])  # ids are strings in what Discord sends
    world.scheduled_events[event_id] = event
    world.gateway("GUILD_SCHEDULED_EVENT_CREATE", event)
    return json_answer(event)


def _scheduled(world: World, request: web.Request) -> dict:
    event = world.scheduled_events.get(_id(request, "event_id"))
    if event is None or int(event["guild_id"]) != _id(request, "guild_id"):
        raise DiscordError(10070)
    return event


async def get_scheduled_event(request):
    world, _, _ = await _begin(request)
    return json_answer(_scheduled(world, request))


async def edit_scheduled_event(request):
    world, payload, _ = await _begin(request)
    _guild(world, request)
    event = _scheduled(world, request)
    payload = payload or {}
    status = payload.get("status", event["status"])
    if status != event["status"] and status not in STATUS_MOVES.get(event["status"], set()):
        raise DiscordError(50035, f"a scheduled event cannot go from status {event['status']} to {status}")
    changed = {**event, **payload, "status": status}
    if event["status"] == SCHEDULED and status == SCHEDULED:
        _check_scheduled(world, changed)
    event.update(changed)
    world.gateway("GUILD_SCHEDULED_EVENT_UPDATE", event)
    return json_answer(event)


async def delete_scheduled_event(request):
    world, _, _ = await _begin(request)
    _guild(world, request)
    event = _scheduled(world, request)
    del world.scheduled_events[int(event["id"])]
    world.gateway("GUILD_SCHEDULED_EVENT_DELETE", event)
    return no_content()


async def poll_voters(request):
    world, _, _ = await _begin(request)
    channel_id = _id(request, "channel_id")
    world.require(channel_id, "view_channel", "read_message_history")
    message = _message_in(world, channel_id, _id(request, "message_id"))
    if "poll" not in message:
        raise DiscordError(10008)
    after = int(request.query.get("after") or 0)
    limit = int(request.query.get("limit") or 25)
    if not 1 <= limit <= 100:
        world.violations.append(f"GET poll voters with limit {limit} (1 to 100)")
        raise DiscordError(50035, "limit: 1 to 100")
    users = world.voters(int(message["id"]), _id(request, "answer_id"), after=after, limit=limit)
    return json_answer({"users": users})


async def expire_poll(request):
    world, _, _ = await _begin(request)
    channel_id = _id(request, "channel_id")
    message = _message_in(world, channel_id, _id(request, "message_id"))
    if "poll" not in message or int(message["author"]["id"]) != int(world.bot_user["id"]):
        raise DiscordError(50005)
    return json_answer(world.end_poll(int(message["id"])))


ROUTES = [
    ("GET", "/users/@me", get_me),
    ("GET", "/oauth2/applications/@me", get_application),
    ("GET", "/applications/@me", get_application),
    ("POST", "/users/@me/channels", create_dm),
    ("GET", "/users/{user_id}", get_user),
    ("GET", "/channels/{channel_id}", get_channel),
    ("PATCH", "/channels/{channel_id}", edit_channel),
    ("POST", "/channels/{channel_id}/messages", create_message),
    ("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
    ("GET", "/channels/{channel_id}/polls/{message_id}/answers/{answer_id}", poll_voters),
    ("POST", "/channels/{channel_id}/polls/{message_id}/expire", expire_poll),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", edit_message),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_message),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", thread_from_message),
    ("POST", "/channels/{channel_id}/threads", thread_without_message),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}", thread_member),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", thread_member),
    ("POST", "/interactions/{interaction_id}/{token}/callback", callback),
    ("POST", WEBHOOK, followup),
    ("GET", WEBHOOK + "/messages/{message}", webhook_get),
    ("PATCH", WEBHOOK + "/messages/{message}", webhook_edit),
    ("DELETE", WEBHOOK + "/messages/{message}", webhook_delete),
    ("POST", "/guilds/{guild_id}/scheduled-events", create_scheduled_event),
    ("GET", "/guilds/{guild_id}/scheduled-events/{event_id}", get_scheduled_event),
    ("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", edit_scheduled_event),
    ("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}", delete_scheduled_event),
    ("PUT", "/applications/{application_id}/commands", put_commands),
    ("GET", "/applications/{application_id}/commands", get_commands),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", put_commands),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", get_commands),
]
"""(method, path under /api/v10, handler) of every route the fake serves; anything else is recorded as unhandled
and answered 404, which fails the test (:meth:`discordkit.Harness.assert_clean`)."""
