"""Discord's documented limits, as checks of the JSON the bot sends (used by :mod:`discordkit` on every request).

Each ``check_*`` function takes a payload exactly as it goes over the wire and returns a list of violations in words
(empty when the payload is within the limits). Sources: discord.com/developers/docs — "Application Commands"
(names, descriptions, options, choices, 4,000 characters per command), "Message" (content 2,000, embeds and their
6,000-character total, 10 files), "Embed Limits", "Component Reference" (5 action rows, 5 buttons a row, a select
alone in its row with at most 25 options, custom_id 1–100, labels 80, placeholders 150), "Interactions: Receiving and
Responding" (response types per interaction type, autocomplete ≤ 25 choices of the option's type).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

NAME = re.compile(r"^[-_'\w]{1,32}$")
CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED = {"title": 256, "description": 4096}
FIELDS, FIELD_NAME, FIELD_VALUE = 25, 256, 1024
FOOTER, AUTHOR = 2048, 256
ROWS, BUTTONS_A_ROW, OPTIONS = 5, 5, 25
CUSTOM_ID, LABEL, PLACEHOLDER, OPTION_TEXT = 100, 80, 150, 100
FILES = 10
UPLOAD_BYTES = 10 * 1024 * 1024
POLL_QUESTION = 300
POLL_ANSWERS = 10
POLL_ANSWER = 55
POLL_HOURS = (1, 768)
"""A poll: its question (300 characters), at most 10 answers of 55 characters each, open 1 to 768 hours (32 days);
a message with a poll may not be edited into another poll."""
COMMAND_TOTAL, COMMAND_DESCRIPTION, CHOICES, COMMAND_OPTIONS = 4000, 100, 25, 25
CHOICE_NAME, CHOICE_VALUE = 100, 100
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
OPTION_TYPES = {3: str, 4: int, 5: bool, 6: str, 7: str, 8: str, 9: str, 10: float, 11: str}
"""Option type → the Python type of a choice value (4 integer, 10 number; the rest are strings or snowflakes)."""
ACTION_ROW, BUTTON, LINK_STYLE = 1, 2, 5
SELECTS = {3, 5, 6, 7, 8}


# -- the command tree --------------------------------------------------------------------------------------------------
def _command_chars(node: dict) -> int:
    """Characters Discord counts towards a command's 4,000: names, descriptions, choice names and values."""
    total = len(node.get("name", "")) + len(node.get("description", ""))
    for choice in node.get("choices") or ():
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    for option in node.get("options") or ():
        total += _command_chars(option)
    return total


def command_size(command: dict) -> int:
    """The size of one top-level command as Discord counts it (must be ≤ 4,000)."""
    return _command_chars(command)


def check_command(command: dict, *, where: str = "") -> list[str]:
    """A top-level command payload (``PUT /applications/{id}/commands`` entry): names, descriptions, ≤ 25 options
    and choices at every level, subcommand nesting, required options first, 4,000 characters in all."""
    where = where or f"/{command.get('name')}"
    problems = _check_option_node(command, where, depth=0)
    size = command_size(command)
    if size > COMMAND_TOTAL:
        problems.append(f"{where}: {size} characters (Discord allows {COMMAND_TOTAL} per command)")
    return problems


def _check_option_node(node: dict, where: str, *, depth: int) -> list[str]:
    problems = []
    name, description = node.get("name", ""), node.get("description", "")
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{where}: name {name!r} is not 1–32 lower-case letters, digits, - or _")
    if not 1 <= len(description) <= COMMAND_DESCRIPTION:  # every command and option has one
        problems.append(f"{where}: description of {len(description)} characters (1–{COMMAND_DESCRIPTION})")
    options = node.get("options") or []
    if len(options) > COMMAND_OPTIONS:
        problems.append(f"{where}: {len(options)} options or subcommands (at most {COMMAND_OPTIONS})")
    kinds = {option.get("type") for option in options}
    if kinds & {SUB_COMMAND, SUB_COMMAND_GROUP} and kinds - {SUB_COMMAND, SUB_COMMAND_GROUP}:
        problems.append(f"{where}: subcommands mixed with plain options")
    seen_optional = False
    names = [option.get("name") for option in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: duplicate option names {names}")
    for option in options:
        kind = option.get("type")
        here = f"{where} {option.get('name')}"
        if kind == SUB_COMMAND_GROUP and depth > 0:
            problems.append(f"{here}: a subcommand group nested in a group")
        if kind == SUB_COMMAND and depth > 1:
            problems.append(f"{here}: a subcommand nested too deep")
        if kind not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if option.get("required"):
                if seen_optional:
                    problems.append(f"{here}: a required option after an optional one")
            else:
                seen_optional = True
            problems.extend(_check_choices(option, here))
        problems.extend(_check_option_node(option, here, depth=depth + 1))
    return problems


def _check_choices(option: dict, where: str) -> list[str]:
    choices = option.get("choices") or []
    problems = []
    if len(choices) > CHOICES:
        problems.append(f"{where}: {len(choices)} choices (at most {CHOICES})")
    if choices and option.get("autocomplete"):
        problems.append(f"{where}: both choices and autocomplete")
    problems.extend(check_choices(choices, option.get("type"), where))
    return problems


def check_choices(choices: Iterable[dict], option_type: int | None, where: str) -> list[str]:
    """Choices (of a command option, or an autocomplete answer): names 1–100, values of the option's type, strings
    ≤ 100."""
    problems = []
    expected = OPTION_TYPES.get(option_type or 3, str)
    for choice in choices:
        name, value = choice.get("name", ""), choice.get("value")
        if not 1 <= len(str(name)) <= CHOICE_NAME:
            problems.append(f"{where}: choice name {name!r} of {len(str(name))} characters (1–{CHOICE_NAME})")
        ok = isinstance(value, expected) and not (expected is not bool and isinstance(value, bool))
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            problems.append(f"{where}: choice value {value!r} is not a {expected.__name__} (option type {option_type})")
        elif isinstance(value, str) and len(value) > CHOICE_VALUE:
            problems.append(f"{where}: choice value of {len(value)} characters (at most {CHOICE_VALUE})")
    return problems


def check_tree(commands: list[dict]) -> list[str]:
    """A whole command tree: every command checked, names unique, at most 100 chat-input commands."""
    problems = [problem for command in commands for problem in check_command(command)]
    names = [command.get("name") for command in commands]
    if len(set(names)) != len(names):
        problems.append(f"duplicate top-level commands: {names}")
    if len(commands) > 100:
        problems.append(f"{len(commands)} top-level commands (at most 100)")
    return problems


# -- messages ----------------------------------------------------------------------------------------------------------
def check_message(payload: dict, files: dict[str, int] | None = None, *, kept: Iterable[str] = ()) -> list[str]:
    """A message payload (create, edit, interaction response, followup): content, embeds, components, files.
    ``files`` maps each uploaded file name to its size in bytes; ``kept`` are the names of attachments the edit
    keeps (an ``attachment://`` reference must name one of the two)."""
    problems = []
    files = files or {}
    nonce = payload.get("nonce")
    if nonce is not None and len(str(nonce)) > 25:
        problems.append(f"nonce of {len(str(nonce))} characters (at most 25)")
    content = payload.get("content")
    if content is not None and len(content) > CONTENT:
        problems.append(f"content of {len(content)} characters (at most {CONTENT})")
    embeds = payload.get("embeds") or []
    if len(embeds) > EMBEDS:
        problems.append(f"{len(embeds)} embeds (at most {EMBEDS})")
    total = 0
    names = set(files) | set(kept)
    for attachment in payload.get("attachments") or []:
        if attachment.get("filename"):
            names.add(attachment["filename"])
    for number, embed in enumerate(embeds):
        found, size = _check_embed(embed, f"embed {number}")
        problems.extend(found)
        total += size
        for key in ("image", "thumbnail"):
            url = (embed.get(key) or {}).get("url", "")
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                problems.append(f"embed {number} {key} refers to {url}, which is not uploaded ({sorted(names)})")
    if total > EMBED_TOTAL:
        problems.append(f"embeds of {total} characters in all (at most {EMBED_TOTAL})")
    problems.extend(check_components(payload.get("components")))
    if payload.get("poll") is not None:
        problems.extend(check_poll(payload["poll"]))
    if len(files) > FILES:
        problems.append(f"{len(files)} files (at most {FILES})")
    for name, size in files.items():
        if size > UPLOAD_BYTES:
            problems.append(f"file {name} of {size} bytes (at most {UPLOAD_BYTES})")
    return problems


def check_poll(poll: dict) -> list[str]:
    """A poll create payload (question, answers, duration in hours, multiselect) against Discord's limits."""
    problems = []
    question = (poll.get("question") or {}).get("text") or ""
    if not question or len(question) > POLL_QUESTION:
        problems.append(f"poll question of {len(question)} characters (1 to {POLL_QUESTION})")
    answers = poll.get("answers") or []
    if not 1 <= len(answers) <= POLL_ANSWERS:
        problems.append(f"poll of {len(answers)} answers (1 to {POLL_ANSWERS})")
    for number, answer in enumerate(answers):
        text = (answer.get("poll_media") or {}).get("text") or ""
        if not text or len(text) > POLL_ANSWER:
            problems.append(f"poll answer {number} of {len(text)} characters (1 to {POLL_ANSWER})")
    hours = poll.get("duration", 24)
    if not (isinstance(hours, int | float) and POLL_HOURS[0] <= hours <= POLL_HOURS[1] and hours == int(hours)):
        problems.append(f"poll duration {hours!r} (whole hours from {POLL_HOURS[0]} to {POLL_HOURS[1]})")
    return problems


def _check_embed(embed: dict, where: str) -> tuple[list[str], int]:
    problems, size = [], 0
    for key, limit in EMBED.items():
        text = embed.get(key) or ""
        size += len(text)
        if len(text) > limit:
            problems.append(f"{where}: {key} of {len(text)} characters (at most {limit})")
    fields = embed.get("fields") or []
    if len(fields) > FIELDS:
        problems.append(f"{where}: {len(fields)} fields (at most {FIELDS})")
    for field in fields:
        name, value = field.get("name") or "", field.get("value") or ""
        size += len(name) + len(value)
        if not 1 <= len(name) <= FIELD_NAME:
            problems.append(f"{where}: field name of {len(name)} characters (1–{FIELD_NAME})")
        if not 1 <= len(value) <= FIELD_VALUE:
            problems.append(f"{where}: field value of {len(value)} characters (1–{FIELD_VALUE})")
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    size += len(footer) + len(author)
    if len(footer) > FOOTER:
        problems.append(f"{where}: footer of {len(footer)} characters (at most {FOOTER})")
    if len(author) > AUTHOR:
        problems.append(f"{where}: author of {len(author)} characters (at most {AUTHOR})")
    return problems, size


def check_components(rows: list[dict] | None) -> list[str]:
    """Action rows: at most 5, each with 1–5 buttons or exactly one select (≤ 25 options); custom_ids 1–100 and
    unique in the message; labels ≤ 80; a button has a label or an emoji."""
    if not rows:
        return []
    problems = []
    if len(rows) > ROWS:
        problems.append(f"{len(rows)} action rows (at most {ROWS})")
    custom_ids: list[str] = []
    for number, row in enumerate(rows):
        where = f"row {number}"
        if row.get("type") != ACTION_ROW:
            problems.append(f"{where}: a top-level component of type {row.get('type')} (expected an action row)")
            continue
        items = row.get("components") or []
        if not items:
            problems.append(f"{where}: an empty action row")
        selects = [item for item in items if item.get("type") in SELECTS]
        if selects and len(items) > 1:
            problems.append(f"{where}: a select shares its row with {len(items) - 1} other component(s)")
        if not selects and len(items) > BUTTONS_A_ROW:
            problems.append(f"{where}: {len(items)} buttons (at most {BUTTONS_A_ROW})")
        for item in items:
            problems.extend(_check_item(item, where, custom_ids))
    if len(set(custom_ids)) != len(custom_ids):
        problems.append(f"custom_ids repeated in one message: {custom_ids}")
    return problems


def _check_item(item: dict, where: str, custom_ids: list[str]) -> list[str]:
    problems = []
    kind = item.get("type")
    if kind == BUTTON:
        label = item.get("label") or ""
        if len(label) > LABEL:
            problems.append(f"{where}: button label of {len(label)} characters (at most {LABEL})")
        if not label and not item.get("emoji"):
            problems.append(f"{where}: a button with neither label nor emoji")
        if item.get("style") == LINK_STYLE:
            if not item.get("url") or item.get("custom_id"):
                problems.append(f"{where}: a link button needs a url and no custom_id")
            return problems
    elif kind in SELECTS:
        options = item.get("options") or []
        if kind == 3 and not 1 <= len(options) <= OPTIONS:
            problems.append(f"{where}: a select with {len(options)} options (1–{OPTIONS})")
        values = [option.get("value") for option in options]
        if len(set(values)) != len(values):
            problems.append(f"{where}: select option values repeated")
        for option in options:
            for key in ("label", "value", "description"):
                text = option.get(key)
                if text is not None and not 1 <= len(text) <= OPTION_TEXT:
                    problems.append(f"{where}: select option {key} of {len(text)} characters (1–{OPTION_TEXT})")
        placeholder = item.get("placeholder") or ""
        if len(placeholder) > PLACEHOLDER:
            problems.append(f"{where}: placeholder of {len(placeholder)} characters (at most {PLACEHOLDER})")
        low, high = item.get("min_values", 1), item.get("max_values", 1)
        if not (0 <= low <= high <= OPTIONS) or (kind == 3 and high > len(options)):
            problems.append(f"{where}: min_values {low} / max_values {high} with {len(options)} options")
    else:
        problems.append(f"{where}: a component of type {kind} inside an action row")
        return problems
    custom_id = item.get("custom_id") or ""
    if not 1 <= len(custom_id) <= CUSTOM_ID:
        problems.append(f"{where}: custom_id of {len(custom_id)} characters (1–{CUSTOM_ID})")
    custom_ids.append(custom_id)
    return problems


def check_thread_name(name: str) -> list[str]:
    """A thread's name: 1–100 characters."""
    return [] if 1 <= len(name or "") <= 100 else [f"thread name of {len(name or '')} characters (1–100)"]
