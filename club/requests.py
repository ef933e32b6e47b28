"""One member's request: everything a front end knows about the member acting, in one object the use-case takes.

A front end (a cog, the console) builds one :class:`Request` per action — who acts, from which server, what he saw,
and his dice contribution — and hands it to one use-case of :class:`~club.service.ClubService` or
:class:`~club.chouette.ChouetteService`. The use-case checks everything in it itself, once: the club (a table of
another server is "no such game here", RULES A2), the version or mark (an older view is "already done"), and it
logs the contribution as the member's client seed when one is due (:mod:`club.commitments`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .work import check_id

MAX_VALUE = 40
"""The longest contribution kept (characters): an interaction id has 19 digits, a console line's value 32."""


@dataclass(frozen=True, slots=True)
class Request:
    """What one member asks (see the module docstring).

    ``member``: who acts (a Discord user id). ``guild_id``: the server he acts from — the use-case refuses a table of
    another server's club (its practice room counts as its own, :mod:`club.practice`); None: a front end with one
    club (the console, tests, the club's own steps). ``version``: what his view showed — a match's version (a whole
    number) or a chouette's mark (``"<game>.<step>"``); None: not given (no staleness check). ``contribution``: the
    value his action adds to his client seed when one is due (the Discord interaction id — Discord makes it, the bot
    cannot choose it; a console line's fresh :mod:`secrets` value); None: the service's fallback source.
    ``behalf``: the club acts in his name ("roll for me", :mod:`club.correspondence`): his action then contributes
    nothing (a value the bot made after the commitment is one it could have chosen)."""

    member: int
    guild_id: int | None = None
    version: int | str | None = None
    contribution: str | None = None
    behalf: bool = False

    def __post_init__(self) -> None:
        if self.contribution is not None:
            object.__setattr__(self, "contribution", str(self.contribution)[:MAX_VALUE])

    def seen(self, version: int | str | None) -> Request:
        """This request with ``version`` as what the member saw (unchanged when ``version`` is None)."""
        return self if version is None else replace(self, version=version)

    def in_club(self, guild_id: int) -> bool:
        """Whether a table of the club of guild ``guild_id`` (a stored ``clubs.guild_id``; a practice room's is the
        negated guild id) may be acted on from this request's server (always when it names none; RULES A2)."""
        return self.guild_id is None or guild_id in (self.guild_id, -self.guild_id)


def as_request(who: Request | int, version: int | str | None = None) -> Request:
    """``who`` as a :class:`Request`: a request as it is (with ``version`` when given), a bare member id as the
    request of that member with nothing else known. Raises :class:`~club.errors.InvalidRequestError` for a member id that is not
    a whole number from 1 to 2^63 - 1."""
    request = who if isinstance(who, Request) else Request(check_id(who, "member id"))
    check_id(request.member, "member id")
    return request.seen(version)
