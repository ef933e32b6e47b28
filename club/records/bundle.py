"""``/club export``: the club's books of a period as one ZIP file (RULES A3, A4).

Inside: ``ledger.csv`` and ``corrections.csv`` (:mod:`club.csvexport`), ``sheets/<session>.csv`` for every session
with a game in the period, and ``mat/<…>.mat`` for every *finished* match and money session among them — the
standard match files (:func:`club.export.export_mat`) that our reader and GNU Backgammon import. Everything of the
period is in it, unless the caller caps the sheets or match files (the latest kept): then ``README.txt`` says how
many of which were left out and why, as it names a table whose file could not be written. (Discord's upload limit is
the front end's to enforce, whole.)

An export takes about 2 s per 10,000 games or less, and its cost per game does not grow with the size of the
books. The event loop reads the ledger and the corrections (a few rows, from the running totals), makes the match
file of any finished table of the period that has none kept yet (an older database: a replay in the worker process,
:func:`~club.export.export_mat`, then kept), and hands the rest to the worker process (:mod:`club.offload`): it opens
the SQLite file itself, read-only, as one snapshot (:class:`storage.filesnapshot.FileSnapshot`), reads the sessions,
their rows and the kept match files :data:`BATCH` at a time, formats them and writes the ZIP to a file; the loop
receives the file's path and a summary (the names inside and the counts). On another backend (PostgreSQL, a
database in memory) the rows are read on the event loop, :data:`LOOP_BATCH` sessions at a time, and formatted and
compressed in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import tempfile
import zipfile
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO

from storage import Database, matfiles
from storage.books import CorrectionRecord
from storage.filesnapshot import FileSnapshot

from .. import csvexport, offload
from ..export import export_mat
from ..table import MatchStatus
from ..wording import plural
from .ledger import Ledger
from .periods import Period, SessionRef, Source
from .service import ClubRecords, named_corrections, period_sessions, sheet_builders
from .sheets import SessionSheet

log = logging.getLogger(__name__)

BATCH = 500
"""Sessions (score sheets) and tables (match files) read and written per step in the worker process."""

LOOP_BATCH = 50
"""Sessions and tables per step when the rows are read on the event loop (a backend other than an SQLite file)."""

COMPRESS_LEVEL = 1
"""zlib's fastest level: text compresses about as well (the books are CSV and .mat text) at a fraction of the time."""

NOT_KEPT = "its match file is still being made (the table has just ended): export again in a minute"
"""Why a finished table found without a kept match file by the worker is left out (it ended during the export)."""


@dataclass(frozen=True, slots=True)
class BooksExport:
    """An export: ``filename`` (``.zip``), the ZIP in ``file`` (a binary file at position 0, ``size`` bytes, already
    gone from the disk: closing it frees it; the caller sends or copies it, then closes it), the ``names`` of the
    files inside, how many match files were ``left_out`` and how many score sheets (``sheets_left_out``) over the
    caller's caps, and the tables whose log could not be written as a match file (``failed``: ``(match id,
    reason)``, logged and named in README.txt; the rest of the export is still made)."""

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

Write = Callable[[Sequence[ZipItem]], Awaitable[None]]
"""Formats and compresses files into the ZIP (:meth:`_ZipStream.write`)."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the writer of an export needs besides the rows it reads (picklable, for the worker process): the club,
    the chosen ``period``, its ``ledger`` and ``corrections`` with the ``names`` they show, the caps, and the tables
    whose match file could not be made before (``failed``)."""

    club_id: int
    period: Period
    ledger: Ledger
    corrections: tuple[CorrectionRecord, ...]
    names: dict[int, str]
    max_sheets: int | None
    max_mat: int | None
    failed: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class _Summary:
    """What the writer made: the ``names`` of the files in the ZIP (sorted), the counts, and the tables that could
    not be written (``failed``)."""

    names: tuple[str, ...]
    counts: _Counts
    failed: tuple[tuple[int, str], ...]


class _ZipStream:
    """A ZIP being written into ``target`` (deflated, UTF-8 texts), one batch at a time: in the calling thread
    (:meth:`write_here`, the worker process) or in a worker thread (:meth:`write`)."""

    def __init__(self, target: IO[bytes]) -> None:
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

    async def write_here(self, files: Sequence[ZipItem]) -> None:
        """Format and compress ``files`` (:data:`ZipItem`) now, in this thread."""
        self._write(files)

    async def write(self, files: Sequence[ZipItem]) -> None:
        """Format and compress ``files`` (:data:`ZipItem`) in a worker thread."""
        if files:
            await asyncio.to_thread(self._write, files)


def _sheet_file(build: Callable[[], SessionSheet]) -> tuple[str, str]:
    """``(name, CSV text)`` of the score sheet ``build`` makes, as its file in the ZIP."""
    sheet = build()
    return f"sheets/{sheet.session.source}-{sheet.session.id}.csv", csvexport.sheet_csv(sheet)


async def _write_books(
    db: Database, plan: _Plan, write: Write, batch: int
) -> tuple[_Counts, tuple[tuple[int, str], ...]]:
    """Read the period's sessions, their rows and the kept match files from ``db`` (``batch`` sessions or tables a
    query) and ``write`` the whole ZIP's files (README.txt last). A finished table with no kept file is left out and
    named in README.txt (with its reason from ``plan.failed``, or :data:`NOT_KEPT`). Returns the counts and the
    tables left out so, ``(id, reason)``."""
    ledger, period = plan.ledger, plan.period
    await write([
        ("ledger.csv", partial(csvexport.ledger_csv, ledger)),
        ("corrections.csv", partial(csvexport.corrections_csv, list(plan.corrections), plan.names)),
    ])  # fmt: skip
    every = await period_sessions(db, plan.club_id, period)
    summaries = every if plan.max_sheets is None else every[: plan.max_sheets]
    named = await named_corrections(db, plan.club_id)
    refs = [SessionRef.of(summary) for summary in summaries]
    for start in range(0, len(refs), batch):
        builders = await sheet_builders(db, plan.club_id, refs[start : start + batch], named)
        await write([partial(_sheet_file, build) for build in builders])
    finished = [s.id for s in every if s.source != Source.CHOUETTE and s.status == MatchStatus.OVER]
    max_mat = len(finished) if plan.max_mat is None else plan.max_mat
    failed = dict(plan.failed)
    mats = 0
    for start in range(0, min(len(finished), max_mat), batch):
        part = finished[start : min(start + batch, max_mat)]
        kept = await matfiles.kept_mats(db, part)
        for match_id in part:
            if match_id not in kept:
                failed.setdefault(match_id, NOT_KEPT)
        mats += len(kept)
        await write([(f"mat/{name}", text) for name, text in (kept[m] for m in part if m in kept)])
    counts = _Counts(len(summaries), len(every) - len(summaries), mats, max(0, len(finished) - max_mat))
    await write([("README.txt", _readme(period, ledger.is_zero_sum(), counts, sorted(failed.items())))])
    return counts, tuple(sorted(failed.items()))


def _export_file(database: str, plan: _Plan, target: str) -> _Summary:
    """In the worker process: the ZIP of ``plan`` from the SQLite file ``database`` (one read-only snapshot) written
    to the file ``target``; returns its :class:`_Summary`."""
    with FileSnapshot(database) as db, open(target, "wb") as out:
        stream = _ZipStream(out)
        counts, failed = asyncio.run(_write_books(db, plan, stream.write_here, BATCH))
        stream.archive.close()
    return _Summary(tuple(sorted(stream.names)), counts, failed)


async def _export_on_loop(db: Database, plan: _Plan, target: str) -> _Summary:
    """The ZIP of ``plan`` written to the file ``target``, its rows read on the event loop (:data:`LOOP_BATCH` at a
    time) and its files formatted and compressed in a worker thread: for a backend other than an SQLite file."""
    with open(target, "wb") as out:
        stream = _ZipStream(out)
        counts, failed = await _write_books(db, plan, stream.write, LOOP_BATCH)
        await asyncio.to_thread(stream.archive.close)
    return _Summary(tuple(sorted(stream.names)), counts, failed)


async def _make_missing_mats(records: ClubRecords, club_id: int, period: Period) -> tuple[tuple[int, str], ...]:
    """Make and keep the match file of every finished table of ``period`` that has none kept (an older database;
    :func:`~club.export.export_mat` replays it in the worker process); returns those that failed, ``(id, reason)``."""
    ids = await matfiles.unkept_mats(records.db, club_id, start=period.start, end=period.end)
    if period.session is not None:
        ids = [i for i in ids if period.session.source != Source.CHOUETTE and i == period.session.id]
    failed = []
    for match_id in ids:
        try:
            await export_mat(records.service, match_id)
        except Exception as error:
            log.exception("match %s could not be exported as a .mat file", match_id)
            failed.append((match_id, f"{type(error).__name__}: {error}"))
    return tuple(failed)


async def export_books(
    records: ClubRecords,
    guild_id: int,
    period: str | Period | None = "month",
    *,
    session: str | SessionRef | None = None,
    max_sheets: int | None = None,
    max_mat: int | None = None,
) -> BooksExport:
    """The ZIP of the period's books (see the module docstring): every session's score sheet and every finished
    table's match file, or the latest ``max_sheets`` / ``max_mat`` of them (README.txt then says how many were left
    out). Raises what :meth:`ClubRecords.ledger` raises, and :class:`~storage.errors.OperationFailedError` when the
    database file cannot be read."""
    chosen = await records.period(guild_id, period, session=session)
    club_id = await records._club_id(guild_id)
    ledger = await records.ledger(guild_id, chosen)
    corrections = await records.corrections(guild_id, chosen)
    names = {line.member: line.name for line in ledger.lines}
    names.update(await records.names({c.admin_id for c in corrections} - set(names)))
    failed = await _make_missing_mats(records, club_id, chosen)
    plan = _Plan(club_id, chosen, ledger, tuple(corrections), names, max_sheets, max_mat, failed)
    handle, target = tempfile.mkstemp(prefix="club-books-", suffix=".zip")
    os.close(handle)
    try:
        db = records.db
        if db.dialect == "sqlite" and db.path is not None and Path(db.path).is_file():
            summary = await offload.run(_export_file, str(db.path), plan, target)
        else:
            summary = await _export_on_loop(db, plan, target)
        file = open(target, "rb")  # noqa: SIM115 - handed to the caller, who closes it
    finally:
        with contextlib.suppress(OSError):
            os.unlink(target)  # the open file stays readable until closed
    size = file.seek(0, os.SEEK_END)
    file.seek(0)
    label = "".join(ch if ch.isalnum() else "-" for ch in chosen.label).strip("-")
    return BooksExport(f"club-books-{label}.zip", file, size, summary.names, summary.counts.mats_left_out,
                       summary.failed, summary.counts.sheets_left_out)  # fmt: skip


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
