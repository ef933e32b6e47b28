"""The position: where the 30 checkers stand, from the view of the player on roll.

Layout (the same as GNU Backgammon's ``TanBoard``): each side has a tuple of 25 counts, index ``i`` is that side's
point ``i + 1`` counted from its **own** home (index 0 = its 1-point, index 23 = its 24-point) and index 24 is its bar.
Checkers borne off are ``15 - sum(side)``. ``player`` is the side on roll (moving 24 → 1), ``opponent`` the other.
A point ``p`` of the player is the opponent's point ``25 - p``.

RULES G1 (set-up), G4 (a point holds one colour), G11 (off counts for the result). A position is refused as GNU
Backgammon's ``CheckPosition`` (positionid.c) refuses one: over 15 checkers a side, two colours on a point, or both
sides on the bar against closed boards (positions-2.json BG27; bkgm.com glossary "Illegal Position": such a position
cannot arise in play and the game could never end).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from .errors import InvalidPositionError

CHECKERS = 15
BAR = 25  # the bar as a point number, as in the notation ``25/22`` or ``bar/22``
OFF = 0  # borne off, as in ``6/0`` or ``6/off``

_START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
_NACKGAMMON_SIDE = (0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0)
_STARTS = {"backgammon": _START_SIDE, "nackgammon": _NACKGAMMON_SIDE}


def _check_side(side: tuple[int, ...], name: str) -> None:
    if len(side) != 25:
        raise InvalidPositionError(f"{name} needs 25 counts (points 1–24 and the bar), got {len(side)}")
    for index, count in enumerate(side):
        if not isinstance(count, int) or count < 0:
            where = "the bar" if index == 24 else f"point {index + 1}"
            raise InvalidPositionError(f"{name} has {count!r} checkers on {where}; counts are whole numbers ≥ 0")
    total = sum(side)
    if total > CHECKERS:
        raise InvalidPositionError(f"{name} has {total} checkers on the board; a side has 15 at most")


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable backgammon position seen by the player on roll.

    ``player`` and ``opponent`` are 25-tuples of checker counts (points 1–24 from that side's own view, then the bar).
    Raises :class:`InvalidPositionError` for more than 15 checkers a side, negative counts, two colours on one
    point (RULES G4), or both sides on the bar against closed boards (gnubg ``CheckPosition``, case BG27).
    """

    player: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", tuple(self.player))
        object.__setattr__(self, "opponent", tuple(self.opponent))
        _check_side(self.player, "the player on roll")
        _check_side(self.opponent, "the opponent")
        for point in range(1, 25):
            if self.player[point - 1] and self.opponent[24 - point]:
                raise InvalidPositionError(
                    f"point {point} (player on roll's count) holds checkers of both colours: "
                    f"{self.player[point - 1]} of the player on roll and {self.opponent[24 - point]} of the opponent"
                )
        if self.player[24] and self.opponent[24] and min(self.player[:6]) >= 2 and min(self.opponent[:6]) >= 2:
            raise InvalidPositionError(
                "both sides have checkers on the bar against closed boards: a position that cannot arise in play and "
                "could never end (gnubg: 'Illegal position'); open a home-board point or take a checker off the bar"
            )

    # -- construction -------------------------------------------------------------------------------------------
    @classmethod
    def _trusted(cls, player: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """Build without validation; only for the move generator, whose results are valid by construction."""
        return _trusted(player, opponent)

    @classmethod
    def initial(cls, variant: str = "backgammon") -> Position:
        """The starting position of ``variant`` (RULES G1): ``"backgammon"`` 2 on the 24-point, 5 on the 13, 3 on the
        8, 5 on the 6, each side; ``"nackgammon"`` 2 on the 24, 2 on the 23, 4 on the 13, 3 on the 8, 4 on the 6.
        Raises :class:`InvalidPositionError` for another variant."""
        if variant not in _STARTS:
            raise InvalidPositionError(f"the starting positions are {' and '.join(_STARTS)}, not {variant!r}")
        return cls(_STARTS[variant], _STARTS[variant])

    @classmethod
    def from_points(
        cls,
        points: dict[int | str, int],
        bar: tuple[int, int] | dict[str, int] = (0, 0),
        off: tuple[int, int] | dict[str, int] | None = None,
    ) -> Position:
        """Build a position from signed counts per point, as in ``tests/cases/positions.json``.

        ``points`` maps a point 1–24 counted from the player on roll to a signed count (positive = player on roll,
        negative = opponent). ``bar`` is ``(player, opponent)`` or ``{"me": n, "opp": m}``. ``off``, if given, must
        agree with the counts (15 checkers a side); if omitted the rest of the 15 are taken as borne off.
        Raises :class:`InvalidPositionError` when the counts do not add up.
        """
        player = [0] * 25
        opponent = [0] * 25
        for key, count in points.items():
            point = int(key)
            if not 1 <= point <= 24:
                raise InvalidPositionError(f"point {point} is not on the board; points run 1–24")
            if count > 0:
                player[point - 1] = count
            elif count < 0:
                opponent[24 - point] = -count
        if isinstance(bar, dict):
            bar = (bar.get("me", 0), bar.get("opp", 0))
        player[24], opponent[24] = bar
        position = cls(tuple(player), tuple(opponent))
        if off is not None:
            if isinstance(off, dict):
                off = (off.get("me", 0), off.get("opp", 0))
            if off != (position.off_player, position.off_opponent):
                raise InvalidPositionError(
                    f"borne-off counts {off} do not match the board: it leaves "
                    f"{position.off_player} and {position.off_opponent} off (15 checkers a side)"
                )
        return position

    # -- queries ------------------------------------------------------------------------------------------------
    @property
    def off_player(self) -> int:
        """Checkers the player on roll has borne off (0–15)."""
        return CHECKERS - sum(self.player)

    @property
    def off_opponent(self) -> int:
        """Checkers the opponent has borne off (0–15)."""
        return CHECKERS - sum(self.opponent)

    @property
    def pips_player(self) -> int:
        """Pip count of the player on roll: Σ point × checkers, the bar counting 25."""
        return sum((index + 1) * count for index, count in enumerate(self.player))

    @property
    def pips_opponent(self) -> int:
        """Pip count of the opponent, from the opponent's own view (bar = 25)."""
        return sum((index + 1) * count for index, count in enumerate(self.opponent))

    def at(self, point: int) -> int:
        """Signed count on ``point`` (1–24 from the player on roll): positive = player on roll, negative = opponent."""
        if not 1 <= point <= 24:
            raise InvalidPositionError(f"point {point} is not on the board; points run 1–24")
        return self.player[point - 1] - self.opponent[24 - point]

    def swap(self) -> Position:
        """The same checkers seen by the other side (the opponent becomes the player on roll)."""
        return Position(self.opponent, self.player)

    def is_over(self) -> bool:
        """True when either side has borne off all 15 checkers (RULES G11)."""
        return self.off_player == CHECKERS or self.off_opponent == CHECKERS

    def is_race(self) -> bool:
        """True when no contact is left: every checker of the player on roll has passed every opposing checker."""
        mine = [i + 1 for i in range(25) if self.player[i]]
        theirs = [24 - i for i in range(25) if self.opponent[i]]  # opponent's point q is our point 25 - q
        return not mine or not theirs or max(mine) < min(theirs)

    def points_dict(self) -> dict[int, int]:
        """Signed counts per occupied point (1–24 from the player on roll), the inverse of :meth:`from_points`."""
        return {p: c for p in range(24, 0, -1) if (c := self.at(p))}

    def to_gnubg(self) -> list[list[int]]:
        """GNU Backgammon's board: ``[opponent, player]``, each 25 counts (the shape ``gnubg_nn`` takes)."""
        return [list(self.opponent), list(self.player)]

    @classmethod
    def from_gnubg(cls, board) -> Position:
        """Inverse of :meth:`to_gnubg`: ``board[1]`` is the player on roll, ``board[0]`` the opponent."""
        return cls(tuple(board[1]), tuple(board[0]))

    # -- identifiers ----------------------------------------------------------------------------------------------
    def position_id(self) -> str:
        """The 14-character gnubg Position ID of this position (:func:`encode_position_id`)."""
        return encode_position_id(self)

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """Decode a gnubg Position ID (:func:`decode_position_id`); raises :class:`InvalidPositionError` for a
        malformed ID."""
        return decode_position_id(position_id)


# -- gnubg Position ID --------------------------------------------------------------------------------------------
def bits_to_b64(bits: list[int], nbytes: int) -> str:
    """``bits`` (least significant first in each byte) packed in ``nbytes`` bytes, as gnubg's unpadded base64."""
    data = bytearray(nbytes)
    for index, bit in enumerate(bits):
        if bit:
            data[index >> 3] |= 1 << (index & 7)
    return base64.b64encode(bytes(data)).decode("ascii").rstrip("=")


def b64_to_bits(text: str, nbytes: int, what: str, error: type[Exception]) -> list[int]:
    """The bits of gnubg's base64 ``text`` of ``nbytes`` bytes; raises ``error`` naming ``what`` when malformed."""
    text = text.strip()
    padded = text + "=" * (-len(text) % 4)
    try:
        data = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        raise error(f"{what} {text!r} is not valid base64") from None
    if len(data) != nbytes:
        raise error(f"{what} {text!r} decodes to {len(data)} bytes; a {what} is {nbytes} bytes")
    return [(data[i >> 3] >> (i & 7)) & 1 for i in range(nbytes * 8)]


def encode_position_id(position: Position) -> str:
    """The 14-character gnubg Position ID of ``position`` (player on roll last, as gnubg writes it)."""
    bits: list[int] = []
    for side in (position.opponent, position.player):
        for count in side:
            bits.extend([1] * count)
            bits.append(0)
    return bits_to_b64(bits, 10)


def decode_position_id(position_id: str) -> Position:
    """Decode a 14-character gnubg Position ID into a :class:`Position`.

    Raises :class:`InvalidPositionError` for a wrong length, bad characters, and a board gnubg's ``CheckPosition``
    refuses (gnubg: "Illegal position."): more than 15 checkers a side, two colours on a point, both sides on the bar
    against closed boards (positions-2.json BG27). Bits after the board are ignored, as gnubg ignores them.
    """
    if not isinstance(position_id, str) or len(position_id.strip()) != 14:
        raise InvalidPositionError(f"a Position ID has 14 characters, e.g. 4HPwATDgc/ABMA; got {position_id!r}")
    bits = b64_to_bits(position_id, 10, "Position ID", InvalidPositionError)
    sides: list[list[int]] = [[], []]
    index = 0
    for side in sides:
        while len(side) < 25:
            count = 0
            while index < 80 and bits[index]:
                count += 1
                index += 1
            if index >= 80:
                raise InvalidPositionError(f"Position ID {position_id!r} runs out of bits before the board is complete")
            index += 1
            side.append(count)
    # Bits after the board are ignored, as gnubg's oldPositionFromKey stops there.
    try:
        return Position(tuple(sides[1]), tuple(sides[0]))
    except InvalidPositionError as error:
        raise InvalidPositionError(f"Position ID {position_id!r} is an illegal position: {error}") from None


_NEW = object.__new__
_SET_PLAYER = Position.__dict__["player"].__set__  # the slot descriptors: a third of the cost of object.__setattr__
_SET_OPPONENT = Position.__dict__["opponent"].__set__


def _trusted(player: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
    """A :class:`Position` without validation, as fast as Python allows (the move generator builds thousands; its
    results are valid by construction)."""
    position = _NEW(Position)
    _SET_PLAYER(position, player)
    _SET_OPPONENT(position, opponent)
    return position
