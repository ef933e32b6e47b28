"""The club quiz: a clear error from the club's own finished games — a checker play or a cube decision — asked as a
poll.

Picking (:func:`pick_question`, the engine in the worker pool, never on the event loop):

1. the club's last :data:`RECENT` finished rated matches (status ``over``: a game in play is never used, RULES
   003 1.5; practice games against the engine are left out);
2. their games are screened (:mod:`club.analysis.screen`: every checker play with at least three legal plays, every
   cube decision and answer to a double, at the engine's quick level), newest match first, spread over the pool's
   workers, until :data:`ENOUGH` candidates are found; a game screened before (or reviewed when its match ended) is
   not screened again. Decisions that lost at least the club's ``quiz_threshold`` are candidates, costliest first;
   decisions an earlier quiz of the club asked about are skipped;
3. the first candidates are graded again at :data:`QUIZ_LEVEL` — every equity on one card comes from that one level
   — and the costliest that still lost the threshold becomes the :class:`QuizQuestion`:

   - a checker play: the best play, the member's own, the next best (a plausible one) and, with four or more legal
     plays, a clearly worse one, in shuffled order (the best is not always first);
   - a cube decision (RULES D1): "No double", "Double, take", "Double, pass" — the whole cube action, in that
     order; the member's own is what happened in the game (his double and the answer it got);
   - an answer to a double (RULES D2): "Take", "Pass".

The reveal (:meth:`QuizQuestion.reveal_lines`) gives the engine's ranking with equities, who voted for what and who
was right. No Discord types: the cog posts the poll, the console prints it as text.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from backgammon.game import Game
from backgammon.moves import Move, dice_text
from backgammon.position import Position

from .analysis.engine import CubeEquities, CubeState
from .analysis.grade import grade_answer, grade_double
from .analysis.screen import SCREEN_LEVEL, GameKey, Screened, game_key, screen_game
from .analysis.walk import ANSWER, DOUBLE, PLAY, Decision, decisions
from .results import TableView
from .table import MatchStatus

if TYPE_CHECKING:
    from .boards import BoardOptions
    from .results import TableView
    from .service import ClubService

RECENT = 50
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
    """One answer: ``play`` in notation (or the cube action in words), its ``equity`` (the decider's view,
    :data:`QUIZ_LEVEL`), its ``moves`` (a checker play's); ``loss`` what it gives up against the right answer
    (None: the best choice's equity minus this one's)."""

    play: str
    equity: float
    moves: tuple[tuple[int, int, int, bool], ...] = ()
    loss: float | None = None


@dataclass(slots=True)
class QuizQuestion:
    """A quiz position: from match ``match_id``, game ``game`` (1 = first), history entry ``index``; ``member_id``
    and ``side`` who decided, ``names`` of sides 0 and 1; ``position_id`` (gnubg, from the decider's view),
    ``dice`` (a checker play's; None for the cube), ``cube`` (:class:`~club.analysis.engine.CubeState` fields, the
    decider's view); ``choices`` in the order shown, ``best`` and ``made`` their indexes (the engine's best, what
    was done in the game); ``level`` of the equities; ``kind`` ``"play"``, ``"double"`` (the cube action of the
    player on roll) or ``"answer"`` (take or pass); ``loss`` the equity the member lost there."""

    match_id: int
    game: int
    index: int
    member_id: int
    side: int
    names: tuple[str, str]
    position_id: str
    dice: tuple[int, int] | None
    cube: dict
    choices: list[QuizChoice] = field(default_factory=list)
    best: int = 0
    made: int = 0
    level: str = QUIZ_LEVEL
    kind: str = PLAY
    loss: float = 0.0

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
        data["dice"] = None if data.get("dice") is None else tuple(data["dice"])
        data["choices"] = [
            QuizChoice(c["play"], c["equity"], tuple(tuple(m) for m in c["moves"]), c.get("loss"))
            for c in data["choices"]
        ]
        return cls(**data)

    @classmethod
    def from_task(cls, data: dict, match_id: int, game: int, index: int, view) -> QuizQuestion:
        """The question of :func:`question_task`'s answer ``data`` about game ``game`` of finished match ``view``
        (a :class:`~club.results.TableView`)."""
        return cls(
            match_id, game, index, view.players[data["side"]], data["side"], tuple(view.names), data["position_id"],
            None if data["dice"] is None else tuple(data["dice"]), data["cube"],
            [QuizChoice(play, equity, tuple(tuple(m) for m in moves), loss)
             for play, equity, moves, loss in data["choices"]],
            data["best"], data["made"], kind=data["kind"], loss=data["loss"],
        )  # fmt: skip

    @property
    def position(self) -> Position:
        """The position, from the decider's view."""
        return Position.from_position_id(self.position_id)

    @property
    def cube_state(self) -> CubeState:
        """The cube and score around the decision (the decider's view)."""
        return CubeState(**{**self.cube, "score": tuple(self.cube["score"])})

    def choice_loss(self, index: int) -> float:
        """What choice ``index`` gives up against the right answer (≥ 0)."""
        choice = self.choices[index]
        if choice.loss is not None:
            return choice.loss
        return max(0.0, self.choices[self.best].equity - choice.equity)

    @property
    def situation(self) -> str:
        """The decision in a few words: ``6-4`` (a roll to play), ``cube action`` or ``doubled to 4``."""
        if self.kind == DOUBLE:
            return "cube action"
        if self.kind == ANSWER:
            return f"doubled to {2 * self.cube_state.value}"
        return dice_text(self.dice)

    def mover(self, show_names: bool) -> str:
        """Who decides: his name when the club shows names, else "the player on roll"."""
        return self.names[self.side] if show_names else "the player on roll"

    def poll_question(self, number: int, show_names: bool) -> str:
        """The poll's question, at most :data:`QUESTION_LIMIT` characters: ``Quiz 3: Ann to play 6-4 (…). Which
        play is best?``, ``Quiz 3: Ann on roll (…). The right cube action?``, ``Quiz 3: Bob doubles Ann to 2 (…).
        Take or pass?`` (names hidden: "the player on roll", "A double")."""
        cube = self.cube_state
        what = f"{cube.match_length}-point match, {cube.score[0]}-{cube.score[1]}" if cube.match_length else "money"
        if cube.value > 1:
            what += f", cube {cube.value}"
        who = self.mover(show_names)
        if self.kind == DOUBLE:
            who = f"{self.names[self.side]} on roll" if show_names else "the player on roll"
            text = f"Quiz {number}: {who} ({what}). The right cube action?"
        elif self.kind == ANSWER:
            who = f"{self.names[1 - self.side]} doubles {self.names[self.side]}" if show_names else "A double"
            text = f"Quiz {number}: {who} to {2 * cube.value} ({what}). Take or pass?"
        else:
            text = f"Quiz {number}: {who} to play {dice_text(self.dice)} ({what}). Which play is best?"
        return text[:QUESTION_LIMIT]

    def answers(self) -> list[str]:
        """The poll's answers in the order shown (each at most :data:`ANSWER_LIMIT` characters)."""
        return [choice.play[:ANSWER_LIMIT] for choice in self.choices]

    def as_text(self, number: int, show_names: bool) -> str:
        """The poll as text (the console): the question, then ``A. play`` per answer."""
        lines = [self.poll_question(number, show_names), f"Position ID {self.position_id}"]
        lines += [f"{chr(65 + i)}. {answer}" for i, answer in enumerate(self.answers())]
        return "\n".join(lines)

    def board_view(self, show_names: bool, *, after: int | None = None, prompt: str | None = None):
        """The :class:`~rendering.view.BoardView` of the position from the decider's side with the dice (a checker
        play) or the cube (a cube decision; a double's answer: the cube offered) and ``prompt``; ``after`` a
        choice's index: a checker play's position after that play, its moves marked (a cube decision: the same
        position, the choice named)."""
        from backgammon.moves import apply_move
        from rendering import OPPONENT, VIEWER, BoardView

        cube = self.cube_state
        names = self.names if show_names else ("On roll", "Opponent") if self.side == 0 else ("Opponent", "On roll")
        if self.kind == ANSWER and not show_names:
            names = ("Doubled", "Doubler") if self.side == 0 else ("Doubler", "Doubled")
        position = self.position
        if self.kind == PLAY:
            asked = f"to play {dice_text(self.dice)}: {prompt or 'which play is best?'}"
        elif self.kind == DOUBLE:
            asked = f"to roll or double: {prompt or 'the right cube action?'}"
        else:
            asked = f"to take or pass: {prompt}" if prompt else f"to take or pass the cube at {2 * cube.value}"
        extra: dict = {"on_roll": VIEWER, "awaiting": asked[:80]}
        if self.kind == ANSWER:
            extra["offered_cube"] = 2 * cube.value
        if after is not None and self.kind != PLAY:
            extra = {"on_roll": None, "awaiting": f"right: {self.choices[after].play}"[:80]}
        elif after is not None:
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
            dice_side=VIEWER if self.dice else None, **extra,
        )  # fmt: skip

    def reveal_lines(self, number: int, votes: dict[int, list[str]], show_names: bool) -> list[str]:
        """The reveal: the engine's ranking of the choices with equities (the best marked, the play made in the
        game marked), then who voted for what. ``votes``: choice index → voters' names. A cube decision's
        equities are the player on roll's (no double, double/take, double/pass), an answer's the taker's."""
        lines = [f"**Quiz {number} — the answer** (Open Sage {self.level})"]
        ranked = sorted(range(len(self.choices)), key=self.choice_loss)
        for rank, i in enumerate(ranked, start=1):
            choice = self.choices[i]
            marks = []
            if i == self.best:
                marks.append("best")
            if i == self.made and self.kind == DOUBLE:
                marks.append("what happened in the game")  # his double and the answer it got
            elif i == self.made:
                marks.append(f"played by {self.names[self.side]}" if show_names else "played in the game")
            note = f" — {', '.join(marks)}" if marks else ""
            voters = votes.get(i, [])
            who = f"; votes: {', '.join(voters)}" if voters else "; no votes"
            loss = self.choice_loss(i)
            lines.append(f"{rank}. {choice.play}: {choice.equity:+.3f} ({-loss or 0.0:+.3f}){note}{who}")
        if show_names:
            lines.append(f"From {self.names[0]} vs {self.names[1]} (#{self.match_id}), game {self.game}.")
        return lines


def quiz_card_png(
    question: QuizQuestion, show_names: bool, options: BoardOptions | None = None, *, after: int | None = None
) -> bytes:
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


def screen_task(items: Sequence[tuple[GameKey, dict]]) -> list[tuple[GameKey, Screened]]:
    """Worker task: the screen of each ``(key, Game.to_json())`` (:func:`~club.analysis.screen.screen_game` at
    :data:`~club.analysis.screen.SCREEN_LEVEL`), with its key."""
    from .analysis.pool import engine

    screen = engine(SCREEN_LEVEL)
    return [(key, screen_game(screen, game_json)) for key, game_json in items]


def _cube_choices(decision: Decision, cube: CubeEquities, found: list[Decision]) -> tuple[list, int, int, float]:
    """A cube decision's or an answer's choices ``[label, equity, moves, loss]``, the right one's and the one made's
    indexes, and the member's loss (see the module docstring). A double's choices are whole cube actions: each
    loses the doubler's error plus the taker's (taking a pass, passing a take)."""
    if decision.kind == ANSWER:
        take, drop = -cube.double_take, -cube.double_pass
        best = max(take, drop)
        choices = [["Take (beaver)" if cube.beaver else "Take", take, [], best - take], ["Pass", drop, [], best - drop]]
        return choices, 0 if cube.should_take else 1, 0 if decision.acted else 1, grade_answer(decision, cube).loss
    doubling = cube.best - cube.double_equity  # the doubler's error in doubling (0 when doubling is right)
    choices = [
        ["No double", cube.no_double, [], cube.best - cube.no_double],
        [f"Double, {'beaver' if cube.beaver else 'take'}", cube.double_take, [],
         doubling + max(0.0, cube.double_take - cube.double_pass)],
        ["Double, pass", cube.double_pass, [], doubling + max(0.0, cube.double_pass - cube.double_take)],
    ]  # fmt: skip
    best = 0 if not cube.should_double else 1 if cube.should_take else 2
    made = 0
    if decision.acted:
        answer = next((d for d in found if d.kind == ANSWER and d.index > decision.index), None)
        made = 1 if answer is None or answer.acted else 2
    return choices, best, made, grade_double(decision, cube).loss


def question_task(game_json: dict, index: int, threshold: float, seed: int) -> dict | None:
    """Worker task: the choices of the decision at history ``index`` of ``game_json`` (a checker play, a cube
    decision or an answer), graded at :data:`QUIZ_LEVEL` (see the module docstring), or None when it did not lose
    ``threshold`` there. Returns ``{"kind", "position_id", "dice", "cube", "side", "choices": [[play, equity,
    moves, loss]…], "best", "made", "loss"}`` (a checker play's choices in shuffled order, ``seed``)."""
    from .analysis.pool import engine

    found = decisions(Game.from_json(game_json))
    decision = next(d for d in found if d.kind in (PLAY, DOUBLE, ANSWER) and d.index == index)
    position, cube = decision.position, decision.cube
    if decision.kind != PLAY:
        equities = engine(QUIZ_LEVEL).cube_decision(position, cube)
        choices, best, made, loss = _cube_choices(decision, equities, found)
        if loss < threshold:
            return None
        if decision.kind == ANSWER:  # shown from the taker's side
            position, cube = position.swap(), cube.swapped()
        return {
            "kind": decision.kind, "position_id": position.position_id(), "dice": None,
            "cube": {**asdict(cube), "score": list(cube.score)}, "side": decision.side, "choices": choices,
            "best": best, "made": made, "loss": loss,
        }  # fmt: skip
    ranked = engine(QUIZ_LEVEL).best_plays(position, decision.dice, cube)
    chosen = next((e for e in ranked if e.play.position == decision.made.position), None)
    if chosen is None or chosen.loss < threshold or len(ranked) < 3:
        return None
    rng = random.Random(seed)
    picked = [ranked[0], chosen]
    others = [e for e in ranked[1:] if e is not chosen]
    picked.append(others[0])  # the next best: a plausible answer
    worse = [e for e in others[1:] if e.loss >= max(chosen.loss, 0.16)]
    if worse:
        picked.append(rng.choice(worse[:6]))  # a clearly worse one, for beginners
    order = list(range(len(picked)))
    rng.shuffle(order)
    shown = [picked[i] for i in order]
    return {
        "kind": PLAY,
        "position_id": position.position_id(),
        "dice": list(decision.rolled),
        "cube": {**asdict(cube), "score": list(cube.score)},
        "side": decision.side,
        "choices": [[e.play.notation() or "no move", e.equity, [list(m) for m in e.play.moves], e.loss] for e in shown],
        "best": order.index(0),
        "made": order.index(1),
        "loss": chosen.loss,
    }


# -- picking ------------------------------------------------------------------------------------------------------
async def recent_games(
    service, club_id: int, limit: int = RECENT, *, member: int | None = None
) -> list[tuple[TableView, list[dict]]]:
    """The club's last ``limit`` finished rated matches (practice games left out; only ``member``'s when given):
    ``(TableView, games)`` each, every game as stored (``Game.to_json()``: the worker tasks' input, not rebuilt
    here on the event loop)."""
    from storage.quizzes import finished_matches

    found = []
    for match_id in await finished_matches(service.db, club_id, limit, member=member):
        view = await service.state(match_id)
        if view.status != MatchStatus.OVER or view.practice:
            continue
        found.append((view, [record.state for record in await service.db.games(match_id)]))
    return found


def _batches(items: list, count: int) -> Iterable[list]:
    size = max(1, -(-len(items) // count))
    for start in range(0, len(items), size):
        yield items[start : start + size]


Keep = Callable[[int, int, int, float, int], bool]
"""Whether a screened decision is a candidate: ``keep(match id, game number, history index, loss, side)``."""


async def screen_candidates(
    pool, games: dict[tuple[int, int], dict], keep: Keep, *, enough: int | None = None, db=None
) -> list[tuple[float, int, int, int]]:
    """The decisions of ``games`` (``(match id, game number)`` → ``Game.to_json()``, newest first) that ``keep``
    accepts, as ``(loss, match id, game, history index)``, costliest first. Games ``pool`` screened before (or
    reviewed: :class:`~club.analysis.screen.ScreenCache`) are read from its cache, then those kept in ``db`` (the
    club's database: :func:`storage.quizzes.kept_screens`); the others are screened across its workers, in small
    batches so both stay busy to the end, and kept in both; with ``enough``, the screening stops once that many are
    found (batches not started are not run)."""
    from storage.quizzes import keep_screens, kept_screens

    cache = pool.screened
    found: list[tuple[float, int, int, int]] = []
    fresh: dict = {}

    def take(key, screened) -> None:
        match_id, number, _length = key
        found.extend(
            (loss, match_id, number, index)
            for loss, index, side in screened
            if keep(match_id, number, index, loss, side)
        )

    todo = []
    for (match_id, number), data in games.items():
        key = game_key(match_id, number, data)
        screened = cache.get(key)
        if screened is None:
            todo.append((key, data))
        else:
            take(key, screened)
    if todo and db is not None and (enough is None or len(found) < enough):
        stored = await kept_screens(db, [key[0] for key, _data in todo])
        for key, _data in todo:
            if key in stored:
                cache.put(key, stored[key])
                take(key, stored[key])
        todo = [(key, data) for key, data in todo if key not in stored]
    if todo and (enough is None or len(found) < enough):
        tasks = [asyncio.ensure_future(pool.run(screen_task, batch)) for batch in _batches(todo, 4 * pool.workers)]
        try:
            for done in asyncio.as_completed(tasks):
                for key, screened in await done:
                    fresh[key] = screened
                    take(key, screened)
                if enough is not None and len(found) >= enough:
                    break
        finally:
            for task in tasks:
                if task.done() and not task.cancelled() and task.exception() is None:
                    fresh.update(task.result())  # screened by now: kept for the next time
                task.cancel()  # batches not started are not run
            for key, screened in fresh.items():
                cache.put(key, screened)
    if fresh and db is not None:
        await keep_screens(db, fresh.items())
    return sorted(found, reverse=True)


async def pick_question(
    service, club_id: int, pool, *, threshold: float, exclude: set | None = None, seed: int | None = None
) -> QuizQuestion:
    """A :class:`QuizQuestion` from club ``club_id``'s recent finished games (see the module docstring): the
    screening spread over ``pool``'s workers (:func:`screen_candidates`), the final grading in one of them; the
    event loop only awaits. ``exclude``: ``(match id, game, index)`` already asked. Raises :class:`NoQuizError`
    when no clear error is left, :class:`~club.analysis.AnalysisUnavailableError` without the engine."""
    import secrets

    matches = await recent_games(service, club_id)
    views = {view.match_id: view for view, _games in matches}
    games = {(view.match_id, n): g for view, found in matches for n, g in enumerate(found, start=1)}
    if not games:
        raise NoQuizError("The club has no finished rated match to make a quiz from yet.")
    exclude = exclude or set()

    def keep(match_id: int, number: int, index: int, loss: float, _side: int) -> bool:
        return loss >= threshold and (match_id, number, index) not in exclude

    candidates = await screen_candidates(pool, games, keep, enough=ENOUGH, db=service.db)
    seed = secrets.randbits(32) if seed is None else seed
    for _loss, match_id, number, index in candidates[:FINALISTS]:
        data = await pool.run(question_task, games[(match_id, number)], index, threshold, seed)
        if data is not None:
            return QuizQuestion.from_task(data, match_id, number, index, views[match_id])
    raise NoQuizError(
        f"No decision of the club's last {len(matches)} finished matches lost {threshold:g} or more that a quiz has "
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


async def start_quiz(
    service: ClubService, guild_id: int, channel_id: int, pool, *, hours: int, options: BoardOptions | None = None
) -> NewQuiz:
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


async def quiz_posted(service: ClubService, quiz_id: int, message_id: int | None) -> None:
    """The poll of quiz ``quiz_id`` was posted as ``message_id`` (None: it could not be, and the quiz is dropped)."""
    from storage import quizzes

    if message_id is None:
        await quizzes.drop_quiz(service.db, quiz_id)
    else:
        await quizzes.set_quiz_message(service.db, quiz_id, message_id)


async def pending_quizzes(service: ClubService, *, message_id: int | None = None, due: bool = False) -> list:
    """The posted quizzes not yet revealed (:class:`storage.quizzes.QuizRecord`), only the one of poll
    ``message_id`` when given, only those whose poll should have closed by now with ``due``."""
    from storage import quizzes

    found = await quizzes.open_quizzes(service.db, message_id=message_id)
    if due:
        now = service.clock.now()
        found = [record for record in found if record.closes_at <= now]
    return found


async def reveal_quiz(
    service: ClubService, record, votes: dict[int, list[tuple[int, str]]], options: BoardOptions | None = None
) -> Reveal | None:
    """The reveal of quiz ``record`` from its poll's final ``votes`` (choice index → ``(member id, name)``):
    each voter's answer kept for the leaderboard, the quiz marked revealed. None when it was revealed already."""
    from storage import quizzes

    question = QuizQuestion.from_json({k: v for k, v in record.question.items() if k != "number"})
    guild_id = await service.guild_of(record.club_id)
    settings = service.defaults if guild_id is None else await service.club_settings(guild_id)  # a club gone
    answers = [(member, index == question.best) for index, voters in votes.items() for member, _name in voters]
    if not await quizzes.reveal_quiz(service.db, record.id, record.club_id, answers):
        return None
    number = int(record.question.get("number") or 0)
    names = {index: [name for _member, name in voters] for index, voters in votes.items()}
    lines = question.reveal_lines(number, names, settings.quiz_names)
    right = [name for _member, name in votes.get(question.best, [])]
    lines.append(f"Right: {', '.join(right)}." if right else "Nobody found the best answer this time.")
    lines += await leaderboard_lines(service, record.club_id, limit=5)
    png = await asyncio.to_thread(quiz_card_png, question, settings.quiz_names, options, after=question.best)
    return Reveal(lines, png)


async def leaderboard_lines(service: ClubService, club_id: int, *, limit: int = 10) -> list[str]:
    """The club's quiz leaderboard in lines: ``1. <@id> 4 of 5 right`` (members as mentions)."""
    from storage import quizzes

    scores = await quizzes.quiz_scores(service.db, club_id, limit)
    if not scores:
        return ["Quiz leaderboard: no answers yet."]
    lines = ["Quiz leaderboard:"]
    lines += [f"{n}. <@{s.member_id}> {s.correct} of {s.answered} right" for n, s in enumerate(scores, start=1)]
    return lines


async def club_leaderboard(service: ClubService, guild_id: int) -> list[str]:
    """The quiz leaderboard of the club of ``guild_id`` (see :func:`leaderboard_lines`)."""
    club_id = await service.club_id_of(guild_id)
    if club_id is None:
        return ["Quiz leaderboard: no answers yet."]
    return await leaderboard_lines(service, club_id)


async def quiz_due(service: ClubService, guild_id: int) -> bool:
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


def options_text(settings, channel: str) -> str:
    """The club's learning options in one paragraph (``/study options``, the console's ``options``): the quiz
    schedule (in ``channel``, e.g. ``<#123>``; ``""``: no schedule shown), names, threshold, highlights."""
    if not channel:
        schedule = "on request"
    elif settings.quiz_days:
        schedule = f"every {settings.quiz_days} days in {channel}"
    else:
        schedule = "only on /study quiz"
    return (
        f"Quizzes: {schedule}; names {'shown' if settings.quiz_names else 'hidden'}; decisions that lost "
        f"{settings.quiz_threshold:g} or more. Highlights at match end: {'on' if settings.highlights else 'off'}."
    )
