"""``python bot.py`` start-up errors: a configuration file that is missing (when named), not TOML or of the wrong
types stops the program with one line naming the file and the problem (exit 2); no connection to Discord exits 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import discord
import pytest

import bot as botmod
from tests.casekit import ROOT


def run_bot(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bot.py"), *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[discord\n", "not valid TOML: Expected ']' at the end of a table declaration (at line 1, column 9)"),
        ("[discord]\ntoken = 5\n", "[discord] token must be a string (in quotes), not 5"),
        ("[rendering]\nwidth = '900'\n", "[rendering] width must be a whole number, not '900'"),
        ("club = 3\n", "[club] must be a table, not 3"),
    ],
)
def test_bad_config_is_one_line_and_exit_2(tmp_path, text, expected):
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    result = run_bot("--config", str(config), "--console")
    assert result.returncode == 2 and result.stderr == f"config: {config}: {expected}\n", result.stderr


def test_missing_config():
    """A --config that does not exist is an error; a missing default config.toml falls back to the example's
    defaults silently; --help names [storage] path."""
    result = run_bot("replay", "--config", "/nonexistent.toml", "x.mat")
    assert result.returncode == 2 and result.stderr == "config: /nonexistent.toml: no such file\n"
    with pytest.raises(botmod.ConfigError, match="no such file"):
        botmod.load_config(ROOT / "absent-config.toml", explicit=True)
    assert botmod.load_config(ROOT / "absent-config.toml") == {}  # the built-in defaults
    help_text = run_bot("--help").stdout
    assert "[storage] path" in help_text and "[storage] database" not in help_text


def test_config_example_lists_the_built_in_defaults(tmp_path):
    """Without a config.toml the program runs on its built-in defaults (an installed bgclub has no example file
    beside it); config.example.toml, the file to copy, gives every one of them the same value."""
    import dataclasses

    example = botmod.Settings.from_config(botmod.load_config(ROOT / "config.example.toml"), base=tmp_path, environ={})
    built_in = botmod.Settings.from_config({}, base=tmp_path, environ={})
    assert example.defaults() == built_in.defaults()
    assert dataclasses.replace(example, club_defaults={}) == dataclasses.replace(built_in, club_defaults={})
    assert built_in.database == tmp_path / "bgclub.sqlite3"
    assert botmod.Settings.from_config({}, environ={}).database == Path.cwd() / "bgclub.sqlite3"


def test_cannot_reach_discord_exits_non_zero(monkeypatch, capsys):
    async def unreachable(self, token):
        raise discord.GatewayNotFound()

    monkeypatch.setattr(botmod.BgBot, "login", unreachable)
    settings = botmod.Settings.from_config({}, environ={"DISCORD_TOKEN": "x"})
    assert botmod.run_bot(settings, sync=False, guild=None) == 1
    assert "Cannot reach Discord" in capsys.readouterr().err


def test_the_start_up_heap_is_frozen_between_login_and_the_gateway(monkeypatch):
    """Unfrozen, single calls take 11–20 ms when the collector runs: run_bot logs in (setup_hook: storage, cogs), then
    freezes the start-up heap (botapp.heap.settle_heap), then connects to the gateway; after it, a full collection
    leaves the frozen objects alone."""
    import gc

    from botapp import discord_bot

    steps = []

    async def login(self, token):
        steps.append(("login", token))

    async def connect(self, *, reconnect=True):
        steps.append(("connect", gc.get_freeze_count()))

    monkeypatch.setattr(botmod.BgBot, "login", login)
    monkeypatch.setattr(botmod.BgBot, "connect", connect)
    monkeypatch.setattr(discord_bot, "settle_heap", lambda: steps.append(("settle", None)) or 0)
    settings = botmod.Settings.from_config({}, environ={"DISCORD_TOKEN": "x"})
    assert botmod.run_bot(settings, sync=False, guild=None) == 0
    assert [step for step, _ in steps] == ["login", "settle", "connect"]
    from botapp.heap import settle_heap

    thresholds = gc.get_threshold()
    try:
        frozen = settle_heap()
        assert frozen == gc.get_freeze_count() > 10_000  # pytest, discord.py, Pillow, the bot's modules
        assert gc.get_count()[0] < 50  # collected just before freezing: nothing young is left behind
        assert gc.get_threshold() == (2_000, *thresholds[1:])
    finally:
        gc.unfreeze()  # the rest of the test session collects as before
        gc.set_threshold(*thresholds)


async def test_shards_setting_makes_an_auto_sharded_bot():
    """``[discord] shards`` (0 = Discord's recommendation) goes to discord.py's AutoShardedBot; a
    negative count is refused by the configuration check, saying what is allowed."""
    from discord.ext import commands

    settings = botmod.Settings.from_config({"discord": {"shards": 3}}, environ={})
    assert settings.shards == 3 and settings.check() is None
    bot = botmod.BgBot(settings)
    assert isinstance(bot, commands.AutoShardedBot) and bot.shard_count == 3
    assert botmod.BgBot(botmod.Settings.from_config({}, environ={})).shard_count is None
    bad = botmod.Settings.from_config({"discord": {"shards": -1}}, environ={})
    assert "shards" in bad.check()


async def test_storage_url_opens_postgresql_and_the_environment_wins(pg_cluster):
    """``[storage] url`` (or ``BGCLUB_DATABASE_URL``, which wins) opens the PostgreSQL backend
    instead of the file; the password never shows in the settings' text; a URL of another kind is refused by the
    check; without a URL the SQLite file stays the default."""
    import asyncpg

    from storage.pgstore import PgDatabase
    from tests import pgkit

    server = await asyncpg.connect(pg_cluster.url())
    try:
        await server.execute(f"CREATE DATABASE config_url TEMPLATE {pgkit.TEMPLATE}")
    finally:
        await server.close()
    url = pg_cluster.url("config_url")
    settings = botmod.Settings.from_config(
        {"storage": {"url": "postgresql://x/y"}}, environ={"BGCLUB_DATABASE_URL": url}
    )
    assert settings.database_url == url and settings.check() is None
    async with settings.open_database() as db:
        assert isinstance(db, PgDatabase) and await db.integrity_check() == ["ok"]
    secret = botmod.Settings.from_config({"storage": {"url": "postgresql://bot:s3cret@db.example/club"}}, environ={})
    assert "s3cret" not in repr(secret) and "postgresql://bot:<hidden>@db.example/club" in repr(secret)
    assert "postgresql://" in botmod.Settings.from_config({"storage": {"url": "mysql://a/b"}}, environ={}).check()
    assert botmod.Settings.from_config({}, environ={}).database_url == ""


def test_a_database_the_bot_cannot_reach_is_named_as_the_database_not_discord(monkeypatch, capsys, tmp_path):
    """``[storage] url`` naming no server — the bot's start-up (setup_hook, inside login) says it
    in one line about the database (exit 2), not "Cannot reach Discord", and never shows the password."""

    async def login(self, token):
        await self.setup_hook()  # what discord.py's login does once Discord accepted the token

    monkeypatch.setattr(botmod.BgBot, "login", login)
    url = f"postgresql://bot:s3cret@/club?host={tmp_path}/no-server&port=5432"
    settings = botmod.Settings.from_config({}, environ={"DISCORD_TOKEN": "x", "BGCLUB_DATABASE_URL": url})
    assert botmod.run_bot(settings, sync=False, guild=None) == 2
    err = capsys.readouterr().err
    assert err.startswith('database: cannot reach the PostgreSQL server for database "club"') and "s3cret" not in err
    assert "Discord" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"rendering": {"colour": "red"}}, "[rendering] colour is not a setting; the keys are theme, width, home"),
        ({"rendering": {"widht": 500}}, "[rendering] widht is not a setting; did you mean [rendering] width?"),
        ({"bogus": {"x": 1}}, "[bogus] is not a section; the sections are analysis, club.defaults, console, dice, "
                              "discord, logging, rendering, scheduler, storage"),
        ({"loging": {"level": "INFO"}}, "[loging] is not a section; did you mean [logging]?"),
        ({"club": {"default": {}}}, "[club] default is not a setting; did you mean [club.defaults]?"),
    ],
)
def test_a_misspelt_key_or_section_is_refused_naming_the_nearest_one(config, expected):
    """``config.toml`` keys are checked against the settings the program reads: a typo stops the start with the
    nearest valid name (difflib's close match), never silently falls back to the default."""
    with pytest.raises(botmod.ConfigError) as refused:
        botmod.Settings.from_config(config, environ={})
    assert str(refused.value) == expected


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"logging": {"level": "LOUD"}}, "[logging] level is DEBUG, INFO, WARNING or ERROR, not 'LOUD'"),
        ({"scheduler": {"interval_seconds": 99999999999999999999}},
         "[scheduler] interval_seconds is from 1 to 3600 (seconds between two checks), not 1e+20"),
        ({"scheduler": {"interval_seconds": 0}},
         "[scheduler] interval_seconds is from 1 to 3600 (seconds between two checks), not 0"),
        ({"club": {"defaults": {"rule_overrides": {"cube_cap": 3}}}},
         "[club.defaults]: rule_overrides: cube_cap is None (no limit) or a cube value (1, 2, 4, 8 …); got 3 (RULES D5)"),
    ],
)
def test_out_of_range_values_are_refused_at_start(config, expected):
    """A log level, a scheduler interval or a cube cap the program cannot use is a start-up error in words."""
    assert botmod.Settings.from_config(config, environ={}).check() == expected


def test_a_misspelt_key_stops_the_program_with_one_line(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[rendering]\ntheem = "classic"\n', encoding="utf-8")
    result = run_bot("--config", str(config), "--console")
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"config: {config}: [rendering] theem is not a setting; did you mean [rendering] theme?\n"
