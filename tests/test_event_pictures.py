"""Event pictures (club/events/pictures.py, rendering/events.py): the bracket shows both brackets and the reset,
no spoiler for an undecided match, a bye as a bye; the standings and league tables; the gallery's samples are
what the club draws today, and real PNGs."""

from __future__ import annotations

import io
import json
import random

from PIL import Image

from club.events.formats import EventState, Format, Result, Settings, apply_due, settle
from club.events.pictures import bracket_picture, bracket_png, gallery_samples, league_marks, standings_table
from club.events.standings import standings
from rendering.events import BracketPicture, render_bracket
from rendering.gallery import EVENT_SAMPLES, event_samples

NAMES = {i: f"P{i}" for i in range(1, 140)}


def boxes(picture: BracketPicture) -> dict:
    return {box.key: box for section in picture.sections for column in section.columns for box in column.boxes}


def test_bracket_picture_of_a_reset_final_and_no_spoilers():
    state = EventState(Settings(Format.DOUBLE), (1, 2, 3))
    apply_due(state, settle(state))
    picture = bracket_picture(state, NAMES, "Trio")
    seen = boxes(picture)
    assert [s.title for s in picture.sections] == ["Winners' bracket", "Losers' bracket", "Grand final"]
    assert (seen["W1-1"].top, seen["W1-1"].bottom, seen["W1-1"].score, seen["W1-1"].winner) == ("P1", "bye", "bye", 0)
    undecided = seen["W1-2"]
    assert (undecided.top, undecided.bottom, undecided.winner, undecided.score) == ("P2", "P3", None, "")
    assert (seen["W2-1"].top, seen["W2-1"].bottom) == ("P1", "?")  # the next round: who is known so far
    assert seen["W1-2"].feeds == "W2-1" and seen["L1-1"].feeds == "L2-1"
    for key, winner in (("W1-2", 3), ("W2-1", 1), ("L2-1", 2), ("GF", 2)):
        pairing = state.pairings[key]
        state.decide(Result(key, winner, pairing.other(winner), 5, 2))
        apply_due(state, settle(state))
    seen = boxes(bracket_picture(state, NAMES, "Trio"))
    assert (seen["GF"].winner, seen["GF"].score) == (1, "5–2")
    assert (seen["GF2"].top, seen["GF2"].bottom, seen["GF2"].winner) == ("P1", "P2", None)
    png = bracket_png(state, NAMES, "Trio")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width >= 480 and image.height > 300


def test_a_large_bracket_is_drawn_smaller_and_in_a_palette():
    rng = random.Random(1)
    state = EventState(Settings(Format.DOUBLE), tuple(range(1, 129)))
    apply_due(state, settle(state))
    for _ in range(120):
        pairing = rng.choice(state.pending())
        state.decide(Result(pairing.key, pairing.a, pairing.b, 5, 1))
        apply_due(state, settle(state))
    image = Image.open(io.BytesIO(bracket_png(state, NAMES)))
    assert max(image.size) <= 4096 and image.mode == "P"


def test_standings_and_league_tables():
    rng = random.Random(3)
    state = EventState(Settings(Format.LEAGUE, division_size=4), tuple(range(1, 9)))
    while True:
        apply_due(state, settle(state))
        if not state.pending():
            break
        for pairing in state.pending():
            winner = rng.choice(pairing.players)
            state.decide(Result(pairing.key, winner, pairing.other(winner), 3, 1))
    tables = [standings(state, d) for d in state.divisions]
    marks = league_marks(tables, 1, 1)
    assert marks[0] == {tables[0][-1].player: "▼ down"} and marks[1] == {tables[1][0].player: "▲ up"}
    table = standings_table("League — division 1", tables[0], NAMES, marks=marks[0])
    assert len(table.rows) == 4 and table.rows[-1][1].endswith("▼ down")
    assert [c.heading for c in table.columns][:4] == ["#", "player", "pl", "w"]


def test_gallery_samples_are_todays_and_draw(tmp_path):
    assert json.loads(EVENT_SAMPLES.read_text(encoding="utf-8")) == json.loads(json.dumps(gallery_samples()))
    samples = gallery_samples()
    bracket = BracketPicture.from_json(samples["bracket"])
    assert bracket.subtitle == "double elimination, 13 players"
    assert "GF2" in boxes(bracket)
    assert render_bracket(bracket)[:8] == b"\x89PNG\r\n\x1a\n"
    pictures = event_samples()
    assert {"20-event-double-elimination-13", "21-event-swiss-standings"} <= set(pictures)
    assert sum(1 for name in pictures if name.startswith("22-event-league-division-")) == 3
    from rendering.gallery import main as gallery_main

    assert gallery_main([str(tmp_path)]) == 0
    assert sorted(p.stem for p in (tmp_path / "events").glob("*.png")) == sorted(pictures)
