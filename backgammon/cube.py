"""The doubling cube: its state, who may turn it and what it is worth (RULES G3, D1–D6, M3, M4).

Pure functions over a frozen :class:`Cube`; the game (:mod:`backgammon.game`) decides *when* (phases and turns) and
calls these for *whether* and *what*. Sides are 0 and 1.

The value model: ``Cube.value`` is the cube's face **in the game** — accepted, or doubled automatically — always a
power of two, and an offer waiting for an answer is ``Cube.offered``. Automatic raises that **add one** (RULES G3,
000 §20b) are kept apart from the cube as ``Cube.factor`` (RULES D6: score = cube value × result multiplier ×
automatic-double factor): after three such ties the cube still shows 1 and the factor is 4; a voluntary double then
turns the cube to 2 and the count (:attr:`Cube.count` = value × factor, "the count" of 000 §20) doubles from 4 to 8.
So a drop always costs the count before the offer (RULES D2 "the value before the double", 000 §20 "whatever his
count may amount to"), whatever stage the offer reached (``v`` below is the count, the face times the factor):

=========================  ==========  ==========  ===========  =========================
stage (who answers)        value       owner       offered      a drop costs
=========================  ==========  ==========  ===========  =========================
double offered (taker)     v           as before   2v           v      (RULES D2)
beaver (doubler)           2v          taker       4v           2v     (003 Atlanta 5.4)
raccoon (taker)            4v          taker       8v           4v     (RULES D2; SC06, BG19)
=========================  ==========  ==========  ===========  =========================
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from .errors import CubeError
from .rules import AutomaticKind, DeadCubeRule, RuleSet


class Stage(StrEnum):
    """How far a pending offer has gone (RULES D3), and so who answers it: a double (the taker), a beaver (the
    doubler), a raccoon (the taker). Stored as its value in ``Cube.to_json``."""

    DOUBLE = "double"
    BEAVER = "beaver"
    RACCOON = "raccoon"


STAGES = tuple(Stage)


class Answer(StrEnum):
    """The answers to a pending offer, in the order :func:`answers` lists them (RULES D2, D3); the same words as the
    game's actions (:class:`backgammon.game.Action`)."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"


@dataclass(frozen=True, slots=True)
class Cube:
    """The cube of one game.

    ``value``: the cube's face in the game, a power of two (1 at the start; automatic doubles, 000 §20a, and accepted
    doubles included). ``factor``: the automatic-double factor of raises that add one (RULES G3, 000 §20b; 1 + such
    raises, else 1), shown beside the cube (RULES D6); :attr:`count` is ``value × factor``.
    ``owner``: ``None`` when centred, else the side that may redouble (RULES D1). ``turned``: a voluntary double has
    been accepted this game (RULES D4). ``automatic_raises``: opening ties that raised the count (RULES G3).
    ``offered``: the face proposed while an offer awaits an answer, else ``None``; ``doubler``: the side that made
    the first double of the pending offer; ``stage``: a :class:`Stage` (RULES D3).
    """

    value: int = 1
    owner: int | None = None
    turned: bool = False
    automatic_raises: int = 0
    offered: int | None = None
    doubler: int | None = None
    stage: Stage | None = None
    factor: int = 1

    @property
    def count(self) -> int:
        """The count in the game (000 §20): the face times the automatic-double factor (RULES D6)."""
        return self.value * self.factor

    @property
    def offered_count(self) -> int | None:
        """The count a pending offer proposes (face offered × factor), else ``None``."""
        return None if self.offered is None else self.offered * self.factor

    @property
    def taker(self) -> int | None:
        """The side that was doubled in the pending offer (it keeps the cube through a beaver and a raccoon)."""
        return None if self.doubler is None else 1 - self.doubler

    @property
    def responder(self) -> int | None:
        """The side that must answer the pending offer: the taker for a double or raccoon, the doubler for a beaver."""
        if self.stage is None:
            return None
        return self.doubler if self.stage == Stage.BEAVER else self.taker

    def to_json(self) -> dict[str, Any]:
        """All fields as a JSON-friendly dict (``factor`` only when it is not 1, so that states without an
        add-one raise are stored as before)."""
        data = {
            "value": self.value,
            "owner": self.owner,
            "turned": self.turned,
            "automatic_raises": self.automatic_raises,
            "offered": self.offered,
            "doubler": self.doubler,
            "stage": self.stage,
        }
        if self.factor != 1:
            data["factor"] = self.factor
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cube:
        """Inverse of :meth:`to_json`; raises :class:`CubeError` for impossible values.

        A state stored before the factor was kept apart (no ``factor`` key) may hold a count that is no power of two
        (an add-one raise, e.g. 3 or 6): it is read as the power-of-two face times the odd factor (3 → 1 × 3,
        6 → 2 × 3, a pending offer of 12 → 4), which keeps every count and every later double the same."""
        try:
            value = int(data["value"])
            offered = data["offered"]
            factor = int(data.get("factor", 1))
            if "factor" not in data and value >= 1 and value & (value - 1):
                face = value & -value  # the largest power of two dividing the old count
                factor = value // face
                value = face
                offered = None if offered is None else int(offered) // factor
            stage = None if data["stage"] is None else Stage(data["stage"])
            cube = cls(
                value=value,
                owner=data["owner"],
                turned=bool(data["turned"]),
                automatic_raises=int(data["automatic_raises"]),
                offered=offered,
                doubler=data["doubler"],
                stage=stage,
                factor=factor,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise CubeError(f"malformed cube record {data!r}: {error}") from None
        if cube.factor < 1 or cube.value < 1 or cube.value & (cube.value - 1):
            raise CubeError(f"impossible cube record {data!r}: the face is a power of two, the factor ≥ 1 (RULES D6)")
        if cube.value < 1 or cube.owner not in (None, 0, 1) or cube.doubler not in (None, 0, 1):
            raise CubeError(f"impossible cube record {data!r}: value ≥ 1, owner/doubler None, 0 or 1")
        if (cube.stage is None) != (cube.offered is None):
            raise CubeError(f"impossible cube record {data!r}: an offer needs a stage and a value, or neither")
        return cube


# -- RULES G3: automatic doubles ----------------------------------------------------------------------------------
def cube_text(face: int, factor: int = 1) -> str:
    """The cube as players read it, the add-one factor beside the power-of-two face (RULES D6, G3; 000 §20b):
    ``cube_text(2)`` → ``"2"``, ``cube_text(2, 3)`` → ``"2 ×3 (automatic doubles)"`` (the count is 6). ``face`` is the
    cube's face (a power of two), ``factor`` the automatic-double factor (≥ 1). Never raises."""
    return f"{face}" if factor == 1 else f"{face} ×{factor} (automatic doubles)"


def automatic_raise(cube: Cube, rules: RuleSet, match_length: int) -> Cube:
    """The cube after one opening tie (RULES G3): raised if the rule set allows another automatic raise, else as is.

    ``"double"`` doubles the count (000 §20a, 001 §15): the cube's face doubles; ``"add"`` adds one (000 §20b): the
    face stays and the automatic-double factor grows by one (RULES D6: the factor beside a power-of-two cube); at
    most ``rules.automatic_doubles`` raises per game (001 §15 "limited to one, two or three doubles"), never a count
    beyond ``rules.cube_cap`` (RULES D5) and never in match play (004). The cube stays centred (003 Atlanta 5.1).
    """
    if match_length or cube.automatic_raises >= rules.automatic_doubles:
        return cube
    if rules.automatic_doubles_kind == AutomaticKind.DOUBLE:
        raised = replace(cube, value=cube.value * 2, automatic_raises=cube.automatic_raises + 1)
    else:
        raised = replace(cube, factor=cube.factor + 1, automatic_raises=cube.automatic_raises + 1)
    if rules.cube_cap is not None and raised.count > rules.cube_cap:
        return cube
    return raised


# -- RULES M4: dead cube ------------------------------------------------------------------------------------------
def points_needed(match_length: int, score: tuple[int, int]) -> tuple[int, int]:
    """Points each side still needs to win a match to ``match_length`` at ``score`` (RULES M1)."""
    return (match_length - score[0], match_length - score[1])


def is_dead(value: int, doubler: int, rules: RuleSet, match_length: int, score: tuple[int, int]) -> bool:
    """True when RULES M4 forbids ``doubler`` to turn a cube now at ``value`` (matches only, ``rules.dead_cube``).

    ``rules.dead_cube_rule == "doubler_already_wins"`` (default; USBGF ruling guide §4.4.9, GNU Backgammon's
    ``play.c``): dead when ``value`` is at least the points the doubler needs. ``"match_ends"`` (003 5.6 as literally
    written): dead when ``value`` is at least the points needed by both sides — the match ends with this game
    whoever wins.
    """
    if not match_length or not rules.dead_cube:
        return False
    needed = points_needed(match_length, score)
    if rules.dead_cube_rule == DeadCubeRule.MATCH_ENDS:
        return value >= needed[0] and value >= needed[1]
    return value >= needed[doubler]


# -- RULES D1, D5, M3, M4: may this side double? ------------------------------------------------------------------
def double_refusal(
    cube: Cube,
    side: int,
    rules: RuleSet,
    *,
    match_length: int = 0,
    score: tuple[int, int] = (0, 0),
    crawford_game: bool = False,
) -> str | None:
    """Why ``side`` may not turn the cube now, or ``None`` if the cube allows it (turn and phase are the game's job).

    Checks, in order: the Crawford game has no cube (RULES M3, 003 5.5); an offer is already pending; the opponent
    owns the cube (RULES D1: only the player who accepted the last double may redouble); the cube limit (RULES D5);
    the dead cube (RULES M4).
    """
    if crawford_game:
        return "no doubling in the Crawford game: the cube is out of play until the game ends (RULES M3)"
    if cube.offered is not None:
        return f"a cube of {cube.offered} is already offered and awaits an answer"
    if cube.owner is not None and cube.owner != side:
        return "the opponent owns the cube: only the player who accepted the last double may redouble (RULES D1)"
    if rules.cube_cap is not None and cube.count * 2 > rules.cube_cap:
        return f"the cube is limited to {rules.cube_cap} in this rule set; doubling to {cube.count * 2} is over it (RULES D5)"
    if is_dead(cube.value, side, rules, match_length, score):
        needed = points_needed(match_length, score)
        return (
            f"the cube is dead: at {cube.value} it already decides the match (points needed {needed[0]} and "
            f"{needed[1]}), so the game is played out at this value (RULES M4, 003 5.6)"
        )
    return None


def check_double(cube: Cube, side: int, rules: RuleSet, **match: Any) -> None:
    """Raise :class:`CubeError` with the reason if :func:`double_refusal` refuses; ``match`` as for that function."""
    reason = double_refusal(cube, side, rules, **match)
    if reason:
        raise CubeError(reason)


def offer_double(cube: Cube, side: int) -> Cube:
    """The cube after ``side`` offers a double (RULES D1): ``offered`` = 2 × value, awaiting the opponent."""
    return replace(cube, offered=cube.value * 2, doubler=side, stage=Stage.DOUBLE)


def take(cube: Cube) -> Cube:
    """The cube after the pending offer is accepted (RULES D2, D3): it takes the offered value, the taker owns it."""
    offered = _pending(cube, "take")
    return replace(cube, value=offered, owner=cube.taker, turned=True, offered=None, doubler=None, stage=None)


def drop_cost(cube: Cube) -> int:
    """What the side that drops the pending offer loses: the count before the latest turn (RULES D2, D3, D6: the
    face times the automatic-double factor)."""
    _pending(cube, "drop")
    return cube.count


def check_beaver(cube: Cube, rules: RuleSet) -> None:
    """Raise :class:`CubeError` unless the pending offer may be beavered (RULES D3, D5).

    A beaver answers a double (003 Atlanta 5.3); beavering a raccoon needs ``rules.further_immediate_redoubles``
    (003 Atlanta 5.4: further immediate redoubles only with both players' consent).
    """
    offered = _pending(cube, "beaver")
    if not rules.beavers:
        raise CubeError("beavers are not allowed in this rule set (RULES D3: optional, money play only)")
    if cube.stage == Stage.BEAVER:
        answers = "take, raccoon or drop" if rules.raccoons else "take or drop"
        raise CubeError(f"a beaver is answered by the doubler: {answers} (RULES D3)")
    if cube.stage == Stage.RACCOON and not rules.further_immediate_redoubles:
        raise CubeError(
            "a raccoon may only be taken or dropped: further immediate redoubles need both players' consent "
            "(003 Atlanta 5.4; rule option further_immediate_redoubles)"
        )
    _check_cap(offered * 2 * cube.factor, rules)


def beaver(cube: Cube, rules: RuleSet) -> Cube:
    """The cube after the taker beavers (RULES D3): he takes at the offered value, keeps the cube, and turns it again.

    Raises :class:`CubeError` as :func:`check_beaver`.
    """
    check_beaver(cube, rules)
    offered = _pending(cube, "beaver")
    return replace(cube, value=offered, owner=cube.taker, turned=True, offered=offered * 2, stage=Stage.BEAVER)


def check_raccoon(cube: Cube, rules: RuleSet) -> None:
    """Raise :class:`CubeError` unless the pending beaver may be raccooned (RULES D3, D5; 003 Atlanta 5.4)."""
    offered = _pending(cube, "raccoon")
    if not rules.raccoons:
        raise CubeError("raccoons are not allowed in this rule set (RULES D3; 003 Atlanta 5.4: only by consent)")
    if cube.stage != Stage.BEAVER:
        raise CubeError("a raccoon answers a beaver; there is no beaver to answer (RULES D3)")
    _check_cap(offered * 2 * cube.factor, rules)


def raccoon(cube: Cube, rules: RuleSet) -> Cube:
    """The cube after the doubler raccoons (RULES D3): the beaver is accepted and the cube turned once more, the
    ownership unchanged (the beaverer keeps it). Raises :class:`CubeError` as :func:`check_raccoon`."""
    check_raccoon(cube, rules)
    offered = _pending(cube, "raccoon")
    return replace(cube, value=offered, offered=offered * 2, stage=Stage.RACCOON)


def check_drop(cube: Cube, rules: RuleSet) -> None:
    """Raise :class:`CubeError` if the pending offer may not be dropped: a raccoon when
    ``rules.raccoon_droppable`` is off (RULES D3, an unsure point: case SC06)."""
    _pending(cube, "drop")
    if cube.stage == Stage.RACCOON and not rules.raccoon_droppable:
        raise CubeError(
            "in this rule set a raccoon is compulsory: take it (003 Atlanta 5.4 allows a drop only of the beaver)"
        )


ANSWERS = tuple(Answer)
"""The answers to a pending offer, in this order (RULES D2, D3)."""


def check_answer(cube: Cube, decision: str, rules: RuleSet) -> None:
    """Raise :class:`CubeError` unless ``decision`` (one of :data:`ANSWERS`) may answer the pending offer of ``cube``
    under ``rules``: a take always (RULES D2); a drop unless the raccoon is compulsory (D3, case SC06); a beaver or
    a raccoon as :func:`check_beaver` / :func:`check_raccoon` (D3, the cube limit D5). The one answer-legality check
    of the 1-on-1 game and of every chouette cube (whose turn it is stays the caller's)."""
    if decision == Answer.TAKE:
        _pending(cube, "take")
    elif decision == Answer.DROP:
        check_drop(cube, rules)
    elif decision == Answer.BEAVER:
        check_beaver(cube, rules)
    elif decision == Answer.RACCOON:
        check_raccoon(cube, rules)
    else:
        raise CubeError(f"an answer is one of {', '.join(ANSWERS)}, not {decision!r}")


def answers(cube: Cube, rules: RuleSet) -> tuple[str, ...]:
    """The answers :func:`check_answer` accepts for the pending offer of ``cube`` (in :data:`ANSWERS` order);
    ``()`` when nothing is offered. What a game or a chouette offers its members is exactly this (RULES D2, D3, D5).
    """
    allowed = []
    for decision in ANSWERS:
        try:
            check_answer(cube, decision, rules)
        except CubeError:
            continue
        allowed.append(decision)
    return tuple(allowed)


def _pending(cube: Cube, action: str) -> int:
    """The value the pending offer proposes; raises :class:`CubeError` when no offer is pending."""
    if cube.offered is None:
        raise CubeError(f"there is no cube offer to {action}")
    return cube.offered


def _check_cap(value: int, rules: RuleSet) -> None:
    if rules.cube_cap is not None and value > rules.cube_cap:
        raise CubeError(f"the cube is limited to {rules.cube_cap} in this rule set; {value} is over it (RULES D5)")


# -- RULES D4, D6: scoring ----------------------------------------------------------------------------------------
def jacoby_applies(cube: Cube, rules: RuleSet, match_length: int) -> bool:
    """True when RULES D4 makes gammons and backgammons count single now.

    Only with ``rules.jacoby``, only in money play (RULES M2), and only while the cube is not "turned": by a double
    accepted (003 Atlanta 1.5, 4.1), or, with ``rules.jacoby_counts_automatic_doubles_as_turned``, also by an
    automatic raise (G3; the unsure point of cases SC08/BG20).
    """
    if not rules.jacoby or match_length:
        return False
    turned = cube.turned or (rules.jacoby_counts_automatic_doubles_as_turned and cube.automatic_raises > 0)
    return not turned


def scored_multiplier(
    multiplier: int, cube: Cube, rules: RuleSet, match_length: int, *, resignation: bool = False
) -> int:
    """The result multiplier that counts (RULES D4, D6): ``multiplier`` (1 single, 2 gammon, 3 backgammon), or 1
    when the Jacoby rule applies — to a resignation only with ``rules.jacoby_on_resignations`` (case SC07)."""
    if jacoby_applies(cube, rules, match_length) and (rules.jacoby_on_resignations or not resignation):
        return 1
    return multiplier
