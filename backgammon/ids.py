"""GNU Backgammon's Position ID and Match ID, encoded and decoded bit for bit as gnubg does.

Position ID (gnubg manual, "Position ID"): for the opponent and then the player on roll, for points 1–24 and the bar,
as many 1-bits as checkers followed by a 0-bit; the 80 bits, little-endian within 10 bytes, in base64 without
padding: 14 characters. The opening is ``4HPwATDgc/ABMA``. The Position ID is the position's own
(:func:`backgammon.position.encode_position_id`, :meth:`~backgammon.position.Position.position_id`); this module
holds the Match ID and the rules both follow.

Match ID (gnubg manual, "Match ID"): 66 fields bits, plus gnubg 1.07's "not Jacoby" bit, little-endian within 9 bytes,
base64: 12 characters. Players are numbered 0 and 1 as gnubg numbers them (0 = the bottom player, "you").

Validation follows GNU Backgammon's own readers (``matchid.c`` ``MatchFromKey``, ``play.c`` ``SetMatchID``,
``positionid.c`` ``oldPositionFromKey``/``CheckPosition``; cases positions-2.json BG25, BG27):

- a Match ID is refused for a die above 6, a match longer than gnubg's ``MAXSCORE`` (64), a score above the match
  length, or the Crawford bit in money play (``MatchFromKey`` returns -1: gnubg "Illegal match ID");
- the Crawford bit means "Crawford game" only where ``SetMatchID`` reads it: a match longer than 1 point with a side
  1-away (``ms.fCrawford = fCrawford && oneAway``; in a 1-point match ``fCrawford = 0``). Elsewhere it is ignored,
  so ``8AmgACAACAAE`` decodes as ``cAmgACAACAAE`` does; :attr:`MatchState.post_crawford` is gnubg's
  ``fPostCrawford``;
- **decision on cube-owner bits ``10``** (gnubg never writes them: centred is ``11``): read as a centred cube, as
  ``MatchFromKey`` does (``if (*pfCubeOwner && *pfCubeOwner != 1) *pfCubeOwner = -1``), so that a reader of ours and
  gnubg agree on what every ID they both accept means; the ID re-encodes with ``11``;
- one die set and the other 0 reads as "not rolled", as ``SetMatchID`` (which sets dice only when both are thrown)
  re-emits it;
- stricter than gnubg, on purpose: the text must be 12 (14) base64 characters (gnubg maps any other character to
  garbage bits), and a game state above 4 (``GAME_DROP``) is refused — gnubg keeps such a state although nothing in
  gnubg gives it a meaning.
- a Position ID is refused as ``CheckPosition`` refuses a board: more than 15 checkers a side, both colours on a
  point, or both sides on the bar against closed boards (:class:`~backgammon.position.Position` checks these); bits
  after the 50th 0-bit are ignored, as ``oldPositionFromKey`` ignores them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidMatchIdError
from .position import b64_to_bits, bits_to_b64

# Match ID game states (gnubg's gamestate enum)
GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)
CENTERED = 3
MAX_MATCH_LENGTH = 64  # gnubg's MAXSCORE (matchequity.h): MatchFromKey refuses a longer match


@dataclass(frozen=True, slots=True)
class MatchState:
    """The fields of a gnubg Match ID.

    ``cube`` is the cube value (a power of two, 1–32768); ``cube_owner`` 0, 1 or ``None`` (centred); ``on_roll`` 0/1
    (gnubg's fMove); ``crawford`` for the Crawford game; ``game_state`` one of the ``GAME_*`` constants; ``turn`` 0/1
    (who must decide now, gnubg's fTurn); ``double_offered``; ``resignation`` 0 none, 1 single, 2 gammon, 3 backgammon;
    ``dice`` ``(0, 0)`` when not rolled; ``match_length`` 0 for money play; ``score`` points of players 0 and 1;
    ``jacoby`` (gnubg 1.07 writes bit 66 as "not Jacoby", so the default ``False`` sets it).
    :func:`decode_match_id` keeps ``crawford`` only where gnubg reads it (see the module docstring, BG25).
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

    @property
    def one_away(self) -> bool:
        """True in a match where a side needs one point (gnubg's ``oneAway`` in ``SetMatchID``)."""
        return bool(self.match_length) and self.match_length - 1 in self.score

    @property
    def post_crawford(self) -> bool:
        """gnubg's ``fPostCrawford`` (``!fCrawford && oneAway``, RULES M3): a side is 1-away and this is not the
        Crawford game, so the trailer may double (in a 1-point match, where both start 1-away, gnubg says so too)."""
        return self.one_away and not self.crawford


def _put(bits: list[int], start: int, width: int, value: int) -> None:
    for i in range(width):
        bits[start + i] = (value >> i) & 1


def _get(bits: list[int], start: int, width: int) -> int:
    return sum(bits[start + i] << i for i in range(width))


def _check_fields(state: MatchState, what: str) -> None:
    """The checks of gnubg's ``MatchFromKey`` (matchid.c): what gnubg's reader calls an illegal Match ID."""
    if any(not 0 <= d <= 6 for d in state.dice):
        raise InvalidMatchIdError(f"{what} holds a die of {max(state.dice)}; dice run 1–6 (0 = not rolled)")
    if not 0 <= state.match_length <= MAX_MATCH_LENGTH:
        raise InvalidMatchIdError(
            f"{what} is for a {state.match_length}-point match; gnubg reads matches of 1–{MAX_MATCH_LENGTH} points "
            "(0 = money play)"
        )
    if state.match_length and max(state.score) > state.match_length:
        raise InvalidMatchIdError(
            f"{what} has the score {state.score[0]}-{state.score[1]}, above the match length "
            f"{state.match_length}; scores run 0–{state.match_length}"
        )
    if not state.match_length and state.crawford:
        raise InvalidMatchIdError(f"{what} marks a Crawford game in money play; the Crawford rule is for matches")


def encode_match_id(state: MatchState) -> str:
    """The 12-character gnubg Match ID of ``state``.

    Like gnubg's writer (``MatchID``) it writes whatever fits the bits; raises :class:`InvalidMatchIdError` only for
    values that do not fit (a cube that is no power of two from 1 to 32768, a die above 7, a length or score outside
    0–32767). A score above the length (a raw final score with ``cap_match_score`` off, case SC19) is written as gnubg
    1.07 writes it, although gnubg's reader and :func:`decode_match_id` refuse it.
    """
    cube = state.cube
    if cube < 1 or cube & (cube - 1) or cube > 1 << 15:
        raise InvalidMatchIdError(f"cube value {cube} is not a power of two from 1 to 32768")
    if max(state.score) >= 1 << 15 or min(state.score) < 0 or not 0 <= state.match_length < 1 << 15:
        raise InvalidMatchIdError("match length and scores must be 0–32767 to fit a Match ID")
    if any(not 0 <= d <= 7 for d in state.dice):
        raise InvalidMatchIdError(f"dice {state.dice} do not fit a Match ID (3 bits each)")
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
    return bits_to_b64(bits, 9)


def decode_match_id(match_id: str) -> MatchState:
    """Decode a 12-character gnubg Match ID as gnubg reads it (``MatchFromKey`` and ``SetMatchID``; module docstring).

    Raises :class:`InvalidMatchIdError` for a malformed ID and for one gnubg calls illegal: a die above 6, a match
    longer than 64 points, a score above the length, a Crawford game in money play; also for a game state above 4.
    The Crawford bit counts only with a side 1-away in a match longer than 1 point (BG25); cube-owner bits ``10``
    read as centred; a half-set roll as not rolled.
    """
    if not isinstance(match_id, str) or len(match_id.strip()) != 12:
        raise InvalidMatchIdError(f"a Match ID has 12 characters, e.g. cAgAAAAAAAAE; got {match_id!r}")
    bits = b64_to_bits(match_id, 9, "Match ID", InvalidMatchIdError)
    owner = _get(bits, 4, 2)
    dice = (_get(bits, 15, 3), _get(bits, 18, 3))
    game_state = _get(bits, 8, 3)
    length = _get(bits, 21, 15)
    score = (_get(bits, 36, 15), _get(bits, 51, 15))
    raw = MatchState(dice=dice, match_length=length, score=score, crawford=bool(bits[7]))
    _check_fields(raw, f"Match ID {match_id!r}")
    if game_state > GAME_DROP:
        raise InvalidMatchIdError(
            f"Match ID {match_id!r} holds unknown game state {game_state}; states are 0 (none) to 4 (dropped)"
        )
    if 0 in dice:
        dice = (0, 0)  # gnubg's SetMatchID sets dice only when both are thrown
    crawford = bool(bits[7]) and length > 1 and raw.one_away  # SetMatchID: fCrawford && oneAway, never at 1 point
    return MatchState(
        cube=1 << _get(bits, 0, 4),
        cube_owner=owner if owner in (0, 1) else None,  # MatchFromKey: owner bits 10 and 11 are both centred
        on_roll=bits[6],
        crawford=crawford,
        game_state=game_state,
        turn=bits[11],
        double_offered=bool(bits[12]),
        resignation=_get(bits, 13, 2),
        dice=dice,
        match_length=length,
        score=score,
        jacoby=not bits[66],
    )
