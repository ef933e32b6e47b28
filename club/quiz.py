"""The club quiz: a clear error from the club's own finished games, asked as a poll of 3–4 plays.

Picking (:func:`pick_question`, the engine in the worker pool, never on the event loop):

1. the club's last :data:`RECENT` finished rated matches (status ``over``: a game in play is never used, RULES
   003 1.5; practice games against the engine are left out);
2. every checker play with at least three legal plays is screened by the engine's quick level
   (:data:`SCREEN_LEVEL`), newest match first, until :data:`ENOUGH` are found; plays that lost at least the club's
   ``quiz_threshold`` are candidates, costliest first, and decisions an earlier quiz of the club asked about are
   skipped;
3. the first candidates are graded again at :data:`QUIZ_LEVEL` — every equity on one card comes from that one level
   — and the costliest that still lost the threshold becomes the :class:`QuizQuestion`: the best play, the member's
   own, the next best (a plausible one) and, with four or more legal plays, a clearly worse one, in shuffled order
   (the best is not always first).

The reveal (:meth:`QuizQuestion.reveal_lines`) gives the engine's ranking with equities, who voted for what and who
was right. No Discord types: the cog posts the poll, the console prints it as text.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from backgammon.game import Game
from backgammon.moves import Move, dice_text
from backgammon.position import Position

from .analysis.engine import CubeState
from .analysis.walk import PLAY, decisions

RECENT = 50
SCREEN_LEVEL = "1ply"
QUIZ_LEVEL = "2ply"
FINALISTS = 4
"""Candidates graded again at :data:`QUIZ_LEVEL` (the costliest by the screen)."""
ENOUGH = 24
"""The screening stops once this many candidates are found (the batches are handed out newest match first)."""
QUESTION_LIMIT = 300
ANSWER_LIMIT = 55
"""Discord's limits: a poll's question (300 characters) and each answer (55)."""


class NoQuizError(LookupError):
    """No finished game of the club has a clear error left to ask about (the message says so)."""


@dataclass(frozen=True, slots=True)
class QuizChoice:
    """One answer: ``play`` in notation, its ``equity`` (the mover's view, :data:`QUIZ_LEVEL`), its ``moves``."""

    play: str
    equity: float
    moves: tuple[tuple[int, int, int, bool], ...] = ()


@dataclass(slots=True)
class QuizQuestion:
    """A quiz position: from match ``match_id``, game ``game`` (1 = first), history entry ``index``; ``member_id``
    and ``side`` who played it, ``names`` of sides 0 and 1; ``position_id`` (gnubg, the mover on roll), ``dice``,
    ``cube`` (:class:`~club.analysis.engine.CubeState` fields); ``choices`` in the order shown, ``best`` and
    ``made`` their indexes (the engine's best, the member's play); ``level`` of the equities."""

    match_id: int
    game: int
    index: int
    member_id: int
    side: int
    names: tuple[str, str]
    position_id: str
    dice: tuple[int, int]
    cube: dict
    choices: list[QuizChoice] = field(default_factory=list)
    best: int = 0
    made: int = 0
    level: str = QUIZ_LEVEL

    def to_json(self) -> dict:
        """The question as a JSON object (stored with the quiz until its reveal)."""
        data = asdict(self)
        data["choices"] = [asdict(choice) for choice in self.choices]
        return data

    @classmethod
    def from_json(cls, data: dict) -> QuizQuestion:
        """The question stored by :meth:`to_json`."""
        data = dict(data)
        data["names"] = tuple(data["names"])
        data["dice"] = tuple(data["dice"])
        data["choices"] = [
            QuizChoice(c["play"], c["equity"], tuple(tuple(m) for m in c["moves"])) for c in data["choices"]
        ]
        return cls(**data)

    @property
    def position(self) -> Position:
        """The position, the mover on roll."""
        return Position.from_position_id(self.position_id)

    @property
    def cube_state(self) -> CubeState:
        """The cube and score around the play."""
        return CubeState(**{**self.cube, "score": tuple(self.cube["score"])})

    def mover(self, show_names: bool) -> str:
        """Who is to play: his name when the club shows names, else "the player on roll"."""
        return self.names[self.side] if show_names else "the player on roll"

    def poll_question(self, number: int, show_names: bool) -> str:
        """The poll's question, at most :data:`QUESTION_LIMIT` characters: ``Quiz 3: Ann to play 6-4 (…). Best?``"""
        cube = self.cube_state
        what = f"{cube.match_length}-point match, {cube.score[0]}-{cube.score[1]}" if cube.match_length else "money"
        if cube.value > 1:
            what += f", cube {cube.value}"
        text = f"Quiz {number}: {self.mover(show_names)} to play {dice_text(self.dice)} ({what}). Which play is best?"
        return text[:QUESTION_LIMIT]

    def answers(self) -> list[str]:
        """The poll's answers in the order shown (each at most :data:`ANSWER_LIMIT` characters)."""
        return [choice.play[:ANSWER_LIMIT] for choice in self.choices]

    def as_text(self, number: int, show_names: bool) -> str:
        """The poll as text (the console): the question, then ``A. play`` per answer."""
        lines = [self.poll_question(number, show_names), f"Position ID {self.position_id}"]
        lines += [f"{chr(65 + i)}. {answer}" for i, answer in enumerate(self.answers())]
        return "\n".join(lines)

    def board_view(self, show_names: bool, *, after: int | None = None, prompt: str = "which play is best?"):
        """The :class:`~rendering.view.BoardView` of the position from the mover's side with the dice and
        ``prompt``; ``after`` a choice's index: the position after that play, its moves marked."""
        from backgammon.moves import apply_move
        from rendering import OPPONENT, VIEWER, BoardView

        cube = self.cube_state
        names = self.names if show_names else ("On roll", "Opponent") if self.side == 0 else ("Opponent", "On roll")
        position = self.position
        extra: dict = {"on_roll": VIEWER, "awaiting": f"to play {dice_text(self.dice)}: {prompt}"[:80]}
        if after is not None:
            moves = tuple(Move(*m) for m in self.choices[after].moves)
            for move in moves:
                position, _hit = apply_move(position, move.source, move.target)
            extra = {
                "on_roll": None, "awaiting": f"best: {self.choices[after].play}", "last_play": moves,
                "last_mover": VIEWER, "last_dice": self.dice,
            }  # fmt: skip
        return BoardView(
            position, viewer_name=names[self.side], opponent_name=names[1 - self.side], viewer_colour=self.side,
            cube_value=cube.value, cube_owner={None: None, 0: VIEWER, 1: OPPONENT}[cube.owner],
            crawford=cube.crawford, score=cube.score, match_length=cube.match_length, dice=self.dice,
            dice_side=VIEWER, **extra,
        )  # fmt: skip

    def reveal_lines(self, number: int, votes: dict[int, list[str]], show_names: bool) -> list[str]:
        """The reveal: the engine's ranking of the choices with equities (the best marked, the play made in the
        game marked), then who voted for what. ``votes``: choice index → voters' names."""
        lines = [f"**Quiz {number} — the answer** (Open Sage {self.level})"]
        ranked = sorted(range(len(self.choices)), key=lambda i: -self.choices[i].equity)
        top = self.choices[self.best].equity
        for rank, i in enumerate(ranked, start=1):
            choice = self.choices[i]
            marks = []
            if i == self.best:
                marks.append("best")
            if i == self.made:
                marks.append(f"played by {self.names[self.side]}" if show_names else "played in the game")
            note = f" — {', '.join(marks)}" if marks else ""
            voters = votes.get(i, [])
            who = f"; votes: {', '.join(voters)}" if voters else "; no votes"
            lines.append(f"{rank}. {choice.play}: {choice.equity:+.3f} ({choice.equity - top:+.3f}){note}{who}")
        if show_names:
            lines.append(f"From {self.names[0]} vs {self.names[1]} (#{self.match_id}), game {self.game}.")
        return lines


def quiz_card_png(question: QuizQuestion, show_names: bool, options=None, *, after: int | None = None) -> bytes:
    """The board picture of ``question`` (or, with ``after``, of the position after that choice), as PNG bytes.
    Runs Pillow: call it in a thread."""
    from rendering import render_board

    width = getattr(options, "width", 700) if options is not None else 700
    return render_board(question.board_view(show_names, after=after), getattr(options, "theme", None), width=width)


# -- worker tasks -------------------------------------------------------------------------------------------------
def warm_task(level: str) -> str:
    """Worker task: build this process's engine at ``level`` now (a benchmark starts its workers before timing)."""
    from .analysis.pool import engine

    engine(level)
    return level


def screen_task(
    items: Sequence[tuple[int, int, dict]], threshold: float, sides: dict | None = None
) -> list[tuple[float, int, int, int]]:
    """Worker task: the checker plays of ``items`` (``(match id, game number, Game.to_json())``) with at least
    three legal plays that lost ``threshold`` or more at :data:`SCREEN_LEVEL`, as ``(loss, match id, game,
    history index)``; only the plays of side ``sides[match id]`` when ``sides`` is given."""
    from .analysis.pool import engine

    found = []
    screen = engine(SCREEN_LEVEL)
    for match_id, number, game_json in items:
        only = None if sides is None else sides.get(match_id)
        plays = [
            d
            for d in decisions(Game.from_json(game_json))
            if d.kind == PLAY and d.choices >= 3 and (only is None or d.side == only)
        ]
        if not plays:
            continue
        ranked = screen.best_plays_many([(d.position, d.dice, d.cube) for d in plays])
        for decision, entries in zip(plays, ranked, strict=True):
            made = next((e for e in entries if e.play.position == decision.play.position), None)
            if made is not None and made.loss >= threshold:
                found.append((made.loss, match_id, number, decision.index))
    return found


def question_task(game_json: dict, index: int, threshold: float, seed: int) -> dict | None:
    """Worker task: the choices of the play at history ``index`` of ``game_json``, graded at :data:`QUIZ_LEVEL`
    (see the module docstring), or None when it did not lose ``threshold`` there. Returns ``{"position_id",
    "dice", "cube", "side", "choices": [[play, equity, moves]…], "best", "made"}`` in shuffled order (``seed``)."""
    from .analysis.pool import engine

    decision = next(d for d in decisions(Game.from_json(game_json)) if d.kind == PLAY and d.index == index)
    ranked = engine(QUIZ_LEVEL).best_plays(decision.position, decision.dice, decision.cube)
    made = next((e for e in ranked if e.play.position == decision.play.position), None)
    if made is None or made.loss < threshold or len(ranked) < 3:
        return None
    rng = random.Random(seed)
    picked = [ranked[0], made]
    others = [e for e in ranked[1:] if e is not made]
    picked.append(others[0])  # the next best: a plausible answer
    worse = [e for e in others[1:] if e.loss >= max(made.loss, 0.16)]
    if worse:
        picked.append(rng.choice(worse[:6]))  # a clearly worse one, for beginners
    order = list(range(len(picked)))
    rng.shuffle(order)
    shown = [picked[i] for i in order]
    return {
        "position_id": decision.position.position_id(),
        "dice": list(decision.dice),
        "cube": {**asdict(decision.cube), "score": list(decision.cube.score)},
        "side": decision.side,
        "choices": [[e.play.notation() or "no move", e.equity, [list(m) for m in e.play.moves]] for e in shown],
        "best": order.index(0),
        "made": order.index(1),
    }


# -- picking ------------------------------------------------------------------------------------------------------
async def recent_games(
    service, club_id: int, limit: int = RECENT, *, member: int | None = None
) -> list[tuple[object, list[dict]]]:
    """The club's last ``limit`` finished rated matches (practice games left out; only ``member``'s when given):
    ``(TableView, games)`` each, every game as stored (``Game.to_json()``: the worker tasks' input, not rebuilt
    here on the event loop)."""
    from storage.quizzes import finished_matches

    found = []
    for match_id in await finished_matches(service.db, club_id, limit, member=member):
        view = await service.state(match_id)
        if view.status != "over" or view.practice:
            continue
        found.append((view, [record.state for record in await service.db.games(match_id)]))
    return found


def _batches(items: list, count: int) -> Iterable[list]:
    size = max(1, -(-len(items) // count))
    for start in range(0, len(items), size):
        yield items[start : start + size]


async def pick_question(
    service, club_id: int, pool, *, threshold: float, exclude: set | None = None, seed: int | None = None
) -> QuizQuestion:
    """A :class:`QuizQuestion` from club ``club_id``'s recent finished games (see the module docstring): the
    screening spread over ``pool``'s workers, the final grading in one of them; the event loop only awaits.
    ``exclude``: ``(match id, game, index)`` already asked. Raises :class:`NoQuizError` when no clear error is
    left, :class:`~club.analysis.AnalysisUnavailableError` without the engine."""
    import secrets

    matches = await recent_games(service, club_id)
    views = {view.match_id: view for view, _games in matches}
    games = {(view.match_id, n): g for view, found in matches for n, g in enumerate(found, start=1)}
    items = [(match_id, number, data) for (match_id, number), data in games.items()]
    if not items:
        raise NoQuizError("The club has no finished rated match to make a quiz from yet.")
    exclude = exclude or set()
    batches = list(_batches(items, 4 * max(1, pool.workers)))  # small batches keep every worker busy to the end
    tasks = [asyncio.ensure_future(pool.run(screen_task, batch, threshold)) for batch in batches]
    found: list = []
    try:
        for done in asyncio.as_completed(tasks):
            found += [c for c in await done if (c[1], c[2], c[3]) not in exclude]
            if len(found) >= ENOUGH:
                break
    finally:
        for task in tasks:
            task.cancel()  # batches not started are not run
    candidates = sorted(found, key=lambda c: -c[0])
    seed = secrets.randbits(32) if seed is None else seed
    for _loss, match_id, number, index in candidates[:FINALISTS]:
        data = await pool.run(question_task, games[(match_id, number)], index, threshold, seed)
        if data is None:
            continue
        view = views[match_id]
        return QuizQuestion(
            match_id, number, index, view.players[data["side"]], data["side"], tuple(view.names),
            data["position_id"], tuple(data["dice"]), data["cube"],
            [QuizChoice(play, equity, tuple(tuple(m) for m in moves)) for play, equity, moves in data["choices"]],
            data["best"], data["made"],
        )  # fmt: skip
    raise NoQuizError(
        f"No play of the club's last {len(matches)} finished matches lost {threshold:g} or more that a quiz has "
        "not asked about yet."
    )


# -- the club's quizzes (the front ends call these) -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NewQuiz:
    """A quiz stored and ready to post: ``quiz_id``, its ``number`` in the club, the ``question``, whether it
    ``show_names``, ``hours`` its poll stays open, ``png`` its board picture."""

    quiz_id: int
    number: int
    question: QuizQuestion
    show_names: bool
    hours: int
    png: bytes


@dataclass(frozen=True, slots=True)
class Reveal:
    """A quiz's reveal: ``lines`` of text (the ranking, the votes, the leaderboard) and ``png`` the board after
    the best play."""

    lines: list[str]
    png: bytes

    @property
    def text(self) -> str:
        """The lines joined (at most 2,000 characters)."""
        return "\n".join(self.lines)[:2000]


async def start_quiz(service, guild_id: int, channel_id: int, pool, *, hours: int, options=None) -> NewQuiz:
    """Pick a question from the club of ``guild_id`` (:func:`pick_question`) and store it as an open quiz of
    ``channel_id`` that closes in ``hours``; the front end posts its poll, then calls :func:`quiz_posted`. Raises
    :class:`NoQuizError`, :class:`~club.analysis.AnalysisUnavailableError`."""
    from storage import quizzes

    club_id = await service.club_id_of(guild_id)
    if club_id is None:
        raise NoQuizError("This server's club has no finished match to make a quiz from yet.")
    settings = await service.club_settings(guild_id)
    used = await quizzes.used_decisions(service.db, club_id)
    question = await pick_question(service, club_id, pool, threshold=settings.quiz_threshold, exclude=used)
    now = service.clock.now()
    number = await quizzes.quiz_count(service.db, club_id) + 1
    stored = {**question.to_json(), "number": number}
    quiz_id = await quizzes.add_quiz(service.db, club_id, channel_id, stored, now, now + hours * 3600)
    png = await asyncio.to_thread(quiz_card_png, question, settings.quiz_names, options)
    return NewQuiz(quiz_id, number, question, settings.quiz_names, hours, png)


async def quiz_posted(service, quiz_id: int, message_id: int | None) -> None:
    """The poll of quiz ``quiz_id`` was posted as ``message_id`` (None: it could not be, and the quiz is dropped)."""
    from storage import quizzes

    if message_id is None:
        await quizzes.drop_quiz(service.db, quiz_id)
    else:
        await quizzes.set_quiz_message(service.db, quiz_id, message_id)


async def pending_quizzes(service, *, message_id: int | None = None, due: bool = False) -> list:
    """The posted quizzes not yet revealed (:class:`storage.quizzes.QuizRecord`), only the one of poll
    ``message_id`` when given, only those whose poll should have closed by now with ``due``."""
    from storage import quizzes

    found = await quizzes.open_quizzes(service.db, message_id=message_id)
    if due:
        now = service.clock.now()
        found = [record for record in found if record.closes_at <= now]
    return found


async def reveal_quiz(service, record, votes: dict[int, list[tuple[int, str]]], options=None) -> Reveal | None:
    """The reveal of quiz ``record`` from its poll's final ``votes`` (choice index → ``(member id, name)``):
    each voter's answer kept for the leaderboard, the quiz marked revealed. None when it was revealed already."""
    from storage import quizzes

    question = QuizQuestion.from_json({k: v for k, v in record.question.items() if k != "number"})
    guild_id = await service.guild_of(record.club_id)
    settings = await service.club_settings(guild_id)
    answers = [(member, index == question.best) for index, voters in votes.items() for member, _name in voters]
    if not await quizzes.reveal_quiz(service.db, record.id, record.club_id, answers):
        return None
    number = int(record.question.get("number") or 0)
    names = {index: [name for _member, name in voters] for index, voters in votes.items()}
    lines = question.reveal_lines(number, names, settings.quiz_names)
    right = [name for _member, name in votes.get(question.best, [])]
    lines.append(f"Right: {', '.join(right)}." if right else "Nobody found the best play this time.")
    lines += await leaderboard_lines(service, record.club_id, limit=5)
    png = await asyncio.to_thread(quiz_card_png, question, settings.quiz_names, options, after=question.best)
    return Reveal(lines, png)


async def leaderboard_lines(service, club_id: int, *, limit: int = 10) -> list[str]:
    """The club's quiz leaderboard in lines: ``1. <@id> 4 of 5 right`` (members as mentions)."""
    from storage import quizzes

    scores = await quizzes.quiz_scores(service.db, club_id, limit)
    if not scores:
        return ["Quiz leaderboard: no answers yet."]
    lines = ["Quiz leaderboard:"]
    lines += [f"{n}. <@{s.member_id}> {s.correct} of {s.answered} right" for n, s in enumerate(scores, start=1)]
    return lines


async def club_leaderboard(service, guild_id: int) -> list[str]:
    """The quiz leaderboard of the club of ``guild_id`` (see :func:`leaderboard_lines`)."""
    club_id = await service.club_id_of(guild_id)
    if club_id is None:
        return ["Quiz leaderboard: no answers yet."]
    return await leaderboard_lines(service, club_id)


async def quiz_due(service, guild_id: int) -> bool:
    """True when the club of ``guild_id`` schedules quizzes (``quiz_days``) and its last one is that old."""
    from storage import quizzes

    settings = await service.club_settings(guild_id)
    if not settings.quiz_days or not settings.quiz_channel:
        return False
    club_id = await service.club_id_of(guild_id)
    if club_id is None:
        return False
    last = await quizzes.last_quiz_at(service.db, club_id)
    return last is None or service.clock.now() - last >= settings.quiz_days * 86_400
