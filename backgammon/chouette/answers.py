"""The answers to the cubes of a chouette game (RULES C4, C5, D2, D3): a Team member answering Box's double, a partner
going along with or refusing the classic Captain's double (000 Ch.8), Box answering the Team's doubles (003 Atlanta
5.10, 5.10a, 5.11, the half rule), takes, drops, beavers and raccoons per cube. :class:`AnswerEvents` is a mixin of
:class:`~backgammon.chouette.session.ChouetteSession`, beside :class:`~backgammon.chouette.doubling.DoublingEvents`
(it uses the session's ``rules``, ``game`` and helpers). Split out of :mod:`backgammon.chouette.doubling`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .. import cube as cube_rules
from ..errors import ChouetteError
from .cubes import TEAM_SIDE, ChouetteCube
from .events import DECISIONS, event

if TYPE_CHECKING:
    from .game import ChouetteGame
    from .rules import ChouetteRules


class AnswerEvents:
    """The answer events of :class:`~backgammon.chouette.session.ChouetteSession` (see the module docstring)."""

    rules: ChouetteRules
    game: ChouetteGame

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
