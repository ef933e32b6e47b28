"""Benchmark: the SQL statements and transactions of one action, on SQLite, through the Discord layer.

Drives the real bot (``bot.BgBot`` with its cogs) through the harness of ``tests/discordkit.py`` — discord.py's own
parsing of genuine interaction payloads, the cog, the use-cases, SQLite on a file, the board posted over HTTP to a
fake Discord — and records every statement the bot's SQLite connection runs (``sqlite3``'s trace callback) from the
interaction's arrival until every task it started has finished (the board posted and remembered included).

Actions measured (each on a fresh position of its kind, a few times; the figures are the largest seen):

- ``/bg move``: the command, with a legal play, in a money session;
- ``roll``: the Roll button of the board;
- ``double`` and ``take``: the Double button, then the Take button (each press counted alone);
- ``chouette decision``: a Team member's cube pass (its button) in a chouette of three, and the board's roll.

Per action it prints: statements (without ``BEGIN``/``COMMIT``/``ROLLBACK``), read snapshots (``BEGIN``), write
transactions (``BEGIN IMMEDIATE``, plus every write outside a transaction: SQLite commits it alone), statements
outside any transaction, and how often the ``matches``, ``chouette_sessions`` and ``clubs`` rows are read. Target:
at most :data:`TARGET` statements and one write transaction per action.

Run: ``python -m bench.statements [--repeat 3] [--verbose]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tests.discordkit import Harness, play_turn

TARGET = 12
"""At most this many statements per action (one read snapshot and one write transaction)."""

_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b", re.IGNORECASE)
_ROWS = {
    "matches": re.compile(r"\bFROM\s+matches\b", re.IGNORECASE),
    "chouettes": re.compile(r"\bFROM\s+chouette_sessions\b", re.IGNORECASE),
    "clubs": re.compile(r"\bFROM\s+clubs\b", re.IGNORECASE),
}


@dataclass
class Count:
    """What one action ran: ``statements`` (the SQL text of each, ``BEGIN``/``COMMIT`` left out), ``reads`` (read
    snapshots), ``writes`` (write transactions), ``loose`` (statements outside any transaction) and ``rows`` (how
    often each hot row was read)."""

    statements: list[str] = field(default_factory=list)
    reads: int = 0
    writes: int = 0
    loose: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(_ROWS, 0))

    def line(self, name: str) -> str:
        """One printed line: the figures against the target."""
        ok = len(self.statements) <= TARGET and self.writes <= 1
        rows = ", ".join(f"{key} {value}" for key, value in self.rows.items() if value)
        return (f"  {name:<19} {len(self.statements):>3} statements, {self.reads} read snapshot(s), "
                f"{self.writes} write transaction(s), {self.loose} outside a transaction; rows read: {rows or '-'}"
                f"  [{'ok' if ok else 'over'}: ≤ {TARGET} statements, ≤ 1 write]")  # fmt: skip


class Tracer:
    """Counts the statements of the bot's SQLite connection (``sqlite3`` trace callback, run in aiosqlite's
    thread: it only appends)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def attach(self, harness: Harness) -> None:
        """Trace the connection of the harness's bot."""
        await harness.bot.service.db._conn.set_trace_callback(self.seen.append)

    def count(self, start: int) -> Count:
        """The :class:`Count` of the statements since index ``start``."""
        count = Count()
        inside: str | None = None
        for sql in self.seen[start:]:
            word = sql.strip().split(None, 1)[0].upper() if sql.strip() else ""
            if word == "BEGIN":
                inside = "write" if "IMMEDIATE" in sql.upper() or "EXCLUSIVE" in sql.upper() else "read"
                if inside == "write":
                    count.writes += 1
                else:
                    count.reads += 1
                continue
            if word in ("COMMIT", "ROLLBACK", "END"):
                inside = None
                continue
            count.statements.append(sql)
            if inside is None:
                count.loose += 1
                if _WRITE.match(sql):
                    count.writes += 1
            elif inside == "read" and _WRITE.match(sql):  # a deferred BEGIN that writes became a write transaction
                count.reads -= 1
                count.writes += 1
                inside = "write"
            for key, pattern in _ROWS.items():
                count.rows[key] += bool(pattern.search(sql))
        return count


def worst(counts: list[Count]) -> Count:
    """The count with the most statements."""
    return max(counts, key=lambda c: (len(c.statements), c.writes))


async def measure(tracer: Tracer, action) -> Count:
    """The :class:`Count` of ``await action`` (a coroutine not yet started)."""
    start = len(tracer.seen)
    await action
    return tracer.count(start)


async def money(folder: Path, repeat: int) -> dict[str, list[Count]]:
    """Counts of ``/bg move``, ``roll``, ``double`` and ``take`` in a money session."""
    rng = random.Random(7)
    found: dict[str, list[Count]] = {"/bg move": [], "roll": [], "double": [], "take": []}
    async with Harness.start(folder / "money.sqlite3", seed=7, reviews=False) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        games = h.channel()
        await h.command(alice, "bg challenge", games, opponent=bob, length="money")
        await h.press(bob, h.last(games), "Accept")
        tracer = Tracer()
        await tracer.attach(h)
        service = h.bot.service
        turns = 0
        while min(len(v) for v in found.values()) < repeat and turns < 400:
            turns += 1
            view = await service.state(1)
            if view.status != "active":
                break
            member = h.members[view.waiting_for]
            if view.pending == "play" and len(found["/bg move"]) < repeat:
                play = rng.choice(await service.legal_plays(1, member.id))
                homes = await service.messages(1, purpose="home")
                move = h.command(member, "bg move", homes[-1].channel_id, play=play)
                found["/bg move"].append(await measure(tracer, move))
                continue
            board_key = f"t:m:1:{view.version}:"
            if view.pending == "roll_or_double" and "double" in view.legal and len(found["double"]) < repeat:
                board = h.with_component(board_key + "double")
                found["double"].append(await measure(tracer, h.press(member, board, board_key + "double")))
                after = await service.state(1)
                take = f"t:m:1:{after.version}:take"
                taker = h.members[after.waiting_for]
                found["take"].append(await measure(tracer, h.press(taker, h.with_component(take), take)))
                continue
            if view.pending in ("roll", "roll_or_double") and len(found["roll"]) < repeat:
                board = h.with_component(board_key + "roll")
                found["roll"].append(await measure(tracer, h.press(member, board, board_key + "roll")))
                continue
            await play_turn(h, 1, rng)
    return found


async def chouette(folder: Path, repeat: int) -> dict[str, list[Count]]:
    """Counts of a chouette's decisions: a Team member's cube pass, and the board's roll (by their buttons)."""
    rng = random.Random(11)
    found: dict[str, list[Count]] = {"chouette pass": [], "chouette roll": []}
    async with Harness.start(folder / "chouette.sqlite3", seed=11, reviews=False) as h:
        people = [h.member(name) for name in ("Ann", "Bob", "Cy")]
        room = h.channel("club-night")
        await h.command(people[0], "bg chouette start", room)
        for member in people[1:]:
            await h.command(member, "bg chouette join", room)
        await h.command(people[-1], "bg chouette seat", room)
        tracer = Tracer()
        await tracer.attach(h)
        chouettes = h.bot.chouettes
        steps = 0
        while min(len(v) for v in found.values()) < repeat and steps < 400:
            steps += 1
            view = await chouettes.state(1)
            decision = view.decisions[0]
            actor = h.members[decision.actor]
            wanted = {"double": "pass", "roll": "roll"}.get(decision.pending)
            key = {"double": "chouette pass", "roll": "chouette roll"}.get(decision.pending)
            if wanted is not None and len(found[key]) < repeat:
                located = _chouette_component(h, view.mark, decision.subject, wanted)
                if located is not None:
                    message, custom_id = located
                    found[key].append(await measure(tracer, h.press(actor, message, custom_id)))
                    continue
            await _chouette_any(h, view, decision, rng)
    return found


def _chouette_component(h: Harness, mark: str, member: int, action: str):
    """The newest message with ``member``'s ``action`` button of chouette 1 at ``mark``, and its id; else None."""
    from tests.discordkit import Msg, chouette_parts

    for data in reversed(list(h.world.messages.values())):
        for row in data.get("components") or []:
            for item in row.get("components") or []:
                custom_id = item.get("custom_id", "")
                if custom_id.startswith((f"t:c:1:{mark}:", f"tm:c:1:{mark}:")) and chouette_parts(custom_id) == (
                    member,
                    action,
                ):
                    return Msg(h.world, int(data["id"])), custom_id
    return None


async def _chouette_any(h: Harness, view, decision, rng: random.Random) -> None:
    """Make ``decision`` through the use-cases (unmeasured): a random legal play, else a pass, take or roll."""
    chouettes = h.bot.chouettes
    if decision.pending == "play":
        plays = await chouettes.legal_plays(1, decision.actor)
        await h.command(h.members[decision.actor], "bg chouette move", h.channel("club-night"), play=rng.choice(plays))
        return
    wanted = {"roll": "roll", "double": "pass", "extra": "no_extra"}.get(decision.pending)
    if wanted is None:
        wanted = "take" if "take" in decision.actions else decision.actions[0]
    located = _chouette_component(h, view.mark, decision.subject, wanted)
    assert located is not None, f"no {wanted!r} button for {decision.subject} ({decision.pending})"
    await h.press(h.members[decision.actor], *located)


async def main(args) -> int:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        found = {**await money(folder, args.repeat), **await chouette(folder, args.repeat)}
    print(f"SQL per action on SQLite, through the Discord layer (the most of {args.repeat} of each):")
    ok = True
    for action, counts in found.items():
        if not counts:
            print(f"  {action:<19} (not reached)")
            ok = False
            continue
        count = worst(counts)
        ok &= len(count.statements) <= TARGET and count.writes <= 1
        print(count.line(action))
        if args.verbose:
            for sql in count.statements:
                print("      " + " ".join(sql.split())[:150])
    print("all targets met" if ok else "some targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verbose", action="store_true", help="print every statement of the worst case")
    sys.exit(asyncio.run(main(parser.parse_args())))
