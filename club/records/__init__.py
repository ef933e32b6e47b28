"""The club's books (RULES A3, A4): ledger, settle-up, score sheets, FIBS ratings, statistics, leaderboards, the
corrections audit trail and exports. No Discord types.

Start with ``records = ClubRecords(service)`` on a :class:`club.ClubService`. Use-cases (``guild_id`` = the club;
members are Discord user ids; a period is ``"session"``, ``"day"``, ``"week"``, ``"month"``, ``"all"`` or
``"last week"`` …, a session ``money:12``, ``match:7`` or ``chouette:3``):

- ``ledger(guild_id, period, session=…)`` → :class:`Ledger` (per member: points by kind, money, games; zero-sum)
- ``settle(guild_id, period, …)`` → :class:`Settlement` (at most n − 1 payments; the fewest for ≤ 12 members)
- ``sheet(guild_id, session=None, member=…)`` → :class:`SessionSheet` (a row per game, a column per member)
- ``ratings(guild_id)``, ``rating(guild_id, member)`` → FIBS :class:`Rating` (start 1500, experience-based K)
- ``stats(guild_id, member)`` → :class:`MemberStats`; ``leaderboard(guild_id, "money"|"matches"|"chouette")``
- ``correct(guild_id, admin, payer, payee, points=…, money=…, reason=…)`` → the correction (append-only);
  ``corrections(guild_id, period)`` → the audit trail
- :func:`export_books` → a ZIP of ledger/sheet CSVs and ``.mat`` files; :mod:`club.csvexport` writes the CSVs;
  :mod:`club.records.pictures` turns ledgers, sheets, leaderboards and settle-ups into PNGs,
  :mod:`club.records.texts` into words (the ``/club`` commands of :mod:`cogs.records` use both).

Where the entries come from and why every sum is zero: :mod:`storage.books`.
"""

from .bundle import BooksExport, export_books
from .leaderboards import LEADERBOARDS, Leaderboard, LeaderRow
from .ledger import Ledger, LedgerLine
from .periods import PERIODS, Period, SessionRef, parse_period, period_at
from .ratings import START_RATING, Rating, RatingChange, k_factor, p_upset, rate, rating_change
from .service import ClubRecords, Settlement
from .settle import Payment, settle_up
from .sheets import SessionSheet, SheetRow
from .stats import MemberStats

__all__ = [
    "LEADERBOARDS",
    "PERIODS",
    "START_RATING",
    "BooksExport",
    "ClubRecords",
    "LeaderRow",
    "Leaderboard",
    "Ledger",
    "LedgerLine",
    "MemberStats",
    "Payment",
    "Period",
    "Rating",
    "RatingChange",
    "SessionRef",
    "SessionSheet",
    "Settlement",
    "SheetRow",
    "export_books",
    "k_factor",
    "p_upset",
    "parse_period",
    "period_at",
    "rate",
    "rating_change",
    "settle_up",
]
