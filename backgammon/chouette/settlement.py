"""Who pays whom in a chouette (RULES C3, C7, C8, C10, C11): the settlements during a game (C10; 003 Atlanta
4.2–4.5) and the end of a game — each cube in play scored between its two holders (C3, D4), the Box side's total
split with the Partner (C7), the row written on the score sheet (C11) and the seats rotated (C8).
:class:`SettlementEvents` is a mixin of :class:`~backgammon.chouette.session.ChouetteSession` (it uses the
session's ``rules``, ``game``, sheet and helpers). Split out of :mod:`backgammon.chouette.session`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import cube as cube_rules
from ..errors import ChouetteError
from .cubes import LEVELS, net_points
from .events import event
from .game import SIDES
from .rotation import Outcome, loser_marks
from .rotation import next_order as rotate
from .sheet import SheetRow, split_box_partner

if TYPE_CHECKING:
    from .game import ChouetteGame
    from .rules import ChouetteRules


class SettlementEvents:
    """The settlement and end-of-game events of :class:`~backgammon.chouette.session.ChouetteSession` (see the
    module docstring)."""

    rules: ChouetteRules
    game: ChouetteGame

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
