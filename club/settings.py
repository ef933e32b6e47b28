"""Club settings and member preferences: what a club decides (RULES "Rule sets", A2) and what a member prefers.

Both are stored as JSON objects (``clubs.settings``, ``members.preferences``); :meth:`ClubSettings.from_json` and
:meth:`MemberPreferences.from_json` accept partial objects (missing keys take the defaults) and reject unknown keys
or bad values with :class:`~club.errors.InvalidRequestError`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from backgammon.errors import RuleSetError
from backgammon.rules import PRESETS, RuleSet

from .errors import InvalidRequestError, shown
from .table import Pending


class ExpiryPolicy(StrEnum):
    """A club's ``expiry_policy`` (:data:`EXPIRY_POLICIES`); stored as its value."""

    NOTHING = "nothing"
    FORFEIT_GAME = "forfeit_game"
    FORFEIT_MATCH = "forfeit_match"
    CLAIM = "claim"


EXPIRY_POLICIES = tuple(ExpiryPolicy)
"""What happens when a pending action's deadline passes (RULES A2, M5): nothing (the players are told and play
continues when the late player acts), the late player forfeits the game, or the late player forfeits the match
(a money session: it ends after the forfeited game), or ``claim``: nothing happens by itself — the opponent is
reminded and may claim the game, claim the match or give 24 hours more (:mod:`club.correspondence`). An
unanswered challenge always lapses at its deadline. Before any of these, a member with away days left uses one
automatically (``away_days``). At an event round's deadline the policy applies to the event match as a whole
(:mod:`club.events.service`: ``forfeit_game`` forfeits the match there, since the round must close)."""

DAY = 86_400.0
HOUR = 3_600.0


MAX_STAKE = 10**12
"""The largest ``max_stake`` a club may set (well inside SQLite's 64-bit integers, even times a cube of 2^20)."""


@dataclass(frozen=True, slots=True)
class ClubSettings:
    """One club's settings (RULES "Rule sets", A2).

    - ``match_rules`` / ``money_rules``: the preset names used when a challenge names none (match / money session);
      ``rule_overrides``: options applied on top of them (field → value, see ``backgammon.rules``).
    - ``move_time``: seconds a player has for each pending action of a game (roll, play, cube or resignation answer).
    - ``challenge_time``: seconds the challenged member has to accept or decline.
    - ``reminders``: seconds before a deadline at which the member to act is reminded, e.g. ``(86400, 3600)``.
    - ``expiry_policy``: one of :data:`EXPIRY_POLICIES`.
    - ``max_stake``: the largest stake per point allowed in a money session (0 = no stakes).
    - ``game_channel``: the channel (a Discord channel id; 0 = wherever the challenge is made) in which each game
      gets its thread. Only an id: nothing here depends on Discord.
    - ``away_days``: away (vacation) days each member may take per calendar year (0 = none); a clock that would
      lapse uses one automatically while any is left (:mod:`club.correspondence`). Off (0) by default: the club
      acts at deadlines as it always did until an admin sets an allowance.
    - ``nudge_hours``: a member may nudge an opponent who has kept him waiting this many hours, at most once per
      this many hours.
    - ``highlights``: post the animated turning point of each finished match in its thread (:mod:`club.highlight`);
      on by default.
    - ``quiz_names``: a club quiz names whose game each position came from; off by default (:mod:`club.quiz`).
    - ``quiz_threshold``: the equity (cube units) a play must lose to be a quiz position, 0.04 to 1 (default 0.08,
      GNU Backgammon's "bad").
    - ``quiz_days``: a quiz is posted in ``quiz_channel`` (a Discord channel id) every this many days; 0 = none.
    - ``organiser_role``: the name of the role (case-insensitive) whose members may organise events besides the
      admins; "" = admins only. "Organiser" by default.
    - ``event_forum``: a forum channel (a Discord channel id; 0 = none) in which each event gets one post for its
      round announcements and its bracket or standings picture.
    """

    match_rules: str = "tournament"
    money_rules: str = "money"
    rule_overrides: dict = field(default_factory=dict)
    move_time: float = 3 * DAY
    challenge_time: float = 7 * DAY
    reminders: tuple[float, ...] = (DAY, 4 * HOUR)
    expiry_policy: ExpiryPolicy = ExpiryPolicy.NOTHING
    max_stake: int = 1_000_000
    game_channel: int = 0
    away_days: int = 0
    nudge_hours: float = 24.0
    highlights: bool = True
    quiz_names: bool = False
    quiz_threshold: float = 0.08
    quiz_days: int = 0
    quiz_channel: int = 0
    organiser_role: str = "Organiser"
    event_forum: int = 0

    def __post_init__(self) -> None:
        for name in ("match_rules", "money_rules"):
            value = getattr(self, name)
            if not isinstance(value, str) or value not in PRESETS:
                raise InvalidRequestError(
                    f"{name} {shown(value)} is not a rule-set preset; presets: {', '.join(PRESETS)}"
                )
        if not isinstance(self.rule_overrides, dict):
            raise InvalidRequestError('rule_overrides is an object of rule-set options, e.g. {"cube_cap": 64}')
        try:
            RuleSet.preset("tournament", **self.rule_overrides)
        except RuleSetError as error:
            raise InvalidRequestError(f"rule_overrides: {error}") from None
        for name in ("move_time", "challenge_time"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 60 <= value <= 365 * DAY:
                raise InvalidRequestError(f"{name} is a number of seconds from 60 to a year, not {value!r}")
        object.__setattr__(self, "reminders", tuple(sorted(set(self.reminders), reverse=True)))
        for value in self.reminders:
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 365 * DAY:
                raise InvalidRequestError(  # NaN and infinity fail the range test too
                    f"a reminder is a number of seconds before the deadline, above 0 and at most a year, "
                    f"not {shown(value)}"
                )
        if self.expiry_policy not in EXPIRY_POLICIES:
            raise InvalidRequestError(
                f"expiry_policy {self.expiry_policy!r} is not one of {', '.join(EXPIRY_POLICIES)}"
            )
        object.__setattr__(self, "expiry_policy", ExpiryPolicy(self.expiry_policy))
        if (
            isinstance(self.max_stake, bool)
            or not isinstance(self.max_stake, int)
            or not 0 <= self.max_stake <= MAX_STAKE
        ):
            raise InvalidRequestError(
                f"max_stake is a whole number from 0 to {MAX_STAKE:,}, not {shown(self.max_stake)}"
            )
        if isinstance(self.away_days, bool) or not isinstance(self.away_days, int) or not 0 <= self.away_days <= 366:
            raise InvalidRequestError(
                f"away_days is a whole number of days from 0 to 366 a year, not {self.away_days!r}"
            )
        hours = self.nudge_hours
        if isinstance(hours, bool) or not isinstance(hours, int | float) or not 1 <= hours <= 24 * 30:
            raise InvalidRequestError(f"nudge_hours is a number of hours from 1 to 720, not {hours!r}")
        for name in ("highlights", "quiz_names"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRequestError(f"{name} is true or false, not {shown(getattr(self, name))}")
        threshold = self.quiz_threshold
        if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0.04 <= threshold <= 1:
            raise InvalidRequestError(
                f"quiz_threshold is the equity a quiz play lost, from 0.04 to 1 (e.g. 0.08), not {shown(threshold)}"
            )
        if isinstance(self.quiz_days, bool) or not isinstance(self.quiz_days, int) or not 0 <= self.quiz_days <= 365:
            raise InvalidRequestError(
                f"quiz_days is a whole number of days from 0 (none) to 365, not {self.quiz_days!r}"
            )
        if isinstance(self.quiz_channel, bool) or not isinstance(self.quiz_channel, int) or self.quiz_channel < 0:
            raise InvalidRequestError(f"quiz_channel is a channel id (0 = none), not {self.quiz_channel!r}")
        if isinstance(self.game_channel, bool) or not isinstance(self.game_channel, int) or self.game_channel < 0:
            raise InvalidRequestError(
                f"game_channel is a channel id (0 = where the challenge is made), not {self.game_channel!r}"
            )
        role = self.organiser_role
        if not isinstance(role, str) or len(role) > 100 or not (role.isprintable() and role == role.strip()):
            raise InvalidRequestError(
                f"organiser_role is a role's name, up to 100 characters (empty: admins only), not {shown(role)}"
            )
        if isinstance(self.event_forum, bool) or not isinstance(self.event_forum, int) or self.event_forum < 0:
            raise InvalidRequestError(f"event_forum is a forum channel id (0 = none), not {shown(self.event_forum)}")

    def check_kinds(self, names: tuple[str, ...] = ("match_rules", "money_rules")) -> None:
        """Each default preset in ``names`` must be usable for its kind with the club's ``rule_overrides``, or every
        challenge of that kind naming no rule set would be refused: ``match_rules`` for a match (RULES G3, D3, D4,
        M2, M6: no automatic doubles, Jacoby, beavers or Point Game), ``money_rules`` for a money session, neither a
        chouette preset (those are for ``/bg chouette start``, RULES C1–C11). Raises :class:`InvalidRequestError`
        naming the presets that fit."""
        for name, length in (("match_rules", 1), ("money_rules", 0)):
            if name not in names:
                continue
            preset = getattr(self, name)
            fitting = [p for p in PRESETS if not p.startswith("chouette") and _fits(p, length, self.rule_overrides)]
            what = "matches" if length else "money sessions"
            if preset.startswith("chouette"):
                raise InvalidRequestError(
                    f"{name} {preset!r} is a chouette rule set (for chouette start); for {what} use one of: "
                    f"{', '.join(fitting)}"
                )
            if not _fits(preset, length, self.rule_overrides):
                extra = f" with the rule options {self.rule_overrides}" if self.rule_overrides else ""
                raise InvalidRequestError(
                    f"{name} {preset!r} cannot be used for {what}{extra} (every such challenge would be refused); "
                    f"use one of: {', '.join(fitting) or 'tournament, without those options'}"
                )

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object."""
        data = asdict(self)
        data["reminders"] = list(self.reminders)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> ClubSettings:
        """Settings from a (possibly partial) JSON object; raises :class:`InvalidRequestError` for unknown keys."""
        data = dict(data or {})
        unknown = set(data) - {spec.name for spec in fields(cls)}
        if unknown:
            raise InvalidRequestError(
                f"unknown club setting(s) {', '.join(sorted(unknown))}; settings are: "
                f"{', '.join(spec.name for spec in fields(cls))}"
            )
        if "reminders" in data:
            if not isinstance(data["reminders"], list | tuple):
                raise InvalidRequestError("reminders is a list of seconds before the deadline, e.g. [86400, 3600]")
            data["reminders"] = tuple(data["reminders"])
        return cls(**data)

    def updated(self, **changes: Any) -> ClubSettings:
        """A copy with ``changes`` applied (validated like :meth:`from_json`); a default preset changed must suit
        its kind (:meth:`check_kinds`)."""
        settings = ClubSettings.from_json({**self.to_json(), **changes})
        settings.check_kinds(tuple(name for name in ("match_rules", "money_rules") if name in changes))
        return settings

    def check_terms(self, stake: Any, overrides: Any, what: str = "rule-set") -> None:
        """Refuse a table's terms outside this club's: ``stake`` a whole number from 0 to ``max_stake`` (money per
        point, RULES A3), ``overrides`` None or an object of ``what`` options. Raises :class:`InvalidRequestError`
        saying what would be right."""
        if isinstance(stake, bool) or not isinstance(stake, int) or not 0 <= stake <= self.max_stake:
            raise InvalidRequestError(f"stake is a whole number from 0 to {self.max_stake}, not {shown(stake)}")
        if overrides is not None and not isinstance(overrides, dict):
            raise InvalidRequestError(f"overrides is an object of {what} options, not {shown(overrides)}")

    def time_limit(self, pending: str) -> float:
        """Seconds allowed for the ``pending`` action: ``challenge_time`` for answering a challenge, else
        ``move_time``."""
        return self.challenge_time if pending == Pending.ANSWER_CHALLENGE else self.move_time


def _fits(preset: str, length: int, overrides: dict) -> bool:
    """Whether preset ``preset`` with ``overrides`` may be used for ``length`` (0 = money, RULES "Rule sets")."""
    try:
        RuleSet.preset(preset, **overrides).validate_for(length)
    except RuleSetError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class MemberPreferences:
    """A member's preferences.

    - ``auto_roll`` (default on): roll for him when he is on roll and cannot double (the opponent owns the cube,
      Crawford game, dead cube, cube at its cap; RULES D1, D5, M3, M4), instead of waiting for a click.
    - ``notify`` (default off): also send him a direct message when it is his turn and for reminders (RULES A2);
      the board message mentions him either way.
    - ``roll_after`` (hours, 0 = off): roll for him when he is on roll, may double and has not done so within this
      many hours (an opt-in: "roll for me when I do not double within N hours").
    - ``away``: his away periods now, by club id (text): ``{"from", "until", "reason", "days"}``; ``away_used``: away
      days used, by ``"<club id>:<year>"``; ``nudged``: when he last nudged, by ``"match:<id>"`` (all written by
      :mod:`club.correspondence`).
    - ``take_upto``: his standing take answers in money sessions, by ``"match:<id>"``: take at once any double to a
      cube of at most this value (RULES D2; the 1-on-1 form of the chouette's standing orders, RULES C9). Nobody else
      sees it: it is applied when the double arrives, as his take.
    - ``seed`` (default none): his dice phrase (:mod:`club.commitments`): part of his client seed
      in every game (with the unpredictable value of his first action after the game's commitment). Up to 100
      printable characters.
    """

    auto_roll: bool = True
    notify: bool = False
    roll_after: float = 0.0
    away: dict = field(default_factory=dict)
    away_used: dict = field(default_factory=dict)
    nudged: dict = field(default_factory=dict)
    take_upto: dict = field(default_factory=dict)
    seed: str = ""
    seed_at: float = 0.0
    """When ``seed`` was last set (Unix seconds): his phrase protects a game only if set after its commitment."""

    def __post_init__(self) -> None:
        phrase = self.seed
        if not isinstance(phrase, str) or len(phrase) > 100 or not (phrase.isprintable() and phrase == phrase.strip()):
            raise InvalidRequestError(
                f"a dice phrase is up to 100 printable characters without spaces at its ends, not {shown(phrase)}"
            )
        if not isinstance(self.auto_roll, bool):
            raise InvalidRequestError(f"auto_roll is true or false, not {self.auto_roll!r}")
        if not isinstance(self.notify, bool):
            raise InvalidRequestError(f"notify is true or false, not {self.notify!r}")
        after = self.roll_after
        if isinstance(after, bool) or not isinstance(after, int | float) or not 0 <= after <= 24 * 30:
            raise InvalidRequestError(f"roll_after is a number of hours from 0 (off) to 720, not {after!r}")
        for name in ("away", "away_used", "nudged", "take_upto"):
            if not isinstance(getattr(self, name), dict):
                raise InvalidRequestError(f"{name} is an object, not {getattr(self, name)!r}")
        for value in self.take_upto.values():
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 4096 or value & (value - 1):
                raise InvalidRequestError(f"a standing take is up to a cube value (2, 4, 8 … 4096), not {value!r}")

    def to_json(self) -> dict[str, Any]:
        """The preferences as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> MemberPreferences:
        """Preferences from a (possibly partial) JSON object; raises :class:`InvalidRequestError` for unknown keys."""
        data = dict(data or {})
        unknown = set(data) - {spec.name for spec in fields(cls)}
        if unknown:
            raise InvalidRequestError(
                f"unknown preference(s) {', '.join(sorted(unknown))}; preferences are: "
                f"{', '.join(spec.name for spec in fields(cls))}"
            )
        return cls(**data)

    def updated(self, **changes: Any) -> MemberPreferences:
        """A copy with ``changes`` applied (validated)."""
        unknown = set(changes) - {spec.name for spec in fields(self)}
        if unknown:
            raise InvalidRequestError(f"unknown preference(s) {', '.join(sorted(unknown))}")
        return replace(self, **changes)
