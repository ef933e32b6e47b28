"""Reading what was typed: comments, words, numbers, game numbers and ``key=value`` options. Every function here
either returns a value or raises :class:`~club.errors.InvalidRequestError` saying what was wrong and what would be
right — never another exception, whatever the input."""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass

from club.errors import InvalidRequestError
from club.table import TableType

MAX_ID = 2**53 - 1
"""The largest game or chouette number accepted (Discord's integer options stop there; SQLite's at 2⁶³ − 1)."""

MAX_LINE = 4_000
"""The longest line read (characters); a longer one is refused unread."""


def strip_comment(line: str) -> str:
    """``line`` without its comment: from a ``#`` at the start or after whitespace, outside quotes, that is not a
    game number (``#2``) — so ``/bg challenge bob 5   # or: money`` reads as ``/bg challenge bob 5``."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()) and not re.match(r"#\d+(\s|$)", line[index:]):
            return line[:index].rstrip()
    return line


def split_line(line: str) -> list[str]:
    """The words of ``line`` (shell-like quotes: ``'a b'`` is one word; a lone apostrophe as in ``don't`` stays a
    letter). Raises :class:`InvalidRequestError` for a line over :data:`MAX_LINE` characters or with NUL bytes."""
    if len(line) > MAX_LINE:
        raise InvalidRequestError(f"that line is {len(line):,} characters long; commands are at most {MAX_LINE:,}")
    if "\x00" in line:
        raise InvalidRequestError("that line holds a NUL character: type the command again in plain text")
    try:
        return shlex.split(line)
    except ValueError:
        return line.split()  # an unbalanced quote: read it as plain words


def number(text: str, what: str = "a game", *, low: int = 1, high: int = MAX_ID) -> int:
    """``text`` as a whole number from ``low`` to ``high``. Raises :class:`InvalidRequestError` naming ``what``."""
    cleaned = text.strip().lstrip("#").replace("_", "")
    if not re.fullmatch(r"[0-9]{1,19}", cleaned) or not low <= int(cleaned) <= high:
        raise InvalidRequestError(f"{what} is a whole number from {low:,} to {high:,}, not {text[:40]!r}")
    return int(cleaned)


def member_name(text: str) -> str:
    """A typed member name as the club knows it: spaces around and a leading ``@`` (Discord's mention, ``@bob``)
    dropped. Raises :class:`InvalidRequestError` for an empty name, one over 100 characters, one with a character
    that cannot be printed, or one of several words (a name is one word, so every command can name him again)."""
    name = text.strip().lstrip("@").strip()
    if not name or len(name) > 100 or not name.isprintable():
        raise InvalidRequestError(f"a member is a name of 1–100 printable characters, like bob — not {text[:40]!r}")
    if len(name.split()) > 1:
        example = "_".join(name.split())[:40]
        raise InvalidRequestError(f"a member's name is one word (commands read the next word as something else), "
                                  f"like {example} — not {name[:40]!r}")  # fmt: skip
    return name


def game_number(text: str, kind: str = TableType.MATCH) -> int:
    """``text`` (``2``, ``#2``) as the number of a game (``kind`` ``match``) or a chouette, 1 to :data:`MAX_ID`.
    Raises :class:`InvalidRequestError` saying what the number is (the one ``games`` lists), not its bounds."""
    try:
        return number(text)
    except InvalidRequestError:
        chouette = kind == TableType.CHOUETTE
        example = "chouette=1" if chouette else "#2 or game=2"
        raise InvalidRequestError(f"a {'chouette' if chouette else 'game'} is named by its number as games "
                                  f"lists them (e.g. {example}), not {text[:40]!r}") from None  # fmt: skip


def hours(text: str, what: str = "a time") -> float:
    """``6h``, ``2d``, ``90m``, ``1.5`` (hours), ``30s`` → seconds. Raises :class:`InvalidRequestError`."""
    match = re.fullmatch(
        r"\s*([0-9]{1,6}(?:\.[0-9]{1,6})?)\s*(s|sec|m|min|h|hours?|d|days?|w|weeks?)?\s*", text.lower()
    )
    if match is None:
        raise InvalidRequestError(f"{what} is a number with a unit, like 6h, 2d, 90m or 1w — not {text[:40]!r}")
    unit = (match.group(2) or "h")[0]
    return float(match.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[unit]


@dataclass(frozen=True, slots=True)
class Target:
    """What a command names: ``kind`` ``match`` or ``chouette`` and its ``id``."""

    kind: TableType
    id: int

    def __str__(self) -> str:
        return f"#{self.id}" if self.kind == TableType.MATCH else f"chouette={self.id}"


_TARGET = re.compile(r"^(?:(game|match|chouette|ch)[=:]|#)(.*)$", re.IGNORECASE)


def take_target(args: list[str], *, trailing_number: bool = True) -> tuple[Target | None, list[str]]:
    """Split a game token off ``args``: ``#N``, ``game=N`` / ``game:N`` (a match), ``chouette=N`` (a chouette), or
    (``trailing_number``) a last word that is a number. Returns ``(target or None, the other words)``. Raises
    :class:`InvalidRequestError` for a bad number or two targets."""
    rest, found = [], None
    for token in args:
        match = _TARGET.match(token)
        if match is None or (token.startswith("#") and not match.group(2)):
            rest.append(token)
            continue
        kind = TableType.CHOUETTE if (match.group(1) or "").lower() in ("chouette", "ch") else TableType.MATCH
        target = Target(kind, game_number(match.group(2), kind))
        if found is not None and found != target:
            raise InvalidRequestError(f"name one game, not {found} and {target}")
        found = target
    if found is None and trailing_number and rest and re.fullmatch(r"[0-9_]+", rest[-1]):
        found = Target(TableType.MATCH, game_number(rest.pop()))
    return found, rest


def options(args: list[str], known: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """Split Discord-style options ``name=value`` / ``name:value`` (``name`` in ``known``) off ``args``; returns
    ``(options, the other words)``."""
    found, rest = {}, []
    for token in args:
        match = re.match(r"^([a-z_]+)[=:](.*)$", token, re.IGNORECASE)
        if match is not None and match.group(1).lower() in known:
            found[match.group(1).lower()] = match.group(2)
        else:
            rest.append(token)
    return found, rest


def toml_table(text: str, what: str = "rule_overrides") -> dict:
    """A TOML inline table such as ``{ cube_cap = 64 }`` (the README's form; JSON's ``{"cube_cap": 64}`` is read
    too). Raises :class:`InvalidRequestError`."""
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}")):
        raise InvalidRequestError(f"{what} is a TOML inline table, like {{ cube_cap = 64 }} — not {text[:60]!r}")
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        pass
    try:
        import json

        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise InvalidRequestError(
            f"{what} is a TOML inline table, like {{ cube_cap = 64 }} or {{ jacoby = false, beavers = true }} — "
            f"{text[:60]!r} is not one"
        )
    return value
