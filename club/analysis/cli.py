"""``python bot.py analyse FILE.mat [FILE …] [--json] [--level 2ply] [--workers N]``.

Every checker play and cube decision of each match file graded by the engine, per player: counted decisions, error
rate (PR = 500 × equity lost ÷ non-forced decisions; not scaled for 1-point matches), errors and blunders (GNU
Backgammon's thresholds, 0.08 and 0.16), cube errors and luck — see :mod:`club.analysis.grade`. ``--json`` prints
``{"players": {NAME: {"pr", "decisions", "errors", "blunders", "cube_errors", "luck"}}, "notes": [...], ...}`` (one
object per file; several files give ``{FILE: {...}}``). Exit status 0; 1 when the engine is not installed (the
message says how to install it); 2 for a file that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from backgammon.errors import BackgammonError
from backgammon.matfile import parse_mat

from . import ENABLE_ANALYSIS, AnalysisUnavailableError, engine_available
from .match import DEFAULT_LEVEL, analyse_record
from .pool import AnalysisPool, default_workers


def main(argv: list[str]) -> int:
    """Run the command line (see the module docstring) on ``argv`` (without ``analyse``); returns the exit code."""
    parser = argparse.ArgumentParser(prog="python bot.py analyse", description="Analyse match files with the engine")
    parser.add_argument("files", nargs="+", type=Path, help=".mat / .txt match files")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--level", default=DEFAULT_LEVEL, choices=("1ply", "2ply", "3ply"), help="engine depth")
    parser.add_argument("--workers", type=int, default=default_workers(), help="engine processes")
    args = parser.parse_args(argv)
    if not engine_available():
        print(ENABLE_ANALYSIS, file=sys.stderr)
        return 1
    records = {}
    for path in args.files:
        try:
            records[path] = parse_mat(path.read_text(encoding="utf-8", errors="replace"))
        except (OSError, BackgammonError) as error:
            print(f"{path}: cannot read this match file: {error}", file=sys.stderr)
            return 2
    results = {}
    try:
        with AnalysisPool(args.workers) as pool:
            for path, record in records.items():
                results[path] = analyse_record(record, pool=pool, level=args.level)
    except AnalysisUnavailableError as error:
        print(error, file=sys.stderr)
        return 1
    if args.json:
        payload = {str(p): a.to_json() for p, a in results.items()}
        print(json.dumps(next(iter(payload.values())) if len(payload) == 1 else payload, indent=1))
    else:
        for path, analysis in results.items():
            print(f"{path}:")
            for line in analysis.lines():
                print(f"  {line}")
    return 0
