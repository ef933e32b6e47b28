"""GNU Backgammon's own analysis of match files, as reference figures for ``bot.py analyse``.

For each file it runs ``gnubg -t`` with a command file (``import mat FILE``, ``analyse match``, ``show statistics
match``; gnubg's default analysis settings) and reads, per player, the overall error rate (mEMG per unforced move
and close-or-actual cube decision), the error totals, the unforced moves, the close cube decisions, the moves
marked bad / very bad, the cube errors and the luck total (EMG). ``pr`` is ``mEMG / 2``, the same scale as ours
(500 × EMG lost ÷ decisions).

    python -m bench.gnubg_reference [FILE …] [--out PATH] [--jobs N]

Without files: every match of ``tests/cases/matches``. Prints one JSON object ``{file name: {"players":
{NAME: {...}}}}`` (or writes it to ``--out``). ``tests/data/gnubg_analysis.json`` is this script's output for the
few files ``tests/test_analysis_gnubg.py`` analyses — regenerate it with::

    python -m bench.gnubg_reference tests/cases/matches/fibs_7pt_01.txt ... --out tests/data/gnubg_analysis.json

Raises nothing for a file gnubg cannot read: its entry is ``{"error": "..."}``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.casekit import MATCHES

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"

_NUMBER = r"([+-]?\d+(?:\.\d+)?)"


def _section(text: str, title: str) -> str:
    start = text.find(title)
    if start < 0:
        return ""
    end = text.find("\n\n\n", start)
    return text[start : end if end > 0 else len(text)]


def _pair(section: str, label: str, cast=float) -> tuple | None:
    """The two players' first figures on the row starting ``label`` (e.g. ``Error total EMG (MWC)``)."""
    for line in section.splitlines():
        if line.startswith(label):
            rest = re.sub(r"\([^()]*\([^()]*\)\)", " ", line[len(label) :])  # "1 (-0.015 ( -0.205%))" -> "1"
            rest = re.sub(r"\([^()]*\)", " ", rest)  # "-0.380 ( -3.442%)" -> "-0.380" (EMG, not MWC)
            numbers = re.findall(_NUMBER, rest)
            if len(numbers) >= 2:
                return cast(float(numbers[0])), cast(float(numbers[1]))
    return None


def parse_statistics(text: str) -> dict:
    """Per-player figures from gnubg's ``show statistics match`` output (see the module docstring).

    Returns ``{"players": {NAME: {...}}}``; raises :class:`ValueError` when the output has no statistics table."""
    header = re.search(r"^Player\s+(\S.*?)\s{2,}(\S.*?)\s*$", text, re.MULTILINE)
    if header is None:
        raise ValueError("gnubg printed no statistics (the file did not import?)")
    names = (header.group(1).strip(), header.group(2).strip())
    chequer = _section(text, "Chequerplay statistics")
    luck = _section(text, "Luck statistics")
    cube = _section(text, "Cube statistics")
    overall = _section(text, "Overall statistics")
    rows = {
        "unforced": _pair(chequer, "Unforced moves", int),
        "bad": _pair(chequer, "Moves marked bad", int),
        "very_bad": _pair(chequer, "Moves marked very bad", int),
        "chequer_error": _pair(chequer, "Error total EMG (MWC)"),
        "luck": _pair(luck, "Luck total EMG (MWC)"),
        "close_cube": _pair(cube, "Close or actual cube decisions", int),
        "cube_error": _pair(cube, "Error total EMG (MWC)"),
        "error_total": _pair(overall, "Error total EMG (MWC)"),
        "error_rate": _pair(overall, "Error rate mEMG (MWC)"),
    }
    cube_error_rows = (
        "Missed doubles below CP",
        "Missed doubles above CP",
        "Wrong doubles below DP",
        "Wrong doubles above TG",
        "Wrong takes",
        "Wrong passes",
    )
    players = {}
    for side, name in enumerate(names):
        figures = {key: (value[side] if value else None) for key, value in rows.items()}
        cube_errors = 0
        for label in cube_error_rows:
            counts = _pair(cube, label, float)
            if counts:
                cube_errors += int(counts[side])
        rate = figures["error_rate"]
        figures["pr"] = None if rate is None else round(-rate / 2, 2)
        figures["cube_errors"] = cube_errors
        figures["decisions"] = (figures["unforced"] or 0) + (figures["close_cube"] or 0)
        players[name] = figures
    return {"players": players}


def analyse_with_gnubg(path: Path, timeout: float = 900) -> dict:
    """Run gnubg's analysis of one match file; ``{"players": …}`` or ``{"error": message}``."""
    with tempfile.TemporaryDirectory() as folder:
        commands = Path(folder) / "analyse.cmd"
        commands.write_text(f"import mat {path}\nanalyse match\nshow statistics match\n", encoding="utf-8")
        try:
            done = subprocess.run(
                [GNUBG, "-t", "-q", "-r", "-c", str(commands)],
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return {"error": f"gnubg did not run: {error}"}
    try:
        return parse_statistics(done.stdout)
    except ValueError as error:
        return {"error": str(error)}


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring. Exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    files = args.files or sorted(p for p in MATCHES.iterdir() if p.suffix in (".txt", ".mat"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = dict(
            zip((f.name for f in files), pool.map(analyse_with_gnubg, [f.resolve() for f in files]), strict=True)
        )
    text = json.dumps(results, indent=1, sort_keys=True)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
