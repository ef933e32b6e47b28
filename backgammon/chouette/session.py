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
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from .. import cube as cube_rules
from ..cube import Cube
from ..errors import ChouetteError
from .cubes import BOX_SIDE, LEVELS, TEAM_SIDE, ChouetteCube, Transfer, net_points
from .doubling import DoublingEvents
from .events import DECISIONS, Awaiting, event
from .game import SIDES, ChouetteGame
from .rotation import Outcome, loser_marks, relinquish_box
from .rotation import next_order as rotate
from .rules import ChouetteRules
from .seating import apply_throws, is_resolved, resolved_order
from .sheet import ScoreSheet, SheetRow, split_box_partner

PHASES = ("seating", "ready", "playing")


class ChouetteSession(DoublingEvents):
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

    # ========================================================================== seating (RULES C1, C2, C6)
    @event
    def seat(self, throws: Mapping[str, Any], stakes: Mapping[str, int] | None = None) -> list[str]:
        """Seat the founding members by their throws (RULES C1): ``throws`` member → throw (one die, or two dice /
        their total per ``rules.seating_dice``); highest is Box, next Captain, the rest rank by throw. Ties throw again
        among the tied only (:meth:`rethrow`). ``stakes``: member → multiple of the base stake (RULES C6).

        Returns the order once settled, else ``[]``. Raises :class:`ChouetteError` when already seated, for fewer than
        ``rules.min_members`` or more than ``rules.max_members`` members (C2), a bad name or throw.
        """
        if self.phase != "seating" or self.ranking:
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
        if self.phase == "seating" and self.ranking:
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
        self.phase = "ready"
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
        if self.phase == "seating":
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
        if self.phase == "playing":
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
        elif self.phase != "ready":
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
        if self.phase != "ready":
            raise ChouetteError("stakes change between games only (003 Atlanta 2.3)")
        if member not in self.members:
            raise ChouetteError(f"{member!r} is not in this chouette")
        self.stakes.update(self._check_stakes({member: stake}, [member]))

    @event
    def relinquish_box(self) -> None:
        """The member scheduled to be Box declines and goes to the bottom of the rotation (003 Atlanta 6.1); everyone
        moves up one place. Raises :class:`ChouetteError` except between games."""
        if self.phase != "ready":
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
            slot.status, slot.ended, slot.points = "settled", "settled", points if index == 0 else 0

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
    def game_over(self, winner: str, result: str, ended_by: str = "play") -> dict[str, int]:
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
        if ended_by not in ("play", "resignation"):
            raise ChouetteError(f"ended_by is 'play' or 'resignation', not {ended_by!r}")
        reason = self._pending_reason()
        if reason:
            raise ChouetteError(f"the game cannot end yet: {reason}")
        for slot in game.live_cubes():
            multiplier = cube_rules.scored_multiplier(
                LEVELS[result], slot.cube, self.rules.game, 0, resignation=ended_by == "resignation"
            )
            points = slot.value * multiplier
            counted = f"{slot.value} × {multiplier}" + (
                " (Jacoby: not in the game, D4)" if multiplier < LEVELS[result] else ""
            )
            if winner == "box":
                self._pay(slot.team, slot.box, points, f"{result} for the Box side on {slot.key}: {counted}", slot.key)
            else:
                self._pay(slot.box, slot.team, points, f"{result} for the Team side on {slot.key}: {counted}", slot.key)
            slot.status, slot.ended, slot.points = "scored", "scored", points if winner == "team" else -points
        game.result = {"winner": winner, "result": result}
        self._finish(ended_by)
        return dict(self._sheet.rows[-1].points)

    def board_over(self, result: Any, box_side: int) -> dict[str, int]:
        """:meth:`game_over` from a :class:`backgammon.game.GameResult` of the board, where Box played ``box_side``
        (0 or 1). A forfeit counts as a resignation at its level. Raises :class:`ChouetteError` for a board ended by
        a cube drop (the board's own cube is not used in a chouette)."""
        if getattr(result, "ended_by", None) == "drop":
            raise ChouetteError("the board game's own cube is not used in a chouette: cubes are the session's")
        if box_side not in (0, 1):
            raise ChouetteError(f"box_side is 0 or 1, not {box_side!r}")
        winner = "box" if result.winner == box_side else "team"
        return self.game_over(winner, result.kind, "play" if result.ended_by == "play" else "resignation")

    def _finish(self, ended_by: str) -> None:
        game = self.game
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
        self.phase = "ready"

    def _outcome(self, box_net: int) -> Outcome:
        game = self.game
        if self.rules.single_cube:
            final = None if game.captain in game.demoted else game.captain
            if final is None:
                result = "box"
            else:
                total = sum(s.points for s in game.cubes.values() if s.team == final and s.status != "live")
                result = "team" if total > 0 else "box" if total < 0 else "even"
            return Outcome("classic", game.box, game.initial_captain, final, tuple(game.demoted), result, box_net)
        slot = game.cubes[game.initial_captain]
        if slot.ended == "box_dropped" or (slot.ended in ("scored", "settled") and slot.points > 0):
            result = "team"
        elif slot.ended == "settled" and slot.points == 0:
            result = "zero"
        else:
            result = "box"
        acting_won = False
        if game.captain != game.initial_captain and game.captain in game.cubes:
            own = game.cubes[game.captain]
            acting_won = own.ended == "box_dropped" or (own.ended in ("scored", "settled") and own.points > 0)
        return Outcome("atlanta", game.box, game.initial_captain, game.captain, (), result, box_net, acting_won)

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
            session.phase = data["phase"]
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
        if session.phase == "playing" and session.game is None:
            raise ChouetteError("a session that is playing needs its game")
        return session

    def apply(self, event: Mapping[str, Any]) -> Any:
        """Apply one recorded event ``{"event": name, "args": {...}}`` (as in ``history``). Raises
        :class:`ChouetteError` for an unknown event, and whatever the event raises."""
        name = event.get("event") if isinstance(event, Mapping) else None
        method = getattr(type(self), name, None) if isinstance(name, str) else None
        if method is None or not getattr(method, "is_event", False):
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


EVENTS = tuple(name for name in dir(ChouetteSession) if getattr(getattr(ChouetteSession, name), "is_event", False))
"""The names of the session's events (the methods recorded in ``history``)."""
