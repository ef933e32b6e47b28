"""Time-limit notices, at least once and each once (the outbox of :mod:`storage.notices`).

:func:`club.scheduler.run_due` records every notice it fires **pending** under its key
(:meth:`~club.clocks.Notice.key`) in the very transaction of what fired it: a reminder, and the expiry of the
``nothing``/``claim`` policies, with the mark on the deadline; an away period or an away day with the deadline's
move; what the club did itself (a forfeit, a lapse, a proxy's turn, an auto-roll) with that step's own commit
(:class:`~club.clocks.StepNotice`) — so a kill never leaves an action without its notice. The process holding the
scheduler's lease then posts what is pending (:func:`pending`) and marks each posted (:func:`posted`): a process
killed between the two leaves it pending, and the next round — after a restart, or in the process that takes the
lease over — posts it. A notice recovered that way is posted with its text and buttons (the board of what the
club did is the table's, shown by its next action); the post's nonce keeps Discord from showing one twice.

A finished match's review (:func:`review_due`) and what an event's commit has to post (:class:`EventNews`) go
through the same outbox, under key prefixes of their own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from storage import notices as stored

from .clocks import Notice


@dataclass(frozen=True, slots=True)
class Pending:
    """A notice to post: the stored row's ``id`` (its nonce on Discord: :attr:`nonce`), ``key`` and ``notice``."""

    id: int
    key: str
    notice: Notice

    @property
    def nonce(self) -> str:
        """The post's nonce (Discord returns the first message of a nonce instead of posting it again)."""
        return f"bgn{self.id}"


async def pending(service, fired: Iterable[Notice] = ()) -> list[Pending]:
    """The notices to post in the club database of ``service`` (a :class:`~club.service.ClubService`), oldest
    first: each the one just ``fired`` (with the table's outcome) when it is among them, else as recorded."""
    live = {notice.key(): notice for notice in fired}
    return [Pending(row.id, row.key, live.get(row.key) or Notice.from_body(row.body)) for row in await stored.pending(service.db)]


async def posted(service, item: Pending) -> None:
    """Mark ``item`` posted (at the service's clock)."""
    await stored.posted(service.db, item.id, service.clock.now())


async def failed(service, item: Pending | EventNews) -> None:
    """Count one failed post of ``item`` (it is tried again next round, up to :data:`storage.notices.ATTEMPTS`)."""
    await stored.failed(service.db, item.id)


async def shown(service, fired: Iterable[Notice]) -> None:
    """Mark the ``fired`` notices posted (at the service's clock): a front end that shows them itself as they fire
    (the console)."""
    await stored.posted_keys(service.db, sorted({notice.key() for notice in fired}), service.clock.now())


@dataclass(frozen=True, slots=True)
class DueReview:
    """The review of finished match ``match_id`` to post: the stored row's ``id`` (its nonce: :attr:`nonce`)."""

    id: int
    match_id: int

    @property
    def nonce(self) -> str:
        """The post's nonce."""
        return f"bgr{self.id}"


async def review_due(service, match_id: int) -> DueReview | None:
    """Record that finished match ``match_id``'s review is to be posted (nothing when it is recorded already);
    returns it, or None when it was posted already."""
    key = f"{stored.REVIEW}{match_id}"
    await stored.record(service.db, key, {"match_id": match_id}, service.clock.now())
    row = await stored.find(service.db, key)
    return None if row is None else DueReview(row.id, match_id)


async def reviews_due(service) -> list[DueReview]:
    """The reviews recorded and not posted yet (a restart while they were computed), oldest first."""
    return [DueReview(row.id, int(row.body["match_id"])) for row in await stored.pending(service.db, prefix=stored.REVIEW)]


async def review_posted(service, item: DueReview) -> None:
    """Mark ``item`` posted."""
    await stored.posted(service.db, item.id, service.clock.now())


async def review_failed(service, item: DueReview) -> None:
    """Count one failed attempt at ``item`` (tried again at the next start, up to :data:`storage.notices.ATTEMPTS`)."""
    await stored.failed(service.db, item.id)


@dataclass(frozen=True, slots=True)
class EventNews:
    """What event ``event_id``'s commit of log seq ``after + 1 … version`` has to post (its results, new pairings,
    decisions asked, claim notices aside), recorded pending in that commit (:meth:`recorded`); ``id`` its stored
    row's (0: not read back). Its posts' nonces (:meth:`nonce`) follow from the event and version alone, so the
    process that made it and one posting what it left pending never show a post twice."""

    event_id: int
    after: int
    version: int
    id: int = 0

    @property
    def key(self) -> str:
        """Its key in the outbox."""
        return f"{stored.EVENT}{self.event_id}:{self.version}"

    def recorded(self) -> tuple[str, dict]:
        """``(key, body)`` as the event's commit records it."""
        return self.key, {"event": self.event_id, "after": self.after, "version": self.version}

    def nonce(self, part: str) -> str:
        """The nonce of one of its posts (``part``: ``w`` the words, ``a3`` the fourth decision asked …), at most
        Discord's 25 characters."""
        return _short(f"bge{self.event_id}.{self.version}{part}")


def picture_nonce(event_id: int, replaced: int | None = None) -> str:
    """The nonce of event ``event_id``'s bracket or standings picture when it is posted (it is edited after that):
    the same for every first post of it, so a process killed after posting it but before its message id was
    logged gets the first message back; ``replaced``: the id of the picture's message that could not be edited
    (deleted), whose replacement is a new post."""
    return _short(f"bgp{event_id}" if replaced is None else f"bgp{event_id}.{replaced}")


def _short(text: str) -> str:
    """``text`` as a nonce of at most Discord's 25 characters (its ``bg`` + kind letter, then a hash if longer)."""
    return text if len(text) <= 25 else text[:3] + hashlib.sha256(text.encode()).hexdigest()[:22]


async def news_posted(service, news: EventNews) -> None:
    """Mark ``news`` posted (at the service's clock)."""
    await stored.posted_keys(service.db, [news.key], service.clock.now())


async def news_due(service) -> list[EventNews]:
    """The events' news recorded and not posted yet (a process killed before it posted them), oldest first."""
    return [EventNews(int(row.body["event"]), int(row.body["after"]), int(row.body["version"]), row.id)
            for row in await stored.pending(service.db, prefix=stored.EVENT)]  # fmt: skip
