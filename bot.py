"""Entry point: ``python bot.py`` starts the Discord bot; ``python bot.py --console`` runs the same use-cases in a terminal.

The Discord layer arrives with the issue "The Discord bot"; until then this reads the configuration and explains what
is available.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def load_config(path: Path) -> dict:
    """Read ``config.toml`` (or return defaults from ``config.example.toml`` when it is missing)."""
    source = path if path.exists() else ROOT / "config.example.toml"
    with source.open("rb") as handle:
        return tomllib.load(handle)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments and start the bot or the console; returns the process exit code."""
    parser = argparse.ArgumentParser(description="Backgammon club bot for Discord")
    parser.add_argument("--config", type=Path, default=ROOT / "config.toml", help="configuration file (TOML)")
    parser.add_argument("--console", action="store_true", help="play in this terminal instead of Discord")
    args = parser.parse_args(argv)
    config = load_config(args.config)
    token = os.environ.get("DISCORD_TOKEN") or config.get("discord", {}).get("token", "")
    if args.console or not token:
        if not token and not args.console:
            print("No Discord token: set DISCORD_TOKEN or [discord] token in config.toml "
                  "(create one at https://discord.com/developers/applications → your app → Bot → Reset Token).")
        print("The console mode and the Discord bot are not built yet. Meanwhile the rules engine has a command-line "
              "tool: python -m backgammon --help")
        return 0
    print("The Discord bot is not built yet (issue 'The Discord bot').", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
