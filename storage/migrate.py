"""Copy a club's SQLite file into PostgreSQL and prove the copy (``python -m storage migrate-to URL``).

:func:`migrate_to` opens the file (bringing it to this code's schema first, as the bot does at start), refuses a
target that already holds club rows, copies every table in the order the file created them (so every foreign key
finds its row) with PostgreSQL's ``COPY`` in **one transaction** — a failure leaves the target empty —, sets the
identity columns past the copied ids, then compares the two databases table by table: the same number of rows and
the same multiset of rows (the sum of each row's SHA-256, so the order rows come back in does not matter). The
command line then replays every stored table on the copy (``club verify``).

The source is only read (after its schema upgrade); keep the bot stopped while copying, or copy a backup
(``python -m storage backup``).
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .database import Database
from .errors import StorageError
from .health import check_before_opening

BATCH = 5000
"""Rows read from the file and sent to the server at a time."""


@dataclass(slots=True)
class TableCopy:
    """One table of a copy: ``rows`` copied; ``same`` whether both sides then hold the same rows."""

    name: str
    rows: int
    same: bool = False


@dataclass(slots=True)
class MigrationReport:
    """What :func:`migrate_to` did: each table's copy, and the problems the comparison found (none: ``ok``)."""

    tables: list[TableCopy] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every table was copied whole and compares equal."""
        return not self.problems and all(table.same for table in self.tables)

    @property
    def rows(self) -> int:
        """Rows copied in all."""
        return sum(table.rows for table in self.tables)


def row_digest(row: Iterable) -> int:
    """The SHA-256 of one row's values (``repr`` of each, so 1 and 1.0 and '1' differ) as a whole number."""
    return int.from_bytes(hashlib.sha256(repr(tuple(row)).encode()).digest(), "big")


def _tables(conn: sqlite3.Connection) -> list[tuple[str, list[str]]]:
    """The file's club tables in creation order, each with its columns."""
    names = [row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    )]  # fmt: skip
    return [(name, [row[1] for row in conn.execute(f"PRAGMA table_info({name})")]) for name in names]


def _batches(path: Path, table: str, columns: Sequence[str]):
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    cursor = conn.execute(f"SELECT {', '.join(columns)} FROM {table}")
    return conn, cursor


async def migrate_to(source: str | Path, url: str) -> MigrationReport:
    """Copy the club database file ``source`` into the PostgreSQL database ``url`` and compare them (see the
    module docstring). Raises ``FileNotFoundError`` without a file, :class:`~storage.errors.StorageError` for a
    file that cannot be opened or a target that already holds club rows (nothing is written then),
    :class:`~storage.errors.SchemaError` for either side of another program or a newer schema."""
    from .pgerrors import hide_password
    from .pgstore import PgDatabase, is_url

    source = Path(source)
    if not is_url(url):
        raise StorageError(f"the target is a postgresql://… URL, not {hide_password(url)!r}")
    if not source.is_file():
        raise FileNotFoundError(f"no database at {source}")
    problem = check_before_opening(source, write=False)
    if problem is not None:
        raise StorageError(problem.text)
    async with Database.open(source):
        pass  # bring the file to this code's schema, as the bot does at start
    report = MigrationReport()
    target = await PgDatabase.connect(url)
    try:
        conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = _tables(conn)
        finally:
            conn.close()
        for name, _columns in tables:
            if await target._fetchvalue(f"SELECT count(*) FROM {name}"):
                raise StorageError(
                    f"the target database already has rows in {name}: copy into an empty database (for example "
                    "dropdb NAME, then createdb -O USER NAME)"
                )
        async with target._pool.acquire() as pg, pg.transaction():
            for name, columns in tables:
                copied = TableCopy(name, 0)
                reader, cursor = await asyncio.to_thread(_batches, source, name, columns)
                try:
                    while rows := await asyncio.to_thread(cursor.fetchmany, BATCH):
                        await pg.copy_records_to_table(name, records=rows, columns=columns)
                        copied.rows += len(rows)
                finally:
                    reader.close()
                report.tables.append(copied)
        await target.reset_identities()
        await _compare(source, target, tables, report)
    finally:
        await target.close()
    return report


async def compare(source: str | Path, url: str) -> MigrationReport:
    """Compare the club file ``source`` with the PostgreSQL database ``url`` table by table (the comparison
    :func:`migrate_to` ends with; ``rows`` = the file's): the problems found, none when every table holds the same
    rows."""
    from .pgstore import PgDatabase

    conn = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = _tables(conn)
    finally:
        conn.close()
    report = MigrationReport()
    target = await PgDatabase.connect(url)
    try:
        await _compare(Path(source), target, tables, report)
    finally:
        await target.close()
    return report


async def _compare(source: Path, target, tables, report: MigrationReport) -> None:
    known = {table.name: table for table in report.tables}
    for name, columns in tables:
        here, there = await _digests(source, target, name, columns)
        table = known.get(name)
        if table is None:
            table = TableCopy(name, here[0])
            report.tables.append(table)
        table.same = here == there
        if here[0] != there[0]:
            report.problems.append(f"{name}: {here[0]} rows in the file, {there[0]} in PostgreSQL")
        elif not table.same:
            report.problems.append(f"{name}: the same number of rows but not the same rows")


async def _digests(source: Path, target, name: str, columns: Sequence[str]) -> tuple[tuple[int, int], tuple[int, int]]:
    """``(rows, sum of row digests mod 2^256)`` of table ``name`` in the file and in PostgreSQL."""
    modulus = 1 << 256

    def file_side() -> tuple[int, int]:
        conn, cursor = _batches(source, name, columns)
        count = total = 0
        try:
            while rows := cursor.fetchmany(BATCH):
                count += len(rows)
                total = (total + sum(row_digest(row) for row in rows)) % modulus
        finally:
            conn.close()
        return count, total

    here = await asyncio.to_thread(file_side)
    count = total = 0
    async with target._pool.acquire() as pg, pg.transaction(isolation="repeatable_read", readonly=True):
        async for row in pg.cursor(f"SELECT {', '.join(columns)} FROM {name}", prefetch=BATCH):
            count += 1
            total = (total + row_digest(row.values())) % modulus
    return here, (count, total)
