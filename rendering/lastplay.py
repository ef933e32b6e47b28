"""How the last play is marked: which checker came from where and went where, and which blots it hit.

Moves of one checker are chained (``13/7 7/5`` is one path 13 → 7 → 5, as the notation writes ``13/7/5``). For each
path the picture shows a see-through "ghost" checker where it started, an arrow through each point it touched, and a
hit marker on each point where it hit a blot (RULES G4). Slots are counted in the *resulting* position: the
checker that left a point stood just above the checkers still there, and the one that arrived is on top of its stack.
"""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.moves import Move
from backgammon.position import Position

from .layout import STACK


@dataclass(frozen=True, slots=True)
class Stop:
    """A place on a path: ``point`` in the mover's numbering (25 = bar, 0 = off), ``slot`` the checker slot there
    (see :class:`~rendering.layout.BoardLayout`), ``hit`` if the checker hit a blot on arriving."""

    point: int
    slot: int
    hit: bool = False


@dataclass(frozen=True, slots=True)
class Path:
    """One checker's route in the last play: ``stops[0]`` where it started (``ghost`` = whether a ghost checker
    fits there; a full stack shows its count instead), ``stops[-1]`` where it ended."""

    stops: tuple[Stop, ...]
    ghost: bool


def chain_moves(moves: tuple[Move, ...]) -> list[list[Move]]:
    """Group ``moves`` into one list per checker: a move continues a path that ended on its source point."""
    paths: list[list[Move]] = []
    for move in moves:
        for path in reversed(paths):  # the latest path first, as backgammon.notation does
            if path[-1].target == move.source and move.source != 0:
                path.append(move)
                break
        else:
            paths.append([move])
    return paths


def _count(side: tuple[int, ...], point: int, off: int) -> int:
    if point == 0:
        return off
    return side[point - 1]


def last_play_paths(position: Position, moves: tuple[Move, ...], mover_is_player: bool) -> list[Path]:
    """The :class:`Path` of each checker moved by ``moves`` (mover's numbering), placed in ``position`` — the
    position the play led to, seen from the viewer; ``mover_is_player`` says whether the mover is the viewer
    (``position.player``) or the opponent. Never raises for moves that do not fit the position: slots are clamped."""
    side = position.player if mover_is_player else position.opponent
    off = position.off_player if mover_is_player else position.off_opponent
    left_from: dict[int, int] = {}  # how many ghosts already placed per point
    arrived: dict[int, int] = {}  # how many path ends already placed per point
    result: list[Path] = []
    for chain in chain_moves(moves):
        origin = chain[0].source
        staying = _count(side, origin, off)
        ghost_slot = staying + left_from.get(origin, 0)
        left_from[origin] = left_from.get(origin, 0) + 1
        limit = STACK - 1 if origin != 0 else 14
        stops = [Stop(origin, min(ghost_slot, limit))]
        for move in chain[:-1]:  # points the checker touched on the way
            stops.append(Stop(move.target, min(_count(side, move.target, off), STACK - 1), move.hit))
        last = chain[-1]
        end = last.target
        here = _count(side, end, off)
        slot = here - 1 - arrived.get(end, 0)
        arrived[end] = arrived.get(end, 0) + 1
        end_limit = 14 if end == 0 else STACK - 1
        stops.append(Stop(end, max(0, min(slot, end_limit)), last.hit))
        result.append(Path(tuple(stops), ghost=ghost_slot < (STACK if origin != 0 else 15)))
    return result


Box = tuple[float, float, float, float]


def crosses(a, b, box: Box) -> bool:
    """True if the segment ``a``–``b`` passes through the rectangle ``box`` (``x0, y0, x1, y1``): Liang–Barsky."""
    x0, y0, x1, y1 = box
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def route_around(points, obstacles, clearance: float) -> list[tuple[float, float]]:
    """``points`` (a polyline) with detours so that no segment passes through any rectangle of ``obstacles``
    (the dice, an offered cube): a segment that would is bent around the nearer vertical side of the rectangle,
    ``clearance`` pixels away from it. Segments that start or end inside a rectangle are left alone."""
    route = [tuple(points[0])]
    for b in points[1:]:
        a = route[-1]
        for x0, y0, x1, y1 in obstacles:
            grown = (x0 - clearance / 2, y0 - clearance / 2, x1 + clearance / 2, y1 + clearance / 2)
            inside = any(g[0] <= p[0] <= g[2] and g[1] <= p[1] <= g[3] for p in (a, b) for g in (grown,))
            if inside or not crosses(a, b, grown):
                continue
            mid_x = (a[0] + b[0]) / 2
            side = x0 - clearance if abs(mid_x - x0) <= abs(mid_x - x1) else x1 + clearance
            top, bottom = y0 - clearance, y1 + clearance
            ends = (top, bottom) if a[1] <= b[1] else (bottom, top)
            route.extend([(side, ends[0]), (side, ends[1])])
            a = route[-1]
        route.append(tuple(b))
    return route
