"""Rule sets: which optional rules a game or match is played under (RULES "Rule sets", G3, D3–D5, M2–M4, M6).

A rule set is data, not code paths (python-chess's ``variant.py`` is the model): a frozen :class:`RuleSet` built from
a named preset plus overrides, stored with every game as plain JSON and shown on request. Every point where the rule
texts (the sources named in ``docs/rules.md``) or clubs disagree, and every point marked ``"unsure"`` in
``tests/cases``, is a field here; the default is the reading the cases name as default, and each field's docstring
line says which text supports which setting.

Fields
------
``name``
    The preset the set was built from (``"custom"`` if none), shown to players.
``jacoby`` (RULES D4; 003 Atlanta 4.1)
    Money play only: gammons and backgammons count single while the cube has not been turned.
``jacoby_counts_automatic_doubles_as_turned`` (RULES D4 with G3; cases SC08, BG20 — unsure)
    ``False`` (default): the cube is "turned" only by a double offered and accepted (003 Atlanta 1.5 "turned and
    accepted, regardless of the value of the centered cube", 4.1; gnubg manual "if neither player has offered a
    double"). ``True``: a cube raised by an automatic double also counts as turned (003 Atlanta 5.1 calls the automatic
    double "cube turned"; the wording of RULES D4; Jacoby and Crawford's own preference).
``jacoby_on_resignations`` (RULES D4 with G12; case SC07 — unsure)
    ``True`` (default): a conceded gammon or backgammon counts single too while Jacoby applies (the text of 003 Atlanta
    4.1 counts "gammons and backgammons", however they arise). ``False``: resignations are scored at face value, as
    GNU Backgammon 1.07 does.
``beavers`` / ``raccoons`` (RULES D3; 003 Atlanta 5.3–5.4)
    Money play only. A beaver is a take with an immediate redouble, the taker keeping the cube; a raccoon is the
    doubler's answer, turning the cube once more without changing possession.
``raccoon_droppable`` (RULES D3; cases SC06, BG19 — unsure)
    ``True`` (default): a raccoon may be dropped like any double, costing the value before it (RULES D2, 000 §20 "the
    player refusing loses whatever his count may amount to"; GNU Backgammon; the rec.games.backgammon FAQ).
    ``False``: Atlanta 5.4 lists a drop only for the beaver, so a club may treat the raccoon as compulsory.
``further_immediate_redoubles`` (RULES D3; case SC06 "B_beaver_back_to_16")
    ``False`` (default): after a raccoon the beaverer may only take or drop (003 Atlanta 5.4: "Raccoons and other
    further immediate redoubles are allowed only with consent of both players"). ``True``: the players consent to
    more: the beaverer may beaver the raccoon, the doubler may raccoon again, and so on (ownership never changes).
``automatic_doubles`` / ``automatic_doubles_kind`` (RULES G3; 000 §20a/b, 001 §15, 003 Atlanta 5.1, 004)
    How many opening ties raise the count (0 = none; 001 §15: "limited to one, two or three doubles"), and how:
    ``"double"`` the previous count (000 §20a, 001 §15) or ``"add"`` one to it (000 §20b). Never in match play.
``cube_cap`` (RULES D5; 001 §18, 002)
    ``None`` (default, no limit) or the highest value the cube may reach.
``variant`` (RULES G1)
    ``"backgammon"`` (default): the set-up of 000 §2. ``"nackgammon"``: Nick Ballard's set-up, one checker each from
    the 13- and 6-points moved back to the 23-point (GNU Backgammon's ``Variation "Nackgammon"``); everything else
    is the same game.
``crawford`` (RULES M3; 003 5.5)
    Matches: the game after a player first reaches N−1 points is played without the cube.
``dead_cube`` / ``dead_cube_rule`` (RULES M4; 003 5.6; cases SC16, SC17, BG18 — unsure)
    Matches: once the cube already decides the match it may not be turned. ``"doubler_already_wins"`` (default):
    dead when the cube value is at least the points needed by the player who would double — the USBGF ruling guide
    §4.4.9 ("A player is prohibited from offering the cube when its current value is sufficient to guarantee that
    they will win the match simply by winning the game") and GNU Backgammon (``play.c``: "The cube is dead").
    ``"match_ends"``: dead only when the cube value is at least the points needed by **both** players, i.e. the match
    must end with this game (003 5.6 as literally written; lets the leader make a pointless double).
    ``dead_cube=False`` allows every redouble (servers that allow meaningless dead-cube doubles).
``point_game`` (RULES M6; 000 §21)
    Money play only: the winner scores 1/2/3/4 points per checker the loser has left, by where it stands, instead of
    1/2/3 for a single/gammon/backgammon.
``point_game_counts_cube`` (RULES M6 with D6; case SC14 — unsure)
    ``True`` (default): the Point Game count is multiplied by the cube (RULES D6 with the result multiplier replaced
    by the count). ``False``: the count only, the cube ignored.
``cap_match_score`` (RULES M1; case SC19 — unsure)
    ``True`` (default): the official match score stops at the match length (003 4.9 "the first player to reach the
    posted match length is the winner"; gnubg accepts only such Match IDs); the raw total is kept alongside.
    ``False``: the running score is raw, as GNU Backgammon 1.07 and some sites write it (5-point match won 7–1).
``joined_move_routes`` (RULES G4/G10 notation; case BG13 — unsure)
    How a joined move such as ``24/13`` is read when its routes end differently (one hits a blot on the way):
    ``"reject"`` (default): refused as ambiguous, the candidates listed (never silently pick the hitting play);
    ``"no_hit"``: GNU Backgammon's reading, the route that hits fewest blots.
``bear_off_high_die_first`` (RULES G8; 001 §12 — disputed)
    ``False`` (default, 000, 002, 004 and every modern text): bear off with the dice in either order.
    ``True``: the 1931 law "In bearing off, the highest number of the throw must be played first".
``forfeit_valuation`` (RULES A2, M5 — a club's choice; no seed text values a forfeited game)
    What a game forfeited at a time limit costs the forfeiting side, at the current cube (the Jacoby rule, D4,
    applying): ``"board"`` (default) per RULES G11 on the board as it stands (gammon if he has borne off none,
    backgammon if he also has a checker on the bar or in the winner's home board), so a player facing a gammon gains
    nothing by letting his clock run out; ``"single"`` a single game (Backgammon Galaxy's "Losses 1 point");
    ``"worst"`` the worst result still possible for him (:meth:`~backgammon.game.Game.max_resignation`: a gammon
    while he has borne off none, a backgammon while one is still possible), so that running out the clock is never
    better than playing on — the reading of the forfeit as a resignation at the most the board can still take.
    The older boolean ``forfeit_scores_board`` (``True`` = ``"board"``, ``False`` = ``"single"``) is still read from
    stored rule sets and accepted by :meth:`RuleSet.preset`; it stays readable as a property.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from .errors import RuleSetError


class AutomaticKind(StrEnum):
    """How an opening tie raises the count (RULES G3): the cube doubles (000 §20a) or one is added (000 §20b)."""

    DOUBLE = "double"
    ADD = "add"


class DeadCubeRule(StrEnum):
    """When the cube is dead (RULES M4): once a double would end the match (003 5.6), or once the doubler already
    wins the match with the cube as it is (gnubg)."""

    MATCH_ENDS = "match_ends"
    DOUBLER_ALREADY_WINS = "doubler_already_wins"


class JoinedMoveRoutes(StrEnum):
    """An ambiguous joined move (``13/8`` that may hit on the way or not): refused, or read without the hit."""

    REJECT = "reject"
    NO_HIT = "no_hit"


class ForfeitValuation(StrEnum):
    """What a forfeited game scores (RULES A2, M5; module docstring)."""

    BOARD = "board"
    SINGLE = "single"
    WORST = "worst"


class Variant(StrEnum):
    """The starting position (RULES G1)."""

    BACKGAMMON = "backgammon"
    NACKGAMMON = "nackgammon"


AUTOMATIC_KINDS = tuple(AutomaticKind)
DEAD_CUBE_RULES = tuple(DeadCubeRule)
JOINED_MOVE_ROUTES = tuple(JoinedMoveRoutes)
FORFEIT_VALUATIONS = tuple(ForfeitValuation)
VARIANTS = tuple(Variant)
_CHOICES: dict[str, type[StrEnum]] = {
    "automatic_doubles_kind": AutomaticKind,
    "dead_cube_rule": DeadCubeRule,
    "joined_move_routes": JoinedMoveRoutes,
    "forfeit_valuation": ForfeitValuation,
    "variant": Variant,
}
"""The fields that hold one of a few words, and their enums (a rule set holds the members; stored as the words)."""
_LEGACY = "forfeit_scores_board"  # the older boolean of forfeit_valuation, still read (module docstring)


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Map the older ``forfeit_scores_board`` boolean onto ``forfeit_valuation`` (True → "board", False →
    "single"); raises :class:`RuleSetError` for a non-boolean or a contradiction with ``forfeit_valuation``."""
    if _LEGACY not in data:
        return data
    data = dict(data)
    legacy = data.pop(_LEGACY)
    if not isinstance(legacy, bool):
        raise RuleSetError(f"{_LEGACY} is true or false, not {legacy!r}")
    valuation = ForfeitValuation.BOARD if legacy else ForfeitValuation.SINGLE
    if (
        data.setdefault("forfeit_valuation", valuation) != valuation
        and data["forfeit_valuation"] != ForfeitValuation.WORST
    ):
        raise RuleSetError(f"{_LEGACY}={legacy} contradicts forfeit_valuation={data['forfeit_valuation']!r}")
    return data


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The optional rules of one game or match; see the module docstring for every field and its sources.

    Build one with :meth:`preset` (named presets plus overrides) or :meth:`from_json`; the constructor checks types
    and values and raises :class:`RuleSetError` for anything out of range (e.g. an unknown automatic-doubles kind).
    """

    name: str = "custom"
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    automatic_doubles_kind: AutomaticKind = AutomaticKind.DOUBLE
    cube_cap: int | None = None
    crawford: bool = True
    dead_cube: bool = True
    point_game: bool = False
    # -- the "unsure" points of the cases, each an option (defaults = the cases' defaults) --------------------------
    jacoby_counts_automatic_doubles_as_turned: bool = False
    jacoby_on_resignations: bool = True
    raccoon_droppable: bool = True
    further_immediate_redoubles: bool = False
    dead_cube_rule: DeadCubeRule = DeadCubeRule.DOUBLER_ALREADY_WINS
    point_game_counts_cube: bool = True
    cap_match_score: bool = True
    joined_move_routes: JoinedMoveRoutes = JoinedMoveRoutes.REJECT
    bear_off_high_die_first: bool = False
    forfeit_valuation: ForfeitValuation = ForfeitValuation.BOARD
    variant: Variant = Variant.BACKGAMMON

    def __post_init__(self) -> None:
        for spec in fields(self):
            value = getattr(self, spec.name)
            if spec.name == "name":
                if not isinstance(value, str) or not value:
                    raise RuleSetError(f"a rule set's name is a non-empty string, not {value!r}")
            elif spec.name in _CHOICES:
                if not isinstance(value, str):
                    raise RuleSetError(f"{spec.name} is a string, not {value!r}")
            elif spec.name == "automatic_doubles":
                if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 15:
                    raise RuleSetError(
                        f"automatic_doubles is the number of opening ties that raise the count, 0 (none) to 15; "
                        f"got {value!r} (RULES G3)"
                    )
            elif spec.name == "cube_cap":
                if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1
                                          or value & (value - 1)):  # fmt: skip
                    raise RuleSetError(
                        f"cube_cap is None (no limit) or a cube value (1, 2, 4, 8 …); got {value!r} (RULES D5)"
                    )
            elif not isinstance(value, bool):
                raise RuleSetError(f"{spec.name} is true or false, not {value!r}")
        if self.automatic_doubles_kind not in AUTOMATIC_KINDS:
            raise RuleSetError(
                f"automatic_doubles_kind is 'double' (000 §20a) or 'add' (000 §20b), not {self.automatic_doubles_kind!r}"
            )
        if self.joined_move_routes not in JOINED_MOVE_ROUTES:
            raise RuleSetError(
                f"joined_move_routes is 'reject' (ambiguous joined moves refused) or 'no_hit' (gnubg's reading), "
                f"not {self.joined_move_routes!r}"
            )
        if self.forfeit_valuation not in FORFEIT_VALUATIONS:
            raise RuleSetError(
                "forfeit_valuation is 'board' (RULES G11 on the board as it stands), 'single' (a single game) or "
                f"'worst' (the worst result still possible), not {self.forfeit_valuation!r}"
            )
        if self.variant not in VARIANTS:
            raise RuleSetError(f"variant is 'backgammon' or 'nackgammon' (RULES G1), not {self.variant!r}")
        if self.dead_cube_rule not in DEAD_CUBE_RULES:
            raise RuleSetError(
                f"dead_cube_rule is 'match_ends' (003 5.6) or 'doubler_already_wins' (gnubg), not {self.dead_cube_rule!r}"
            )
        for name, choice in _CHOICES.items():  # the words, checked above, as their enum members
            object.__setattr__(self, name, choice(getattr(self, name)))

    @property
    def forfeit_scores_board(self) -> bool:
        """The older boolean of :attr:`forfeit_valuation`: True unless a forfeit counts single (module docstring)."""
        return self.forfeit_valuation != ForfeitValuation.SINGLE

    # -- construction -------------------------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, /, **overrides: Any) -> RuleSet:
        """The named preset with ``overrides`` applied (field name → value; ``name=`` renames the result).

        Presets (see :data:`PRESETS`): ``"tournament"`` (003 match rules: Crawford, dead cube, no automatic doubles,
        no beavers, no Jacoby), ``"money"`` (Jacoby, beavers, automatic doubles limited to one), ``"classic-1931"``
        (001: automatic doubles on every tie, practically unlimited; no Jacoby, beavers or Crawford),
        ``"chouette-classic"`` (000/001 chouette: nothing optional) and ``"chouette-atlanta"`` (003 Atlanta: Jacoby
        4.1, beavers 5.3, no raccoons without consent 5.4, no automatic doubles by default 5.1).
        Raises :class:`RuleSetError` for an unknown preset or field, or a bad value.
        """
        if name not in PRESETS:
            raise RuleSetError(f"unknown rule set {name!r}; the presets are: {', '.join(PRESETS)}")
        overrides = _upgrade(overrides)
        unknown = set(overrides) - {spec.name for spec in fields(cls)}
        if unknown:
            raise RuleSetError(
                f"unknown rule-set option(s) {', '.join(sorted(unknown))}; options are: "
                f"{', '.join(spec.name for spec in fields(cls) if spec.name != 'name')}"
            )
        return replace(PRESETS[name], **overrides)

    def to_json(self) -> dict[str, Any]:
        """Every field as a JSON-friendly dict (field name → value), in declaration order. Every field is a plain
        value (bool, int, str, None): :func:`dataclasses.asdict` without its deep copy (this runs for every stored
        action)."""
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleSet:
        """Inverse of :meth:`to_json`. Missing fields take the defaults; unknown fields or bad values raise
        :class:`RuleSetError`."""
        if not isinstance(data, dict):
            raise RuleSetError(f"a rule set is a JSON object of options, not {type(data).__name__}")
        data = _upgrade(data)
        known = {spec.name for spec in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RuleSetError(f"unknown rule-set option(s) {', '.join(sorted(unknown))}")
        return cls(**data)

    # -- checks -------------------------------------------------------------------------------------------------
    def validate_for(self, match_length: int) -> None:
        """Check the set suits a money session (``match_length`` 0) or a match to ``match_length`` points.

        Raises :class:`RuleSetError` for a negative length, and in match play for automatic doubles (RULES G3, 004
        "In tournament play, there is no such thing as an automatic double"), the Jacoby rule (RULES D4, M2: gammons
        always count in matches, 003 5.3), beavers or raccoons (RULES D3 are money rules; gnubg: "Beavers and
        Raccoons are not permitted during match play") and the Point Game (RULES M6 is a money scoring).
        """
        if not isinstance(match_length, int) or isinstance(match_length, bool) or match_length < 0:
            raise RuleSetError(f"match length is 0 (money play) or a number of points ≥ 1, not {match_length!r}")
        if match_length == 0:
            return
        problems = []
        if self.automatic_doubles:
            problems.append("automatic doubles (RULES G3: never in match play)")
        if self.jacoby:
            problems.append("the Jacoby rule (RULES M2: gammons always count in matches)")
        if self.beavers or self.raccoons:
            problems.append("beavers/raccoons (RULES D3: money play only)")
        if self.point_game:
            problems.append("the Point Game (RULES M6: a money scoring)")
        if problems:
            raise RuleSetError(
                f"rule set {self.name!r} cannot be used for a {match_length}-point match: it has "
                f"{'; '.join(problems)}. Use the 'tournament' preset or switch these options off."
            )

    def describe(self) -> str:
        """A one-line human summary of the options that differ from plain rules, e.g. for ``/rules``."""
        parts = [self.name]
        if self.variant != Variant.BACKGAMMON:
            parts.append(self.variant.capitalize())
        if self.jacoby:
            parts.append("Jacoby")
        if self.beavers:
            parts.append("beavers" + (" and raccoons" if self.raccoons else ""))
        if self.automatic_doubles:
            how = "doubling" if self.automatic_doubles_kind == AutomaticKind.DOUBLE else "adding one"
            parts.append(f"automatic doubles ({how}, limit {self.automatic_doubles})")
        if self.cube_cap is not None:
            parts.append(f"cube limit {self.cube_cap}")
        if self.point_game:
            parts.append("Point Game")
        return ", ".join(parts)


_FIELD_NAMES = tuple(spec.name for spec in fields(RuleSet))

PRESETS: dict[str, RuleSet] = {
    "tournament": RuleSet(name="tournament", forfeit_valuation=ForfeitValuation.SINGLE),
    "money": RuleSet(
        name="money", jacoby=True, beavers=True, automatic_doubles=1, forfeit_valuation=ForfeitValuation.SINGLE
    ),
    "classic-1931": RuleSet(
        name="classic-1931", automatic_doubles=15, crawford=False, dead_cube=False, bear_off_high_die_first=True
    ),
    "chouette-classic": RuleSet(name="chouette-classic", crawford=False, dead_cube=False),
    "chouette-atlanta": RuleSet(name="chouette-atlanta", jacoby=True, beavers=True, crawford=False, dead_cube=False),
}
"""The named presets (RULES "Rule sets"). ``classic-1931`` sets 15 automatic raises, the most a cube can carry
(2^15), for 001 §15 "otherwise it stands" (no agreed limit).

Forfeit valuation per preset (``forfeit_valuation``; no seed text values a forfeited game, so each is the club's
choice, RULES A2/M5): ``tournament`` and ``money`` use ``"single"`` (Backgammon Galaxy's "Losses 1 point") — a claim
of the game at a lapsed deadline is then a single game at the cube, not the backgammon an early board stands at,
which in a short match is the same as claiming the match; ``classic-1931``, ``chouette-classic`` and
``chouette-atlanta`` use ``"board"`` (003 Atlanta 4.9 settles a chouette game on the result, and a late member's game
is his result). A club that wants timing out never to save a gammon sets ``"board"`` (the rule option
``{ forfeit_valuation = "board" }``); one that wants the forfeiting side to pay the most the board could still cost him
sets ``"worst"``. The replay of a Galaxy file uses ``"single"``."""
