"""Standard backgammon notation, in and out: ``24/18 13/11``, ``bar/22*``, ``6/off``, ``8/5(2)``, ``13/7*/5``, ``24/13``.

Points are counted from the mover (24 → 1); ``bar`` (or ``25``) is the bar and ``off`` (or ``0``) is borne off.
Output follows GNU Backgammon: moves sorted from the highest point, a checker's consecutive moves joined (``24/13``),
intermediate hits shown (``13/7*/5``), identical moves counted (``8/5(2)``), every hit marked with ``*``. The writing
is :func:`backgammon.moves.format_moves` (a play's :meth:`~backgammon.moves.Play.notation`); this module reads.

Input is forgiving where it can be and exact where it must be (python-chess's ``parse_san`` is the model):
moves in any order, ``*`` optional (landing on a blot always hits), ``13-7`` for ``13/7`` (FIBS's dash),
``bar``/``25`` and ``off``/``0`` synonyms, dice in
either order, ``(n)`` repeats, combined moves split into the dice in every possible way. The result must be one of the
legal plays (RULES G7, G10) and each step must be a legal move in the order found. Errors are typed:
:class:`~backgammon.errors.InvalidPlayError` (syntax), :class:`~backgammon.errors.IllegalPlayError` (lists the legal
plays), :class:`~backgammon.errors.AmbiguousPlayError` (lists the candidates).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError
from .moves import Move, Play, apply_move, check_dice, dice_text, legal_plays, point_name, single_moves
from .position import BAR, OFF, Position

ROUTE_REJECT = "reject"
ROUTE_NO_HIT = "no_hit"
_EMPTY_WORDS = {"", "pass", "-", "cannot move", "can't move", "no move", "none", "(no move)", "no legal move"}
_TOKEN = re.compile(r"^(bar|b|\d{1,2})((?:/(?:off|o|\d{1,2})\*?)+)(?:\((\d)\))?$")
_STEP = re.compile(r"/(off|o|\d{1,2})(\*?)")
_DASHED = re.compile(r"^(bar|b|\d{1,2})((?:-(?:off|o|\d{1,2})\*?)+)(\(\d\))?$")


# -- parsing -----------------------------------------------------------------------------------------------------------
def _parse_point(text: str, *, first: bool) -> int:
    if text in ("bar", "b"):
        return BAR
    if text in ("off", "o"):
        return OFF
    value = int(text)
    if first and not 1 <= value <= 25:
        raise InvalidPlayError(f"a move starts on a point 1–24 or the bar (25); {value} is not one")
    if not first and not 0 <= value <= 24:
        raise InvalidPlayError(f"a move ends on a point 1–24 or off (0); {value} is not one")
    return value


def parse_segments(text: str) -> list[tuple[int, int, bool]]:
    """Split notation into single-checker segments ``(source, target, hit_marked)``, repeats expanded.

    ``"13/7*/5 8/5(2)"`` → ``[(13, 7, True), (7, 5, False), (8, 5, False), (8, 5, False)]``. Raises
    :class:`InvalidPlayError` for text that is not notation, with an example of what is.
    """
    cleaned = text.strip().lower().replace(",", " ")
    if cleaned in _EMPTY_WORDS:
        return []
    segments: list[tuple[int, int, bool]] = []
    for token in cleaned.split():
        if _DASHED.match(token):  # 13-7 as FIBS and many players write it: 13/7
            token = token.replace("-", "/")
        match = _TOKEN.match(token)
        if not match:
            raise InvalidPlayError(
                f"{token!r} is not a move; write moves like 24/18, bar/22*, 6/off, 8/5(2) or 13/7*/5, separated by spaces"
            )
        start = _parse_point(match.group(1), first=True)
        repeat = int(match.group(3) or 1)
        if not 1 <= repeat <= 4:
            raise InvalidPlayError(f"{token!r}: a move can be repeated 1 to 4 times, not {repeat}")
        steps = _STEP.findall(match.group(2))
        path: list[tuple[int, int, bool]] = []
        source = start
        for index, (point_text, star) in enumerate(steps):
            target = _parse_point(point_text, first=False)
            if target == OFF and index != len(steps) - 1:
                raise InvalidPlayError(f"{token!r}: a checker borne off cannot move on")
            if target >= source:
                raise InvalidPlayError(
                    f"{token!r}: checkers move from higher to lower points ({point_name(source)} → "
                    f"{point_name(target)} goes the wrong way)"
                )
            path.append((source, target, bool(star)))
            source = target
        # a repeated move hits at most once: gnubg and Backgammon Studio write "6/4*(2)" for two checkers 6/4, one hit
        segments.extend(path)
        segments.extend([(source, target, False) for source, target, _ in path] * (repeat - 1))
    if len(segments) > 4:
        raise InvalidPlayError(f"{text!r} has {len(segments)} moves; a play has at most four")
    return segments


def _step_targets(board_position: Position, die: int) -> set[tuple[int, int]]:
    return {(source, target) for source, target, _ in single_moves(board_position, die)}


def _routes(source: int, target: int, dice: list[int]):
    """Yield ``(steps, dice_left)`` for every ordered choice of dice taking one checker from source to target.

    ``steps`` is a list of ``(from, to, die)``; landings between must be on the board, the last may bear off.
    """
    tried: set[int] = set()
    for i, die in enumerate(dice):
        if die in tried:
            continue
        tried.add(die)
        landing = source - die
        rest = dice[:i] + dice[i + 1 :]
        if landing == target or (target == OFF and landing < 0):
            yield [(source, target, die)], rest
        elif landing > target and landing > 0:
            for steps, left in _routes(landing, target, rest):
                yield [(source, landing, die), *steps], left


def _interpretations(position: Position, dice: list[int], segments: list[tuple[int, int, bool]]):
    """Every ``(moves, result)`` that plays ``segments`` with ``dice`` as a sequence of legal single moves.

    Each segment is routed over the dice in every way; the steps of different segments may interleave (4-4 with two
    checkers on the 6-point: ``6/off(2)`` is 6/2 6/2 2/off 2/off).
    """
    results: list[tuple[tuple[Move, ...], Position]] = []

    def assign(index: int, dice_left: list[int], chains: list[list[tuple[int, int, int]]]) -> None:
        if index == len(segments):
            interleave(position, [0] * len(chains), chains, [])
            return
        source, target, _ = segments[index]
        for steps, left in _routes(source, target, dice_left):
            assign(index + 1, left, [*chains, steps])

    def interleave(pos: Position, done: list[int], chains, moves: list[Move]) -> None:
        if all(d == len(chain) for d, chain in zip(done, chains, strict=True)):
            results.append((tuple(moves), pos))
            return
        for k, chain in enumerate(chains):
            if done[k] == len(chain):
                continue
            source, target, die = chain[done[k]]
            if (source, target) not in _step_targets(pos, die):
                continue
            new_pos, hit = apply_move(pos, source, target)
            if done[k] == len(chain) - 1 and segments[k][2] and not hit:
                continue  # a '*' on a point where nothing is hit: not this play
            done[k] += 1
            interleave(new_pos, done, chains, [*moves, Move(source, target, die, hit)])
            done[k] -= 1

    assign(0, dice, [])
    return results


@lru_cache(maxsize=64)
def _cached_legal_plays(position: Position, low: int, high: int, high_first: bool) -> list[Play]:
    return legal_plays(position, (low, high), high_die_first_in_bear_off=high_first)


def parse_play(
    position: Position,
    dice,
    text: str,
    *,
    route_policy: str = ROUTE_REJECT,
    high_die_first_in_bear_off: bool = False,
) -> Play:
    """Parse ``text`` as a play of ``dice`` by the player on roll in ``position``; return the matching legal play.

    ``dice``: two values 1–6, either order. ``route_policy`` decides a joined move such as ``24/13`` whose routes end in
    different positions (one hits a blot on the way, RULES G4): ``"reject"`` (default) raises
    :class:`AmbiguousPlayError`; ``"no_hit"`` follows GNU Backgammon and takes the route that hits fewest blots
    (``positions.json`` BG13, an unsure point). ``high_die_first_in_bear_off`` is passed to
    :func:`~backgammon.moves.legal_plays` (001 §12, optional). Raises :class:`InvalidPlayError` for bad syntax,
    :class:`IllegalPlayError` (with ``.legal``) when no legal play matches, :class:`AmbiguousPlayError` (with
    ``.candidates``) when several do. The returned :class:`Play` carries the moves as given and the resulting position.
    """
    d1, d2 = check_dice(dice)
    if route_policy not in (ROUTE_REJECT, ROUTE_NO_HIT):
        raise ValueError(f"route_policy must be {ROUTE_REJECT!r} or {ROUTE_NO_HIT!r}, not {route_policy!r}")
    segments = parse_segments(text)
    legal = _cached_legal_plays(position, min(d1, d2), max(d1, d2), high_die_first_in_bear_off)
    if not legal[0].moves:
        if segments:
            raise IllegalPlayError(
                f"{text.strip()!r} is not possible: no move can be played with {dice_text((d1, d2))}", []
            )
        return legal[0]
    if not segments:
        legal_texts = [play.notation() for play in legal]
        raise IllegalPlayError(
            f"a move must be played with {dice_text((d1, d2))}; the legal plays are: {', '.join(legal_texts)}",
            legal_texts,
        )
    by_result = {play.position: play for play in legal}
    need = legal[0].dice_used
    dice_list = [d1] * 4 if d1 == d2 else [d1, d2]
    candidates: dict[Position, tuple[Move, ...]] = {}
    for moves, result in _interpretations(position, dice_list, segments):
        if len(moves) == need and result in by_result and result not in candidates:
            candidates[result] = moves
    if not candidates:
        legal_texts = [play.notation() for play in legal]
        raise IllegalPlayError(
            f"{text.strip()} is not a legal play of {dice_text((d1, d2))}; the legal plays are: {', '.join(legal_texts)}",
            legal_texts,
        )
    if len(candidates) > 1 and route_policy == ROUTE_NO_HIT:
        fewest = min(sum(m.hit for m in moves) for moves in candidates.values())
        quiet = {r: m for r, m in candidates.items() if sum(x.hit for x in m) == fewest}
        if len(quiet) == 1:
            candidates = quiet
    if len(candidates) > 1:
        options = [by_result[result].notation() for result in candidates]
        raise AmbiguousPlayError(
            f"{text.strip()} could mean {' or '.join(options)}; write the intermediate point, e.g. {options[0]}",
            options,
        )
    ((result, moves),) = candidates.items()
    return Play(moves, result, position)
