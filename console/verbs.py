"""The console's command table: one :class:`Verb` per command, found by the words typed.

Adding a command is one entry — a decorated coroutine in any module listed in :data:`console.VERB_MODULES`::

    @verb("player away", "away DAYS [REASON]", "mark yourself away (RULES C9)", bare=True)
    async def away(console, args):  # args: the words after the verb's name
        ...
        return "text to print"

A verb's ``name`` is its Discord path without the slash and the ``bg`` group (``roll``, ``chouette start``,
``club ledger``, ``player away``); ``bare`` says it may also be typed without its group (``ledger`` for
``club ledger``); the help lists every verb by group. Lookup (:func:`find`) takes the longest name that the typed
words begin with, then the bare names; the words ``/bg``, ``/club`` … and a leading slash are read as Discord's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

GROUPS = ("chouette", "club", "event", "player", "study")
"""Command groups besides ``/bg`` itself (``/bg chouette``, ``/club``, ``/event``, ``/player``, ``/study``)."""

GROUP_TITLES = {
    "console": "The console itself",
    "": "Games (/bg) — [game] is a match number (#2, game=2) or chouette=N, needed only when several wait for you",
    "chouette": "Chouettes (/bg chouette)",
    "club": "The club's books (/club)",
    "event": "Events (/event): knock-outs, Swiss, round robins, ladders, leagues",
    "player": "You (/player)",
    "study": "Study (/study)",
}

Handler = Callable[[Any, list[str]], Awaitable[str]]
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Verb:
    """One console command: ``name`` (its words, e.g. ``chouette start``), ``usage`` (how to type it), ``summary``
    (one line for ``help``), ``run(console, args) -> text`` (args: the words after the name), ``aliases`` (other
    names, same group), ``bare`` (may be typed without its group), ``anyone`` (no ``as NAME`` needed first) and
    ``group`` (for ``help``: the first word of ``name`` if it is a group, else ``""`` = /bg, or ``console``)."""

    name: str
    usage: str
    summary: str
    run: Handler
    aliases: tuple[str, ...] = ()
    bare: bool = False
    anyone: bool = False
    group: str = ""


VERBS: dict[str, Verb] = {}
"""Every verb by each of its names (name and aliases, lower case, words separated by one space)."""

ORDER: list[Verb] = []
"""The verbs in the order they were declared (for ``help``)."""


PARTS: dict[str, Callable[..., Any]] = {}
"""The functions that a verb module lends to the modules below it (:mod:`console.core`, :mod:`console.games`),
by name — the chouette's board, the practice engine's reply … — so that those call them without importing the
module above them (that would be an import cycle). Filled by :func:`part` as :data:`console.VERB_MODULES` are
imported (all of them, before the first line is read)."""


def part(function: F) -> F:
    """Decorator: lend ``function`` to the modules below its own, under its name (:data:`PARTS`); returns it
    unchanged."""
    PARTS[function.__name__] = function
    return function


def lent(name: str) -> Callable[..., Any]:
    """The function lent under ``name`` (:func:`part`). Raises ``LookupError`` naming it when its module was not
    imported (it is not in :data:`console.VERB_MODULES`)."""
    try:
        return PARTS[name]
    except KeyError:
        raise LookupError(f"no console part {name!r}: its module is not among console.VERB_MODULES") from None


def register(entry: Verb) -> Verb:
    """Add ``entry`` to the table under its name and aliases (and, if ``bare``, without its group). Raises
    ``ValueError`` when a name is taken by another verb."""
    names = [entry.name, *entry.aliases]
    group = entry.name.split()[0] if entry.name.split()[0] in GROUPS else ""
    if entry.bare and group:
        names += [name.split(" ", 1)[1] for name in names if " " in name]
    for name in names:
        key = " ".join(name.lower().split())
        if key in VERBS and VERBS[key].name != entry.name:
            raise ValueError(f"console verb {key!r} is taken by {VERBS[key].name!r}")
        VERBS[key] = entry
    ORDER[:] = [verb for verb in ORDER if verb.name != entry.name] + [entry]
    return entry


def verb(
    name: str,
    usage: str,
    summary: str,
    *,
    aliases: tuple[str, ...] = (),
    bare: bool = False,
    anyone: bool = False,
    group: str | None = None,
) -> Callable[[Handler], Handler]:
    """Decorator: declare ``run`` as the console verb ``name`` (see :class:`Verb`); returns ``run`` unchanged."""

    def decorate(run: Handler) -> Handler:
        """Register ``run`` under ``name``."""
        first = name.split()[0]
        register(Verb(name, usage, summary, run, aliases, bare, anyone,
                      group if group is not None else (first if first in GROUPS else "")))  # fmt: skip
        return run

    return decorate


def normal_words(words: list[str]) -> list[str]:
    """The typed words with Discord's spelling removed: ``/bg`` dropped, ``/club`` → ``club``, ``/bgroll`` →
    ``roll``, a leading ``/`` dropped."""
    words = list(words)
    if words and words[0].lower() == "/bg":
        words = words[1:]
    elif words and words[0].lower().startswith("/bg") and words[0][3:4] != "/":
        rest = words[0][3:]
        words = ([rest] if rest else []) + words[1:]
    if words and words[0].startswith("/"):
        words[0] = words[0].lstrip("/")
        if not words[0]:
            words = words[1:]
    return words


def find(words: list[str]) -> tuple[Verb | None, list[str]]:
    """The verb the typed ``words`` name (longest match first) and the words after it; ``(None, words)`` when
    none matches."""
    lowered = [word.lower() for word in words]
    for length in range(min(3, len(words)), 0, -1):
        entry = VERBS.get(" ".join(lowered[:length]))
        if entry is not None:
            return entry, list(words[length:])
    return None, list(words)


def unknown_command(words: list[str]) -> str:
    """The answer to ``words`` (Discord's spelling removed) that name no verb: the unknown word itself — the one
    after the group for ``club frobnicate`` / ``/chouette frobnicate`` — and where the list is."""
    group = words[0].lower() if words[0].lower() in GROUPS else None
    if group is None:
        return f"Unknown command {words[0][:40]!r}: type help for the list (e.g. challenge bob 5, chouette start)."
    if len(words) == 1:
        return f"{group} is a group of commands: type one of them after it (help {group} lists them)."
    return f"Unknown command {words[1][:40]!r} in /{group}: type help {group} for the list."


def help_text(group: str | None = None) -> str:
    """The help: every verb by group (only ``group``'s when given)."""
    lines = ["Commands (the /bg, /club … prefixes are optional; names stand for members: as alice, challenge bob):"]
    for key, title in GROUP_TITLES.items():
        entries = [entry for entry in ORDER if entry.group == key]
        if not entries or (group is not None and group != key):
            continue
        lines.append(f"{title}:")
        for entry in entries:
            if len(entry.usage) > 44:
                lines.append(f"  {entry.usage}\n  {'':<44} {entry.summary}")
            else:
                lines.append(f"  {entry.usage:<44} {entry.summary}")
    return "\n".join(lines)
