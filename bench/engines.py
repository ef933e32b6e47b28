"""Benchmark: the two engine candidates on the same positions — Open Sage (``bgsage``) and GNU
Backgammon's network (``gnubg_nn``, the library form of gnubg's evaluator).

Positions: the non-forced checker plays of eight real matches of ``tests/cases/matches`` (about 600, money and
match scores). For each candidate and depth it prints the time per checker-play evaluation (all legal plays ranked),
and how often its best play is **gnubg's choice** — gnubg's own 2-ply evaluation (``gnubg_nn`` at 2-ply with the
match score set, the depth of gnubg's default analysis) — and the money-play cube support. Single process, one
thread; the times are CPU seconds of this process (the machine is shared), per core.

    python -m bench.engines [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import time

import gnubg_nn

from backgammon.matfile import parse_mat
from backgammon.position import Position
from backgammon.replay import replay
from club.analysis.engine import CubeState
from club.analysis.walk import PLAY, decisions
from tests.casekit import MATCHES

FILES = (
    "fibs_7pt_01.txt",
    "galaxy_5pt_01.txt",
    "gnubgexport_7pt_01.mat",
    "studio_7pt_01.txt",
    "dg_5pt_01.txt",
    "galaxy_7pt_01.txt",
    "fibs_5pt_01.txt",
    "studio_9pt_01.txt",
)


def sample(limit: int) -> list:
    """The non-forced checker decisions of :data:`FILES`, at most ``limit``."""
    found = []
    for name in FILES:
        report = replay(parse_mat((MATCHES / name).read_text(encoding="utf-8")))
        for game in report.games:
            if game.game is not None:
                found += [d for d in decisions(game.game) if d.kind == PLAY and d.choices > 1]
    return found[:limit]


def gnubg_best(position: Position, dice: tuple[int, int], cube: CubeState, plies: int) -> Position:
    """gnubg_nn's best play (resulting position, mover's view) at ``plies`` with the match score set."""
    away = cube.away
    if cube.match_length:
        gnubg_nn.set.score(away[0], away[1], int(cube.crawford))
    else:
        gnubg_nn.set.score(0, 0)
    board = position.to_gnubg()
    moves = gnubg_nn.best_move(board, dice[0], dice[1], n=plies, b=1)
    # the key is the board after the play as gnubg keeps it, the opponent on roll: swap back to the mover
    return Position.from_gnubg(gnubg_nn.board_from_position_key(moves[1])).swap() if moves else position


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (see the module docstring); exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=600)
    args = parser.parse_args(argv)
    positions = sample(args.limit)
    print(f"{len(positions)} non-forced checker decisions from {len(FILES)} real matches")
    started = time.process_time()
    reference = [gnubg_best(d.position, d.dice, d.cube, 2) for d in positions]
    gnubg2 = (time.process_time() - started) / len(positions)
    rows = [("gnubg_nn 2-ply (the reference)", gnubg2, 1.0)]
    for plies in (0, 1):
        started = time.process_time()
        best = [gnubg_best(d.position, d.dice, d.cube, plies) for d in positions]
        took = (time.process_time() - started) / len(positions)
        rows.append((f"gnubg_nn {plies}-ply", took, _agree(best, reference)))
    try:
        from club.analysis.sage import SageEngine
    except ImportError:
        print("bgsage not installed: pip install -r requirements-analysis.txt")
        SageEngine = None
    if SageEngine is not None:
        for level in ("1ply", "2ply"):
            engine = SageEngine(level)
            started = time.process_time()
            ranked = engine.best_plays_many([(d.position, d.dice, d.cube) for d in positions])
            took = (time.process_time() - started) / len(positions)
            rows.append((f"Open Sage {level} (cubeful)", took, _agree([r[0].play.position for r in ranked], reference)))
    print(f"{'candidate':34} {'ms/evaluation':>14} {'agrees with gnubg 2-ply':>24}")
    for name, took, agreement in rows:
        print(f"{name:34} {took * 1000:14.2f} {agreement:24.1%}")
    gnubg_nn.set.score(0, 0)
    try:
        gnubg_nn.evaluate_cube_decision(gnubg_nn.key_of_board(Position.initial().to_gnubg()))
        money = "yes"
    except Exception as error:  # gnubg_nn refuses money play
        money = f"no ({error})"
    print(f"money-play cube decisions: gnubg_nn {money}; Open Sage yes (Jacoby, beavers)")
    print("licences: gnubg / gnubg_nn GPL-3.0-or-later; Open Sage MPL-2.0")
    return 0


def _agree(best: list[Position], reference: list[Position]) -> float:
    return sum(a == b for a, b in zip(best, reference, strict=True)) / len(reference)


if __name__ == "__main__":
    sys.exit(main())
