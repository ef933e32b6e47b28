"""Which characters a TrueType/OpenType font has: a small reader of the font's ``cmap`` table.

Pillow has no "has glyph" call, and a missing character silently renders the font's ``.notdef`` box. This module
reads the character map (subtable formats 4 and 12, which every Unicode font carries) straight from the file so the
text renderer can pick, per character, a font that really has it. Font collections (``.ttc``) are read at face 0.
Pure Python, no dependency beyond :mod:`struct`.
"""

from __future__ import annotations

import struct
from pathlib import Path


class FontFileError(ValueError):
    """The file is not a TrueType/OpenType font or collection with a Unicode ``cmap`` subtable we can read."""


def _table_offset(data: bytes, tag: bytes) -> int:
    base = 0
    if data[:4] == b"ttcf":
        (base,) = struct.unpack_from(">I", data, 12)  # first face of the collection
    (num_tables,) = struct.unpack_from(">H", data, base + 4)
    for i in range(num_tables):
        entry = base + 12 + 16 * i
        if data[entry : entry + 4] == tag:
            return struct.unpack_from(">I", data, entry + 8)[0]
    raise FontFileError(f"font has no {tag.decode()!r} table")


def _format4(data: bytes, at: int) -> set[int]:
    seg_x2 = struct.unpack_from(">H", data, at + 6)[0]
    ends = at + 14
    starts = ends + seg_x2 + 2
    deltas = starts + seg_x2
    ranges = deltas + seg_x2
    codes: set[int] = set()
    for seg in range(seg_x2 // 2):
        end = struct.unpack_from(">H", data, ends + 2 * seg)[0]
        start = struct.unpack_from(">H", data, starts + 2 * seg)[0]
        delta = struct.unpack_from(">h", data, deltas + 2 * seg)[0]
        range_at = ranges + 2 * seg
        range_offset = struct.unpack_from(">H", data, range_at)[0]
        for code in range(start, min(end, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                glyph_at = range_at + range_offset + 2 * (code - start)
                glyph = struct.unpack_from(">H", data, glyph_at)[0]
                if glyph:
                    glyph = (glyph + delta) & 0xFFFF
            if glyph:
                codes.add(code)
    return codes


def _format12(data: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    codes: set[int] = set()
    for g in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
        first = start if glyph else start + 1  # glyph 0 is .notdef
        codes.update(range(first, end + 1))
    return codes


def font_codepoints(path: str | Path) -> frozenset[int]:
    """The set of Unicode code points the font at ``path`` maps to a real glyph (not ``.notdef``).

    Prefers the full-repertoire subtable (platform 3 encoding 10 or platform 0 encoding 4/6, format 12) and falls back
    to the BMP one (3/1 or 0/3, format 4). Raises :class:`FontFileError` when no such subtable exists.
    """
    data = Path(path).read_bytes()
    cmap = _table_offset(data, b"cmap")
    (count,) = struct.unpack_from(">H", data, cmap + 2)
    best: tuple[int, int] | None = None  # (rank, subtable offset)
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        at = cmap + offset
        fmt = struct.unpack_from(">H", data, at)[0]
        if fmt == 12 and (platform, encoding) in ((3, 10), (0, 4), (0, 6)):
            rank = 2
        elif fmt == 4 and (platform, encoding) in ((3, 1), (0, 3), (0, 1), (0, 0)):
            rank = 1
        else:
            continue
        if best is None or rank > best[0]:
            best = (rank, at)
    if best is None:
        raise FontFileError(f"{path}: no Unicode cmap subtable of format 4 or 12")
    rank, at = best
    return frozenset(_format12(data, at) if rank == 2 else _format4(data, at))
