"""Chouette rule sets: which family and which optional chouette rules a session is played under (RULES C1–C11).

A :class:`ChouetteRules` is data, like :class:`~backgammon.rules.RuleSet` (which it embeds as ``game`` for everything
the board and the cubes share with 1-on-1 money play: Jacoby D4, beavers/raccoons D3, automatic doubles G3, the cube
limit D5 and the "unsure" cube options). Build one from a preset plus overrides; the overrides may name fields of
either class (``ChouetteRules.preset("chouette-atlanta", jacoby=False, extras="5.7a")``).

Families (``family``)
---------------------
``"classic"`` (000 Chouette, 001 Chouette): one cube for the whole Team (RULES C4); only the Captain doubles for the
Team; any partner may refuse a double and forfeit his count; Box keeps the box until defeated (RULES C8 classic).
``"atlanta"`` (003 Atlanta Rules of Play for Chouettes): a cube per Team member (1.4, RULES C5); Box doubles
selectively (5.6); every member may double at the Captain's turn (5.9); rotation 6.1–6.3 with Acting Captains.

Fields
------
``seating_dice`` (RULES C1)
    1: each member throws one die (000 Ch.2, 001 Ch.1); 2: two dice, the total counts, doubles not extra (003 1.3, 6.4).
``min_members`` / ``max_members`` (RULES C2)
    At least three (000 Ch.1); a club cap, ``None`` for none (001 "five players are the limit for comfort"; 003 6.4).
``stakes`` (RULES C6; 003 Atlanta 2.2)
    Members may play for a multiple (2, 4, …) of the base stake: their cube starts at that value. Off in the classic
    texts (001 Ch.4: "each of the partners and the Active Player plays for a single stake").
``box_partner`` / ``box_partner_min_members`` (RULES C7; 003 Atlanta 1.2, 1.3, 4.2, 6.3, 6.4)
    Box takes a Partner (the last of the Team, not a member who has not played yet) when the chouette has at least
    that many members ("customary when the Team is large, often restricted to chouettes with 6 or more").
``partners_may_refuse_team_double`` (RULES C4; classic only — an unsure point)
    ``True``: 000 Ch.8 "A double offered by **either** player may be refused by any partner": a partner may refuse the
    Captain's double too, forfeiting his count before it. ``False``: only Box's doubles (001 Ch.9 "a proffered double").
``captain_takes_over_refusers`` (RULES C4; 001 Ch.9; case CH04)
    1931: the Active Player (Captain) "must assume that partner's responsibility and take over his position whether
    for profit or loss" at the doubled value. 000 has no such rule.
``refuser_forfeit_to`` (RULES C4; case CH04 — unsure)
    ``"box"`` (default): a refuser forfeits his count to Box (000 Ch.8; 001 Ch.10 for the Active Player). ``"captain"``:
    with the 1931 take-over, to the Captain who takes over his position (001 Ch.4 "a total to match").
``half_rule`` / ``rule_5_10a`` (RULES C5; 003 Atlanta 5.10, 5.10a, 5.11)
    When every Team cube is turned from the centre at once Box must drop all or accept at least half (a beaver counts
    as accepting); with 5.10a in a three-handed chouette both or none.
``extras`` (RULES C5; 003 Atlanta 5.7, 5.7a–c)
    ``"off"``; ``"5.7"``: when Box doubles every cube from the centre and a lone player takes, each dropper may offer
    him an extra (the dropper pays him the undoubled value and he holds the dropper's cube at double the value); the
    taker must take them all or change his take to a drop. ``"5.7a"``: he keeps his take but may drop any extra, losing
    a net point to its giver. ``"5.7b"`` (three-handed): as 5.7. ``"5.7c"`` (three-handed): extras must be taken, no
    change of decision. 5.7b/5.7c apply to three-handed chouettes; larger ones play 5.7.
``break_even_rule`` (RULES C8; 003 Atlanta 6.1)
    Box who beats the Captain but loses points over the game (or settles with him for zero) loses the box anyway.
``settlements`` (RULES C10; 003 Atlanta 4.4–4.5)
    Box may settle with any Team member for an agreed number of whole points (4.2, 4.3: fractions are rolled off
    before the settlement is entered).
``circle_losers`` (RULES C11; 003 Atlanta 10.1)
    The score sheet circles the loser(s) of Box vs the Captain, with a "b" by a losing Captain when both lose.
``team_settlements`` (RULES C10; 003 Atlanta 4.4)
    With ``settlements``: two Team members may settle between themselves — ``A`` pays ``B`` for his interest in the
    game and takes over ``B``'s cube ("'A' offers 'B' ½ the cube value for his interest in the game in order to
    double") — and Box may preempt it, paying ``B`` himself "in order to reduce the Team".

Open points the seed texts leave open, each an option with both readings (defaults: the literal reading):

``acting_captain_beats_box`` (RULES C8; 003 Atlanta 6.1–6.3 — open)
    Who takes the box when Box beat the initial Captain but an Acting Captain then beats Box.
    ``"initial_captain_decides"`` (default): 6.1 "Box for the next game is the winner of Box vs. the initial
    Captain" as written — Box stays if he broke even, else the 6.1 break-even rotation. ``"acting_captain_takes_box"``:
    the Acting Captain who beat Box is treated as a Captain who beat Box (6.3 "he sits out, but will be Box"): he is
    Box, the initial Captain (6.2) and then the losing Box go to the end.
``last_rank_order`` (RULES C8; classic, 000 Ch.6–7, 9, 11; 001 Ch.5–7, 10 — open)
    The order of two members who both go to last rank in one game (a Captain who lost his seat by refusing and a
    Captain, or Box, beaten later). ``"order_of_defeat"`` (default): each "takes his place as last ranking member" when
    he is defeated, so the later one ends behind (000 Ch.7). ``"refusers_last"``: who refused lost his position "even
    though the game be eventually won by the accepting members" (000 Ch.11) and goes behind those beaten in play.
``refuser_forfeits`` (RULES C4; 001 Ch.9–10 — open)
    What a member who refuses Box's double forfeits in the 1931 chouette: ``"count"`` (default) "his stake up to the
    time of the proposed double" read as the count his stake stood at before the double (as 000 Ch.8 "his count
    previous to the proposed double"); ``"stake"``: his stake as such, the single stake each plays for (001 Ch.4
    "each of the partners and the Active Player plays for a single stake"), whatever the cube stands at. Applies to
    the classic family (one cube, RULES C4); Atlanta drops cost the cube's value (RULES D2, C5).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from ..errors import RuleSetError
from ..rules import RuleSet


class Family(StrEnum):
    """``family``: the classic chouette (one cube for the Team) or the Atlanta rules (a cube per member)."""

    CLASSIC = "classic"
    ATLANTA = "atlanta"


class Extras(StrEnum):
    """``extras``: off, or which reading of 003 Atlanta 5.7 (5.7, 5.7a, 5.7b, 5.7c)."""

    OFF = "off"
    RULE_5_7 = "5.7"
    RULE_5_7A = "5.7a"
    RULE_5_7B = "5.7b"
    RULE_5_7C = "5.7c"


class ForfeitTo(StrEnum):
    """``refuser_forfeit_to``: who receives a refuser's forfeit (RULES C4)."""

    BOX = "box"
    CAPTAIN = "captain"


class ActingCaptainReading(StrEnum):
    """``acting_captain_beats_box``: who takes the box when an Acting Captain beats Box (RULES C8)."""

    INITIAL_CAPTAIN_DECIDES = "initial_captain_decides"
    ACTING_CAPTAIN_TAKES_BOX = "acting_captain_takes_box"


class LastRankOrder(StrEnum):
    """``last_rank_order``: the order of two members sent to last rank in one game (RULES C8, classic)."""

    ORDER_OF_DEFEAT = "order_of_defeat"
    REFUSERS_LAST = "refusers_last"


class RefuserForfeits(StrEnum):
    """``refuser_forfeits``: what a 1931 refuser forfeits, his count or his stake (RULES C4)."""

    COUNT = "count"
    STAKE = "stake"


FAMILIES = tuple(Family)
EXTRAS_RULES = tuple(Extras)
FORFEIT_TO = tuple(ForfeitTo)
ACTING_CAPTAIN_READINGS = tuple(ActingCaptainReading)
LAST_RANK_ORDERS = tuple(LastRankOrder)
REFUSER_FORFEITS = tuple(RefuserForfeits)
_INT_FIELDS = ("seating_dice", "min_members", "box_partner_min_members")
_STR_FIELDS: dict[str, type[StrEnum]] = {
    "family": Family,
    "extras": Extras,
    "refuser_forfeit_to": ForfeitTo,
    "acting_captain_beats_box": ActingCaptainReading,
    "last_rank_order": LastRankOrder,
    "refuser_forfeits": RefuserForfeits,
}


def _default_game() -> RuleSet:
    return RuleSet.preset("chouette-atlanta")


@dataclass(frozen=True, slots=True)
class ChouetteRules:
    """The rules of one chouette session; see the module docstring for every field and the texts behind it.

    Build one with :meth:`preset` or :meth:`from_json`; the constructor checks every field and raises
    :class:`~backgammon.errors.RuleSetError` for a wrong type or value, or a contradiction (beavers with the classic
    single cube, the Point Game, a cap below three members).
    """

    name: str = "custom"
    family: Family = Family.ATLANTA
    game: RuleSet = field(default_factory=_default_game)
    seating_dice: int = 2
    min_members: int = 3
    max_members: int | None = None
    stakes: bool = True
    box_partner: bool = False
    box_partner_min_members: int = 6
    partners_may_refuse_team_double: bool = False
    captain_takes_over_refusers: bool = False
    refuser_forfeit_to: ForfeitTo = ForfeitTo.BOX
    half_rule: bool = True
    rule_5_10a: bool = False
    extras: Extras = Extras.RULE_5_7
    break_even_rule: bool = True
    settlements: bool = True
    circle_losers: bool = True
    team_settlements: bool = True
    acting_captain_beats_box: ActingCaptainReading = ActingCaptainReading.INITIAL_CAPTAIN_DECIDES
    last_rank_order: LastRankOrder = LastRankOrder.ORDER_OF_DEFEAT
    refuser_forfeits: RefuserForfeits = RefuserForfeits.COUNT

    def __post_init__(self) -> None:
        for spec in fields(self):
            value = getattr(self, spec.name)
            if spec.name == "name":
                if not isinstance(value, str) or not value:
                    raise RuleSetError(f"a chouette rule set's name is a non-empty string, not {value!r}")
            elif spec.name == "game":
                if not isinstance(value, RuleSet):
                    raise RuleSetError(f"game is a RuleSet (backgammon.rules), not {type(value).__name__}")
            elif spec.name in _STR_FIELDS:
                kind = _STR_FIELDS[spec.name]
                if not isinstance(value, str) or value not in tuple(kind):
                    raise RuleSetError(f"{spec.name} is one of {', '.join(kind)}; got {value!r}")
                object.__setattr__(self, spec.name, kind(value))  # parsed once: the enum member from here on
            elif spec.name in _INT_FIELDS or spec.name == "max_members":
                if value is None and spec.name == "max_members":
                    continue
                if not isinstance(value, int) or isinstance(value, bool):
                    raise RuleSetError(f"{spec.name} is a whole number, not {value!r}")
            elif not isinstance(value, bool):
                raise RuleSetError(f"{spec.name} is true or false, not {value!r}")
        if self.seating_dice not in (1, 2):
            raise RuleSetError(f"seating_dice is 1 (000 Ch.2) or 2 (003 Atlanta 1.3), not {self.seating_dice}")
        if self.min_members < 3:
            raise RuleSetError(f"a chouette has three or more members (000 Ch.1); min_members {self.min_members}")
        if self.max_members is not None and self.max_members < self.min_members:
            raise RuleSetError(f"max_members {self.max_members} is below min_members {self.min_members} (RULES C2)")
        if self.box_partner_min_members < 4:
            raise RuleSetError("Box's Partner needs a chouette of at least 4 (Box, Partner and a Team of two, C7)")
        self.game.validate_for(0)
        if self.game.point_game:
            raise RuleSetError("the Point Game (RULES M6) is not defined for chouettes: switch point_game off")
        if self.family == Family.CLASSIC and (self.game.beavers or self.game.raccoons):
            raise RuleSetError(
                "the classic chouette has one cube for the whole Team (RULES C4): beavers and raccoons need a cube per "
                "member — use the 'chouette-atlanta' family or switch them off"
            )

    # -- construction -----------------------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> ChouetteRules:
        """The named preset with ``overrides`` (chouette fields, or :class:`RuleSet` fields routed into ``game``).

        Presets (:data:`CHOUETTE_PRESETS`): ``"chouette-classic"`` (000 Chouette), ``"chouette-classic-1931"``
        (001 Chouette: the Active Player takes over refusers, automatic doubles on every opening tie unless
        eliminated, 001 §15) and ``"chouette-atlanta"`` (003 Atlanta). Raises :class:`RuleSetError` for an unknown
        preset or option, or a bad value.
        """
        if name not in CHOUETTE_PRESETS:
            raise RuleSetError(f"unknown chouette rule set {name!r}; the presets are: {', '.join(CHOUETTE_PRESETS)}")
        own = {spec.name for spec in fields(cls)}
        game_fields = {spec.name for spec in fields(RuleSet)} - {"name"}
        unknown = set(overrides) - own - game_fields
        if unknown:
            raise RuleSetError(
                f"unknown chouette option(s) {', '.join(sorted(unknown))}; options are: "
                f"{', '.join(sorted((own | game_fields) - {'name', 'game'}))}"
            )
        base = CHOUETTE_PRESETS[name]
        game_overrides = {key: value for key, value in overrides.items() if key in game_fields and key not in own}
        mine = {key: value for key, value in overrides.items() if key in own}
        game = mine.pop("game", base.game)
        if game_overrides:
            game = replace(game, **game_overrides)
        return replace(base, game=game, **mine)

    def to_json(self) -> dict[str, Any]:
        """Every field as a JSON-friendly dict, ``game`` nested as :meth:`RuleSet.to_json`."""
        data = {spec.name: getattr(self, spec.name) for spec in fields(self)}
        data["game"] = self.game.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChouetteRules:
        """Inverse of :meth:`to_json`; missing fields take the defaults, unknown ones raise :class:`RuleSetError`."""
        if not isinstance(data, dict):
            raise RuleSetError(f"a chouette rule set is a JSON object, not {type(data).__name__}")
        unknown = set(data) - {spec.name for spec in fields(cls)}
        if unknown:
            raise RuleSetError(f"unknown chouette option(s) {', '.join(sorted(unknown))}")
        values = dict(data)
        if "game" in values:
            values["game"] = RuleSet.from_json(values["game"])
        return cls(**values)

    # -- derived ----------------------------------------------------------------------------------------------
    @property
    def single_cube(self) -> bool:
        """True for the classic family: one cube for the whole Team (RULES C4)."""
        return self.family == Family.CLASSIC

    def describe(self) -> str:
        """A one-line human summary, e.g. for ``/chouette rules``: the name once (the game rules' own summary begins
        with the same preset name, left out), the family, the game options and the chouette's own."""
        game = self.game.describe()
        if game == self.game.name or game.startswith(self.game.name + ", "):
            game = game[len(self.game.name) + 2 :]
        parts = [self.name, f"{self.family} family"] + ([game] if game else [])
        if self.box_partner:
            parts.append(f"Box Partner from {self.box_partner_min_members} players")
        if self.family == Family.ATLANTA:
            parts.append(f"extras {self.extras}")
            if self.half_rule:
                parts.append("5.10a" if self.rule_5_10a else "5.10")
        if self.captain_takes_over_refusers:
            parts.append("Active Player takes over refusers")
        return ", ".join(parts)


_CLASSIC = ChouetteRules(
    name="chouette-classic",
    family=Family.CLASSIC,
    game=RuleSet.preset("chouette-classic"),
    seating_dice=1,
    stakes=False,
    partners_may_refuse_team_double=True,
    half_rule=False,
    extras=Extras.OFF,
    break_even_rule=False,
    settlements=False,
    circle_losers=False,
)

CHOUETTE_PRESETS: dict[str, ChouetteRules] = {
    "chouette-classic": _CLASSIC,
    "chouette-classic-1931": replace(
        _CLASSIC,
        name="chouette-classic-1931",
        game=RuleSet.preset("chouette-classic", automatic_doubles=15),
        partners_may_refuse_team_double=False,
        captain_takes_over_refusers=True,
    ),
    "chouette-atlanta": ChouetteRules(
        name="chouette-atlanta", family=Family.ATLANTA, game=RuleSet.preset("chouette-atlanta")
    ),
}
"""The named chouette presets. ``chouette-classic-1931`` is the classic one with the 1931 readings (001 Ch.9: the
Active Player takes over refusers, who may refuse only Box's doubles) and 15 automatic raises (001 §15: automatic doubling
"stands" unless limited or eliminated by agreement before the game)."""
