"""Legal plays: every distinct way the player on roll can play a roll (RULES G4–G9).

A *move* is one checker moved by one die; a *play* is the whole turn's moves. Plays are distinct by their resulting
position (hits included), as GNU Backgammon lists them. The generator works on a 26-slot list ``b`` where ``b[p]`` is
the player's count on point ``p`` (1–24), ``b[25]`` the bar and ``b[0]`` the checkers off, so a move's ``from`` and
``to`` are the notation's numbers (25 = bar, 0 = off).
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import InvalidDiceError
from .position import BAR, OFF, Position, _trusted


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
    The resulting position of a generated play is built on first use, so listing many plays stays cheap.
    """

    __slots__ = ("moves", "start", "_position", "_key")

    def __init__(
        self, moves: tuple[Move, ...], position: Position | None = None, start: Position | None = None, *, key=None
    ) -> None:
        if position is None and (key is None or start is None):
            raise ValueError("a Play needs its resulting position, or its start and generator key")
        self.moves = tuple(moves)
        self.start = start
        self._position = position
        self._key = key

    @property
    def position(self) -> Position:
        """The resulting position, the mover still on roll."""
        if self._position is None:
            self._position = _result_position(self.start, self._key)
        return self._position

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
        from .notation import format_moves

        return format_moves(self.moves, self.start)


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


_ONE, _TWO = 1, 2


class _Board:
    """Mutable working copy for the generator (see module docstring for the layout)."""

    __slots__ = ("b", "blocked", "blot", "outside")

    def __init__(self, position: Position) -> None:
        player = position.player
        self.b = [15 - sum(player), *player]
        # the opponent's point q is our point 25 - q: reversed, the opponent's points 24…1 are our points 1…24
        mirrored = position.opponent[23::-1]
        self.blocked = [False, *map(_TWO.__le__, mirrored), False]
        self.blot = [False, *map(_ONE.__eq__, mirrored), False]
        self.outside = sum(player[6:25])


def _single_moves(board: _Board, die: int, hit_mask: int, max_source: int = BAR) -> list[tuple[int, int, bool]]:
    """``(source, target, hit)`` for every legal single move of ``die`` (RULES G4, G6, G8), sources ≤ max_source."""
    b = board.b
    if b[BAR]:
        if max_source >= BAR:
            target = BAR - die
            if not board.blocked[target]:
                return [(BAR, target, board.blot[target] and not (hit_mask >> target) & 1)]
        return []
    blocked = board.blocked
    blot = board.blot
    found = []
    top = min(max_source, 24)
    low = die + 1  # sources that land on the board
    for source in range(top, low - 1, -1):
        if b[source]:
            target = source - die
            if not blocked[target]:
                found.append((source, target, blot[target] and not (hit_mask >> target) & 1))
    if board.outside == 0:  # bearing off (RULES G8)
        if die <= top and b[die]:
            found.append((die, OFF, False))
        highest = next((p for p in range(6, 0, -1) if b[p]), 0)
        if highest and highest < die and highest <= top:
            # a die larger than the highest occupied point bears off from that point
            found.append((highest, OFF, False))
    return found


def _apply(board: _Board, source: int, target: int) -> None:
    b = board.b
    b[source] -= 1
    b[target] += 1
    if source > 6 and target <= 6:
        board.outside -= 1


def _undo(board: _Board, source: int, target: int) -> None:
    b = board.b
    b[source] += 1
    b[target] -= 1
    if source > 6 and target <= 6:
        board.outside += 1


def _result_position(start: Position, key: tuple) -> Position:
    """The position a generator key (26 board slots, then the hit mask) stands for, played from ``start``."""
    hit_mask = key[26]
    if not hit_mask:
        return _trusted(key[1:26], start.opponent)
    opponent = list(start.opponent)
    point = 1
    while hit_mask >> point:
        if (hit_mask >> point) & 1:
            opponent[24 - point] -= 1
            opponent[24] += 1
        point += 1
    return _trusted(key[1:26], tuple(opponent))


def _doublet_plays(board: _Board, die: int) -> dict[tuple, tuple[Move, ...]]:
    """All plays of a doublet (RULES G5), keyed by resulting board + hit mask, keeping those with the most moves.

    Moves are generated with non-increasing source points: a move from a lower point never enables a move from a
    higher one (it cannot open a point, and bearing off depends only on higher points), so every play has such an
    ordering and each multiset of moves is visited once.
    """
    b = board.b
    blocked = board.blocked
    blot = board.blot
    movable = [p for p in range(24, die, -1) if not blocked[p - die]]  # sources whose landing point is open
    entry = BAR - die
    can_enter = not blocked[entry]
    found: dict[tuple, tuple[Move, ...]] = {}
    best = 0
    stack: list[Move] = []

    def search(left: int, max_source: int, hit_mask: int) -> None:
        nonlocal best
        moved = False
        if left:
            if b[BAR]:
                if can_enter:
                    moved = True
                    hit = blot[entry] and not (hit_mask >> entry) & 1
                    b[BAR] -= 1
                    b[entry] += 1
                    if entry <= 6:
                        board.outside -= 1
                    stack.append(_MOVE(Move, (BAR, entry, die, hit)))
                    search(left - 1, BAR, hit_mask | (1 << entry) if hit else hit_mask)
                    stack.pop()
                    b[BAR] += 1
                    b[entry] -= 1
                    if entry <= 6:
                        board.outside += 1
            else:
                for source in movable:
                    if source > max_source or not b[source]:
                        continue
                    moved = True
                    target = source - die
                    hit = blot[target] and not (hit_mask >> target) & 1
                    b[source] -= 1
                    b[target] += 1
                    crosses = source > 6 >= target
                    if crosses:
                        board.outside -= 1
                    stack.append(_MOVE(Move, (source, target, die, hit)))
                    search(left - 1, source, hit_mask | (1 << target) if hit else hit_mask)
                    stack.pop()
                    b[source] += 1
                    b[target] -= 1
                    if crosses:
                        board.outside += 1
                if board.outside == 0:
                    for source in range(min(max_source, 6, die), 0, -1):
                        if not b[source]:
                            continue
                        if source < die and any(b[source + 1 : 7]):
                            continue  # a higher checker must move first (RULES G8)
                        moved = True
                        b[source] -= 1
                        b[OFF] += 1
                        stack.append(_MOVE(Move, (source, OFF, die, False)))
                        search(left - 1, source, hit_mask)
                        stack.pop()
                        b[source] += 1
                        b[OFF] -= 1
        if not moved:
            used = len(stack)
            if used < best:
                return
            if used > best:
                best = used
                found.clear()
            key = (*b, hit_mask)
            if key not in found:
                found[key] = tuple(stack)

    search(4, BAR, 0)
    return found


def _mixed_plays(board: _Board, d1: int, d2: int, high_die_first: bool = False) -> dict[tuple, tuple[Move, ...]]:
    """All plays of a non-doublet, keyed by resulting board + hit mask, keeping those that use the most dice and,
    when only one die can be used, the higher one if it can be (RULES G7). With ``high_die_first`` (001 §12) only the
    higher die may open the play, unless it cannot be played first at all."""
    found: dict[tuple, tuple[Move, ...]] = {}
    best = 0

    def record(moves: tuple[Move, ...], hit_mask: int) -> None:
        nonlocal best
        used = len(moves)
        if used < best:
            return
        if used > best:
            best = used
            found.clear()
        key = (*board.b, hit_mask)
        if key not in found:
            found[key] = moves

    high, low = max(d1, d2), min(d1, d2)
    orders = [(high, low)]
    if not (high_die_first and _single_moves(board, high, 0)):
        orders.append((low, high))
    for first, second in orders:
        for source, target, hit in _single_moves(board, first, 0):
            _apply(board, source, target)
            move = _MOVE(Move, (source, target, first, hit))
            mask = (1 << target) if hit else 0
            moved = False
            for source2, target2, hit2 in _single_moves(board, second, mask):
                moved = True
                _apply(board, source2, target2)
                record((move, _MOVE(Move, (source2, target2, second, hit2))), mask | (1 << target2) if hit2 else mask)
                _undo(board, source2, target2)
            if not moved:
                record((move,), mask)
            _undo(board, source, target)
    if best == 1 and any(moves[0].die == high for moves in found.values()):
        return {key: moves for key, moves in found.items() if moves[0].die == high}
    return found


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
    d1, d2 = check_dice(dice)
    board = _Board(position)
    if d1 == d2:
        found = _doublet_plays(board, d1)
    else:
        found = _mixed_plays(board, d1, d2, high_die_first_in_bear_off and board.outside == 0)
    if not found:
        return [Play((), position, position)]
    return [Play(moves, None, position, key=key) for key, moves in found.items()]


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
