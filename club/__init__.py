"""The club's use-cases — everything the Discord cogs, the console and the tests call. No Discord types.

Start with ``service = ClubService(database, clock=SystemClock())`` on an open :class:`storage.Database`. Members are
Discord user ids (ints); a club is a Discord guild id. Every action returns an :class:`Outcome` (the new state as a
:class:`TableView`, what happened in words, whom to notify, whether a new board image is due) or raises a typed
error (:mod:`club.errors`, or the rules' :mod:`backgammon.errors`) and changes nothing.

Use-cases (methods of :class:`ClubService`; ``version`` = the view's version, to refuse stale clicks):

- members and clubs: ``register(guild_id, user_id, display_name)``, ``club_settings(guild_id)``,
  ``configure_club(guild_id, **settings)``, ``preferences(user_id)``, ``set_preferences(user_id, auto_roll=…)``
- challenges: ``challenge(guild_id, challenger, opponent, length=0|N, rules=preset, overrides={…}, stake=…)``,
  ``accept``/``decline``/``cancel(match_id, member)`` — the first game starts by itself on accept
- the game: ``roll``, ``play(match_id, member, "24/18 13/11" | Play)``, ``double``, ``take``, ``drop``,
  ``beaver``, ``raccoon``, ``resign(match_id, member, level)``, ``accept_resignation``, ``reject_resignation``,
  ``stop`` (money session: end after this game). Auto-roll (member preference, when he cannot double), forced plays
  and passes (no legal play) are done for the member; the next game of a match or session starts by itself.
- queries: ``state(match_id)`` → :class:`TableView`; ``game(match_id, number)`` → :class:`GameView`;
  ``legal_plays(match_id, member)``; ``waiting(member)`` (the games waiting for him); ``history(member)``;
  ``log(match_id)`` (the action record: who, what, dice, when)
- Discord message ids: ``remember_message``, ``messages``, ``match_of_message``
- time limits: :func:`club.scheduler.due` / :func:`club.scheduler.run_due`, one clock for matches and chouettes
  (clock injected; run it every minute)
- dice: :mod:`club.dice` (provably fair: commitment, HMAC-SHA256 derivation, :func:`club.dice.verify_rolls`)
- maintenance: :func:`club.verify.verify_database`; ``python -m club verify PATH`` (backup and restore: ``python -m storage``)
"""

from .clock import Clock, ManualClock, SystemClock
from .dice import InjectedDice, derive_dice, new_seed, seed_hash, verify_rolls
from .errors import (
    ClubError,
    GameFinishedError,
    InvalidRequestError,
    NotAPlayerError,
    NotNowError,
    NotYourTurnError,
    StaleVersionError,
    UnknownGameError,
    UnknownMemberError,
)
from .results import GameView, Outcome, TableView
from .service import ClubService, HistoryItem, WaitingItem
from .settings import EXPIRY_POLICIES, ClubSettings, MemberPreferences
from .table import Event, Table

__all__ = [
    "EXPIRY_POLICIES",
    "Clock",
    "ClubError",
    "ClubService",
    "ClubSettings",
    "Event",
    "GameFinishedError",
    "GameView",
    "HistoryItem",
    "InjectedDice",
    "InvalidRequestError",
    "ManualClock",
    "MemberPreferences",
    "NotAPlayerError",
    "NotNowError",
    "NotYourTurnError",
    "Outcome",
    "StaleVersionError",
    "SystemClock",
    "Table",
    "TableView",
    "UnknownGameError",
    "UnknownMemberError",
    "WaitingItem",
    "derive_dice",
    "new_seed",
    "seed_hash",
    "verify_rolls",
]
