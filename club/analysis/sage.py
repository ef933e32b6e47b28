"""Open Sage (``bgsage``, MPL-2.0) behind the :class:`~club.analysis.engine.Engine` interface.

Open Sage evaluates cubeful checker play and cube decisions for money play (Jacoby, beavers) and match play (its
own match equity table, Crawford), with its weights inside the wheel; see the README "Analysis" for why it was chosen
over GNU Backgammon. Its board is 26 integers from the mover's view: ``[0]`` the opponent's bar, ``[1..24]`` the
points (positive = mover, negative = opponent), ``[25]`` the mover's bar. The legal plays are ours
(:func:`backgammon.moves.legal_plays`, RULES G4–G9); Open Sage's equities are matched to them by the resulting
position.

The networks are loaded once per engine (Open Sage's ``batch_*`` helpers load them on every call, ~0.1 s) and used
through its batch entry points (``bgbot_cpp.batch_checker_play`` / ``batch_evaluate_positions``), single-threaded:
parallelism comes from the worker processes of :mod:`club.analysis.pool`. Cube decisions use Open Sage's Janowski
interpolation on the N-ply cubeless probabilities (its batch path). Import this module only where ``bgsage`` is
installed (``requirements-analysis.txt``); :func:`club.analysis.engine_available` says whether it is.
"""

from __future__ import annotations

from collections.abc import Sequence

import bgbot_cpp
import bgsage
from bgsage.analyzer import resolve_owner

from backgammon.moves import Play, check_dice, legal_plays
from backgammon.position import Position

from .engine import CubeEquities, CubeState, PlayEquity

LEVELS = ("1ply", "2ply", "3ply")
FILTER_MAX_MOVES = 5  # Open Sage's defaults for the N-ply move filter
FILTER_THRESHOLD = 0.08


def to_board(position: Position) -> list[int]:
    """Open Sage's 26-slot board of ``position`` (seen by the player on roll; see the module docstring)."""
    player, opponent = position.player, position.opponent
    board = [0] * 26
    board[0] = opponent[24]
    board[25] = player[24]
    for point in range(1, 25):
        board[point] = player[point - 1] - opponent[24 - point]
    return board


def _owner(cube: CubeState):
    return resolve_owner({None: "centered", 0: "player", 1: "opponent"}[cube.owner])


def _money_options(states: Sequence[CubeState]) -> dict:
    """Open Sage takes Jacoby and beavers per batch, not per position: a batch is all match or all one money rule."""
    money = [s for s in states if not s.match_length]
    return {"jacoby": any(s.jacoby for s in money), "beaver": any(s.beavers for s in money)}


class SageEngine:
    """Open Sage at ``level`` (``"1ply"`` = its raw network, ``"2ply"``, ``"3ply"``: deeper and slower).

    Raises :class:`ValueError` for an unknown level.
    """

    name = "Open Sage"

    def __init__(self, level: str = "2ply") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown engine level {level!r}; the levels are {', '.join(LEVELS)}")
        self.level = level
        weights = bgsage.default_weights()
        paths, hiddens = weights.weight_args
        kind = getattr(weights, "strategy_type", "pair")
        self._one_ply = bgbot_cpp.create_strategy(kind, paths, hiddens)
        self._n_ply = None
        if level != "1ply":
            self._n_ply = bgbot_cpp.create_multipy(
                kind,
                paths,
                hiddens,
                n_plies=int(level[0]),
                filter_max_moves=FILTER_MAX_MOVES,
                filter_threshold=FILTER_THRESHOLD,
                parallel_evaluate=False,
                parallel_threads=0,
            )

    # -- one position ---------------------------------------------------------------------------------------------
    def best_plays(self, position: Position, dice: tuple[int, int], cube: CubeState) -> list[PlayEquity]:
        """See :meth:`club.analysis.engine.Engine.best_plays`."""
        return self.best_plays_many([(position, dice, cube)])[0]

    def cube_decision(self, position: Position, cube: CubeState) -> CubeEquities:
        """See :meth:`club.analysis.engine.Engine.cube_decision`."""
        return self.cube_decisions([(position, cube)])[0]

    # -- batches --------------------------------------------------------------------------------------------------
    def best_plays_many(self, items: Sequence[tuple[Position, tuple[int, int], CubeState]]) -> list[list[PlayEquity]]:
        """:meth:`best_plays` for many ``(position, dice, cube)`` at once (one engine call; same order)."""
        results: list[list[PlayEquity] | None] = [None] * len(items)
        inputs, pending = [], []
        for index, (position, dice, cube) in enumerate(items):
            dice = check_dice(dice)
            plays = legal_plays(position, dice)
            if len(plays) == 1:
                results[index] = [PlayEquity(plays[0], 0.0, 0.0)]
                continue
            inputs.append(_play_entry(position, dice, cube))
            pending.append((index, plays, cube))
        if inputs:
            raw = self._checker_play(inputs, [cube for _, _, cube in pending])
            for (index, plays, _cube), answer in zip(pending, raw, strict=True):
                results[index] = _ranked(plays, answer["moves"])
        return results  # type: ignore[return-value]

    def play_losses(self, items: Sequence[tuple[Position, tuple[int, int], CubeState, Position]]) -> list[float]:
        """The equity each play made lost against the best play of its roll: ``items`` ``(position, dice, cube,
        reached)`` with ``reached`` the position after the play (the mover's view). One engine call, without
        listing our legal plays (the cheap path of a screen, :mod:`club.analysis.screen`): the engine's own list
        of plays is matched by the position reached. A play it does not list (none expected) loses 1.0."""
        if not items:
            return []
        inputs = [_play_entry(position, check_dice(dice), cube) for position, dice, cube, _reached in items]
        raw = self._checker_play(inputs, [cube for _position, _dice, cube, _reached in items])
        losses = []
        for (_position, _dice, _cube, reached), answer in zip(items, raw, strict=True):
            equities = {tuple(move["board"]): float(move["equity"]) for move in answer["moves"]}
            made = equities.get(tuple(to_board(reached)))
            losses.append(1.0 if made is None else max(0.0, max(equities.values()) - made))
        return losses

    def _checker_play(self, inputs: list[dict], cubes: Sequence[CubeState]) -> list[dict]:
        jacoby = _money_options(cubes)["jacoby"]
        if self._n_ply is None:
            return bgbot_cpp.batch_checker_play(
                inputs, self._one_ply, FILTER_MAX_MOVES, FILTER_THRESHOLD, 1, jacoby=jacoby
            )
        return bgbot_cpp.batch_checker_play(
            inputs, self._one_ply, self._n_ply, FILTER_MAX_MOVES, FILTER_THRESHOLD, 1, jacoby=jacoby
        )

    def roll_equities(self, position: Position, cube: CubeState, *, opening: bool = False) -> dict:
        """The equity after the best play of each roll (21 rolls; 15 without doublets for an opening roll, RULES
        G2), before the cube turns, from ``position`` (player on roll), at the raw network's depth (as GNU Backgammon
        measures luck, at its 0-ply). Returns ``{(d1, d2): equity}`` with ``d1 ≥ d2``; a roll that cannot be played
        is valued by the position itself after the pass."""
        rolls = [(d1, d2) for d1 in range(6, 0, -1) for d2 in range(d1, 0, -1) if not (opening and d1 == d2)]
        inputs = [_play_entry(position, roll, cube) for roll in rolls]
        jacoby = _money_options([cube])["jacoby"]
        raw = bgbot_cpp.batch_checker_play(inputs, self._one_ply, FILTER_MAX_MOVES, FILTER_THRESHOLD, 1, jacoby=jacoby)
        found = {}
        for roll, answer in zip(rolls, raw, strict=True):
            moves = answer["moves"]
            found[roll] = max(float(m["equity"]) for m in moves) if moves else None
        missing = [roll for roll, value in found.items() if value is None]
        if missing:  # a dance: the equity of the unchanged position with the opponent to roll
            stay = self.cube_decisions([(position.swap(), cube.swapped())])[0]
            for roll in missing:
                found[roll] = -stay.best
        return found

    def cube_decisions(self, items: Sequence[tuple[Position, CubeState]]) -> list[CubeEquities]:
        """:meth:`cube_decision` for many ``(position, cube)`` at once (same order)."""
        if not items:
            return []
        inputs: list[tuple[object, ...]] = []  # money: (board, cube, owner); a match adds the aways and Crawford
        for position, cube in items:
            if cube.match_length:
                away1, away2 = cube.away
                inputs.append((to_board(position), cube.value, _owner(cube), away1, away2, cube.crawford))
            else:
                inputs.append((to_board(position), cube.value, _owner(cube)))
        options = _money_options([cube for _, cube in items])
        strategy = self._one_ply if self._n_ply is None else self._n_ply
        raw = bgbot_cpp.batch_evaluate_positions(inputs, strategy, 1, **options)
        return [
            CubeEquities(r["equity_nd"], r["equity_dt"], r["equity_dp"], bool(r.get("is_beaver", False))) for r in raw
        ]


def _play_entry(position: Position, dice: tuple[int, int], cube: CubeState) -> dict:
    """Open Sage's input for the plays of ``dice`` from ``position``."""
    entry = {
        "board": to_board(position),
        "die1": dice[0],
        "die2": dice[1],
        "cube_value": cube.value,
        "cube_owner": _owner(cube),
    }
    if cube.match_length:
        entry.update(away1=cube.away[0], away2=cube.away[1], is_crawford=cube.crawford)
    return entry


def _ranked(plays: list[Play], moves: list[dict]) -> list[PlayEquity]:
    """Our legal plays ranked by the engine's equities (matched by resulting position)."""
    by_board = {tuple(to_board(play.position)): play for play in plays}
    ranked = []
    for move in moves:
        play = by_board.pop(tuple(move["board"]), None)
        if play is not None:
            ranked.append((float(move["equity"]), play))
    ranked.sort(key=lambda item: -item[0])
    best = ranked[0][0] if ranked else 0.0
    # a play the engine did not list (none expected) sorts last, valued a whole point below the best
    ranked += [(best - 1.0, play) for play in by_board.values()]
    return [PlayEquity(play, equity, max(0.0, best - equity)) for equity, play in ranked]
