"""Match files played through the use-case layer (``python bot.py replay``; RULES A4 and the replay of
:mod:`backgammon.replay`): :func:`replay_files` plays each file in a club, writes a board image after every turn and
prints each game's result and the final score. Split out of ``bot.py``, which re-exports it."""

from __future__ import annotations

import concurrent.futures
import os
import tempfile
import time
from pathlib import Path

from club.boards import BoardOptions
from club.wording import plural
from storage import Database

from .settings import Settings


async def replay_files(
    files: list[Path],
    *,
    images: Path | None,
    database_path: Path | None,
    settings: Settings,
    out=print,
    rule_options: dict | None = None,
) -> int:
    """Play each match file through the use-case layer (:func:`club.matreplay.replay_match_file`), writing a board
    image after every turn (each use-case call that changed the board) into ``images/<file stem>/``, and print each
    game's result and the final score. ``rule_options``: ``jacoby``, ``beavers``, ``automatic_doubles``, ``crawford``, as
    ``python -m backgammon replay`` takes them (RULES D4, D3, G3, M3). Returns 0 when every file played through,
    1 otherwise (also for options that do not suit a file: money options on a match)."""
    from backgammon.errors import MatchFileError, RuleSetError
    from backgammon.matfile import parse_mat
    from club.boards import board_filename
    from club.matreplay import replay_match_file

    options = settings.board_options()
    folder = None
    synchronous = settings.synchronous
    if database_path is None:  # a throw-away database: durability does not matter, speed does
        folder = tempfile.TemporaryDirectory(prefix="bgclub-replay-")
        database_path = Path(folder.name) / "replay.sqlite3"
        synchronous = "OFF"
    failures = 0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1)))
    try:
        async with Database.open(database_path, synchronous=synchronous) as database:
            for number, path in enumerate(files):
                started = time.perf_counter()
                try:
                    record = parse_mat(path.read_text(encoding="utf-8", errors="replace"))
                except (OSError, MatchFileError) as error:
                    out(f"{path}: cannot read it: {error}")
                    failures += 1
                    continue
                for warning in record.warnings:
                    out(f"{path.name}: warning: {warning}")
                target = None if images is None else images / path.stem
                if target is not None:
                    target.mkdir(parents=True, exist_ok=True)
                pending: list[concurrent.futures.Future] = []

                def write_image(outcome, target=target, pending=pending) -> None:
                    if target is None or not outcome.image_due or outcome.view.game is None:
                        return
                    view = outcome.view  # frozen: safe to draw in a worker while the club goes on
                    pending.append(pool.submit(_write_board, view, target / board_filename(view), options))

                players = (1_000 + 2 * number, 1_001 + 2 * number)
                try:
                    result = await replay_match_file(
                        database, record, players=players, on_outcome=write_image, **(rule_options or {})
                    )
                except RuleSetError as error:
                    out(f"{path}: --jacoby, --beavers and --automatic-doubles are for money sessions only: {error}")
                    failures += 1
                    continue
                written = 0
                for future in pending:
                    try:
                        future.result()
                        written += 1
                    except (OSError, ValueError) as error:
                        out(f"{path.name}: a board image failed: {error}")
                        result.problems.append(f"board image: {error}")
                seconds = time.perf_counter() - started
                out(f"== {path.name}: {record.players[0]} vs {record.players[1]}, "
                    f"{f'{record.length}-point match' if record.length else 'money session'}")  # fmt: skip
                out(result.describe())
                where = f" in {target}" if target is not None else ""
                out(f"({result.calls} use-case calls, {written} board images{where}, {seconds:.1f} s)")
                if not result.ok:
                    failures += 1
    finally:
        pool.shutdown(wait=True)
        if folder is not None:
            folder.cleanup()
    out(f"{len(files) - failures} of {plural(len(files), 'file')} played through the club.")
    return 0 if failures == 0 else 1


def _write_board(view, path: Path, options: BoardOptions) -> None:
    """Render ``view`` (seen by the member who must act) and write the PNG to ``path`` (in a worker thread: Pillow
    drawing and PNG compression release the GIL, so images are made while the club plays on)."""
    from club.boards import render_table

    path.write_bytes(render_table(view, view.waiting_for, options))
