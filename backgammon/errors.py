"""Typed errors of the rules engine.

Every error the engine raises derives from :class:`BackgammonError`, so a caller (the use-case layer, the console,
the Discord cogs) can catch one type and show ``str(error)`` to a person: each message says what was wrong and,
where it helps, what would be right.
"""

from __future__ import annotations


class BackgammonError(ValueError):
    """Base class of every rules-engine error; the message is meant for a person."""


class InvalidPositionError(BackgammonError):
    """A position that cannot occur: wrong checker count, two colours on a point, a bad Position ID."""


class InvalidMatchIdError(BackgammonError):
    """A Match ID that does not decode (wrong length, bad base64, impossible fields)."""


class InvalidDiceError(BackgammonError):
    """Dice out of range 1–6, or not two of them."""


class NotationError(BackgammonError):
    """Base class of the three notation errors (python-chess style: invalid, illegal, ambiguous)."""


class InvalidPlayError(NotationError):
    """The text is not play notation at all (syntax), e.g. ``24-18`` or ``26/20``."""


class IllegalPlayError(NotationError):
    """The text is well-formed but is not a legal play here; ``legal`` lists the legal plays in notation (RULES G10)."""

    def __init__(self, message: str, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.legal = legal or []


class AmbiguousPlayError(NotationError):
    """The text matches several legal plays with different results; ``candidates`` lists them in notation."""

    def __init__(self, message: str, candidates: list[str] | None = None) -> None:
        super().__init__(message)
        self.candidates = candidates or []


class GameError(BackgammonError):
    """Base class of errors from the game state machine: the action is not allowed now."""


class WrongTurnError(GameError):
    """The action was made by the wrong side (not the player on roll, not the cube's owner…)."""


class WrongPhaseError(GameError):
    """The action does not fit the game's phase (doubling after rolling, playing before rolling, acting when over…)."""


class CubeError(GameError):
    """A cube action the rules forbid now (Crawford game, dead cube, cap, beavers off, not the owner) (RULES D1–D5)."""


class RuleSetError(BackgammonError):
    """A rule set that is contradictory or unknown (e.g. automatic doubles in match play, RULES G3)."""


class MatchFileError(BackgammonError):
    """A match file (.mat) that cannot be read; the message names the line."""


class ChouetteError(BackgammonError):
    """A chouette event the rules forbid now (RULES C1–C11): wrong member, wrong moment, a cube that may not be
    turned or answered, an answer that breaks 003 Atlanta 5.10, a seat or join that does not fit. Nothing changes."""
