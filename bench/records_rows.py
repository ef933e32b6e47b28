"""Realistic rows for ``bench/records.py``: tables played for real through ``club/``, then copied with new ids.

:func:`play_templates` plays, with fair dice and random legal decisions (``tests/clubkit.decide`` and
``tests/chouette_clubkit.decide_randomly``), ``tables`` distinct tables (default 500) — money sessions of 1–4
games, matches to 1, 3, 5 and 7 points, and every tenth table a five-member chouette of 1–3 games — one action a few
seconds after another; :func:`replicate` then writes copies of those rows — the states, the whole
action logs, the results, the dice commitments — under new ids, new members (drawn from ``members``) and new times
spread over a year, straight into an SQLite file (one transaction per few thousand rows). Nothing here is timed.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from club import ClubService, ManualClock
from club.chouette import ChouetteService
from club.export import mat_name, mat_text
from storage import Database
from tests.chouette_clubkit import decide_randomly
from tests.clubkit import decide, seeded

GUILD = 1
PLAYERS = (11, 12, 13, 14, 15)


@dataclass
class Template:
    """One played table: its row, its child rows by table name, the members that played it, its time span (s) and
    how many finished games it holds."""

    kind: str
    row: dict
    children: dict[str, list[dict]] = field(default_factory=dict)
    members: tuple[int, ...] = ()
    span: float = 0.0
    games: int = 0


def _rows(conn: sqlite3.Connection, sql: str, params=()) -> list[dict]:
    conn.row_factory = sqlite3.Row
    return [dict(row) for row in conn.execute(sql, params)]


async def play_templates(folder: Path, *, tables: int = 500, seed: int = 3):
    """Play ``tables`` distinct template tables into ``folder/templates.sqlite3`` (see the module docstring); returns
    the list of :class:`Template`."""
    path = folder / "templates.sqlite3"
    path.unlink(missing_ok=True)
    rng = random.Random(seed)
    clock = ManualClock(1_000_000.0)
    async with Database.open(path, synchronous="OFF") as db:
        service = ClubService(db, clock=clock, seeds=seeded(seed))
        for member in PLAYERS:
            await service.register(GUILD, member, f"Player {member}")
        chouettes = ChouetteService(service)
        for index in range(tables):
            if index % 10 == 9:
                await _play_chouette(chouettes, 777 + index, rng.randint(1, 3), rng, clock)
            else:
                length = rng.choice((0, 0, 1, 3, 5, 7))
                await _play_match(service, length, rng.randint(1, 4) if length == 0 else None, rng, clock)
        unfinished = await made_mat_files(service)
    conn = sqlite3.connect(path)
    templates = []
    for row in _rows(conn, "SELECT * FROM matches WHERE status IN ('over', 'active') ORDER BY id"):
        children = {
            "games": _rows(conn, "SELECT * FROM games WHERE match_id = ? AND status = 'over'", (row["id"],)),
            "actions": _rows(conn, "SELECT * FROM actions WHERE match_id = ? ORDER BY seq", (row["id"],)),
        }
        last = max(game["number"] for game in children["games"])
        children["actions"] = [a for a in children["actions"] if (a["game_number"] or 0) <= last]
        row["status"], row["game_number"] = "over", last
        kept = _rows(conn, "SELECT * FROM mat_files WHERE match_id = ?", (row["id"],))
        children["mat_files"] = kept or [unfinished[row["id"]]]  # as kept when the table ended
        templates.append(Template(row["kind"], row, children, (row["player0"], row["player1"]),
                                  row["updated_at"] - row["created_at"], len(children["games"])))  # fmt: skip
    for row in _rows(conn, "SELECT * FROM chouette_sessions ORDER BY id"):
        sid = row["id"]
        children = {
            name: _rows(conn, f"SELECT * FROM {name} WHERE session_id = ?", (sid,))
            for name in ("chouette_actions", "chouette_results", "chouette_dice")
        }
        last = max(r["game_number"] for r in children["chouette_results"])
        children["chouette_actions"] = [a for a in children["chouette_actions"] if (a["game_number"] or 0) <= last]
        children["chouette_dice"] = [d for d in children["chouette_dice"] if d["series"] <= last]
        row["status"], row["game_number"] = "closed", last
        templates.append(Template("chouette", row, children, PLAYERS, row["updated_at"] - row["created_at"], last))
    conn.close()
    return templates


async def _play_match(service: ClubService, length: int, games: int | None, rng: random.Random, clock) -> None:
    """A match to ``length`` points played out, or a money session (``length`` 0) stopped after ``games`` games."""
    first, second = rng.sample(PLAYERS, 2)
    challenge = await service.challenge(GUILD, first, second, length=length, stake=5 if not length else 0)
    outcome = await service.accept(challenge.match_id, second)
    stopped = False
    while outcome.view.status == "active":
        view = outcome.view
        if games is not None and view.game_number >= games and not stopped and view.waiting_for is not None:
            outcome, stopped = await service.stop(view.match_id, view.waiting_for), True  # ends after this game
            continue
        clock.advance(rng.uniform(3, 40))
        outcome = await decide(service, view, rng, cube=0.1, resign=0.01)


async def _play_chouette(chouettes: ChouetteService, channel: int, games: int, rng: random.Random, clock) -> None:
    """A five-member chouette in ``channel`` played to the start of game ``games + 1``."""
    outcome = await chouettes.start(GUILD, channel, PLAYERS[0])
    for member in PLAYERS[1:]:
        outcome = await chouettes.join(outcome.session_id, member)
    outcome = await chouettes.seat(outcome.session_id, PLAYERS[-1])
    while outcome.view.game_number <= games:
        clock.advance(rng.uniform(3, 40))
        outcome = await decide_randomly(chouettes, outcome, rng, double=0.1)


async def made_mat_files(service: ClubService) -> dict[int, dict]:
    """The ``mat_files`` rows the tables still being played would keep if they ended after their last finished game
    (the finished ones kept theirs when they ended): match id → row."""
    rows = {}
    for match_id in await service.db.match_ids(["active"]):
        view = await service.state(match_id)
        games = [game for game in await service.db.games(match_id) if game.status == "over"]
        last = max(game.number for game in games)
        actions = [a for a in await service.log(match_id) if (a.game_number or 0) <= last]
        text = mat_text(actions, view.names, match_id, games)
        name = mat_name(match_id, view.kind, view.length, view.names)
        rows[match_id] = {"match_id": match_id, "version": view.version, "name": name, "text": text}
    return rows


_TIMES = {"created_at", "updated_at", "ended_at", "started_at", "at"}
_MEMBER_COLUMNS = {"player0", "player1", "member_id", "waiting_for", "created_by"}


def _copy(row: dict, new_id: int | None, key: str | None, owner: int, shift: float, members: dict[int, int]) -> dict:
    out = dict(row)
    if new_id is not None:
        out["id"] = new_id
    elif "id" in out:
        del out["id"]
    if key is not None:
        out[key] = owner
    for column in _TIMES & out.keys():
        if out[column] is not None:
            out[column] = out[column] + shift
    for column in _MEMBER_COLUMNS & out.keys():
        if out[column] is not None:
            out[column] = members.get(out[column], out[column])
    return out


def _insert(conn: sqlite3.Connection, table: str, rows: list[dict]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    conn.executemany(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        [tuple(row[c] for c in columns) for row in rows],
    )


def replicate(path: Path, templates: list[Template], games: int, members: list[int], *, start: float, year: float,
              seed: int = 7) -> dict[str, int]:  # fmt: skip
    """Write copies of ``templates`` into the club database at ``path`` (club of guild 1, ``members`` registered)
    until about ``games`` finished games are stored, spread over ``year`` seconds from ``start``; returns the number
    of finished games of each kind."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    club_id = conn.execute("SELECT id FROM clubs WHERE guild_id = ?", (GUILD,)).fetchone()[0]
    next_match = (conn.execute("SELECT max(id) FROM matches").fetchone()[0] or 0) + 1
    next_session = (conn.execute("SELECT max(id) FROM chouette_sessions").fetchone()[0] or 0) + 1
    weights = {"money": 5, "match": 3, "chouette": 2}
    counts = dict.fromkeys(weights, 0)
    by_kind = {kind: [t for t in templates if t.kind == kind] for kind in weights}
    conn.execute("BEGIN")
    pending = 0
    while sum(counts.values()) < games:
        kind = rng.choices(list(weights), list(weights.values()))[0]
        template = rng.choice(by_kind[kind])
        chosen = rng.sample(members, len(template.members))
        mapping = dict(zip(template.members, chosen, strict=True))
        shift = start + rng.uniform(0, year - template.span) - template.row["created_at"]
        if kind == "chouette":
            sid, next_session = next_session, next_session + 1
            row = _copy(template.row, sid, "club_id", club_id, shift, mapping)
            _insert(conn, "chouette_sessions", [row])
            for table, rows in template.children.items():
                _insert(conn, table, [_copy(r, None, "session_id", sid, shift, mapping) for r in rows])
        else:
            mid, next_match = next_match, next_match + 1
            row = _copy(template.row, mid, "club_id", club_id, shift, mapping)
            _insert(conn, "matches", [row])
            _insert(
                conn, "games", [_copy(r, None, "match_id", mid, shift, mapping) for r in template.children["games"]]
            )
            _insert(
                conn, "actions", [_copy(r, None, "match_id", mid, shift, mapping) for r in template.children["actions"]]
            )
            kept = [dict(r, match_id=mid, name=f"match{mid}_{r['name'].partition('_')[2]}")
                    for r in template.children["mat_files"]]  # fmt: skip
            _insert(conn, "mat_files", kept)
        counts[kind] += template.games
        pending += sum(len(rows) for rows in template.children.values())
        if pending > 20_000:
            conn.execute("COMMIT")
            conn.execute("BEGIN")
            pending = 0
    conn.execute("COMMIT")
    conn.close()
    return counts
