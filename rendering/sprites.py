"""Small pictures drawn once (anti-aliased by supersampling) and pasted many times: checkers, ghosts, dice, cubes.

Each sprite is an ``(rgb, mask)`` pair of Pillow images of the same size, pasted with ``image.paste(rgb, box,
mask)``. Sprites are cached per (theme, size, …), so a render only pastes.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from .text import draw_text, layout_text
from .themes import RGB, Theme, snap

SUPERSAMPLE = 4

Sprite = tuple[Image.Image, Image.Image]

# Pip positions of a die face, as fractions of the die's size from its centre (RULES-independent, standard faces).
_PIP = 0.27
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_PIP, -_PIP), (_PIP, _PIP)),
    3: ((-_PIP, -_PIP), (0, 0), (_PIP, _PIP)),
    4: ((-_PIP, -_PIP), (_PIP, -_PIP), (-_PIP, _PIP), (_PIP, _PIP)),
    5: ((-_PIP, -_PIP), (_PIP, -_PIP), (0, 0), (-_PIP, _PIP), (_PIP, _PIP)),
    6: ((-_PIP, -_PIP), (_PIP, -_PIP), (-_PIP, 0), (_PIP, 0), (-_PIP, _PIP), (_PIP, _PIP)),
}
PIP_RADIUS = 0.085  # of the die's size


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b`` (0 = a, 1 = b)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _canvas(
    size: int, background: RGB
) -> tuple[int, Image.Image, Image.Image, ImageDraw.ImageDraw, ImageDraw.ImageDraw]:
    """A sprite's drawing surfaces at :data:`SUPERSAMPLE` times ``size``: ``(side in pixels, colour image filled
    with ``background``, empty mask, their two pens)``; :func:`_finish` shrinks them to the sprite."""
    big = size * SUPERSAMPLE
    rgb = Image.new("RGB", (big, big), background)
    mask = Image.new("L", (big, big), 0)
    return big, rgb, mask, ImageDraw.Draw(rgb), ImageDraw.Draw(mask)


def _finish(rgb: Image.Image, mask: Image.Image, size: int) -> Sprite:
    return rgb.resize((size, size), Image.Resampling.LANCZOS), mask.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def checker_sprite(fill: RGB, rim: RGB, size: int) -> Sprite:
    """A checker ``size`` pixels across: a ``fill`` face, a ``rim`` edge and a faint inner ring. The face colour is
    exact over the middle third, so tests can read it at the computed centre."""
    big, rgb, mask, d, m = _canvas(size, rim)
    edge = max(SUPERSAMPLE, round(big * 0.05))
    m.ellipse((0, 0, big - 1, big - 1), fill=255)
    d.ellipse((edge, edge, big - 1 - edge, big - 1 - edge), fill=fill)
    ring = round(big * 0.19)
    d.ellipse((ring, ring, big - 1 - ring, big - 1 - ring), outline=snap(mix(fill, rim, 0.35)), width=max(2, big // 40))
    return _finish(rgb, mask, size)


@lru_cache(maxsize=32)
def ghost_sprite(fill: RGB, rim: RGB, size: int, alpha: int) -> Sprite:
    """Where a checker of the last play came from: a dashed ``rim`` ring over a see-through ``fill`` disc."""
    big, rgb, mask, d, m = _canvas(size, fill)
    inset = round(big * 0.06)
    m.ellipse((inset, inset, big - 1 - inset, big - 1 - inset), fill=alpha)
    width = max(SUPERSAMPLE, round(big * 0.07))
    box = (inset, inset, big - 1 - inset, big - 1 - inset)
    for start in range(0, 360, 30):  # 12 dashes
        d.arc(box, start, start + 18, fill=rim, width=width)
        m.arc(box, start, start + 18, fill=255, width=width)
    return _finish(rgb, mask, size)


@lru_cache(maxsize=64)
def die_sprite(fill: RGB, edge: RGB, pip: RGB, size: int, value: int) -> Sprite:
    """A die face showing ``value`` 1–6: rounded ``fill`` square, ``edge`` border, ``pip`` dots at :data:`PIPS`."""
    big, rgb, mask, d, m = _canvas(size, edge)
    radius = round(big * 0.16)
    m.rounded_rectangle((0, 0, big - 1, big - 1), radius=radius, fill=255)
    border = max(SUPERSAMPLE, round(big * 0.05))
    d.rounded_rectangle((border, border, big - 1 - border, big - 1 - border), radius=radius - border, fill=fill)
    r = big * PIP_RADIUS
    for fx, fy in PIPS[value]:
        cx, cy = big / 2 + fx * big, big / 2 + fy * big
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)
    return _finish(rgb, mask, size)


def cube_label(value: int, centred: bool) -> str:
    """The number on the cube's face: its value, or 64 for a centred cube at 1 (the custom; RULES D1)."""
    return "64" if centred and value == 1 else str(value)


@lru_cache(maxsize=64)
def cube_sprite(theme: Theme, size: int, label: str) -> Sprite:
    """The doubling cube ``size`` pixels across with ``label`` in bold, as large as fits."""
    big, rgb, mask, d, m = _canvas(size, theme.cube_edge)
    radius = round(big * 0.14)
    m.rounded_rectangle((0, 0, big - 1, big - 1), radius=radius, fill=255)
    border = max(SUPERSAMPLE, round(big * 0.06))
    d.rounded_rectangle(
        (border, border, big - 1 - border, big - 1 - border), radius=radius - border, fill=theme.cube_fill
    )
    rgb, mask = _finish(rgb, mask, size)
    text_size = round(size * 0.56)
    while text_size > 6 and layout_text(label, text_size, True).width > size * 0.8:
        text_size -= 1
    draw_text(
        ImageDraw.Draw(rgb),
        (size / 2, size / 2 + text_size * 0.36),
        label,
        text_size,
        theme.cube_text,
        bold=True,
        align="centre",
    )
    return rgb, mask


def paste(image: Image.Image, sprite: Sprite, centre: tuple[float, float]) -> None:
    """Paste ``sprite`` onto ``image`` centred at ``centre`` (rounded to whole pixels)."""
    rgb, mask = sprite
    x = round(centre[0] - rgb.width / 2)
    y = round(centre[1] - rgb.height / 2)
    image.paste(rgb, (x, y), mask)
