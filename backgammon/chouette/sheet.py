"""The chouette score sheet (RULES C11; 003 Atlanta 2.1, 10.1) and the Box–Partner split (RULES C7; 4.2).

One row per game: every member's points for that game (they sum to zero, checked as each row is added), the losers
circled (10.1, when the rule set circles losers), a "b" by a losing Captain who follows Box, circles crossed through
as their owners become Box, and who is next Captain. Columns are members in order of arrival; a member who was not
yet in the chouette has no entry (``None``) in earlier rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..errors import ChouetteError


def split_box_partner(total: int) -> tuple[int, int]:
    """Box's and Partner's shares of the Box side's ``total`` for a game (RULES C7; 003 Atlanta 4.2): halves, "If Box
    and Partner win an odd number of points, Box receives the extra point. When Box and Partner lose an odd number of
    points, Box loses the extra point." E.g. 5 → (3, 2); −5 → (−3, −2)."""
    partner = abs(total) // 2 * (1 if total >= 0 else -1)
    return total - partner, partner


class EndedBy(StrEnum):
    """How a chouette game ended (:attr:`SheetRow.ended_by`): the board played out, a resignation (RULES G12), or
    every cube dropped or settled."""

    PLAY = "play"
    RESIGNATION = "resignation"
    DROPS = "drops"


@dataclass
class SheetRow:
    """One game on the sheet. ``points``: member → points of this game (members of the chouette then; 0 for one who
    neither won nor lost). ``marks``: ``None`` when the rule set does not circle losers, else ``{"circled": [...]}``
    plus ``"b"`` (10.1). ``crossed``: circled members later crossed through on becoming Box. ``next_order``: the
    order for the following game as rotation left it (later joins excluded); ``ended_by``: ``"play"``,
    ``"resignation"``, ``"drops"`` (every cube dropped or settled)."""

    game: int
    box: str
    captain: str
    partner: str | None
    points: dict[str, int]
    marks: dict[str, Any] | None
    next_order: list[str]
    ended_by: EndedBy
    crossed: list[str] = field(default_factory=list)

    @property
    def next_captain(self) -> str:
        """The Captain of the following game as rotation left it (10.1 "who is due to be the next Captain")."""
        return self.next_order[1]

    def to_json(self) -> dict[str, Any]:
        """The fields as a JSON-friendly dict."""
        return {
            "game": self.game,
            "box": self.box,
            "captain": self.captain,
            "partner": self.partner,
            "points": dict(self.points),
            "marks": None
            if self.marks is None
            else {k: (list(v) if isinstance(v, list) else v) for k, v in self.marks.items()},
            "next_order": list(self.next_order),
            "ended_by": self.ended_by,
            "crossed": list(self.crossed),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SheetRow:
        """Inverse of :meth:`to_json`; raises :class:`ChouetteError` for a malformed row."""
        try:
            return cls(
                game=int(data["game"]),
                box=data["box"],
                captain=data["captain"],
                partner=data["partner"],
                points={str(k): int(v) for k, v in data["points"].items()},
                marks=data["marks"],
                next_order=list(data["next_order"]),
                ended_by=EndedBy(data["ended_by"]),
                crossed=list(data["crossed"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ChouetteError(f"malformed score-sheet row {data!r}: {error}") from None


@dataclass
class ScoreSheet:
    """The sheet of one chouette session (RULES C11). ``base_stake``: the money per point, "written at the top of the
    score sheet" (003 Atlanta 2.1); ``members``: columns in order of arrival; ``rows``: one :class:`SheetRow` per game.

    A sheet may hold only its latest rows: ``earlier`` games came before ``rows`` and are summed in
    ``earlier_totals`` (:meth:`compact`; a club keeps those rows elsewhere). :attr:`games` and :meth:`totals` count
    them; crossing through (:meth:`cross`) then marks only the rows held.
    """

    base_stake: float = 1
    members: list[str] = field(default_factory=list)
    rows: list[SheetRow] = field(default_factory=list)
    earlier: int = 0
    earlier_totals: dict[str, int] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """How many games the sheet has (held rows and earlier ones)."""
        return self.earlier + len(self.rows)

    def compact(self) -> ScoreSheet:
        """The sheet without its rows: their count and totals only (the running totals of RULES C11)."""
        return ScoreSheet(self.base_stake, list(self.members), [], self.games, self.totals())

    def add_member(self, member: str) -> None:
        """Add a column for a new member (no-op if already there)."""
        if member not in self.members:
            self.members.append(member)

    def add_row(self, row: SheetRow) -> None:
        """Append a finished game; raises :class:`ChouetteError` unless its points sum to zero (10.1 "the scorekeeper
        should verify that the total of all scores adds to zero") and name only members of the sheet."""
        if sum(row.points.values()) != 0:
            raise ChouetteError(f"game {row.game} does not sum to zero: {row.points} (RULES C11)")
        strangers = set(row.points) - set(self.members)
        if strangers:
            raise ChouetteError(f"game {row.game} names members not on the sheet: {sorted(strangers)}")
        self.rows.append(row)

    def cross(self, member: str) -> None:
        """Cross through ``member``'s circled scores as he becomes Box (003 Atlanta 10.1)."""
        for row in self.rows:
            if row.marks and member in row.marks.get("circled", []) and member not in row.crossed:
                row.crossed.append(member)

    def totals(self) -> dict[str, int]:
        """Each member's running total over all rows (sums to zero, RULES C11)."""
        totals = dict.fromkeys(self.members, 0)
        for member, points in self.earlier_totals.items():
            totals[member] = totals.get(member, 0) + points
        for row in self.rows:
            for member, points in row.points.items():
                totals[member] += points
        return totals

    def entry(self, game: int, member: str) -> int | None:
        """``member``'s points in game number ``game`` (1-based), or ``None`` if he had no seat then."""
        for row in self.rows:
            if row.game == game:
                return row.points.get(member)
        raise ChouetteError(f"there is no game {game} on the sheet")

    def open_circles(self) -> list[str]:
        """Circled members not yet crossed through, highest (earliest) first (003 Atlanta 10.1)."""
        result: list[str] = []
        for row in self.rows:
            for member in (row.marks or {}).get("circled", []):
                if member not in row.crossed and member not in result:
                    result.append(member)
        return result

    def text(self) -> str:
        """A plain-text table (one line per game, a totals line; circled entries as ``(n)``, crossed ``(n)x``, the
        losing Captain who follows Box ``(n)b``) for the console and for exports."""
        columns: Sequence[str] = self.members
        width = max([6, *(len(m) + 1 for m in columns)])
        lines = [f"stake {self.base_stake} per point", "game " + "".join(m.rjust(width) for m in columns) + "  next"]
        for row in self.rows:
            cells = []
            marks = row.marks or {}
            for member in columns:
                value = row.points.get(member)
                text = "" if value is None else str(value)
                if member in marks.get("circled", []):
                    text = f"({text})" + ("b" if marks.get("b") == member else "")
                    text += "x" if member in row.crossed else ""
                cells.append(text.rjust(width))
            lines.append(f"{row.game:>4} " + "".join(cells) + f"  {row.next_captain}")
        totals = self.totals()
        lines.append(" sum " + "".join(str(totals[m]).rjust(width) for m in columns))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The sheet as a JSON-friendly dict."""
        data = {"base_stake": self.base_stake, "members": list(self.members), "rows": [r.to_json() for r in self.rows]}
        if self.earlier:
            data.update(earlier=self.earlier, earlier_totals=dict(self.earlier_totals))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoreSheet:
        """Inverse of :meth:`to_json`; raises :class:`ChouetteError` for a malformed sheet."""
        try:
            rows = [SheetRow.from_json(r) for r in data["rows"]]
            earlier = {str(m): int(p) for m, p in data.get("earlier_totals", {}).items()}
            return cls(data["base_stake"], list(data["members"]), rows, int(data.get("earlier", 0)), earlier)
        except (KeyError, TypeError) as error:
            raise ChouetteError(f"malformed score sheet: {error}") from None
