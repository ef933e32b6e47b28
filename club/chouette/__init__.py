"""Chouettes in the club (RULES C1–C11, A1–A3): a session in a channel, played asynchronously over days.

``chouettes = ChouetteService(club_service)`` on a :class:`~club.service.ClubService`. Members are Discord user ids.
A session is created in a channel with a rule set (``start``); members join and leave between games (``join``,
``leave``; during a game a leaver is represented until it ends); ``seat`` throws the seat roll (provably fair dice)
and the first game starts by itself. Each game's board is a normal game between Box and the Captain (``roll``,
``play``); each Team member has his own cube and decides for himself (``act``: double, pass, take, drop, beaver,
raccoon, extras), every decision with a deadline; a member who misses it is represented by his named proxy, else by
the Captain (``proxy``; RULES C9), and when the proxy's time passes too the club's policy decides
(:mod:`club.chouette.service`). Deadlines fire through the one clock, :func:`club.scheduler.run_due` with the
chouette's hooks (:class:`club.clocks.ChouetteClock`). When a game ends its row goes on the score sheet and into
``chouette_results`` in the same transaction; the session can wait overnight — or across a restart — and go on.

Every call returns a :class:`ChouetteOutcome`: the new :class:`ChouetteView`, what happened in words, and ``ping`` —
exactly the members who must decide now. ``python -m club verify`` also replays every chouette's log
(:mod:`club.verify`, one module for matches and chouettes).

Modules: ``table`` (the pure state machine over the log), ``service`` (the use-cases), ``expiry`` (its deadline
hook), ``views`` (results),
``describe`` (words), ``images`` (board with the chouette panel, score-sheet image);
the replay and dice proof are :mod:`club.verify`'s.
"""

from ..scheduler import run_due  # the one clock: run_due(chouettes) fires the chouettes' deadlines
from .service import ACTIONS, ChouetteService
from .step import policy_decision
from .table import ChouetteTable, Pending
from .views import ChouetteOutcome, ChouetteView, CubeView, Decision, SheetData, SheetRowData

__all__ = [
    "ACTIONS",
    "ChouetteOutcome",
    "ChouetteService",
    "ChouetteTable",
    "ChouetteView",
    "CubeView",
    "Decision",
    "Pending",
    "SheetData",
    "SheetRowData",
    "policy_decision",
    "run_due",
]
