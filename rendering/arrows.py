"""The last play on the board picture (RULES G4, G10): the see-through ghosts of the checkers that moved, the arrows
of each move routed around the dice and the cubes (:func:`arrow_obstacles`, :func:`last_play_routes`, drawn by
:mod:`rendering.lastplay`'s paths) and the hit markers; and where the dice and the offered cube stand
(:func:`offered_cube_box`), which the arrows avoid. Split out of :mod:`rendering.board`, which re-exports the
public names."""

from __future__ import annotations

from .lastplay import Box, last_play_paths, route_around
from .layout import BoardLayout
from .sprites import ghost_sprite, paste
from .text import layout_text
from .themes import WHITE, Theme
from .view import VIEWER, BoardView
from .words import _colours


def offered_cube_box(layout: BoardLayout, view: BoardView) -> tuple[float, float, float, float] | None:
    """Where the offered cube and its words are drawn (``x0, y0, x1, y1``), or None when no offer is pending: in
    the taker's throwing area (the side that must answer, ``on_roll``), on the centre line (RULES D1, D3)."""
    if view.offered_cube is None or not view.show_cube:
        return None
    x, y = layout.action_centre(view.on_roll or VIEWER)
    size = layout.text(14)
    half = max(layout.cube_size / 2, layout_text("raccoon", size, True).width / 2 + 2)
    return x - half, y - layout.cube_size / 2 - 3, x + half, y + layout.cube_size / 2 + size * 2.7


def _dice_box(layout: BoardLayout, view: BoardView) -> tuple[float, float, float, float] | None:
    side = view.shown_dice_side
    if side is None:
        return None
    (x0, y), (x1, _) = layout.dice_centres(side)
    half = layout.die_size / 2 + 2
    return x0 - half, y - half, x1 + half, y + half


def _shorten(a, b, by: float):
    """Point ``by`` pixels from ``b`` toward ``a`` (``b`` itself if the segment is shorter)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length <= by * 1.5:
        return b
    return b[0] - dx / length * by, b[1] - dy / length * by


def _arrow(draw, points, theme: Theme, width: float, head: float) -> None:
    """A polyline with an arrowhead at its last point: ``theme.arrow`` core on a ``theme.arrow_edge`` outline."""
    tip = points[-1]
    before = points[-2]
    dx, dy = tip[0] - before[0], tip[1] - before[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    ux, uy = dx / length, dy / length
    base = (tip[0] - ux * head, tip[1] - uy * head)
    line = [*points[:-1], base]
    wing = head * 0.6
    triangle = [tip, (base[0] - uy * wing, base[1] + ux * wing), (base[0] + uy * wing, base[1] - ux * wing)]
    edge = max(1, round(width * 0.35))
    draw.line(line, fill=theme.arrow_edge, width=round(width + 2 * edge), joint="curve")
    draw.polygon(triangle, fill=theme.arrow_edge, outline=theme.arrow_edge, width=edge * 2)
    draw.line(line, fill=theme.arrow, width=round(width), joint="curve")
    draw.polygon(triangle, fill=theme.arrow)


def _column_cube_box(layout: BoardLayout, view: BoardView) -> Box | None:
    if view.crawford or not view.show_cube or view.offered_cube is not None:
        return None
    x, y = layout.cube_centre(view.cube_owner)
    half = layout.cube_size / 2 + 2
    return x - half, y - half, x + half, y + half


def arrow_obstacles(layout: BoardLayout, view: BoardView) -> list[Box]:
    """The rectangles the last-play arrows must not cross: the dice shown, the cube in its column and the offered
    cube with its words."""
    boxes = (_dice_box(layout, view), _column_cube_box(layout, view), offered_cube_box(layout, view))
    return [box for box in boxes if box is not None]


def last_play_routes(layout: BoardLayout, view: BoardView) -> list[list[tuple[float, float]]]:
    """The polylines of the last-play arrows (pixels), routed around :func:`arrow_obstacles`."""
    if not view.last_play or view.last_mover is None:
        return []
    mover = view.last_mover
    r = layout.checker / 2
    obstacles = arrow_obstacles(layout, view)
    routes = []
    for path in last_play_paths(view.position, view.last_play, mover == VIEWER):
        centres = [layout.checker_centre(mover, stop.point, stop.slot) for stop in path.stops]
        start = _shorten(centres[1], centres[0], r * 0.25)
        end = _shorten(centres[-2], centres[-1], r * 0.35)
        routes.append(route_around([start, *centres[1:-1], end], obstacles, layout.checker * 0.3))
    return routes


def _draw_last_play(image, draw, theme: Theme, layout: BoardLayout, view: BoardView) -> None:
    if not view.last_play or view.last_mover is None:
        return
    mover = view.last_mover
    colours = _colours(theme, view, mover)
    paths = last_play_paths(view.position, view.last_play, mover == VIEWER)
    ghost = ghost_sprite(colours.fill, colours.rim, layout.checker, theme.ghost_alpha)
    for path in paths:
        if path.ghost:
            paste(image, ghost, layout.checker_centre(mover, path.stops[0].point, path.stops[0].slot))
    for route in last_play_routes(layout, view):
        _arrow(draw, route, theme, layout.checker * 0.12, layout.checker * 0.42)
    for path in paths:
        for stop in path.stops[1:]:
            if stop.hit:
                _hit_marker(draw, theme, layout, layout.checker_centre(mover, stop.point, stop.slot))


def _hit_marker(draw, theme: Theme, layout: BoardLayout, centre) -> None:
    """A vermillion badge with a white cross at the upper right of the checker that hit (RULES G4)."""
    r = layout.checker * 0.26
    cx, cy = centre[0] + layout.checker * 0.36, centre[1] - layout.checker * 0.36
    edge = max(1, round(layout.scale * 2))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.hit_marker, outline=theme.arrow_edge, width=edge)
    k = r * 0.5
    width = max(2, round(r * 0.3))
    draw.line((cx - k, cy - k, cx + k, cy + k), fill=WHITE, width=width)
    draw.line((cx - k, cy + k, cx + k, cy - k), fill=WHITE, width=width)
