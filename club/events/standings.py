"""Standings with backgammon tie-breaks, each place explained.

Order: match wins; then head-to-head (match wins among the players tied on wins, once every one of them has met
every other: FIDE's direct encounter — never between players who did not meet); then Buchholz with the worst
opponent cut (the sum of the opponents' match wins, less the smallest); then the difference of points won and lost
in matches played out (forfeits, claims, walkovers and byes count as wins and losses but carry no points); then the
seed, which only lists the players who share a place. In a round robin or a league division a player who withdrew
is placed after all who completed it, whatever his record (his results stay for his opponents' scores). A round
robin's bye (in a league too) is a rest, not a win: with an odd field each player rests once a cycle. Each row says
why it stands above the next one ("ahead on Buchholz, 12 to 10"; "level on every tie-break; listed by seed, 3
before 4"). Pure and deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .formats import EventState, Format, How, Player, bracket_placings, rungs


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings: ``place`` (ties on every criterion share it), the player, his record and
    tie-break figures, and ``why``: the reason he is above the next row ("" for the last); ``withdrawn``: he withdrew
    from a round robin or a league (placed after all who completed it)."""

    place: int
    player: Player
    played: int
    wins: int
    losses: int
    head_to_head: int
    buchholz: int
    won: int
    lost: int
    why: str = ""
    withdrawn: bool = False

    @property
    def difference(self) -> int:
        """Points won minus points lost in matches played out."""
        return self.won - self.lost


CRITERIA = (
    ("match wins", "wins"),
    ("head-to-head", "head_to_head"),
    ("Buchholz (worst opponent cut)", "buchholz"),
    ("points won minus lost", "difference"),
)


def standings(state: EventState, players: Sequence[Player] | None = None) -> list[Row]:
    """The standings of ``players`` (default: the whole field) from the results of ``state``, best first, each row
    explained. For an elimination event the bracket's places come first (:func:`~.formats.bracket_placings`);
    for a ladder, the ladder's order (withdrawn players last)."""
    field = list(players) if players is not None else list(state.seeds)
    members = set(field)
    wins = {p: 0 for p in field}
    losses = {p: 0 for p in field}
    won = {p: 0 for p in field}
    lost = {p: 0 for p in field}
    opponents: dict[Player, list[Player]] = {p: [] for p in field}
    beat: dict[Player, dict[Player, int]] = {p: {} for p in field}
    rests = state.settings.format in (Format.ROUND_ROBIN, Format.LEAGUE)
    gone = state.withdrawn if rests else set()
    for key, result in state.results.items():
        pairing = state.pairings[key]
        if not set(pairing.players) <= members or (rests and result.how is How.BYE):
            continue
        if pairing.b is not None:
            opponents[pairing.a].append(pairing.b)
            opponents[pairing.b].append(pairing.a)
        if result.how is How.BOTH_OUT:
            for p in pairing.players:
                losses[p] += 1
            continue
        if result.winner is not None:
            wins[result.winner] += 1
        if result.loser is not None:
            losses[result.loser] += 1
            beat[result.winner][result.loser] = beat[result.winner].get(result.loser, 0) + 1  # type: ignore[index]
        if result.how is How.PLAYED and result.loser is not None:
            won[result.winner] += result.won  # type: ignore[index]
            lost[result.winner] += result.lost  # type: ignore[index]
            won[result.loser] += result.lost
            lost[result.loser] += result.won
    tied: dict[int, set[Player]] = {}
    for p in field:
        tied.setdefault(wins[p], set()).add(p)
    met = {p: set(opponents[p]) for p in field}
    seed = state.seed_of
    rows = []
    for p in field:
        group = tied[wins[p]]
        everyone_met = all(group - {q} <= met[q] for q in group)
        h2h = sum(n for q, n in beat[p].items() if q in group) if len(group) > 1 and everyone_met else 0
        scores = sorted(wins[q] for q in opponents[p])
        buchholz = sum(scores[1:]) if scores else 0
        rows.append(Row(0, p, len(opponents[p]), wins[p], losses[p], h2h, buchholz, won[p], lost[p],
                        withdrawn=p in gone))  # fmt: skip
    order = _order(state, field)
    if order is None:
        rows.sort(key=lambda r: (r.withdrawn, -r.wins, -r.head_to_head, -r.buchholz, -r.difference, seed[r.player]))
    else:
        rank = {p: i for i, p in enumerate(order)}
        rows.sort(key=lambda r: rank[r.player])
    return _explain(rows, seed, order is not None, state)


def _order(state: EventState, field: list[Player]) -> list[Player] | None:
    """The order imposed by the format itself (a bracket's places, a ladder's rungs), or None for a table."""
    kind = state.settings.format
    if kind is Format.LADDER:
        on = rungs(state)
        return [p for p in on if p in field] + [p for p in field if p not in on]
    if kind in (Format.SINGLE, Format.DOUBLE):
        return [p for _, p in bracket_placings(state) if p in field]
    return None


def _explain(rows: list[Row], seed: dict[Player, int], imposed: bool, state: EventState) -> list[Row]:
    placed: list[Row] = []
    places = (
        {p: n for n, p in bracket_placings(state)} if state.settings.format in (Format.SINGLE, Format.DOUBLE) else {}
    )
    place = 1
    for i, row in enumerate(rows):
        if imposed:
            place = places.get(row.player, i + 1)
        elif i and _key(rows[i - 1]) != _key(row):
            place = i + 1
        placed.append(_with(row, place, ""))
    return [
        _with(row, row.place, _why(row, placed[i + 1], seed, state) if i + 1 < len(placed) else "")
        for i, row in enumerate(placed)
    ]


def _key(row: Row) -> tuple:
    return (row.withdrawn, row.wins, row.head_to_head, row.buchholz, row.difference)


def _with(row: Row, place: int, why: str) -> Row:
    return replace(row, place=place, why=why)


def _why(upper: Row, lower: Row, seed: dict[Player, int], state: EventState) -> str:
    kind = state.settings.format
    if kind is Format.LADDER:
        return "higher on the ladder"
    if kind in (Format.SINGLE, Format.DOUBLE):
        if upper.place != lower.place:
            return "went further in the bracket"
        stage = "still in" if upper.place == 1 and state.pending() else "out at the same stage"
        return f"{stage}; {_by_seed(upper, lower, seed)}"
    if lower.withdrawn and not upper.withdrawn:
        return "ahead: completed the event, the next withdrew"
    for words, attr in CRITERIA:
        a, b = getattr(upper, attr), getattr(lower, attr)
        if a != b:
            if attr == "difference":
                return f"ahead on {words}, {a:+d} to {b:+d}"
            return f"ahead on {words}, {a} to {b}"
    return f"level on every tie-break; {_by_seed(upper, lower, seed)}"


def _by_seed(upper: Row, lower: Row, seed: dict[Player, int]) -> str:
    """Why ``upper`` is listed above ``lower``, who shares his place."""
    return f"listed by seed, {seed[upper.player]} before {seed[lower.player]}"
