"""Animated boards: a sequence of :class:`~rendering.view.BoardView` frames as one GIF or APNG (Pillow).

:func:`render_animation` draws each view with :func:`~rendering.board.render_image` and writes them as an animated
image that loops: every frame shown ``frame_ms``, the first and last held ``hold_ms``. The result stays under
:data:`MAX_BYTES` (Discord shares it inline): when it would not, the frames are drawn again narrower. A pure function
of its inputs, no Discord types.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from backgammon.moves import Move, apply_move, dice_text
from backgammon.position import Position

from .board import render_image
from .themes import Theme
from .view import VIEWER, BoardView

MAX_BYTES = 2 * 1024 * 1024
"""The largest animation written (2 MB)."""
ANIMATION_WIDTH = 600
FORMATS = ("GIF", "PNG")


class AnimationError(ValueError):
    """No frame to draw, an unknown format, or an animation that stays above :data:`MAX_BYTES` even narrow."""


def _encode(frames: list[Image.Image], durations: list[int], fmt: str) -> bytes:
    out = io.BytesIO()
    if fmt == "GIF":
        palette = [frame.convert("P", palette=Image.Palette.ADAPTIVE, colors=128) for frame in frames]
        palette[0].save(
            out, "GIF", save_all=True, append_images=palette[1:], duration=durations, loop=0, optimize=True,
            disposal=1,
        )  # fmt: skip
    else:
        frames[0].save(out, "PNG", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return out.getvalue()


def render_animation(
    views: Sequence[BoardView],
    theme: Theme | str | None = None,
    *,
    width: int = ANIMATION_WIDTH,
    fmt: str = "GIF",
    frame_ms: int = 900,
    hold_ms: int = 2200,
    home: str = "right",
) -> bytes:
    """The animation of ``views`` in order (``fmt`` ``"GIF"`` or ``"PNG"`` for APNG), ``width`` pixels wide (the
    board's width), at most :data:`MAX_BYTES`. Durations in milliseconds: ``frame_ms`` per frame, ``hold_ms`` for
    the first and the last. Raises :class:`AnimationError` (no view, unknown format, too large even at 360 px) and
    what :func:`~rendering.board.render_image` raises for a bad view."""
    if not views:
        raise AnimationError("an animation needs at least one frame")
    fmt = fmt.upper()
    if fmt not in FORMATS:
        raise AnimationError(f"unknown animation format {fmt!r}: GIF or PNG (APNG)")
    durations = [frame_ms] * len(views)
    durations[0] = durations[-1] = hold_ms
    while True:
        frames = [render_image(view, theme, width=width, home=home) for view in views]
        data = _encode(frames, durations, fmt)
        if len(data) <= MAX_BYTES:
            return data
        if width <= 360:
            raise AnimationError(f"the animation is {len(data):,} bytes even {width} px wide (at most {MAX_BYTES:,})")
        width = max(360, int(width * 0.8))


def play_frames(
    position: Position, moves: Sequence[Move], dice: tuple[int, int], header: str, **board
) -> list[BoardView]:
    """The frames of one play, drawn from the mover's side (he is the viewer, at the bottom): ``position`` before
    it with ``dice`` shown and "to play", then one frame per checker moved (``moves`` in the mover's numbering, the
    ones so far marked), the last the position after the whole play with ``header`` above it. ``board``: the other
    :class:`~rendering.view.BoardView` fields (names, colour, cube, score, match length)."""
    roll = dice_text(dice)
    common = dict(board, dice=tuple(dice), dice_side=VIEWER, position_id="")
    views = [BoardView(position, on_roll=VIEWER, awaiting=f"to play {roll}", **common)]
    moves = tuple(moves)
    reached = position
    for count, move in enumerate(moves, start=1):
        reached, _hit = apply_move(reached, move.source, move.target)
        last = count == len(moves)
        views.append(
            BoardView(
                reached, on_roll=None if last else VIEWER, awaiting=header if last else f"plays {roll}",
                last_play=moves[:count], last_mover=VIEWER, last_dice=(dice[0], dice[1]) if last else None, **common,
            )
        )  # fmt: skip
    if not moves:
        views.append(BoardView(position, on_roll=None, awaiting=header, **common))
    return views


def frames_of(data: bytes) -> list[Image.Image]:
    """The frames of an animation written by :func:`render_animation`, each as an RGB image (for checks and for
    looking at them one by one)."""
    image = Image.open(io.BytesIO(data))
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append(image.convert("RGB"))
    return frames
