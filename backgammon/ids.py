"""GNU Backgammon's Position ID and Match ID, encoded and decoded bit for bit as gnubg does.

Position ID (gnubg manual, "Position ID"): for the opponent and then the player on roll, for points 1–24 and the bar,
as many 1-bits as checkers followed by a 0-bit; the 80 bits, little-endian within 10 bytes, in base64 without
padding: 14 characters. The opening is ``4HPwATDgc/ABMA``.

Match ID (gnubg manual, "Match ID"): 66 fields bits, plus gnubg 1.07's "not Jacoby" bit, little-endian within 9 bytes,
base64: 12 characters. Players are numbered 0 and 1 as gnubg numbers them (0 = the bottom player, "you").
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from .errors import InvalidMatchIdError, InvalidPositionError
from .position import Position


def _bits_to_b64(bits: list[int], nbytes: int) -> str:
    data = bytearray(nbytes)
    for index, bit in enumerate(bits):
        if bit:
            data[index >> 3] |= 1 << (index & 7)
    return base64.b64encode(bytes(data)).decode("ascii").rstrip("=")


def _b64_to_bits(text: str, nbytes: int, what: str, error) -> list[int]:
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
    return _bits_to_b64(bits, 10)


def decode_position_id(position_id: str) -> Position:
    """Decode a 14-character gnubg Position ID into a :class:`Position`.

    Raises :class:`InvalidPositionError` for a wrong length, bad characters, more than 15 checkers a side or two
    colours on a point.
    """
    if not isinstance(position_id, str) or len(position_id.strip()) != 14:
        raise InvalidPositionError(f"a Position ID has 14 characters, e.g. 4HPwATDgc/ABMA; got {position_id!r}")
    bits = _b64_to_bits(position_id, 10, "Position ID", InvalidPositionError)
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
    if any(bits[index:]):
        raise InvalidPositionError(f"Position ID {position_id!r} has stray bits after the board")
    return Position(tuple(sides[1]), tuple(sides[0]))


# Match ID game states (gnubg's gamestate enum)
GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)
CENTERED = 3


@dataclass(frozen=True, slots=True)
class MatchState:
    """The fields of a gnubg Match ID.

    ``cube`` is the cube value (a power of two, 1–32768); ``cube_owner`` 0, 1 or ``None`` (centred); ``on_roll`` 0/1
    (gnubg's fMove); ``crawford`` for the Crawford game; ``game_state`` one of the ``GAME_*`` constants; ``turn`` 0/1
    (who must decide now, gnubg's fTurn); ``double_offered``; ``resignation`` 0 none, 1 single, 2 gammon, 3 backgammon;
    ``dice`` ``(0, 0)`` when not rolled; ``match_length`` 0 for money play; ``score`` points of players 0 and 1;
    ``jacoby`` (gnubg 1.07 writes bit 66 as "not Jacoby", so the default ``False`` sets it).
    """

    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False


def _put(bits: list[int], start: int, width: int, value: int) -> None:
    for i in range(width):
        bits[start + i] = (value >> i) & 1


def _get(bits: list[int], start: int, width: int) -> int:
    return sum(bits[start + i] << i for i in range(width))


def encode_match_id(state: MatchState) -> str:
    """The 12-character gnubg Match ID of ``state``. Raises :class:`InvalidMatchIdError` for values out of range."""
    cube = state.cube
    if cube < 1 or cube & (cube - 1) or cube > 1 << 15:
        raise InvalidMatchIdError(f"cube value {cube} is not a power of two from 1 to 32768")
    if state.match_length >= 1 << 15 or max(state.score) >= 1 << 15 or min(state.score) < 0:
        raise InvalidMatchIdError("match length and scores must be 0–32767 to fit a Match ID")
    bits = [0] * 72
    _put(bits, 0, 4, cube.bit_length() - 1)
    _put(bits, 4, 2, CENTERED if state.cube_owner is None else state.cube_owner)
    _put(bits, 6, 1, state.on_roll)
    _put(bits, 7, 1, int(state.crawford))
    _put(bits, 8, 3, state.game_state)
    _put(bits, 11, 1, state.turn)
    _put(bits, 12, 1, int(state.double_offered))
    _put(bits, 13, 2, state.resignation)
    _put(bits, 15, 3, state.dice[0])
    _put(bits, 18, 3, state.dice[1])
    _put(bits, 21, 15, state.match_length)
    _put(bits, 36, 15, state.score[0])
    _put(bits, 51, 15, state.score[1])
    _put(bits, 66, 1, int(not state.jacoby))
    return _bits_to_b64(bits, 9)


def decode_match_id(match_id: str) -> MatchState:
    """Decode a 12-character gnubg Match ID. Raises :class:`InvalidMatchIdError` for a malformed or impossible ID."""
    if not isinstance(match_id, str) or len(match_id.strip()) != 12:
        raise InvalidMatchIdError(f"a Match ID has 12 characters, e.g. cAgAAAAAAAAE; got {match_id!r}")
    bits = _b64_to_bits(match_id, 9, "Match ID", InvalidMatchIdError)
    owner = _get(bits, 4, 2)
    if owner == 2:
        raise InvalidMatchIdError(f"Match ID {match_id!r} names cube owner 2; owners are 0, 1 or 3 (centred)")
    dice = (_get(bits, 15, 3), _get(bits, 18, 3))
    if any(d > 6 for d in dice) or (0 in dice and dice != (0, 0)):
        raise InvalidMatchIdError(f"Match ID {match_id!r} holds impossible dice {dice}")
    game_state = _get(bits, 8, 3)
    if game_state > GAME_DROP:
        raise InvalidMatchIdError(f"Match ID {match_id!r} holds unknown game state {game_state}")
    length = _get(bits, 21, 15)
    score = (_get(bits, 36, 15), _get(bits, 51, 15))
    return MatchState(
        cube=1 << _get(bits, 0, 4),
        cube_owner=None if owner == CENTERED else owner,
        on_roll=bits[6],
        crawford=bool(bits[7]),
        game_state=game_state,
        turn=bits[11],
        double_offered=bool(bits[12]),
        resignation=_get(bits, 13, 2),
        dice=dice,
        match_length=length,
        score=score,
        jacoby=not bits[66],
    )
