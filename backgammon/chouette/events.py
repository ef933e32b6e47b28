"""The event machinery of a chouette session: all-or-nothing events recorded in the history, and what awaits whom.

An event is a method of :class:`~backgammon.chouette.session.ChouetteSession` wrapped by :func:`event`: if it raises,
every field of the session is restored as it was (so a refused event "changes nothing"); a
:class:`~backgammon.errors.CubeError` from the cube rules (RULES D1–D5) comes out as a
:class:`~backgammon.errors.ChouetteError`; an accepted event is appended to ``history`` as
``{"event": name, "args": {...}}`` with every argument (defaults included), so that replaying the history rebuilds
the session exactly.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from ..errors import ChouetteError, CubeError


class SessionPhase(StrEnum):
    """Where a session stands: ``seating`` (the seat roll, RULES C1), ``ready`` between games, ``playing`` a game
    (stored as its value: old states read the same)."""

    SEATING = "seating"
    READY = "ready"
    PLAYING = "playing"


class Decision(StrEnum):
    """An answer to an offer on a cube (RULES D2–D3), as logged."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"


DECISIONS = tuple(Decision)
"""The answers to an offer on a cube, in the order of :class:`Decision`."""

WINDOW_ACTIONS = ("double", "no_double")
"""What a Team member may do in the Team's doubling window (003 Atlanta 5.9): :class:`Awaiting` ``actions``."""

CONSENT_ACTIONS = (Decision.TAKE, Decision.DROP)
"""A classic partner's answers to the Captain's double (000 Ch.8): go along (take) or refuse (drop)."""

EXTRA_ACTIONS = ("offer_extra", "no_extra")
"""What a dropper may do in an extras round (003 Atlanta 5.7): :class:`Awaiting` ``actions``."""

_F = TypeVar("_F", bound=Callable[..., Any])


def jsonable(value: Any) -> Any:
    """``value`` with mappings as dicts (string keys) and tuples as lists, for the history."""
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    return value


def event(method: _F) -> _F:
    """Make ``method`` a session event: all-or-nothing (any error restores the state), counted among the current
    game's events (``ChouetteGame.events``), followed by the session's ``_progress`` step while a game is on, and
    recorded in ``history``. Wrong arguments raise :class:`ChouetteError`."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as error:
            raise ChouetteError(f"{method.__name__}: {error}") from None
        bound.apply_defaults()
        snapshot = {key: copy.deepcopy(value) for key, value in self.__dict__.items() if key != "history"}
        try:
            if self.phase == SessionPhase.PLAYING:
                self.game.events += 1
            result = method(self, *args, **kwargs)
            if self.phase == SessionPhase.PLAYING:
                self._progress()
        except CubeError as error:
            self.__dict__.update(snapshot)
            raise ChouetteError(str(error)) from error
        except BaseException:
            self.__dict__.update(snapshot)
            raise
        record = {name: jsonable(value) for name, value in bound.arguments.items() if name != "self"}
        self.history.append({"event": method.__name__, "args": record})
        return result

    wrapper.is_event = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


@dataclass(frozen=True)
class Awaiting:
    """A decision someone must make now. ``member``: whose decision it is (the Box's name for Box); ``actor``: who
    may make it now (``member``, or his proxy while he is away, RULES C9); ``actions``: the event names or decisions
    open to him; ``cubes``: the cube keys concerned."""

    member: str
    actor: str
    actions: tuple[str, ...]
    cubes: tuple[str, ...]
