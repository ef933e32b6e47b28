"""The ``/event`` verbs of the console: the whole life of a club event — create, join, leave, check in, start, the
bracket, standings, the pairings and why, your next match, reports, withdrawals, ladder challenges and the
organiser's decisions — each the :class:`~club.events.service.EventService` call the cog makes. Event matches are
ordinary matches: accept, move, resign … as any; ``wait`` lets their deadlines pass. An event's name with spaces
is quoted: ``event join 'Spring Open'``."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from club.errors import InvalidRequestError
from club.events import pictures
from club.events.formats import EventError, Format, Settings, check_options
from club.events.service import EventService, EventUpdate
from club.events.texts import bracket_text, format_words, pairings_text, standings_text, summary

from .core import Console, file_problem
from .parse import options
from .verbs import verb

CREATE_OPTIONS = ("lengths", "final", "rounds", "out", "out_after", "consolation", "cycles", "size", "division_size",
                  "up", "down", "reach", "hours", "cap", "seeding", "rules", "entry")  # fmt: skip
"""``event create``'s options: the short forms and Discord's names (``out_after``, ``division_size``) alike."""
FORMATS = {"single": Format.SINGLE, "knockout": Format.SINGLE, "double": Format.DOUBLE,
           "roundrobin": Format.ROUND_ROBIN, "round_robin": Format.ROUND_ROBIN, "rr": Format.ROUND_ROBIN,
           "swiss": Format.SWISS, "moreswiss": Format.SWISS, "ladder": Format.LADDER, "league": Format.LEAGUE}  # fmt: skip


def _me(console: Console) -> int:
    """The acting member (every event verb needs ``as NAME`` first)."""
    return console.member


def _int(value: str, what: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise InvalidRequestError(f"{what} is a whole number, not {value[:20]!r}") from None


def settings_of(kind: str, named: dict[str, str]) -> Settings:
    """The event settings from ``event create``'s words (see its usage). Raises :class:`InvalidRequestError`."""
    fmt = FORMATS.get(kind.lower())
    if fmt is None:
        raise InvalidRequestError(f"the format is one of single, double, roundrobin, swiss, ladder, league — not "
                                  f"{kind[:20]!r}")  # fmt: skip
    values: dict = {"format": fmt}
    given = {}
    if "lengths" in named:
        values["lengths"] = tuple(_int(n, "a match length") for n in named["lengths"].split(",") if n)
    for key, field in (("final", "final_length"), ("rounds", "rounds"), ("out", "out_after"),
                       ("out_after", "out_after"), ("cycles", "cycles"), ("size", "division_size"),
                       ("division_size", "division_size"), ("up", "up"), ("down", "down"), ("reach", "reach"),
                       ("hours", "round_hours")):  # fmt: skip
        if key in named:
            values[field], given[field] = _int(named[key], key), key
    if "consolation" in named:
        values["consolation"] = named["consolation"].lower() in ("", "yes", "true", "1", "on")
        given["consolation"] = "consolation"
    if kind.lower() == "moreswiss" and "out_after" not in values:
        values["out_after"] = 2
    try:
        check_options(fmt, given)
        return Settings(**values)
    except EventError as error:
        raise InvalidRequestError(str(error)) from None


def said(console: Console, update: EventUpdate) -> str:
    """An update in the console's words (member names in place of mentions)."""
    text = update.text
    for member, name in update.names.items():
        text = text.replace(f"<@{member}>", name)
    return text


@verb("event create", "event create NAME FORMAT [lengths=5,5,7] [final=11] [rounds=5] [out=2] [consolation=yes] "
      "[cycles=2] [size=8] [up=2] [down=2] [reach=3] [hours=168] [cap=16] [seeding=random] [rules=…] [entry=0]",
      "create an event (organisers): single, double, roundrobin, swiss, moreswiss, ladder, league")  # fmt: skip
async def create(console: Console, args: list[str]) -> str:
    """``event create NAME FORMAT [options]``."""
    named, rest = options(args, CREATE_OPTIONS)
    unknown = [word.split("=")[0].split(":")[0] for word in rest[1:] if re.match(r"^[a-z_]+[=:]", word, re.I)]
    if unknown:
        raise InvalidRequestError(f"event create has no option {unknown[0]!r}; the options are "
                                  f"{', '.join(CREATE_OPTIONS)}.")  # fmt: skip
    if len(rest) != 2:
        raise InvalidRequestError("event create NAME FORMAT [options], e.g. event create 'Spring Open' double "
                                  "lengths=5,5,7 final=11")  # fmt: skip
    settings = settings_of(rest[1], named)
    update = await console.events.create(
        console.guild_id, _me(console), rest[0], settings, organiser=console.admin,
        cap=_int(named.get("cap", "0"), "cap"), seeding=named.get("seeding", "rating"), rules=named.get("rules"),
        entry=_int(named.get("entry", "0"), "entry"),
    )  # fmt: skip
    return said(console, update) + "\n" + summary(update.event, await console.events.names(update.event.entrants))


def _one_name(args: list[str], usage: str) -> str:
    if len(args) != 1:
        raise InvalidRequestError(f"{usage} (quote a name with spaces: 'Spring Open')")
    return args[0]


def _by_name(word: str, *, organiser: bool = False):
    """The verb ``event WORD NAME``: the member's :class:`EventService` call of that name on event NAME."""

    async def run(console: Console, args: list[str]) -> str:
        name = _one_name(args, f"event {word} NAME")
        call = getattr(console.events, word)
        options = {"organiser": console.admin} if organiser else {}
        return said(console, await call(console.guild_id, name, _me(console), **options))

    run.__doc__ = f"``event {word} NAME``."
    return run


for _word, _summary, _organiser in (
    ("join", "join an event (or its waiting list)", False),
    ("leave", "leave an event before it starts", False),
    ("checkin", "check in to an event", False),
    ("start", "start an event (its organiser): seed the field, make round 1", True),
    ("withdraw", "withdraw from a running event (your matches are forfeited)", False),
):
    verb(f"event {_word}", f"event {_word} NAME", _summary)(_by_name(_word, organiser=_organiser))


@verb("event open-checkin", "event open-checkin NAME HOURS", "open check-in (organisers): only those who check in "
      "are seeded")  # fmt: skip
async def open_checkin(console: Console, args: list[str]) -> str:
    """``event open-checkin NAME HOURS``."""
    if len(args) != 2:
        raise InvalidRequestError("event open-checkin NAME HOURS, e.g. event open-checkin Cup 24")
    update = await console.events.open_checkin(console.guild_id, args[0], _me(console), _int(args[1], "hours"),
                                               organiser=console.admin)  # fmt: skip
    return said(console, update)


def _about_member(usage: str, example: str, call: Callable[[EventService], Callable[..., Awaitable[EventUpdate]]]):
    """The verb ``event WORD NAME MEMBER``: the member's ``call`` (of the :class:`EventService`) on event NAME about
    another member (whom he challenges, who won)."""

    async def run(console: Console, args: list[str]) -> str:
        if len(args) != 2:
            raise InvalidRequestError(f"{usage}, e.g. {example}")
        other = await console.known(args[1])
        return said(console, await call(console.events)(console.guild_id, args[0], _me(console), other))

    run.__doc__ = f"``{usage}``."
    return run


verb("event challenge", "event challenge NAME MEMBER", "challenge someone up to 3 places above you on a ladder")(
    _about_member("event challenge NAME MEMBER", "event challenge Ladder bob", lambda events: events.challenge)
)
verb("event report", "event report NAME WINNER", "report your event match's result (the match's own result decides)")(
    _about_member("event report NAME WINNER", "event report 'Spring Open' alice", lambda events: events.report)
)


@verb("event decide", "event decide NAME KEY a|b|replay|both_out",
      "the organiser decides an unplayed match: award it, replay it, or both out")  # fmt: skip
async def decide(console: Console, args: list[str]) -> str:
    """``event decide NAME KEY DECISION``."""
    if len(args) != 3:
        raise InvalidRequestError("event decide NAME KEY a|b|replay|both_out, e.g. event decide Cup W1-2 a")
    update = await console.events.decide(console.guild_id, args[0], _me(console), args[1].upper(), args[2].lower(),
                                         organiser=console.admin)  # fmt: skip
    return said(console, update)


@verb("event close", "event close NAME", "end a ladder or league season (or call an event off)")
async def close(console: Console, args: list[str]) -> str:
    """``event close NAME``."""
    name = _one_name(args, "event close NAME")
    update = await console.events.close(console.guild_id, name, _me(console), organiser=console.admin)
    return said(console, update) or f"{update.event.name} is {update.event.status.value}."


@verb("event season", "event season NAME NEW_NAME", "start a league's next season: 2 up and 2 down per division")
async def season(console: Console, args: list[str]) -> str:
    """``event season NAME NEW_NAME``."""
    if len(args) != 2:
        raise InvalidRequestError("event season NAME NEW_NAME, e.g. event season 'League 1' 'League 2'")
    update = await console.events.next_season(console.guild_id, args[0], _me(console), args[1],
                                              organiser=console.admin)  # fmt: skip
    return said(console, update)


@verb("event export", "event export NAME [FILE.zip]", "results as a ZIP: results.csv, event.json, the .mat files")
async def export(console: Console, args: list[str]) -> str:
    """``event export NAME [FILE]`` (default: event-ID.zip in the current folder)."""
    if not 1 <= len(args) <= 2:
        raise InvalidRequestError("event export NAME [FILE.zip], e.g. event export Cup cup.zip")
    filename, data = await console.events.export(console.guild_id, args[0])
    path = Path(args[1] if len(args) == 2 else filename)
    try:
        path.write_bytes(data)
    except OSError as error:
        raise InvalidRequestError(file_problem(error, path)) from None
    return f"Written {path} ({len(data):,} bytes): results.csv, event.json and the matches' .mat files."


@verb("event list", "event list", "the club's events")
async def events_list(console: Console, args: list[str]) -> str:
    """``event list``."""
    records = await console.events.named(console.guild_id)
    if not records:
        return "This club has no events yet: an organiser creates one with event create NAME FORMAT."
    return "\n".join(f"{r.name} — {r.format.replace('_', ' ')}, {r.status}" for r in records)


@verb("event show", "event show NAME", "an event: its format, status and field")
async def show(console: Console, args: list[str]) -> str:
    """``event show NAME``."""
    event = await console.events.find(console.guild_id, _one_name(args, "event show NAME"))
    names = await console.events.names(event.entrants + event.waiting)
    return summary(event, names)


@verb("event bracket", "event bracket NAME", "the bracket (or the latest pairings), results so far")
async def bracket(console: Console, args: list[str]) -> str:
    """``event bracket NAME``."""
    event = await console.events.find(console.guild_id, _one_name(args, "event bracket NAME"))
    names = await console.events.names(event.entrants)
    lines = [bracket_text(event, names)]
    if console.images is not None and event.state is not None and event.format in (Format.SINGLE, Format.DOUBLE):
        lines.append(await _image(console, "bracket", event, names))
    return "\n".join(line for line in lines if line)


@verb("event pairings", "event pairings NAME [ROUND]", "a round's pairings and why each was made")
async def pairings(console: Console, args: list[str]) -> str:
    """``event pairings NAME [ROUND]``."""
    if not 1 <= len(args) <= 2:
        raise InvalidRequestError("event pairings NAME [ROUND], e.g. event pairings Swiss 2")
    round_no = _int(args[1], "a round") if len(args) == 2 else None
    event = await console.events.pairings(console.guild_id, args[0], round_no)
    return pairings_text(event, await console.events.names(event.entrants), round_no)


@verb("event standings", "event standings NAME", "the standings with their tie-breaks, each place explained")
async def standings(console: Console, args: list[str]) -> str:
    """``event standings NAME``."""
    event, tables = await console.events.standings(console.guild_id, _one_name(args, "event standings NAME"))
    names = await console.events.names(event.entrants)
    if event.format is Format.LEAGUE:
        text = "\n".join(standings_text(f"{event.name} — division {i}", rows, names)
                         for i, rows in enumerate(tables, 1))  # fmt: skip
    else:
        text = standings_text(f"{event.name} — standings", tables[0], names)
    if console.images is not None:
        text += "\n" + await _image(console, "standings", event, names)
    return text.rstrip()


@verb("event my", "event my", "your next event matches: opponent, match number, deadline")
async def my(console: Console, args: list[str]) -> str:
    """``event my``."""
    mine = await console.events.my(console.guild_id, _me(console))
    if not mine:
        return "You have no event match to play."
    lines = []
    for item in mine:
        where = f"match #{item.match_id}" if item.match_id else "its match is being made"
        lines.append(f"{item.event}: {item.pairing.key} against {item.opponent_name} — {where}, "
                     f"deadline <t:{int(item.deadline)}:f>.")  # fmt: skip
    return "\n".join(lines)


async def _image(console: Console, kind: str, event, names) -> str:
    theme = console.options.theme
    if kind == "bracket":
        data = await pictures.bracket_png_async(event.state, names, event.name, theme=theme)
        return console.write_png(f"event-{event.id}-bracket.png", data)
    _, tables = await console.events.standings(console.guild_id, event.name)
    lines = []
    marks = pictures.league_marks(tables, event.settings.up, event.settings.down) if len(tables) > 1 else [{}]
    for number, (rows, mark) in enumerate(zip(tables, marks, strict=True), 1):
        title = f"{event.name} — division {number}" if len(tables) > 1 else f"{event.name} — standings"
        table = pictures.standings_table(title, rows, names, format_words(event), marks=mark)
        data = await pictures.table_png_async(table, theme=theme)
        lines.append(console.write_png(f"event-{event.id}-standings-{number}.png", data))
    return "\n".join(lines)
