"""A chouette session as a state machine of events (RULES C1–C11), for both rule families.

The session seats the members (C1), takes in new ones (C2), runs each game's cubes between Box and every Team member
(C3–C7), rotates the seats (C8), lets absent members act through proxies (C9), takes settlements (C10) and keeps the
score sheet (C11). It moves no checkers: the board game between Box and Captain is a normal
:class:`backgammon.game.Game`; the caller tells the session whose turn it is (:meth:`ChouetteSession.turn`) and how
the board ended (:meth:`ChouetteSession.game_over` / :meth:`ChouetteSession.board_over`).

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

Decisions are ``"take"``, ``"drop"``, ``"beaver"`` and ``"raccoon"`` (RULES D2–D3 per cube).

The session is split along its seams: :mod:`~backgammon.chouette.membership` (seating, joining, stakes, proxies),
:mod:`~backgammon.chouette.doubling`, :mod:`~backgammon.chouette.answers` and :mod:`~backgammon.chouette.extras` (the
cube events: turns and doubles, answers, extras), :mod:`~backgammon.chouette.settlement` (settlements and the
end of a game) and :mod:`~backgammon.chouette.record` (JSON and replay); this module keeps the state, the views,
the start of a game and the bookkeeping after each event.
"""

from __future__ import annotations

import copy
from typing import Any

from .. import cube as cube_rules
from ..cube import Cube
from ..errors import ChouetteError
from .answers import AnswerEvents
from .cubes import BOX_SIDE, TEAM_SIDE, ChouetteCube, Transfer
from .doubling import DoublingEvents
from .events import DECISIONS, Awaiting, event
from .extras import ExtrasEvents
from .game import ChouetteGame
from .membership import MembershipEvents
from .record import PHASES, SessionRecord
from .rules import ChouetteRules
from .settlement import SettlementEvents
from .sheet import ScoreSheet, SheetRow

__all__ = ["DECISIONS", "EVENTS", "PHASES", "Awaiting", "ChouetteSession"]


class ChouetteSession(MembershipEvents, DoublingEvents, AnswerEvents, ExtrasEvents, SettlementEvents, SessionRecord):
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
        self.phase = "seating"
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
        if self.phase == "playing":
            return self.game.box
        return self.order[0] if self.order else None

    @property
    def captain(self) -> str | None:
        """The Captain (or Acting Captain) now; between games, the next Captain (RULES C8)."""
        if self.phase == "playing":
            return self.game.captain
        return self.order[1] if len(self.order) > 1 else None

    @property
    def partner(self) -> str | None:
        """Box's Partner in the current game (RULES C7), or ``None``."""
        return self.game.partner if self.phase == "playing" else None

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
        if self.phase != "ready":
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

    def proxy_for(self, member: str) -> str:
        """Who makes ``member``'s cube decisions now (RULES C9; 003 Atlanta 7.1): himself when present; else the proxy
        he (or his proxy) appointed, following proxies of proxies who are away too; the Captain when there is none
        (or the chain loops). Box decides for himself. Raises :class:`ChouetteError` for a stranger."""
        if member not in self.members:
            raise ChouetteError(f"{member!r} is not in this chouette; members: {', '.join(self.members)}")
        if member == self.box:
            return member
        seen, current = {member}, member
        while current in self.away:
            following = self.proxies.get(current)
            if following is None or following in seen:
                return self.captain or member
            seen.add(following)
            current = following
        return current

    def awaiting(self) -> list[Awaiting]:
        """Every decision someone must make before the game can go on (who, for whom, which actions, which cubes)."""
        if self.phase != "playing":
            return []
        game, result = self.game, []
        if game.window is not None:
            for key, choice in game.window.items():
                if choice is None:
                    member = game.cubes[key].team
                    result.append(Awaiting(member, self.proxy_for(member), ("double", "no_double"), (key,)))
            return result
        if game.consent is not None:
            for member, choice in game.consent.items():
                if choice is None:
                    keys = tuple(slot.key for slot in game.cubes_of(member))
                    result.append(Awaiting(member, self.proxy_for(member), ("take", "drop"), keys))
            return result
        if game.extras is not None and game.extras["stage"] == "offering":
            for member, choice in game.extras["offers"].items():
                if choice is None:
                    result.append(Awaiting(member, self.proxy_for(member), ("offer_extra", "no_extra"), ()))
            return result
        by_responder: dict[str, list[ChouetteCube]] = {}
        for slot in game.cubes.values():
            if slot.pending:
                by_responder.setdefault(slot.responder, []).append(slot)
        for member, slots in by_responder.items():
            actions = sorted({action for slot in slots for action in self._answers(slot)}, key=DECISIONS.index)
            actor = member if member == game.box else self.proxy_for(member)
            result.append(Awaiting(member, actor, tuple(actions), tuple(slot.key for slot in slots)))
        return result

    def may_double(self, actor: str) -> list[str]:
        """The cube keys ``actor`` may double now (the Box or an extra's giver at Box's turn; a Team member in the
        Team's window, 003 Atlanta 5.9; the classic Captain at his turn, RULES C4); ``[]`` if none (RULES D1)."""
        if self.phase != "playing":
            return []
        game = self.game
        if game.window is not None:
            return [k for k, c in game.window.items() if c is None and game.cubes[k].team == actor]
        if self._pending_reason() or actor in game.doubled or game.rolled:
            return []
        if game.on_roll == "box":
            return [slot.key for slot in game.live_cubes() if slot.box == actor and self._double_ok(slot, BOX_SIDE)]
        if game.on_roll == "team" and self.rules.single_cube and actor == game.captain:
            live = game.live_cubes()
            return [slot.key for slot in live] if all(self._double_ok(s, TEAM_SIDE) for s in live) else []
        return []

    # ====================================================================== the game: seats (RULES C3, C7)
    @event
    def start_game(self, partner: str | None = "auto") -> ChouetteGame:
        """Start the next game with the current order: Box ``order[0]``, Captain ``order[1]``, every other member on
        the Team with his own cube at his stake (RULES C3, C5, C6) — in the classic family the cubes move as one
        (C4). ``partner``: ``"auto"`` (:meth:`default_partner`), ``None`` (Box plays solo) or a Team member other than
        the Captain (RULES C7). Box's circled scores are crossed through (10.1).

        Raises :class:`ChouetteError` unless between games with at least ``rules.min_members`` seated and no tie
        being thrown, or for a Partner the rules or the size do not allow.
        """
        if self.phase != "ready":
            raise ChouetteError(f"a game starts between games; the session is {self.phase}")
        if self.joining:
            raise ChouetteError("members joining together are still throwing for their order")
        if len(self.order) < self.rules.min_members:
            raise ChouetteError(f"a chouette needs {self.rules.min_members} members; seated: {len(self.order)}")
        if partner == "auto":
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
        self.phase = "playing"
        return copy.deepcopy(self.game)

    # ========================================================================================= bookkeeping
    def _progress(self) -> None:
        """After each event in a game: close what is complete, resolve finished offer rounds, move the captaincy,
        end the game when no cube is left in play."""
        game = self.game
        if game.consent is not None and all(c is not None for c in game.consent.values()):
            game.consent = None
        if game.window is not None and all(c is not None for c in game.window.values()):
            self._close_window()
        if game.round is not None and not any(game.cubes[k].pending for k in game.round["keys"] if k in game.cubes):
            self._resolve_round()
        extras = game.extras
        if (
            extras is not None
            and extras["stage"] == "offering"
            and all(c is not None for c in extras["offers"].values())
        ):
            self._open_extras()
        extras = game.extras
        offers_open = extras is not None and any(
            game.cubes[k].pending and game.cubes[k].cube.stage == "double" for k in extras["keys"]
        )
        if extras is not None and extras["stage"] == "answering" and not offers_open:
            game.extras = None
        if not (self.rules.single_cube and game.round is not None):
            self._update_captain()
        if not game.live_cubes():
            self._finish("drops")

    def _update_captain(self) -> None:
        game = self.game
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
            sits_out = old == game.initial_captain and own is not None and own.ended == "box_dropped"
            rule = "003 Atlanta 6.3" if sits_out else "003 Atlanta 6.2"
            role = "Acting Captain"
        game.captain_changes.append(
            {"after_event": game.events - 1, "from": old, "to": new, "role": role, "rule": rule}
        )
        game.captain = new

    def _pending_reason(self) -> str | None:
        game = self.game
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

    def _pay(self, payer: str, payee: str, points: int, why: str, cube: str | None = None) -> None:
        if points:
            self.game.transfers.append(Transfer(payer, payee, points, why, cube))

    def _require_playing(self) -> ChouetteGame:
        if self.phase != "playing":
            raise ChouetteError(f"no game is in progress (the session is {self.phase}); start one with start_game")
        return self.game

    def _require_turn(self, side: str) -> None:
        if self.game.on_roll != side:
            whose = self.game.on_roll or "nobody (before the first turn)"
            raise ChouetteError(f"a double is offered at one's own turn before rolling (RULES D1); on roll: {whose}")

    def _slot(self, key: str) -> ChouetteCube:
        if self.game is None or key not in self.game.cubes:
            known = ", ".join(self.game.cubes) if self.game else "none"
            raise ChouetteError(f"there is no cube {key!r} in this game; cubes: {known}")
        return self.game.cubes[key]


EVENTS = tuple(name for name in dir(ChouetteSession) if getattr(getattr(ChouetteSession, name), "is_event", False))
"""The names of the session's events (the methods recorded in ``history``)."""
