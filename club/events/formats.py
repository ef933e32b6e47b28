"""Club events as pure logic: who plays whom next, byes, walkovers and when an event is over.

No I/O, no clock, no randomness: every function is a deterministic function of an :class:`EventState` (the
seeded field, the pairings made so far and their results), so a state rebuilt from the event's log pairs exactly
as the first run did. The formats (:class:`Format`):

- ``single``: single elimination; byes to the top seeds; optional progressive consolation (the losers of the first
  two rounds play on in a consolation bracket).
- ``double``: double elimination; the losers' bracket takes every winners' round's losers; the grand final is
  reset (played again) when the losers' bracket champion wins it.
- ``round_robin``: Berger tables, once or twice round (``cycles``).
- ``swiss``: score groups paired top half against bottom half, rematches avoided, the bye to the lowest record
  among those with the fewest byes; MoreSwiss (``out_after`` losses) drops a player at his Nth loss.
- ``ladder``: challenges up to ``reach`` places above; the winner of a challenge from below takes the place.
- ``league``: a season of divisions, each a round robin; :func:`promote` moves the top ``up`` of each division up
  and the bottom ``down`` down for the next season.

The entry point is :func:`settle`: given the state, the pairings (and automatic results: byes, walkovers of
withdrawn players) that are due now. Players are member ids (``int``).

Libraries weighed: PyPI's pairing packages (``round-robin-tournament``, ``roundrobin-match``, ``bracketool``,
``chess-pairings``) make schedules or chess pairings, where colours drive the Dutch system; none has MoreSwiss's
elimination at the Nth loss, its bye rule (the lowest record among those with the fewest byes) or backgammon's
tie-breaks. So the formats are written here; the one hard part — pairing the players the score groups leave with
the fewest rematches — is networkx's maximum-weight matching (:func:`networkx.max_weight_matching`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache

Player = int


class Format(StrEnum):
    """The kinds of event a club can run."""

    SINGLE = "single"
    DOUBLE = "double"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    LADDER = "ladder"
    LEAGUE = "league"


FORMAT_WORDS = {
    Format.SINGLE: "single elimination",
    Format.DOUBLE: "double elimination",
    Format.ROUND_ROBIN: "round robin",
    Format.SWISS: "Swiss",
    Format.LADDER: "ladder",
    Format.LEAGUE: "league season",
}
"""Each format in words."""
OPTION_FORMATS = {
    "final_length": (Format.SINGLE, Format.DOUBLE),
    "rounds": (Format.SWISS,),
    "out_after": (Format.SWISS,),
    "consolation": (Format.SINGLE,),
    "cycles": (Format.ROUND_ROBIN, Format.LEAGUE),
    "division_size": (Format.LEAGUE,),
    "up": (Format.LEAGUE,),
    "down": (Format.LEAGUE,),
    "reach": (Format.LADDER,),
}
"""The options of :class:`Settings` that only some formats use (by field name) → those formats; the others
(``lengths``, ``round_hours``) fit every format."""


class How(StrEnum):
    """How a pairing was decided. Only ``played`` results are rated and count points (UKBGF practice)."""

    PLAYED = "played"
    FORFEIT = "forfeit"  # a no-show at the deadline, or the organiser's award
    CLAIM = "claim"  # the club's claim policy after the opponent's clock ran out
    WALKOVER = "walkover"  # the opponent had withdrawn
    BYE = "bye"  # nobody to play
    BOTH_OUT = "both_out"  # neither player acted: both lose

    @property
    def rated(self) -> bool:
        """Whether a result decided this way changes ratings (only a match played out does)."""
        return self is How.PLAYED


class EventError(ValueError):
    """A request the event's rules refuse; the message says what was wrong and what would be right."""


@dataclass(frozen=True, slots=True)
class Settings:
    """An event's format and its options.

    ``lengths``: match length in points per round (the last repeats); ``final_length``: the final's (0 = as its
    round). ``rounds``: Swiss rounds (0 = until MoreSwiss leaves one player). ``out_after``: MoreSwiss, out at
    this many losses (0 = off). ``consolation``: progressive consolation for single elimination. ``cycles``: 1 or
    2 for a single or double round robin (and each league division). ``division_size``: league divisions of about
    this many (6–12 usual). ``up``/``down``: league promotion and relegation places. ``reach``: ladder challenges
    up to this many places above. ``round_hours``: hours each round (each pairing) has before its deadline.
    """

    format: Format
    lengths: tuple[int, ...] = (5,)
    final_length: int = 0
    rounds: int = 0
    out_after: int = 0
    consolation: bool = False
    cycles: int = 1
    division_size: int = 8
    up: int = 2
    down: int = 2
    reach: int = 3
    round_hours: int = 168

    def __post_init__(self) -> None:
        if not self.lengths or any(not 1 <= n <= 25 for n in self.lengths):
            raise EventError("Match lengths are 1 to 25 points each, for example 5,5,7.")
        if self.final_length and not 1 <= self.final_length <= 25:
            raise EventError("The final's length is 1 to 25 points.")
        if self.cycles not in (1, 2):
            raise EventError("A round robin is played once or twice round: cycles 1 or 2.")
        if self.format is Format.SWISS and not self.rounds and not self.out_after:
            raise EventError("A Swiss needs a number of rounds, or out_after N losses (MoreSwiss), or both.")
        if self.round_hours < 1:
            raise EventError("Each round has at least 1 hour (hours).")
        if self.reach < 1:
            raise EventError("A ladder's reach is at least 1 place.")
        if self.rounds < 0:
            raise EventError("Swiss rounds are 0 or more.")
        if self.out_after < 0:
            raise EventError("out_after (MoreSwiss) is 0 or more.")
        if self.up < 0 or self.down < 0:
            raise EventError("A league's up and down (promoted and relegated per division) are 0 or more.")
        if self.format is Format.LEAGUE and not 3 <= self.division_size <= 16:
            raise EventError("League divisions hold 3 to 16 players (6 to 12 is usual).")

    def length(self, pairing: Pairing) -> int:
        """The match length of ``pairing``: its round's entry of ``lengths`` (the last repeats), or
        ``final_length`` for a final."""
        if pairing.final and self.final_length:
            return self.final_length
        return self.lengths[min(pairing.round, len(self.lengths)) - 1]

    @property
    def min_players(self) -> int:
        """The fewest players the format can start with."""
        return 3 if self.format is Format.LEAGUE else 2


def check_options(format: Format, given: dict[str, str]) -> None:
    """Refuse an option the ``format`` does not use (``rounds`` on a knock-out, ``up`` on a Swiss) rather than
    ignore it. ``given``: the :class:`Settings` fields the organiser set → the option's name as he wrote it.
    Raises :class:`EventError` naming the option and the formats it applies to."""
    for name, written in given.items():
        fits = OPTION_FORMATS.get(name, (format,))
        if format not in fits:
            where = ", ".join(FORMAT_WORDS[f].removesuffix(" season") for f in fits)
            raise EventError(f"{written} applies to {where} only, not to {FORMAT_WORDS[format]}: leave it out.")


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of an event: ``key`` names it for good (``W2-1``, ``L3-2``, ``GF``, ``GF2``, ``C1-1``, ``R4-2``,
    ``S3-5``, ``D2-R1-3``, ``X7``); ``round`` counts from 1 within its stage; ``b`` is None for a bye. ``why``
    says in words why these two were paired. ``final``: the event's final (its own length). ``deadline``: epoch
    seconds by which it must be played (0 for a bye)."""

    key: str
    round: int
    a: Player
    b: Player | None
    why: str = ""
    final: bool = False
    deadline: int = 0

    @property
    def players(self) -> tuple[Player, ...]:
        """Both players (one for a bye)."""
        return (self.a,) if self.b is None else (self.a, self.b)

    def other(self, player: Player) -> Player | None:
        """The opponent of ``player``."""
        return self.b if player == self.a else self.a


@dataclass(frozen=True, slots=True)
class Result:
    """The result of pairing ``key``: ``winner`` (None when both went out), points won by winner and loser,
    and how it was decided."""

    key: str
    winner: Player | None
    loser: Player | None
    won: int = 0
    lost: int = 0
    how: How = How.PLAYED


@dataclass(slots=True)
class EventState:
    """An event as its log leaves it: settings, the seeded field (best seed first), pairings by key in the order
    made, results by key, withdrawn players, and for a ladder its current order (top first); for a league the
    divisions (best first)."""

    settings: Settings
    seeds: tuple[Player, ...]
    pairings: dict[str, Pairing] = field(default_factory=dict)
    results: dict[str, Result] = field(default_factory=dict)
    withdrawn: set[Player] = field(default_factory=set)
    ladder: list[Player] = field(default_factory=list)
    divisions: tuple[tuple[Player, ...], ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.seeds)) != len(self.seeds):
            raise EventError("A player is seeded twice.")
        if self.settings.format is Format.LADDER and not self.ladder:
            self.ladder = list(self.seeds)
        if self.settings.format is Format.LEAGUE and not self.divisions:
            self.divisions = divide(self.seeds, self.settings.division_size)

    @property
    def seed_of(self) -> dict[Player, int]:
        """Each player's seed number (1 = best)."""
        return {p: i + 1 for i, p in enumerate(self.seeds)}

    def pending(self) -> list[Pairing]:
        """Pairings made and not yet decided, in the order made."""
        return [p for k, p in self.pairings.items() if k not in self.results]

    def record(self, pairing: Pairing) -> None:
        """Add ``pairing``; a bye is decided at once."""
        self.pairings[pairing.key] = pairing
        if pairing.b is None:
            self.results[pairing.key] = Result(pairing.key, pairing.a, None, 0, 0, How.BYE)

    def decide(self, result: Result) -> None:
        """Record ``result`` for a pending pairing (raises :class:`EventError` for an unknown or decided one, or a
        winner who did not play it); a ladder challenge won from below moves the ladder (:func:`ladder_after`)."""
        pairing = self.pairings.get(result.key)
        if pairing is None:
            raise EventError(f"No match {result.key} in this event.")
        if result.key in self.results:
            raise EventError(f"Match {result.key} is already decided.")
        players = set(pairing.players)
        if result.winner is not None and (result.winner not in players or {result.winner, result.loser} != players):
            raise EventError(f"Match {result.key} is between other players.")
        self.results[result.key] = result
        if self.settings.format is Format.LADDER and result.winner is not None:
            self.ladder = ladder_after(self.ladder, result.winner, result.loser)


# ---------------------------------------------------------------------------------------------------------------
# Settle: what is due now


@dataclass(frozen=True, slots=True)
class Due:
    """What :func:`settle` found due: new ``pairings`` (byes included) and ``results`` decided without play
    (walkovers against withdrawn players)."""

    pairings: tuple[Pairing, ...] = ()
    results: tuple[Result, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.pairings or self.results)


def settle(state: EventState, now: int = 0) -> Due:
    """Pair everything that is due in ``state`` at epoch second ``now`` and decide what needs no play, until
    nothing more is due. ``state`` is not changed; apply the answer with :func:`apply_due`. Every pairing gets a
    deadline ``now + round_hours``; a withdrawn player's matches are walkovers to his opponent (both withdrawn:
    both out)."""
    work = copy_state(state)
    made: list[Pairing] = []
    decided: list[Result] = []
    while True:
        step = _pairings_due(work)
        walk = _walkovers(work)
        if not step and not walk:
            break
        for pairing in step:
            if pairing.b is not None:
                pairing = replace(pairing, deadline=now + work.settings.round_hours * 3600)
            work.record(pairing)
            made.append(pairing)
        for result in walk:
            work.decide(result)
            decided.append(result)
    return Due(tuple(made), tuple(decided))


def apply_due(state: EventState, due: Due) -> None:
    """Record the pairings and results of ``due`` (from :func:`settle`) in ``state``, in order."""
    results = {r.key: r for r in due.results}
    for pairing in due.pairings:
        state.record(pairing)
        if pairing.key in results:
            state.decide(results.pop(pairing.key))
    for result in results.values():
        state.decide(result)


def copy_state(state: EventState) -> EventState:
    """An independent copy of ``state``."""
    return EventState(
        state.settings,
        state.seeds,
        dict(state.pairings),
        dict(state.results),
        set(state.withdrawn),
        list(state.ladder),
        state.divisions,
    )


def _walkovers(state: EventState) -> list[Result]:
    out = []
    for pairing in state.pending():
        gone = [p for p in pairing.players if p in state.withdrawn]
        if not gone:
            continue
        if len(gone) == 2:
            out.append(Result(pairing.key, None, None, 0, 0, How.BOTH_OUT))
        else:
            winner = pairing.other(gone[0])
            out.append(Result(pairing.key, winner, gone[0], 0, 0, How.WALKOVER))
    return out


def _pairings_due(state: EventState) -> list[Pairing]:
    kind = state.settings.format
    if kind in (Format.SINGLE, Format.DOUBLE):
        return _bracket_due(state)
    if kind is Format.ROUND_ROBIN:
        return _round_robin_due(state)
    if kind is Format.LEAGUE:
        return _league_due(state)
    if kind is Format.SWISS:
        return _swiss_due(state)
    return []  # a ladder pairs on challenges only


def finished(state: EventState) -> bool:
    """Whether the event is over: nothing pending and nothing more to pair (a ladder is over only when closed)."""
    if state.settings.format is Format.LADDER:
        return False
    return not state.pending() and not settle(state)


# ---------------------------------------------------------------------------------------------------------------
# Elimination brackets


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a bracket match's player comes from: seed position ``seed`` (0-based), or the winner or loser of
    match ``key``."""

    seed: int = -1
    winner_of: str = ""
    loser_of: str = ""


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A match of the bracket's plan: key, stage (``W`` winners, ``L`` losers, ``C`` consolation, ``GF`` grand
    final), round within the stage, its two slots, and whether it is the event's final."""

    key: str
    stage: str
    round: int
    slots: tuple[Slot, Slot]
    final: bool = False


def bracket_size(n: int) -> int:
    """The smallest power of two ≥ ``n`` (at least 2)."""
    size = 2
    while size < n:
        size *= 2
    return size


@lru_cache(maxsize=64)
def seed_positions(size: int) -> tuple[int, ...]:
    """The standard bracket order of seeds 0..size-1 so that seeds 1 and 2 can meet only in the final, 1–4 and
    2–3 in the semi-finals, and so on: line ``2i`` plays line ``2i+1`` in round 1."""
    order = [0]
    while len(order) < size:
        span = 2 * len(order)
        order = [x for s in order for x in (s, span - 1 - s)]
    return tuple(order)


@lru_cache(maxsize=64)
def bracket_plan(kind: Format, size: int, consolation: bool) -> tuple[BracketMatch, ...]:
    """The whole plan of an elimination bracket of ``size`` lines (a power of two), in play order within each
    stage. Double elimination's losers' bracket alternates rounds among its own survivors with rounds where the
    winners' round's losers drop in (in reverse order on alternate drops, to keep apart who just met); progressive
    consolation is the same bracket fed by the first two winners' rounds only."""
    depth = size.bit_length() - 1
    plan: list[BracketMatch] = []
    lines = seed_positions(size)
    previous = [Slot(seed=s) for s in lines]
    for r in range(1, depth + 1):
        current = []
        for i in range(len(previous) // 2):
            key = f"W{r}-{i + 1}"
            final = kind is Format.SINGLE and r == depth
            plan.append(BracketMatch(key, "W", r, (previous[2 * i], previous[2 * i + 1]), final))
            current.append(Slot(winner_of=key))
        previous = current
    champion = previous[0]
    if kind is Format.DOUBLE:
        feeds = depth
        stage = "L"
    elif consolation and depth >= 2:
        feeds = 2
        stage = "C"
    else:
        return tuple(plan)
    losers = [Slot(loser_of=f"W1-{i + 1}") for i in range(size // 2)]
    lround = 0
    for w in range(2, depth + 2):
        if len(losers) > 1:
            lround += 1
            merged = []
            for i in range(len(losers) // 2):
                key = f"{stage}{lround}-{i + 1}"
                plan.append(BracketMatch(key, stage, lround, (losers[2 * i], losers[2 * i + 1])))
                merged.append(Slot(winner_of=key))
            losers = merged
        if w <= min(feeds, depth):
            drops = [Slot(loser_of=f"W{w}-{i + 1}") for i in range(size >> w)]
            if w % 2 == 0:
                drops.reverse()
            lround += 1
            merged = []
            for i, (mine, drop) in enumerate(zip(losers, drops, strict=True)):
                key = f"{stage}{lround}-{i + 1}"
                plan.append(BracketMatch(key, stage, lround, (mine, drop)))
                merged.append(Slot(winner_of=key))
            losers = merged
    if kind is Format.DOUBLE:
        lchamp = losers[0] if size > 2 else Slot(loser_of="W1-1")
        plan.append(BracketMatch("GF", "GF", 1, (champion, lchamp), final=True))
    return tuple(plan)


_EMPTY = -1  # a slot nobody fills (a bye line, or both players out)


def _bracket_resolver(state: EventState):
    """A function slot → player, ``_EMPTY`` or None (not known yet), memoised over one state."""
    n = len(state.seeds)
    memo: dict[str, tuple[int | None, int | None]] = {}
    plan = {m.key: m for m in bracket_plan(state.settings.format, bracket_size(n), state.settings.consolation)}

    def outcome(key: str) -> tuple[int | None, int | None]:
        if key in memo:
            return memo[key]
        result = state.results.get(key)
        if result is not None:
            answer = (result.winner, result.loser) if result.how is not How.BOTH_OUT else (_EMPTY, _EMPTY)
            if result.how is How.BYE:
                answer = (result.winner, _EMPTY)
        else:
            a, b = (resolve(s) for s in plan[key].slots)
            if a is None or b is None:
                answer = (None, None)
            elif a == _EMPTY or b == _EMPTY:
                answer = (b if a == _EMPTY else a, _EMPTY)
            else:
                answer = (None, None)
        memo[key] = answer
        return answer

    def resolve(slot: Slot) -> int | None:
        if slot.seed >= 0:
            return state.seeds[slot.seed] if slot.seed < n else _EMPTY
        if slot.winner_of:
            return outcome(slot.winner_of)[0]
        return outcome(slot.loser_of)[1]

    return plan, resolve, outcome


def _bracket_due(state: EventState) -> list[Pairing]:
    plan, resolve, outcome = _bracket_resolver(state)
    due = []
    for match in plan.values():
        if match.key in state.pairings:
            continue
        a, b = (resolve(s) for s in match.slots)
        if a is None or b is None or a == _EMPTY or b == _EMPTY:
            continue
        due.append(Pairing(match.key, match.round, a, b, _bracket_why(match), match.final))
    gf = state.results.get("GF")
    if gf is not None and "GF2" not in state.pairings and gf.how is not How.BOTH_OUT:
        wchamp = outcome(plan["GF"].slots[0].winner_of)[0]
        if gf.winner is not None and gf.winner != wchamp and gf.loser is not None and wchamp not in state.withdrawn:
            due.append(
                Pairing(
                    "GF2",
                    2,
                    wchamp,
                    gf.winner,
                    "Bracket reset: the losers' bracket champion won the first grand final, "
                    "so the winners' champion, unbeaten till then, gets a second life.",
                    True,
                )
            )
    return due


def _bracket_why(match: BracketMatch) -> str:
    def words(slot: Slot) -> str:
        if slot.seed >= 0:
            return f"seed {slot.seed + 1}"
        if slot.winner_of:
            return f"winner of {slot.winner_of}"
        return f"loser of {slot.loser_of}"

    return f"{words(match.slots[0])} against {words(match.slots[1])}"


def bracket_view(state: EventState) -> list[tuple[BracketMatch, Player | None, Player | None, Result | None]]:
    """Every match of the bracket with its players as known so far (None: not known yet, ``-1``: nobody — a
    bye line) and its result, in plan order; the reset final ``GF2`` is added once it is due. Nothing about an
    undecided match is shown beyond who plays it."""
    plan, resolve, _ = _bracket_resolver(state)
    rows = []
    for match in plan.values():
        a, b = (resolve(s) for s in match.slots)
        rows.append((match, a, b, state.results.get(match.key)))
    if "GF2" in state.pairings:
        p = state.pairings["GF2"]
        rows.append((BracketMatch("GF2", "GF", 2, (Slot(), Slot()), True), p.a, p.b, state.results.get("GF2")))
    return rows


def bracket_placings(state: EventState) -> list[tuple[int, Player]]:
    """Places in an elimination event, best first; ties share a place (both semi-final losers are 3rd). A player
    is out at his first loss (single) or second (double; the grand final's loser too), a withdrawn player at his
    last; the later he went out, the better his place. Players still in share the top place until the event is over. Consolation matches do not
    change places."""
    plan, _, _ = _bracket_resolver(state)
    order = [key for key in plan if not key.startswith("C")] + (["GF2"] if "GF2" in state.pairings else [])
    rank = {key: i for i, key in enumerate(order)}
    lives = 2 if state.settings.format is Format.DOUBLE else 1
    losses: dict[Player, int] = {}
    out_at: dict[Player, int] = {}
    for key in order:
        result = state.results.get(key)
        if result is None:
            continue
        losers = state.pairings[key].players if result.how is How.BOTH_OUT else (result.loser,)
        for loser in losers:
            if loser is None:
                continue
            losses[loser] = losses.get(loser, 0) + 1
            if loser in state.withdrawn:
                out_at[loser] = rank[key]
            elif losses[loser] >= lives:
                out_at.setdefault(loser, rank[key])
    seed = state.seed_of
    alive = sorted((p for p in state.seeds if p not in out_at), key=lambda p: seed[p])
    places = [(1, p) for p in alive]
    gone = sorted(out_at, key=lambda p: (_stage_depth(order[out_at[p]]), -seed[p]), reverse=True)
    position = len(alive) + 1
    for group in _group_by(gone, key=lambda p: _stage_depth(order[out_at[p]])):
        places += [(position, p) for p in group]
        position += len(group)
    return places


def _stage_depth(key: str) -> tuple[int, int]:
    """How far a match is from the start: the grand finals last, then by stage round."""
    if key.startswith("GF"):
        return (2, int(key[2:] or 1))
    return (1, int(key[1:].split("-")[0]))


def _group_by(items: list, key) -> list[list]:
    groups: list[list] = []
    last = object()
    for item in items:
        k = key(item)
        if not groups or k != last:
            groups.append([])
            last = k
        groups[-1].append(item)
    return groups


# ---------------------------------------------------------------------------------------------------------------
# Round robins and leagues


def berger_rounds(n: int) -> list[list[tuple[int, int | None]]]:
    """The Berger table for ``n`` players numbered 0..n-1: one list of pairings per round, each player once per
    round; with an odd ``n`` the player paired with None has the bye. Round 1 is 1–n, 2–(n−1), …; each next round
    turns the others ``n/2`` places round the fixed last player (FIDE's Berger tables)."""
    m = n + (n % 2)
    rounds: list[list[tuple[int, int | None]]] = []
    for r in range(m - 1):
        ring = [((k + r * (m // 2)) % (m - 1)) for k in range(m - 1)]
        pairs = [(ring[0], m - 1)] + [(ring[k], ring[m - 1 - k]) for k in range(1, m // 2)]
        rounds.append([(a, b if b < n else None) if a < n else (b, None) for a, b in pairs])
    return rounds


def _rr_group_due(state: EventState, group: Sequence[Player], prefix: str, label: str) -> list[Pairing]:
    """The next round of the round robin of ``group`` under keys ``{prefix}R{r}-{i}``, if its previous round is
    decided."""
    table = berger_rounds(len(group))
    total = len(table) * state.settings.cycles
    for r in range(1, total + 1):
        keys = [f"{prefix}R{r}-{i + 1}" for i in range(len(table[0]))]
        if all(k in state.pairings for k in keys):
            if any(k not in state.results for k in keys):
                return []
            continue
        out = []
        for i, (a, b) in enumerate(table[(r - 1) % len(table)]):
            pa = group[a]
            pb = group[b] if b is not None else None
            if r > len(table) and pb is not None:
                pa, pb = pb, pa
            why = (
                f"{label} round {r} of {total} (Berger table)"
                if pb is not None
                else (f"{label} round {r}: bye — an odd field gives one player a rest each round")
            )
            out.append(Pairing(keys[i], r, pa, pb, why, False))
        return out
    return []


def _round_robin_due(state: EventState) -> list[Pairing]:
    return _rr_group_due(state, state.seeds, "", "Round robin")


def divide(players: Sequence[Player], size: int) -> tuple[tuple[Player, ...], ...]:
    """Split ``players`` (best first) into divisions of about ``size`` (sizes differ by at most one, the larger
    first), best players in division 1."""
    n = len(players)
    if n == 0:
        return ()
    count = max(1, round(n / size))
    base, extra = divmod(n, count)
    out, start = [], 0
    for d in range(count):
        width = base + (1 if d < extra else 0)
        out.append(tuple(players[start : start + width]))
        start += width
    return tuple(out)


def _league_due(state: EventState) -> list[Pairing]:
    due = []
    for d, group in enumerate(state.divisions, start=1):
        due += _rr_group_due(state, group, f"D{d}-", f"Division {d}")
    return due


def promote(standings: Sequence[Sequence[Player]], up: int, down: int) -> tuple[tuple[Player, ...], ...]:
    """Next season's divisions from this season's final standings per division (best first): between two
    neighbouring divisions the top of the lower one go up and as many of the bottom of the upper one go down, so
    the divisions keep their sizes — the smaller of ``up`` and ``down``, and at most half of either division (in a
    small division nobody goes both up and down)."""
    new = [list(s) for s in standings]
    k = len(new)
    for d in range(k - 1):
        upper, lower = standings[d], standings[d + 1]
        moves = min(down, up, len(upper) // 2, len(lower) // 2)
        going_down = list(upper[len(upper) - moves :]) if moves else []
        going_up = list(lower[:moves])
        new[d] = [p for p in new[d] if p not in going_down] + going_up
        new[d + 1] = going_down + [p for p in new[d + 1] if p not in going_up]
    return tuple(tuple(d) for d in new)


# ---------------------------------------------------------------------------------------------------------------
# Swiss and MoreSwiss


def losses_of(state: EventState) -> dict[Player, int]:
    """Each player's losses so far (both-out counts a loss for both)."""
    out = {p: 0 for p in state.seeds}
    for key, result in state.results.items():
        if result.how is How.BOTH_OUT:
            for p in state.pairings[key].players:
                out[p] += 1
        elif result.loser is not None:
            out[result.loser] += 1
    return out


def wins_of(state: EventState) -> dict[Player, int]:
    """Each player's match wins so far (a bye is a win)."""
    out = {p: 0 for p in state.seeds}
    for result in state.results.values():
        if result.winner is not None:
            out[result.winner] += 1
    return out


def meetings(state: EventState) -> tuple[dict[Player, set[Player]], dict[Player, int]]:
    """Whom each player has been paired with so far, and how many byes each has had."""
    met: dict[Player, set[Player]] = {p: set() for p in state.seeds}
    byes: dict[Player, int] = {p: 0 for p in state.seeds}
    for pairing in state.pairings.values():
        if pairing.b is None:
            byes[pairing.a] += 1
        else:
            met[pairing.a].add(pairing.b)
            met[pairing.b].add(pairing.a)
    return met, byes


def swiss_active(state: EventState) -> list[Player]:
    """Swiss players still in: not withdrawn and, under MoreSwiss, below ``out_after`` losses."""
    losses = losses_of(state)
    cap = state.settings.out_after
    return [p for p in state.seeds if p not in state.withdrawn and not (cap and losses[p] >= cap)]


def _swiss_round(state: EventState) -> int:
    rounds = [p.round for k, p in state.pairings.items() if k.startswith("S")]
    return max(rounds, default=0)


def _swiss_due(state: EventState) -> list[Pairing]:
    if state.pending():
        return []
    done = _swiss_round(state)
    cap = state.settings.rounds
    active = swiss_active(state)
    if (cap and done >= cap) or len(active) < 2:
        return []
    return pair_swiss(state, active, done + 1)


def pair_swiss(state: EventState, active: Sequence[Player], round_no: int) -> list[Pairing]:
    """Pair Swiss round ``round_no`` among ``active``: a bye (odd field) to the lowest record among those with the
    fewest byes; then score groups from the top, each paired top half against bottom half, an odd player floating
    down to the next group (a whole group that cannot be paired floats down); a rematch is avoided by taking the next
    opponent in order. Players the groups leave unpaired at the bottom are paired by maximum-weight matching
    (networkx's blossom) together with the lowest pairs above them — 1, 2, 4 … of them, up to the whole round —
    until no rematch is left or the whole round was matched, a rematch then only where none can be avoided. Each
    pairing says why."""
    wins = wins_of(state)
    losses = losses_of(state)
    seed = state.seed_of
    met, byes = meetings(state)
    players = sorted(active, key=lambda p: (-wins[p], seed[p]))
    out: list[Pairing] = []
    if len(players) % 2:
        fewest = min(byes[p] for p in players)
        bye = min((p for p in players if byes[p] == fewest), key=lambda p: (wins[p], -losses[p], -seed[p]))
        players.remove(bye)
        out.append(
            Pairing(
                f"S{round_no}-{len(players) // 2 + 1}",
                round_no,
                bye,
                None,
                f"Bye: the lowest record ({wins[bye]}–{losses[bye]}) among those with the fewest byes ({fewest}).",
                False,
            )
        )
    pairs, rest = _pair_groups(players, wins, met)
    undone = 0
    while rest:  # the bottom did not pair by score groups: a matching of those players and the lowest pairs above
        pool = rest + [p for (a, b), _ in pairs[len(pairs) - undone :] for p in (a, b)] if undone else rest
        matched = _pair_matching(pool, wins, met)
        if undone >= len(pairs) or not any(b in met[a] for (a, b), _ in matched):
            pairs = pairs[: len(pairs) - undone] + matched
            break
        undone = min(len(pairs), max(1, 2 * undone))
    pairs.sort(key=lambda ab: (-max(wins[ab[0][0]], wins[ab[0][1]]), min(seed[ab[0][0]], seed[ab[0][1]])))
    body = [Pairing(f"S{round_no}-{i + 1}", round_no, a, b, why, False) for i, ((a, b), why) in enumerate(pairs)]
    return body + out


def _pair_groups(
    players: list[Player], wins: dict[Player, int], met: dict[Player, set[Player]]
) -> tuple[list[tuple[tuple[Player, Player], str]], list[Player]]:
    """Score groups top down with floaters; a group that cannot be paired without a rematch floats down whole
    into the next. Returns the pairs made and the players left unpaired at the bottom (none when all paired)."""
    groups = _group_by(players, key=lambda p: wins[p])
    pairs: list[tuple[tuple[Player, Player], str]] = []
    floaters: list[Player] = []
    for index, group in enumerate(groups):
        members = floaters + group
        last = index == len(groups) - 1
        solved = _pair_bracket(members, met, must_float=len(members) % 2 == 1, last=last)
        if solved is None:
            if last:
                return pairs, members
            floaters = members
            continue
        matched, floaters = solved
        score = wins[group[0]]
        for a, b in matched:
            natural = _natural(members, a)
            words = f"score group {score} win{'s' if score != 1 else ''}"
            if wins[a] != wins[b]:
                words += f"; {_name(a) if wins[a] > wins[b] else _name(b)} floated down from {max(wins[a], wins[b])}"
            if natural is not None and natural != b and natural in met[a]:
                words += f"; rematch avoided (already met {_name(natural)})"
            pairs.append(((a, b), words))
    return pairs, floaters


def _name(player: Player) -> str:
    return f"<@{player}>"


def _natural(members: list[Player], a: Player) -> Player | None:
    half = len(members) // 2
    if a in members[:half]:
        i = members.index(a)
        return members[half + i] if half + i < len(members) else None
    return None


def _pair_bracket(
    members: list[Player], met: dict[Player, set[Player]], *, must_float: bool, last: bool
) -> tuple[list[tuple[Player, Player]], list[Player]] | None:
    """Pair one score group: top half against bottom half, the next opponent in order when the natural one is a
    rematch (a bounded backtracking search); with ``must_float``, the lowest player that leaves a pairable group
    floats down. None if impossible (or, in the last group, a floater would remain)."""
    if must_float:
        if last:
            return None
        for f in reversed(members):
            rest = [p for p in members if p != f]
            found = _search(rest, met)
            if found is not None:
                return found, [f]
        return None
    found = _search(members, met)
    return (found, []) if found is not None else None


def _search(
    members: list[Player], met: dict[Player, set[Player]], budget: int = 2000
) -> list[tuple[Player, Player]] | None:
    half = len(members) // 2
    top, bottom = members[:half], members[half:]
    steps = [0]

    def go(i: int, free: list[Player]) -> list[tuple[Player, Player]] | None:
        if i == len(top):
            return []
        steps[0] += 1
        if steps[0] > budget:
            return None
        a = top[i]
        order = free[:]
        for b in order:
            if b in met[a]:
                continue
            rest = [x for x in free if x != b]
            tail = go(i + 1, rest)
            if tail is not None:
                return [(a, b)] + tail
        return None

    if not members:
        return []
    return go(0, bottom)


def _pair_matching(
    players: list[Player], wins: dict[Player, int], met: dict[Player, set[Player]]
) -> list[tuple[tuple[Player, Player], str]]:
    """Maximum-weight perfect matching of the whole round: a rematch costs more than any score difference."""
    import networkx as nx  # type: ignore[import-untyped]

    graph = nx.Graph()
    n = len(players)
    big = 10 * (n + 1) ** 2 * (max(wins.values(), default=0) + 1) ** 2
    for i in range(n):
        for j in range(i + 1, n):
            a, b = players[i], players[j]
            cost = (wins[a] - wins[b]) ** 2 * (n + 1) + abs(j - i - n // 2)
            if b in met[a]:
                cost += big
            graph.add_edge(i, j, weight=4 * big - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    for i, j in sorted(tuple(sorted(e)) for e in matching):
        a, b = players[i], players[j]
        words = (
            "paired across score groups to avoid rematches"
            if b not in met[a]
            else ("rematch: no pairing of this round avoids every rematch")
        )
        pairs.append(((a, b), words))
    return pairs


# ---------------------------------------------------------------------------------------------------------------
# Ladders


def ladder_after(ladder: Sequence[Player], winner: Player, loser: Player | None) -> list[Player]:
    """The ladder (top first) after ``winner`` beat ``loser``: a winner from below takes the loser's place and
    everyone from there to the winner's old place moves down one; a winner above stays."""
    order = list(ladder)
    if loser is None or winner not in order or loser not in order:
        return order
    w, lo = order.index(winner), order.index(loser)
    if w > lo:
        order.pop(w)
        order.insert(lo, winner)
    return order


def challenge(state: EventState, challenger: Player, defender: Player, number: int) -> Pairing:
    """A ladder challenge as pairing ``X{number}``. Raises :class:`EventError` when ``defender`` is not 1 to
    ``reach`` places above (among the players not withdrawn, :func:`rungs`), either player has a challenge open or
    is withdrawn, or the two played each other last (no rematch until one of them has played someone else)."""
    ladder = rungs(state)
    if state.settings.format is not Format.LADDER:
        raise EventError("Challenges are for ladders; this event pairs its rounds itself.")
    for p in (challenger, defender):
        if p not in ladder or p in state.withdrawn:
            raise EventError(f"{_name(p)} is not on this ladder.")
    gap = ladder.index(challenger) - ladder.index(defender)
    reach = state.settings.reach
    if not 1 <= gap <= reach:
        reachable = "1 place" if reach == 1 else f"1 to {reach} places"
        raise EventError(
            f"You can challenge {reachable} above you (you are {ladder.index(challenger) + 1}, "
            f"{_name(defender)} is {ladder.index(defender) + 1})."
        )
    busy = {p for pairing in state.pending() for p in pairing.players}
    for p in (challenger, defender):
        if p in busy:
            raise EventError(f"{_name(p)} already has a ladder match to play; one at a time.")
    last = _last_opponents(state)
    if last.get(challenger) == defender and last.get(defender) == challenger:
        raise EventError(
            f"You played {_name(defender)} last; a rematch waits until one of you has played someone else."
        )
    return Pairing(
        f"X{number}",
        number,
        challenger,
        defender,
        f"Challenge from {ladder.index(challenger) + 1} to {ladder.index(defender) + 1}",
        False,
    )


def rungs(state: EventState) -> list[Player]:
    """The ladder (top first) of the players still on it: a withdrawn player leaves his rung, and those below him
    move up one."""
    return [p for p in state.ladder if p not in state.withdrawn]


def _last_opponents(state: EventState) -> dict[Player, Player]:
    last: dict[Player, Player] = {}
    for key, pairing in state.pairings.items():
        if key in state.results and pairing.b is not None:
            last[pairing.a] = pairing.b
            last[pairing.b] = pairing.a
    return last


def active_players(state: EventState) -> Iterable[Player]:
    """Players not withdrawn, in seed order."""
    return (p for p in state.seeds if p not in state.withdrawn)
