"""``/club export``: the club's books of a period as one ZIP file (RULES A3, A4).

Inside: ``ledger.csv`` and ``corrections.csv`` (:mod:`club.csvexport`), ``sheets/<session>.csv`` for every session
with a game in the period, and ``mat/<…>.mat`` for every *finished* match and money session among them — the
standard match files (:func:`club.export.export_mat`) that our reader and GNU Backgammon import. Everything of the
period is in it, unless the caller caps the sheets or match files (the latest kept): then ``README.txt`` says how
many of which were left out and why. (Discord's upload limit is the front end's to enforce, whole.)

An export of a period takes at most about 2 s per 10,000 games and never runs on the event loop: the match files
are the ones kept when each table ended (``mat_files``, :mod:`storage.matfiles`), read :data:`BATCH` tables per
query — a table from an older database without one is replayed once (in a worker thread) and its file kept. The ZIP is *streamed*: each
batch of files is formatted and compressed in a worker thread into a spooled temporary file (in memory up to
:data:`SPOOL_BYTES`, then on disk), so no whole-file string or ZIP is built in memory and the event loop only waits
for the database and the thread.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import IO

from storage import matfiles

from .. import csvexport
from ..export import export_mat
from ..table import MatchStatus
from ..wording import plural
from .periods import Period, SessionRef, Source
from .service import ClubRecords, SheetsRead
from .sheets import SessionSheet

log = logging.getLogger(__name__)

BATCH = 200
"""Tables (match files) read and written per step."""

SHEET_BATCH = 50
"""Sessions (score sheets) read per step: reading their rows is the part of an export on the event loop."""

COMPRESS_LEVEL = 1
"""zlib's fastest level: text compresses about as well (the books are CSV and .mat text) at a fraction of the time."""

SPOOL_BYTES = 16 * 1024 * 1024
"""The ZIP stays in memory up to this size, then goes to a temporary file."""


@dataclass(frozen=True, slots=True)
class BooksExport:
    """An export: ``filename`` (``.zip``), the ZIP in ``file`` (a binary file at position 0, ``size`` bytes; the
    caller sends or copies it, then closes it), the ``names`` of the files inside, how many match files were
    ``left_out`` and how many score sheets (``sheets_left_out``) over the caller's caps, and the tables whose log could not be written as a match file
    (``failed``: ``(match id, reason)``, logged; the rest of the export is still made)."""

    filename: str
    file: IO[bytes]
    size: int
    names: tuple[str, ...]
    left_out: int
    failed: tuple[tuple[int, str], ...] = ()
    sheets_left_out: int = 0

    @property
    def data(self) -> bytes:
        """The whole ZIP as bytes (reads ``file``, then puts it back at position 0): for small exports and tests."""
        self.file.seek(0)
        try:
            return self.file.read()
        finally:
            self.file.seek(0)


ZipItem = tuple[str, str | Callable[[], str]] | Callable[[], tuple[str, str]]
"""A file of the ZIP: ``(name, text)``, ``(name, build)`` where ``build()`` makes the text, or a builder of
``(name, text)`` (a score sheet, named by its session)."""


class _ZipStream:
    """A ZIP being written into ``target`` (deflated, UTF-8 texts), one batch at a time in a worker thread."""

    def __init__(self, target: IO[bytes]) -> None:
        self.target = target
        self.archive = zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL)
        self.names: list[str] = []

    def _write(self, files: Iterable[ZipItem]) -> None:
        for item in files:
            if callable(item):  # a builder of the file's name and text
                name, text = item()
            else:
                name, content = item
                text = content() if callable(content) else content
            self.archive.writestr(name, text.encode("utf-8"))
            self.names.append(name)

    async def write(self, files: Sequence[ZipItem]) -> None:
        """Format and compress ``files`` (:data:`ZipItem`) in a worker thread."""
        if files:
            await asyncio.to_thread(self._write, files)

    def _close(self) -> int:
        self.archive.close()
        size = self.target.tell()
        self.target.seek(0)
        return size

    async def close(self) -> int:
        """Write the ZIP's directory (in a worker thread); returns its size in bytes, the file back at 0."""
        return await asyncio.to_thread(self._close)


def _sheet_file(build: Callable[[], SessionSheet]) -> tuple[str, str]:
    """``(name, CSV text)`` of the score sheet ``build`` makes, as its file in the ZIP."""
    sheet = build()
    return f"sheets/{sheet.session.source}-{sheet.session.id}.csv", csvexport.sheet_csv(sheet)


async def export_books(
    records: ClubRecords,
    guild_id: int,
    period: str | Period | None = "month",
    *,
    session: str | SessionRef | None = None,
    max_sheets: int | None = None,
    max_mat: int | None = None,
    into: IO[bytes] | None = None,
) -> BooksExport:
    """The ZIP of the period's books (see the module docstring), written into ``into`` (a writable, seekable binary
    file; default a spooled temporary file): every session's score sheet and every finished table's match file,
    or the latest ``max_sheets`` / ``max_mat`` of them (README.txt then says how many were left out). Raises what
    :meth:`ClubRecords.ledger` raises."""
    chosen = await records.period(guild_id, period, session=session)
    ledger = await records.ledger(guild_id, chosen)
    corrections = await records.corrections(guild_id, chosen)
    every = await records.sessions(guild_id, limit=None, period=chosen)
    summaries = every if max_sheets is None else every[:max_sheets]
    max_mat = len(every) if max_mat is None else max_mat
    names = {line.member: line.name for line in ledger.lines}
    names.update(await records.names({c.admin_id for c in corrections} - set(names)))
    target = into if into is not None else tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115
    stream = _ZipStream(target)
    try:
        await stream.write([
            ("ledger.csv", lambda: csvexport.ledger_csv(ledger)),
            ("corrections.csv", lambda: csvexport.corrections_csv(corrections, names)),
        ])  # fmt: skip
        refs = [SessionRef.of(summary) for summary in summaries]
        known = SheetsRead()
        for start in range(0, len(refs), SHEET_BATCH):
            builders = await records.sheet_builders(guild_id, refs[start : start + SHEET_BATCH], known)
            await stream.write([partial(_sheet_file, build) for build in builders])
        finished = [
            summary.id for summary in every if summary.source != Source.CHOUETTE and summary.status == MatchStatus.OVER
        ]
        failed: list[tuple[int, str]] = []
        mats = 0
        for start in range(0, min(len(finished), max_mat), BATCH):
            part = finished[start : min(start + BATCH, max_mat)]
            kept = await matfiles.kept_mats(records.db, part)
            files = []
            for match_id in part:
                if match_id in kept:
                    name, text = kept[match_id]
                else:  # an older database: replayed once (worker thread) and kept
                    try:
                        name, text = await export_mat(records.service, match_id)
                    except Exception as error:
                        log.exception("match %s could not be exported as a .mat file", match_id)
                        failed.append((match_id, f"{type(error).__name__}: {error}"))
                        continue
                files.append((f"mat/{name}", text))
            mats += len(files)
            await stream.write(files)
        left_out = max(0, len(finished) - max_mat)
        counts = _Counts(len(summaries), len(every) - len(summaries), mats, left_out)
        await stream.write([("README.txt", _readme(chosen, ledger.is_zero_sum(), counts, failed))])
        size = await stream.close()
    except BaseException:
        if into is None:
            target.close()
        raise
    label = "".join(ch if ch.isalnum() else "-" for ch in chosen.label).strip("-")
    return BooksExport(f"club-books-{label}.zip", target, size, tuple(sorted(stream.names)), left_out, tuple(failed),
                       counts.sheets_left_out)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Counts:
    """How many score sheets and match files an export holds and left out."""

    sheets: int
    sheets_left_out: int
    mats: int
    mats_left_out: int


def _readme(period: Period, zero_sum: bool, counts: _Counts, failed: list[tuple[int, str]]) -> str:
    lines = [
        f"The club's books: {period.label}.",
        "",
        f"ledger.csv       every member's points (by kind of game), money at the stakes, games; "
        f"{'every column sums to zero' if zero_sum else 'WARNING: a column does not sum to zero'}",
        "corrections.csv  the admins' corrections in the period: who, when, why",
        f"sheets/          {plural(counts.sheets, 'score sheet')}: one row per game, one column per member",
        f"mat/             {plural(counts.mats, 'match file')} of finished matches and money sessions (GNU Backgammon "
        ".mat)",
    ]
    if counts.sheets_left_out:
        lines.append(f"                 ({counts.sheets_left_out} older {_sessions(counts.sheets_left_out)} score "
                     "sheets left out: export a shorter period)")  # fmt: skip
    if counts.mats_left_out:
        lines.append(f"                 ({plural(counts.mats_left_out, 'older finished table')} left out: export a "
                     "shorter period)")  # fmt: skip
    for match_id, reason in failed:
        lines.append(f"                 (match {match_id} could not be written: {reason})")
    lines.append("")
    lines.append("Times are UTC. Open the CSV files in any spreadsheet; import the .mat files into GNU Backgammon.")
    return "\n".join(lines) + "\n"


def _sessions(count: int) -> str:
    return "session's" if count == 1 else "sessions'"
