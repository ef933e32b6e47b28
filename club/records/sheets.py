"""The score sheet of one session (RULES A3, C11): one row per finished game, one column per member.

A money session or a match has two columns; a chouette one per member who played. Every row sums to zero (points
and money), corrections that name the session are rows of their own (with the reason), and the totals row is the
session's ledger.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from backgammon.result import kind_words
from storage.books import CorrectionRecord, SheetEntry

from .ledger import Unit
from .periods import SessionRef


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a sheet: ``label`` (``"1"``, ``"2"`` … for games, ``"correction 4"``), ``at`` (Unix s),
    ``points`` and ``money`` by member (members without an entry are absent), and a ``note`` (how the game ended,
    or a correction's reason)."""

    label: str
    at: float
    points: Mapping[int, int]
    money: Mapping[int, int]
    note: str = ""

    @property
    def is_correction(self) -> bool:
        """Whether the row is an admin's correction."""
        return self.label.startswith("correction")


@dataclass(frozen=True, slots=True)
class SessionSheet:
    """The sheet of ``session``: ``members`` (columns, in order of first appearance; for two-player tables side 0
    then side 1), their ``names``, the ``rows`` and whether money was at stake (``has_money``)."""

    session: SessionRef
    title: str
    members: tuple[int, ...]
    names: Mapping[int, str]
    rows: tuple[SheetRow, ...]

    def totals(self, by: Unit = Unit.POINTS) -> dict[int, int]:
        """Each member's total over all rows, in points or money (they sum to zero)."""
        totals = dict.fromkeys(self.members, 0)
        for row in self.rows:
            for member, value in (row.points if by == Unit.POINTS else row.money).items():
                totals[member] += value
        return totals

    @property
    def has_money(self) -> bool:
        """Whether any row moved money."""
        return any(any(row.money.values()) for row in self.rows)

    @property
    def games(self) -> int:
        """How many games the sheet holds (corrections not counted)."""
        return sum(not row.is_correction for row in self.rows)


def _note(entry: SheetEntry) -> str:
    """How a two-player game ended, e.g. ``gammon, cube 2``, ``double dropped, cube 4``, ``resigned single``, and an
    add-one automatic factor beside the cube (``single, cube 2 ×3``; RULES G3, D6); a gammon the Jacoby rule scored
    as a single says so (``resigned gammon, counted single (Jacoby)``, RULES D4)."""
    if entry.result_kind is None:
        return ""
    kind = kind_words(entry.result_kind, entry.multiplier)
    how = {"drop": "double dropped", "resignation": f"resigned {kind}", "forfeit": "forfeit"}
    factor = getattr(entry, "factor", 1)
    cube = f", cube {entry.cube}" if entry.cube and (entry.cube > 1 or factor > 1) else ""
    cube += f" ×{factor}" if cube and factor > 1 else ""
    return how.get(entry.ended_by or "", kind) + cube


def build_sheet(
    session: SessionRef,
    title: str,
    entries: Iterable[SheetEntry],
    corrections: Sequence[CorrectionRecord],
    names: Mapping[int, str],
    members: Sequence[int] = (),
) -> SessionSheet:
    """The :class:`SessionSheet` of ``session`` from its per-member game ``entries`` (by game number) and the
    ``corrections`` that name it; ``members`` puts columns first in that order (e.g. sides 0 and 1)."""
    order: list[int] = list(members)
    by_game: dict[int, list[SheetEntry]] = {}
    for entry in entries:
        by_game.setdefault(entry.number, []).append(entry)
        if entry.member not in order:
            order.append(entry.member)
    rows: list[SheetRow] = []
    for number, group in sorted(by_game.items()):
        winner_note = next((_note(e) for e in group if e.points > 0), _note(group[0]))
        rows.append(
            SheetRow(
                str(number),
                max(e.at for e in group),
                {e.member: e.points for e in group},
                {e.member: e.money for e in group},
                winner_note,
            )
        )
    for correction in corrections:
        for member in (correction.payer, correction.payee):
            if member not in order:
                order.append(member)
        rows.append(
            SheetRow(
                f"correction {correction.id}",
                correction.counts_at,
                {correction.payer: -correction.points, correction.payee: correction.points},
                {correction.payer: -correction.money, correction.payee: correction.money},
                correction.reason,
            )
        )
    rows.sort(key=lambda row: (row.at, row.is_correction))
    return SessionSheet(session, title, tuple(order), {m: names.get(m, str(m)) for m in order}, tuple(rows))
