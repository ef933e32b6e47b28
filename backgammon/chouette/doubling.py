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

The answers are :mod:`~backgammon.chouette.answers` (:class:`~backgammon.chouette.answers.AnswerEvents`) and the extras
:mod:`~backgammon.chouette.extras` (:class:`~backgammon.chouette.extras.ExtrasEvents`), split out of this module;
it keeps the turns, the doubles and the offer rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .. import cube as cube_rules
from ..errors import ChouetteError
from .cubes import BOX_SIDE, TEAM_SIDE, ChouetteCube
from .events import event
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
