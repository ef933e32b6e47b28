"""The club's books as CSV files (RULES A3, A4), written with the standard :mod:`csv` module (RFC 4180 quoting,
``\\r\\n`` line ends), so any spreadsheet opens them and :func:`csv.reader` reads them back.

- :func:`ledger_csv` — one row per member: id, name, points of each kind, total points, money, games, corrections.
- :func:`sheet_csv` — a session's score sheet as on paper: one row per game (or correction), one column per member
  (and one more per member for money when a stake was set), then a ``total`` row.
- :func:`corrections_csv` — the audit trail: who corrected what, when and why.

Times are written in UTC, ISO 8601 (``2024-03-04T20:15:00+00:00``). Names that two members share get ``#id``.
Text that a spreadsheet would take for a formula (a name or reason starting with ``=``, ``+``, ``-``, ``@``) is
written with a leading ``'`` (OWASP's advice against CSV injection); numbers are written as they are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from storage.books import CorrectionRecord

from .records.ledger import Ledger, Unit
from .records.sheets import SessionSheet
from .wording import plural


def iso_time(at: float) -> str:
    """Unix seconds as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(text: str) -> str:
    """``text`` as a cell that no spreadsheet runs as a formula (a leading ``'`` when it starts like one)."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def _write(rows: Iterable[Sequence]) -> str:
    buffer = io.StringIO(newline="")
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


def column_names(members: Sequence[int], names: Mapping[int, str]) -> list[str]:
    """A heading per member: his name, with ``#id`` added where two members share a name."""
    plain = [safe_text(names.get(member, str(member))) for member in members]
    return [f"{name} #{member}" if plain.count(name) > 1 else name for member, name in zip(members, plain, strict=True)]


def ledger_csv(ledger: Ledger) -> str:
    """The ledger as CSV: ``member_id, member, <kind>_points…, points, money, games, corrections`` (one row per
    member, best first). Every numeric column sums to zero except games and corrections."""
    header = ["member_id", "member", *(f"{kind}_points" for kind in ledger.kinds), "points", "money", "games"]
    rows: list[list] = [[*header, "corrections"]]
    for line in ledger.lines:
        rows.append(
            [
                line.member,
                safe_text(line.name),
                *(line.points.get(kind, 0) for kind in ledger.kinds),
                line.total_points,
                line.money,
                line.games,
                line.corrections,
            ]
        )
    return _write(rows)


def sheet_csv(sheet: SessionSheet) -> str:
    """A session's score sheet as CSV: ``game, ended_utc, <member>…[, <member> money…], note``, a row per game or
    correction (a member without an entry in a row has an empty cell), then ``total``."""
    names = column_names(sheet.members, sheet.names)
    money = sheet.has_money
    header = ["game", "ended_utc", *names, *([f"{name} money" for name in names] if money else []), "note"]
    rows: list[list] = [header]
    for row in sheet.rows:
        points = [row.points.get(member, "") for member in sheet.members]
        cash = [row.money.get(member, "") for member in sheet.members] if money else []
        rows.append([row.label, iso_time(row.at), *points, *cash, safe_text(row.note)])
    totals = sheet.totals(Unit.POINTS)
    cash_totals = sheet.totals(Unit.MONEY)
    rows.append(
        [
            "total",
            "",
            *(totals[member] for member in sheet.members),
            *((cash_totals[member] for member in sheet.members) if money else ()),
            plural(sheet.games, "game"),
        ]
    )
    return _write(rows)


def corrections_csv(corrections: Sequence[CorrectionRecord], names: Mapping[int, str]) -> str:
    """The audit trail as CSV: ``id, made_utc, counts_utc, admin_id, admin, payer_id, payer, payee_id, payee,
    points, money, session, reason``."""
    rows: list[list] = [
        [
            "id",
            "made_utc",
            "counts_utc",
            "admin_id",
            "admin",
            "payer_id",
            "payer",
            "payee_id",
            "payee",
            "points",
            "money",
            "session",
            "reason",
        ]
    ]
    for c in corrections:
        rows.append(
            [
                c.id,
                iso_time(c.at),
                iso_time(c.counts_at),
                c.admin_id,
                safe_text(names.get(c.admin_id, str(c.admin_id))),
                c.payer,
                safe_text(names.get(c.payer, str(c.payer))),
                c.payee,
                safe_text(names.get(c.payee, str(c.payee))),
                c.points,
                c.money,
                "" if c.source is None else f"{c.source}:{c.source_id}",
                safe_text(c.reason),
            ]
        )
    return _write(rows)
