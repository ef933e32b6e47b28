"""Benchmark: ``bot.py analyse`` against GNU Backgammon's own analysis on every real match.

For each file of ``tests/cases/matches`` it analyses the match (:func:`club.analysis.match.analyse_record`,
worker pool) and compares with gnubg's figures (``bench/gnubg_reference.py``: ``gnubg -t``, ``import mat``,
``analyse match``, ``show statistics match``; pass ``--reference FILE.json`` to reuse a saved run, else gnubg runs
now, which takes a quarter of an hour). Prints per file both players' PR (ours, gnubg's), whether the two rank the
players the same way, and at the end the share of matches ranked alike and Pearson's correlation of the per-player
error rates.

    python -m bench.analysis_agreement [--reference gnubg.json] [--level 2ply] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from backgammon.matfile import parse_mat
from bench.gnubg_reference import MATCHES, analyse_with_gnubg
from club.analysis.grade import correlation
from club.analysis.match import DEFAULT_LEVEL, analyse_record
from club.analysis.pool import AnalysisPool


def compare(ours: dict, theirs: dict) -> dict | None:
    """Per-file comparison: ``{"names", "ours", "gnubg", "same_order"}``, or ``None`` when gnubg has no figures or
    the players differ (``ours``/``theirs`` as ``MatchAnalysis.to_json()`` / ``parse_statistics`` give them)."""
    if "players" not in theirs:
        return None
    names = list(ours["players"])
    if set(names) != set(theirs["players"]):
        return None
    ours_pr = [ours["players"][n]["raw_pr"] for n in names]
    gnubg_pr = [theirs["players"][n]["pr"] for n in names]
    if None in ours_pr or None in gnubg_pr:
        return None
    same = (ours_pr[0] - ours_pr[1]) * (gnubg_pr[0] - gnubg_pr[1]) > 0 or ours_pr[0] == ours_pr[1] == 0
    return {"names": names, "ours": ours_pr, "gnubg": gnubg_pr, "same_order": same}


def analyse_all(files: list[Path], level: str, workers: int) -> dict[str, dict]:
    """Our analysis of each file: ``MatchAnalysis.to_json()`` plus each player's ``raw_pr`` (even when too short)."""
    results = {}
    with AnalysisPool(workers) as pool:
        for path in files:
            analysis = analyse_record(parse_mat(path.read_text(encoding="utf-8")), pool=pool, level=level)
            data = analysis.to_json()
            for player in analysis.players:
                data["players"][player.name]["raw_pr"] = player.pr
            results[path.name] = data
    return results


def main(argv: list[str] | None = None) -> int:
    """Run the comparison (see the module docstring); exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, help="gnubg figures saved by bench/gnubg_reference.py --out")
    parser.add_argument("--level", default=DEFAULT_LEVEL)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    files = sorted(p for p in MATCHES.iterdir() if p.suffix in (".txt", ".mat"))
    if args.reference:
        reference = json.loads(args.reference.read_text(encoding="utf-8"))
    else:
        reference = {path.name: analyse_with_gnubg(path.resolve()) for path in files}
    ours = analyse_all(files, args.level, args.workers)
    same = compared = 0
    xs: list[float] = []
    ys: list[float] = []
    print(f"{'file':26} {'players':22} {'PR ours':>13} {'PR gnubg':>13}  same order")
    for path in files:
        theirs = reference.get(path.name, {})
        row = compare(ours[path.name], theirs)
        if row is None:
            decisions = {n: p["decisions"] for n, p in ours[path.name]["players"].items()}
            why = theirs.get("error") or (
                f"no decision to grade ({decisions})" if min(decisions.values()) == 0 else "players differ"
            )
            print(f"{path.name:26} (no comparison: {why})")
            continue
        compared += 1
        same += row["same_order"]
        xs += row["ours"]
        ys += row["gnubg"]
        print(
            f"{path.name:26} {' / '.join(row['names'])[:22]:22} "
            f"{row['ours'][0]:6.2f}/{row['ours'][1]:<6.2f} {row['gnubg'][0]:6.2f}/{row['gnubg'][1]:<6.2f}  "
            f"{'yes' if row['same_order'] else 'NO'}"
        )
    print(f"ranked alike in {same} of {compared} matches ({same / max(1, compared):.0%})")
    print(f"Pearson correlation of per-player error rates (ours vs gnubg, n={len(xs)}): {correlation(xs, ys):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
