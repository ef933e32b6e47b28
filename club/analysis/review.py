"""The review of a club match or money session: both players' PR, the three costliest errors
as board pictures (the play made and the best play, with equities) and the cube errors. No Discord types: the
Discord cog and the console both show what :func:`review_match` returns.

The games come from storage (each game's stored state holds its whole history); the grading runs in the worker
pool (:mod:`club.analysis.pool`), the pictures in a thread (``asyncio.to_thread``), so the event loop never waits.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from backgammon.game import Game
from backgammon.moves import dice_text

from ..table import MatchStatus
from ..wording import plural
from .grade import Grade
from .match import DEFAULT_LEVEL, MatchAnalysis, analyse_games
from .walk import ANSWER, DOUBLE

if TYPE_CHECKING:
    from ..results import TableView
    from ..service import ClubService

COSTLIEST = 3


TEXT_LIMIT = 3500
"""The most characters of a review's text (a message body)."""


@dataclass(slots=True)
class Review:
    """What a review shows: ``title``, ``lines`` (text), ``images`` (``(file name, caption, PNG bytes)``) and the
    ``analysis`` behind it (:class:`~club.analysis.match.MatchAnalysis`)."""

    title: str
    lines: list[str]
    analysis: MatchAnalysis
    images: list[tuple[str, str, bytes]] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The lines joined for a message body: at most :data:`TEXT_LIMIT` characters, cut between whole lines
        with ``… and N more lines`` saying what was left out."""
        kept: list[str] = []
        size = 0
        for line in self.lines:
            if size + len(line) + 1 > TEXT_LIMIT - 40:  # room for the closing line
                break
            kept.append(line)
            size += len(line) + 1
        left = len(self.lines) - len(kept)
        return "\n".join([*kept, f"… and {plural(left, 'more line')}"] if left else kept)


async def club_games(service: ClubService, match_id: int) -> list[Game]:
    """Every game of match ``match_id`` as stored, in order (:class:`~backgammon.game.Game` with its history)."""
    records = await service.db.games(match_id)
    return [Game.from_json(record.state) for record in records]


def _cube_line(grade: Grade, names) -> str:
    who = names[grade.side]
    made, best, cube = grade.made, grade.best, grade.equities
    return (
        f"game {grade.game}: {who} — {made}, right was {best} "
        f"(−{grade.loss:.3f}; equities: no double {cube.no_double:+.3f}, double/take "
        f"{cube.double_take:+.3f}, double/pass {cube.double_pass:+.3f})"
    )


def review_lines(analysis: MatchAnalysis, title: str) -> list[str]:
    """The review's text: one line per player, the costliest plays and every cube error (see the module docstring)."""
    lines = [f"**Review: {title}** (Open Sage {analysis.level})"]
    names = analysis.names
    lines += [analysis.player_line(side, markdown=True) for side in range(len(analysis.players))]
    worst = costliest(analysis)
    if worst:
        lines.append("Costliest plays:")
        for number, grade in enumerate(worst, start=1):
            lines.append(
                f"{number}. game {grade.game}, {names[grade.side]} with {dice_text(grade.decision.dice)}: "
                f"played {grade.made} ({grade.made_equity:+.3f}), best {grade.best} "
                f"({grade.best_equity:+.3f}), −{grade.loss:.3f}"
            )
    cube = [g for p in analysis.players for g in p.grades if g.kind in (DOUBLE, ANSWER) and g.counted and g.loss > 1e-6]
    if cube:
        lines.append("Cube errors:")
        lines += [_cube_line(g, names) for g in sorted(cube, key=lambda g: (g.game, g.decision.index))]
    else:
        lines.append("Cube errors: none.")
    lines += [f"_{note}_" for note in analysis.notes]
    return lines


def costliest(analysis: MatchAnalysis, count: int = COSTLIEST) -> list[Grade]:
    """The ``count`` costliest checker plays of either player, worst first."""
    plays = [g for p in analysis.players for g in p.costliest(count)]
    return sorted(plays, key=lambda g: -g.loss)[:count]


def error_pictures(analysis: MatchAnalysis, options=None) -> list[tuple[str, str, bytes]]:
    """Two PNGs per costly play: the play made and the best play, each drawn from the mover's side with its moves
    marked and its equity in the header. Returns ``(file name, caption, PNG)``; runs Pillow (call it in a thread)."""
    from rendering import OPPONENT, VIEWER, BoardView, render_board

    width = getattr(options, "width", 700) if options is not None else 700
    theme = getattr(options, "theme", None)
    pictures = []
    for number, grade in enumerate(costliest(analysis), start=1):
        decision = grade.decision
        cube = decision.cube
        owner = {None: None, 0: VIEWER, 1: OPPONENT}[cube.owner]
        names = analysis.names
        for label, play, equity in (
            ("played", decision.made, grade.made_equity),
            ("best", grade.best_play or decision.made, grade.best_equity),
        ):
            text = play.notation() or "no move"
            mover = names[decision.side]
            caption = None
            if label == "best":  # a play nobody made: say whose turn it was and what he played instead
                made = decision.made.notation() or "no move"
                caption = f"best for {mover} with {dice_text(decision.dice)}: {text} ({mover} played {made})"
            view = BoardView(
                position=play.position,
                viewer_name=names[decision.side],
                opponent_name=names[1 - decision.side],
                viewer_colour=decision.side,
                on_roll=None,
                awaiting=f"{label} {text} ({equity:+.3f})"[:60],
                cube_value=cube.value,
                cube_owner=owner,
                crawford=cube.crawford,
                score=cube.score,
                match_length=cube.match_length,
                last_play=play.moves,
                last_mover=VIEWER,
                last_dice=decision.dice,
                caption=caption,
            )
            png = render_board(view, theme, width=max(400, min(width, 900)))
            caption = f"{number}. game {grade.game}, {names[decision.side]}: {label} {text} ({equity:+.3f})"
            pictures.append((f"review-{number}-{label}.png", caption, png))
    return pictures


def compute_review(
    games: list[Game],
    names,
    title: str,
    *,
    length: int,
    pool,
    finished: bool = True,
    level: str = DEFAULT_LEVEL,
    options=None,
) -> Review:
    """The :class:`Review` of ``games`` (grading spread over ``pool``'s worker processes, then the pictures drawn
    with Pillow here). Blocks until done: call it in a thread (:func:`review_match`, the console's automatic
    review). Raises :class:`~club.analysis.AnalysisUnavailableError` without the engine."""
    analysis = analyse_games(games, names, length=length, pool=pool, level=level, finished=finished)
    review = Review(title, review_lines(analysis, title), analysis)
    review.images = error_pictures(analysis, options)
    return review


def match_title(view: TableView) -> str:
    """``alice vs bob, 5-point match (#12)`` (or ``money session``) for a :class:`~club.results.TableView`."""
    what = f"{view.length}-point match" if view.length else "money session"
    return f"{view.names[0]} vs {view.names[1]}, {what} (#{view.match_id})"


async def keep_prs(service: ClubService, match_id: int, view: TableView, analysis: MatchAnalysis) -> bool:
    """Keep both members' PR of finished rated match ``match_id`` in the club's records (:mod:`storage.prs`;
    ``view`` its :class:`~club.results.TableView`). Practice games (:mod:`club.practice`), matches not over and
    matches no longer stored are not kept. Returns True when rows were written."""
    from storage.prs import MatchPr, keep_match_prs

    if view.status != MatchStatus.OVER or view.practice:
        return False
    record = await service.db.get_match(match_id)
    if record is None:
        return False
    rows = [
        MatchPr(
            member,
            player.decisions,
            player.equity_lost,
            analysis.pr(side),
            player.errors,
            player.blunders,
            player.cube_errors,
            f"Open Sage {analysis.level}",
        )
        for side, (member, player) in enumerate(zip(view.players, analysis.players, strict=True))
    ]
    ended = record.ended_at if record.ended_at is not None else record.updated_at
    await keep_match_prs(service.db, match_id, record.club_id, ended, rows)
    return True


async def review_match(
    service: ClubService, match_id: int, *, pool, level: str = DEFAULT_LEVEL, options=None
) -> Review:
    """The review of club match ``match_id`` (:meth:`~club.service.ClubService.state` for names and status). A
    finished rated match's PRs are kept in the club's records as it is computed (:func:`keep_prs`), and its
    decisions' losses as its games' screens (``pool``'s :class:`~club.analysis.screen.ScreenCache` and
    :func:`storage.quizzes.keep_screens`)."""
    view = await service.state(match_id)
    games = await club_games(service, match_id)
    review = await asyncio.to_thread(
        compute_review,
        games,
        view.names,
        match_title(view),
        length=view.length,
        pool=pool,
        finished=view.status == MatchStatus.OVER,
        level=level,
        options=options,
    )
    await keep_prs(service, match_id, view, review.analysis)
    cache = getattr(pool, "screened", None)
    if cache is not None and view.status == MatchStatus.OVER:  # the quiz and the blunders need not screen it again
        from storage.quizzes import keep_screens

        grades = [g for p in review.analysis.players for g in p.grades]
        await keep_screens(service.db, cache.keep_review(match_id, games, grades))
    return review
