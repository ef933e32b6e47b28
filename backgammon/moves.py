"""Legal plays: every distinct way the player on roll can play a roll (RULES G4–G9).

A *move* is one checker moved by one die; a *play* is the whole turn's moves. Plays are distinct by their resulting
position (hits included), as GNU Backgammon lists them. The generator works on a 25-slot list ``b``, the layout of
``Position.player``: ``b[i]`` is the player's count on point ``i + 1`` (slot 24 the bar; slot -1 stands for off in
a move), so ``tuple(b)`` is a resulting side as it stands. Speed without leaving pure Python (bench/legal_plays.py):
a play's moves are packed in one integer (14 bits a move) and decoded on first use; non-doublets are
deduplicated by an exact integer key (the board delta in base 16 plus hit bits) before any position is built;
doublets need no deduplication; each play allocates only its side tuple, its :class:`Position` and itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .errors import InvalidDiceError
from .position import BAR, OFF, Position


class Move(NamedTuple):
    """One checker moved by one die: ``source`` 1–25 (25 = bar), ``target`` 0–24 (0 = off), ``hit`` if it hit a blot."""

    source: int
    target: int
    die: int
    hit: bool = False


_MOVE = tuple.__new__  # _MOVE(Move, (source, target, die, hit)): a Move without the NamedTuple's Python __new__


class Play:
    """A legal play: its moves in the order played and the resulting position.

    ``moves`` is a tuple of :class:`Move`; ``position`` keeps the mover as the player on roll (the ``gnubg_nn.moves``
    convention; call ``position.swap()`` to hand the turn over); ``start`` is the position before the play, when known.
    An empty play (no legal move, RULES G9) has no moves. Two plays are equal when their moves and results are.
    A generated play keeps its moves packed in one integer and builds the :class:`Move` tuples on first use, so
    listing many plays allocates little.
    """

    __slots__ = ("_moves", "position", "start")
    _moves: tuple[Move, ...] | int  # a generated play keeps its moves packed in one integer until first asked for

    def __init__(self, moves: tuple[Move, ...], position: Position, start: Position | None = None) -> None:
        self._moves: tuple[Move, ...] | int = tuple(moves)
        self.position = position
        self.start = start

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves in the order played (a tuple of :class:`Move`; empty for no move)."""
        moves = self._moves
        if isinstance(moves, int):  # a generated play: the moves packed in one integer until first asked for
            moves = self._moves = _decode(moves)
        return moves

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.moves == other.moves and self.position == other.position

    def __hash__(self) -> int:
        return hash((self.moves, self.position))

    def __repr__(self) -> str:
        return f"Play({self.notation() or 'no move'!r})"

    @property
    def dice_used(self) -> int:
        """How many dice the play uses (0–4)."""
        return len(self.moves)

    @property
    def hits(self) -> int:
        """How many blots the play hits."""
        return sum(1 for move in self.moves if move.hit)

    def notation(self) -> str:
        """The play in standard notation, e.g. ``24/18 13/11``, ``bar/22*``, ``8/5(2)``; ``""`` for no move.

        When the play knows its starting position (plays from :func:`legal_plays` do), a joined move keeps an
        intermediate point that another route would hit on, so the text always parses back to this play.
        """
        return format_moves(self.moves, self.start)


# -- writing a play in standard notation --------------------------------------------------------------------------
def point_name(point: int) -> str:
    """A point as the notation writes it: ``bar``, ``off`` or its number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def _paths(moves: Sequence[Move]) -> list[list[tuple[int, bool]]]:
    """Group moves into checker paths: each path is ``[(start, False), (point, hit), …]``."""
    paths: list[list[tuple[int, bool]]] = []
    for move in moves:
        for path in reversed(paths):
            if path[-1][0] == move.source and move.source != OFF:
                path.append((move.target, move.hit))
                break
        else:
            paths.append([(move.source, False), (move.target, move.hit)])
    return paths


def _alternative_route_hits(path: list[tuple[int, bool]], dice: list[int], start: Position | None) -> bool:
    """True if a two-dice path a→b could also be routed over an opposing blot (so ``a/b`` alone would be ambiguous)."""
    if start is None or len(path) != 3 or len(set(dice)) != 2:
        return False
    source, middle = path[0][0], path[1][0]
    other = source - (dice[1] if source - dice[0] == middle else dice[0])
    return 1 <= other <= 24 and start.at(other) == -1


def format_moves(moves: Sequence[Move], start: Position | None = None) -> str:
    """The moves of one play in standard notation; ``""`` for an empty play.

    ``moves`` in the order played (as in :class:`~backgammon.moves.Play`). ``start`` (the position before the play)
    lets a joined move keep its intermediate point when another route of the same dice would hit a blot, so that the
    text parses back to the same play (the ``24/13`` case of ``positions.json`` BG13).
    """
    if not moves:
        return ""
    dice = [move.die for move in moves]
    texts: list[tuple[int, int, str]] = []
    for path in _paths(moves):
        points = [path[0][0]]
        marks = [""]
        for index, (point, hit) in enumerate(path[1:], start=1):
            is_last = index == len(path) - 1
            keep = is_last or hit or _alternative_route_hits(path, dice, start)
            if keep:
                points.append(point)
                marks.append("*" if hit else "")
        text = "/".join(point_name(p) + m for p, m in zip(points, marks, strict=True))
        texts.append((path[0][0], path[-1][0], text))
    texts.sort(key=lambda item: (-item[0], -item[1]))
    out: list[str] = []
    counts: list[int] = []
    for _, _, text in texts:
        if out and out[-1] == text:
            counts[-1] += 1
        else:
            out.append(text)
            counts.append(1)
    return " ".join(t if c == 1 else f"{t}({c})" for t, c in zip(out, counts, strict=True))


def check_dice(dice) -> tuple[int, int]:
    """Validate a roll: two integers 1–6 (a sequence, or a string like ``"31"``). Raises :class:`InvalidDiceError`."""
    if isinstance(dice, str):
        text = dice.strip().replace("-", "").replace(" ", "")
        if len(text) != 2 or not text.isdigit():
            raise InvalidDiceError(f"dice {dice!r} are not two digits 1–6, e.g. '31' or '6-4'")
        dice = (int(text[0]), int(text[1]))
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise InvalidDiceError(f"dice {dice!r} are not two numbers 1–6") from None
    for die in (d1, d2):
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise InvalidDiceError(f"die {die!r} is out of range; a die shows 1–6")
    return d1, d2


def dice_text(dice) -> str:
    """A roll as players write it, the higher die first: ``(1, 2)`` → ``"2-1"``, ``(5, 5)`` → ``"5-5"``."""
    d1, d2 = dice
    return f"{max(d1, d2)}-{min(d1, d2)}"


_NEW = object.__new__
_SET_PLAYER = Position.__dict__["player"].__set__
_SET_OPPONENT = Position.__dict__["opponent"].__set__
_HIT = 1 << 13  # a move's code: source | target << 5 | die << 10 | hit << 13 (notation numbers, 14 bits a move)
_W = [1 << (4 * i) for i in range(25)] + [0]  # a checker on slot i weighs 16**i; slot -1 (off) weighs nothing
_HB = [1 << (104 + i) for i in range(24)]  # hit bits of a dedup key, above any board delta of two moves


def _decode(code: int) -> tuple[Move, ...]:
    """The moves a generator code stands for (14 bits a move, the first move lowest)."""
    moves = []
    while code:
        m = code & 0x3FFF
        moves.append(_MOVE(Move, (m & 31, (m >> 5) & 31, (m >> 10) & 7, m >= _HIT)))
        code >>= 14
    return tuple(moves)


def _opponent(sides: dict[int, tuple[int, ...]], hits: int) -> tuple[int, ...]:
    """The opponent's side after the hits in the bit mask ``hits`` (bit i = our point i + 1, each blot to the bar).

    ``sides`` is the call's cache: ``sides[0]`` is the side before the play; plays with the same hits share one tuple.
    """
    side = sides.get(hits)
    if side is None:
        counts = list(sides[0])
        rest = hits
        while rest:
            low = rest & -rest
            counts[24 - low.bit_length()] -= 1  # bit i (point i + 1) is their point 24 - i
            counts[24] += 1
            rest ^= low
        side = sides[hits] = tuple(counts)
    return side


def _result(b: list[int], sides: dict[int, tuple[int, ...]], hits: int) -> Position:
    """The resulting position: the working board ``b`` (25 slots, the mover's points then the bar) as the player's
    side, the opponent's side after the hits in ``hits`` (see :func:`_opponent`)."""
    position = _NEW(Position)
    _SET_PLAYER(position, tuple(b))
    _SET_OPPONENT(position, sides[hits] if hits in sides else _opponent(sides, hits))
    return position


def _play(start: Position, code: int, position: Position) -> Play:
    """A generated :class:`Play` without ``__init__``: its moves packed in ``code`` (see :func:`_decode`)."""
    play = _NEW(Play)
    play._moves = code  # plain slot stores: the interpreter's fastest path, twice as fast as the descriptors' __set__
    play.position = position
    play.start = start
    return play


def _singles(b, blocked, blot, candidates, outside, die, hits):
    """``(source, target, hit)`` slots (0–23 the points 1–24, 24 the bar, -1 off) of every legal single move of
    ``die`` (RULES G4, G6, G8); ``candidates`` are the sources whose landing point is open, highest first."""
    if b[24]:
        target = 24 - die
        if blocked[target]:
            return ()
        return ((24, target, blot[target] and not (hits >> target) & 1),)
    found = [(s, s - die, blot[s - die] and not (hits >> (s - die)) & 1) for s in candidates if b[s]]
    if not outside:  # bearing off (RULES G8)
        if b[die - 1]:
            found.append((die - 1, -1, False))
        else:
            highest = 5
            while highest >= 0 and not b[highest]:
                highest -= 1
            if 0 <= highest < die - 1:  # a die larger than the highest occupied point bears off from that point
                found.append((highest, -1, False))
    return found


def single_moves(position: Position, die: int) -> list[tuple[int, int, bool]]:
    """``(source, target, hit)`` in notation numbers (25 = bar, 0 = off) of every legal single move of ``die`` (1–6)
    for the player on roll (RULES G4, G6, G8), highest source first. Used to read notation step by step."""
    b = list(position.player)
    mirrored = position.opponent[23::-1]
    blocked = [count > 1 for count in mirrored]
    candidates = [s for s in range(23, die - 1, -1) if not blocked[s - die]]
    blot = [count == 1 for count in mirrored]
    return [(s + 1, t + 1, hit) for s, t, hit in _singles(b, blocked, blot, candidates, sum(b[6:]), die, 0)]


def _mixed_plays(start: Position, b, blocked, blot, outside, d1, d2, high_die_first: bool) -> list[Play]:
    """All plays of a non-doublet, one per resulting position, keeping those that use the most dice and, when only
    one die can be used, the higher one if it can be (RULES G7). With ``high_die_first`` (001 §12) only the higher
    die may open the play, unless it cannot be played first at all. Plays are deduplicated by an exact integer key:
    the board delta in base 16 (each slot changes by at most 2) plus a bit per hit point."""
    high, low = (d1, d2) if d1 > d2 else (d2, d1)
    opponent = start.opponent
    sides = {0: opponent}
    new, set_player, set_opponent = _NEW, _SET_PLAYER, _SET_OPPONENT
    cands = {die: [s for s in range(23, die - 1, -1) if not blocked[s - die]] for die in (high, low)}
    W = _W
    HB = _HB
    two: dict[int, Play] = {}
    one: dict[int, Play] = {}
    one_high = False
    firsts = _singles(b, blocked, blot, cands[high], outside, high, 0)
    orders = [(high, low, firsts)]
    if not (high_die_first and firsts):
        orders.append((low, high, _singles(b, blocked, blot, cands[low], outside, low, 0)))
    for first, second, moves in orders:
        second_cands = cands[second]
        base = first << 10
        base2 = second << 10
        for s1, t1, h1 in moves:
            b[s1] -= 1
            if t1 >= 0:
                b[t1] += 1
            out1 = outside - 1 if s1 > 5 >= t1 else outside
            hits1 = (1 << t1) if h1 else 0
            key1 = W[t1] - W[s1] + (HB[t1] if h1 else 0)
            code1 = (s1 + 1) | (t1 + 1) << 5 | base | (_HIT if h1 else 0)
            seconds = _singles(b, blocked, blot, second_cands, out1, second, hits1)
            for s2, t2, h2 in seconds:
                key = key1 + W[t2] - W[s2] + (HB[t2] if h2 else 0)
                if key in two:
                    continue
                b[s2] -= 1
                if t2 >= 0:
                    b[t2] += 1
                hits = hits1 | (1 << t2) if h2 else hits1
                position = new(Position)
                set_player(position, tuple(b))
                set_opponent(position, _opponent(sides, hits) if hits else opponent)
                play = two[key] = new(Play)
                play._moves = code1 | ((s2 + 1) | (t2 + 1) << 5 | base2 | (_HIT if h2 else 0)) << 14
                play.position = position
                play.start = start
                b[s2] += 1
                if t2 >= 0:
                    b[t2] -= 1
            if not seconds and not two and key1 not in one:
                one[key1] = _play(start, code1, _result(b, sides, hits1))
                one_high = one_high or first == high
            b[s1] += 1
            if t1 >= 0:
                b[t1] -= 1
    if two:
        return list(two.values())
    if one_high:
        return [play for play in one.values() if play._moves >> 10 & 7 == high]  # type: ignore[operator]  # packed
    return list(one.values())


def _doublet_plays(start: Position, b, blocked, blot, outside, die: int) -> list[Play]:
    """All plays of a doublet (RULES G5), keeping those with the most moves.

    Moves are generated with non-increasing source points: a move from a lower point never enables a move from a
    higher one (it cannot open a point, and bearing off depends only on higher points), so every play has such an
    ordering and each multiset of moves is visited once. Distinct multisets give distinct results (the highest
    source whose count differs leaves a different count on that point), so no deduplication is needed.
    """
    opponent = start.opponent
    sides = {0: opponent}
    code = 0
    shift = 0
    hits = 0
    left = 4
    dcode = die << 10
    if b[24]:  # bar first (RULES G6): every checker on the bar enters, up to four, before any other move
        entry = 24 - die
        if blocked[entry]:
            return []
        hit = blot[entry]
        while b[24] and left:
            b[24] -= 1
            b[entry] += 1
            code |= (25 | (entry + 1) << 5 | dcode | (_HIT if hit else 0)) << shift
            if hit:
                hits = 1 << entry
                hit = False
            shift += 14
            left -= 1
        if not left or b[24]:
            return [_play(start, code, _result(b, sides, hits))]
    movable = [s for s in range(23, die - 1, -1) if not blocked[s - die]]  # sources whose landing point is open
    n = len(movable)
    # each movable source: (source slot, landing slot, the move's code without the hit bit, a blot on the landing)
    steps = [(s, s - die, (s + 1) | (s - die + 1) << 5 | dcode, blot[s - die]) for s in movable]

    full: list[Play] = []  # the plays of four moves
    short: dict[int, list[Play]] = {}  # plays of fewer moves, by the number of moves (kept only if no play has four)
    append = full.append
    new, set_player, set_opponent = _NEW, _SET_PLAYER, _SET_OPPONENT

    def search(left: int, j: int, bmax: int, code: int, shift: int, hits: int, outside: int) -> None:
        moved = False
        if left == 1:  # the last move: build each play here, the hot path
            for s, t, m, blot_t in steps[j:]:
                if not b[s]:
                    continue
                moved = True
                new_hits = hits
                if blot_t and not (hits >> t) & 1:
                    m |= _HIT
                    new_hits = hits | 1 << t
                b[s] -= 1
                b[t] += 1
                position = new(Position)
                set_player(position, tuple(b))
                b[s] += 1
                b[t] -= 1
                set_opponent(position, _opponent(sides, new_hits) if new_hits else opponent)
                play = new(Play)
                play._moves = code | m << shift
                play.position = position
                play.start = start
                append(play)
        else:
            for k in range(j, n):
                s, t, m, blot_t = steps[k]
                if not b[s]:
                    continue
                moved = True
                new_hits = hits
                if blot_t and not (hits >> t) & 1:
                    m |= _HIT
                    new_hits = hits | 1 << t
                b[s] -= 1
                b[t] += 1
                search(
                    left - 1, k, bmax, code | m << shift, shift + 14, new_hits, outside - 1 if s > 5 >= t else outside
                )
                b[s] += 1
                b[t] -= 1
        if not outside:  # bearing off (RULES G8): the die's own point, or the highest checker when it is lower
            highest = 5
            while highest >= 0 and not b[highest]:
                highest -= 1
            s = die - 1 if highest >= die - 1 else highest
            if 0 <= s <= bmax and b[s]:
                moved = True
                b[s] -= 1
                m = (s + 1) | dcode
                if left == 1:
                    append(_play(start, code | m << shift, _result(b, sides, hits)))
                else:
                    search(left - 1, n, s, code | m << shift, shift + 14, hits, 0)
                b[s] += 1
        if not moved and left < 4 and not full:
            short.setdefault(4 - left, []).append(_play(start, code, _result(b, sides, hits)))

    try:
        search(left, 0, 5, code, shift, hits, sum(b[6:]))
    finally:
        # ``search`` calls itself through its closure: a reference cycle (function → cell → function) that would
        # keep every play of this call alive until the garbage collector finds it — and make each collection until
        # then traverse them (bench/legal_plays.py: single calls of 11–20 ms). Emptying the cell breaks it.
        search = None  # type: ignore[assignment]
    if full or not short:
        return full
    return short[max(short)]


def legal_plays(position: Position, dice, *, high_die_first_in_bear_off: bool = False) -> list[Play]:
    """All legal plays of ``dice`` in ``position``, one per distinct resulting position.

    ``dice``: two integers 1–6 in any order (or a string like ``"31"``). Applies RULES G4 (moving, hitting), G5 (doublets
    give four moves), G6 (bar first), G7 (use as many dice as possible; the higher die when only one can be played),
    G8 (bearing off) and G9 (no legal play: a single empty play is returned). Each :class:`Play` keeps the mover on
    roll in its ``position`` and knows its ``start``.

    ``high_die_first_in_bear_off`` is the disputed 1931 law (001 §12, RULES G8, off by default): when the player is
    bearing off at the start of the turn, the higher die must be played first if it can be. Raises
    :class:`InvalidDiceError`.
    """
    try:
        d1, d2 = dice
        valid = d1.__class__ is int and d2.__class__ is int and 0 < d1 < 7 and 0 < d2 < 7
    except (TypeError, ValueError):
        valid = False
    if not valid:
        d1, d2 = check_dice(dice)
    b = list(position.player)
    mirrored = position.opponent[23::-1]  # the opponent's point q is our point 25 - q
    blocked = [count > 1 for count in mirrored]
    blot = [count == 1 for count in mirrored]
    outside = sum(b[6:])
    if d1 == d2:
        plays = _doublet_plays(position, b, blocked, blot, outside, d1)
    else:
        plays = _mixed_plays(position, b, blocked, blot, outside, d1, d2, high_die_first_in_bear_off and not outside)
    return plays or [Play((), position, position)]


def apply_move(position: Position, source: int, target: int) -> tuple[Position, bool]:
    """Move one checker of the player on roll from ``source`` (1–25) to ``target`` (0–24) with no legality check
    beyond occupancy; returns ``(new position, hit)``. Used to build plays from notation and match files."""
    player = list(position.player)
    opponent = list(position.opponent)
    player[source - 1] -= 1
    hit = False
    if target:
        player[target - 1] += 1
        if opponent[24 - target] == 1:
            opponent[24 - target] = 0
            opponent[24] += 1
            hit = True
    return Position(tuple(player), tuple(opponent)), hit
