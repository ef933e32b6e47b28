"""The ``/study`` verbs of the console: ``practice`` (a match against the engine), ``quiz`` (a quiz from the club's
games, the poll printed as text), ``highlight`` (a finished
match's turning point as an animated GIF: :mod:`club.highlight`), ``review`` (the
engine's review of a finished match) and ``hint`` (best plays or cube advice where hints are allowed) — the same
calls the Discord cog (:mod:`cogs.study`) makes: :mod:`club.practice`, :mod:`club.analysis.review`,
:mod:`club.analysis.hints`. The engine runs in the console's worker pool (:func:`pool_of`), and after each of the
member's actions in a practice game the engine's turn is played at once (:func:`engine_reply`).

Without the engine installed each verb says how to enable analysis."""

from __future__ import annotations

from club.analysis import ENABLE_ANALYSIS, engine_available
from club.errors import InvalidRequestError
from club.results import Outcome
from club.table import MatchStatus, TableType

from .core import Console
from .games import _match_for_look, show
from .parse import number, options, take_target
from .verbs import part, verb

ENGINE_MEMBER = 1
"""The member id of the console's engine seat (console names map to larger ids: :func:`console.member_id`)."""

HINT_LEVEL = "2ply"


def pool_of(console: Console):
    """The console's :class:`~club.analysis.pool.AnalysisPool` (one worker, started on first use)."""
    pool = getattr(console, "analysis_pool", None)
    if pool is None:
        from club.analysis.pool import AnalysisPool

        pool = AnalysisPool(1)
        console.analysis_pool = pool
    return pool


@part
async def engine_reply(console: Console, outcome: Outcome) -> list[Outcome]:
    """When ``outcome`` leaves a practice game waiting for its engine seat: the engine's actions, played now
    (:func:`club.practice.engine_turns`); else ``[]``."""
    if not outcome.view.engine_to_act:
        return []
    from club.practice import engine_turns

    return await engine_turns(console.service, outcome.match_id, pool_of(console))


@part
def start_review(console: Console, view, games) -> str:
    """Start the engine's review of finished match or session ``view`` (its stored ``games``) in the background:
    the grading in the worker pool, driven from a thread of the console's own, so the next line can be typed at
    once. Returns the line saying so; the review is printed by :func:`ready_reviews` (after the next command, or
    at the end of the console) and ``review N`` waits for it."""
    import concurrent.futures

    from club.analysis.review import compute_review, match_title

    if console.review_thread is None:
        console.review_thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="console-review")
    future = console.review_thread.submit(
        compute_review, games, view.names, match_title(view), length=view.length, pool=pool_of(console),
        options=console.options,
    )  # fmt: skip
    console.pending_reviews[view.match_id] = (view, future)
    return f"The engine is reviewing #{view.match_id} (PRs, costliest plays, cube errors); it is printed when ready."


async def review_text(console: Console, view, found) -> str:
    """The console's text of :class:`~club.analysis.review.Review` ``found`` of match ``view``: its lines, then
    each error picture written as a PNG (when images are on) with its caption and path. A finished rated match's
    PRs are kept in the club's records (:func:`club.analysis.review.keep_prs`), as Discord's review keeps them."""
    from club.analysis.review import keep_prs

    await keep_prs(console.service, view.match_id, view, found.analysis)
    lines = [found.text]
    for name, caption, png in found.images:
        written = console.write_png(f"match{view.match_id}-{name}", png)
        if written:
            lines.append(f"{caption}: {written.removeprefix('Image: ')}")
    return "\n".join(lines)


@part
async def ready_reviews(console: Console, *, wait: bool = False, only: int | None = None) -> list[str]:
    """The automatic reviews (:func:`start_review`) that are done — all of them with ``wait`` (awaited without
    blocking the loop), or only match ``only`` — as text, each removed from the pending ones. A review that failed
    says so in one line."""
    import asyncio

    texts = []
    for match_id, (view, future) in list(console.pending_reviews.items()):
        if only is not None and match_id != only:
            continue
        if not (wait or future.done()):
            continue
        del console.pending_reviews[match_id]
        try:
            found = await asyncio.wrap_future(future)
        except Exception as error:
            texts.append(f"The engine's review of #{match_id} failed ({type(error).__name__}: {str(error)[:200]}).")
            continue
        texts.append(await review_text(console, view, found))
        highlight = await auto_highlight(console, view, found.analysis)  # by the review's equities
        if highlight:
            texts.append(highlight)
    return texts


@verb(
    "study practice",
    "practice [LENGTH|money] [STRENGTH]",
    "play the engine, unrated: e.g. practice 3 advanced (beginner … expert)",
    bare=True,
)
async def practice(console: Console, args: list[str]) -> str:
    """``practice [LENGTH|money] [STRENGTH]``: a practice match (default 3 points, strength intermediate) against
    the engine; unrated, outside the books (:mod:`club.practice`)."""
    from club.analysis.practice import STRENGTHS
    from club.practice import MAX_PRACTICE_LENGTH, start_practice

    if not engine_available():
        return ENABLE_ANALYSIS
    named, rest = options(args, ("length", "strength"))
    length = named.get("length")
    strength = named.get("strength")
    for token in rest:
        word = token.lower()
        if length is None and (word == "money" or word.isdigit()):
            length = word
        elif strength is None and word in STRENGTHS:
            strength = word
        else:
            raise InvalidRequestError(
                f"{token[:40]!r} is not a length (1–{MAX_PRACTICE_LENGTH}, or money) or a strength "
                f"({', '.join(STRENGTHS)}); e.g. practice 3 advanced"
            )
    points = None
    if length is not None:
        points = 0 if str(length).lower() == "money" else number(str(length), "a length", low=1, high=99)
    outcome = await start_practice(
        console.service, console.guild_id, console.member, ENGINE_MEMBER, length=points, strength=strength
    )
    console.last_match = outcome.match_id
    return await show(console, outcome)


@verb("study review", "review [game]", "the engine's review of a finished match: PRs, costliest plays", bare=True)
async def review(console: Console, args: list[str]) -> str:
    """``review [game]``: both players' PR, the costliest plays (their pictures written as PNGs) and the cube
    errors of a finished match or session (:func:`club.analysis.review.review_match`)."""
    from club.analysis.hints import refuse_until_over
    from club.analysis.review import review_match

    if not engine_available():
        return ENABLE_ANALYSIS
    match_id, rest = await _match_for_look(console, args)
    if rest:
        raise InvalidRequestError(f"review takes a game number only, not {' '.join(rest)[:60]!r}")
    view = await console.service.state(match_id)
    if view.status != MatchStatus.OVER:
        raise refuse_until_over(f"match #{match_id}", "review")
    if match_id in console.pending_reviews:  # the automatic review is under way: wait for it, not a second one
        return "\n".join(await ready_reviews(console, wait=True, only=match_id))
    found = await review_match(console.service, match_id, pool=pool_of(console), options=console.options)
    return await review_text(console, view, found)


@verb("study hint", "hint [POSITION] [DICE]", "best plays / cube advice (practice games, positions by ID)", bare=True)
async def hint(console: Console, args: list[str]) -> str:
    """``hint [POSITION] [DICE]``: the engine's best plays of DICE (or its cube advice) for a gnubg Position ID; with
    no position, in a practice game, for its current position and dice. Refused for a rated game or a chouette
    being played (RULES 003 1.5: :func:`club.analysis.hints.check_hint_allowed`)."""
    from club.analysis.hints import check_hint_allowed, hint_task, hint_text, parse_request, practice_request

    target, rest = take_target(args, trailing_number=False)
    if len(rest) > 2:
        raise InvalidRequestError(
            "hint [POSITION] [DICE], e.g. hint 4HPwATDgc/ABMA 64 (no position: your practice game)"
        )
    position = rest[0] if rest else None
    dice = rest[1] if len(rest) > 1 else None
    here = chouette_here = None
    if position is None:
        try:
            found_target = await console.target(target, for_turn=False)
        except InvalidRequestError:
            found_target = None
        if found_target is not None and found_target.kind == TableType.CHOUETTE:
            chouette_here = found_target.id
        elif found_target is not None:
            here = found_target.id
    await check_hint_allowed(
        console.service, console.member, console.guild_id, position, here=here, chouette_here=chouette_here
    )
    if not engine_available():
        return ENABLE_ANALYSIS
    from club.analysis.engine import CubeState

    if position is None:
        found = await practice_request(console.service, console.member, here)
        if found is None:
            raise InvalidRequestError("Give the position: hint POSITION [DICE], e.g. hint 4HPwATDgc/ABMA 64.")
        board, rolled, cube = found
    else:
        board, rolled = parse_request(position, dice)
        cube = CubeState()
    result = await pool_of(console).run(hint_task, board.position_id(), rolled, cube, HINT_LEVEL)
    return hint_text(board, rolled, result, HINT_LEVEL).text.replace("```\n", "").replace("\n```", "")


def highlight_text(console: Console, found, match_id: int) -> str:
    """The console's text of :class:`~club.highlight.Highlight` ``found`` of match ``match_id``: its caption and
    where its GIF was written (with its size), or that the match has nothing to show."""
    if found is None:
        return f"Match #{match_id} has no checker play to show."
    written = console.write_png(found.filename, found.data)
    size = f"{len(found.data) / 1024:.0f} KB"
    return "\n".join(line for line in (found.caption, f"{written} ({size})" if written else "") if line)


@part
async def auto_highlight(console: Console, view, analysis=None) -> str:
    """The highlight of match ``view`` when it ends (:func:`club.highlight.match_highlight`: by ``analysis``, the
    review's equities, when given, else by the pip count and the cube), unless the club turned ``highlights`` off
    (then ``""``), as Discord posts it in the game's thread."""
    from club.highlight import match_highlight

    if not (await console.service.club_settings(console.guild_id)).highlights:
        return ""
    found = await match_highlight(console.service, view.match_id, analysis=analysis, options=console.options)
    return "" if found is None else highlight_text(console, found, view.match_id)


@verb("study highlight", "highlight [game]", "the turning point of a finished match, as an animated GIF", bare=True)
async def highlight(console: Console, args: list[str]) -> str:
    """``highlight [game]``: the turning point of a finished match played checker by checker, written as a GIF
    (:func:`club.highlight.match_highlight`: by the engine's equity when it is installed, else by the pip count
    and the cube);
    refused while the match is played (RULES 003 1.5)."""
    from club.highlight import match_highlight

    match_id, rest = await _match_for_look(console, args)
    if rest:
        raise InvalidRequestError(f"highlight takes a game number only, not {' '.join(rest)[:60]!r}")
    pool = pool_of(console) if engine_available() else None
    found = await match_highlight(console.service, match_id, pool=pool, options=console.options)
    return highlight_text(console, found, match_id)


@verb("study options", "options [highlights=on|off] [names=on|off] [threshold=0.08]",
      "club admins: whether quizzes name whose game, their threshold, highlights at match end", bare=True)  # fmt: skip
async def study_options(console: Console, args: list[str]) -> str:
    """``options [highlights=on|off] [names=on|off] [threshold=X]``: show or change the club's learning options
    (``/study options``: :class:`club.settings.ClubSettings` ``highlights``, ``quiz_names``, ``quiz_threshold``);
    changes are for admins."""
    from club.quiz import options_text

    named, rest = options(args, ("highlights", "names", "threshold"))
    if rest:
        raise InvalidRequestError(
            f"options takes highlights=on|off, names=on|off, threshold=0.04–1, not {' '.join(rest)[:60]!r}"
        )
    changes: dict = {}
    for key, stored in (("highlights", "highlights"), ("names", "quiz_names")):
        if key in named:
            word = named[key].strip().lower()
            if word not in ("on", "off", "true", "false", "yes", "no"):
                raise InvalidRequestError(f"{key} is on or off, not {named[key][:20]!r}")
            changes[stored] = word in ("on", "true", "yes")
    if "threshold" in named:
        try:
            changes["quiz_threshold"] = float(named["threshold"])
        except ValueError:
            raise InvalidRequestError(
                f"threshold is an equity from 0.04 to 1, not {named['threshold'][:20]!r}"
            ) from None
    if changes and not console.admin:
        raise InvalidRequestError("only a club admin can change the learning options")
    settings = await console.service.configure_club(console.guild_id, **changes)
    return options_text(settings, "")


@verb("study quiz", "quiz [answer]", "a quiz from the club's finished games (poll as text); quiz answer: the answer",
      bare=True)  # fmt: skip
async def quiz(console: Console, args: list[str]) -> str:
    """``quiz``: a quiz from the club's recent finished games (:func:`club.quiz.start_quiz`), printed as the poll's
    text with its board written as a PNG; ``quiz answer``: the engine's ranking of its choices with equities and
    the board after the best play. Without the engine: how to install it."""
    from club.quiz import NoQuizError, quiz_card_png, start_quiz

    if args and args[0].lower() == "answer":
        last = getattr(console, "last_quiz", None)
        if last is None:
            raise InvalidRequestError("No quiz yet: type quiz first.")
        lines = last.question.reveal_lines(last.number, {}, last.show_names)
        png = quiz_card_png(last.question, last.show_names, console.options, after=last.question.best)
        written = console.write_png(f"quiz-{last.number}-answer.png", png)
        return "\n".join(lines + ([written] if written else []))
    if args:
        raise InvalidRequestError(f"quiz takes nothing or answer, not {' '.join(args)[:60]!r}")
    if not engine_available():
        return ENABLE_ANALYSIS
    try:
        new = await start_quiz(
            console.service, console.guild_id, 0, pool_of(console), hours=24, options=console.options
        )
    except NoQuizError as error:
        raise InvalidRequestError(str(error)) from None
    console.last_quiz = new
    written = console.write_png(f"quiz-{new.number}.png", new.png)
    lines = [new.question.as_text(new.number, new.show_names)] + ([written] if written else [])
    return "\n".join(lines + ["(quiz answer: the engine's ranking)"])


@verb("study blunders", "blunders [COUNT]", "your costliest plays and cube decisions in recent finished matches",
      bare=True)  # fmt: skip
async def blunders(console: Console, args: list[str]) -> str:
    """``blunders [COUNT]``: the member's COUNT (1–5, default 3) costliest decisions (plays and cube) in his recent
    finished matches (:func:`club.blunders.member_blunders`), each board written as a PNG. Without the engine: how
    to install it."""
    from club.blunders import MAX_COUNT, member_blunders

    if len(args) > 1:
        raise InvalidRequestError(f"blunders takes a count only (1–{MAX_COUNT}), not {' '.join(args)[:60]!r}")
    count = number(args[0], "a count", low=1, high=MAX_COUNT) if args else 3
    if not engine_available():
        return ENABLE_ANALYSIS
    found = await member_blunders(
        console.service, console.guild_id, console.member, console.name or "you", pool_of(console), count=count,
        options=console.options,
    )  # fmt: skip
    lines = [found.text]
    for name, png in found.images:
        written = console.write_png(name, png)
        if written:
            lines.append(written)
    return "\n".join(lines)
