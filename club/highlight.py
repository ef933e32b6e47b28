"""A match's highlight: its turning point played again, checker by checker, as an animated image to share.

The turning point is the checker play after which the game's balance moved most:

- with the engine's grades of the match (:class:`~club.analysis.grade.Grade`, from its review), the biggest swing in
  equity (EMG, cube units) between one graded play and the next one of the same game, both read from side 0's
  view — the roll and the play that turned the game;
- without the engine, the biggest swing in the pip count (the mover's pips played plus the pips his hits sent
  back), read from the positions alone.

:func:`highlight_views` turns it into boards: the position before the play with the dice shown, one frame per
checker moved (the moves so far marked), the last frame the position after the play with what happened in the
header; :func:`~rendering.animation.render_animation` writes them as a GIF of at most 2 MB, 600 px wide. No Discord
types: the cog and the console both show what :func:`match_highlight` returns. Only a finished match has a
highlight (RULES 003 1.5: nothing about a game in play is shown to anyone).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from backgammon.game import Game
from backgammon.moves import dice_text

from .analysis.walk import PLAY, Decision, decisions

EQUITY, PIPS = "equity", "pips"


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """The play that turned a match: ``game`` its number (1 = first), ``decision`` the checker play
    (:class:`~club.analysis.walk.Decision`, from the mover's view), ``swing`` how much the balance moved (equity in
    cube units with ``measure`` :data:`EQUITY`, pips with :data:`PIPS`), ``before``/``after`` the balance from the
    mover's view (his equity, or his pip lead) around it."""

    game: int
    decision: Decision
    swing: float
    measure: str
    before: float
    after: float

    @property
    def change(self) -> str:
        """The swing in words, from the mover's view: ``equity -0.21 → +0.48`` or ``pip lead -12 → +19``."""
        if self.measure == EQUITY:
            return f"equity {self.before:+.2f} → {self.after:+.2f}"
        return f"pip lead {self.before:+.0f} → {self.after:+.0f}"

    def describe(self, names: Sequence[str]) -> str:
        """``game 2, Ann with 6-4: 24/14* — equity -0.21 → +0.48`` (see :attr:`change`)."""
        decision = self.decision
        play = decision.play.notation() or "no move"
        return f"game {self.game}, {names[decision.side]} with {dice_text(decision.dice)}: {play} — {self.change}"


def _pip_lead(decision: Decision) -> tuple[float, float]:
    start, end = decision.position, decision.play.position
    return start.pips_opponent - start.pips_player, end.pips_opponent - end.pips_player


def turning_point(games: Sequence[Game], grades: Sequence | None = None) -> TurningPoint | None:
    """The turning point of ``games`` (in order; see the module docstring). ``grades`` — the engine's grades of the
    same games (each with ``game`` numbered from 1) — choose by equity; without them the pip count decides. None
    when no checker was played."""
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
                    best = TurningPoint(grade.game, grade.decision, swing, EQUITY, sign * previous[1], sign * balance)
            previous = (grade.game, balance)
        if best is not None:
            return best
    for number, game in enumerate(games, start=1):
        for decision in decisions(game):
            if decision.kind != PLAY or decision.play is None or not decision.play.moves:
                continue
            before, after = _pip_lead(decision)
            swing = after - before
            if best is None or swing > best.swing:
                best = TurningPoint(number, decision, swing, PIPS, before, after)
    return best


def highlight_views(point: TurningPoint, names: Sequence[str], title: str = "") -> list:
    """The frames of ``point``'s play (:func:`rendering.animation.play_frames`, from the mover's side): the
    position and dice before it, one frame per checker moved, the last the position after it with ``title`` (e.g.
    ``#12``) and the swing in the header."""
    from rendering import OPPONENT, VIEWER
    from rendering.animation import play_frames

    decision = point.decision
    cube = decision.cube
    side = decision.side
    header = f"{title + ' ' if title else ''}turning point: {point.change}"
    return play_frames(
        decision.position, decision.play.moves, decision.dice, header[:90],
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
    when nothing was played. Draws with Pillow: call it in a thread (:func:`match_highlight`)."""
    from rendering.animation import render_animation

    point = turning_point(games, grades)
    if point is None:
        return None
    data = render_animation(highlight_views(point, names, f"#{match_id}"), theme, width=width)
    measure = "the engine's equity" if point.measure == EQUITY else "the pip count (no engine)"
    caption = f"Turning point of #{match_id}, {point.describe(names)} (by {measure})"
    return Highlight(f"highlight-{match_id}.gif", caption, data, point)


async def match_highlight(service, match_id: int, *, pool=None, analysis=None, options=None) -> Highlight | None:
    """The highlight of finished match ``match_id``: by the engine's equity when ``analysis`` (its
    :class:`~club.analysis.match.MatchAnalysis`) is given or ``pool`` can grade it (the engine installed), else by
    the pip count. The grading runs in the pool, the drawing in a thread. Raises the refusal of
    :func:`~club.analysis.hints.refuse_in_play` for a match not over (RULES 003 1.5)."""
    from .analysis import engine_available
    from .analysis.hints import refuse_in_play
    from .analysis.review import club_games

    view = await service.state(match_id)
    if view.status != "over":
        raise refuse_in_play(f"match #{match_id}")
    games = await club_games(service, match_id)
    if analysis is None and pool is not None and engine_available():
        from .analysis.match import analyse_games

        analysis = await asyncio.to_thread(analyse_games, games, view.names, length=view.length, pool=pool, luck=False)
    grades = None if analysis is None else [g for p in analysis.players for g in p.grades]
    theme = getattr(options, "theme", None)
    return await asyncio.to_thread(compute_highlight, games, view.names, match_id, grades=grades, theme=theme)
