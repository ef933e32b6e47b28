"""What happened, in words: one sentence per :class:`~club.table.Event`, with the members' names.

Plain text (no Discord markup) so the console and the cogs can both use it; plays are in standard notation
(``24/18 13/11``, ``bar/22*``).
"""

from __future__ import annotations

from collections.abc import Sequence

from backgammon.game import Action
from backgammon.moves import dice_text
from backgammon.result import counted_single, kind_words

from .table import Event, MatchKind, TableAction, TableEvent
from .wording import plural

LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}

PENDING_WORDS = {
    "answer_challenge": "accept or decline the challenge",
    "roll": "roll",
    "roll_or_double": "roll or double",
    "play": "play",
    "answer_double": "take{beaver} the double",
    "answer_beaver": "take{raccoon} the beaver",
    "answer_raccoon": "take or drop the raccoon",
    "answer_resignation": "accept or reject the resignation",
}


def shorten(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: whole, or cut at a word boundary (when one is in the second half)
    with "…" — for Discord's limits on thread names and choice labels (100), never a word cut in the middle
    silently."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;·–-") + "…"


def pending_words(pending: str | None, *, beaver: bool = False, raccoon: bool = False) -> str:
    """``pending`` (see :meth:`club.table.Table.waiting`) as words: ``"take or drop the double"``, or with a beaver
    allowed ``"take, drop or beaver the double"``."""
    if pending is None:
        return "nothing"
    text = PENDING_WORDS.get(pending, pending.replace("_", " "))
    return text.replace("{beaver}", ", drop or beaver" if beaver else " or drop").replace(
        "{raccoon}", ", drop or raccoon" if raccoon else " or drop"
    )


def _score(score: Sequence[int], names: Sequence[str], money: bool) -> str:
    if money:
        return f"{names[0]} {score[0]:+d}, {names[1]} {score[1]:+d}"
    return f"{names[0]} {score[0]} – {names[1]} {score[1]}"


def describe(event: Event, names: Sequence[str], *, money: bool, length: int = 0) -> str:
    """One sentence for ``event``; ``names`` are the display names of sides 0 and 1."""
    side = event.side
    who = names[side] if side is not None else "The club"
    other = names[1 - side] if side is not None else ""
    data = event.data
    kind = event.kind
    if kind == TableAction.CHALLENGE:
        what = "a money session" if money else f"a {length}-point match"
        return f"{names[0]} challenges {names[1]} to {what}."
    if kind == TableAction.ACCEPT:
        return f"{who} accepts the challenge."
    if kind == TableAction.DECLINE:
        return f"{who} declines the challenge."
    if kind == TableAction.CANCEL:
        return f"{who} withdraws the challenge."
    if kind == TableAction.LAPSE:
        return f"The challenge lapsed: {names[1]} did not answer in time."
    if kind == TableAction.NEW_GAME:
        text = f"Game {data['number']} starts ({_score(data['score'], names, money)})."
        if data.get("crawford"):
            text += " This is the Crawford game: no doubling (RULES M3)."
        if data.get("seed_hash"):
            text += f" Dice commitment (SHA-256 of the server seed): {data['seed_hash']}."
        if data.get("next_seed_hash"):  # committed before anyone's client seed for that game
            text += f" Game {data['number'] + 1}'s dice commitment, fixed now: {data['next_seed_hash']}."
        return text
    if kind == Action.OPENING_ROLL:
        d0, d1 = data["dice"]
        if data["tie"]:
            text = f"Opening roll: {names[0]} {d0}, {names[1]} {d1} — a tie, roll again."
            if data.get("cube", 1) > 1:
                text += f" The cube goes to {data['cube']} (automatic double)."
            return text
        first = data["first"]
        high, low = max(d0, d1), min(d0, d1)
        return f"Opening roll: {names[0]} {d0}, {names[1]} {d1} — {names[first]} moves first with {high}-{low}."
    if kind == Action.ROLL:
        d1, d2 = data["dice"]
        suffix = " (auto-roll: no cube decision)" if event.auto else ""
        return f"{who} rolls {dice_text((d1, d2))}{suffix}."
    if kind == Action.PLAY:
        if not data["moves"]:
            return f"{who} has no legal play: the turn passes (RULES G9)."
        if event.auto:
            return f"{who} plays {data['play']} (the only legal play)."
        return f"{who} plays {data['play']}."
    if kind == Action.DOUBLE:
        return f"{who} doubles to {data['offered']}."
    if kind == Action.BEAVER:
        return f"{who} beavers: the cube goes to {data['offered']}, {other} to answer."
    if kind == Action.RACCOON:
        return f"{who} raccoons: the cube goes to {data['offered']}, {other} to answer."
    if kind == Action.TAKE:
        return f"{who} takes: the cube is at {data['cube']}, owned by {names[data['owner']]}."
    if kind == Action.DROP:
        return f"{who} drops."
    if kind == Action.RESIGN:
        return f"{who} offers to resign {LEVELS[data['level']]}."
    if kind == Action.ACCEPT_RESIGNATION:
        return f"{who} accepts the resignation."
    if kind == Action.REJECT_RESIGNATION:
        return f"{who} rejects the resignation: play goes on."
    if kind == Action.FORFEIT:
        return f"{who} ran out of time and forfeits the game (club time limit)."
    if kind == TableAction.FORFEIT_MATCH:
        what = "the session" if money else "the match"
        return f"{who} ran out of time and forfeits {what} (club time limit)."
    if kind == TableAction.STOP:
        return f"{who} asks to end the session: it ends when this game ends."
    if kind == TableEvent.GAME_OVER:
        result = data["result"]
        how = {"play": "", "drop": " (double dropped)", "resignation": " (resignation)", "forfeit": " (forfeit)"}
        kind_text = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}[result["kind"]]
        if counted_single(result["kind"], result.get("multiplier")):
            kind_text += ", counted single (Jacoby)"
        points = result["points"]
        return (
            f"{who} wins game {data['number']}{how[result['ended_by']]}: {kind_text}, {points} "
            f"point{'s' if points != 1 else ''}. Score: {_score(data['score'], names, money)}."
        )
    if kind == TableEvent.MATCH_OVER and side is not None:  # the winner
        return f"{who} wins the match {data['score'][side]}–{data['score'][1 - side]}."
    if kind == TableEvent.SESSION_OVER:
        return f"The money session is over after {plural(data['games'], 'game')}: {_score(data['score'], names, True)}."
    if kind == TableEvent.REVEAL:
        texts = list(data.get("clients", ()))
        sides = data.get("sides") or [None] * len(texts)
        labels = [str(i) if side is None else f"{names[side]} (side {side})" for i, side in enumerate(sides, 1)]
        clients = ",".join(
            f" {who}: “{text}”" if text else f" {who}: none" for who, text in zip(labels, texts, strict=True)
        )
        return (
            f"Game {data['number']} dice seed revealed: {data['seed']} (its SHA-256 is the commitment "
            f"{data['seed_hash']}){'; the client seeds —' + clients if clients else ''}, recipe "
            f"{data.get('recipe', 'bgclub-hmac-sha256-v1')}. Anyone can recompute every roll from the published "
            "values alone: save the /bg verify text or the /bg export file and run python tools/verify_dice.py FILE, "
            "no database needed; the operator checks the stored log too (python -m club verify)."
        )
    return f"{who}: {kind.replace('_', ' ')}."


VALUED = {"board": "as the board stands", "single": "a single game at the cube", "worst": "the worst still possible"}
"""How the rule set values a forfeited game (``forfeit_valuation``, RULES A2, M5), in words."""


def claim_terms(table, late: int) -> dict[str, str]:
    """What each claim against ``late`` (the side whose time ran out) scores now, said before it is made:
    ``{"claim_game": "1 point (single, a single game at the cube)", "claim_match": "…"}`` — from the rule set's
    forfeit valuation (:meth:`backgammon.game.Game.forfeit_result`, RULES A2, M5). ``table``: a
    :class:`~club.table.MatchTable` with a game being played."""
    result = table.game.forfeit_result(late)
    how = VALUED.get(table.rules.forfeit_valuation, table.rules.forfeit_valuation)
    kind = kind_words(result.kind, result.multiplier)
    game = f"{plural(result.points, 'point')} ({kind}, {how})"
    if table.kind == MatchKind.MATCH and table.score[1 - late] + result.points >= table.length:
        game += ": that ends the match"
    match = "the match is yours" if table.kind == MatchKind.MATCH else "the session ends, this game forfeited as above"
    return {"claim_game": game, "claim_match": match}
