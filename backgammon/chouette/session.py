"""A chouette session as a state machine of events (RULES C1–C11), for both rule families.

The session seats the members (C1), takes in new ones (C2), runs each game's cubes between Box and every Team member
(C3–C7), rotates the seats (C8), lets absent members act through proxies and an away Captain's checkers be played by
an Acting Captain (C9), takes settlements (C10) and keeps the score sheet (C11). It moves no checkers: the board
game between Box and Captain is a normal :class:`backgammon.game.Game`; the caller tells the session whose turn it
is (:meth:`ChouetteSession.turn`) and how the board ended (:meth:`ChouetteSession.game_over` /
:meth:`ChouetteSession.board_over`).

Every event is a method. An event that the rules forbid raises :class:`~backgammon.errors.ChouetteError` (a
contradictory rule set :class:`~backgammon.errors.RuleSetError`) and changes nothing; an accepted event is appended to
``history`` as ``{"event": name, "args": {...}}``, from which :meth:`ChouetteSession.replay` rebuilds the session.

A game, in events::

    start_game ─► [opening_tie]* ─► turn("box"|"team") ─► … doubles and answers … ─► turn(other) ─► … ─► game_over
    Box's turn:   box_double(targets) ─► answer(member, …) per cube [─► offer_extra/no_extra ─► answer(taker, …)]
                  extra_double(giver)  (an extra's giver redoubles its taker, 003 Atlanta 5.7)
    Team's turn:  atlanta: every member who may double: team_double / no_double (window 5.9; close_window at the
                  deadline) ─► box_answer({cube: decision}) (5.10/5.11)
                  classic: the Captain's team_double ─► partners answer (000 Ch.8, if refusals allowed) ─► box_answer
    any time nothing is pending: settle(member, points) (C10); leave/come_back/appoint_proxy (C9); join (C2, queued)
    the Team's player away: stand_in(member) (C9; :meth:`ChouetteSession.stand_in_due` names who)

Decisions are ``"take"``, ``"drop"``, ``"beaver"`` and ``"raccoon"`` (RULES D2–D3 per cube).

The cube arithmetic itself — offers, takes, beavers, raccoons, drop costs, the cube limit, Jacoby — is
:mod:`backgammon.cube`'s, applied per cube with side 0 = the Box side and side 1 = the Team side.

Who doubles and who answers:

- Box doubles at his turn any cubes he may turn, selectively (003 Atlanta 5.6); classic: the one Team cube (C4).
- At the Captain's turn, Atlanta: a window where every member whose cube may be turned doubles or passes ("hold the
  roll", 5.9), closing when all have decided or at the deadline (:meth:`ChouetteSession.close_window`); classic: the
  Captain doubles for the Team and partners may go along or refuse (000 Ch.8, option).
- Team members answer Box in any order unless Box insists on rotation order (5.8); Box answers the Team's doubles
  under 5.10/5.10a/5.11; a drop is paid at once (10.1) — "his count previous to the proposed double" (000 Ch.8).
- Extras (5.7, 5.7a–c): when Box doubles every cube from the centre and a lone player takes, each dropper may offer
  him an extra.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from .. import cube as cube_rules
from ..cube import Cube, Stage
from ..errors import ChouetteError
from ..game import Action
from .cubes import BOX_SIDE, LEVELS, TEAM_SIDE, ChouetteCube, CubeStatus, Ending, Side, Transfer, extra_key, net_points
from .events import (
    CONSENT_ACTIONS,
    DECISIONS,
    EXTRA_ACTIONS,
    WINDOW_ACTIONS,
    Awaiting,
    Decision,
    SessionPhase,
    event,
)
from .game import SIDES, ChouetteGame, ExtraChoice, ExtrasStage
from .rotation import Outcome, OutcomeResult, loser_marks, relinquish_box
from .rotation import next_order as rotate
from .rules import ChouetteRules, Extras, Family, ForfeitTo, RefuserForfeits
from .seating import apply_throws, is_resolved, resolved_order
from .sheet import EndedBy, ScoreSheet, SheetRow, split_box_partner

__all__ = ["DECISIONS", "EVENTS", "PHASES", "Awaiting", "ChouetteSession"]

_T = TypeVar("_T")

PHASES = tuple(SessionPhase)
"""The phases of a session: throwing for seats, between games, a game in progress."""

AUTO_PARTNER = "auto"
"""``start_game``'s ``partner`` for the default Partner (:meth:`ChouetteSession.default_partner`); logged as it is."""


class ChouetteSession:
    """One chouette session under ``rules`` (:class:`~backgammon.chouette.rules.ChouetteRules`); ``base_stake`` is the
    money per point written at the top of the sheet (003 Atlanta 2.1).

    State (read it; change it only through the events): ``phase`` (``"seating"``, ``"ready"`` between games,
    ``"playing"``), ``order`` (Box, Captain, Team by rank — during a game, the order it started with), ``stakes``
    (member → multiple of the base stake, RULES C6), ``ranking`` (seating throws so far, RULES C1), ``joining`` (a
    group joining together still throwing, RULES C2), ``waiting`` (joined during the game, seated after it),
    ``new_members`` (not yet played: never the first choice for Partner, 003 6.4), ``away`` and ``proxies`` (RULES
    C9), ``game`` (the current or last :class:`~backgammon.chouette.game.ChouetteGame`) and ``history`` (accepted
    events); the score sheet through :meth:`sheet`.
    """

    def __init__(self, rules: ChouetteRules, base_stake: float = 1) -> None:
        if not isinstance(rules, ChouetteRules):
            raise ChouetteError(f"a chouette needs ChouetteRules (ChouetteRules.preset), not {type(rules).__name__}")
        if not isinstance(base_stake, (int, float)) or isinstance(base_stake, bool) or base_stake <= 0:
            raise ChouetteError(f"the base stake is a positive amount per point (003 Atlanta 2.1), not {base_stake!r}")
        self.rules = rules
        self.phase = SessionPhase.SEATING
        self.ranking: list[list[str]] = []
        self.order: list[str] = []
        self.stakes: dict[str, int] = {}
        self.joining: list[list[str]] = []
        self.waiting: list[str] = []
        self.new_members: list[str] = []
        self.away: list[str] = []
        self.proxies: dict[str, str] = {}
        self.game: ChouetteGame | None = None
        self._sheet = ScoreSheet(base_stake)
        self.history: list[dict[str, Any]] = []

    # =============================================================================================== views
    @property
    def members(self) -> list[str]:
        """Everyone in the chouette: the order, then those waiting to be seated after this game."""
        return [*self.order, *self.waiting]

    @property
    def box(self) -> str | None:
        """The Box of the current game, or of the next one between games."""
        if self.phase == SessionPhase.PLAYING:
            return self._current.box
        return self.order[0] if self.order else None

    @property
    def captain(self) -> str | None:
        """The Captain (or Acting Captain) now; between games, the next Captain (RULES C8)."""
        if self.phase == SessionPhase.PLAYING:
            return self._current.captain
        return self.order[1] if len(self.order) > 1 else None

    @property
    def partner(self) -> str | None:
        """Box's Partner in the current game (RULES C7), or ``None``."""
        return self._current.partner if self.phase == SessionPhase.PLAYING else None

    @property
    def captain_changes(self) -> list[dict[str, Any]]:
        """Captain changes during the current (or last) game: ``after_event`` (0-based index among the events since
        ``start_game``), ``from``, ``to``, ``role`` and ``rule`` (000 Ch.10; 003 Atlanta 6.2–6.3)."""
        return copy.deepcopy(self.game.captain_changes) if self.game else []

    def cube(self, key: str) -> ChouetteCube:
        """The cube ``key`` of the current game (a copy). Raises :class:`ChouetteError` if there is none."""
        return copy.deepcopy(self._slot(key))

    def cubes(self) -> dict[str, ChouetteCube]:
        """All cubes of the current (or last) game, key → a copy."""
        return copy.deepcopy(self.game.cubes) if self.game else {}

    def next_order(self) -> list[str]:
        """The order of the next game (Box, Captain, Team…; RULES C8, with members who joined at the end, C2).

        Raises :class:`ChouetteError` during a game (the order is decided by how it ends) or before seating.
        """
        if self.phase != SessionPhase.READY:
            raise ChouetteError(f"the next order is known between games; the session is {self.phase}")
        return list(self.order)

    def default_partner(self) -> str | None:
        """Whom Box takes as Partner in the next game by default (RULES C7): the last of the Team who is not new
        (003 Atlanta 1.3, 6.4), when the rules give Box a Partner at this size; else ``None``."""
        if not (self.rules.box_partner and len(self.order) >= self.rules.box_partner_min_members):
            return None
        candidates = [m for m in self.order[2:] if m not in self.new_members]
        return candidates[-1] if candidates else None

    @property
    def games_on_sheet(self) -> int:
        """How many finished games the score sheet has — without copying it."""
        return self._sheet.games

    def sheet_rows(self, start: int = 0) -> list[SheetRow]:
        """Copies of the sheet's rows held, of the games after the first ``start`` (RULES C11): the games a caller
        has not seen yet, without copying the whole sheet."""
        return copy.deepcopy(self._sheet.rows[max(0, start - self._sheet.earlier) :])

    def sheet_summary(self) -> dict[str, Any]:
        """The score sheet as JSON without its rows — columns, how many games, running totals
        (:meth:`ScoreSheet.compact`): what a club keeps in its hot state when the rows live elsewhere."""
        return self._sheet.compact().to_json()

    @property
    def sheet_members(self) -> list[str]:
        """The sheet's columns: every member who ever sat, in order of arrival."""
        return list(self._sheet.members)

    def sheet(self) -> ScoreSheet:
        """The score sheet (a copy; RULES C11): a row per game summing to zero, losers circled (10.1), the next
        Captain; ``sheet().text()`` renders it, ``sheet().totals()`` gives the running totals."""
        return copy.deepcopy(self._sheet)

    @property
    def player(self) -> str | None:
        """Who plays the Team's checkers now (and, classic, doubles for it, RULES C4): the Captain, or the Acting
        Captain standing in for him (:meth:`stand_in`, RULES C9); between games, the next Captain."""
        if self.phase != SessionPhase.PLAYING:
            return self.captain
        game = self._current
        return game.stand_in if game.stand_in is not None else game.captain

    def stand_in_candidate(self) -> str | None:
        """Who would stand in for the Team's player (RULES C9, read with 003 Atlanta 6.2 "the next player in line
        becoming Acting Captain"): the first other Team member in rank order who is present and still in the game;
        with none in the game, the first one present (he plays for those still in it, as a proxy may, 7.1); ``None``
        between games or when nobody on the Team is present."""
        if self.phase != SessionPhase.PLAYING:
            return None
        game, player = self._current, self.player
        present = [m for m in game.team if m != player and m not in self.away]
        return next((m for m in present if game.in_play(m)), present[0] if present else None)

    def stand_in_due(self) -> str | None:
        """The Team member who should stand in now, else ``None``: :meth:`stand_in_candidate` when :attr:`player` is
        away; and an Acting Captain out of the game hands over to a present member still in it."""
        if self.phase != SessionPhase.PLAYING:
            return None
        game, player = self._current, self.player
        if player in self.away:
            return self.stand_in_candidate()
        if game.stand_in is not None and not game.in_play(game.stand_in):
            candidate = self.stand_in_candidate()
            return candidate if candidate is not None and game.in_play(candidate) else None
        return None

    def named_proxy(self, member: str) -> str | None:
        """The present member who decides for the away ``member`` because he (or his proxy, and so on) named him
        (RULES C9; 003 Atlanta 7.1), else ``None`` — the Captain's default representation is not counted here."""
        seen, current = {member}, member
        while current in self.away:
            following = self.proxies.get(current)
            if following is None or following in seen:
                return None
            seen.add(following)
            current = following
        return None if current == member else current

    def proxy_for(self, member: str) -> str:
        """Who makes ``member``'s cube decisions now (RULES C9; 003 Atlanta 7.1): himself when present; else the proxy
        he (or his proxy) appointed, following proxies of proxies who are away too; the Captain (the Acting Captain
        standing in for him, :attr:`player`) when there is none (or the chain loops). Box decides for himself.
        Raises :class:`ChouetteError` for a stranger."""
        if member not in self.members:
            raise ChouetteError(f"{member!r} is not in this chouette; members: {', '.join(self.members)}")
        if member == self.box or member not in self.away:
            return member
        return self.named_proxy(member) or self.player or member

    def awaiting(self) -> list[Awaiting]:
        """Every decision someone must make before the game can go on (who, for whom, which actions, which cubes)."""
        if self.phase != SessionPhase.PLAYING:
            return []
        game, result = self._current, []
        if game.window is not None:
            for key, choice in game.window.items():
                if choice is None:
                    member = game.cubes[key].team
                    result.append(Awaiting(member, self.proxy_for(member), WINDOW_ACTIONS, (key,)))
            return result
        if game.consent is not None:
            for member, choice in game.consent.items():
                if choice is None:
                    keys = tuple(slot.key for slot in game.cubes_of(member))
                    result.append(Awaiting(member, self.proxy_for(member), CONSENT_ACTIONS, keys))
            return result
        if game.extras is not None and game.extras["stage"] == ExtrasStage.OFFERING:
            for member, choice in game.extras["offers"].items():
                if choice is None:
                    result.append(Awaiting(member, self.proxy_for(member), EXTRA_ACTIONS, ()))
            return result
        by_responder: dict[str, list[ChouetteCube]] = {}
        for slot in game.cubes.values():
            if slot.pending and (responder := slot.responder) is not None:
                by_responder.setdefault(responder, []).append(slot)
        for member, slots in by_responder.items():
            actions = sorted({action for slot in slots for action in self._answers(slot)}, key=DECISIONS.index)
            actor = member if member == game.box else self.proxy_for(member)
            result.append(Awaiting(member, actor, tuple(actions), tuple(slot.key for slot in slots)))
        return result

    def may_double(self, actor: str) -> list[str]:
        """The cube keys ``actor`` may double now (the Box or an extra's giver at Box's turn; a Team member in the
        Team's window, 003 Atlanta 5.9; the classic Captain at his turn, RULES C4); ``[]`` if none (RULES D1)."""
        if self.phase != SessionPhase.PLAYING:
            return []
        game = self._current
        if game.window is not None:
            return [k for k, c in game.window.items() if c is None and game.cubes[k].team == actor]
        if self._pending_reason() or actor in game.doubled or game.rolled:
            return []
        if game.on_roll == Side.BOX:
            return [slot.key for slot in game.live_cubes() if slot.box == actor and self._double_ok(slot, BOX_SIDE)]
        if game.on_roll == Side.TEAM and self.rules.single_cube and actor == self.player:
            live = game.live_cubes()
            return [slot.key for slot in live] if all(self._double_ok(s, TEAM_SIDE) for s in live) else []
        return []

    # ====================================================================== the game: seats (RULES C3, C7)
    @event
    def start_game(self, partner: str | None = AUTO_PARTNER) -> ChouetteGame:
        """Start the next game with the current order: Box ``order[0]``, Captain ``order[1]``, every other member on
        the Team with his own cube at his stake (RULES C3, C5, C6) — in the classic family the cubes move as one
        (C4). ``partner``: ``"auto"`` (:meth:`default_partner`), ``None`` (Box plays solo) or a Team member other than
        the Captain (RULES C7). Box's circled scores are crossed through (10.1).

        Raises :class:`ChouetteError` unless between games with at least ``rules.min_members`` seated and no tie
        being thrown, or for a Partner the rules or the size do not allow.
        """
        if self.phase != SessionPhase.READY:
            raise ChouetteError(f"a game starts between games; the session is {self.phase}")
        if self.joining:
            raise ChouetteError("members joining together are still throwing for their order")
        if len(self.order) < self.rules.min_members:
            raise ChouetteError(f"a chouette needs {self.rules.min_members} members; seated: {len(self.order)}")
        if partner == AUTO_PARTNER:
            partner = self.default_partner()
        elif partner is not None:
            if not (self.rules.box_partner and len(self.order) >= self.rules.box_partner_min_members):
                raise ChouetteError(
                    f"Box takes a Partner only with the box_partner rule and {self.rules.box_partner_min_members}+ "
                    f"members (RULES C7; 003 Atlanta 1.2)"
                )
            if partner not in self.order[2:]:
                raise ChouetteError(f"the Partner is a Team member other than the Captain (C7), not {partner!r}")
        box = self.order[0]
        team = [m for m in self.order[1:] if m != partner]
        slots = {
            m: ChouetteCube(key=m, member=m, team=m, box=box, stake=self.stakes.get(m, 1), cube=Cube()) for m in team
        }
        number = self._sheet.games + 1
        self.game = ChouetteGame(number, list(self.order), box, partner, team, team[0], team[0], slots)
        self._sheet.cross(box)
        self.new_members = []
        self.phase = SessionPhase.PLAYING
        return copy.deepcopy(self.game)

    # ========================================================================================= bookkeeping
    def _progress(self) -> None:
        """After each event in a game: close what is complete, resolve finished offer rounds, move the captaincy,
        end the game when no cube is left in play."""
        game = self._current
        if game.consent is not None and all(c is not None for c in game.consent.values()):
            game.consent = None
        if game.window is not None and all(c is not None for c in game.window.values()):
            self._close_window()
        if game.round is not None and not any(game.cubes[k].pending for k in game.round["keys"] if k in game.cubes):
            self._resolve_round()
        extras = game.extras
        if (
            extras is not None
            and extras["stage"] == ExtrasStage.OFFERING
            and all(c is not None for c in extras["offers"].values())
        ):
            self._open_extras()
        extras = game.extras
        offers_open = extras is not None and any(
            game.cubes[k].pending and game.cubes[k].cube.stage == Stage.DOUBLE for k in extras["keys"]
        )
        if extras is not None and extras["stage"] == ExtrasStage.ANSWERING and not offers_open:
            game.extras = None
        if not (self.rules.single_cube and game.round is not None):
            self._update_captain()
        if not game.live_cubes():
            self._finish(EndedBy.DROPS)

    def _update_captain(self) -> None:
        game = self._current
        if game.in_play(game.captain):
            return
        playing = [m for m in game.team if game.in_play(m)]
        if not playing:
            return
        old, new = game.captain, playing[0]
        if self.rules.single_cube:
            rule = "001 Chouette 10" if self.rules.captain_takes_over_refusers else "000 Chouette 10"
            role = "Captain"
        else:
            own = game.cubes.get(old)
            sits_out = old == game.initial_captain and own is not None and own.ended == Ending.BOX_DROPPED
            rule = "003 Atlanta 6.3" if sits_out else "003 Atlanta 6.2"
            role = "Acting Captain"
        game.captain_changes.append(
            {"after_event": game.events - 1, "from": old, "to": new, "role": role, "rule": rule}
        )
        game.captain = new

    def _pending_reason(self) -> str | None:
        game = self._current
        if game.window is not None:
            undecided = [game.cubes[k].team for k, c in game.window.items() if c is None]
            return f"the Team's doubling window is open (003 Atlanta 5.9): waiting for {', '.join(undecided)}"
        if game.consent is not None:
            undecided = [m for m, c in game.consent.items() if c is None]
            return f"partners are answering the Captain's double (000 Ch.8): waiting for {', '.join(undecided)}"
        if game.extras is not None:
            return "the extras round is open (003 Atlanta 5.7)"
        pending = [f"{s.responder} on {s.key}" for s in game.cubes.values() if s.pending]
        if pending:
            return f"offers await an answer: {', '.join(pending)}"
        return None

    def _double_ok(self, slot: ChouetteCube, side: int) -> bool:
        return slot.live and cube_rules.double_refusal(slot.cube, side, self.rules.game) is None

    @property
    def _current(self) -> ChouetteGame:
        """The game in progress (or the last one, between games). Raises :class:`ChouetteError` before the first
        game."""
        if self.game is None:
            raise ChouetteError("no game has been played yet; start one with start_game")
        return self.game

    def _offered_values(self, keys: list[str]) -> dict[str, int]:
        """The values just offered on the cubes ``keys`` (cube key → points), each with an offer pending."""
        values = {key: self._current.cubes[key].offered_value for key in keys}
        return {key: value for key, value in values.items() if value is not None}

    def _pay(self, payer: str, payee: str, points: int, why: str, cube: str | None = None) -> None:
        if points:
            self._current.transfers.append(Transfer(payer, payee, points, why, cube))

    def _require_playing(self) -> ChouetteGame:
        if self.phase != SessionPhase.PLAYING:
            raise ChouetteError(f"no game is in progress (the session is {self.phase}); start one with start_game")
        return self._current

    def _require_turn(self, side: Side) -> None:
        if self._current.on_roll != side:
            whose = self._current.on_roll or "nobody (before the first turn)"
            raise ChouetteError(f"a double is offered at one's own turn before rolling (RULES D1); on roll: {whose}")

    def _slot(self, key: str) -> ChouetteCube:
        if self.game is None or key not in self.game.cubes:
            known = ", ".join(self.game.cubes) if self.game else "none"
            raise ChouetteError(f"there is no cube {key!r} in this game; cubes: {known}")
        return self.game.cubes[key]

    # ========================================================================== seating (RULES C1, C2, C6)
    @event
    def seat(self, throws: Mapping[str, Any], stakes: Mapping[str, int] | None = None) -> list[str]:
        """Seat the founding members by their throws (RULES C1): ``throws`` member → throw (one die, or two dice /
        their total per ``rules.seating_dice``); highest is Box, next Captain, the rest rank by throw. Ties throw again
        among the tied only (:meth:`rethrow`). ``stakes``: member → multiple of the base stake (RULES C6).

        Returns the order once settled, else ``[]``. Raises :class:`ChouetteError` when already seated, for fewer than
        ``rules.min_members`` or more than ``rules.max_members`` members (C2), a bad name or throw.
        """
        if self.phase != SessionPhase.SEATING or self.ranking:
            raise ChouetteError("the chouette is already seated (or throwing off ties: use rethrow)")
        if not isinstance(throws, Mapping):
            raise ChouetteError("throws are given as {member: throw} (RULES C1)")
        members = list(throws)
        self._check_new_names(members)
        if len(members) < self.rules.min_members:
            raise ChouetteError(
                f"a chouette has at least {self.rules.min_members} members (000 Ch.1); got {len(members)}"
            )
        self._check_cap(len(members))
        new_stakes = self._check_stakes(stakes, members)
        self.ranking = apply_throws([members], throws, self.rules.seating_dice)
        self.stakes.update(new_stakes)
        for member in members:
            self._sheet.add_member(member)
        return self._seat_if_resolved()

    @event
    def rethrow(self, throws: Mapping[str, Any]) -> list[str]:
        """Throws of tied members only (RULES C1: 000 Ch.3 "only those tying throw again"; 003 6.4 for members
        joining together). Returns the settled order (seating) or the settled joiners (joining), else ``[]``.
        Raises :class:`ChouetteError` when no tie is waiting, or as :func:`~backgammon.chouette.seating.apply_throws`.
        """
        if self.phase == SessionPhase.SEATING and self.ranking:
            self.ranking = apply_throws(self.ranking, throws, self.rules.seating_dice)
            return self._seat_if_resolved()
        if self.joining:
            self.joining = apply_throws(self.joining, throws, self.rules.seating_dice)
            if is_resolved(self.joining):
                joined = resolved_order(self.joining)
                self.joining = []
                self._place(joined)
                return joined
            return []
        raise ChouetteError("nobody is waiting to throw off a tie")

    def _seat_if_resolved(self) -> list[str]:
        if not is_resolved(self.ranking):
            return []
        self.order = resolved_order(self.ranking)
        self.ranking = []
        self.phase = SessionPhase.READY
        return list(self.order)

    @event
    def join(
        self, members: Sequence[str], throws: Mapping[str, Any] | None = None, stakes: Mapping[str, int] | None = None
    ) -> list[str]:
        """New members join at the end of the Team (RULES C2: 000 Ch.4 "the last ranking member in the first game in
        which he participates"; 003 Atlanta 6.4). Two or more joining together throw for their order (``throws``,
        ties via :meth:`rethrow`). During a game they wait and are seated after the rotation. ``stakes`` as for
        :meth:`seat` (RULES C6). Returns the members placed now (``[]`` while a tie is thrown off).

        Raises :class:`ChouetteError` before seating, while another group is throwing, for a known or bad name,
        over ``rules.max_members``, or without throws for several joiners.
        """
        if self.phase == SessionPhase.SEATING:
            raise ChouetteError("the chouette is not seated yet: founding members throw with seat()")
        if self.joining:
            raise ChouetteError(f"{', '.join(m for g in self.joining for m in g)} are still throwing for their order")
        if isinstance(members, str) or not isinstance(members, Sequence) or not members:
            raise ChouetteError("join takes a list of new members' names")
        members = list(members)
        self._check_new_names(members)
        self._check_cap(len(self.members) + len(members))
        new_stakes = self._check_stakes(stakes, members)
        if len(members) == 1:
            if throws not in (None, {}) and set(throws) != set(members):
                raise ChouetteError("a member joining alone needs no throw")
            ranking = [members]
        else:
            if throws is None:
                raise ChouetteError(
                    f"{', '.join(members)} join together: they throw for their order at the end of the Team (003 6.4)"
                )
            ranking = apply_throws([members], throws, self.rules.seating_dice)
        self.stakes.update(new_stakes)
        for member in members:
            self._sheet.add_member(member)
        if not is_resolved(ranking):
            self.joining = ranking
            return []
        joined = resolved_order(ranking)
        self._place(joined)
        return joined

    def _place(self, joined: list[str]) -> None:
        if self.phase == SessionPhase.PLAYING:
            self.waiting.extend(joined)
        else:
            self.order.extend(joined)
            self.new_members.extend(joined)

    @event
    def retire(self, member: str) -> None:
        """``member`` leaves the chouette between games (his sheet column stays). Raises :class:`ChouetteError`
        during a game (unless he is still waiting to be seated) or for a stranger."""
        if member in self.waiting:
            self.waiting.remove(member)
        elif self.phase != SessionPhase.READY:
            raise ChouetteError("members leave the chouette between games (RULES C9 covers a temporary absence)")
        elif member not in self.order:
            raise ChouetteError(f"{member!r} is not in this chouette")
        else:
            self.order.remove(member)
        for name in (member, *[m for m, p in self.proxies.items() if p == member]):
            self.proxies.pop(name, None)
        if member in self.away:
            self.away.remove(member)
        if member in self.new_members:
            self.new_members.remove(member)

    @event
    def set_stake(self, member: str, stake: int) -> None:
        """Change ``member``'s multiple of the base stake between games (RULES C6; 003 Atlanta 2.3: "only if all
        participants agree" — the caller has their agreement). Raises :class:`ChouetteError` during a game, when the
        rules have no stake multiples, or for a stake that is not 1, 2, 4, …"""
        if self.phase != SessionPhase.READY:
            raise ChouetteError("stakes change between games only (003 Atlanta 2.3)")
        if member not in self.members:
            raise ChouetteError(f"{member!r} is not in this chouette")
        self.stakes.update(self._check_stakes({member: stake}, [member]))

    @event
    def relinquish_box(self) -> None:
        """The member scheduled to be Box declines and goes to the bottom of the rotation (003 Atlanta 6.1); everyone
        moves up one place. Raises :class:`ChouetteError` except between games."""
        if self.phase != SessionPhase.READY:
            raise ChouetteError("the box is relinquished between games (003 Atlanta 6.1)")
        self.order = relinquish_box(self.order)

    # ================================================================================== proxies (RULES C9)
    @event
    def leave(self, member: str, proxy: str | None = None) -> None:
        """``member`` leaves the scene for a while (RULES C9; 003 Atlanta 7.1), naming a ``proxy`` for his cube
        decisions, or none (the Captain acts for him). Raises :class:`ChouetteError` for a stranger, a member already
        away, or a proxy who is not another member."""
        self._check_member(member)
        if member in self.away:
            raise ChouetteError(f"{member} is already away")
        if proxy is not None:
            self._check_proxy(member, proxy)
            self.proxies[member] = proxy
        self.away.append(member)

    @event
    def stand_in(self, member: str) -> None:
        """``member`` stands in as Acting Captain for the Team's player, who is away (RULES C9, read with 003 Atlanta
        6.2): he rolls and plays the Team's checkers (classic: and doubles for the Team) until the game ends, or until
        he is away himself or out of the game while someone present is in it; the Captain keeps his seat, his cube and
        his place in the rotation, and the Acting Captain is the default proxy of members away without one (7.1).
        Raises :class:`ChouetteError` unless ``member`` is the one due (:meth:`stand_in_due`)."""
        due = self.stand_in_due()
        if due is None or member != due:
            raise ChouetteError(
                f"an Acting Captain stands in for an away Captain: the next Team member present ({due or 'nobody'}), "
                f"not {member!r}"
            )
        self._current.stand_in = member

    @event
    def come_back(self, member: str) -> None:
        """``member`` is back and decides for himself again (RULES C9). Raises :class:`ChouetteError` if he was not
        away."""
        if member not in self.away:
            raise ChouetteError(f"{member!r} is not away")
        self.away.remove(member)
        self.proxies.pop(member, None)

    @event
    def appoint_proxy(self, member: str, proxy: str, by: str | None = None) -> None:
        """``member`` (or, while he is away, whoever acts for him now: "the proxy may also appoint yet another proxy",
        003 Atlanta 7.1) names ``proxy``. Raises :class:`ChouetteError` for a stranger or an appointer with no
        right to appoint."""
        self._check_member(member)
        self._check_proxy(member, proxy)
        if by is not None and by != member and (member not in self.away or by != self.proxy_for(member)):
            raise ChouetteError(f"only {member} or the one acting for him now may appoint his proxy (7.1)")
        self.proxies[member] = proxy

    def _check_proxy(self, member: str, proxy: str) -> None:
        if proxy == member or proxy not in self.members:
            raise ChouetteError(f"a proxy is another participant of the chouette (003 Atlanta 7.1), not {proxy!r}")

    def _check_actor(self, member: str, by: str | None) -> None:
        if by is None or by == member:
            return
        if member not in self.away:
            raise ChouetteError(f"{member} is here and decides himself; a proxy acts only while he is away (7.1)")
        acting = self.proxy_for(member)
        if by != acting:
            raise ChouetteError(f"{acting} acts for {member} now (003 Atlanta 7.1), not {by}")

    def _check_member(self, member: str) -> None:
        if member not in self.members:
            raise ChouetteError(f"{member!r} is not in this chouette; members: {', '.join(self.members)}")

    def _check_new_names(self, names: list[str]) -> None:
        for name in names:
            if not isinstance(name, str) or not name.strip() or ">" in name:
                raise ChouetteError(f"a member's name is a non-empty string without '>', not {name!r}")
        if len(set(names)) != len(names):
            raise ChouetteError(f"a name appears twice: {names}")
        seated = [*self.members, *(m for group in self.joining for m in group)]
        known = [name for name in names if name in seated]
        if known:
            raise ChouetteError(f"{', '.join(known)} already sit in this chouette")

    def _check_cap(self, count: int) -> None:
        cap = self.rules.max_members
        if cap is not None and count > cap:
            raise ChouetteError(f"this chouette is limited to {cap} members (RULES C2; 003 Atlanta 6.4)")

    def _check_stakes(self, stakes: Mapping[str, int] | None, members: list[str]) -> dict[str, int]:
        if not stakes:
            return {}
        if not isinstance(stakes, Mapping):
            raise ChouetteError("stakes are {member: multiple}")
        result = {}
        for member, stake in stakes.items():
            if member not in members:
                raise ChouetteError(f"stake for {member!r}, who is not joining here")
            if not isinstance(stake, int) or isinstance(stake, bool) or stake < 1 or stake & (stake - 1):
                raise ChouetteError(
                    f"a stake multiple is 1, 2, 4, 8… (the cube starts there, 003 Atlanta 2.2), not {stake!r}"
                )
            if stake != 1 and not self.rules.stakes:
                raise ChouetteError("these rules have no stake multiples: each plays for a single stake (001 Ch.4)")
            result[member] = stake
        return result

    # ========================================================== turns and automatic doubles (RULES D1, G3)
    @event
    def opening_tie(self, members: Sequence[str] | None = None) -> list[str]:
        """An opening tie before the first turn raises the count of the cubes whose players agreed to automatic
        doubles (RULES G3; 000 §20a/b, 001 §15; 003 Atlanta 5.1 "by mutual agreement between Box and any number of the
        other players"), within ``rules.game`` (kind, limit, cap); cubes stay centred. ``members``: those who agreed
        (Atlanta; ``None`` = all); the classic single cube raises for all. Returns the keys raised (none when the rules
        have no automatic doubles or the limit is reached).
        """
        game = self._require_playing()
        if game.on_roll is not None:
            raise ChouetteError("automatic doubles come from the opening roll, before the first turn (RULES G3)")
        if members is not None and self.rules.single_cube:
            raise ChouetteError("the classic chouette has one count for the whole Team (RULES C4): omit members")
        own = {slot.team: slot for slot in game.own_live_cubes()}
        chosen = list(own) if members is None else list(members)
        strangers = [m for m in chosen if m not in own]
        if strangers:
            raise ChouetteError(f"{', '.join(map(str, strangers))} have no cube in this game")
        raised = []
        for member in chosen:
            slot = own[member]
            new = cube_rules.automatic_raise(slot.cube, self.rules.game, 0)
            if new != slot.cube:
                slot.cube = new
                raised.append(slot.key)
        return raised

    @event
    def turn(self, side: str) -> None:
        """The board game now has ``side`` (``"box"`` or ``"team"``) to roll, before the dice: the time to double
        (RULES D1: "only when it is the player's turn and before he has thrown"). At the Team's turn in the Atlanta
        family every member who may double gets the chance (the 5.9 window: :meth:`team_double`, :meth:`no_double`,
        :meth:`close_window`).

        Raises :class:`ChouetteError` for a bad side, the same side twice, or while a decision is pending.
        """
        game = self._require_playing()
        if side not in SIDES:
            raise ChouetteError(f"a side is 'box' or 'team', not {side!r}")
        if game.on_roll == side:
            raise ChouetteError(f"{side} was already on roll: turns alternate")
        reason = self._pending_reason()
        if reason:
            raise ChouetteError(f"the turn cannot pass yet: {reason}")
        game.on_roll = Side(side)
        game.doubled = []
        game.rolled = False
        if side == Side.TEAM and not self.rules.single_cube:
            entries: dict[str, str | None] = {
                slot.key: None for slot in game.live_cubes() if self._double_ok(slot, TEAM_SIDE)
            }
            game.window = entries or None

    def dice_thrown(self) -> None:
        """The board's dice of this turn are thrown (RULES D1: a double is offered "before he has thrown"): every
        cube event refuses until the next :meth:`turn`. Not a recorded event (the board's roll is in the board's
        record): the caller tells the session at each roll, and again after restoring it from JSON mid-turn.
        Raises :class:`ChouetteError` outside a game's turn."""
        game = self._require_playing()
        if game.on_roll is None:
            raise ChouetteError("the dice are thrown in a turn: no turn has started yet")
        game.rolled = True

    def _require_before_roll(self) -> None:
        if self._current.rolled:
            raise ChouetteError(
                f"the dice are thrown: a cube is turned only before the roll (RULES D1); {self._current.on_roll} "
                "is playing them"
            )

    # ========================================================================= doubling (RULES C4, C5, D1)
    @event
    def box_double(self, targets: Sequence[str] | None = None, in_order: bool = False) -> dict[str, int]:
        """Box doubles the cubes of ``targets`` (member names; ``None`` = every cube he may double) at his turn
        (RULES C5: 003 Atlanta 5.6 "Box may offer initial doubles selectively, and may also redouble selectively";
        classic C4: the one cube, so every live position). ``in_order``: Box insists that the Team answer in rotation
        order (5.8). Returns key → offered value.

        Raises :class:`ChouetteError` except at Box's turn with nothing pending and no double yet this turn, for a
        cube he may not double (owned by the Team, out of play, the cube limit), or a subset in the classic family.
        """
        game = self._require_playing()
        self._require_turn(Side.BOX)
        self._require_before_roll()
        if game.box in game.doubled:
            raise ChouetteError("Box has already doubled this turn")
        reason = self._pending_reason()
        if reason:
            raise ChouetteError(reason)
        own = game.own_live_cubes()
        if targets is None:
            keys = [slot.key for slot in own if self._double_ok(slot, BOX_SIDE)]
        elif isinstance(targets, str) or not isinstance(targets, Sequence):
            raise ChouetteError("targets is a list of Team members' names")
        else:
            keys = list(dict.fromkeys(targets))
        if not keys:
            raise ChouetteError("Box has no cube he may double now (owned by the Team, or out of play)")
        for key in keys:
            slot = self._slot(key)
            if slot.extra or slot.box != game.box or not slot.live:
                raise ChouetteError(f"Box doubles Team members' cubes in play; {key!r} is not one")
            refusal = cube_rules.double_refusal(slot.cube, BOX_SIDE, self.rules.game)
            if refusal:
                raise ChouetteError(f"{key}'s cube: {refusal}")
        if self.rules.single_cube and set(keys) != {slot.key for slot in own}:
            raise ChouetteError("the classic chouette has one cube: Box doubles the whole Team (RULES C4)")
        before = {key: game.cubes[key].value for key in keys}
        from_centre = set(keys) == {slot.key for slot in own} and all(game.cubes[k].cube.owner is None for k in keys)
        for key in keys:
            game.cubes[key].cube = cube_rules.offer_double(game.cubes[key].cube, BOX_SIDE)
        game.round = {
            "by": Side.BOX,
            "keys": keys,
            "from_centre": from_centre and len(keys) > 1,
            "half_rule": False,
            "in_order": bool(in_order),
            "before": before,
        }
        game.doubled.append(game.box)
        return self._offered_values(keys)

    @event
    def team_double(self, member: str, cube: str | None = None, by: str | None = None) -> dict[str, int]:
        """``member`` doubles Box at the Captain's turn (RULES C5; 003 Atlanta 5.9: any member whose cube may be
        turned, in the window; ``cube`` picks one when he holds several, e.g. an extra). Classic (RULES C4; 000 §20):
        only the Captain doubles, for the whole Team; partners may then refuse (000 Ch.8, rule option). ``by``: the
        proxy acting for an absent member (C9). Returns key → offered value.

        Raises :class:`ChouetteError` outside the Team's turn, for a member not in the window (or not the classic
        Captain), a cube he may not turn, or a second double in the same turn.
        """
        game = self._require_playing()
        self._require_turn(Side.TEAM)
        self._require_before_roll()
        self._check_actor(member, by)
        if self.rules.single_cube:
            if cube is not None:
                raise ChouetteError("the classic chouette has one cube: omit cube")
            if member != self.player:
                raise ChouetteError(f"in the classic chouette the Captain ({self.player}) doubles for the Team (C4)")
            if member in game.doubled:
                raise ChouetteError("the Captain has already doubled this turn")
            reason = self._pending_reason()
            if reason:
                raise ChouetteError(reason)
            live = game.live_cubes()
            for slot in live:
                refusal = cube_rules.double_refusal(slot.cube, TEAM_SIDE, self.rules.game)
                if refusal:
                    raise ChouetteError(refusal)
            keys = [slot.key for slot in live]
            before = {key: game.cubes[key].value for key in keys}
            for key in keys:
                game.cubes[key].cube = cube_rules.offer_double(game.cubes[key].cube, TEAM_SIDE)
            game.round = {
                "by": Side.TEAM,
                "keys": keys,
                "from_centre": False,
                "half_rule": False,
                "in_order": False,
                "before": before,
            }
            game.doubled.append(member)
            partners = [m for m in dict.fromkeys(s.team for s in live) if m != member]
            if self.rules.partners_may_refuse_team_double and partners:
                game.consent = dict.fromkeys(partners)
            return self._offered_values(keys)
        key = self._window_entry(member, cube)
        _required(game.window, "no doubling window is open")[key] = Action.DOUBLE
        game.cubes[key].cube = cube_rules.offer_double(game.cubes[key].cube, TEAM_SIDE)
        return self._offered_values([key])

    @event
    def no_double(self, member: str, cube: str | None = None, by: str | None = None) -> None:
        """``member`` does not double now (003 Atlanta 5.9): his window entries (or ``cube``) pass; the window closes
        once everyone in it has decided. Raises :class:`ChouetteError` when no window is open for him (in the classic
        family the Captain simply rolls)."""
        game = self._require_playing()
        self._check_actor(member, by)
        if self.rules.single_cube:
            raise ChouetteError("in the classic chouette only the Captain doubles; not doubling is just rolling")
        if cube is None:
            keys = [k for k, c in (game.window or {}).items() if c is None and game.cubes[k].team == member]
            if not keys:
                raise ChouetteError(f"{member} has no decision to make in the Team's doubling window")
        else:
            keys = [self._window_entry(member, cube)]
        window = _required(game.window, "no doubling window is open")
        for key in keys:
            window[key] = "pass"

    def _window_entry(self, member: str, cube: str | None) -> str:
        game = self._current
        if game.window is None:
            raise ChouetteError("the Team doubles at the Captain's turn, before he rolls (003 Atlanta 5.9)")
        mine = [k for k, c in game.window.items() if c is None and game.cubes[k].team == member]
        if cube is not None:
            if cube not in mine:
                raise ChouetteError(f"{member} may not double cube {cube!r} now; his open choices: {mine or 'none'}")
            return cube
        if not mine:
            raise ChouetteError(f"{member} has no cube he may double now (owned by Box, out of play, or decided)")
        if len(mine) > 1:
            raise ChouetteError(f"{member} holds several cubes he may double: say which ({', '.join(mine)})")
        return mine[0]

    @event
    def close_window(self) -> None:
        """The deadline of an open window has passed (RULES C5, "asynchronously that is a window with a deadline"):
        the undecided pass (5.9 window), go along with the Captain's double (000 Ch.8 consent) or offer no extra
        (5.7). Raises :class:`ChouetteError` when no window is open."""
        game = self._require_playing()
        if game.window is not None:
            for key, choice in game.window.items():
                if choice is None:
                    game.window[key] = "pass"
        elif game.consent is not None:
            for member, choice in game.consent.items():
                if choice is None:
                    game.consent[member] = "take"
        elif game.extras is not None and game.extras["stage"] == ExtrasStage.OFFERING:
            for member, choice in game.extras["offers"].items():
                if choice is None:
                    game.extras["offers"][member] = ExtraChoice.NONE
        else:
            raise ChouetteError("no window is open")

    @event
    def extra_double(self, giver: str, cube: str | None = None, by: str | None = None) -> dict[str, int]:
        """The giver of an extra redoubles its taker at Box's turn (003 Atlanta 5.7: "independent cube action between
        them and the lone player"). Raises :class:`ChouetteError` outside Box's turn, with something pending, or when
        he holds no extra he may double."""
        game = self._require_playing()
        self._require_turn(Side.BOX)
        self._require_before_roll()
        self._check_actor(giver, by)
        if giver in game.doubled:
            raise ChouetteError(f"{giver} has already doubled this turn")
        reason = self._pending_reason()
        if reason:
            raise ChouetteError(reason)
        mine = [s.key for s in game.live_cubes() if s.extra and s.box == giver and self._double_ok(s, BOX_SIDE)]
        if cube is not None:
            if cube not in mine:
                raise ChouetteError(f"{giver} may not double {cube!r} now; he may double: {mine or 'nothing'}")
            mine = [cube]
        if len(mine) != 1:
            raise ChouetteError(f"{giver} may double {mine or 'no extra'}: name exactly one cube")
        slot = game.cubes[mine[0]]
        slot.cube = cube_rules.offer_double(slot.cube, BOX_SIDE)
        game.doubled.append(giver)
        return self._offered_values([slot.key])

    # ======================================================================================== offer rounds
    def _close_window(self) -> None:
        game = self._current
        doubled = [k for k, c in _required(game.window, "no doubling window is open").items() if c == Action.DOUBLE]
        own_live = {slot.key for slot in game.own_live_cubes()}
        own_doubled = [k for k in doubled if not game.cubes[k].extra]
        all_from_centre = (
            len(own_doubled) > 1
            and set(own_doubled) == own_live
            and all(game.cubes[k].cube.owner is None for k in own_doubled)
        )
        game.window = None
        if doubled:
            game.round = {
                "by": Side.TEAM,
                "keys": doubled,
                "from_centre": all_from_centre,
                "half_rule": all_from_centre and self.rules.half_rule,
                "in_order": False,
                "before": {k: game.cubes[k].value for k in doubled},
            }

    def _resolve_round(self) -> None:
        game = self._current
        round_ = _required(game.round, "no offer round is open")
        game.round = None
        if round_["by"] != Side.BOX:
            return
        keys = [k for k in round_["keys"] if k in game.cubes]
        if self.rules.single_cube:
            refusing_captain = game.captain if any(game.cubes[k].team == game.captain for k in keys) else None
            if refusing_captain is not None and not game.in_play(refusing_captain):
                game.demoted.append(refusing_captain)
            self._update_captain()
            if self.rules.captain_takes_over_refusers and game.in_play(game.captain):
                for key in keys:
                    slot = game.cubes[key]
                    if slot.ended == Ending.TEAM_DROPPED and slot.team not in game.demoted:
                        self._take_over(slot, -slot.points)  # the refuser's forfeit (RULES C4, refuser_forfeits)
            return
        if self.rules.extras == Extras.OFF or not round_["from_centre"]:
            return
        takers = [k for k in keys if game.cubes[k].live]
        droppers = [game.cubes[k].team for k in keys if game.cubes[k].ended == Ending.TEAM_DROPPED]
        if len(takers) == 1 and droppers:
            game.extras = {
                "taker": game.cubes[takers[0]].team,
                "offers": dict.fromkeys(droppers),
                "stakes": {game.cubes[k].team: round_["before"][k] for k in keys if game.cubes[k].ended},
                "before": round_["before"][takers[0]],
                "keys": [],
                "stage": ExtrasStage.OFFERING,
            }

    def _take_over(self, slot: ChouetteCube, before: int) -> None:
        """001 Ch.9: the Active Player "must assume that partner's responsibility and take over his position whether
        for profit or loss", at the doubled value; with ``refuser_forfeit_to`` ``captain`` the forfeit goes to him."""
        game, refuser = self._current, slot.team
        if self.rules.refuser_forfeit_to == ForfeitTo.CAPTAIN:
            self._pay(
                game.box, game.captain, before, f"{refuser}'s forfeit passes to {game.captain} (001 Ch.9)", slot.key
            )
        slot.cube = cube_rules.take(slot.cube)
        slot.team, slot.status, slot.ended, slot.points = game.captain, CubeStatus.LIVE, None, 0

    # ====================================================================== answers (RULES C4, C5, D2, D3)
    @event
    def answer(self, member: str, decision: str, cube: str | None = None, by: str | None = None) -> None:
        """``member`` answers the offers waiting for him (all of them, or ``cube``): ``"take"``, ``"drop"``,
        ``"beaver"`` or ``"raccoon"`` (RULES D2–D3). This covers a Team member answering Box's double (C4: a drop
        forfeits "his count previous to the proposed double", 000 Ch.8), a partner going along with or refusing the
        classic Captain's double (000 Ch.8), a member answering Box's beaver of his double, the lone taker answering
        extras (5.7: "drop" changes his take to a drop, or with 5.7a drops that extra) and an extra's giver answering
        his taker. ``by``: the proxy of an absent member (C9).

        Raises :class:`ChouetteError` when nothing awaits him, while the Team's window is open, out of turn under
        5.8, or for a decision the cube rules forbid (beavers off, a raccoon with raccoons off…).
        """
        game = self._require_playing()
        self._check_actor(member, by)
        if decision not in DECISIONS:
            raise ChouetteError(f"a decision is one of {', '.join(DECISIONS)}, not {decision!r}")
        if member == game.box:
            raise ChouetteError("Box answers with box_answer")
        if game.window is not None:
            raise ChouetteError("the Team's doubling window is open: offers are answered once it closes (5.9)")
        if game.consent is not None:
            return self._consent(member, decision, cube)
        if game.extras is not None and game.extras["stage"] == ExtrasStage.OFFERING:
            raise ChouetteError("the droppers are deciding whether to offer extras (003 Atlanta 5.7)")
        if game.extras is not None and member == game.extras["taker"]:
            extras = [
                k for k in game.extras["keys"] if game.cubes[k].pending and game.cubes[k].cube.stage == Stage.DOUBLE
            ]
            if extras and (cube is None or cube in extras):
                return self._answer_extras(member, decision, extras if cube is None else [cube])
        slots = [s for s in game.cubes.values() if s.pending and s.responder == member and cube in (None, s.key)]
        if not slots:
            raise ChouetteError(f"no offer awaits {member}'s answer" + (f" on cube {cube!r}" if cube else ""))
        round_ = game.round
        if round_ and round_["in_order"]:
            for slot in slots:
                if slot.key in round_["keys"]:
                    earlier = [
                        k
                        for k in round_["keys"]
                        if game.cubes[k].pending
                        and game.cubes[k].responder == game.cubes[k].team
                        and game.rank(game.cubes[k].team) < game.rank(member)
                    ]
                    if earlier:
                        raise ChouetteError(f"Box insists on rotation order (5.8): {', '.join(earlier)} answer first")
        for slot in slots:
            self._respond(slot, decision)

    def raccoon(self, member: str, cube: str | None = None, by: str | None = None) -> None:
        """``answer(member, "raccoon")``: ``member`` raccoons the beaver of his double (RULES D3; 003 Atlanta 5.4)."""
        self.answer(member, "raccoon", cube, by)

    @event
    def box_answer(self, decisions: str | Mapping[str, str]) -> None:
        """Box answers the Team's doubles: one decision for every cube waiting for him, or cube key → decision.

        Atlanta: 5.11 — Box accepts or passes any number of redoubles, and of initial doubles unless the entire Team
        doubled together; 5.10 — when every cube was turned from the centre together (two or more) the first answer
        covers them all and Box "may drop or accept all cubes, or may accept at least one half" (a beaver counts as
        accepting); 5.10a (three-handed, option) — both or none. Classic (RULES C4): one cube, one decision for all.

        Raises :class:`ChouetteError` while the window or the partners' consent is open, for a cube not waiting for
        Box, an answer that breaks 5.10/5.10a or the single cube, or a decision the cube rules forbid.
        """
        game = self._require_playing()
        if game.window is not None or game.consent is not None:
            raise ChouetteError("Box answers once the Team has finished doubling (5.9) / the partners have answered")
        waiting = [s.key for s in game.cubes.values() if s.pending and s.responder == game.box]
        if not waiting:
            raise ChouetteError("no offer awaits Box's answer")
        if isinstance(decisions, str):
            chosen = dict.fromkeys(waiting, decisions)
        elif isinstance(decisions, Mapping) and decisions:
            chosen = dict(decisions)
        else:
            raise ChouetteError("decisions is a decision for all, or {cube: decision}")
        for key, decision in chosen.items():
            if key not in waiting:
                raise ChouetteError(f"cube {key!r} is not waiting for Box's answer; waiting: {', '.join(waiting)}")
            if decision not in DECISIONS:
                raise ChouetteError(f"a decision is one of {', '.join(DECISIONS)}, not {decision!r}")
        if self.rules.single_cube and (set(chosen) != set(waiting) or len(set(chosen.values())) != 1):
            raise ChouetteError("the classic chouette has one cube: Box gives one answer for the whole Team (C4)")
        round_ = game.round
        if round_ and round_["half_rule"]:
            own = [k for k in round_["keys"] if not game.cubes[k].extra]
            group = [k for k in own if game.cubes[k].pending and game.cubes[k].cube.stage == Stage.DOUBLE]
            if group and any(k in chosen for k in group):
                self._check_half_rule(group, chosen, len(own))
        for key in sorted(chosen, key=lambda k: game.rank(game.cubes[k].team)):
            self._respond(game.cubes[key], chosen[key])

    def _check_half_rule(self, group: list[str], chosen: dict[str, str], offered: int) -> None:
        missing = [k for k in group if k not in chosen]
        if missing:
            raise ChouetteError(
                f"every Team cube was turned from the centre: Box answers all of them at once (003 Atlanta 5.10); "
                f"missing {', '.join(missing)}"
            )
        accepted = sum(1 for k in group if chosen[k] in (Decision.TAKE, Decision.BEAVER))
        if self.rules.rule_5_10a and len(self._current.order) == 3 and offered == 2:
            if accepted == 1:
                raise ChouetteError("both cubes were turned from the centre: Box takes both or drops both (5.10a)")
        elif accepted > 0 and 2 * accepted < offered:
            raise ChouetteError(
                f"all {offered} cubes were turned from the centre: Box drops all or accepts at least half "
                f"(003 Atlanta 5.10); he accepts {accepted}"
            )

    def _answers(self, slot: ChouetteCube) -> tuple[str, ...]:
        """What the responder of ``slot`` may answer: :func:`backgammon.cube.answers` (the 1-on-1 game's own check,
        RULES D2, D3, D5), less what an extra's taker may not do (003 Atlanta 5.7: no raccoon; 5.7c: no drop)."""
        allowed = cube_rules.answers(slot.cube, self.rules.game)
        extras = self._current.extras
        if slot.extra and extras is not None and slot.responder == extras["taker"] and slot.cube.stage == Stage.DOUBLE:
            refused = {Decision.RACCOON} | ({Decision.DROP} if self._extras_rule() == Extras.RULE_5_7C else set())
            allowed = tuple(a for a in allowed if a not in refused)
        return allowed

    def _respond(self, slot: ChouetteCube, decision: str) -> None:
        """Apply one answer to one cube (RULES D2–D3 through backgammon.cube); a drop records the transfer."""
        side = _required(slot.cube.responder, f"no offer on {slot.key}'s cube awaits an answer")
        if decision == Decision.TAKE:
            slot.cube = cube_rules.take(slot.cube)
        elif decision == Decision.BEAVER:
            slot.cube = cube_rules.beaver(slot.cube, self.rules.game)
        elif decision == Decision.RACCOON:
            slot.cube = cube_rules.raccoon(slot.cube, self.rules.game)
        else:
            cube_rules.check_drop(slot.cube, self.rules.game)
            cost = slot.stake * cube_rules.drop_cost(slot.cube)
            if side == TEAM_SIDE and self.rules.single_cube and self.rules.refuser_forfeits == RefuserForfeits.STAKE:
                cost = slot.stake  # 001 Ch.9 "forfeiting his stake" read as the single stake (open point, rules.py)
            payer, payee = slot.holder(side), slot.holder(1 - side)
            rule = "RULES D2, 000 Ch.8" if self.rules.single_cube else "RULES D2, C5"
            self._pay(
                payer,
                payee,
                cost,
                f"{payer} dropped {slot.key}'s cube at {slot.offered_value} ({rule})",
                slot.key,
            )
            slot.status = CubeStatus.DROPPED
            slot.ended = Ending.TEAM_DROPPED if side == TEAM_SIDE else Ending.BOX_DROPPED
            slot.points = -cost if side == TEAM_SIDE else cost

    def _consent(self, member: str, decision: str, cube: str | None) -> None:
        """A classic partner goes along with (take) or refuses (drop) the Captain's double (000 Ch.8)."""
        game = self._current
        if cube is not None:
            raise ChouetteError("the classic chouette has one cube: omit cube")
        consent = _required(game.consent, "no Captain's double awaits the partners' answers")
        if consent.get(member, "x") is not None:
            raise ChouetteError(f"{member} has no answer to give to the Captain's double")
        if decision not in (Decision.TAKE, Decision.DROP):
            raise ChouetteError("a partner goes along with the Captain's double (take) or refuses it (drop), 000 Ch.8")
        consent[member] = Decision(decision)
        if decision == Decision.DROP:
            for slot in game.cubes_of(member):
                cost = slot.value
                self._pay(member, game.box, cost, f"{member} refused the Captain's double (000 Ch.8)", slot.key)
                slot.status, slot.ended, slot.points = CubeStatus.DROPPED, Ending.TEAM_DROPPED, -cost

    # ============================================================================ extras (003 Atlanta 5.7)
    @event
    def offer_extra(self, member: str, by: str | None = None) -> None:
        """A member who dropped Box's double offers the lone taker an extra (003 Atlanta 5.7): he will pay the taker
        the value of his undoubled cube and the taker holds his cube at double the value. Raises
        :class:`ChouetteError` unless an extras round is open and ``member`` is one of its droppers still deciding."""
        self._extra_choice(member, ExtraChoice.OFFER, by)

    @event
    def no_extra(self, member: str, by: str | None = None) -> None:
        """A dropper offers no extra (003 Atlanta 5.7: "no one is required to offer"). Errors as :meth:`offer_extra`."""
        self._extra_choice(member, ExtraChoice.NONE, by)

    def _extra_choice(self, member: str, choice: ExtraChoice, by: str | None) -> None:
        game = self._require_playing()
        self._check_actor(member, by)
        extras = game.extras
        if extras is None or extras["stage"] != ExtrasStage.OFFERING:
            raise ChouetteError("extras are offered when a lone player takes Box's double of every cube (5.7)")
        if extras["offers"].get(member, "x") is not None:
            raise ChouetteError(f"{member} is not a dropper deciding on an extra")
        extras["offers"][member] = choice

    def _extras_rule(self) -> Extras:
        rule = self.rules.extras
        if rule in (Extras.RULE_5_7B, Extras.RULE_5_7C) and len(self._current.order) != 3:
            return Extras.RULE_5_7
        return rule

    def _answer_extras(self, taker: str, decision: str, keys: list[str]) -> None:
        """The lone taker answers the extras offered him (003 Atlanta 5.7, 5.7a–c)."""
        game, rule = self._current, self._extras_rule()
        extras = _required(game.extras, "no extras round is open")
        if decision == Decision.RACCOON:
            raise ChouetteError("an extra is taken, beavered or (5.7a) dropped")
        if decision == Decision.DROP and rule == Extras.RULE_5_7C:
            raise ChouetteError("extras in a three-handed chouette must be taken (5.7c)")
        if decision == Decision.DROP and rule in (Extras.RULE_5_7, Extras.RULE_5_7B):
            offered = [k for k in extras["keys"] if game.cubes[k].pending]
            if keys != offered or len(offered) != len(extras["keys"]):
                raise ChouetteError(
                    "under 5.7 the taker accepts every extra or changes his take to a drop (all at once)"
                )
            own = game.cubes[taker]
            cost = extras["before"]
            self._pay(
                taker, own.box, cost, f"{taker} changed his take to a drop rather than accept extras (5.7)", taker
            )
            own.status, own.ended, own.points = CubeStatus.DROPPED, Ending.TEAM_DROPPED, -cost
            for key in extras["keys"]:
                del game.cubes[key]
            game.extras = None
            return
        for key in keys:
            slot = game.cubes[key]
            if decision in (Decision.TAKE, Decision.BEAVER):
                if decision == Decision.BEAVER:
                    cube_rules.check_beaver(slot.cube, self.rules.game)
                self._pay(
                    slot.box, taker, slot.stake, f"{slot.box} pays {taker} the undoubled value for an extra (5.7)", key
                )
            self._respond(slot, decision)

    def _open_extras(self) -> None:
        game = self._current
        extras = _required(game.extras, "no extras round is open")
        taker = extras["taker"]
        for giver, choice in extras["offers"].items():
            if choice == ExtraChoice.OFFER:
                key = extra_key(giver, taker)
                offer = Cube(value=1, offered=2, doubler=BOX_SIDE, stage=Stage.DOUBLE)
                slot = ChouetteCube(key, taker, taker, giver, extras["stakes"][giver], offer, extra=True)
                game.cubes[key] = slot
                extras["keys"].append(key)
        extras["stage"] = ExtrasStage.ANSWERING
        if not extras["keys"]:
            game.extras = None

    # ============================================================================= settlements (RULES C10)
    @event
    def settle(self, member: str, points: int) -> None:
        """Box and ``member`` settle his cube(s) with Box: ``member`` receives ``points`` (negative: pays) and is out of
        this game (RULES C10; 003 Atlanta 4.5 "Box may offer settlements to any player or number of players"; 4.2
        whole points, 4.3 fractions rolled off first). Raises :class:`ChouetteError` when settlements are off, while a
        decision is pending, or when ``member`` holds no cube with Box."""
        game = self._require_playing()
        if not self.rules.settlements:
            raise ChouetteError("settlements are not part of these rules (RULES C10 is optional)")
        if not isinstance(points, int) or isinstance(points, bool):
            raise ChouetteError(f"a settlement is a whole number of points (003 Atlanta 4.2–4.3), not {points!r}")
        reason = self._pending_reason()
        if reason:
            raise ChouetteError(reason)
        slots = [s for s in game.cubes_of(member) if not s.extra and s.box == game.box]
        if not slots:
            raise ChouetteError(f"{member} holds no cube with Box in this game")
        if points > 0:
            self._pay(game.box, member, points, f"settlement with {member} (C10)", slots[0].key)
        elif points < 0:
            self._pay(member, game.box, -points, f"settlement with {member} (C10)", slots[0].key)
        for index, slot in enumerate(slots):
            slot.status, slot.ended, slot.points = CubeStatus.SETTLED, Ending.SETTLED, points if index == 0 else 0

    @event
    def team_settle(self, seller: str, buyer: str, points: int, box_preempts: bool = False) -> None:
        """Two Team members settle between themselves (RULES C10; 003 Atlanta 4.4): ``buyer`` pays ``seller``
        ``points`` (whole points, 4.2–4.3; negative: the seller pays) for his interest in the game and takes over his
        cube(s) — "'A' offers 'B' ½ the cube value for his interest in the game in order to double" — so that the
        buyer answers, doubles and scores them from now on. With ``box_preempts`` Box preempts the settlement (4.4
        "Box may preempt the offer, paying 'B' in order to reduce the Team"): Box pays the seller the same points and
        the seller's cubes are settled with Box (as :meth:`settle`); the buyer keeps only his own.

        Raises :class:`ChouetteError` when settlements or Team settlements are off, while a decision is pending, for
        a seller or buyer without a live cube with Box, or for the same member twice."""
        game = self._require_playing()
        if not (self.rules.settlements and self.rules.team_settlements):
            raise ChouetteError("settlements between Team members are not part of these rules (003 Atlanta 4.4)")
        if not isinstance(points, int) or isinstance(points, bool):
            raise ChouetteError(f"a settlement is a whole number of points (003 Atlanta 4.2–4.3), not {points!r}")
        if seller == buyer:
            raise ChouetteError("a settlement between Team members needs two members")
        reason = self._pending_reason()
        if reason:
            raise ChouetteError(reason)
        sold = [s for s in game.cubes_of(seller) if not s.extra and s.box == game.box and s.live]
        if not sold:
            raise ChouetteError(f"{seller} holds no cube with Box in play in this game")
        if not any(s.live for s in game.cubes_of(buyer)):
            raise ChouetteError(f"{buyer} holds no cube in play: only a Team member still in the game may buy in (4.4)")
        if box_preempts:
            self.settle(seller, points)
            return
        key = sold[0].key
        if points > 0:
            self._pay(buyer, seller, points, f"{buyer} settles with {seller} for his interest (003 Atlanta 4.4)", key)
        elif points < 0:
            self._pay(seller, buyer, -points, f"{seller} settles with {buyer} for his interest (003 Atlanta 4.4)", key)
        for slot in sold:
            slot.team = buyer

    # ========================================================================= the end (RULES C3, C8, C11)
    @event
    def game_over(self, winner: str, result: str, ended_by: str = EndedBy.PLAY) -> dict[str, int]:
        """The board game ended: ``winner`` ``"box"`` or ``"team"``, ``result`` ``"single"``, ``"gammon"`` or
        ``"backgammon"`` (RULES G11), ``ended_by`` ``"play"`` or ``"resignation"`` (G12). Each cube still in play
        scores stake × value × the result, the result counting single on a cube not "in the game" under Jacoby (RULES
        D4; 003 Atlanta 1.5, 4.1) — per cube, between its two holders (C3). Then the Box side's total is split with
        the Partner (C7), the row goes on the sheet (C11) and the seats rotate (C8). Returns member → points.

        Raises :class:`ChouetteError` with a decision pending, or for a bad winner/result.
        """
        game = self._require_playing()
        if winner not in SIDES:
            raise ChouetteError(f"the winner is 'box' or 'team', not {winner!r}")
        if result not in LEVELS:
            raise ChouetteError(f"the result is single, gammon or backgammon, not {result!r}")
        if ended_by not in (EndedBy.PLAY, EndedBy.RESIGNATION):
            raise ChouetteError(f"ended_by is 'play' or 'resignation', not {ended_by!r}")
        side, ending = Side(winner), EndedBy(ended_by)
        reason = self._pending_reason()
        if reason:
            raise ChouetteError(f"the game cannot end yet: {reason}")
        for slot in game.live_cubes():
            multiplier = cube_rules.scored_multiplier(
                LEVELS[result], slot.cube, self.rules.game, 0, resignation=ending == EndedBy.RESIGNATION
            )
            points = slot.value * multiplier
            counted = f"{slot.value} × {multiplier}" + (
                " (Jacoby: not in the game, D4)" if multiplier < LEVELS[result] else ""
            )
            if side == Side.BOX:
                self._pay(slot.team, slot.box, points, f"{result} for the Box side on {slot.key}: {counted}", slot.key)
            else:
                self._pay(slot.box, slot.team, points, f"{result} for the Team side on {slot.key}: {counted}", slot.key)
            slot.status, slot.ended, slot.points = (
                CubeStatus.SCORED,
                Ending.SCORED,
                points if side == Side.TEAM else -points,
            )
        game.result = {"winner": side, "result": result}
        self._finish(ending)
        return dict(self._sheet.rows[-1].points)

    def board_over(self, result: Any, box_side: int) -> dict[str, int]:
        """:meth:`game_over` from a :class:`backgammon.game.GameResult` of the board, where Box played ``box_side``
        (0 or 1). A forfeit counts as a resignation at its level. Raises :class:`ChouetteError` for a board ended by
        a cube drop (the board's own cube is not used in a chouette)."""
        if getattr(result, "ended_by", None) == Action.DROP:
            raise ChouetteError("the board game's own cube is not used in a chouette: cubes are the session's")
        if box_side not in (0, 1):
            raise ChouetteError(f"box_side is 0 or 1, not {box_side!r}")
        winner = Side.BOX if result.winner == box_side else Side.TEAM
        ending = EndedBy.PLAY if result.ended_by == EndedBy.PLAY else EndedBy.RESIGNATION
        return self.game_over(winner, result.kind, ending)

    def _finish(self, ended_by: EndedBy) -> None:
        game = self._current
        box_net = net_points(game.transfers, [game.box])[game.box]
        if game.partner is not None:
            _, share = split_box_partner(box_net)
            if share > 0:
                self._pay(game.box, game.partner, share, "Partner's half of the Box side's win (C7, 003 Atlanta 4.2)")
            elif share < 0:
                self._pay(game.partner, game.box, -share, "Partner's half of the Box side's loss (C7, 003 Atlanta 4.2)")
        points = net_points(game.transfers, game.order)
        outcome = self._outcome(box_net)
        rules = self.rules
        following = rotate(
            game.order,
            outcome,
            break_even_rule=rules.break_even_rule,
            acting_captain_beats_box=rules.acting_captain_beats_box,
            last_rank_order=rules.last_rank_order,
        )
        marks = (
            loser_marks(
                outcome, break_even_rule=rules.break_even_rule, acting_captain_beats_box=rules.acting_captain_beats_box
            )
            if rules.circle_losers
            else None
        )
        self._sheet.add_row(
            SheetRow(
                game.number, game.box, game.initial_captain, game.partner, points, marks, list(following), ended_by
            )
        )
        game.outcome, game.ended_by, game.on_roll = outcome, ended_by, None
        game.window = game.consent = game.round = game.extras = None
        self.order = [*following, *self.waiting]
        self.new_members = list(self.waiting)
        self.waiting = []
        self.phase = SessionPhase.READY

    def _outcome(self, box_net: int) -> Outcome:
        game = self._current
        if self.rules.single_cube:
            final = None if game.captain in game.demoted else game.captain
            if final is None:
                result = OutcomeResult.BOX
            else:
                total = sum(s.points for s in game.cubes.values() if s.team == final and not s.live)
                result = OutcomeResult.TEAM if total > 0 else OutcomeResult.BOX if total < 0 else OutcomeResult.EVEN
            return Outcome(Family.CLASSIC, game.box, game.initial_captain, final, tuple(game.demoted), result, box_net)
        slot = game.cubes[game.initial_captain]
        if _beat_box(slot):
            result = OutcomeResult.TEAM
        elif slot.ended == Ending.SETTLED and slot.points == 0:
            result = OutcomeResult.ZERO
        else:
            result = OutcomeResult.BOX
        acting_won = False
        if game.captain != game.initial_captain and game.captain in game.cubes:
            own = game.cubes[game.captain]
            acting_won = _beat_box(own)
        return Outcome(Family.ATLANTA, game.box, game.initial_captain, game.captain, (), result, box_net, acting_won)

    # ===================================================================================== JSON and replay
    def to_json(self) -> dict[str, Any]:
        """The whole session as a JSON-friendly dict (rules, seats, game, sheet, history); see :meth:`from_json`."""
        return {
            "rules": self.rules.to_json(),
            "phase": self.phase,
            "ranking": copy.deepcopy(self.ranking),
            "order": list(self.order),
            "stakes": dict(self.stakes),
            "joining": copy.deepcopy(self.joining),
            "waiting": list(self.waiting),
            "new_members": list(self.new_members),
            "away": list(self.away),
            "proxies": dict(self.proxies),
            "game": None if self.game is None else self.game.to_json(),
            "sheet": self._sheet.to_json(),
            "history": copy.deepcopy(self.history),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChouetteSession:
        """Inverse of :meth:`to_json` (``from_json(s.to_json()).to_json() == s.to_json()``). Raises
        :class:`ChouetteError` for a malformed record, :class:`~backgammon.errors.RuleSetError` for bad rules."""
        try:
            session = cls(ChouetteRules.from_json(data["rules"]), data["sheet"]["base_stake"])
            if data["phase"] not in PHASES:
                raise ChouetteError(f"unknown phase {data['phase']!r}")
            session.phase = SessionPhase(data["phase"])
            session.ranking = copy.deepcopy(data["ranking"])
            session.order = list(data["order"])
            session.stakes = {str(k): int(v) for k, v in data["stakes"].items()}
            session.joining = copy.deepcopy(data["joining"])
            session.waiting = list(data["waiting"])
            session.new_members = list(data["new_members"])
            session.away = list(data["away"])
            session.proxies = dict(data["proxies"])
            session.game = None if data["game"] is None else ChouetteGame.from_json(data["game"])
            session._sheet = ScoreSheet.from_json(data["sheet"])
            session.history = copy.deepcopy(data["history"])
        except (KeyError, TypeError, AttributeError) as error:
            raise ChouetteError(f"malformed chouette session record: {error}") from None
        if session.phase == SessionPhase.PLAYING and session.game is None:
            raise ChouetteError("a session that is playing needs its game")
        return session

    def apply(self, event: Mapping[str, Any]) -> Any:
        """Apply one recorded event ``{"event": name, "args": {...}}`` (as in ``history``). Raises
        :class:`ChouetteError` for an unknown event, and whatever the event raises."""
        name = event.get("event") if isinstance(event, Mapping) else None
        method = getattr(type(self), name, None) if isinstance(name, str) else None
        if not isinstance(name, str) or method is None or not getattr(method, "is_event", False):
            raise ChouetteError(f"unknown chouette event {event!r}")
        return getattr(self, name)(**dict(event.get("args", {})))

    @classmethod
    def replay(
        cls, rules: ChouetteRules, history: Sequence[Mapping[str, Any]], base_stake: float = 1
    ) -> ChouetteSession:
        """A session rebuilt by applying ``history`` to a new session (DESIGN: the log is the record)."""
        session = cls(rules, base_stake)
        for entry in history:
            session.apply(entry)
        return session


def _beat_box(slot: ChouetteCube) -> bool:
    """True when ``slot``'s Team-side holder beat Box on it: Box dropped it, or it scored or settled in his favour
    (003 Atlanta 6.1, 6.3)."""
    return slot.ended == Ending.BOX_DROPPED or (slot.ended in (Ending.SCORED, Ending.SETTLED) and slot.points > 0)


def _required(value: _T | None, message: str) -> _T:
    """``value``, which the state guarantees at this point; raises :class:`ChouetteError` with ``message`` if absent."""
    if value is None:
        raise ChouetteError(message)
    return value


EVENTS = tuple(name for name in dir(ChouetteSession) if getattr(getattr(ChouetteSession, name), "is_event", False))
"""The names of the session's events (the methods recorded in ``history``)."""
