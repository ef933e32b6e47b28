"""Kinds named by club modules on both sides of a package: a chouette's logged action kinds
(:class:`ChouetteAction`), which the chouette's table logs and replays and the dice proof (:mod:`club.proof`) reads.
They live here, below both: :mod:`club.proof` is reached from :mod:`club.service` (through the export), which the
chouette package's service imports, so importing :mod:`club.chouette` from the proof would close a cycle."""

from __future__ import annotations

from enum import StrEnum


class ChouetteAction(StrEnum):
    """Every logged action kind of a chouette (see :mod:`club.chouette.table`); stored as their values: old logs
    replay the same."""

    OPEN = "open"
    SIT = "sit"
    STAND = "stand"
    SEAT = "seat"
    RETHROW = "rethrow"
    RETIRE = "retire"
    PROXY = "proxy"
    AWAY = "away"
    BACK = "back"
    STAND_IN = "stand_in"
    ORDER = "order"
    START_GAME = "start_game"
    OPENING_ROLL = "opening_roll"
    TURN = "turn"
    ROLL = "roll"
    PLAY = "play"
    DOUBLE = "double"
    PASS = "pass"
    ANSWER = "answer"
    BOX_ANSWER = "box_answer"
    EXTRA = "extra"
    TEAM_SETTLE = "team_settle"
    FORFEIT = "forfeit"
    GAME_OVER = "game_over"
    CLOSE = "close"
    CLIENT_SEED = "client_seed"
    UNUSED_SEED = "unused_seed"
    BEACON = "beacon"
    SEAT_CALL = "seat_call"
