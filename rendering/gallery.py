"""Sample boards a person can look through: ``python -m rendering.gallery OUTDIR [--width N]``.

Writes one PNG per sample (the opening, a middle game with the last play marked and a hit, a finished bear-off with
full trays, a tall stack, checkers on both bars, a 64-cube owned, a double offered, a resignation offered, a
Crawford game, names in several scripts with emoji, a chouette panel, the other themes, the final position of a
game with its result, a beaver, a long name, right-to-left names) and the same at phone width (390 px) in
``OUTDIR/390px``, and prints their names. The same samples are used by the tests and the benchmark.

Then the event pictures (:mod:`rendering.events`) in ``OUTDIR/events``: a 13-player double-elimination bracket
played to its reset final, a Swiss standings table and a league table, drawn from the plain data in
``samples/events.json`` (written by ``python -m club.events.pictures rendering/samples/events.json``: the renderer
never imports the club).

Then the pictures of learning from the club's games in ``OUTDIR/learning``: a quiz card and its answer, and a
highlight (an animated GIF, its size printed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from backgammon.moves import legal_plays
from backgammon.position import Position

from .board import DEFAULT_WIDTH, render_board
from .events import BracketPicture, render_bracket
from .records import Cell, Column, RecordTable, render_record_table
from .view import OPPONENT, VIEWER, BoardView, ChouetteMember, ChouettePanel


def _play(position: Position, dice: tuple[int, int], notation: str | None = None, *, hit: bool = False):
    """A legal play of ``dice`` in ``position`` (the one written ``notation``, else the first, preferring a hit)."""
    plays = legal_plays(position, dice)
    if notation is not None:
        for play in plays:
            if play.notation() == notation:
                return play
        raise ValueError(f"{notation} is not a legal play of {dice}: {[p.notation() for p in plays]}")
    if hit:
        for play in plays:
            if play.hits:
                return play
    return plays[0]


def sample_views() -> dict[str, tuple[BoardView, dict]]:
    """Named sample views with the render options for each: ``{name: (view, {"theme": …, "home": …})}``."""
    samples: dict[str, tuple[BoardView, dict]] = {}
    opening = Position.initial()
    samples["01-opening"] = (
        BoardView(
            opening,
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=VIEWER,
            awaiting="to play 3-1",
            dice=(3, 1),
            match_length=7,
            match_id="cAkAAAAAAAAA",
        ),
        {},
    )

    # middle game: the opponent (Bob) hit with 6-4, now Ann (the viewer) is on roll
    before = Position.from_points({6: 5, 8: 2, 13: 4, 24: 2, 7: 1, 5: 1, 12: -4, 17: -3, 19: -3, 20: -2, 1: -2, 22: -1})
    bob_view = before.swap()
    play = _play(bob_view, (6, 4), "24/18* 13/9")
    after = play.position.swap()  # back to Ann's view, Ann on roll
    samples["02-middle-game-hit"] = (
        BoardView(
            after,
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=VIEWER,
            awaiting="to roll or double",
            cube_value=2,
            cube_owner=VIEWER,
            score=(2, 3),
            match_length=7,
            last_play=play.moves,
            last_mover=OPPONENT,
            last_dice=(6, 4),
            dice=(6, 4),
            dice_side=OPPONENT,
        ),
        {},
    )

    # a finished bear-off: Ann bears off her last two checkers; Bob has 14 off
    bear = Position.from_points({2: 1, 1: 1, 24: -1})
    final = _play(bear, (2, 1), "2/off 1/off")
    samples["03-bear-off-finished"] = (
        BoardView(
            final.position,
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=None,
            awaiting="Ann wins 2 points and the match",
            cube_value=2,
            cube_owner=OPPONENT,
            score=(7, 5),
            match_length=7,
            last_play=final.moves,
            last_mover=VIEWER,
            last_dice=(2, 1),
        ),
        {},
    )

    samples["04-tall-stack"] = (
        BoardView(
            Position.from_points({6: 11, 5: 2, 4: 2, 24: -12, 23: -3}),
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=OPPONENT,
            awaiting="to play 5-5",
            dice=(5, 5),
        ),
        {},
    )

    samples["05-both-bars"] = (
        BoardView(
            Position.from_points({6: 5, 8: 3, 13: 3, 3: 2, 1: -2, 12: -5, 17: -3, 19: -3, 21: -1}, bar=(2, 1)),
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=VIEWER,
            awaiting="to play 5-2",
            dice=(5, 2),
            cube_value=4,
            cube_owner=OPPONENT,
        ),
        {},
    )

    samples["06-cube-64-owned"] = (
        BoardView(
            Position.from_points({6: 3, 5: 3, 4: 2, 3: 2, 13: 2, 10: 1, 24: -2, 20: -2, 19: -4, 18: -3, 12: -4}),
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=OPPONENT,
            awaiting="to roll or double",
            cube_value=64,
            cube_owner=OPPONENT,
        ),
        {},
    )

    samples["07-double-offered"] = (
        BoardView(
            Position.from_points({6: 4, 5: 3, 4: 3, 8: 2, 13: 3, 24: -2, 19: -3, 20: -3, 12: -4, 17: -3}),
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=OPPONENT,
            awaiting="to take or drop",
            cube_value=2,
            cube_owner=OPPONENT,
            offered_cube=4,
            score=(1, 2),
            match_length=5,
        ),
        {},
    )

    samples["08-resignation"] = (
        BoardView(
            Position.from_points({3: 2, 2: 3, 1: 2, 24: -3, 23: -2, 12: -5, 6: 0}),
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=OPPONENT,
            awaiting="to accept a resignation",
            resignation=2,
        ),
        {},
    )

    samples["09-crawford"] = (
        BoardView(
            Position.initial(),
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=OPPONENT,
            awaiting="to play 6-5",
            dice=(6, 5),
            crawford=True,
            score=(6, 4),
            match_length=7,
        ),
        {},
    )

    samples["10-names-scripts-emoji"] = (
        BoardView(
            Position.initial(),
            viewer_name="Zoë Ångström-Łukasiewicz 🎲",
            opponent_name="Дмитрий 東京太郎 김민준 👨‍👩‍👧",
            on_roll=OPPONENT,
            awaiting="to roll or double",
            score=(12, 9),
        ),
        {},
    )

    chouette_play = _play(Position.initial(), (3, 1), "8/5 6/5")
    samples["11-chouette"] = (
        BoardView(
            chouette_play.position,
            viewer_name="Box: Carmen",
            opponent_name="Captain: Олег",
            on_roll=OPPONENT,
            awaiting="to roll or double",
            last_play=chouette_play.moves,
            last_mover=VIEWER,
            last_dice=(3, 1),
            chouette=ChouettePanel(
                box="Carmen",
                captain=ChouetteMember("Олег", 2, "taken"),
                team=(
                    ChouetteMember("Priya", 2, "offered"),
                    ChouetteMember("山田", 1, "centred"),
                    ChouetteMember("Dmitri", 2, "dropped"),
                ),
                partner="Sam",
            ),
        ),
        {},
    )

    samples["12-classic-theme"] = (samples["02-middle-game-hit"][0], {"theme": "classic"})
    samples["13-high-contrast-home-left"] = (
        samples["02-middle-game-hit"][0],
        {"theme": "high-contrast", "home": "left"},
    )

    # the final position of a game that does not end the match, with its result (drawn before the next opening)
    gammon = Position.from_points({1: 1, 19: -5, 20: -4, 22: -3, 24: -3})
    last = _play(gammon, (4, 1), "1/off")
    samples["14-final-position-result"] = (
        BoardView(
            last.position,
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=None,
            awaiting="Ann wins game 3: gammon, 4 points",
            cube_value=2,
            cube_owner=OPPONENT,
            score=(5, 2),
            match_length=9,
            last_play=last.moves,
            last_mover=VIEWER,
            last_dice=(4, 1),
        ),
        {},
    )
    samples["15-beaver"] = (
        BoardView(
            samples["07-double-offered"][0].position,
            viewer_name="Ann",
            opponent_name="Bob",
            on_roll=VIEWER,
            awaiting="to take, drop or raccoon the beaver",
            offered_cube=4,
            offer="beaver",
        ),
        {},
    )
    samples["16-long-name"] = (
        BoardView(
            Position.initial(),
            viewer_name="Bartholomew Maximilian Fitzgerald-Worthington the Third",
            opponent_name="Ann",
            on_roll=VIEWER,
            awaiting="to play 3-2",
            dice=(3, 2),
            match_length=7,
            match_id="cAkAAAAAAAAA",
        ),
        {},
    )
    samples["17-right-to-left-emoji"] = (
        BoardView(
            Position.initial(),
            viewer_name="محمد علي",
            opponent_name="דוד כהן 🎲",
            on_roll=OPPONENT,
            awaiting="to roll or double",
            match_length=5,
        ),
        {},
    )
    return samples


EVENT_SAMPLES = Path(__file__).with_name("samples") / "events.json"
"""The event pictures' sample data (see the module docstring)."""


def event_samples() -> dict[str, bytes]:
    """The event sample pictures as PNG bytes by name: the bracket, the Swiss standings, each league division."""
    import json

    data = json.loads(EVENT_SAMPLES.read_text(encoding="utf-8"))

    def table(item: dict) -> RecordTable:
        columns = tuple(Column(heading, align) for heading, align in item["columns"])
        rows = tuple(tuple(Cell(text, tone) for text, tone in row) for row in item["rows"])
        return RecordTable(item["title"], columns, rows, item["subtitle"])

    pictures = {"20-event-double-elimination-13": render_bracket(BracketPicture.from_json(data["bracket"]))}
    pictures["21-event-swiss-standings"] = render_record_table(table(data["swiss"]))
    for number, division in enumerate(data["league"], 1):
        pictures[f"22-event-league-division-{number}"] = render_record_table(table(division))
    return pictures


def learning_samples() -> dict[str, bytes]:
    """The pictures of learning from the club's games, by file name: a quiz card (the board of a quiz poll, the
    names hidden as a club's quiz hides them by default, and the board after the best play shown at its reveal) and
    a highlight (a turning point played checker by checker, :func:`~rendering.animation.play_frames`, as a GIF)."""
    from .animation import play_frames, render_animation

    start = Position.from_points({24: 2, 13: 4, 8: 3, 6: 5, 5: 1, 1: -2, 12: -5, 14: -1, 17: -3, 19: -4})
    play = _play(start, (6, 4), "24/14*")
    before = start.pips_opponent - start.pips_player
    after = play.position.pips_opponent - play.position.pips_player
    views = play_frames(
        start, play.moves, (6, 4), f"#7 turning point: pip lead {before:+d} → {after:+d}", viewer_name="Ann",
        opponent_name="Bob", match_length=7, score=(2, 4), cube_value=2, cube_owner=OPPONENT,
    )  # fmt: skip
    card: dict[str, Any] = dict(viewer_name="On roll", opponent_name="Opponent", match_length=7, score=(2, 4),
                                cube_value=2, cube_owner=OPPONENT, dice=(6, 4), dice_side=VIEWER)  # fmt: skip
    best = _play(start, (6, 4), "24/14*")
    return {
        "quiz-card.png": render_board(
            BoardView(start, on_roll=VIEWER, awaiting="to play 6-4: which play is best?", **card)
        ),
        "quiz-answer.png": render_board(
            BoardView(
                best.position,
                on_roll=None,
                awaiting="best: 24/14*",
                last_play=best.moves,
                last_mover=VIEWER,
                last_dice=(6, 4),
                **card,
            )
        ),  # fmt: skip
        "highlight.gif": render_animation(views),
    }


def main(argv: list[str] | None = None) -> int:
    """Write the sample boards as PNG files into OUTDIR; prints one line per file."""
    parser = argparse.ArgumentParser(prog="python -m rendering.gallery", description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH)
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    phone = args.outdir / "390px"
    phone.mkdir(exist_ok=True)
    for name, (view, options) in sample_views().items():
        for folder, width in ((args.outdir, args.width), (phone, 390)):
            data = render_board(view, options.get("theme"), width=width, home=options.get("home", "right"))
            path = folder / f"{name}.png"
            path.write_bytes(data)
            print(f"{path}  {len(data) // 1024} KB")
    events = args.outdir / "events"
    events.mkdir(exist_ok=True)
    for name, data in event_samples().items():
        path = events / f"{name}.png"
        path.write_bytes(data)
        print(f"{path}  {len(data) // 1024} KB")
    learning = args.outdir / "learning"
    learning.mkdir(exist_ok=True)
    for name, data in learning_samples().items():
        path = learning / name
        path.write_bytes(data)
        print(f"{path}  {len(data) // 1024} KB ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
