"""Events in words, for every front end: the summary line, the bracket, the standings with their tie-breaks, the
pairings of a round with why each was made. Pure functions of an :class:`~club.events.log.Event` and the members'
names; no Discord markup beyond plain text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..wording import plural
from .formats import FORMAT_WORDS, Format, How, Pairing, Result, bracket_view
from .log import Event, Status
from .standings import Row

STAGES = {"W": "Winners' bracket", "L": "Losers' bracket", "C": "Consolation", "GF": "Grand final"}


def format_words(event: Event) -> str:
    """The format with its options in words: "double elimination, 5-point matches, 11-point final"."""
    s = event.settings
    words = FORMAT_WORDS[s.format]
    if s.format is Format.SINGLE and s.consolation:
        words += " with progressive consolation"
    if s.format in (Format.ROUND_ROBIN, Format.LEAGUE) and s.cycles == 2:
        words = "double " + words
    if s.format is Format.SWISS:
        parts = [plural(s.rounds, "round")] if s.rounds else []
        if s.out_after:
            parts.append(f"MoreSwiss: out at {plural(s.out_after, 'loss', 'losses')}")
        words += f" ({', '.join(parts)})"
    if s.format is Format.LEAGUE:
        words += f", divisions of about {s.division_size}, {s.up} up and {s.down} down"
    if s.format is Format.LADDER:
        words += f", challenges up to {plural(s.reach, 'place')} above"
    lengths = ", ".join(str(n) for n in s.lengths)
    words += f"; matches to {lengths} point{'s' if s.lengths != (1,) else ''}"
    if s.final_length:
        words += f", the final to {s.final_length}"
    return words + f"; {s.round_hours} h a round"


def summary(event: Event, names: Mapping[int, str]) -> str:
    """One paragraph: name, format, status, the field (or waiting list)."""
    head = f"{event.name} — {format_words(event)}."
    if event.status is Status.OPEN:
        field_ = ", ".join(names.get(p, str(p)) for p in event.entrants) or "nobody yet"
        text = f"{head} Open: {plural(len(event.entrants), 'player')} ({field_})"
        if event.cap:
            text += f", cap {event.cap}"
        if event.waiting:
            text += f"; waiting list: {', '.join(names.get(p, str(p)) for p in event.waiting)}"
        if event.checkin_until is not None:
            text += f"; checked in: {len(event.checked_in)}"
        return text + "."
    state = event.state
    assert state is not None
    pending = [p for p in state.pending() if p.b is not None]
    text = f"{head} {event.status.value.capitalize()}: {plural(len(state.seeds), 'player')}"
    if event.status is Status.RUNNING:
        text += f", {plural(len(pending), 'match', 'matches')} to play"
    if event.entry:
        text += f"; entry {event.entry}"
    return text + "."


def name_of(names: Mapping[int, str], player: int | None) -> str:
    """A player's name for people: his display name (else his id), ``bye`` for a bracket's empty slot (-1), ``?``
    for a slot not known yet (None)."""
    if player is None:
        return "?"
    if player == -1:
        return "bye"
    return names.get(player, str(player))


def bracket_text(event: Event, names: Mapping[int, str]) -> str:
    """The bracket, stage by stage and round by round: each match with its players as known (``?`` not yet,
    ``bye``; a match both of whose lines are empty says nobody reaches it), its winner and score once decided. An undecided match shows nothing more (no spoilers)."""
    state = event.state
    if state is None:
        return _not_started(event, "no bracket yet")
    if event.format not in (Format.SINGLE, Format.DOUBLE):
        return pairings_text(event, names)
    lines = [f"{event.name} — bracket"]
    stage = ""
    round_ = 0
    for match, a, b, result in bracket_view(state):
        if match.stage != stage or match.round != round_:
            stage, round_ = match.stage, match.round
            title = STAGES[stage] if stage == "GF" else f"{STAGES[stage]}, round {round_}"
            if match.key == "GF2":
                title = "Grand final, reset"
            lines.append(f"{title}:")
        if a == b == -1 and result is None:
            lines.append(f"  {match.key:<6} no match: nobody reaches it")
            continue
        if -1 in (a, b) and result is None:
            lines.append(f"  {match.key:<6} {name_of(names, a if b == -1 else b)} (bye)")
            continue
        line = f"  {match.key:<6} {name_of(names, a)} v {name_of(names, b)}"
        if result is not None:
            line += "  — " + result_words(result, names)
        lines.append(line)
    return "\n".join(lines)


def _not_started(event: Event, so: str) -> str:
    if event.status is Status.CANCELLED:
        return f"{event.name} was called off."
    return f"{event.name} has not started: {so}."


def result_words(result: Result, names: Mapping[int, str]) -> str:
    """A result in words: "Ann won 5–3", "Ann won (forfeit, not rated)", "both out", "Ann: bye"."""
    if result.how is How.BOTH_OUT:
        return "both out"
    if result.how is How.BYE:
        return f"{name_of(names, result.winner)}: bye"
    if result.how is How.PLAYED:
        return f"{name_of(names, result.winner)} won {result.won}–{result.lost}"
    return f"{name_of(names, result.winner)} won ({result.how.value}, not rated)"


def pairings_text(event: Event, names: Mapping[int, str], round_no: int | None = None) -> str:
    """The pairings of round ``round_no`` (default: the latest round of every stage) with their results and why
    each was made (score group, rematch avoided, bye); a round the event does not have is refused before
    (:meth:`~club.events.service.EventService.pairings`)."""
    state = event.state
    if state is None:
        return _not_started(event, "no pairings yet")
    pairings = list(state.pairings.values())
    if not pairings:
        return f"{event.name}: no pairings yet."
    if round_no is None:
        round_no = max(p.round for p in pairings)
    chosen = [p for p in pairings if p.round == round_no]
    lines = [f"{event.name} — round {round_no}"]
    for pairing in chosen:
        lines.append(pairing_line(pairing, event, names))
        if pairing.why:
            lines.append(f"      why: {pairing.why.replace('<@', '@').replace('>', '')}")
    return _named(lines, names)


def pairing_line(pairing: Pairing, event: Event, names: Mapping[int, str]) -> str:
    """``S2-1  Ann v Bob (5 points)  — Ann won 5–3`` (or ``… bye``)."""
    state = event.state
    if pairing.b is None:
        return f"  {pairing.key:<8} {name_of(names, pairing.a)}: bye"
    line = f"  {pairing.key:<8} {name_of(names, pairing.a)} v {name_of(names, pairing.b)} " \
           f"({plural(event.settings.length(pairing), 'point')})"  # fmt: skip
    result = state.results.get(pairing.key) if state else None
    if result is not None:
        line += "  — " + result_words(result, names)
    elif pairing.key in event.asked:
        line += "  — the organiser decides"
    return line


def standings_text(title: str, rows: Sequence[Row], names: Mapping[int, str]) -> str:
    """The standings as a text table: place, player, played, won, lost, head-to-head, Buchholz, points
    difference, and why each row is above the next."""
    lines = [title, f"{'#':>3}  {'player':<16} {'pl':>3} {'w':>3} {'l':>3} {'h2h':>4} {'buch':>5} {'+/-':>5}  why"]
    for row in rows:
        lines.append(
            f"{row.place:>3}  {name_of(names, row.player)[:16]:<16} {row.played:>3} {row.wins:>3} {row.losses:>3} "
            f"{row.head_to_head:>4} {row.buchholz:>5} {row.difference:>+5}  {_marked(row)}"
        )
    return "\n".join(lines)


def _marked(row: Row) -> str:
    """A row's why, after "withdrawn" for a player who withdrew (placed after all who completed the event)."""
    if not row.withdrawn:
        return row.why
    return "withdrawn" + (f"; {row.why}" if row.why else "")


def _named(lines: list[str], names: Mapping[int, str]) -> str:
    text = "\n".join(lines)
    for member, name in names.items():
        text = text.replace(f"@{member}", name)
    return text
