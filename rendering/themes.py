"""Colour themes for the board picture: plain data, chosen by name from the config (``[rendering] theme``).

The default theme, ``"colourblind"``, never relies on a red/green contrast: the two sides are light and dark checkers
(they differ in lightness, which every kind of colour vision sees), the points alternate Okabe–Ito orange and sky blue
(distinct under protanopia, deuteranopia and tritanopia, and both far from either checker), and the last-play arrows
are yellow with a black edge. ``"classic"`` is the traditional green-felt board with red and ivory points;
``"high-contrast"`` is black, white and yellow for small screens and low vision.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

WHITE = (252, 252, 252)
BLACK = (0, 0, 0)


def snap(colour: RGB) -> RGB:
    """``colour`` with each channel rounded to a multiple of 4 (at most 252).

    Every theme colour is snapped so that the PNG palette mapping (which looks colours up with the two low bits
    cleared) keeps it exact: flat areas come out in exactly the theme's colours, which the tests read back.
    """
    return tuple(min(252, 4 * round(c / 4)) for c in colour)  # type: ignore[return-value]


def _snap_fields(obj) -> None:
    for name in obj.__slots__:
        value = getattr(obj, name)
        if isinstance(value, tuple) and len(value) == 3 and all(isinstance(c, int) for c in value):
            object.__setattr__(obj, name, snap(value))
        elif name == "point_colours":
            object.__setattr__(obj, name, tuple(snap(c) for c in value))


class UnknownThemeError(ValueError):
    """A theme name that is not one of :data:`THEMES`; the message lists the known names."""


@dataclass(frozen=True, slots=True)
class CheckerColours:
    """One side's checkers: ``fill`` (the face), ``rim`` (edge and inner ring), ``text`` (stack counts, dice pips)
    and ``name`` (how the colour is called in words, e.g. ``"white"``)."""

    fill: RGB
    rim: RGB
    text: RGB
    name: str

    def __post_init__(self) -> None:
        _snap_fields(self)


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour the renderer uses, as ``(r, g, b)`` tuples 0–255 (snapped to multiples of 4, see :func:`snap`).

    ``checkers[0]`` and ``checkers[1]`` are the two sides' colours; a :class:`~rendering.view.BoardView` says which
    one the viewer plays (``viewer_colour``). ``point_colours`` alternate along each row, starting at point 1.
    """

    name: str
    background: RGB
    frame: RGB
    frame_edge: RGB
    felt: RGB
    point_colours: tuple[RGB, RGB]
    point_number: RGB
    tray: RGB
    text: RGB
    text_muted: RGB
    accent: RGB
    checkers: tuple[CheckerColours, CheckerColours]
    cube_fill: RGB
    cube_edge: RGB
    cube_text: RGB
    arrow: RGB
    arrow_edge: RGB
    hit_marker: RGB
    ghost_alpha: int = 110  # 0–255: how solid the "came from here" checker outline's fill is
    panel: RGB = (0, 0, 0)

    def __post_init__(self) -> None:
        _snap_fields(self)


COLOURBLIND = Theme(
    name="colourblind",
    background=(34, 40, 49),
    frame=(62, 52, 46),
    frame_edge=(28, 23, 20),
    felt=(58, 86, 96),
    point_colours=((230, 159, 0), (86, 180, 233)),  # Okabe–Ito orange and sky blue
    point_number=(236, 228, 214),
    tray=(40, 50, 56),
    text=(240, 240, 240),
    text_muted=(170, 178, 189),
    accent=(240, 228, 66),  # Okabe–Ito yellow
    checkers=(
        CheckerColours(fill=(247, 244, 236), rim=(40, 40, 40), text=(20, 20, 20), name="white"),
        CheckerColours(fill=(30, 30, 34), rim=(225, 225, 225), text=(250, 250, 250), name="black"),
    ),
    cube_fill=(250, 250, 250),
    cube_edge=(20, 20, 20),
    cube_text=(20, 20, 20),
    arrow=(240, 228, 66),
    arrow_edge=(0, 0, 0),
    hit_marker=(213, 94, 0),  # Okabe–Ito vermillion, drawn with a black edge and a white cross
    panel=(46, 54, 64),
)

CLASSIC = Theme(
    name="classic",
    background=(40, 30, 24),
    frame=(112, 72, 40),
    frame_edge=(60, 36, 18),
    felt=(30, 96, 60),
    point_colours=((176, 38, 38), (236, 224, 196)),
    point_number=(250, 238, 210),
    tray=(70, 46, 26),
    text=(250, 240, 225),
    text_muted=(206, 186, 160),
    accent=(255, 204, 0),
    checkers=(
        CheckerColours(fill=(250, 246, 232), rim=(60, 45, 30), text=(30, 20, 10), name="ivory"),
        CheckerColours(fill=(28, 24, 22), rim=(200, 180, 150), text=(250, 240, 220), name="black"),
    ),
    cube_fill=(250, 246, 232),
    cube_edge=(30, 20, 10),
    cube_text=(30, 20, 10),
    arrow=(255, 204, 0),
    arrow_edge=(0, 0, 0),
    hit_marker=(0, 114, 178),
    panel=(64, 46, 34),
)

HIGH_CONTRAST = Theme(
    name="high-contrast",
    background=(0, 0, 0),
    frame=(40, 40, 40),
    frame_edge=(255, 255, 255),
    felt=(0, 0, 0),
    point_colours=((110, 110, 110), (200, 200, 200)),
    point_number=(255, 255, 255),
    tray=(20, 20, 20),
    text=(255, 255, 255),
    text_muted=(210, 210, 210),
    accent=(255, 221, 0),
    checkers=(
        CheckerColours(fill=(255, 255, 255), rim=(0, 0, 0), text=(0, 0, 0), name="white"),
        CheckerColours(fill=(0, 90, 181), rim=(255, 255, 255), text=(255, 255, 255), name="blue"),
    ),
    cube_fill=(255, 221, 0),
    cube_edge=(0, 0, 0),
    cube_text=(0, 0, 0),
    arrow=(255, 221, 0),
    arrow_edge=(0, 0, 0),
    hit_marker=(255, 80, 0),
    panel=(30, 30, 30),
)

THEMES: dict[str, Theme] = {theme.name: theme for theme in (COLOURBLIND, CLASSIC, HIGH_CONTRAST)}
DEFAULT_THEME = COLOURBLIND
_ALIASES = {"default": "colourblind", "colorblind": "colourblind", "high_contrast": "high-contrast"}


def theme_from_name(name: str | None) -> Theme:
    """The theme called ``name`` (case-insensitive; ``None`` or ``""`` = the default, ``"colourblind"``).

    Accepts ``"default"``, ``"colorblind"`` and ``"high_contrast"`` as aliases. Raises :class:`UnknownThemeError`
    naming the known themes for anything else.
    """
    if not name:
        return DEFAULT_THEME
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return THEMES[key]
    except KeyError:
        known = ", ".join(sorted(THEMES))
        raise UnknownThemeError(f"unknown board theme {name!r}; choose one of: {known}") from None
