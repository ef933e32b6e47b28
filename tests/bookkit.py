"""Stored results for the club-records tests and ``bench/records.py``: finished money sessions, matches and chouette
games written straight through the storage functions (``Database.create_match``/``commit``,
``ChouetteStore.create``/``commit``) at chosen times — thousands of games in seconds, without playing them.

A game is ``(winner side, points, at)`` or, with the detail the statistics read, ``(winner, points, at, kind, cube,
ended_by)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storage import Database, GameWrite, MatchWrite, NewAction
from storage.chouettes import ChouetteCommit, ChouetteStore, DiceSeries, NewChouetteAction
from storage.records import Commit


def _result(game: Sequence) -> dict:
    """A stored game result from ``(winner, points, at[, kind[, cube[, ended_by]]])``."""
    winner, points, _at, *rest = game
    kind, cube, ended_by = (*rest, *("single", 1, "play")[len(rest) :])
    multiplier = {"single": 1, "gammon": 2, "backgammon": 3}[kind]
    return {"winner": winner, "points": points, "kind": kind, "ended_by": ended_by, "cube": cube,
            "multiplier": multiplier}  # fmt: skip


async def store_table(
    db: Database,
    club_id: int,
    players: tuple[int, int],
    games: Sequence[Sequence],
    *,
    length: int = 0,
    stake: int = 0,
    winner: int | None = None,
    over: bool = True,
    created_at: float | None = None,
) -> int:
    """A money session (``length`` 0) or a match with its finished ``games``, each written at its own time; the
    match ``winner`` side for a finished match (default: the side with more points). Returns the match id."""
    start = created_at if created_at is not None else (games[0][2] - 60 if games else 0.0)
    kind = "money" if length == 0 else "match"
    record = await db.create_match(
        club_id=club_id,
        kind=kind,
        length=length,
        players=players,
        rules={},
        stake=stake,
        match=MatchWrite("active", {}, 0, None, None, 0, 0),
        action=NewAction("challenge", side=0, member_id=players[0]),
        deadline=None,
        now=start,
    )
    version = record.version
    score = [0, 0]
    for number, game in enumerate(games, 1):
        result = _result(game)
        score[result["winner"]] += result["points"]
        last = number == len(games) and over
        if last and length and winner is None:
            winner = 0 if score[0] > score[1] else 1
        match = MatchWrite(
            "over" if last else "active",
            {},
            number,
            None,
            None,
            score[0] if length else score[0] - score[1],
            score[1] if length else score[1] - score[0],
            winner if last and length else None,
            ended=last,
        )
        game_write = GameWrite(number, {}, 1, "over", 0, dice="injected", result=result, ended=True)
        version = await db.commit(
            Commit(record.id, version, float(game[2]), [NewAction("new_game", game_number=number)], match, [game_write])
        )
    return record.id


async def store_chouette(
    db: Database,
    club_id: int,
    created_by: int,
    games: Sequence[tuple[Mapping[int, int], float]],
    *,
    stake: int = 1,
    close: bool = True,
    channel_id: int = 555,
) -> int:
    """A chouette session whose games are ``(member → points, at)`` (each summing to zero), written as the chouette
    store writes a finished game's results. Returns the session id."""
    store = ChouetteStore(db)
    at0 = games[0][1] - 60 if games else 0.0
    record = await store.create(
        club_id=club_id,
        channel_id=channel_id,
        created_by=created_by,
        rules={},
        stake=stake,
        state={},
        action=NewChouetteAction("open", member_id=created_by),
        dice=DiceSeries(0, 0, "injected", None, None, False, 0),
        now=at0,
    )
    version = record.version
    for number, (points, at) in enumerate(games, 1):
        assert sum(points.values()) == 0, points
        last = close and number == len(games)
        version = await store.commit(
            ChouetteCommit(
                record.id,
                version,
                at,
                [NewChouetteAction("game_over", game_number=number)],
                "closed" if last else "open",
                {},
                number,
                results=[(number, member, value, stake) for member, value in points.items()],
            )
        )
    return record.id
