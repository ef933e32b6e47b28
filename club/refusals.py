"""Refusals that name the rule: why a member may not double now, and what made a play illegal.

Pure functions over the engine's state (:class:`backgammon.game.Game`, :class:`backgammon.position.Position`); the
use-cases put their words into the refusal next to what is possible ("you must play 2-1", the legal plays).

- :func:`cube_reason`: the cube's own reason first — "no doubling in the Crawford game (RULES M3)", the opponent's
  cube (D1), the limit (D5), the dead cube (M4) — and only then the phase: "you already rolled: play 2-1 (RULES
  D1: a double comes before the roll)".
- :func:`illegal_play_reason`: for a play written in notation that is not one of the legal plays, what broke:
  a checker on the bar must enter first (G6), no checker on the source point, a hit where there is no blot, a
  closed point (G4), bearing off with checkers outside (G8), a distance no die gives (G4), more moves than the dice
  give (G5), too few dice used (G5, G7), the higher die (G7).
"""

from __future__ import annotations

from collections.abc import Sequence

from backgammon import cube as cubes
from backgammon.errors import BackgammonError
from backgammon.game import Action, Game, Phase
from backgammon.moves import dice_text
from backgammon.notation import parse_segments
from backgammon.position import Position

from .wording import plural

CUBE_KINDS = (Action.DOUBLE, Action.BEAVER, Action.RACCOON)
BAR = 25


def _crawford(reason: str) -> str:
    return "no doubling in the Crawford game (RULES M3)" if "Crawford" in reason else reason


def cube_reason(game: Game, side: int, kind: str) -> str | None:
    """Why ``side`` may not ``kind`` (``double``, ``beaver``, ``raccoon``) now, naming the rule, or None when the
    cube and the phase allow it. The cube's reason (Crawford game, owner, limit, dead cube) comes before the phase,
    so a member who has rolled in the Crawford game hears about the Crawford rule, not only about his dice."""
    if kind not in CUBE_KINDS:
        return None
    if kind == Action.DOUBLE:
        if game.cube.offered is None:
            reason = cubes.double_refusal(
                game.cube, side, game.rules, match_length=game.match_length, score=game.score,
                crawford_game=game.crawford_game,
            )  # fmt: skip
            if reason:
                return _crawford(reason)
        if game.phase == Phase.PLAY and game.turn == side and game.dice:
            return f"you already rolled: play {dice_text(game.dice)} (RULES D1: a double comes before the roll)"
        return None
    if game.crawford_game:  # a beaver or raccoon with an offer pending is refused by the cube itself (RULES D3)
        return "no doubling in the Crawford game (RULES M3)"
    return None


def roll_reason(game: Game, side: int) -> str | None:
    """Why ``side`` may not roll now when the dice are already his: "you already rolled: play 6-4"."""
    if game.phase == Phase.PLAY and game.turn == side and game.dice:
        return f"you already rolled: play {dice_text(game.dice)}"
    return None


def _dice_steps(distance: int, dice: tuple[int, int], bear_off: bool) -> int | None:
    """How many dice a move of ``distance`` pips uses (None if no combination of the dice gives it)."""
    d1, d2 = dice
    if d1 == d2:
        if distance % d1 == 0 and 1 <= distance // d1 <= 4:
            return distance // d1
        return 1 if bear_off and distance < d1 else None
    if distance in (d1, d2):
        return 1
    if distance == d1 + d2:
        return 2
    if bear_off and distance < max(d1, d2):
        return 1
    return None


def illegal_play_reason(position: Position, dice: Sequence[int], text: str, legal: Sequence) -> str | None:
    """What made ``text`` (notation) illegal for the player on roll in ``position`` with ``dice``, naming the rule,
    or None when no single reason is found. ``legal``: the legal plays (:class:`backgammon.moves.Play`)."""
    try:
        segments = parse_segments(text)
    except (BackgammonError, ValueError):
        return None
    if not segments:
        if legal and legal[0].moves:
            return "a play must be made when one is possible (RULES G9: only with no legal move does the turn pass)"
        return None
    dice = (int(dice[0]), int(dice[1]))
    on_bar = position.player[BAR - 1]
    from_bar = sum(1 for source, _target, _hit in segments if source == BAR)
    for index, (source, _target, _hit) in enumerate(segments):
        if source != BAR and on_bar > sum(1 for s, _t, _h in segments[:index] if s == BAR):
            return "a checker on the bar must enter first (RULES G6)"
    outside = sum(position.player[point - 1] for point in range(7, 26))
    given = 4 if dice[0] == dice[1] else 2
    if len(segments) > given:
        return (
            f"that is {len(segments)} moves, and {dice_text(dice)} gives {given} (RULES G5: only a doublet gives four)"
        )
    mine, theirs = list(position.player), list(position.opponent)  # the board as the written moves leave it
    steps = 0
    for source, target, hit in segments:
        if not 1 <= source <= BAR or not 0 <= target < source:
            return None
        if not mine[source - 1]:
            where = "on the bar" if source == BAR else f"on the {source}-point"
            return f"you have no checker {where} to move (RULES G4)"
        if hit and target > 0 and theirs[24 - target] != 1:
            return (
                f"there is no blot of your opponent's to hit on the {target}-point "
                "(RULES G4: a hit takes a lone checker)"
            )
        mine[source - 1] -= 1
        if target > 0:
            mine[target - 1] += 1
            if theirs[24 - target] == 1:
                theirs[24 - target] = 0
        if target == 0 and outside - from_bar > 0:
            return "you may bear off only with all 15 checkers in your home board (RULES G8)"
        if target > 0 and position.opponent[24 - target] >= 2:
            return f"the {target}-point is closed: your opponent holds it (RULES G4)"
        used = _dice_steps(source - target, dice, target == 0)
        if used is None:
            return (
                f"{_point(source)}/{_point(target)} is {plural(source - target, 'pip')}, which the dice {dice_text(dice)} "
                "do not give (RULES G4: each die moves one checker its number)"
            )
        steps += used
    if steps > given:
        return f"that is {steps} moves, and {dice_text(dice)} gives {given} (RULES G5: only a doublet gives four)"
    most = max((len(play.moves) for play in legal), default=0)
    if steps < most:
        if dice[0] == dice[1]:
            return f"you must play {most} moves of {dice[0]} when you can (RULES G5, G7)"
        return "you must use both dice when you can (RULES G7)"
    if most == 1 and steps == 1 and dice[0] != dice[1]:
        dies = {play.moves[0].die for play in legal if play.moves}
        if dies == {max(dice)}:
            return f"only one die can be played, so it must be the higher, {max(dice)} (RULES G7)"
    return None


def _point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == 0 else str(point)


def explain_illegal(error, game: Game, text: str):
    """``error`` (an :class:`~backgammon.errors.IllegalPlayError` for ``text``) with what made the play illegal
    put in front of the legal plays, or ``error`` itself when no reason is found."""
    from backgammon.errors import IllegalPlayError

    if game is None or game.dice is None:
        return error
    reason = illegal_play_reason(game.position, game.dice, text, game.legal_plays())
    if reason is None:
        return error
    return IllegalPlayError(f"{text.strip()} is not legal with {dice_text(game.dice)}: {reason}", error.legal)
