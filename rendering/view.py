"""What the picture shows: :class:`BoardView`, a frozen description the use-case layer fills and the renderer draws.

Sides are named from the picture: ``"viewer"`` is the side at the bottom (whose point numbers are printed and whose
home board is bottom right), ``"opponent"`` the side at the top. The viewer need not be on roll. Nothing here depends
on Discord or on the game classes; the renderer only reads these fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from backgammon.cube import STAGES
from backgammon.moves import Move
from backgammon.position import Position

VIEWER = "viewer"
OPPONENT = "opponent"
SIDES = (VIEWER, OPPONENT)


class CubeMark(StrEnum):
    """How a chouette member's cube stands on the panel (:attr:`ChouetteMember.cube_state`)."""

    CENTRED = "centred"
    OFFERED = "offered"
    TAKEN = "taken"
    DROPPED = "dropped"


CUBE_STATES = tuple(CubeMark)


class ViewError(ValueError):
    """A :class:`BoardView` (or chouette panel) field is out of range; the message names the field and what is valid."""


def other(side: str) -> str:
    """The other side: ``"viewer"`` ↔ ``"opponent"``."""
    return OPPONENT if side == VIEWER else VIEWER


def _check_side(value, field: str, optional: bool = True) -> None:
    if value is None and optional:
        return
    if value not in SIDES:
        allowed = '"viewer", "opponent"' + (" or None" if optional else "")
        raise ViewError(f"{field} is {value!r}; use {allowed}")


def _check_cube(value, field: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1 or value & (value - 1):
        raise ViewError(f"{field} is {value!r}; a cube value is a power of two ≥ 1 (1, 2, 4, … 64, …)")


@dataclass(frozen=True, slots=True)
class ChouetteMember:
    """One Team member in the chouette panel (RULES C5): ``name``, his own ``cube_value`` and its state —
    ``"centred"``, ``"offered"`` (a double is pending), ``"taken"`` or ``"dropped"``."""

    name: str
    cube_value: int = 1
    cube_state: str = "centred"

    def __post_init__(self) -> None:
        _check_cube(self.cube_value, f"chouette member {self.name!r} cube_value")
        if self.cube_state not in CUBE_STATES:
            raise ViewError(f"cube_state is {self.cube_state!r}; use one of {', '.join(CUBE_STATES)}")


@dataclass(frozen=True, slots=True)
class ChouettePanel:
    """The chouette seating drawn under the board (RULES C3, C5, C7): ``box`` plays against the ``captain``, who is
    listed with the rest of the ``team`` in rank order; ``partner`` is Box's Partner if any (C7); ``stake`` the
    money per point (0 = none, C6), named in the header. The renderer draws exactly what is given."""

    box: str
    captain: ChouetteMember
    team: tuple[ChouetteMember, ...] = ()
    partner: str | None = None
    stake: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "team", tuple(self.team))

    @property
    def members(self) -> tuple[ChouetteMember, ...]:
        """The Captain first, then the rest of the Team."""
        return (self.captain, *self.team)


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything one board picture shows.

    - ``position``: a :class:`~backgammon.position.Position` seen from the **viewer** (``position.player`` = the
      viewer's checkers, numbered from the viewer's home; ``position.opponent`` = the top side's checkers). The viewer
      is drawn at the bottom whether or not he is on roll.
    - ``viewer_name`` / ``opponent_name``; ``viewer_colour`` 0 or 1 picks ``theme.checkers[...]`` for the viewer (the
      opponent gets the other), so a player keeps his colour whoever views the board.
    - ``on_roll``: the side who must act now — roll or double, play, answer a double or a resignation — ``"viewer"``,
      ``"opponent"`` or ``None`` (game over / not started). ``awaiting`` is what he must do, e.g. ``"to roll or
      double"``, ``"to play 6-4"``, ``"to take or drop"``, ``"to accept a resignation"``; the header reads
      "<name of on_roll> <awaiting>", or just ``awaiting`` when ``on_roll`` is ``None`` (e.g. "Ann wins 2 points").
    - ``cube_value`` (power of two) and ``cube_owner`` (``None`` = centred, else the side); ``cube_factor`` the
      automatic-double factor of add-one raises (RULES G3, D6), drawn as "×N" beside the cube when above 1; ``crawford`` = this is the
      Crawford game, so no cube is drawn (RULES M3); ``post_crawford`` is shown in the header. ``offered_cube``: the
      value of a cube being offered right now, drawn once — in the taker's throwing area (the side ``on_roll``, who
      must answer), marked as offered — instead of the cube in its column (RULES D1/D3); ``offer`` says what it is:
      ``"double"``, ``"beaver"`` or ``"raccoon"``. ``resignation``: 1/2/3 = a single game / gammon / backgammon offered (RULES G12) by the side not on roll.
    - ``dice``: the dice shown, ``(d1, d2)`` 1–6, drawn in the right half of ``dice_side``'s own view (the viewer's
      dice right of the bar, the opponent's left); ``dice_side`` ``None`` = the side ``on_roll``.
    - ``score`` = (viewer's points, opponent's points); ``match_length`` 0 = money play (RULES M1), where the
      scores are net running totals and may be negative (shown signed, e.g. ``+4`` / ``-4``).
    - ``last_play``: the moves of the play that led to ``position``, as :class:`~backgammon.moves.Move` in the
      mover's own numbering (25 = bar, 0 = off); ``last_mover`` says whose; ``last_dice`` the roll it used (optional,
      shown in the caption).
    - ``position_id`` / ``match_id``: gnubg's IDs, printed small under the board. ``position_id`` ``None`` means
      "compute it" from ``position`` with the side on roll (or the viewer) as gnubg's player on roll; ``""`` hides it.
    - ``caption``: the words under the board in place of the last play's "Ann played 6-4: 24/18 13/9" (None), for a
      play nobody made, such as a review's best play.
    - ``chouette``: an optional :class:`ChouettePanel` drawn under the board. ``show_cube`` False leaves the board's
      own cube out (a chouette's cubes are the panel's, RULES C5): the cube column says so instead.

    Raises :class:`ViewError` for out-of-range fields.
    """

    position: Position
    viewer_name: str = "You"
    opponent_name: str = "Opponent"
    viewer_colour: int = 0
    on_roll: str | None = VIEWER
    awaiting: str = ""
    cube_value: int = 1
    cube_factor: int = 1
    cube_owner: str | None = None
    crawford: bool = False
    post_crawford: bool = False
    offered_cube: int | None = None
    offer: str = "double"
    resignation: int = 0
    dice: tuple[int, int] | None = None
    dice_side: str | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    last_play: tuple[Move, ...] = ()
    last_mover: str | None = None
    last_dice: tuple[int, int] | None = None
    position_id: str | None = None
    match_id: str = ""
    chouette: ChouettePanel | None = None
    show_cube: bool = True
    caption: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise ViewError(f"position is {type(self.position).__name__}; give a backgammon.position.Position")
        if self.viewer_colour not in (0, 1):
            raise ViewError(f"viewer_colour is {self.viewer_colour!r}; use 0 or 1 (an index into theme.checkers)")
        _check_side(self.on_roll, "on_roll")
        _check_side(self.cube_owner, "cube_owner")
        _check_side(self.dice_side, "dice_side")
        _check_side(self.last_mover, "last_mover")
        _check_cube(self.cube_value, "cube_value")
        if not isinstance(self.cube_factor, int) or isinstance(self.cube_factor, bool) or self.cube_factor < 1:
            raise ViewError(f"cube_factor is {self.cube_factor!r}; the automatic-double factor is a whole number ≥ 1")
        if self.offered_cube is not None:
            _check_cube(self.offered_cube, "offered_cube")
        if self.offer not in STAGES:
            raise ViewError(f'offer is {self.offer!r}; use "double", "beaver" or "raccoon"')
        if self.resignation not in (0, 1, 2, 3):
            raise ViewError(f"resignation is {self.resignation!r}; use 0 (none), 1 single, 2 gammon, 3 backgammon")
        for field in ("dice", "last_dice"):
            dice = getattr(self, field)
            if dice is not None:
                dice = tuple(dice)
                if len(dice) != 2 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
                    raise ViewError(f"{field} is {dice!r}; give two dice 1–6 or None")
                object.__setattr__(self, field, dice)
        score = tuple(self.score)
        negative_ok = self.match_length == 0  # a money session's running totals can be below zero
        if len(score) != 2 or any(not isinstance(s, int) or (s < 0 and not negative_ok) for s in score):
            raise ViewError(
                f"score is {self.score!r}; give (viewer's points, opponent's points), whole numbers "
                "(≥ 0 in a match; a money session's net totals may be negative)"
            )
        object.__setattr__(self, "score", score)
        if not isinstance(self.match_length, int) or self.match_length < 0:
            raise ViewError(f"match_length is {self.match_length!r}; use 0 for money play or the match length ≥ 1")
        moves = tuple(Move(*move) for move in self.last_play)
        for move in moves:
            if not (1 <= move.source <= 25 and 0 <= move.target <= 24 and move.source > move.target):
                raise ViewError(f"last_play move {move} is not a move from 1–25 (25 = bar) down to 0–24 (0 = off)")
        if moves and self.last_mover is None:
            raise ViewError('last_play is given but last_mover is None; say whose play it was ("viewer"/"opponent")')
        object.__setattr__(self, "last_play", moves)

    @property
    def opponent_colour(self) -> int:
        """Index into ``theme.checkers`` of the opponent's colour (the one the viewer does not play)."""
        return 1 - self.viewer_colour

    @property
    def shown_dice_side(self) -> str | None:
        """The side whose dice are drawn: ``dice_side``, else ``on_roll``; ``None`` when no dice are shown."""
        if self.dice is None:
            return None
        return self.dice_side or self.on_roll or VIEWER

    def name_of(self, side: str) -> str:
        """The name shown for ``side`` ("viewer" or "opponent")."""
        return self.viewer_name if side == VIEWER else self.opponent_name

    def resolved_position_id(self) -> str:
        """The Position ID to print: ``position_id`` if given, else computed with the side on roll as gnubg's player
        on roll (the viewer when nobody is on roll)."""
        if self.position_id is not None:
            return self.position_id
        position = self.position if self.on_roll != OPPONENT else self.position.swap()
        return position.position_id()
