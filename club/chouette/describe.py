"""Chouette actions in words, for the channel, the console and the notices (plain text, names not ids)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from backgammon.chouette.cubes import Side
from backgammon.moves import Move, dice_text, format_moves

from ..vocabulary import ChouetteAction
from .table import SettleStep, order_text

DECISION_VERBS = {"take": "takes", "drop": "drops", "beaver": "beavers", "raccoon": "raccoons"}
RESULTS = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}
WHY_WORDS = {
    "order": " (their standing order, RULES C9)",
    "passed_over": " (away with nobody present to decide for them: passed over, RULES C9)",
}
"""Why the club made a member's decision at once (a logged ``why``), after the decision."""
POLICY = " (time: the club's policy)"


def humanize(text: str, names: Mapping[int, str]) -> str:
    """``text`` with every member id (as the chouette engine names members) replaced by his display name."""
    if not names:
        return text
    ids = sorted((str(member) for member in names), key=len, reverse=True)
    pattern = re.compile(r"'?\b(" + "|".join(re.escape(i) for i in ids) + r")\b'?")
    return pattern.sub(lambda m: names[int(m.group(1))], text)


def describe(kind: str, member: int | None, args: dict[str, Any], names: Mapping[int, str], *, auto=False) -> str:
    """One line for the logged action ``kind`` by ``member`` (None = the club) with its logged ``args``; ``""``
    for the club's own bookkeeping (a turn)."""

    def who(user: int | None) -> str:
        return "the club" if user is None else names.get(user, str(user))

    subject = args.get("member", member)
    proxy = f" (for {who(subject)}, by {who(member)})" if member is not None and subject != member else ""
    if kind == ChouetteAction.OPEN:
        return f"{who(member)} opens a chouette: join with /bg chouette join, then /bg chouette seat."
    if kind == ChouetteAction.SIT:
        return f"{who(member)} joins the chouette."
    if kind == ChouetteAction.STAND:
        return f"{who(member)} leaves the chouette."
    if kind in (ChouetteAction.SEAT, ChouetteAction.RETHROW):
        throws = ", ".join(f"{who(int(m))} {_throw(t)}" for m, t in args["throws"].items())
        return ("Seat roll: " if kind == ChouetteAction.SEAT else "Ties throw again: ") + throws + " (RULES C1)."
    if kind == ChouetteAction.RETIRE:
        return f"{who(args['member'])} leaves the chouette after the game."
    if kind == ChouetteAction.PROXY:
        return f"{who(subject)} names {who(args['proxy'])} their proxy (RULES C9)."
    if kind == ChouetteAction.AWAY:
        return f"{who(subject)} missed their deadline: they are away and represented now (RULES C9, 003 Atlanta 7.1)."
    if kind == ChouetteAction.BACK:
        return f"{who(subject)} is back."
    if kind == ChouetteAction.STAND_IN:
        return (f"{who(args['member'])} is Acting Captain for {who(args['for'])}, who is away: they roll and play for "
                "the Team until the game ends (RULES C9, 003 Atlanta 6.2).")  # fmt: skip
    if kind == ChouetteAction.ORDER:
        if args.get("clear"):
            return f"{who(member)} withdraws their standing order."
        return f"{who(member)} leaves a standing order: {order_text(args)} (RULES C9)."
    if kind == ChouetteAction.START_GAME:
        return f"Game {args['number']} starts."
    if kind == ChouetteAction.OPENING_ROLL:
        d0, d1 = args["dice"]
        if d0 == d1:
            raised = " — the cubes go up (automatic double, RULES G3)" if args.get("raised") else ""
            return f"Opening roll {d0}-{d1}: a tie, roll again{raised}."
        return f"Opening roll: Box {d0}, Captain {d1} — {'Box' if d0 > d1 else 'the Team'} plays first."
    if kind == ChouetteAction.TURN:
        return ""
    if kind == ChouetteAction.ROLL:
        roll = dice_text(args["dice"])
        return f"{who(member)} rolls {roll}." if member is not None else f"Auto-roll: {roll}."
    if kind == ChouetteAction.PLAY:
        moves = tuple(Move(m[0], m[1], m[2], bool(m[3])) for m in args.get("moves", []))
        text = format_moves(moves)
        if not text:
            return "No legal play: the turn passes (RULES G9)."
        return f"{'Forced play' if auto or member is None else who(member) + ' plays'}: {text}."
    if kind == ChouetteAction.DOUBLE:
        if "in_order" in args:
            targets = args.get("targets")
            whom = "every cube open to a double" if targets is None else ", ".join(who(t) for t in targets)
            order = " and insists on rotation order (5.8)" if args.get("in_order") else ""
            return f"Box {who(subject)} doubles {whom}{order}."
        return f"{who(subject)} doubles{proxy}."
    why = WHY_WORDS.get(args.get("why", ""), "")
    if kind == ChouetteAction.PASS:
        if member is not None:
            return f"{who(subject)} does not double{proxy}."
        return f"{who(subject)} does not double{why}." if why else f"{who(subject)} passes (time)."
    if kind == ChouetteAction.ANSWER:
        verb = DECISION_VERBS.get(args["decision"], args["decision"])
        if member is None:
            return f"{who(subject)} {verb}{why or POLICY}."
        return f"{who(subject)} {verb}{proxy}."
    if kind == ChouetteAction.BOX_ANSWER:
        decisions = args["decisions"]
        if isinstance(decisions, str):
            return f"Box {DECISION_VERBS.get(decisions, decisions)} the Team's doubles."
        parts = ", ".join(
            f"{DECISION_VERBS.get(d, d)} {who(int(k)) if k.isdigit() else k}" for k, d in decisions.items()
        )
        return f"Box {parts}."
    if kind == ChouetteAction.EXTRA:
        return f"{who(subject)} {'offers' if args['offer'] else 'offers no'} extra (003 Atlanta 5.7){proxy}{why}."
    if kind == ChouetteAction.TEAM_SETTLE:
        return _team_settlement(args, who)
    if kind == ChouetteAction.FORFEIT:
        return f"The {'Box' if args['side'] == 0 else 'Team'} side ran out of time: the board is forfeited (RULES A2)."
    if kind == ChouetteAction.GAME_OVER:
        winner = "Box" if args["winner"] == Side.BOX else "The Team"
        return f"{winner} wins the board: {RESULTS[args['result']]}."
    if kind == ChouetteAction.CLOSE:
        return "The chouette is over."
    if kind in (ChouetteAction.CLIENT_SEED, ChouetteAction.BEACON):
        return ""  # a member's luck, a verified beacon round: in the log and the published dice lines
    if kind == ChouetteAction.SEAT_CALL:
        beacon = args["beacon"]
        return (f"{who(member)} calls the seat roll: its throws wait for drand {beacon['chain']} round "
                f"{beacon['round']}, the first published 30 s or more after this call (RULES C1, A1).")  # fmt: skip
    if kind == ChouetteAction.UNUSED_SEED:
        return (f"Game {args['game']} was never played: its server seed, committed as {args['seed_hash']}, is "
                f"{args['seed']} (unused).")  # fmt: skip
    return f"{who(member)}: {kind}."


def _team_settlement(args: dict[str, Any], who) -> str:
    """A step of a settlement between Team members (003 Atlanta 4.4) in words."""
    buyer, seller, points = who(args["buyer"]), who(args["seller"]), args["points"]
    amount = f"{abs(points)} point{'s' if abs(points) != 1 else ''}"
    step = args["step"]
    if step == SettleStep.OFFER:
        terms = f"pays {seller} {amount}" if points >= 0 else f"is paid {amount} by {seller}"
        return (f"{buyer} offers to buy {seller}'s interest in the game: {buyer} {terms} and takes over {seller}'s cube "
                f"(003 Atlanta 4.4). {seller} accepts or declines; Box may preempt.")  # fmt: skip
    if step == SettleStep.PREEMPT:
        return f"Box preempts {buyer}'s offer: if {seller} accepts, Box pays them instead and settles their cube (4.4)."
    if step == SettleStep.ACCEPT and args.get("preempt"):
        return f"{seller} accepts; Box preempts: Box pays {seller} {amount}, their cube is settled (4.4, RULES C10)."
    if step == SettleStep.ACCEPT:
        paid = f"{buyer} pays {seller} {amount}" if points >= 0 else f"{seller} pays {buyer} {amount}"
        return f"{seller} accepts: {paid} and {buyer} holds {seller}'s cube now (003 Atlanta 4.4)."
    if args.get("by") == args["buyer"]:
        return f"{buyer} withdraws their offer to {seller}."
    return f"{seller} declines {buyer}'s offer."


def _throw(value: Any) -> str:
    if isinstance(value, list):
        return "+".join(str(d) for d in value) if len(value) > 1 else str(value[0])
    return str(value)


def points_line(points: Mapping[int, int], names: Mapping[int, str]) -> str:
    """``Ann +6, Bob -2, …`` for a game's points (RULES C11)."""
    return ", ".join(f"{names.get(m, str(m))} {p:+d}" for m, p in points.items())
