"""The cube events of a chouette game (RULES C4, C5, D1–D4): turns, doubles, answers, extras and offer rounds.

:class:`DoublingEvents` is a mixin of :class:`~backgammon.chouette.session.ChouetteSession` (it uses the session's
``rules``, ``game`` and helpers). The cube arithmetic itself — offers, takes, beavers, raccoons, drop costs, the cube
limit, Jacoby — is :mod:`backgammon.cube`'s, applied per cube with side 0 = the Box side and side 1 = the Team side.

Who doubles and who answers:

- Box doubles at his turn any cubes he may turn, selectively (003 Atlanta 5.6); classic: the one Team cube (C4).
- At the Captain's turn, Atlanta: a window where every member whose cube may be turned doubles or passes ("hold the
  roll", 5.9), closing when all have decided or at the deadline (:meth:`DoublingEvents.close_window`); classic: the
  Captain doubles for the Team and partners may go along or refuse (000 Ch.8, option).
- Team members answer Box in any order unless Box insists on rotation order (5.8); Box answers the Team's doubles
  under 5.10/5.10a/5.11; a drop is paid at once (10.1) — "his count previous to the proposed double" (000 Ch.8).
- Extras (5.7, 5.7a–c): when Box doubles every cube from the centre and a lone player takes, each dropper may offer
  him an extra.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .. import cube as cube_rules
from ..cube import Cube
from ..errors import ChouetteError
from .cubes import BOX_SIDE, TEAM_SIDE, ChouetteCube, extra_key
from .events import DECISIONS, event
from .game import SIDES

if TYPE_CHECKING:
    from .game import ChouetteGame
    from .rules import ChouetteRules


class DoublingEvents:
    """The cube events of :class:`~backgammon.chouette.session.ChouetteSession` (see the module docstring)."""

    rules: ChouetteRules
    game: ChouetteGame

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
        game.on_roll = side
        game.doubled = []
        game.rolled = False
        if side == "team" and not self.rules.single_cube:
            entries = {slot.key: None for slot in game.live_cubes() if self._double_ok(slot, TEAM_SIDE)}
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
        if self.game.rolled:
            raise ChouetteError(
                f"the dice are thrown: a cube is turned only before the roll (RULES D1); {self.game.on_roll} "
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
        self._require_turn("box")
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
            "by": "box",
            "keys": keys,
            "from_centre": from_centre and len(keys) > 1,
            "half_rule": False,
            "in_order": bool(in_order),
            "before": before,
        }
        game.doubled.append(game.box)
        return {key: game.cubes[key].offered_value for key in keys}

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
        self._require_turn("team")
        self._require_before_roll()
        self._check_actor(member, by)
        if self.rules.single_cube:
            if cube is not None:
                raise ChouetteError("the classic chouette has one cube: omit cube")
            if member != game.captain:
                raise ChouetteError(f"in the classic chouette the Captain ({game.captain}) doubles for the Team (C4)")
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
                "by": "team",
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
            return {key: game.cubes[key].offered_value for key in keys}
        key = self._window_entry(member, cube)
        game.window[key] = "double"
        game.cubes[key].cube = cube_rules.offer_double(game.cubes[key].cube, TEAM_SIDE)
        return {key: game.cubes[key].offered_value}

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
        for key in keys:
            game.window[key] = "pass"

    def _window_entry(self, member: str, cube: str | None) -> str:
        game = self.game
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
        elif game.extras is not None and game.extras["stage"] == "offering":
            for member, choice in game.extras["offers"].items():
                if choice is None:
                    game.extras["offers"][member] = "none"
        else:
            raise ChouetteError("no window is open")

    @event
    def extra_double(self, giver: str, cube: str | None = None, by: str | None = None) -> dict[str, int]:
        """The giver of an extra redoubles its taker at Box's turn (003 Atlanta 5.7: "independent cube action between
        them and the lone player"). Raises :class:`ChouetteError` outside Box's turn, with something pending, or when
        he holds no extra he may double."""
        game = self._require_playing()
        self._require_turn("box")
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
        return {slot.key: slot.offered_value}

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
        if game.extras is not None and game.extras["stage"] == "offering":
            raise ChouetteError("the droppers are deciding whether to offer extras (003 Atlanta 5.7)")
        if game.extras is not None and member == game.extras["taker"]:
            extras = [k for k in game.extras["keys"] if game.cubes[k].pending and game.cubes[k].cube.stage == "double"]
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
            group = [k for k in own if game.cubes[k].pending and game.cubes[k].cube.stage == "double"]
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
        accepted = sum(1 for k in group if chosen[k] in ("take", "beaver"))
        if self.rules.rule_5_10a and len(self.game.order) == 3 and offered == 2:
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
        extras = self.game.extras
        if slot.extra and extras is not None and slot.responder == extras["taker"] and slot.cube.stage == "double":
            refused = {"raccoon"} | ({"drop"} if self._extras_rule() == "5.7c" else set())
            allowed = tuple(a for a in allowed if a not in refused)
        return allowed

    def _respond(self, slot: ChouetteCube, decision: str) -> None:
        """Apply one answer to one cube (RULES D2–D3 through backgammon.cube); a drop records the transfer."""
        side = slot.cube.responder
        if decision == "take":
            slot.cube = cube_rules.take(slot.cube)
        elif decision == "beaver":
            slot.cube = cube_rules.beaver(slot.cube, self.rules.game)
        elif decision == "raccoon":
            slot.cube = cube_rules.raccoon(slot.cube, self.rules.game)
        else:
            cube_rules.check_drop(slot.cube, self.rules.game)
            cost = slot.stake * cube_rules.drop_cost(slot.cube)
            if side == TEAM_SIDE and self.rules.single_cube and self.rules.refuser_forfeits == "stake":
                cost = slot.stake  # 001 Ch.9 "forfeiting his stake" read as the single stake (open point, rules.py)
            payer, payee = slot.holder(side), slot.holder(1 - side)
            rule = "RULES D2, 000 Ch.8" if self.rules.single_cube else "RULES D2, C5"
            self._pay(
                payer,
                payee,
                cost,
                f"{payer} dropped {slot.key}'s cube at {slot.stake * slot.cube.offered_count} ({rule})",
                slot.key,
            )
            slot.status = "dropped"
            slot.ended = "team_dropped" if side == TEAM_SIDE else "box_dropped"
            slot.points = -cost if side == TEAM_SIDE else cost

    def _consent(self, member: str, decision: str, cube: str | None) -> None:
        """A classic partner goes along with (take) or refuses (drop) the Captain's double (000 Ch.8)."""
        game = self.game
        if cube is not None:
            raise ChouetteError("the classic chouette has one cube: omit cube")
        if game.consent.get(member, "x") is not None:
            raise ChouetteError(f"{member} has no answer to give to the Captain's double")
        if decision not in ("take", "drop"):
            raise ChouetteError("a partner goes along with the Captain's double (take) or refuses it (drop), 000 Ch.8")
        game.consent[member] = decision
        if decision == "drop":
            for slot in game.cubes_of(member):
                cost = slot.value
                self._pay(member, game.box, cost, f"{member} refused the Captain's double (000 Ch.8)", slot.key)
                slot.status, slot.ended, slot.points = "dropped", "team_dropped", -cost

    # ============================================================================ extras (003 Atlanta 5.7)
    @event
    def offer_extra(self, member: str, by: str | None = None) -> None:
        """A member who dropped Box's double offers the lone taker an extra (003 Atlanta 5.7): he will pay the taker
        the value of his undoubled cube and the taker holds his cube at double the value. Raises
        :class:`ChouetteError` unless an extras round is open and ``member`` is one of its droppers still deciding."""
        self._extra_choice(member, "offer", by)

    @event
    def no_extra(self, member: str, by: str | None = None) -> None:
        """A dropper offers no extra (003 Atlanta 5.7: "no one is required to offer"). Errors as :meth:`offer_extra`."""
        self._extra_choice(member, "none", by)

    def _extra_choice(self, member: str, choice: str, by: str | None) -> None:
        game = self._require_playing()
        self._check_actor(member, by)
        extras = game.extras
        if extras is None or extras["stage"] != "offering":
            raise ChouetteError("extras are offered when a lone player takes Box's double of every cube (5.7)")
        if extras["offers"].get(member, "x") is not None:
            raise ChouetteError(f"{member} is not a dropper deciding on an extra")
        extras["offers"][member] = choice

    def _extras_rule(self) -> str:
        rule = self.rules.extras
        if rule in ("5.7b", "5.7c") and len(self.game.order) != 3:
            return "5.7"
        return rule

    def _answer_extras(self, taker: str, decision: str, keys: list[str]) -> None:
        """The lone taker answers the extras offered him (003 Atlanta 5.7, 5.7a–c)."""
        game, rule = self.game, self._extras_rule()
        if decision == "raccoon":
            raise ChouetteError("an extra is taken, beavered or (5.7a) dropped")
        if decision == "drop" and rule == "5.7c":
            raise ChouetteError("extras in a three-handed chouette must be taken (5.7c)")
        if decision == "drop" and rule in ("5.7", "5.7b"):
            offered = [k for k in game.extras["keys"] if game.cubes[k].pending]
            if keys != offered or len(offered) != len(game.extras["keys"]):
                raise ChouetteError(
                    "under 5.7 the taker accepts every extra or changes his take to a drop (all at once)"
                )
            own = game.cubes[taker]
            cost = game.extras["before"]
            self._pay(
                taker, own.box, cost, f"{taker} changed his take to a drop rather than accept extras (5.7)", taker
            )
            own.status, own.ended, own.points = "dropped", "team_dropped", -cost
            for key in game.extras["keys"]:
                del game.cubes[key]
            game.extras = None
            return
        for key in keys:
            slot = game.cubes[key]
            if decision in ("take", "beaver"):
                if decision == "beaver":
                    cube_rules.check_beaver(slot.cube, self.rules.game)
                self._pay(
                    slot.box, taker, slot.stake, f"{slot.box} pays {taker} the undoubled value for an extra (5.7)", key
                )
            self._respond(slot, decision)

    def _open_extras(self) -> None:
        game, extras = self.game, self.game.extras
        taker = extras["taker"]
        for giver, choice in extras["offers"].items():
            if choice == "offer":
                key = extra_key(giver, taker)
                offer = Cube(value=1, offered=2, doubler=BOX_SIDE, stage="double")
                slot = ChouetteCube(key, taker, taker, giver, extras["stakes"][giver], offer, extra=True)
                game.cubes[key] = slot
                extras["keys"].append(key)
        extras["stage"] = "answering"
        if not extras["keys"]:
            game.extras = None

    # ======================================================================================== offer rounds
    def _close_window(self) -> None:
        game = self.game
        doubled = [k for k, c in game.window.items() if c == "double"]
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
                "by": "team",
                "keys": doubled,
                "from_centre": all_from_centre,
                "half_rule": all_from_centre and self.rules.half_rule,
                "in_order": False,
                "before": {k: game.cubes[k].value for k in doubled},
            }

    def _resolve_round(self) -> None:
        game, round_ = self.game, self.game.round
        game.round = None
        if round_["by"] != "box":
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
                    if slot.ended == "team_dropped" and slot.team not in game.demoted:
                        self._take_over(slot, -slot.points)  # the refuser's forfeit (RULES C4, refuser_forfeits)
            return
        if self.rules.extras == "off" or not round_["from_centre"]:
            return
        takers = [k for k in keys if game.cubes[k].live]
        droppers = [game.cubes[k].team for k in keys if game.cubes[k].ended == "team_dropped"]
        if len(takers) == 1 and droppers:
            game.extras = {
                "taker": game.cubes[takers[0]].team,
                "offers": dict.fromkeys(droppers),
                "stakes": {game.cubes[k].team: round_["before"][k] for k in keys if game.cubes[k].ended},
                "before": round_["before"][takers[0]],
                "keys": [],
                "stage": "offering",
            }

    def _take_over(self, slot: ChouetteCube, before: int) -> None:
        """001 Ch.9: the Active Player "must assume that partner's responsibility and take over his position whether
        for profit or loss", at the doubled value; with ``refuser_forfeit_to == "captain"`` the forfeit goes to him."""
        game, refuser = self.game, slot.team
        if self.rules.refuser_forfeit_to == "captain":
            self._pay(
                game.box, game.captain, before, f"{refuser}'s forfeit passes to {game.captain} (001 Ch.9)", slot.key
            )
        slot.cube = cube_rules.take(slot.cube)
        slot.team, slot.status, slot.ended, slot.points = game.captain, "live", None, 0
