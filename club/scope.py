"""Club isolation (RULES A2): a match or money session id is accepted only in the server
whose club it belongs to (and the server's practice room, :mod:`club.practice`); another server's id is "no such game
here", in commands, autocomplete and forged ``custom_id``s alike. Re-exported by :mod:`club.frontend`."""

from __future__ import annotations

from .errors import MAX_ID, InvalidRequestError, UnknownGameError, shown
from .service import ClubService


def _is_id(value: object) -> bool:
    """Whether ``value`` is a usable id: a whole number (not a bool) from 1 to below :data:`~club.errors.MAX_ID`."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < MAX_ID


async def in_club(service: ClubService, match_id: int, guild_id: int | None) -> int:
    """``match_id`` if that match or session belongs to the club of guild ``guild_id`` (club isolation: a member acts
    only in his own server, RULES A2); ``guild_id`` None (a front end with one club, e.g. the console) accepts any.

    The server's practice games (:mod:`club.practice`, in its practice room) belong to it too.

    Raises :class:`~club.errors.InvalidRequestError` for an id that is not a positive whole number and
    :class:`~club.errors.UnknownGameError` ("no match or session N here") for an unknown id or another server's."""
    if not _is_id(match_id):
        raise InvalidRequestError(f"a game is its number, like 12, not {shown(match_id)}")
    record = await service.db.get_match(match_id)
    if record is None or not await record_in_club(service, record, guild_id):
        raise UnknownGameError(f"There is no match or session {match_id} here.")
    return match_id


async def record_in_club(service: ClubService, record, guild_id: int | None) -> bool:
    """Whether the stored match ``record`` (a :class:`storage.MatchRecord`) belongs to the club of guild ``guild_id``
    or to its practice room (whose guild id is the negated one); ``guild_id`` None accepts any. One read: the
    match's club."""
    if guild_id is None:
        return True
    if not _is_id(guild_id):
        return False
    club = await service.db.get_club_by_id(record.club_id)
    return club is not None and club.guild_id in (guild_id, -guild_id)
