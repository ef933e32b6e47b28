"""A match's highlight: its turning point played again, checker by checker, as an animated image to share.

The turning point is the decision after which the game's balance moved most:

- with the engine's grades of the match (:class:`~club.analysis.grade.Grade`, from its review), the biggest swing in
  equity (EMG, cube units) between one graded checker play and the next one of the same game, both read from side
  0's view — the roll and the play that turned the game;
- without the engine, the biggest swing in *points at stake*, read from the positions and the cube alone:

  - a checker play's pip-lead swing (the mover's pips played plus the pips his hits sent back), counted as
    ``pips / PIPS_PER_POINT × cube value`` — :data:`PIPS_PER_POINT` pips of swing weigh one point at stake;
  - a double taken (RULES D2) raised the stake from the cube's value *v* to 2 *v*: a swing of *v* points;
  - a double passed (RULES D2) ended the game, the doubler winning *v* points: a swing of *v* points.

  At the cube's value 1 a double taken or passed therefore outweighs every play at that cube that swung 20 pips or
  fewer; on a tie the earlier decision is the turning point.

:func:`highlight_views` turns it into boards: for a play, the position before it with the dice shown, one frame per
checker moved (the moves so far marked), the last frame the position after the play with what happened in the
header; for a cube swing, the position with the cube before, the cube offered, then the cube taken (or the game
over). :func:`~rendering.animation.render_animation` writes them as a GIF of at most 2 MB, 600 px wide. No Discord
types: the cog and the console both show what :func:`match_highlight` returns. Only a finished match has a
highlight (RULES 003 1.5: nothing about a game in play is shown to anyone).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from backgammon.game import Game
from backgammon.moves import Play, dice_text

from .analysis.walk import ANSWER, PLAY, Decision, decisions
from .table import MatchStatus
from .wording import plural

EQUITY, PIPS, CUBE = "equity", "pips", "cube"
PIPS_PER_POINT = 20
"""Pips of pip-lead swing that weigh one point at stake (the cube's unit) when no engine is at hand. In a race a
lead of about 10% of the pip count turns an even game into a double and a pass — about a point of equity; earlier in
the game a pip is worth less, so twice that, about a race's 10% at its start, stands for a point."""


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """The decision that turned a match: ``game`` its number (1 = first), ``decision`` the checker play or the
    answer to a double (:class:`~club.analysis.walk.Decision`; position and cube from the mover's or the doubler's
    view), ``swing`` how much the balance moved (equity in cube units with ``measure`` :data:`EQUITY`, pips with
    :data:`PIPS`, the cube's value before with :data:`CUBE`), ``before``/``after`` the balance from the mover's view
    (his equity, or his pip lead) or the cube's value (after a pass: 0, the game over), ``points`` the swing in
    points at stake (how a pip swing and a cube swing are compared; see the module docstring)."""

    game: int
    decision: Decision
    swing: float
    measure: str
    before: float
    after: float
    points: float = 0.0

    @property
    def change(self) -> str:
        """The swing in words, from the mover's view: ``equity -0.21 → +0.48``, ``pip lead -12 → +19``,
        ``cube 2 → 4`` or ``passed at 2: game over``."""
        if self.measure == EQUITY:
            return f"equity {self.before:+.2f} → {self.after:+.2f}"
        if self.measure == CUBE:
            if self.after:
                return f"cube {self.before:.0f} → {self.after:.0f}"
            return f"passed at {2 * self.before:.0f}: game over"
        return f"pip lead {self.before:+.0f} → {self.after:+.0f}"

    def describe(self, names: Sequence[str]) -> str:
        """``game 2, Ann with 6-4: 24/14* — equity -0.21 → +0.48`` (see :attr:`change`); a cube swing: ``game 2,
        Bob doubled to 4, Ann took — cube 2 → 4`` or ``…, Ann passed — Bob won 2 points``."""
        decision = self.decision
        if self.measure == CUBE:
            doubler, taker = names[1 - decision.side], names[decision.side]
            value = int(self.before)
            what = f"{taker} took — {self.change}" if self.after else f"{taker} passed — {doubler} won "
            if not self.after:
                what += plural(value, "point")
            return f"game {self.game}, {doubler} doubled to {2 * value}, {what}"
        play, dice = _played(decision)
        moved = play.notation() or "no move"
        return f"game {self.game}, {names[decision.side]} with {dice_text(dice)}: {moved} — {self.change}"


def _played(decision: Decision) -> tuple[Play, tuple[int, int]]:
    """The play and the dice of a ``play`` decision; raises ``ValueError`` for a decision without them."""
    if decision.play is None or decision.dice is None:
        raise ValueError(f"a {decision.kind} decision has no play to show")
    return decision.play, decision.dice


def _pip_lead(decision: Decision) -> tuple[float, float]:
    start, end = decision.position, _played(decision)[0].position
    return start.pips_opponent - start.pips_player, end.pips_opponent - end.pips_player


def _swings(number: int, game: Game) -> list[TurningPoint]:
    """Every checker play and answer to a double of ``game`` (number ``number``) as a :class:`TurningPoint` weighed
    in points at stake (see the module docstring)."""
    found = []
    for decision in decisions(game):
        if decision.kind == PLAY and decision.play is not None and decision.play.moves:
            before, after = _pip_lead(decision)
            points = (after - before) / PIPS_PER_POINT * decision.cube.value
            found.append(TurningPoint(number, decision, after - before, PIPS, before, after, points))
        elif decision.kind == ANSWER:
            value = decision.cube.value
            after = 2 * value if decision.acted else 0
            found.append(TurningPoint(number, decision, value, CUBE, value, after, value))
    return found


def turning_point(games: Sequence[Game], grades: Sequence | None = None) -> TurningPoint | None:
    """The turning point of ``games`` (in order; see the module docstring). ``grades`` — the engine's grades of the
    same games (each with ``game`` numbered from 1) — choose by equity; without them the pip count and the cube
    decide (the bigger swing in points at stake; the earlier one on a tie). None when no checker was played and
    no double answered."""
    best: TurningPoint | None = None
    if grades:
        plays = sorted(
            (g for g in grades if g.kind == PLAY and g.decision.play is not None and g.decision.choices > 1),
            key=lambda g: (g.game, g.decision.index),
        )
        previous = None
        for grade in plays:
            balance = grade.made_equity if grade.side == 0 else -grade.made_equity  # side 0's view
            if previous is not None and previous[0] == grade.game:
                swing = abs(balance - previous[1])
                if best is None or swing > best.swing:
                    sign = 1 if grade.side == 0 else -1
                    best = TurningPoint(
                        grade.game, grade.decision, swing, EQUITY, sign * previous[1], sign * balance, swing
                    )
            previous = (grade.game, balance)
        if best is not None:
            return best
    for number, game in enumerate(games, start=1):
        for point in _swings(number, game):
            if best is None or point.points > best.points:
                best = point
    return best


def highlight_views(point: TurningPoint, names: Sequence[str], title: str = "") -> list:
    """The frames of ``point`` (:func:`rendering.animation.play_frames`, from the mover's side): the position and
    dice before the play, one frame per checker moved, the last the position after it with ``title`` (e.g.
    ``#12``) and the swing in the header. A cube swing, from the doubler's side: the position with the cube before,
    the cube offered to the taker, then the cube taken (the taker owns it) or the game over."""
    from rendering import OPPONENT, VIEWER, BoardView
    from rendering.animation import play_frames

    decision = point.decision
    cube = decision.cube
    header = f"{title + ' ' if title else ''}turning point: {point.change}"
    if point.measure == CUBE:
        doubler = 1 - decision.side
        frame = partial(
            BoardView, decision.position,
            viewer_name=names[doubler], opponent_name=names[decision.side], viewer_colour=doubler,
            crawford=cube.crawford, score=cube.score, match_length=cube.match_length, position_id="",
        )  # fmt: skip
        owner = {None: None, 0: VIEWER, 1: OPPONENT}[cube.owner]
        return [
            frame(on_roll=VIEWER, awaiting="to roll or double", cube_value=cube.value, cube_owner=owner),
            frame(on_roll=OPPONENT, awaiting=f"to take or pass the cube at {2 * cube.value}",
                  cube_value=cube.value, cube_owner=owner, offered_cube=2 * cube.value),
            frame(on_roll=None, awaiting=header[:90], cube_value=int(point.after) or cube.value,
                  cube_owner=OPPONENT if point.after else owner),
        ]  # fmt: skip
    side = decision.side
    play, dice = _played(decision)
    return play_frames(
        decision.position, play.moves, dice, header[:90],
        viewer_name=names[side], opponent_name=names[1 - side], viewer_colour=side, cube_value=cube.value,
        cube_owner={None: None, 0: VIEWER, 1: OPPONENT}[cube.owner], crawford=cube.crawford, score=cube.score,
        match_length=cube.match_length,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Highlight:
    """A match's highlight: ``filename`` (``highlight-12.gif``), ``caption`` (one line), ``data`` (the GIF),
    ``point`` (:class:`TurningPoint`)."""

    filename: str
    caption: str
    data: bytes
    point: TurningPoint


def compute_highlight(
    games: Sequence[Game], names: Sequence[str], match_id: int, *, grades=None, theme=None, width: int = 600
) -> Highlight | None:
    """The :class:`Highlight` of match ``match_id`` (its ``games`` in order, ``names`` of sides 0 and 1), or None
    when nothing was played and no double answered. Draws with Pillow: call it in a thread (:func:`match_highlight`)."""
    from rendering.animation import render_animation

    point = turning_point(games, grades)
    if point is None:
        return None
    data = render_animation(highlight_views(point, names, f"#{match_id}"), theme, width=width)
    measure = "the engine's equity" if point.measure == EQUITY else "the pip count and the cube"
    caption = f"Turning point of #{match_id}, {point.describe(names)} (by {measure})"
    return Highlight(f"highlight-{match_id}.gif", caption, data, point)


async def match_highlight(service, match_id: int, *, pool=None, analysis=None, options=None) -> Highlight | None:
    """The highlight of finished match ``match_id``: by the engine's equity when ``analysis`` (its
    :class:`~club.analysis.match.MatchAnalysis`) is given or ``pool`` can grade it (the engine installed), else by
    the pip count and the cube. The grading runs in the pool, the drawing in a thread. Raises the refusal of
    :func:`~club.analysis.hints.refuse_until_over` for a match not over (RULES 003 1.5)."""
    from .analysis import engine_available
    from .analysis.hints import refuse_until_over
    from .analysis.review import club_games

    view = await service.state(match_id)
    if view.status != MatchStatus.OVER:
        raise refuse_until_over(f"match #{match_id}", "highlight")
    games = await club_games(service, match_id)
    if analysis is None and pool is not None and engine_available():
        from .analysis.match import analyse_games

        analysis = await asyncio.to_thread(analyse_games, games, view.names, length=view.length, pool=pool, luck=False)
    grades = None if analysis is None else [g for p in analysis.players for g in p.grades]
    theme = getattr(options, "theme", None)
    return await asyncio.to_thread(compute_highlight, games, view.names, match_id, grades=grades, theme=theme)
