"""The console: the same use-cases as the Discord bot, typed in a terminal (``python bot.py --console``) — matches,
money sessions, chouettes over days, and the club's books.

Pick the acting member with ``as alice``, then type the bot's commands as in Discord, with or without ``/bg``,
``/bg chouette`` or ``/club``::

    as alice
    /bg challenge bob 5            # a 5-point match (``money`` or 0: a money session; then a rule set, a stake)
    as bob
    /bg accept
    /bg move 13/7 8/7              # or: roll, double, take, drop, beaver, raccoon, resign gammon, decline …
    chouette start stake=10        # a chouette; others: chouette join, chouette seat, take, no-double …
    wait 2d                        # time passes: reminders, expiries, proxies
    club ledger all                # the books: sheet, ledger, settle, leaderboard, rating, stats, export

After each action the console prints what happened, an ASCII board seen by the member who must act next, the path
of that turn's board image (PNG, in the ``images`` folder) and what can be typed now ("you can: …" — Discord's
buttons). ``#`` starts a comment (at the start of a line, or after a space outside quotes; ``#2`` is a game number),
so a session can be scripted: ``python bot.py --console --seed demo < examples/chouette.txt``. A refused command
says why and what is possible, and changes nothing. No Discord types: the verbs call :mod:`club.frontend`,
:class:`~club.service.ClubService`, :class:`~club.chouette.ChouetteService` and :class:`~club.records.ClubRecords`
exactly as the cogs do.

Modules: :mod:`~console.verbs` (the command table: adding a verb is one decorated function in a module of
:data:`VERB_MODULES`), :mod:`~console.parse` (reading words and numbers), :mod:`~console.core` (the
:class:`Console` frame: who acts, which game), :mod:`~console.games` (``/bg``), :mod:`~console.config`,
:mod:`~console.chouettes` (``/bg chouette`` and its buttons), :mod:`~console.books` (``/club``),
:mod:`~console.timeflow` (``wait``), :mod:`~console.player` (away, claims, nudges, rematches),
:mod:`~console.study` (``/study``: practice, review, hint), :mod:`~console.tables` (text tables) and
:mod:`~console.repl` (the loop).

Members are named, not numbered: a name always maps to the same member id (:func:`member_id`), so a console
database can be reopened and play resumed.
"""

from __future__ import annotations

import importlib

from .core import CONSOLE_GUILD, Console, member_id
from .parse import strip_comment
from .repl import run_console

VERB_MODULES = (
    "console.games",
    "console.config",
    "console.chouettes",
    "console.books",
    "console.timeflow",
    "console.player",
    "console.study",
    "console.events",
)
"""The modules whose ``@verb`` functions make up the console's commands (add yours here)."""

for _module in VERB_MODULES:
    importlib.import_module(_module)

from .games import ascii_table  # noqa: E402  (after the verbs are loaded)

__all__ = ["CONSOLE_GUILD", "VERB_MODULES", "Console", "ascii_table", "member_id", "run_console", "strip_comment"]
