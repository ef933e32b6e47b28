"""The rules engine: pure Python, deterministic, no I/O (see docs/rules.md for the numbered rules).

The core, importable from here:

>>> from backgammon import Position, legal_plays, parse_play
>>> opening = Position.initial()
>>> opening.position_id()
'4HPwATDgc/ABMA'
>>> len(legal_plays(opening, (3, 1)))
16
>>> parse_play(opening, (3, 1), "8/5 6/5").notation()
'8/5 6/5'

Modules: ``position`` (the board), ``moves`` (legal plays, RULES G4–G9), ``notation`` (standard notation in and out),
``ids`` (gnubg Position ID and Match ID), ``rules`` (rule sets), ``cube`` (RULES D1–D6, M3–M4), ``game`` (the state
machine of one game), ``result`` (how a game ends and scores), ``match``
(matches and money sessions, RULES M1–M6), ``matfile`` (the Jellyfish/gnubg ``.mat`` format: ``matrecord``,
``matread``, ``matwrite``) and ``replay`` (with ``replayreport``, ``replayrules``), ``errors``
(typed errors).
"""

from .errors import (
    AmbiguousPlayError,
    BackgammonError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
    NotationError,
)
from .ids import MatchState, decode_match_id, encode_match_id
from .moves import Move, Play, format_moves, legal_plays
from .notation import parse_play
from .position import Position, decode_position_id, encode_position_id

__all__ = [
    "AmbiguousPlayError",
    "BackgammonError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidPlayError",
    "InvalidPositionError",
    "MatchState",
    "Move",
    "NotationError",
    "Play",
    "Position",
    "decode_match_id",
    "decode_position_id",
    "encode_match_id",
    "encode_position_id",
    "format_moves",
    "legal_plays",
    "parse_play",
]
