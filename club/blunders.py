"""A member's blunders: his costliest decisions — checker plays and cube decisions (doubling or not, taking or
passing) — across his recent finished matches in the club, each with the board, what he did, the engine's choice and
the equity he lost. No Discord types: ``/study blunders`` and the console's ``blunders`` show what
:func:`member_blunders` returns.

Only finished matches are read (RULES 003 1.5: nothing about a game in play). His decisions are screened as the
quiz screens them (:func:`club.quiz.screen_candidates`: the worker pool, the games screened or reviewed before read
from its cache) and the costliest are graded again at :data:`~club.quiz.QUIZ_LEVEL` (the figures shown all come
from that one level).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .analysis.screen import FLOOR
from .quiz import QUIZ_LEVEL, QuizQuestion, question_task, recent_games, screen_candidates

MATCHES = 20
"""His last matches read."""
MAX_COUNT = 5
MIN_LOSS = FLOOR


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
    """The ``count`` (1–:data:`MAX_COUNT`) costliest decisions of ``member_id`` (shown as ``name``) in his last
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

    def keep(match_id: int, _number: int, _index: int, loss: float, side: int) -> bool:
        return side == sides[match_id] and loss >= MIN_LOSS

    candidates = (await screen_candidates(pool, games, keep, db=service.db))[: count * 2]
    graded = await asyncio.gather(
        *(pool.run(question_task, games[(m, n)], index, MIN_LOSS, 0) for _loss, m, n, index in candidates)
    )
    found = [
        QuizQuestion.from_task(data, match_id, number, index, views[match_id])
        for (_loss, match_id, number, index), data in zip(candidates, graded, strict=True)
        if data is not None
    ]
    found.sort(key=lambda q: -q.loss)
    found = found[:count]
    if not found:
        return Blunders(
            [f"No decision of {name}'s last {len(matches)} finished matches lost {MIN_LOSS:g} or more."], []
        )
    lines = [f"**{name}'s costliest decisions** (last {len(matches)} finished matches, Open Sage {QUIZ_LEVEL})"]
    images = []
    for number, question in enumerate(found, start=1):
        made, best = question.choices[question.made], question.choices[question.best]
        lines.append(
            f"{number}. #{question.match_id} game {question.game}, {question.situation}: played {made.play} "
            f"({made.equity:+.3f}), best {best.play} ({best.equity:+.3f}), −{question.loss:.3f}"
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
