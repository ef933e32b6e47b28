"""``/bg export``: the club's books of a period as one ZIP file (RULES A3, A4).

Inside: ``ledger.csv`` and ``corrections.csv`` (:mod:`club.csvexport`), ``sheets/<session>.csv`` for every session
with a game in the period, and ``mat/<…>.mat`` for every *finished* match and money session among them — the
standard match files (:func:`club.export.export_mat`) that our reader and GNU Backgammon import — at most
:data:`MAX_MAT_FILES` of them, the latest first (each is a replay of the whole log). ``README.txt`` says what the
file holds and what was left out.
"""

from __future__ import annotations

import asyncio
import io
import logging
import zipfile
from dataclasses import dataclass

from .. import csvexport
from ..export import export_mat
from .periods import Period, SessionRef
from .service import ClubRecords

log = logging.getLogger(__name__)

MAX_MAT_FILES = 200
"""The most ``.mat`` files one export holds."""

MAX_SHEETS = 2000
"""The most score sheets one export holds."""


@dataclass(frozen=True, slots=True)
class BooksExport:
    """An export: ``filename`` (``.zip``), the ZIP ``data``, the ``names`` of the files inside, how many match
    files were ``left_out`` (over :data:`MAX_MAT_FILES`) and the tables whose log could not be written as a match
    file (``failed``: ``(match id, reason)``, logged; the rest of the export is still made)."""

    filename: str
    data: bytes
    names: tuple[str, ...]
    left_out: int
    failed: tuple[tuple[int, str], ...] = ()


async def export_books(
    records: ClubRecords,
    guild_id: int,
    period: str | Period | None = "month",
    *,
    session: str | SessionRef | None = None,
    max_mat: int = MAX_MAT_FILES,
) -> BooksExport:
    """The ZIP of the period's books (see the module docstring). Raises what :meth:`ClubRecords.ledger` raises."""
    chosen = await records.period(guild_id, period, session=session)
    ledger = await records.ledger(guild_id, chosen)
    corrections = await records.corrections(guild_id, chosen)
    summaries = await records.sessions(guild_id, limit=MAX_SHEETS, period=chosen)
    names = {line.member: line.name for line in ledger.lines}
    names.update(await records.names({c.admin_id for c in corrections} - set(names)))
    files: dict[str, str] = {
        "ledger.csv": csvexport.ledger_csv(ledger),
        "corrections.csv": csvexport.corrections_csv(corrections, names),
    }
    finished = []
    refs = [SessionRef(summary.source, summary.id) for summary in summaries]
    for sheet in await records.sheets(guild_id, refs):
        files[f"sheets/{sheet.session.source}-{sheet.session.id}.csv"] = csvexport.sheet_csv(sheet)
    for summary in summaries:
        if summary.source != "chouette" and summary.status == "over":
            finished.append(summary.id)
    failed: list[tuple[int, str]] = []
    for match_id in finished[:max_mat]:
        try:
            name, text = await export_mat(records.service, match_id)
        except Exception as error:  # noqa: BLE001 - one table that cannot be written must not sink the export
            log.exception("match %s could not be exported as a .mat file", match_id)
            failed.append((match_id, f"{type(error).__name__}: {error}"))
            continue
        files[f"mat/{name}"] = text
        await asyncio.sleep(0)  # a long export lets the bot's other work through between files
    left_out = max(0, len(finished) - max_mat)
    mats = sum(name.startswith("mat/") for name in files)
    files["README.txt"] = _readme(chosen, ledger.is_zero_sum(), len(summaries), mats, left_out, failed)
    data = await asyncio.to_thread(_zipped, files)  # compressing: in a worker thread, not on the event loop
    label = "".join(ch if ch.isalnum() else "-" for ch in chosen.label).strip("-")
    return BooksExport(f"club-books-{label}.zip", data, tuple(sorted(files)), left_out, tuple(failed))


def _zipped(files: dict[str, str]) -> bytes:
    """The ZIP (deflated) of ``files`` (name → text, written as UTF-8 in name order)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            archive.writestr(name, files[name].encode("utf-8"))
    return buffer.getvalue()


def _readme(
    period: Period, zero_sum: bool, sheets: int, mats: int, left_out: int, failed: list[tuple[int, str]]
) -> str:
    lines = [
        f"The club's books: {period.label}.",
        "",
        f"ledger.csv       every member's points (by kind of game), money at the stakes, games; "
        f"{'every column sums to zero' if zero_sum else 'WARNING: a column does not sum to zero'}",
        "corrections.csv  the admins' corrections in the period: who, when, why",
        f"sheets/          {sheets} score sheet(s): one row per game, one column per member",
        f"mat/             {mats} match file(s) of finished matches and money sessions (GNU Backgammon .mat)",
    ]
    if left_out:
        lines.append(f"                 ({left_out} older finished table(s) left out: export a shorter period)")
    for match_id, reason in failed:
        lines.append(f"                 (match {match_id} could not be written: {reason})")
    lines.append("")
    lines.append("Times are UTC. Open the CSV files in any spreadsheet; import the .mat files into GNU Backgammon.")
    return "\n".join(lines) + "\n"
