"""Clubs and their members (RULES A1): registering a member in the club of his server, the club's settings and each
member's preferences — a mixin of :class:`~club.service.ClubService` (it uses the service's ``db``, ``clock`` and
``defaults``)."""

from __future__ import annotations

from typing import Any

from storage import MemberRecord

from .errors import InvalidRequestError, UnknownMemberError
from .settings import ClubSettings, MemberPreferences
from .work import check_id as _check_id


class ClubMembers:
    """The club and member use-cases of :class:`~club.service.ClubService` (see the module docstring)."""

    async def register(self, guild_id: int, user_id: int, display_name: str, *, club_name: str = "") -> MemberRecord:
        """Make ``user_id`` a member of the club of guild ``guild_id`` (created with the default settings if new) and
        remember his display name. Raises :class:`InvalidRequestError` for bad ids or an empty name."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        if not isinstance(display_name, str) or not display_name.strip():
            raise InvalidRequestError(f"a display name is a non-empty text, not {display_name!r}")
        now = self.clock.now()
        club = await self.db.ensure_club(guild_id, now, name=club_name, settings=self.defaults.to_json())
        return await self.db.ensure_member(user_id, display_name.strip()[:100], now, club_id=club.id)

    async def club_settings(self, guild_id: int) -> ClubSettings:
        """The settings of the club of guild ``guild_id`` (defaults if it has none yet)."""
        club = await self.db.get_club(_check_id(guild_id, "guild_id"))
        return self.defaults if club is None else ClubSettings.from_json(club.settings)

    async def configure_club(self, guild_id: int, **changes: Any) -> ClubSettings:
        """Change club settings (see :class:`~club.settings.ClubSettings`); returns the new settings. Applies to
        deadlines set from now on. Raises :class:`InvalidRequestError` for unknown settings or bad values."""
        _check_id(guild_id, "guild_id")
        now = self.clock.now()
        club = await self.db.ensure_club(guild_id, now, settings=self.defaults.to_json())
        settings = ClubSettings.from_json(club.settings).updated(**changes)
        await self.db.set_club_settings(guild_id, settings.to_json(), now)
        return settings

    async def preferences(self, user_id: int) -> MemberPreferences:
        """A member's preferences. Raises :class:`UnknownMemberError`."""
        member = await self._member(user_id)
        return MemberPreferences.from_json(member.preferences)

    async def set_preferences(self, user_id: int, **changes: Any) -> MemberPreferences:
        """Change a member's preferences (e.g. ``auto_roll=False``); returns them. Raises
        :class:`UnknownMemberError`, :class:`InvalidRequestError`."""
        member = await self._member(user_id)
        preferences = MemberPreferences.from_json(member.preferences).updated(**changes)
        await self.db.set_preferences(user_id, preferences.to_json(), self.clock.now())
        return preferences

    async def _member(self, user_id: int) -> MemberRecord:
        member = await self.db.get_member(_check_id(user_id, "user_id"))
        if member is None:
            raise UnknownMemberError(f"user {user_id} is not a member yet: use the bot once to register")
        return member
