"""The cube actions of a chouette table (a mixin of :class:`~club.chouette.table.ChouetteTable`): doubles, passes,
answers, Box's answers and extras (RULES C4, C5, D1–D3; 003 Atlanta 5.6–5.11). Each changes the table only through
the session's events, or raises and changes nothing; every one refuses once the board's dice are thrown or when no
board is played (the table's ``_require_board``)."""

from __future__ import annotations

from typing import Any

from backgammon.errors import ChouetteError
from backgammon.game import Phase

from ..errors import NotYourTurnError
from .seats import name


class CubeActions:
    """``_double``, ``_pass``, ``_answer``, ``_box_answer`` and ``_extra`` of
    :class:`~club.chouette.table.ChouetteTable` (see its module docstring for the logged args)."""

    def _double(self, member: int, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        if self.board.phase != Phase.ROLL:
            raise ChouetteError("the dice are thrown: a cube is turned only before the roll (RULES D1)")
        session, game = self.session, self.session.game
        subject = args.get("member", member)
        by = None if member == subject else name(member)
        if name(subject) == session.box and game.on_roll == "box":
            if by is not None:
                raise NotYourTurnError("Box decides for himself: nobody doubles for him (RULES C9).")
            targets = args.get("targets")
            self.session.box_double(None if targets is None else [str(t) for t in targets], bool(args.get("in_order")))
            return {"member": subject, "targets": targets, "in_order": bool(args.get("in_order"))}
        if game.on_roll == "box":
            self.session.extra_double(name(subject), args.get("cube"), by)
        else:
            self.session.team_double(name(subject), args.get("cube"), by)
        return {"member": subject, "cube": args.get("cube")}

    def _pass(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        subject, by = _acting_for(member, args)
        self.session.no_double(name(subject), args.get("cube"), by)
        return {"member": subject, "cube": args.get("cube")}

    def _answer(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        subject, by = _acting_for(member, args)
        self.session.answer(name(subject), args["decision"], args.get("cube"), by)
        return {"member": subject, "decision": args["decision"], "cube": args.get("cube")}

    def _box_answer(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        if member is not None and name(member) != self.session.box:
            raise NotYourTurnError(f"Only Box ({self.session.box}) answers the Team's doubles.")
        decisions = args["decisions"]
        self.session.box_answer(decisions)
        return {"decisions": decisions}

    def _extra(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        subject, by = _acting_for(member, args)
        if args["offer"]:
            self.session.offer_extra(name(subject), by)
        else:
            self.session.no_extra(name(subject), by)
        return {"member": subject, "offer": bool(args["offer"])}


def _acting_for(member: int | None, args: dict[str, Any]) -> tuple[int, str | None]:
    """``(subject, by)``: whose decision it is (``args["member"]``, else the one acting) and the engine name of the
    one deciding for him (None for himself or for the club; RULES C9)."""
    subject = args.get("member", member)
    return subject, None if member is None or member == subject else name(member)
