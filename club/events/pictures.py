"""Events as pictures: the bracket (:class:`rendering.events.BracketPicture`) and the standings or league table
(:class:`rendering.records.RecordTable`) built from an event's state and the members' names — the one place where
an event becomes what the renderer draws, shared by the cogs and the console. ``*_png_async`` render in a worker
thread so a bot's event loop never waits on Pillow.

``python -m club.events.pictures FILE`` writes the gallery's event samples (a 13-player double elimination, a
Swiss standings table, a league table) as the plain data :mod:`rendering.gallery` draws.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rendering.events import Box, BracketPicture, Column, Section, render_bracket
from rendering.records import Column as TableColumn
from rendering.records import RecordTable, render_record_table, signed

from .formats import EventState, Format, How, Result, Settings, apply_due, bracket_view, settle
from .standings import Row, standings
from .texts import STAGES, name_of

_EMPTY = -1


def _score(result: Result | None) -> str:
    if result is None:
        return ""
    if result.how is How.PLAYED:
        return f"{result.won}–{result.lost}"
    return result.how.value.replace("_", " ")


def bracket_picture(state: EventState, names: Mapping[int, str], title: str = "") -> BracketPicture:
    """The bracket of an elimination event as a picture: the winners' bracket, the losers' bracket or the
    consolation, the grand final and its reset once due. Undecided matches show only who plays them."""
    sections: dict[str, dict[int, list[Box]]] = {}
    rows = bracket_view(state)
    stage_of = {match.key: match.stage for match, _, _, _ in rows}
    feeds = {
        slot.winner_of: match.key
        for match, _, _, _ in rows
        for slot in match.slots
        if slot.winner_of and stage_of.get(slot.winner_of) == match.stage
    }
    for match, a, b, result in rows:
        winner = None
        if result is not None and result.winner is not None:
            winner = 0 if result.winner == a else 1
        elif result is None and _EMPTY in (a, b) and None not in (a, b) and (a, b) != (_EMPTY, _EMPTY):
            winner = 1 if a == _EMPTY else 0
        score = "bye" if result is None and winner is not None else _score(result)
        box = Box(match.key, name_of(names, a), name_of(names, b), winner, score, feeds.get(match.key, ""))
        sections.setdefault(match.stage, {}).setdefault(match.round, []).append(box)
    out = []
    for stage, rounds in sections.items():
        if stage == "GF":
            columns = tuple(Column("Final" if r == 1 else "Reset", tuple(boxes)) for r, boxes in rounds.items())
        else:
            columns = tuple(Column(f"Round {r}", tuple(boxes)) for r, boxes in rounds.items())
        out.append(Section(STAGES[stage], columns))
    kind = "double elimination" if state.settings.format is Format.DOUBLE else "single elimination"
    return BracketPicture(title or "Bracket", f"{kind}, {len(state.seeds)} players", tuple(out))


def bracket_png(state: EventState, names: Mapping[int, str], title: str = "", *, theme: str | None = None) -> bytes:
    """PNG bytes of the bracket (:func:`bracket_picture`)."""
    return render_bracket(bracket_picture(state, names, title), theme=theme)


def standings_table(title: str, rows: Sequence[Row], names: Mapping[int, str], subtitle: str = "",
                    *, marks: Mapping[int, str] | None = None) -> RecordTable:  # fmt: skip
    """The standings as a table: place, player, played, won, lost, head-to-head, Buchholz, points difference and
    why each row is above the next; a player who withdrew is marked "withdrawn"; ``marks`` adds a note per player
    (a league's "up" / "down")."""
    marks = marks or {}
    columns = (TableColumn("#"), TableColumn("player", "left"), TableColumn("pl"), TableColumn("w"),
               TableColumn("l"), TableColumn("h2h"), TableColumn("Buchholz"), TableColumn("+/−"),
               TableColumn("why", "left"))  # fmt: skip
    body = tuple(
        (str(r.place), "  ".join([names.get(r.player, str(r.player)), *(["withdrawn"] if r.withdrawn else []),
                                  *([marks[r.player]] if r.player in marks else [])]),
         str(r.played), str(r.wins), str(r.losses), str(r.head_to_head), str(r.buchholz), signed(r.difference),
         r.why)
        for r in rows
    )  # fmt: skip
    return RecordTable(title, columns, body, subtitle)


def league_marks(tables: Sequence[Sequence[Row]], up: int, down: int) -> list[dict[int, str]]:
    """Per division: the players going up (▲) and down (▼) when the season ends."""
    out = []
    for index, rows in enumerate(tables):
        marks: dict[int, str] = {}
        if index > 0:
            for row in rows[:up]:
                marks[row.player] = "▲ up"
        if index < len(tables) - 1:
            for row in rows[len(rows) - down :]:
                marks[row.player] = "▼ down"
        out.append(marks)
    return out


async def bracket_png_async(state: EventState, names: Mapping[int, str], title: str = "", **options) -> bytes:
    """:func:`bracket_png` in a worker thread."""
    return await asyncio.to_thread(bracket_png, state, names, title, **options)


async def table_png_async(table: RecordTable, *, theme: str | None = None) -> bytes:
    """A standings table's PNG in a worker thread."""
    return await asyncio.to_thread(render_record_table, table, theme=theme)


# -- the gallery's samples --------------------------------------------------------------------------------------------
GALLERY_NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lou", "Mo", "Ned",
                 "Oz", "Pia", "Quinn", "Rex")  # fmt: skip


def _played(config: Settings, n: int, seed: int, stop: float = 1.0) -> EventState:
    rng = random.Random(seed)
    state = EventState(config, tuple(range(1, n + 1)))
    apply_due(state, settle(state))
    while state.pending() and rng.random() < stop + 0.001:
        pairing = rng.choice(state.pending())
        winner = min(pairing.players) if rng.random() < 0.7 else max(pairing.players)
        state.decide(Result(pairing.key, winner, pairing.other(winner), 7, rng.randint(0, 6)))
        apply_due(state, settle(state))
    return state


def gallery_samples() -> dict[str, Any]:
    """The event samples of :mod:`rendering.gallery` as plain data: a 13-player double elimination (played to its
    reset final), a Swiss standings table and a league table."""
    names = {i + 1: n for i, n in enumerate(GALLERY_NAMES)}
    double = _played(Settings(Format.DOUBLE), 13, 4)
    if "GF2" not in double.pairings:  # make the losers' champion win the first final, for the reset
        for seed in range(5, 60):
            double = _played(Settings(Format.DOUBLE), 13, seed)
            if "GF2" in double.pairings:
                break
    swiss = _played(Settings(Format.SWISS, rounds=5), 13, 7)
    league = _played(Settings(Format.LEAGUE, division_size=6), 18, 8)
    tables = [standings(league, division) for division in league.divisions]
    marks = league_marks(tables, 2, 2)
    return {
        "bracket": bracket_picture(double, names, "Winter Cup").to_json(),
        "swiss": _table_json(
            standings_table("Friday Swiss — standings", standings(swiss), names, "5 rounds, 13 players")
        ),
        "league": [
            _table_json(standings_table(f"League — division {i}", rows, names, "2 up, 2 down", marks=m))
            for i, (rows, m) in enumerate(zip(tables, marks, strict=True), 1)
        ],
    }


def _table_json(table: RecordTable) -> dict[str, Any]:
    return {
        "title": table.title,
        "subtitle": table.subtitle,
        "columns": [[c.heading, c.align] for c in table.columns],
        "rows": [[[c, "plain"] if isinstance(c, str) else [c.text, c.tone] for c in row] for row in table.rows],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Write :func:`gallery_samples` as JSON to the file named on the command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("python -m club.events.pictures FILE", file=sys.stderr)
        return 2
    Path(args[0]).write_text(json.dumps(gallery_samples(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
