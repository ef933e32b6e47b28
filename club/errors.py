"""Typed errors of the use-case layer. All derive from :class:`ClubError`, itself a
:class:`~backgammon.errors.BackgammonError`, so a caller can catch ``BackgammonError`` for every refusal meant for a
person (rules errors such as ``IllegalPlayError`` or ``WrongPhaseError`` pass through the use-cases unchanged).

A refused call never changes anything stored.

:class:`~storage.errors.StorageError` (the database failed: a full disk, a damaged file, a server gone) is not a
refusal; it is named here too, so that a front end catches it without importing ``storage``.
"""

from __future__ import annotations

from backgammon.errors import BackgammonError, WrongPhaseError, WrongTurnError
from storage.errors import StorageError as StorageError  # for the front ends (see the module docstring)

MAX_ID = 2**63
"""Ids (Discord snowflakes, database rows) are below this: SQLite's integers are 64-bit signed."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters with the full length said: a refusal
    never echoes a megabyte of what it refuses."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text):,} characters)"


class ClubError(BackgammonError):
    """Base class of use-case errors; the message is meant for a person."""


class UnknownGameError(ClubError):
    """No match, session or game with that id (in this club)."""


class GameFinishedError(ClubError):
    """The match or session is over, or the challenge was declined, cancelled or has lapsed."""


class NotAPlayerError(ClubError):
    """The member is not one of the two players of that match or session."""


class NotYourTurnError(ClubError, WrongTurnError):
    """The member plays in this match but it is not his turn to do that (the message says whose turn it is)."""


class StaleVersionError(ClubError):
    """Already done: the match moved on since the caller looked (another click, another device, the time limit).

    ``expected`` is the version the caller saw, ``actual`` the stored one."""

    def __init__(self, message: str, expected: int | None = None, actual: int | None = None) -> None:
        super().__init__(message)
        self.expected = expected
        self.actual = actual


class InvalidRequestError(ClubError):
    """Garbage arguments: wrong types or values (a negative stake, a bad preference, challenging oneself …)."""


class UnknownMemberError(ClubError):
    """The Discord user is not a known member (he has to be registered, e.g. by using the bot once)."""


class NotNowError(ClubError, WrongPhaseError):
    """It is the member's turn, but not for that action (rolling when he must play, doubling after rolling …);
    the message says what is awaited."""
