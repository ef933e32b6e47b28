"""One unit of work for every table: load → check → apply → log → save, one conditional commit.

A *table* is a pure state machine over its action log; :class:`TableBase` (a protocol) names the hooks every
variant has — :class:`club.table.MatchTable` (a match or money session) and :class:`club.chouette.table.ChouetteTable`
(each a whole class, with the rules of its variant):

=====================  ===========================================================================================
hook                   what it says
=====================  ===========================================================================================
``acting()``           who acts now and what is pending: ``[(member, pending), …]`` (one for a match; one per
                       member whose decision the chouette waits for)
``finished``           nothing more can happen
``to_state()``         the hot state to store (no history: :mod:`club.states`)
=====================  ===========================================================================================

A *step* (:class:`Step`) is one use-case call's unit of work on one table: it applies actions to the table and
queues their log entries, does what needs no decision (``autoplay``), and builds the storage commit (``commit``).
Look-alike rules that differ stay hooks of the variants, not one harmonised rule: staleness (``check_fresh``: a
match refuses an older *version*; a chouette an older *mark*, since its Team acts concurrently), what a deadline
does (the services' ``expire``), how a result scores (the commit's rows: ``games`` or ``chouette_results``).

:func:`run_unit` is the one code path both services run each use-case through: under the table's lock (one per
``(kind, id)``, :class:`TableLocks`), load the step, check it is fresh, apply the operation, autoplay, commit — and
turn a lost race (:class:`~storage.errors.VersionConflictError`) into :class:`~club.errors.StaleVersionError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from storage import MessageWrite, StorageError, VersionConflictError

from .admission import Admission
from .dice import RECIPE, Contribution, DiceSource, derive, seed_hash
from .errors import MAX_ID, InvalidRequestError, StaleVersionError, shown

log = logging.getLogger(__name__)


def check_id(value: Any, what: str) -> int:
    """``value`` if it is a whole number from 1 to 2^63 - 1 (an id: SQLite's integers are 64-bit), else
    :class:`InvalidRequestError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < MAX_ID:
        raise InvalidRequestError(f"{what} is a whole number from 1 to 2^63 - 1, not {shown(value)}")
    return value


class TableBase(Protocol):
    """The hooks every table variant has (see the module docstring). A variant raises the rules' typed errors for a
    refused action and changes nothing then."""

    store_kind: str
    """``"match"`` or ``"chouette"``: the kind of subject in the action store (:mod:`storage.store`)."""

    @property
    def finished(self) -> bool:
        """True when nothing more can happen."""
        ...

    def acting(self) -> list[tuple[int, str]]:
        """``[(member, pending), …]``: who must act now (the one acting for him) and what is awaited; ``[]`` when
        nobody (the club's own steps, or finished)."""
        ...

    def to_state(self) -> dict[str, Any]:
        """The hot state to store (its size does not grow with the games played)."""
        ...


@dataclass
class Step:
    """One use-case call's unit of work on one table (see the module docstring): for the ``service``, on the stored
    ``record`` and its ``table``, at ``now``, under the club's ``settings``, with the members' ``names`` and ``prefs``.
    The variants' steps implement ``check_fresh``, ``autoplay`` and ``commit``."""

    service: Any
    record: Any
    table: Any
    now: float
    settings: Any
    names: Any
    prefs: Any

    def check_fresh(self, seen: Any) -> None:
        """Raise :class:`StaleVersionError` when ``seen`` (what the caller's view showed: a version or a mark; None
        = not given) is older than the table."""
        raise NotImplementedError

    def autoplay(self) -> None:
        """Do what needs no decision (the club's own steps, automatic rolls, forced plays)."""
        raise NotImplementedError

    def commit(self) -> Any:
        """The storage commit of everything this step did."""
        raise NotImplementedError


@dataclass
class DiceInUse:
    """A dice series a step rolls from (RULES A1): ``number`` (a match's game number; a chouette's series: 0 = the
    seating throws, n = game n), ``dice`` ``'fair'`` (from ``seed``, committed by ``seed_hash``) or ``'injected'``
    (from outside: tests, replays), ``rolls`` the next roll counter; ``recipe`` the fair dice's recipe
    (:data:`club.dice.RECIPE` for series without client seeds, else :data:`club.dice.RECIPE_V2`) and
    ``contributions`` its client seeds ``[(from_roll, text), …]`` in their published order."""

    number: int
    dice: str
    seed: bytes | None
    seed_hash: str | None
    rolls: int
    recipe: str = RECIPE
    contributions: list[Contribution] = field(default_factory=list)
    beacon: str | None = None
    """v3 with a beacon: the round's randomness (64 hex digits), once fetched and verified."""

    @staticmethod
    def fresh_seed(seeds: Callable[[], bytes], injected: bool, recipe: str = RECIPE) -> dict[str, Any]:
        """The fields of a new series: a fresh seed and its commitment (by ``recipe``), or injected dice."""
        if injected:
            return {"dice": DiceSource.INJECTED, "seed": None, "seed_hash": None, "rolls": 0}
        seed = seeds()
        return {"dice": DiceSource.FAIR, "seed": seed, "seed_hash": seed_hash(seed), "rolls": 0, "recipe": recipe}

    def roll(self, injector: Callable[[int, int, int], Any] | None, subject_id: int, count: int = 2):
        """The next ``count`` dice and the counter they came from (``injector(subject_id, number, counter)`` for
        injected dice); advances the counter. Raises ``ValueError`` for a series that cannot roll (fair without its
        seed, injected without an injector)."""
        index = self.rolls
        if self.dice == DiceSource.FAIR:
            if self.seed is None:
                raise ValueError(f"series {self.number} has fair dice but no seed to derive them from")
            dice = list(derive(self.recipe, self.seed, index, self.contributions, count, self.beacon))
        else:
            if injector is None:
                raise ValueError(f"series {self.number} has injected dice but nothing injects them")
            dice = list(injector(subject_id, self.number, index))[:count]
        self.rolls += 1
        return dice, index


S = TypeVar("S", bound=Step)


class TableLocks:
    """One ``asyncio.Lock`` per table, keyed by ``(kind, id)`` (a match and a chouette may share an id); kept while
    in use (weak values)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Any, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: Any) -> asyncio.Lock:
        """The lock of table ``key``."""
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock


class Purpose(StrEnum):
    """What a remembered message of a table is for (stored as its value): its ``board``; the overflow rows of a
    board (``decisions``); a 1-on-1's ``challenge`` post and ``home`` (its thread or channel); a chouette's
    ``thread``."""

    BOARD = "board"
    DECISIONS = "decisions"
    CHALLENGE = "challenge"
    HOME = "home"
    THREAD = "thread"


class MessageKeeper(Protocol):
    """Where a table's messages are remembered (:meth:`storage.store.Store.add_message`)."""

    async def add_message(
        self, subject: tuple[str, int], channel_id: int, message_id: int, now: float, *,
        game_number: int | None = None, purpose: str = Purpose.BOARD,
    ) -> object:  # fmt: skip
        """Remember message ``message_id`` of ``channel_id`` for table ``subject`` ``(kind, id)``, in its own
        transaction."""
        ...


class UnsavedBoards:
    """The board messages posted after a table's last commit, kept until its next commit stores them in the same
    transaction (one write transaction per action), by table ``(kind, id)``.

    Deciding the message before the commit is impossible: Discord numbers a message when it is posted, and the
    board shows the committed result. A crash before the next commit loses only the pointer to that board message:
    the log and the state are stored, the board's buttons carry the table and its version or mark (they act, or
    answer "already done"), and the next action posts a fresh board."""

    def __init__(self) -> None:
        self._writes: dict[tuple[str, int], list[MessageWrite]] = {}

    def board(self, key: tuple[str, int], channel_id: int, message_id: int, game_number: int | None, now: float):
        """Keep the board message ``message_id`` of ``channel_id`` posted at ``now`` for table ``key`` (game
        ``game_number``); returns its :class:`~storage.MessageWrite`. Raises :class:`InvalidRequestError` for a bad
        id."""
        write = MessageWrite(check_id(channel_id, "channel id"), check_id(message_id, "message id"), game_number,
                             Purpose.BOARD, now)  # fmt: skip
        self._writes.setdefault((key[0], check_id(key[1], f"{key[0]} id")), []).append(write)
        return write

    def of(self, key: tuple[str, int], purpose: str | None = None) -> list[MessageWrite]:
        """The messages kept for table ``key`` (of ``purpose`` if given), oldest first."""
        return [w for w in self._writes.get(key, ()) if purpose in (None, w.purpose)]

    def table_of(self, kind: str, channel_id: int, message_id: int) -> int | None:
        """The id of the table of ``kind`` a kept message shows, or None."""
        for (each, table_id), writes in self._writes.items():
            if each == kind and any(w.channel_id == channel_id and w.message_id == message_id for w in writes):
                return table_id
        return None

    async def save(self, key: tuple[str, int], commit: Any, save: Callable[[Any], Awaitable[int]]) -> int:
        """``await save(commit)`` with the messages kept for ``key`` added to ``commit.messages``; they are kept
        again when the commit fails."""
        writes = self._writes.pop(key, [])
        try:
            return await save(replace(commit, messages=(*commit.messages, *writes)) if writes else commit)
        except BaseException:
            if writes:
                self._writes[key] = writes + self._writes.get(key, [])
            raise

    def take(self, kind: str) -> dict[int, list[MessageWrite]]:
        """Hand over (and forget) every kept message of tables of ``kind``, by table id."""
        keys = [key for key in self._writes if key[0] == kind]
        return {key[1]: self._writes.pop(key) for key in keys}

    async def flush(self, kind: str, keeper: MessageKeeper) -> None:
        """Store every kept message of tables of ``kind`` with ``keeper``, each in its own transaction: before the
        database is closed. One that cannot be stored (:class:`~storage.StorageError`: its table is gone) is logged
        and skipped."""
        for table_id, writes in self.take(kind).items():
            for write in writes:
                try:
                    await keeper.add_message((kind, table_id), write.channel_id, write.message_id, write.created_at,
                                             game_number=write.game_number, purpose=write.purpose)  # fmt: skip
                except StorageError:
                    log.warning("%s %s: its board message %s could not be kept", kind, table_id, write.message_id)


class Unit(Generic[S]):
    """What :func:`run_unit` returns: the ``step`` as committed, the new ``version`` and the ``commit`` written."""

    __slots__ = ("commit", "step", "version")

    def __init__(self, step: S, version: int, commit: Any) -> None:
        self.step, self.version, self.commit = step, version, commit


async def run_unit(
    lock: asyncio.Lock,
    load: Callable[[], Awaitable[S]],
    seen: Any,
    operation: Callable[[S], Any],
    save: Callable[[Any], Awaitable[int]],
    conflict: str,
    admission: Admission | None = None,
) -> Unit[S]:
    """The one unit of work (module docstring): under ``lock``, ``load()`` the step, ``check_fresh(seen)``, run
    ``operation(step)`` (may be a coroutine function), ``autoplay()``, and ``save(step.commit())`` — first taking a
    slot of ``admission`` (backpressure, :mod:`club.admission`) when given. Raises what the operation raises (nothing
    is stored then), :class:`StaleVersionError` for a stale view or a lost race,
    :class:`~club.admission.BusyError` when no slot frees in time."""
    async with admission.slot() if admission is not None else contextlib.nullcontext(), lock:
        step = await load()
        step.check_fresh(seen)
        result = operation(step)
        if inspect.isawaitable(result):
            await result
        step.autoplay()
        commit = step.commit()
        try:
            version = await save(commit[0] if isinstance(commit, tuple) else commit)
        except VersionConflictError as error:
            raise StaleVersionError(conflict, error.expected, error.actual) from None
    return Unit(step, version, commit)
