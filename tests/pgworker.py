"""A bot process for tests/test_postgres.py: ``python -m tests.pgworker URL NAME store N START`` — races on match 1's
version through the real store (:class:`storage.Database` on PostgreSQL: N trials of load → commit) from the Unix
time START on; prints one JSON line of what it did.

``python -m tests.pgworker URL NAME scheduler SECONDS START LOG CLOCK``: the bot's real reminder loop
(:class:`cogs.reminders.Reminders`, its ``tasks.loop`` every 0.05 s, under the scheduler's lease) from START on,
until the file CLOCK says ``stop`` (at most SECONDS); the club's clock reads the time written in the file CLOCK (the
test moves it deadline by deadline, so a loaded machine slows the run but never changes what is due); every round
that ran ``run_due`` is appended to the file LOG as one JSON line (``by``, ``start``, ``end`` in Unix s, ``fired``:
the notices as ``[kind, table_id]``), flushed at once (the test kills a process and reads what it logged); what it
posts goes to LOG.posted. A last argument ``dies``: the process kills itself at its first post (a notice recorded,
not posted)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from storage import Commit, Database, MatchWrite, NewAction
from storage.errors import VersionConflictError


async def store_race(url: str, name: str, trials: int, start: float) -> dict:
    """N trials of read the match → commit one action at the version read, through the real store."""
    applied, conflicts = [], 0
    async with Database.open(url) as db:
        await asyncio.sleep(max(0.0, start - time.time()))
        for trial in range(trials):
            match = await db.get_match(1)
            action = NewAction("roll", side=0, member_id=match.player0, args={"by": name, "trial": trial})
            state = {"n": match.state["n"] + 1}
            write = MatchWrite("active", state, 0, match.player1, "roll", state["n"], 0)
            try:
                await db.commit(Commit(1, match.version, time.time(), [action], write))
                applied.append(trial)
            except VersionConflictError:
                conflicts += 1
    return {"applied": applied, "conflicts": conflicts}


class _FileClock:
    """The club's clock for ``scheduler``: the time written in the file ``path`` (the test sets it)."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)

    def read(self) -> str:
        """The file's text (written whole by the test: ``os.replace``)."""
        return self.path.read_text(encoding="utf-8").strip()

    def now(self) -> float:
        text = self.read()
        return float(text.split()[-1]) if text.startswith("stop") else float(text)


class _Discord:
    """What the bot posts: each notice as one JSON line in the file ``posted`` (``by``, ``kind``, ``table_id``,
    ``nonce``); ``dies``: the process is killed (``os._exit``, as SIGKILL: nothing more runs) at its first post —
    after the notice was recorded, before it reached Discord."""

    def __init__(self, name: str, posted: str, dies: bool) -> None:
        self.name, self.posted, self.dies = name, posted, dies

    async def post_notice(self, notice, *, nonce: str | None = None) -> None:
        if self.dies:
            os._exit(137)
        line = {"by": self.name, "kind": notice.kind, "table_id": notice.table_id, "nonce": nonce}
        with open(self.posted, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")


async def scheduler(url: str, name: str, seconds: float, start: float, log: str, clock: str, dies: bool = False) -> dict:
    """The real reminder loop of one bot process (see the module docstring)."""
    import cogs.reminders as reminders
    from club import ClubService

    real_run_due = reminders.run_due

    async def logged_run_due(clocks, now=None):
        began = time.time()
        notices = await real_run_due(clocks, now)
        line = {"by": name, "start": began, "end": time.time(), "fired": [[n.kind, n.table_id] for n in notices]}
        out.write(json.dumps(line) + "\n")
        out.flush()
        return notices

    reminders.run_due = logged_run_due
    club_clock = _FileClock(clock)
    with open(log, "a", encoding="utf-8") as out:
        async with Database.open(url) as db:
            service = ClubService(db, clock=club_clock)
            publisher = _Discord(name, f"{log}.posted", dies)
            # the bot as cogs.host.ClubBot shows it to the reminders cog: no other cog loaded
            bot = SimpleNamespace(service=service, chouettes=None, publisher=publisher, reminder_seconds=0.05,
                                  get_cog=lambda name: None)
            cog = reminders.Reminders(bot)
            await asyncio.sleep(max(0.0, start - time.time()))
            await cog.on_ready()  # starts the cog's tasks.loop, as the connected bot does
            while time.time() < start + seconds and not club_clock.read().startswith("stop"):
                await asyncio.sleep(0.05)
            await cog.cog_unload()
    return {"done": True}


async def main(url: str, name: str, what: str, amount: float, start: float) -> None:
    if what == "scheduler":
        dies = sys.argv[8:9] == ["dies"]
        print(json.dumps(await scheduler(url, name, amount, start, sys.argv[6], sys.argv[7], dies)))
        return
    if what == "store":
        print(json.dumps(await store_race(url, name, int(amount), start)))
        return
    raise SystemExit(f"unknown mode {what!r}: store or scheduler")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])))
