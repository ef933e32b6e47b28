"""Pictures of the books: a :class:`~club.records.ledger.Ledger`, a :class:`~club.records.sheets.SessionSheet`, a
:class:`~club.records.leaderboards.Leaderboard` or a :class:`~club.records.service.Settlement` → a
:class:`rendering.records.RecordTable` → PNG bytes. The one place where the books become what the renderer draws,
shared by the cogs and the console. ``*_png_async`` render in a worker thread so a bot's event loop never waits on
Pillow.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from rendering.records import Cell, Column, RecordTable, render_record_table, signed

from ..wording import plural
from .leaderboards import Board, Figure, Leaderboard, figure
from .ledger import KIND_WORDS, Ledger, Unit
from .service import Settlement
from .sheets import SessionSheet


def ledger_table(ledger: Ledger) -> RecordTable:
    """The ledger as a table: member, points of each kind present, total points, money (when a stake was set),
    games; a totals row (all zeros: the ledger is zero-sum)."""
    kinds = [kind for kind in ledger.kinds if any(line.points.get(kind) for line in ledger.lines)]
    money = ledger.has_money
    columns = [Column("member", "left"), *(Column(KIND_WORDS[k]) for k in kinds), Column("points")]
    columns += [Column("money")] if money else []
    columns.append(Column("games"))
    rows: list[tuple[Cell | str, ...]] = []
    for line in ledger.lines:
        row: list[Cell | str] = [line.name, *(signed(line.points.get(k, 0)) for k in kinds), signed(line.total_points)]
        row += [signed(line.money)] if money else []
        rows.append((*row, str(line.games)))
    totals = ledger.column_totals()
    rows.append(
        ("total", *(signed(totals[k]) for k in kinds), signed(totals["points"]), *([signed(totals["money"])] if money
         else []), "")
    )  # fmt: skip
    footer = () if ledger.lines else ("No finished game in this period.",)
    return RecordTable(
        f"Club ledger — {ledger.period.label}",
        tuple(columns),
        tuple(rows),
        subtitle="money at the stakes" if money else "points (no stakes set)",
        footer=footer,
        total_rows=frozenset({len(rows) - 1}),
    )


def sheet_table(sheet: SessionSheet) -> RecordTable:
    """The score sheet as a table: a row per game (or correction), a column per member, then the totals (and the
    money totals when a stake was set)."""
    columns = (Column("game", "left"), *(Column(sheet.names[m], "centre") for m in sheet.members), Column("", "left"))
    rows: list[tuple[Cell | str, ...]] = []
    for row in sheet.rows:
        cells = [signed(row.points[m]) if m in row.points else Cell("") for m in sheet.members]
        label = f"corr. {row.label.split()[-1]}" if row.is_correction else row.label
        rows.append((Cell(label, "muted" if row.is_correction else "plain"), *cells, Cell(row.note, "muted")))
    totals = sheet.totals(Unit.POINTS)
    rows.append(("total", *(signed(totals[m]) for m in sheet.members), plural(sheet.games, "game")))
    total_rows = {len(rows) - 1}
    if sheet.has_money:
        money = sheet.totals(Unit.MONEY)
        rows.append(("money", *(signed(money[m]) for m in sheet.members), "at the stake"))
        total_rows.add(len(rows) - 1)
    when = ""
    if sheet.rows:
        first = datetime.fromtimestamp(sheet.rows[0].at, UTC)
        when = f"{first:%Y-%m-%d %H:%M} UTC"
    return RecordTable(
        f"Score sheet — {sheet.title}", columns, tuple(rows), subtitle=when, total_rows=frozenset(total_rows)
    )


def leaderboard_table(board: Leaderboard, *, limit: int = 25) -> RecordTable:
    """The top ``limit`` of a leaderboard as a table: rank, member, then the board's figures."""
    columns = (Column("#"), Column("member", "left"), *(Column(h) for h in board.headings))
    rows: list[tuple[Cell | str, ...]] = []
    for row in board.rows[:limit]:
        cells = []
        for heading, value in zip(board.headings, row.values, strict=True):
            if figure(heading) is Figure.RATE:
                cells.append(Cell(f"{value:.2f}", "strong"))
            elif figure(heading) is Figure.BALANCE:
                cells.append(signed(value))
            else:
                cells.append(Cell(str(value)))
        rows.append((str(row.rank), row.name, *cells))
    footer = []
    if len(board.rows) > limit:
        footer.append(f"{plural(len(board.rows) - limit, 'more member')} not shown.")
    if not board.rows:
        footer.append("Nobody on this board yet.")
    footer.extend(board.notes)
    if board.kind == Board.MATCHES:
        footer.append("FIBS formula: start 1500; K = max(1, 5 − experience/100).")
    if board.kind == Board.PR:
        footer.append("PR = 500 × equity lost ÷ counted decisions (Open Sage); lower is better. Practice not counted.")
    return RecordTable(board.title, columns, tuple(rows), footer=tuple(footer))


def settlement_table(settlement: Settlement) -> RecordTable:
    """The payments that clear a period, one per row."""
    unit = settlement.unit
    rows = tuple(
        (settlement.name(p.payer), "pays", settlement.name(p.payee), Cell(f"{p.amount:,}", "strong"))
        for p in settlement.payments
    )
    members = sum(1 for value in settlement.ledger.balances(unit).values() if value)
    footer = (f"{plural(len(rows), 'payment')} clear {plural(members, 'balance')} (never more than n − 1).",)
    return RecordTable(
        f"Settle up — {settlement.ledger.period.label}",
        (Column("payer", "left"), Column("", "centre"), Column("payee", "left"), Column(unit)),
        rows,
        subtitle="in money at the stakes" if unit == Unit.MONEY else "in points (no stakes set)",
        footer=footer if rows else ("Everybody is square: nothing to pay.",),
    )


async def png_async(table: RecordTable, *, theme: str | None = None) -> bytes:
    """PNG bytes of ``table``, rendered in a worker thread."""
    return await asyncio.to_thread(render_record_table, table, theme=theme)
