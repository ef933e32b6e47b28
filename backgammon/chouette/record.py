"""The record of a chouette session (DESIGN "storage": the log is the record): the JSON form
(:meth:`SessionRecord.to_json` / :meth:`SessionRecord.from_json`) and the replay of recorded events
(:meth:`SessionRecord.apply`, :meth:`SessionRecord.replay`) of
:class:`~backgammon.chouette.session.ChouetteSession`, whose events (RULES C1–C11) each replayed entry goes through.
Split out of :mod:`backgammon.chouette.session`."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ChouetteError
from .game import ChouetteGame
from .rules import ChouetteRules
from .sheet import ScoreSheet

if TYPE_CHECKING:
    from .session import ChouetteSession

PHASES = ("seating", "ready", "playing")
"""The phases of a session: throwing for seats, between games, a game in progress."""


class SessionRecord:
    """JSON and replay of :class:`~backgammon.chouette.session.ChouetteSession` (a mixin: ``cls`` is the session
    class)."""

    # ===================================================================================== JSON and replay
    def to_json(self) -> dict[str, Any]:
        """The whole session as a JSON-friendly dict (rules, seats, game, sheet, history); see :meth:`from_json`."""
        return {
            "rules": self.rules.to_json(),
            "phase": self.phase,
            "ranking": copy.deepcopy(self.ranking),
            "order": list(self.order),
            "stakes": dict(self.stakes),
            "joining": copy.deepcopy(self.joining),
            "waiting": list(self.waiting),
            "new_members": list(self.new_members),
            "away": list(self.away),
            "proxies": dict(self.proxies),
            "game": None if self.game is None else self.game.to_json(),
            "sheet": self._sheet.to_json(),
            "history": copy.deepcopy(self.history),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChouetteSession:
        """Inverse of :meth:`to_json` (``from_json(s.to_json()).to_json() == s.to_json()``). Raises
        :class:`ChouetteError` for a malformed record, :class:`~backgammon.errors.RuleSetError` for bad rules."""
        try:
            session = cls(ChouetteRules.from_json(data["rules"]), data["sheet"]["base_stake"])
            if data["phase"] not in PHASES:
                raise ChouetteError(f"unknown phase {data['phase']!r}")
            session.phase = data["phase"]
            session.ranking = copy.deepcopy(data["ranking"])
            session.order = list(data["order"])
            session.stakes = {str(k): int(v) for k, v in data["stakes"].items()}
            session.joining = copy.deepcopy(data["joining"])
            session.waiting = list(data["waiting"])
            session.new_members = list(data["new_members"])
            session.away = list(data["away"])
            session.proxies = dict(data["proxies"])
            session.game = None if data["game"] is None else ChouetteGame.from_json(data["game"])
            session._sheet = ScoreSheet.from_json(data["sheet"])
            session.history = copy.deepcopy(data["history"])
        except (KeyError, TypeError, AttributeError) as error:
            raise ChouetteError(f"malformed chouette session record: {error}") from None
        if session.phase == "playing" and session.game is None:
            raise ChouetteError("a session that is playing needs its game")
        return session

    def apply(self, event: Mapping[str, Any]) -> Any:
        """Apply one recorded event ``{"event": name, "args": {...}}`` (as in ``history``). Raises
        :class:`ChouetteError` for an unknown event, and whatever the event raises."""
        name = event.get("event") if isinstance(event, Mapping) else None
        method = getattr(type(self), name, None) if isinstance(name, str) else None
        if method is None or not getattr(method, "is_event", False):
            raise ChouetteError(f"unknown chouette event {event!r}")
        return getattr(self, name)(**dict(event.get("args", {})))

    @classmethod
    def replay(
        cls, rules: ChouetteRules, history: Sequence[Mapping[str, Any]], base_stake: float = 1
    ) -> ChouetteSession:
        """A session rebuilt by applying ``history`` to a new session (DESIGN: the log is the record)."""
        session = cls(rules, base_stake)
        for entry in history:
            session.apply(entry)
        return session
