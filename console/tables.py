"""A :class:`rendering.records.RecordTable` — what the books' pictures draw — as a text table for the terminal, so
the console prints exactly the figures the PNG beside it shows."""

from __future__ import annotations

from rendering.records import Cell, Column, RecordTable, signed
from rendering.text import Align

__all__ = ["Cell", "Column", "RecordTable", "signed", "text_table"]


def _text(cell: Cell | str) -> str:
    return cell.text if isinstance(cell, Cell) else str(cell)


def text_table(table: RecordTable) -> str:
    """``table`` as aligned text: the title (and subtitle), the headings, a rule, the rows (a rule above each total
    row), then the footer lines. Columns are aligned as their :class:`Column` says."""
    rows = [[_text(cell) for cell in row] for row in table.rows]
    headings = [column.heading for column in table.columns]
    widths = [max([len(headings[i]), *(len(row[i]) for row in rows if i < len(row))]) for i in range(len(headings))]

    def line(cells: list[str]) -> str:
        """One row, each cell aligned in its column."""
        parts = []
        for index, width in enumerate(widths):
            text = cells[index] if index < len(cells) else ""
            align = table.columns[index].align
            parts.append(text.ljust(width) if align == Align.LEFT else text.center(width) if align == Align.CENTRE
                         else text.rjust(width))  # fmt: skip
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * width for width in widths)
    out = [table.title + (f" ({table.subtitle})" if table.subtitle else ""), line(headings), rule]
    for index, row in enumerate(rows):
        if index in table.total_rows and (index == 0 or index - 1 not in table.total_rows):
            out.append(rule)
        out.append(line(row))
    out += list(table.footer)
    return "\n".join(out)
