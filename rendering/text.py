"""Text that never crashes and never vanishes: per-character font fallback over the bundled fonts.

Members' names may hold accents, Cyrillic, Greek, CJK, Hangul and emoji. Each character is drawn with the first
bundled font whose character map has it: DejaVu Sans (Latin, Greek, Cyrillic, many symbols), then Droid Sans
Fallback (CJK ideographs, kana, Hangul). A character no font has (most emoji) becomes one placeholder box, and the
invisible parts of emoji sequences (zero-width joiner, variation selectors, skin-tone modifiers, tags, a second
regional indicator) are folded into it; control and format characters (including bidi overrides) are dropped.

Text is laid out with Pillow's basic layout engine (no shaping, left to right), which is deterministic and does not
depend on libraqm being installed.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

from .cmap import FontFileError, font_codepoints

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FALLBACK = FONT_DIR / "DroidSansFallback.ttf"

PLACEHOLDER = "placeholder"
_ELLIPSIS = "…"


@cache
def _codepoints(path: Path) -> frozenset[int]:
    try:
        return font_codepoints(path)
    except (FontFileError, OSError, IndexError):  # unreadable map: trust the font for printable ASCII only
        return frozenset(range(0x20, 0x7F))


@lru_cache(maxsize=256)
def font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    """The font file at ``path`` at ``size`` pixels (em height), cached; basic layout engine."""
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


def _invisible(ch: str) -> bool:
    """Zero-width characters that belong to a neighbour (ZWJ, variation selectors, skin tones, tags, controls)."""
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:  # variation selectors
        return True
    if 0x1F3FB <= code <= 0x1F3FF:  # emoji skin-tone modifiers
        return True
    return unicodedata.category(ch) in ("Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp")


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of a line drawn with one font: ``font_path`` is a bundled font, or ``None`` for a placeholder box."""

    text: str
    font_path: Path | None
    width: float


@dataclass(frozen=True, slots=True)
class TextLine:
    """A line of text split into :class:`Run` pieces; ``width`` in pixels at ``size``."""

    runs: tuple[Run, ...]
    size: int
    width: float

    @property
    def text(self) -> str:
        """The characters drawn (placeholders shown as U+FFFD)."""
        return "".join(run.text if run.font_path else "\ufffd" * len(run.text) for run in self.runs)


def _split(text: str, primary: Path) -> list[tuple[str, Path | None]]:
    """Assign each visible character a font (or ``None`` = placeholder), folding emoji sequences together."""
    text = unicodedata.normalize("NFC", text.replace("\t", " ").replace("\n", " ").replace("\r", " "))
    chain = (primary, FALLBACK)
    pieces: list[tuple[str, Path | None]] = []
    joined = False  # the previous character was a zero-width joiner
    for ch in text:
        code = ord(ch)
        if ch == "\u200d":
            joined = bool(pieces) and pieces[-1][1] is None
            continue
        if _invisible(ch):
            continue
        if joined:  # the rest of an emoji ZWJ sequence shares the box before it
            pieces[-1] = (pieces[-1][0] + ch, None)
            joined = False
            continue
        if unicodedata.combining(ch):
            # a combining mark with no precomposed form: keep it with its base if that font has it, else drop it
            if pieces and pieces[-1][1] is not None and code in _codepoints(pieces[-1][1]):
                pieces[-1] = (pieces[-1][0] + ch, pieces[-1][1])
            continue
        chosen: Path | None = None
        for path in chain:
            if code in _codepoints(path):
                chosen = path
                break
        if chosen is None:
            regional = 0x1F1E6 <= code <= 0x1F1FF
            if regional and pieces and pieces[-1][1] is None and _pair_open(pieces[-1][0]):
                pieces[-1] = (pieces[-1][0] + ch, None)  # the second half of a flag
            else:
                pieces.append((ch, None))  # one box per placeholder piece
        elif pieces and pieces[-1][1] == chosen:
            pieces[-1] = (pieces[-1][0] + ch, chosen)
        else:
            pieces.append((ch, chosen))
    return pieces


def _pair_open(box: str) -> bool:
    """True if a placeholder is a lone regional indicator (the first half of a flag)."""
    return len(box) == 1 and 0x1F1E6 <= ord(box) <= 0x1F1FF


def _placeholder_width(size: int) -> float:
    return round(size * 0.8)


@lru_cache(maxsize=2048)
def layout_text(text: str, size: int, bold: bool = False) -> TextLine:
    """Split ``text`` into runs by font at ``size`` pixels; bold uses DejaVu Sans Bold for what it covers.

    Never raises for any string: unknown characters become placeholder runs (one box per emoji sequence).
    """
    primary = BOLD if bold else REGULAR
    runs: list[Run] = []
    total = 0.0
    for piece, path in _split(text, primary):
        if path is None:
            width = _placeholder_width(size) + size * 0.1
            runs.append(Run("\ufffd", None, width))
        else:
            width = font(path, size).getlength(piece)
            runs.append(Run(piece, path, width))
        total += width
    return TextLine(tuple(runs), size, total)


@lru_cache(maxsize=1024)
def fit_text(text: str, size: int, max_width: float, bold: bool = False) -> TextLine:
    """:func:`layout_text`, shortened with a trailing "…" so that it is at most ``max_width`` pixels wide."""
    line = layout_text(text, size, bold)
    if line.width <= max_width:
        return line
    cleaned = unicodedata.normalize("NFC", text)
    low, high = 0, len(cleaned)
    best = layout_text(_ELLIPSIS, size, bold)
    while low < high:  # longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        candidate = layout_text(cleaned[:middle].rstrip() + _ELLIPSIS, size, bold)
        if candidate.width <= max_width:
            best = candidate
            low = middle
        else:
            high = middle - 1
    return best


def draw_line(draw: ImageDraw.ImageDraw, line: TextLine, x: float, baseline: float, fill) -> None:
    """Draw ``line`` with its left end at ``x`` and its baseline at ``baseline`` (pixels), in colour ``fill``."""
    size = line.size
    for run in line.runs:
        if run.font_path is None:
            box = _placeholder_width(size)
            step = box + size * 0.1
            for i in range(len(run.text)):
                left = round(x + i * step + size * 0.05)
                top = round(baseline - size * 0.72)
                draw.rounded_rectangle(
                    (left, top, left + box - 1, round(baseline) - 1),
                    radius=max(1, size // 8),
                    outline=fill,
                    width=max(1, size // 14),
                )
        else:
            draw.text((x, baseline), run.text, font=font(run.font_path, size), fill=fill, anchor="ls")
        x += run.width


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill,
    *,
    bold: bool = False,
    align: str = "left",
    max_width: float | None = None,
) -> TextLine:
    """Draw ``text`` with its baseline at ``xy[1]``; ``align`` "left", "centre" or "right" places it about ``xy[0]``.

    ``max_width`` (pixels) shortens the text with "…" to fit. Returns the laid-out :class:`TextLine`.
    """
    line = fit_text(text, size, max_width, bold) if max_width is not None else layout_text(text, size, bold)
    x = xy[0]
    if align == "centre":
        x -= line.width / 2
    elif align == "right":
        x -= line.width
    draw_line(draw, line, x, xy[1], fill)
    return line
