"""The members' actions of a chouette table (a mixin of :class:`~club.chouette.table.ChouetteTable`): sitting down
and standing up, the seat roll and its rethrows, retiring after a game, proxies, away and back, closing (RULES C1,
C2, C6, C9). Each changes the table only through the session's events, or raises and changes nothing."""

from __future__ import annotations

from typing import Any

from backgammon.errors import ChouetteError

from ..errors import InvalidRequestError, NotNowError


def name(member: int) -> str:
    """A member's name in the chouette engine: his user id as text."""
    return str(member)


def member_id(engine_name: str) -> int:
    """The user id of an engine name."""
    return int(engine_name)


class SeatActions:
    """``_sit``, ``_stand``, ``_seat``, ``_rethrow``, ``_retire``, ``_proxy``, ``_away``, ``_back`` and ``_close`` of
    :class:`~club.chouette.table.ChouetteTable` (see its module docstring for the logged args)."""

    # members coming and going (RULES C1, C2, C6, C9)
    def _sit(self, member: int, args: dict[str, Any]) -> dict[str, Any]:
        stake = args.get("stake", 1)
        if self.phase == "lobby":
            if member in self.lobby:
                raise InvalidRequestError("You are already at this chouette, waiting for the seat roll.")
            cap = self.rules.max_members
            if cap is not None and len(self.lobby) >= cap:
                raise ChouetteError(f"this chouette is limited to {cap} members (RULES C2; 003 Atlanta 6.4)")
            if stake != 1:
                self.session._check_stakes({name(member): stake}, [name(member)])
                self.lobby_stakes[name(member)] = stake
            self.lobby.append(member)
        elif member in self.retiring or (member in self.members and name(member) in self.session.away):
            if member in self.retiring:
                self.retiring.remove(member)
            if name(member) in self.session.away:
                self.session.come_back(name(member))
        elif member in self.members:
            raise InvalidRequestError("You already sit in this chouette.")
        elif self.phase == "seating":
            raise NotNowError("The seat roll is being thrown: join once the members are seated.")
        else:
            self.session.join([name(member)], None, {name(member): stake} if stake != 1 else None)
        return {"stake": stake}

    def _stand(self, member: int, args: dict[str, Any]) -> dict[str, Any]:
        session = self.session
        if self.phase == "lobby":
            if member not in self.lobby:
                raise InvalidRequestError("You are not at this chouette.")
            self.lobby.remove(member)
            self.lobby_stakes.pop(name(member), None)
            if not self.lobby:
                self.status = "closed"
            return {}
        if member not in self.members:
            raise InvalidRequestError("You do not sit in this chouette.")
        if self.phase == "seating":
            raise NotNowError("The seat roll is being thrown: leave once the members are seated.")
        if session.phase == "ready" or name(member) in session.waiting:
            session.retire(name(member))
            if not session.members:
                self.status = "closed"
            return {}
        if member in self.retiring:
            raise InvalidRequestError("You already leave at the end of this game.")
        if name(member) not in session.away:
            session.leave(name(member))
        self.retiring.append(member)
        return {}

    def _seat(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        if self.phase != "lobby":
            raise NotNowError("The members are already seated (RULES C1): new members join at the end of the Team.")
        if member is not None and member not in self.lobby:
            raise InvalidRequestError("Only members at this chouette can call for the seat roll: join first.")
        if len(self.lobby) < self.rules.min_members:
            raise NotNowError(
                f"A chouette needs {self.rules.min_members} members for the seat roll (000 Ch.1); "
                f"{len(self.lobby)} so far: more must join."
            )
        throws = {str(key): value for key, value in args["throws"].items()}
        if set(throws) != {name(m) for m in self.lobby}:
            raise InvalidRequestError("every member at the table throws for the seat roll (RULES C1)")
        self.session.seat({name(m): throws[name(m)] for m in self.lobby}, stakes=dict(self.lobby_stakes) or None)
        self.lobby, self.lobby_stakes = [], {}
        return {"throws": throws}

    def _rethrow(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        throws = {str(key): value for key, value in args["throws"].items()}
        self.session.rethrow(throws)
        return {"throws": throws}

    def _retire(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        leaving = args["member"]
        if leaving not in self.retiring:
            raise InvalidRequestError(f"{leaving} is not leaving")
        self.session.retire(name(leaving))
        self.retiring.remove(leaving)
        return {"member": leaving}

    def _proxy(self, member: int, args: dict[str, Any]) -> dict[str, Any]:
        subject, proxy = args.get("member", member), args["proxy"]
        by = None if member == subject else member
        if self.phase == "lobby":
            raise NotNowError("Proxies are named once the members are seated (RULES C9).")
        self.session.appoint_proxy(name(subject), name(proxy), None if by is None else name(by))
        return {"member": subject, "proxy": proxy}

    def _away(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self.session.leave(name(args["member"]))
        return {"member": args["member"]}

    def _back(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self.session.come_back(name(args["member"]))
        return {"member": args["member"]}

    def _close(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        if self.session.members or self.lobby:
            raise NotNowError("The chouette still has members.")
        self.status = "closed"
        return {}
