"""The command tree Discord receives on ``--sync``: one ``/bg`` group whose payload follows Discord's limits;
and ``python bot.py`` without a token explains how to get one and points to the console."""

from __future__ import annotations

import re
import subprocess
import sys

import bot as botmod
from tests.casekit import ROOT

NAME = re.compile(r"^[-_\w]{1,32}$")
EXPECTED = {
    "challenge", "accept", "decline", "roll", "move", "double", "take", "drop", "beaver", "raccoon", "resign",
    "stop", "board", "games", "rules", "verify", "export", "notify", "config",
}  # fmt: skip
MAX_INTEGER = 2**53


def check_option(option: dict, where: str) -> int:
    """Check one option (recursively); returns its characters counted towards Discord's 4000 per command."""
    name, description = option["name"], option["description"]
    assert NAME.match(name) and name == name.lower(), f"{where}: bad name {name!r}"
    assert 1 <= len(description) <= 100, f"{where}.{name}: description of {len(description)} characters"
    size = len(name) + len(description)
    choices = option.get("choices") or []
    assert len(choices) <= 25, f"{where}.{name}: {len(choices)} choices"
    assert not (choices and option.get("autocomplete")), f"{where}.{name}: choices and autocomplete together"
    for choice in choices:
        assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100
        size += len(choice["name"]) + len(str(choice["value"]))
    for bound in ("min_value", "max_value"):
        if bound in option:
            assert -MAX_INTEGER <= option[bound] <= MAX_INTEGER, f"{where}.{name}: {bound} out of range"
    children = option.get("options") or []
    assert len(children) <= 25, f"{where}.{name}: {len(children)} options"
    required = [child.get("required", False) for child in children if child["type"] not in (1, 2)]
    assert required == sorted(required, reverse=True), f"{where}.{name}: a required option after an optional one"
    for child in children:
        size += check_option(child, f"{where}.{name}")
    return size


async def test_command_tree_payload_is_valid(harness):
    """Names 1–32 lowercase characters, descriptions 1–100, at most 25 options, subcommands and choices, required
    options first, at most 4000 characters per command; /bg is guild-only; every documented command is there (the
    tree of the bot logged in to the harness's Discord)."""
    bot = harness.bot
    commands = bot.tree.get_commands()
    names = [command.name for command in commands]
    assert sorted(names) == ["bg", "club", "event", "player", "study"], "/bg, /club (books), /event, /player, /study"
    event = next(command for command in commands if command.name == "event").to_dict(bot.tree)
    assert event["dm_permission"] is False and check_option(event, "") <= 4000
    event_options = {o["name"]: o for o in event["options"]}
    assert set(event_options) >= {"create", "join", "leave", "checkin", "start", "bracket", "standings", "my",
                                  "report", "admin"} and len(event_options) <= 25  # fmt: skip
    assert event_options["join"]["options"][0]["autocomplete"]  # event names autocomplete
    player = next(command for command in commands if command.name == "player").to_dict(bot.tree)
    assert player["dm_permission"] is False and check_option(player, "") <= 4000
    assert {o["name"] for o in player["options"]} >= {"away", "back", "ping", "nudge", "autoroll"}
    assert len(player["options"]) <= 25
    payload = next(command for command in commands if command.name == "bg").to_dict(bot.tree)
    assert payload["type"] == 1 and payload["dm_permission"] is False
    size = check_option(payload, "")
    assert size <= 4000, f"/bg has {size} characters; Discord allows 4000"
    subcommands = {option["name"]: option for option in payload["options"]}
    assert set(subcommands) >= EXPECTED and len(subcommands) <= 25  # other cogs may add subgroups (type 2)
    assert all(subcommands[name]["type"] == 1 for name in EXPECTED)
    move = {option["name"]: option for option in subcommands["move"]["options"]}
    assert move["play"]["required"] and move["play"]["autocomplete"]
    resign = {option["name"]: option for option in subcommands["resign"]["options"]}
    assert [choice["value"] for choice in resign["level"]["choices"]] == ["single", "gammon", "backgammon"]
    challenge = {option["name"]: option for option in subcommands["challenge"]["options"]}
    assert challenge["opponent"]["type"] == 6 and challenge["opponent"]["required"]


def test_no_token_says_how_to_get_one_and_starts_the_console(tmp_path, capsys, monkeypatch):
    """Without DISCORD_TOKEN or [discord] token: instructions (developer portal, scopes, --sync), then the console
    mode runs (here on an empty standard input, so it says Bye at once); ``--sync`` without a token is an error."""
    import io

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("as alice\nquit\n"))
    config = tmp_path / "config.toml"
    config.write_text(f'[discord]\ntoken = ""\n[console]\nimages = "{tmp_path.as_posix()}/img"\n', encoding="utf-8")
    assert botmod.main(["--config", str(config), "--db", str(tmp_path / "c.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert "discord.com/developers/applications" in out and "applications.commands" in out
    assert "Starting the console mode" in out and "You are alice." in out and "Bye." in out
    assert botmod.main(["--config", str(config), "--sync"]) == 1
    assert "python bot.py --console" in capsys.readouterr().out


def test_settings_read_config_and_environment(tmp_path):
    """[discord] token, [storage] path, [club.defaults], [scheduler], [rendering], [console] images; DISCORD_TOKEN
    wins over the file; relative paths are taken from the project folder; bad values are reported, saying which."""
    config = {
        "discord": {"token": "from-file", "dev_guild": 42},
        "storage": {"path": "data/club.sqlite3", "synchronous": "NORMAL"},
        "club": {"defaults": {"move_time": 7200, "expiry_policy": "forfeit_game", "game_channel": 5}},
        "scheduler": {"interval_seconds": 30},
        "rendering": {"theme": "classic", "width": 800, "home": "left"},
        "console": {"images": "/tmp/boards"},
        "logging": {"level": "debug"},
    }
    settings = botmod.Settings.from_config(config, base=tmp_path, environ={})
    assert settings.token == "from-file" and settings.dev_guild == 42
    assert settings.database == tmp_path / "data" / "club.sqlite3" and settings.synchronous == "NORMAL"
    assert settings.console_images.as_posix() == "/tmp/boards"
    assert settings.board_options().theme == "classic" and settings.reminder_seconds == 30
    assert settings.log_level == "DEBUG"
    defaults = settings.defaults()
    assert defaults.move_time == 7200 and defaults.expiry_policy == "forfeit_game" and defaults.game_channel == 5
    assert settings.check() is None
    assert botmod.Settings.from_config(config, environ={"DISCORD_TOKEN": "env"}).token == "env"
    assert "classic" in botmod.Settings.from_config({"rendering": {"theme": "neon"}}, environ={}).check()
    bad = botmod.Settings.from_config({"club": {"defaults": {"move_tme": 60}}}, environ={})
    assert "[club.defaults]" in bad.check() and "move_tme" in bad.check()
    example = botmod.Settings.from_config(botmod.load_config(ROOT / "config.example.toml"), environ={})
    assert example.check() is None and example.token == ""


def test_help_mentions_every_mode():
    """``python bot.py --help`` runs without a token and names the console, sync and replay modes."""
    result = subprocess.run([sys.executable, str(ROOT / "bot.py"), "--help"], capture_output=True, text=True,
                            timeout=60, check=True)  # fmt: skip
    assert "--console" in result.stdout and "--sync" in result.stdout and "replay" in result.stdout
