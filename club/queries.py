"""The read-only use-cases of matches and money sessions (a mixin of :class:`~club.service.ClubService`): the state,
a game, the legal plays, what waits for a member, his history, the log. None changes anything stored."""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.game import Game
from storage import ActionRecord

from .describe import pending_words
from .errors import InvalidRequestError, NotAPlayerError, UnknownGameError
from .results import GameView, TableView
from .work import check_id as _check_id


@dataclass(frozen=True, slots=True)
class WaitingItem:
    """A match or session waiting for a member: ``pending`` (and in words), since when, and the deadline."""

    match_id: int
    kind: str
    length: int
    opponent_id: int
    opponent_name: str
    pending: str
    pending_text: str
    score: tuple[int, int]  # the member's, the opponent's
    game_number: int
    version: int
    since: float
    due_at: float | None


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """A match or session a member played or plays: ``outcome`` is ``won``/``lost`` (matches), ``+n``/``-n``
    (money: the member's net), or the status (``active``, ``declined`` …)."""

    match_id: int
    kind: str
    length: int
    opponent_id: int
    opponent_name: str
    status: str
    outcome: str
    score: tuple[int, int]  # the member's, the opponent's
    games: int
    stake: int
    updated_at: float
    ended_at: float | None


class MatchQueries:
    """The queries of :class:`~club.service.ClubService` (it provides ``db`` and ``_load_step``)."""

    # -- queries -------------------------------------------------------------------------------------------------------
    async def state(self, match_id: int) -> TableView:
        """The current state of a match or session. Raises :class:`UnknownGameError`."""
        _check_id(match_id, "match id")
        step = await self._load_step(match_id)
        info = step.games.get(step.table.game_number)
        deadline = await self.db.get_deadline(match_id)
        over = step.table.game is not None and step.table.game.is_over
        return TableView.of(
            match_id,
            step.table,
            version=step.record.version,
            names=step.names,
            due_at=None if deadline is None else deadline.due_at,
            seed_hash=None if info is None else info.seed_hash,
            seed=info.seed.hex() if info is not None and info.seed is not None and over else None,
        )

    async def table_state(self, match_id: int):
        """``(table, version)``: the :class:`~club.table.MatchTable` of match ``match_id`` as stored and its version
        (for a front end that decides from the whole table, e.g. the practice engine, :mod:`club.practice`). Raises
        :class:`UnknownGameError`."""
        _check_id(match_id, "match id")
        step = await self._load_step(match_id)
        return step.table, step.record.version

    async def game(self, match_id: int, number: int) -> GameView:
        """Game ``number`` (1, 2, …) of a match as it stands or ended (its seed only if revealed). Raises
        :class:`UnknownGameError`."""
        _check_id(match_id, "match id")
        _check_id(number, "game number")
        record = await self.db.get_game(match_id, number)
        if record is None:
            raise UnknownGameError(f"There is no game {number} in match {match_id}.")
        return GameView.of(
            Game.from_json(record.state),
            number,
            seed_hash=record.seed_hash,
            seed=record.seed if record.seed_revealed else None,
        )

    async def legal_plays(self, match_id: int, member: int) -> list[str]:
        """The legal plays (notation) of the member's dice, for a choose-a-play menu; ``[]`` when he is not to play.
        Raises :class:`UnknownGameError`, :class:`NotAPlayerError`, :class:`~club.admission.BusyError`."""
        _check_id(member, "member id")
        async with self.admission.slot():  # a load and a search: under the same backpressure as the actions
            view_step = await self._load_step(_check_id(match_id, "match id"))
        table = view_step.table
        side = table.side_of(member)
        if side is None:
            raise NotAPlayerError(f"You do not play in match {match_id}.")
        if table.status != "active" or table.waiting() != (side, "play"):
            return []
        return [play.notation() or "pass" for play in table.legal_plays()]

    async def waiting(self, member: int, *, guild_id: int | None = None, practice: bool = False) -> list[WaitingItem]:
        """The matches and sessions waiting for ``member`` to act (oldest first), in one club if ``guild_id`` (its
        practice room with ``practice``: the games against the engine, :mod:`club.practice`)."""
        _check_id(member, "member id")
        club_id = await self._club_id(guild_id, practice)
        rows = await self.db.waiting_for(member, club_id)
        items = []
        for row, _mine, opponent, name, score in await self._seen_by(member, rows):
            items.append(
                WaitingItem(
                    row.id,
                    row.kind,
                    row.length,
                    opponent,
                    name,
                    row.pending,
                    await self._answer_words(row.id, row.pending),
                    score,
                    row.game_number,
                    row.version,
                    row.updated_at,
                    row.due_at,
                )
            )
        return items

    async def _answer_words(self, match_id: int, pending: str | None) -> str:
        """``pending`` in words as the board says it: for a double or beaver offered, the answers the rule set
        allows now (:meth:`backgammon.game.Game.legal_actions`: "take, drop or beaver the double" only where beavers
        are allowed, RULES D3). Loads the table only for those two (the rest need no state)."""
        if pending not in ("answer_double", "answer_beaver"):
            return pending_words(pending)
        table = (await self._load_step(match_id)).table
        side, now = table.waiting()
        if table.game is None or side is None or now != pending:
            return pending_words(pending)
        legal = table.game.legal_actions(side)
        return pending_words(pending, beaver="beaver" in legal, raccoon="raccoon" in legal)

    async def history(
        self,
        member: int,
        *,
        guild_id: int | None = None,
        limit: int = 20,
        before: float | None = None,
        practice: bool = False,
    ) -> list[HistoryItem]:
        """The member's matches and sessions, newest first (``limit`` at most, changed before ``before``; with
        ``practice`` those of the practice room of ``guild_id``)."""
        _check_id(member, "member id")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 500:
            raise InvalidRequestError(f"limit is 1–500, not {limit!r}")
        club_id = await self._club_id(guild_id, practice)
        rows = await self.db.matches_of(member, club_id=club_id, limit=limit, before=before)
        items = []
        for row, mine, opponent, name, score in await self._seen_by(member, rows):
            if row.status == "over" and row.kind == "match" and row.winner is not None:
                outcome = "won" if row.winner == mine else "lost"
            elif row.kind == "money" and row.status in ("active", "over"):
                outcome = f"{score[0]:+d}"
            else:
                outcome = row.status
            games = row.game_number
            items.append(
                HistoryItem(
                    row.id,
                    row.kind,
                    row.length,
                    opponent,
                    name,
                    row.status,
                    outcome,
                    score,
                    games,
                    row.stake,
                    row.updated_at,
                    row.ended_at,
                )
            )
        return items

    async def log(self, match_id: int) -> list[ActionRecord]:
        """The whole action log of a match (who, what, dice, when). Raises :class:`UnknownGameError`."""
        _check_id(match_id, "match id")
        actions = await self.db.actions(match_id)
        if not actions:
            raise UnknownGameError(f"There is no match or session {match_id}.")
        return actions

    async def _seen_by(self, member: int, rows) -> list[tuple]:
        """Each summary row as ``member`` sees it: ``(row, his side, the opponent, the opponent's name, (his score,
        the opponent's))``."""
        names = await self._names(row.player1 if row.player0 == member else row.player0 for row in rows)
        seen = []
        for row in rows:
            mine = 0 if row.player0 == member else 1
            opponent = row.player1 if mine == 0 else row.player0
            score = (row.score0, row.score1)
            seen.append((row, mine, opponent, names.get(opponent, str(opponent)), (score[mine], score[1 - mine])))
        return seen

    async def _club_id(self, guild_id: int | None, practice: bool = False) -> int | None:
        if guild_id is None:
            return None
        guild = _check_id(guild_id, "guild_id")
        club = await self.db.get_club(-guild if practice else guild)  # the practice room: club.practice.room_guild
        return -1 if club is None else club.id

    async def _names(self, user_ids) -> dict[int, str]:
        members = await self.db.get_members(user_ids)
        return {user: member.display_name for user, member in members.items()}
