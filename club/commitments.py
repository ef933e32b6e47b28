"""Dice the bot cannot choose (:data:`club.dice.RECIPE_V3`; older series :data:`~club.dice.RECIPE_V2`): the
commitments published ahead of each series, the members' luck fixed after them and the beacon rounds, as one table
keeps them between actions.

A :class:`DiceBook` is the part of a table's hot state (``matches.state["dice"]``, ``chouette_sessions.state["dice"]``;
the table itself never reads it, :func:`club.states.canonical` leaves it out) that says

- ``ahead``: the next series' server seed, already committed to in public (its SHA-256 was in the challenge, a
  chouette's ``open``, or the ``new_game`` / ``start_game`` action of the game before) and still secret;
- ``current``: the number of the series being rolled with client seeds, and its ``recipe`` (None: an older series,
  rolled with :data:`~club.dice.RECIPE`, the log says so too); ``standing``: a chouette's seat throws (series 0,
  rolled all session long) with their own recipe, commitment time and beacon round;
- ``clients``: the client seeds (luck) fixed so far for the current and the next series, ``(series, who,
  from_roll, text)`` in the order they were fixed (``who``: a match's side 0/1, a chouette's member id);
- ``beacon``: the round the current series waits for or was rolled with (:mod:`club.beacon`).

Everything in it is also in the append-only log except the secret seed ahead: the commitments are in the
``challenge`` / ``open`` / ``new_game`` / ``start_game`` args (``next_seed_hash``), every client seed is a
``client_seed`` action (v3: ``{"game", "from_roll": 0, "seed", "set_at", "protected"}``, :func:`luck_for`), every
round named in the action that starts its series and logged as a ``beacon`` action once verified, so
:func:`logged_contributions` and :func:`luck_of` rebuild a finished series' client seeds from the log alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .beacon import Beacon, Round
from .dice import MAX_CONTRIBUTION, RECIPE, RECIPE_V2, Contribution, new_contribution, seed_hash
from .errors import InvalidRequestError, shown

CLIENT_SEED = "client_seed"
"""The logged action kind of a contribution."""

BEACON = "beacon"
"""The logged action kind of a game's beacon round (:mod:`club.beacon`), fetched and verified before its first
roll: ``{"game", "chain", "round", "signature", "randomness", "start_ms"}``."""

UNUSED_SEED = "unused_seed"
"""The logged action kind that reveals the seed committed ahead when the table ends before that series starts:
``{"game", "seed", "seed_hash"}`` (every commitment published is revealed, whatever the ending)."""


@dataclass
class Ahead:
    """A committed series not started yet: its ``number``, secret ``seed`` and public ``seed_hash``."""

    number: int
    seed: bytes
    seed_hash: str
    at: float = 0.0
    """When its commitment was published (Unix seconds; 0: not known, a book stored before it was kept)."""

    @classmethod
    def draw(cls, number: int, seeds: Callable[[], bytes], at: float = 0.0) -> Ahead:
        """A fresh seed for series ``number`` from ``seeds`` (:func:`club.dice.new_seed`) and its commitment,
        published at ``at``."""
        seed = seeds()
        return cls(number, seed, seed_hash(seed), at)


@dataclass
class DiceBook:
    """The commitments ahead and the client seeds of a table (module docstring)."""

    ahead: Ahead | None = None
    current: int | None = None
    clients: list[tuple[int, int, int, str]] = field(default_factory=list)
    standing: list[int] = field(default_factory=list)
    """Series rolled besides ``current``: a chouette's seating series 0."""
    recipe: str = RECIPE_V2
    """The recipe of ``current`` (:data:`~club.dice.RECIPE_V3` for every series started now)."""
    beacon: dict[str, Any] | None = None
    """The beacon round of ``current`` (``[dice] beacon``): ``{"chain", "round", "start_ms"}`` once due, with
    ``"randomness"`` once fetched and verified (:mod:`club.beacon`)."""
    standing_recipe: str = RECIPE_V2
    """The recipe of the ``standing`` series (:data:`~club.dice.RECIPE_V3` for a chouette opened now)."""
    standing_at: float = 0.0
    """When the ``standing`` series' commitment was published (Unix seconds; 0: not known)."""
    standing_beacon: dict[str, Any] | None = None
    """The beacon round of the ``standing`` series (a chouette's seat throws), as :attr:`beacon` is the current
    series': named when the seat roll is called, with ``"randomness"`` once fetched and verified."""

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> DiceBook:
        """The book stored as :meth:`to_json` (None or ``{}``: an empty book, e.g. a match stored with v1 dice)."""
        data = data or {}
        ahead = data.get("ahead")
        return cls(
            None if ahead is None else Ahead(ahead["number"], bytes.fromhex(ahead["seed"]), ahead["seed_hash"],
                                             ahead.get("at", 0.0)),
            data.get("current"),
            [tuple(item) for item in data.get("clients", [])],
            list(data.get("standing", [])),
            data.get("recipe", RECIPE_V2),
            data.get("beacon"),
            data.get("standing_recipe", RECIPE_V2),
            data.get("standing_at", 0.0),
            data.get("standing_beacon"),
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The book as JSON (the seed ahead as hex: it is stored, 0600, never logged)."""
        ahead = self.ahead
        return {
            "ahead": None if ahead is None else {"number": ahead.number, "seed": ahead.seed.hex(),
                                                  "seed_hash": ahead.seed_hash, "at": ahead.at},
            "current": self.current,
            "recipe": self.recipe,
            **({"beacon": self.beacon} if self.beacon else {}),
            "clients": [list(item) for item in self.clients],
            **({"standing": self.standing, "standing_recipe": self.standing_recipe, "standing_at": self.standing_at,
                "standing_beacon": self.standing_beacon} if self.standing else {}),
        }  # fmt: skip

    def v2(self, number: int) -> bool:
        """Whether series ``number`` is rolled with client seeds (:data:`~club.dice.RECIPE_V2` or later) by this
        book."""
        return number == self.current or number in self.standing

    def recipe_of(self, number: int) -> tuple[str, list[Contribution]]:
        """``(recipe, client seeds)`` of series ``number``: v2 or v3 with its client seeds, or v1 with none (a
        series started under the v1 recipe)."""
        if not self.v2(number):
            return RECIPE, []
        return (self.recipe if number == self.current else self.standing_recipe), self.contributions(number)

    def randomness(self, number: int) -> str | None:
        """The verified beacon randomness series ``number`` is rolled with (None: none, or not fetched yet)."""
        if number in self.standing and number != self.current:
            return (self.standing_beacon or {}).get("randomness")
        return (self.beacon or {}).get("randomness") if number == self.current else None

    def name_round(self, beacon: Beacon, start_ms: int, *, standing: bool = False) -> dict[str, Any]:
        """The current series (``standing``: the standing one, a chouette's seat throws) waits for the round of
        ``beacon`` (a :class:`~club.beacon.Beacon`) due for a game started at ``start_ms`` (Unix ms): kept in the
        book, fetched before its first roll. Returns the ``{"chain", "round", "start_ms"}`` its starting action
        names."""
        named = {"chain": beacon.chain.name, "round": beacon.due(start_ms), "start_ms": start_ms}
        if standing:
            self.standing_beacon = named
        else:
            self.beacon = named
        return dict(named)

    def beacon_due(self, *, standing: bool = False) -> int | None:
        """The beacon round the current series (``standing``: the standing one) waits for before its first roll,
        or None (no beacon, or fetched)."""
        named = self.standing_beacon if standing else self.beacon
        return None if named is None or "randomness" in named else named["round"]

    def use_round(self, found: Round, number: int) -> dict[str, Any]:
        """The verified round ``found`` is in: the ``beacon`` action's args for series ``number`` (the current one,
        or a standing one); the book keeps its randomness. Raises ValueError if that series names no round
        (:meth:`name_round` comes first)."""
        standing = number in self.standing and number != self.current
        named = self.standing_beacon if standing else self.beacon
        if named is None:
            raise ValueError(f"series {number} names no beacon round")
        args = {"game": number, **named, "signature": found.signature, "randomness": found.randomness}
        kept = {key: args[key] for key in ("chain", "round", "start_ms", "randomness")}
        if standing:
            self.standing_beacon = kept
        else:
            self.beacon = kept
        return args

    def contributions(self, number: int) -> list[Contribution]:
        """The client seeds of series ``number`` in their published order: ``[(from_roll, text), …]``."""
        return [(start, text) for series, _who, start, text in self.clients if series == number]

    def lucky(self, number: int) -> list[int]:
        """Who has added luck (a client seed) to series ``number``, each once, in the order of his first: what the
        board shows — the names, never the values (a match's sides, a chouette's member ids)."""
        return list(dict.fromkeys(who for series, who, _, _ in self.clients if series == number))

    def has(self, number: int, who: int) -> bool:
        """Whether ``who`` has contributed to series ``number``."""
        return any(series == number and each == who for series, each, _, _ in self.clients)

    def start(
        self,
        number: int,
        seeds: Callable[[], bytes],
        keep: tuple[int, ...] = (),
        *,
        last: bool = False,
        now: float = 0.0,
        recipe: str = RECIPE_V2,
    ) -> tuple[bytes, str, str | None]:
        """Series ``number`` starts: its seed is the one committed ahead (or, for a table stored with no book,
        a fresh one committed now); the next series' seed is drawn and committed — unless this is certainly the
        ``last`` series (a 1-point match's only game: there is no next game to commit to). Returns ``(seed, its
        commitment, the next one's commitment or None)``; client seeds of older series (but those in ``keep``: a
        chouette's seating series 0) are dropped (they are in the log). ``now``: the time the next commitment is
        published; ``recipe``: the one series ``number`` is rolled with."""
        ahead = self.ahead if self.ahead is not None and self.ahead.number == number else Ahead.draw(number, seeds)
        self.ahead = None if last else Ahead.draw(number + 1, seeds, now)
        self.current = number
        self.recipe = recipe
        self.beacon = None
        self.clients = [item for item in self.clients if item[0] >= number or item[0] in keep]
        return ahead.seed, ahead.seed_hash, None if self.ahead is None else self.ahead.seed_hash


def luck_for(number: int, committed: float, text: str, set_at: float) -> dict[str, Any]:
    """The ``client_seed`` args of a member's luck ``text`` (:data:`~club.dice.RECIPE_V3`, step 7) for series
    ``number``, whose commitment was published at ``committed`` (Unix s; 0: not known). ``set_at``: when he set the
    text (typed it now, or set his standing phrase); it is protection only if the commitment was published before."""
    protected = set_at > committed > 0
    return {"game": number, "from_roll": 0, "seed": text, "set_at": set_at, "protected": protected}


def check_luck(text: Any) -> str:
    """A member's typed luck, stripped: 1–100 printable characters. Raises :class:`InvalidRequestError` saying
    so."""
    text = text.strip() if isinstance(text, str) else text
    if not isinstance(text, str) or not 1 <= len(text) <= 100 or not text.isprintable():
        raise InvalidRequestError(f"your luck is 1 to 100 printable characters, not {shown(text)}")
    return text


def luck_args(book: DiceBook, text: str, set_at: float) -> dict[str, Any] | None:
    """:func:`luck_for` the series committed ahead, or None when no series waits for its first roll."""
    ahead = book.ahead
    return None if ahead is None else luck_for(ahead.number, ahead.at, text, set_at)


def committed_at(actions: Iterable[Any], commitment: str | None) -> float:
    """When ``commitment`` was published: the time of the first action carrying it (``seed_hash`` or
    ``next_seed_hash``), 0.0 when none does."""
    return next((a.at for a in actions if commitment and commitment in (a.args.get("seed_hash"),
                                                                        a.args.get("next_seed_hash"))), 0.0)  # fmt: skip


def luck_problems(actions: Sequence[Any], number: int, commitment: str | None) -> list[str]:
    """The false claims among the luck of series ``number`` (commitment ``commitment``) in ``actions``: luck shown
    as protection but set before the commitment was published (the bot could have chosen its seed against it)."""
    committed = committed_at(actions, commitment)
    return [f"the luck of {who} is shown as protection but was set before the commitment"
            for who, at, protected, _ in luck_of(actions, number) if protected and not at > committed > 0]  # fmt: skip


def luck_of(actions: Iterable[Any], number: int) -> list[tuple[int | None, float, bool, str]]:
    """The luck of series ``number`` as the log records it: ``(who, set_at, protected, text)`` in log order (who: a
    match's side, a chouette's member id)."""
    return [
        (getattr(action, "side", None) if getattr(action, "side", None) is not None else action.member_id,
         action.args.get("set_at", action.at),
         bool(action.args.get("protected")), action.args["seed"])
        for action in actions
        if action.kind == CLIENT_SEED and action.args.get("game") == number
    ]  # fmt: skip


def luck_line(game: int | None, names: Iterable[str], seat: bool = False) -> str:
    """The board's line naming who has added his luck to the next dice (never the values): ``"Luck in game 2's
    dice: Ann, Bob."`` (``seat``: a chouette's lobby, where it goes into the seat roll and game 1); ``""`` when there
    is no such game or nobody yet."""
    names = list(names)
    if game is None or not names:
        return ""
    what = "the seat roll's and game 1's dice" if seat else f"game {game}'s dice"
    return f"Luck in {what}: {', '.join(names)}."


def unused_args(book: DiceBook) -> dict[str, Any] | None:
    """The table ends: the ``unused_seed`` args revealing the seed committed ahead (None when there is none); the
    book forgets it."""
    ahead, book.ahead = book.ahead, None
    return None if ahead is None else {"game": ahead.number, "seed": ahead.seed.hex(), "seed_hash": ahead.seed_hash}


def unused_series(actions: Iterable[Any]) -> dict[int, tuple[str, str]]:
    """The series revealed unused in a log: ``{number: (commitment, seed hex)}``."""
    return {a.args["game"]: (a.args["seed_hash"], a.args["seed"]) for a in actions if a.kind == UNUSED_SEED}


def contribution_text(
    phrase: str | None, value: str | None = None, fallback: Callable[[], str] = new_contribution
) -> str:
    """What a member's action contributes: the unpredictable ``value`` of his request (the front end's,
    :attr:`club.requests.Request.contribution`; None: ``fallback()``, a fresh :mod:`secrets` value), after his
    ``phrase`` (``/player seed``) and ``" | "`` when he set one. The value is always in: a phrase alone, set before the
    commitment, would be known to the bot when it chose the seed (a client seed is "fixed after the commitment")."""
    value = (value or fallback())[:40]
    return (f"{phrase} | {value}" if phrase else value)[:MAX_CONTRIBUTION]


def due(book: DiceBook, who: int, playing: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ``(series, from_roll)`` ``who`` contributes to at his action now: each series being rolled with v2
    (``playing``: ``(number, next roll counter)`` pairs) and the committed series ahead — each only if he has not
    contributed to it yet (a client seed is fixed at the first own action after the commitment, and
    counts from the next roll)."""
    out = [(number, rolls) for number, rolls in playing if not book.has(number, who)]
    if book.ahead is not None and not book.has(book.ahead.number, who) and all(n != book.ahead.number for n, _ in out):
        out.append((book.ahead.number, 0))
    return out


def logged_contributions(actions: Iterable[Any], number: int) -> list[Contribution]:
    """The client seeds of game/series ``number`` as the log records them (``client_seed`` actions, log order)."""
    return [
        (action.args["from_roll"], action.args["seed"])
        for action in actions
        if action.kind == CLIENT_SEED and action.args.get("game") == number
    ]


def phrase_text(phrase: str) -> str:
    """The answer to ``/player seed`` (console ``seed``): what his dice phrase is now and what it does."""
    if not phrase:
        return ("Your dice phrase is cleared: your luck in a game is now only what you type with its Add your luck "
                "button before its first roll.")  # fmt: skip
    return (f"Your dice phrase is now “{phrase}”. It becomes your luck in each next game at your first action after "
            "its commitment is shown; it protects you in the games whose commitment was shown before you set it "
            "(the bot could not choose their seeds against it). /bg verify lists it once the game is over.")  # fmt: skip
