"""Secrets at rest: the database file (and its WAL) and every backup are readable by the owner
only (0600); no seed of an unfinished game reaches any log at any level (aiosqlite's DEBUG records carry every
statement's parameters); the Discord token is in no repr and no log line."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat

import bot as botmod
from storage import Database
from storage.backup import backup_file
from tests.clubkit import club_service, new_table


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


async def test_database_and_backups_are_owner_only(tmp_path):
    """Even with a permissive umask (0o022 gives 0644) the file, its -wal/-shm and a backup are 0600."""
    old = os.umask(0o022)
    try:
        path = tmp_path / "club.sqlite3"
        async with club_service(path) as service:
            await new_table(service, 3)
            for suffix in ("", "-wal", "-shm"):
                assert _mode(f"{path}{suffix}") == 0o600, suffix
            copy = await service.db.backup(tmp_path / "copy.sqlite3")
            assert _mode(copy) == 0o600
        second = await backup_file(path, tmp_path / "second.sqlite3")
        assert _mode(second) == 0o600
        (tmp_path / "open.sqlite3").touch(mode=0o644)  # an existing world-readable file is closed up on opening
        async with Database.open(tmp_path / "open.sqlite3"):
            assert _mode(tmp_path / "open.sqlite3") == 0o600
    finally:
        os.umask(old)


async def test_no_unfinished_seed_in_any_log(tmp_path, caplog):
    """Every logger at DEBUG while a money session is played a few turns: the seed of the running game appears in
    no record (message or arguments)."""
    caplog.set_level(logging.DEBUG)
    for name in ("aiosqlite", "bgclub", "storage", "club"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    path = tmp_path / "club.sqlite3"
    async with club_service(path) as service:
        outcome = await new_table(service, 0)
        view = outcome.view
        for _ in range(6):
            if view.pending == "roll_or_double":
                view = (await service.roll(view.match_id, view.waiting_for)).view
            elif view.pending == "play":
                plays = await service.legal_plays(view.match_id, view.waiting_for)
                view = (await service.play(view.match_id, view.waiting_for, plays[0])).view
            else:
                break
    conn = sqlite3.connect(path)
    seeds = [row[0] for row in conn.execute("SELECT seed FROM games WHERE status = 'playing' AND seed IS NOT NULL")]
    conn.close()
    assert seeds, "a game is still being played"
    assert logging.getLogger("aiosqlite").isEnabledFor(logging.DEBUG), "every logger was at DEBUG"
    for record in caplog.records:
        text = record.getMessage() + repr(record.args)
        for seed in seeds:
            assert seed not in text, f"seed in a {record.levelname} record of {record.name}"


def test_token_in_no_repr_and_no_log_line(caplog):
    """``repr(Settings)`` hides the token; a log line that contains it (e.g. a library's error) shows it redacted."""
    token = "MTAxODk2.secret-token.XYZ"
    settings = botmod.Settings(token=token)
    assert token not in repr(settings) and token not in str(settings)
    assert "token=<hidden>" in repr(settings)
    caplog.set_level(logging.INFO)
    root = logging.getLogger()
    before = {id(handler): list(handler.filters) for handler in root.handlers}
    try:
        botmod._setup_logging("INFO", secrets=(token,))
        logging.getLogger("discord.client").error("login with %s failed", token)
        logging.getLogger("bgclub").info(f"Bot {token}")
    finally:
        for handler in root.handlers:
            handler.filters = before.get(id(handler), [])
    assert token not in caplog.text
    assert caplog.text.count("[redacted]") == 2
