"""Who sits in a chouette (RULES C1, C2, C6, C8, C9): the seating and membership events of
:class:`~backgammon.chouette.session.ChouetteSession` — seating by throws and ties thrown off (C1), joining (C2),
retiring, stakes (C6), relinquishing the box (003 Atlanta 6.1) — and the proxies of absent members (C9), with the
checks of names, the member cap and stakes. :class:`MembershipEvents` is a mixin of the session (it uses the
session's ``rules``, ``phase``, seats and sheet). Split out of :mod:`backgammon.chouette.session`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ChouetteError
from .events import event
from .rotation import relinquish_box
from .seating import apply_throws, is_resolved, resolved_order

if TYPE_CHECKING:
    from .rules import ChouetteRules


class MembershipEvents:
    """The seating, membership and proxy events of :class:`~backgammon.chouette.session.ChouetteSession` (see the
    module docstring)."""

    rules: ChouetteRules

    # ========================================================================== seating (RULES C1, C2, C6)
    @event
    def seat(self, throws: Mapping[str, Any], stakes: Mapping[str, int] | None = None) -> list[str]:
        """Seat the founding members by their throws (RULES C1): ``throws`` member → throw (one die, or two dice /
        their total per ``rules.seating_dice``); highest is Box, next Captain, the rest rank by throw. Ties throw again
        among the tied only (:meth:`rethrow`). ``stakes``: member → multiple of the base stake (RULES C6).

        Returns the order once settled, else ``[]``. Raises :class:`ChouetteError` when already seated, for fewer than
        ``rules.min_members`` or more than ``rules.max_members`` members (C2), a bad name or throw.
        """
        if self.phase != "seating" or self.ranking:
            raise ChouetteError("the chouette is already seated (or throwing off ties: use rethrow)")
        if not isinstance(throws, Mapping):
            raise ChouetteError("throws are given as {member: throw} (RULES C1)")
        members = list(throws)
        self._check_new_names(members)
        if len(members) < self.rules.min_members:
            raise ChouetteError(
                f"a chouette has at least {self.rules.min_members} members (000 Ch.1); got {len(members)}"
            )
        self._check_cap(len(members))
        new_stakes = self._check_stakes(stakes, members)
        self.ranking = apply_throws([members], throws, self.rules.seating_dice)
        self.stakes.update(new_stakes)
        for member in members:
            self._sheet.add_member(member)
        return self._seat_if_resolved()

    @event
    def rethrow(self, throws: Mapping[str, Any]) -> list[str]:
        """Throws of tied members only (RULES C1: 000 Ch.3 "only those tying throw again"; 003 6.4 for members
        joining together). Returns the settled order (seating) or the settled joiners (joining), else ``[]``.
        Raises :class:`ChouetteError` when no tie is waiting, or as :func:`~backgammon.chouette.seating.apply_throws`.
        """
        if self.phase == "seating" and self.ranking:
            self.ranking = apply_throws(self.ranking, throws, self.rules.seating_dice)
            return self._seat_if_resolved()
        if self.joining:
            self.joining = apply_throws(self.joining, throws, self.rules.seating_dice)
            if is_resolved(self.joining):
                joined = resolved_order(self.joining)
                self.joining = []
                self._place(joined)
                return joined
            return []
        raise ChouetteError("nobody is waiting to throw off a tie")

    def _seat_if_resolved(self) -> list[str]:
        if not is_resolved(self.ranking):
            return []
        self.order = resolved_order(self.ranking)
        self.ranking = []
        self.phase = "ready"
        return list(self.order)

    @event
    def join(
        self, members: Sequence[str], throws: Mapping[str, Any] | None = None, stakes: Mapping[str, int] | None = None
    ) -> list[str]:
        """New members join at the end of the Team (RULES C2: 000 Ch.4 "the last ranking member in the first game in
        which he participates"; 003 Atlanta 6.4). Two or more joining together throw for their order (``throws``,
        ties via :meth:`rethrow`). During a game they wait and are seated after the rotation. ``stakes`` as for
        :meth:`seat` (RULES C6). Returns the members placed now (``[]`` while a tie is thrown off).

        Raises :class:`ChouetteError` before seating, while another group is throwing, for a known or bad name,
        over ``rules.max_members``, or without throws for several joiners.
        """
        if self.phase == "seating":
            raise ChouetteError("the chouette is not seated yet: founding members throw with seat()")
        if self.joining:
            raise ChouetteError(f"{', '.join(m for g in self.joining for m in g)} are still throwing for their order")
        if isinstance(members, str) or not isinstance(members, Sequence) or not members:
            raise ChouetteError("join takes a list of new members' names")
        members = list(members)
        self._check_new_names(members)
        self._check_cap(len(self.members) + len(members))
        new_stakes = self._check_stakes(stakes, members)
        if len(members) == 1:
            if throws not in (None, {}) and set(throws) != set(members):
                raise ChouetteError("a member joining alone needs no throw")
            ranking = [members]
        else:
            if throws is None:
                raise ChouetteError(
                    f"{', '.join(members)} join together: they throw for their order at the end of the Team (003 6.4)"
                )
            ranking = apply_throws([members], throws, self.rules.seating_dice)
        self.stakes.update(new_stakes)
        for member in members:
            self._sheet.add_member(member)
        if not is_resolved(ranking):
            self.joining = ranking
            return []
        joined = resolved_order(ranking)
        self._place(joined)
        return joined

    def _place(self, joined: list[str]) -> None:
        if self.phase == "playing":
            self.waiting.extend(joined)
        else:
            self.order.extend(joined)
            self.new_members.extend(joined)

    @event
    def retire(self, member: str) -> None:
        """``member`` leaves the chouette between games (his sheet column stays). Raises :class:`ChouetteError`
        during a game (unless he is still waiting to be seated) or for a stranger."""
        if member in self.waiting:
            self.waiting.remove(member)
        elif self.phase != "ready":
            raise ChouetteError("members leave the chouette between games (RULES C9 covers a temporary absence)")
        elif member not in self.order:
            raise ChouetteError(f"{member!r} is not in this chouette")
        else:
            self.order.remove(member)
        for name in (member, *[m for m, p in self.proxies.items() if p == member]):
            self.proxies.pop(name, None)
        if member in self.away:
            self.away.remove(member)
        if member in self.new_members:
            self.new_members.remove(member)

    @event
    def set_stake(self, member: str, stake: int) -> None:
        """Change ``member``'s multiple of the base stake between games (RULES C6; 003 Atlanta 2.3: "only if all
        participants agree" — the caller has their agreement). Raises :class:`ChouetteError` during a game, when the
        rules have no stake multiples, or for a stake that is not 1, 2, 4, …"""
        if self.phase != "ready":
            raise ChouetteError("stakes change between games only (003 Atlanta 2.3)")
        if member not in self.members:
            raise ChouetteError(f"{member!r} is not in this chouette")
        self.stakes.update(self._check_stakes({member: stake}, [member]))

    @event
    def relinquish_box(self) -> None:
        """The member scheduled to be Box declines and goes to the bottom of the rotation (003 Atlanta 6.1); everyone
        moves up one place. Raises :class:`ChouetteError` except between games."""
        if self.phase != "ready":
            raise ChouetteError("the box is relinquished between games (003 Atlanta 6.1)")
        self.order = relinquish_box(self.order)

    # ================================================================================== proxies (RULES C9)
    @event
    def leave(self, member: str, proxy: str | None = None) -> None:
        """``member`` leaves the scene for a while (RULES C9; 003 Atlanta 7.1), naming a ``proxy`` for his cube
        decisions, or none (the Captain acts for him). Raises :class:`ChouetteError` for a stranger, a member already
        away, or a proxy who is not another member."""
        self._check_member(member)
        if member in self.away:
            raise ChouetteError(f"{member} is already away")
        if proxy is not None:
            self._check_proxy(member, proxy)
            self.proxies[member] = proxy
        self.away.append(member)

    @event
    def come_back(self, member: str) -> None:
        """``member`` is back and decides for himself again (RULES C9). Raises :class:`ChouetteError` if he was not
        away."""
        if member not in self.away:
            raise ChouetteError(f"{member!r} is not away")
        self.away.remove(member)
        self.proxies.pop(member, None)

    @event
    def appoint_proxy(self, member: str, proxy: str, by: str | None = None) -> None:
        """``member`` (or, while he is away, whoever acts for him now: "the proxy may also appoint yet another proxy",
        003 Atlanta 7.1) names ``proxy``. Raises :class:`ChouetteError` for a stranger or an appointer with no
        right to appoint."""
        self._check_member(member)
        self._check_proxy(member, proxy)
        if by is not None and by != member and (member not in self.away or by != self.proxy_for(member)):
            raise ChouetteError(f"only {member} or the one acting for him now may appoint his proxy (7.1)")
        self.proxies[member] = proxy

    def _check_proxy(self, member: str, proxy: str) -> None:
        if proxy == member or proxy not in self.members:
            raise ChouetteError(f"a proxy is another participant of the chouette (003 Atlanta 7.1), not {proxy!r}")

    def _check_actor(self, member: str, by: str | None) -> None:
        if by is None or by == member:
            return
        if member not in self.away:
            raise ChouetteError(f"{member} is here and decides himself; a proxy acts only while he is away (7.1)")
        acting = self.proxy_for(member)
        if by != acting:
            raise ChouetteError(f"{acting} acts for {member} now (003 Atlanta 7.1), not {by}")

    def _check_member(self, member: str) -> None:
        if member not in self.members:
            raise ChouetteError(f"{member!r} is not in this chouette; members: {', '.join(self.members)}")

    def _check_new_names(self, names: list[str]) -> None:
        for name in names:
            if not isinstance(name, str) or not name.strip() or ">" in name:
                raise ChouetteError(f"a member's name is a non-empty string without '>', not {name!r}")
        if len(set(names)) != len(names):
            raise ChouetteError(f"a name appears twice: {names}")
        seated = [*self.members, *(m for group in self.joining for m in group)]
        known = [name for name in names if name in seated]
        if known:
            raise ChouetteError(f"{', '.join(known)} already sit in this chouette")

    def _check_cap(self, count: int) -> None:
        cap = self.rules.max_members
        if cap is not None and count > cap:
            raise ChouetteError(f"this chouette is limited to {cap} members (RULES C2; 003 Atlanta 6.4)")

    def _check_stakes(self, stakes: Mapping[str, int] | None, members: list[str]) -> dict[str, int]:
        if not stakes:
            return {}
        if not isinstance(stakes, Mapping):
            raise ChouetteError("stakes are {member: multiple}")
        result = {}
        for member, stake in stakes.items():
            if member not in members:
                raise ChouetteError(f"stake for {member!r}, who is not joining here")
            if not isinstance(stake, int) or isinstance(stake, bool) or stake < 1 or stake & (stake - 1):
                raise ChouetteError(
                    f"a stake multiple is 1, 2, 4, 8… (the cube starts there, 003 Atlanta 2.2), not {stake!r}"
                )
            if stake != 1 and not self.rules.stakes:
                raise ChouetteError("these rules have no stake multiples: each plays for a single stake (001 Ch.4)")
            result[member] = stake
        return result
