"""Helpers for the chouette tests (test code only)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from backgammon.chouette import ChouetteRules, ChouetteSession
from backgammon.errors import ChouetteError


def atlanta(**overrides) -> ChouetteRules:
    """The 003 Atlanta preset with overrides."""
    return ChouetteRules.preset("chouette-atlanta", **overrides)


def classic(**overrides) -> ChouetteRules:
    """The 000 classic preset with overrides."""
    return ChouetteRules.preset("chouette-classic", **overrides)


def classic_1931(**overrides) -> ChouetteRules:
    """The 001 (1931) preset with overrides; automatic doubles off unless asked (001 §15 "eliminated by agreement")."""
    overrides.setdefault("automatic_doubles", 0)
    return ChouetteRules.preset("chouette-classic-1931", **overrides)


def seated(rules: ChouetteRules, members: Sequence[str] = ("A", "B", "C", "D"), stakes=None) -> ChouetteSession:
    """A session seated in ``members`` order (distinct descending throws, RULES C1)."""
    session = ChouetteSession(rules)
    top = 6 * rules.seating_dice
    session.seat({member: top - index for index, member in enumerate(members)}, stakes=stakes)
    assert session.next_order() == list(members)
    return session


def started(rules: ChouetteRules, members: Sequence[str] = ("A", "B", "C", "D"), stakes=None, **start):
    """A seated session with its first game started."""
    session = seated(rules, members, stakes)
    session.start_game(**start)
    return session


def refused(session: ChouetteSession, method: str, *args, match: str | None = None, **kwargs) -> ChouetteError:
    """Call ``session.method(*args, **kwargs)``, expect a ChouetteError, and check that nothing changed."""
    before = session.to_json()
    with pytest.raises(ChouetteError, match=match) as info:
        getattr(session, method)(*args, **kwargs)
    assert session.to_json() == before, f"refused {method} changed the session"
    return info.value


def last_points(session: ChouetteSession) -> dict[str, int]:
    """The points of the last game on the sheet."""
    return session.sheet().rows[-1].points
