"""Text that never crashes and never vanishes: per-character font fallback over the bundled fonts.

Members' names may hold accents, Cyrillic, Greek, Hebrew, Arabic, CJK, Hangul and emoji. Each character is drawn with
the first bundled font whose character map has it: DejaVu Sans (Latin, Greek, Cyrillic, Hebrew, Arabic, many
symbols), then Droid Sans Fallback (CJK ideographs, kana, Hangul). Emoji are drawn in colour with the bundled Noto
Color Emoji (OFL): a whole emoji sequence — a flag, a skin tone, a ZWJ family, a keycap — is one cluster shaped by
libraqm and scaled to the text; where libraqm is missing its first emoji is drawn. A character no font has becomes
U+FFFD "�" (a visible mark, never an empty box); control and format characters (bidi overrides) are dropped.

Left-to-right text is laid out with Pillow's basic layout engine (no shaping), which is deterministic. A run of
right-to-left script (Hebrew, Arabic, with the spaces and digits between its letters) is laid out by libraqm,
right to left and shaped (Arabic letters joined), inside the left-to-right line.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from .cmap import FontFileError, font_codepoints


class Align(StrEnum):
    """Where a text stands about its x: starting there, centred on it, or ending there."""

    LEFT = "left"
    CENTRE = "centre"
    RIGHT = "right"


FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FALLBACK = FONT_DIR / "DroidSansFallback.ttf"
EMOJI = FONT_DIR / "NotoColorEmoji.ttf"
EMOJI_PX = 109  # the one size of Noto Color Emoji's bitmaps
RAQM = features.check("raqm")

_ELLIPSIS = "…"


@cache
def _codepoints(path: Path) -> frozenset[int]:
    try:
        return font_codepoints(path)
    except (FontFileError, OSError, IndexError):  # unreadable map: trust the font for printable ASCII only
        return frozenset(range(0x20, 0x7F))


@lru_cache(maxsize=256)
def font(path: Path, size: int, shaped: bool = False) -> ImageFont.FreeTypeFont:
    """The font file at ``path`` at ``size`` pixels (em height), cached; basic layout engine, or libraqm's
    (``shaped``, when installed) for right-to-left runs and emoji sequences. A font that cannot be loaded falls back
    to the bundled :data:`REGULAR`, and that to Pillow's own default font, so a missing file never stops a picture."""
    engine = ImageFont.Layout.RAQM if shaped and RAQM else ImageFont.Layout.BASIC
    for candidate in dict.fromkeys((path, REGULAR)):
        try:
            return ImageFont.truetype(str(candidate), size, layout_engine=engine)
        except OSError:
            continue
    fallback = ImageFont.load_default(size)
    assert isinstance(fallback, ImageFont.FreeTypeFont)  # Pillow built with FreeType, as truetype() above needs
    return fallback


def _rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _neutral(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("WS", "ON", "CS", "ES", "ET", "EN", "AN", "NSM", "BN", "S")


def _emoji_start(ch: str, following: str, primary: Path) -> bool:
    """True if ``ch`` starts an emoji drawn in colour: an emoji-font character in the emoji planes, or any emoji
    character followed by VS16 (emoji presentation), or one no text font has."""
    code = ord(ch)
    if code not in _codepoints(EMOJI):
        return False
    if following == "\ufe0f" or following == "\u20e3":
        return True
    if code >= 0x1F000:
        return True
    return code not in _codepoints(primary) and code not in _codepoints(FALLBACK)


def _emoji_tail(ch: str) -> bool:
    """Characters that continue an emoji cluster: variation selectors, skin tones, keycap, tags."""
    code = ord(ch)
    return 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or code == 0x20E3 or 0xE0020 <= code <= 0xE007F


def font_problem() -> str | None:
    """What is wrong with the bundled fonts (:data:`REGULAR`, :data:`BOLD`, :data:`FALLBACK`), in one line, or
    None: a missing or unreadable file names itself and says to restore ``rendering/fonts``."""
    missing = []
    for path in (REGULAR, BOLD, FALLBACK):
        try:
            ImageFont.truetype(str(path), 12)
        except OSError:
            missing.append(path.name)
    if not missing:
        return None
    return (f"the bundled font(s) {', '.join(missing)} are missing or unreadable in {FONT_DIR}: restore the "
            "rendering/fonts folder from the project (git checkout rendering/fonts)")  # fmt: skip


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
    """A piece of a line drawn with one font: ``font_path`` is a bundled font (:data:`EMOJI`: one colour emoji
    cluster), or ``None`` for a character no font has (drawn as U+FFFD); ``rtl``: laid out right to left."""

    text: str
    font_path: Path | None
    width: float
    rtl: bool = False


@dataclass(frozen=True, slots=True)
class TextLine:
    """A line of text split into :class:`Run` pieces; ``width`` in pixels at ``size``."""

    runs: tuple[Run, ...]
    size: int
    width: float

    @property
    def text(self) -> str:
        """The characters drawn (in logical order; unknown characters shown as U+FFFD)."""
        return "".join(run.text if run.font_path else "\ufffd" * len(run.text) for run in self.runs)


def _split(text: str, primary: Path) -> list[tuple[str, Path | None, bool]]:
    """Assign each visible character a font (:data:`EMOJI` for a colour emoji cluster, ``None`` = no font has it)
    and a direction (True: in a right-to-left run)."""
    text = unicodedata.normalize("NFC", text.replace("\t", " ").replace("\n", " ").replace("\r", " "))
    chain = (primary, FALLBACK)
    pieces: list[list] = []  # [text, font, rtl]
    i = 0
    while i < len(text):
        ch = text[i]
        following = text[i + 1] if i + 1 < len(text) else ""
        code = ord(ch)
        if _emoji_start(ch, following, primary):
            j = i + 1
            while j < len(text):
                if _emoji_tail(text[j]):
                    j += 1
                elif text[j] == "\u200d" and j + 1 < len(text) and ord(text[j + 1]) in _codepoints(EMOJI):
                    j += 2
                elif 0x1F1E6 <= code <= 0x1F1FF and j == i + 1 and 0x1F1E6 <= ord(text[j]) <= 0x1F1FF:
                    j += 1  # the second half of a flag
                else:
                    break
            pieces.append([text[i:j], EMOJI, False])
            i = j
            continue
        i += 1
        if ch == "\u200d" or _invisible(ch):
            continue
        if unicodedata.combining(ch):
            # a combining mark with no precomposed form: keep it with its base if that font has it, else drop it
            if pieces and pieces[-1][1] not in (None, EMOJI) and code in _codepoints(pieces[-1][1]):
                pieces[-1][0] += ch
            continue
        chosen: Path | None = next((path for path in chain if code in _codepoints(path)), None)
        rtl = _rtl(ch) or (_neutral(ch) and bool(pieces) and pieces[-1][2] and _rtl_ahead(text, i))
        if pieces and pieces[-1][1] == chosen and chosen is not EMOJI and pieces[-1][2] == rtl:
            pieces[-1][0] += ch
        else:
            pieces.append([ch, chosen, rtl])
    return [(t, f, r) for t, f, r in pieces if t]


def _rtl_ahead(text: str, start: int) -> bool:
    """True if the next strong character from ``start`` on is right to left (so a neutral joins the run)."""
    for ch in text[start:]:
        if _rtl(ch):
            return True
        if not _neutral(ch) and not _invisible(ch):
            return False
    return False


@lru_cache(maxsize=512)
def _emoji_image(cluster: str, height: int) -> Image.Image | None:
    """The colour emoji ``cluster`` as an RGBA image ``height`` pixels tall (None if nothing could be drawn)."""
    shaped = RAQM
    source = cluster if shaped else cluster[0]
    face = font(EMOJI, EMOJI_PX, shaped)
    try:
        box = face.getbbox(source)
        big = Image.new("RGBA", (max(1, int(box[2])) + 4, max(1, int(box[3])) + 4), (0, 0, 0, 0))
        ImageDraw.Draw(big).text((0, 0), source, font=face, embedded_color=True)
    except (OSError, ValueError):
        return None
    ink = big.getbbox()
    if ink is None:
        return None
    big = big.crop(ink)
    width = max(1, round(big.width * height / big.height))
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _emoji_height(size: int) -> int:
    return max(4, round(size * 0.9))


@lru_cache(maxsize=2048)
def layout_text(text: str, size: int, bold: bool = False) -> TextLine:
    """Split ``text`` into runs by font and direction at ``size`` pixels; bold uses DejaVu Sans Bold for what it
    covers.

    Never raises for any string: a colour emoji cluster is one run, a character no font has is drawn as U+FFFD.
    """
    primary = BOLD if bold else REGULAR
    runs: list[Run] = []
    total = 0.0
    for piece, path, rtl in _split(text, primary):
        if path is EMOJI:
            image = _emoji_image(piece, _emoji_height(size))
            if image is None:
                width = font(primary, size).getlength("\ufffd")
                runs.append(Run("\ufffd", primary, width))
            else:
                width = image.width + size * 0.12
                runs.append(Run(piece, EMOJI, width))
        elif path is None:
            width = font(primary, size).getlength("\ufffd") * len(piece)
            runs.append(Run(piece, None, width))
        elif rtl and RAQM:
            width = font(path, size, True).getlength(piece, direction="rtl")
            runs.append(Run(piece, path, width, True))
        else:
            width = font(path, size).getlength(piece)
            runs.append(Run(piece, path, width))
        total += width
    return TextLine(tuple(runs), size, total)


def has_emoji(text: str) -> bool:
    """True if ``text`` holds a colour emoji (drawn from :data:`EMOJI`)."""
    return any(path is EMOJI for _piece, path, _rtl in _split(text, REGULAR))


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


def wrap_text(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
    """``text`` cut between words into lines each at most ``max_width`` pixels wide at ``size`` (a word wider than
    that stays whole on its own line, for :func:`fit_text` to shorten when drawn)."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and layout_text(joined, size, bold).width <= max_width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines


def _paste_emoji(draw: ImageDraw.ImageDraw, image: Image.Image, x: float, baseline: float, size: int) -> None:
    target = getattr(draw, "_image", None)
    if target is None:
        return
    top = round(baseline - size * 0.8)
    left = round(x + size * 0.06)
    alpha = image.getchannel("A")
    if target.mode == "RGBA":
        target.alpha_composite(image, (left, top))
    elif target.mode in ("RGB", "L"):
        target.paste(image.convert(target.mode), (left, top), alpha)
    else:
        target.paste(image.convert("RGB").convert(target.mode), (left, top), alpha)


def draw_line(draw: ImageDraw.ImageDraw, line: TextLine, x: float, baseline: float, fill) -> None:
    """Draw ``line`` with its left end at ``x`` and its baseline at ``baseline`` (pixels), in colour ``fill``
    (colour emoji keep their colours)."""
    size = line.size
    for run in line.runs:
        if run.font_path is EMOJI:
            image = _emoji_image(run.text, _emoji_height(size))
            if image is not None:
                _paste_emoji(draw, image, x, baseline, size)
        elif run.font_path is None:
            face = font(REGULAR, size)
            draw.text((x, baseline), "\ufffd" * len(run.text), font=face, fill=fill, anchor="ls")
        elif run.rtl:
            face = font(run.font_path, size, True)
            draw.text((x, baseline), run.text, font=face, fill=fill, anchor="ls", direction="rtl")
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
    if align == Align.CENTRE:
        x -= line.width / 2
    elif align == Align.RIGHT:
        x -= line.width
    draw_line(draw, line, x, xy[1], fill)
    return line
