"""A member's blunders: his costliest checker plays across his recent finished matches in the club, each with the
board, his play, the engine's best play and the equity he lost. No Discord types: ``/study blunders`` and the
console's ``blunders`` show what :func:`member_blunders` returns.

Only finished matches are read (RULES 003 1.5: nothing about a game in play). The engine screens his plays at
:data:`~club.quiz.SCREEN_LEVEL` in the worker pool and grades the costliest again at :data:`~club.quiz.QUIZ_LEVEL`
(the figures shown all come from that one level), as the quiz does (:mod:`club.quiz`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from backgammon.moves import dice_text

from .quiz import QUIZ_LEVEL, QuizChoice, QuizQuestion, question_task, recent_games, screen_task

MATCHES = 20
"""His last matches read."""
MAX_COUNT = 5
MIN_LOSS = 0.04


@dataclass(frozen=True, slots=True)
class Blunders:
    """What the list shows: ``lines`` (text) and ``images`` (``(file name, PNG)``, one board per blunder)."""

    lines: list[str]
    images: list[tuple[str, bytes]]

    @property
    def text(self) -> str:
        """The lines joined (at most 2,000 characters)."""
        return "\n".join(self.lines)[:2000]


async def member_blunders(
    service, guild_id: int, member_id: int, name: str, pool, *, count: int = 3, options=None
) -> Blunders:
    """The ``count`` (1–:data:`MAX_COUNT`) costliest plays of ``member_id`` (shown as ``name``) in his last
    :data:`MATCHES` finished matches in the club of ``guild_id``. Raises
    :class:`~club.analysis.AnalysisUnavailableError` without the engine."""
    count = max(1, min(MAX_COUNT, count))
    club_id = await service.club_id_of(guild_id)
    matches = [] if club_id is None else await recent_games(service, club_id, MATCHES, member=member_id)
    if not matches:
        return Blunders([f"{name} has no finished match in this club yet."], [])
    sides = {view.match_id: view.players.index(member_id) for view, _games in matches}
    views = {view.match_id: view for view, _games in matches}
    games = {(view.match_id, n): g for view, found in matches for n, g in enumerate(found, start=1)}
    items = [(match_id, number, data) for (match_id, number), data in games.items()]
    half = max(1, -(-len(items) // max(1, pool.workers)))
    batches = [items[i : i + half] for i in range(0, len(items), half)]
    screened = await asyncio.gather(*(pool.run(screen_task, batch, MIN_LOSS, sides) for batch in batches))
    candidates = sorted((c for found in screened for c in found), key=lambda c: -c[0])[: count * 2]
    graded = await asyncio.gather(
        *(pool.run(question_task, games[(m, n)], index, MIN_LOSS, 0) for _loss, m, n, index in candidates)
    )
    found = []
    for (_loss, match_id, number, index), data in zip(candidates, graded, strict=True):
        if data is None:
            continue
        view = views[match_id]
        question = QuizQuestion(
            match_id, number, index, member_id, data["side"], tuple(view.names), data["position_id"],
            tuple(data["dice"]), data["cube"],
            [QuizChoice(play, equity, tuple(tuple(m) for m in moves)) for play, equity, moves in data["choices"]],
            data["best"], data["made"],
        )  # fmt: skip
        found.append(question)
    found.sort(key=lambda q: q.choices[q.made].equity - q.choices[q.best].equity)
    found = found[:count]
    if not found:
        return Blunders([f"No play of {name}'s last {len(matches)} finished matches lost {MIN_LOSS:g} or more."], [])
    lines = [f"**{name}'s costliest plays** (last {len(matches)} finished matches, Open Sage {QUIZ_LEVEL})"]
    images = []
    for number, question in enumerate(found, start=1):
        made, best = question.choices[question.made], question.choices[question.best]
        lines.append(
            f"{number}. #{question.match_id} game {question.game}, {dice_text(question.dice)}: played {made.play} "
            f"({made.equity:+.3f}), best {best.play} ({best.equity:+.3f}), −{best.equity - made.equity:.3f}"
        )
        prompt = f"played {made.play}, best {best.play}"
        png = await asyncio.to_thread(_card, question, options, prompt)
        images.append((f"blunder-{number}.png", png))
    return Blunders(lines, images)


def _card(question: QuizQuestion, options, prompt: str) -> bytes:
    from rendering import render_board

    width = getattr(options, "width", 700) if options is not None else 700
    view = question.board_view(True, prompt=prompt)
    return render_board(view, getattr(options, "theme", None), width=width)
