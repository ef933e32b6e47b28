"""Command-line tool: ``python -m backgammon {legal,show,replay}``.

- ``legal POSITION_ID DICE`` — one line per legal play (RULES G4–G9): the play in standard notation, a tab, and the
  gnubg Position ID of the resulting position with the mover still on roll (the ``gnubg_nn.moves`` convention).
  When no move is possible (G9) standard output stays empty and standard error says "no legal play" (exit 0).
- ``show POSITION_ID[:MATCH_ID]`` — the position as a text board with pip counts; with a gnubg Match ID also the
  cube, score, Crawford flag and dice.
- ``replay FILE [--jacoby] [--beavers] [--automatic-doubles N] [--no-crawford] [--lenient]`` — replay a ``.mat``
  match file (any dialect, XG's ``Set Pos`` lines too) and print each game's winner and points, where the file's own
  text disagrees, and the final score. Exits 1 at the first illegal move, naming the game, the move number and the
  reason; with ``--lenient`` a play or double our rules refuse is imported as written and listed as a warning on
  standard error (game and move), as GNU Backgammon imports it. ``--no-crawford``: the match was played without
  the Crawford rule (else the header's ``; [Crawford "…"]``, default on).

Bad input (a malformed Position ID or Match ID, dice out of range, an unreadable file, a file that is not a match
file, options that do not suit the match) gives a one-line error on stderr and exit status 2, never a traceback.
This module is the only part of ``backgammon`` that does I/O.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .ascii import ascii_board
from .errors import BackgammonError, RuleSetError
from .ids import decode_match_id
from .matfile import parse_mat
from .moves import check_dice, dice_text, legal_plays
from .position import Position
from .replay import ReplayReport, replay

EXIT_OK, EXIT_ILLEGAL, EXIT_USAGE = 0, 1, 2


class _UsageError(Exception):
    """Raised instead of argparse's exit, so that every usage error is one line on stderr."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{message} (see: python -m {self.prog} --help)")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="backgammon", description="Backgammon rules engine tools (legal plays, boards, .mat replay).")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{legal,show,replay}")

    legal = commands.add_parser("legal", help="list the legal plays of a roll")
    legal.add_argument("position_id", metavar="POSITION_ID", help="gnubg Position ID, e.g. 4HPwATDgc/ABMA")
    legal.add_argument("dice", metavar="DICE", help="the roll, e.g. 31 or 6-6")

    show = commands.add_parser("show", help="draw a position as text")
    show.add_argument("ids", metavar="POSITION_ID[:MATCH_ID]", help="gnubg Position ID, optionally :Match ID")

    rep = commands.add_parser("replay", help="replay a .mat match file")
    rep.add_argument("file", metavar="FILE", help="a Jellyfish/gnubg .mat match file")
    rep.add_argument("--jacoby", action="store_true", help="Jacoby rule (money sessions only, RULES D4)")
    rep.add_argument("--beavers", action="store_true", help="beavers and raccoons (money sessions only, RULES D3)")
    rep.add_argument(
        "--automatic-doubles",
        type=_non_negative,
        default=0,
        metavar="N",
        help="limit of automatic doubles on opening ties (money sessions only, RULES G3)",
    )
    rep.add_argument("--no-crawford", action="store_true", help="the match was played without the Crawford rule (M3)")
    rep.add_argument(
        "--lenient",
        action="store_true",
        help="import what the site wrote: plays and doubles our rules refuse become warnings (as gnubg imports them)",
    )
    return parser


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; the limit is 0 (none) or more")
    return value


# -- commands ---------------------------------------------------------------------------------------------------------
def _cmd_legal(args: argparse.Namespace, out, err) -> int:
    position = Position.from_position_id(args.position_id)
    dice = check_dice(args.dice)
    plays = [play for play in legal_plays(position, dice) if play.moves]
    for play in plays:
        print(f"{play.notation()}\t{play.position.position_id()}", file=out)
    if not plays:
        print(f"no legal play: {dice_text(dice)} cannot be played here (RULES G9)", file=err)
    return EXIT_OK


def _cmd_show(args: argparse.Namespace, out) -> int:
    position_id, _, match_id = args.ids.partition(":")
    position = Position.from_position_id(position_id)
    state = decode_match_id(match_id) if match_id else None
    print(ascii_board(position, state=state), file=out)
    return EXIT_OK


def _points(value: int) -> str:
    return f"{value} point{'' if value == 1 else 's'}"


def _game_line(report: ReplayReport, index: int) -> str:
    game = report.games[index]
    names = report.record.players
    head = f"Game {game.number} ({game.score[0]}-{game.score[1]}{', Crawford' if game.crawford else ''}):"
    if game.skipped:
        return f"{head} not replayed (the match was already over)"
    if game.illegal is not None:
        return f"{head} stopped at move {game.illegal.move}: illegal move"
    if game.result is None:
        return f"{head} no result"
    result = game.result
    how = {"play": "bear-off", "drop": "double dropped", "resignation": "resignation", "forfeit": "forfeit"}
    return (
        f"{head} {names[result.winner]} wins {_points(result.points)} "
        f"({result.kind}, {how[result.ended_by]}, cube {result.cube})"
    )


def _cmd_replay(args: argparse.Namespace, out, err) -> int:
    try:
        with open(args.file, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise _UsageError(f"cannot read {args.file}: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        record = parse_mat(text, lenient=args.lenient)
    except BackgammonError as error:
        raise _UsageError(f"{args.file}: {error}") from None
    try:
        report = replay(
            record,
            jacoby=args.jacoby,
            beavers=args.beavers,
            automatic_doubles=args.automatic_doubles,
            lenient=args.lenient,
            crawford=False if args.no_crawford else None,
        )
    except RuleSetError as error:
        raise _UsageError(
            f"--jacoby, --beavers and --automatic-doubles are for money sessions (0 point match) only: {error}"
        ) from None
    names = record.players
    length = f"{record.length}-point match" if record.length else "money session"
    print(f"{length}: {names[0]} vs {names[1]}", file=out)
    first = report.first_illegal
    for index, game in enumerate(report.games):
        print(_game_line(report, index), file=out)
        if first is not None and game.illegal is first:
            print(f"illegal move: {first.describe(names)}", file=err)
            return EXIT_ILLEGAL
    for text in record.warnings:
        print(f"warning: {text}", file=err)
    for item in report.warnings:
        print(f"warning: {item.describe(names)} (imported as written, --lenient)", file=err)
    for discrepancy in report.discrepancies:
        where = f"line {discrepancy.line}: " if discrepancy.line else ""
        print(f"note: {where}{discrepancy.message}", file=out)
    a, b = report.score
    verdict = f"{names[report.winner]} wins the match" if report.winner is not None else "match not finished"
    if not record.length:
        verdict = "money session"
    raw = f" (raw {report.raw_score[0]}-{report.raw_score[1]})" if report.raw_score != report.score else ""
    print(f"Final score: {names[0]} {a}, {names[1]} {b}{raw} — {verdict}", file=out)
    return EXIT_OK


def main(argv: Sequence[str] | None = None, out=None, err=None) -> int:
    """Run the tool with ``argv`` (default ``sys.argv[1:]``); returns the exit status (0 ok, 1 illegal move in a
    replayed file, 2 bad input). Output goes to ``out``/``err`` (default stdout/stderr)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command == "legal":
            return _cmd_legal(args, out, err)
        if args.command == "show":
            return _cmd_show(args, out)
        return _cmd_replay(args, out, err)
    except (_UsageError, BackgammonError) as error:
        print(f"backgammon: error: {error}", file=err)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the Python docs' recipe (signal module)
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
