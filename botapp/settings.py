"""The configuration of the program (``config.toml``; every key is optional, see ``config.example.toml`` and the
README): :func:`load_config` reads the TOML, :class:`Settings` checks each value's type and holds what the program
uses, :class:`ConfigError` says which key is wrong and what it must be. Split out of ``bot.py``, which re-exports
these names."""

from __future__ import annotations

import difflib
import os
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from club import ClubSettings
from club.boards import BoardOptions
from storage import Database
from storage.pgerrors import hide_password, url_password  # noqa: F401  (re-exported: bot.py, discord_bot)


def program() -> str:
    """The command that started the program, for the texts that say what to type next: ``bgclub`` (the installed
    command) or ``python bot.py`` (in a clone of the repository)."""
    return "bgclub" if Path(sys.argv[0]).stem == "bgclub" else "python bot.py"


class ConfigError(ValueError):
    """The configuration file is missing (when named explicitly), not TOML, or has a value of the wrong type."""


def load_config(path: Path, *, explicit: bool = False) -> dict:
    """Read the TOML file ``path``. When it is missing: ``{}``, the built-in defaults (``config.example.toml`` lists
    them), unless ``explicit`` (the file was named with ``--config``). Raises :class:`ConfigError` naming the file and
    the problem (no such file, unreadable, not valid TOML with its line and column)."""
    if not explicit and not path.exists():
        return {}
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror or error})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None


_KINDS = {str: ("a string (in quotes)", (str,)), int: ("a whole number", (int,)), float: ("a number", (int, float)),
          bool: ("true or false", (bool,))}  # fmt: skip


KEYS = {
    "discord": ("token", "dev_guild", "shards"),
    "storage": ("path", "database", "url", "synchronous", "busy_timeout_ms"),
    "club": ("defaults",),
    "dice": ("beacon",),
    "scheduler": ("interval_seconds",),
    "rendering": ("theme", "width", "home"),
    "console": ("images",),
    "analysis": ("review_after_match",),
    "logging": ("level",),
}
"""Every key of ``config.toml`` the program reads, by section (``[club] defaults`` is the table ``[club.defaults]``,
whose keys :class:`club.ClubSettings` checks)."""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
"""The values of ``[logging] level``."""

INTERVAL_SECONDS = (1, 3600)
"""The lowest and highest ``[scheduler] interval_seconds``."""


def _unknown_keys(config: dict) -> None:
    """Refuse a section or key of ``config`` the program does not read (a typo would silently leave the default in
    force): :class:`ConfigError` naming it and the nearest valid name (:func:`difflib.get_close_matches`)."""

    def named(section: str, key: str) -> str:
        return f"[{section}.{key}]" if section == "club" else f"[{section}] {key}"

    for section, table in config.items():
        if section not in KEYS:
            near = difflib.get_close_matches(section, KEYS, n=1)
            sections = sorted(f"{name}.defaults" if name == "club" else name for name in KEYS)
            hint = f"did you mean [{near[0]}]?" if near else f"the sections are {', '.join(sections)}"
            raise ConfigError(f"[{section}] is not a section; {hint}")
        if not isinstance(table, dict):
            continue  # _section says it must be a table
        for key in table:
            if key not in KEYS[section]:
                near = difflib.get_close_matches(key, KEYS[section], n=1, cutoff=0.0 if section == "club" else 0.6)
                hint = f"did you mean {named(section, near[0])}?" if near else f"the keys are {', '.join(KEYS[section])}"
                raise ConfigError(f"[{section}] {key} is not a setting; {hint}")


def _section(config: dict, name: str) -> dict:
    """The table ``[name]`` of ``config`` (dotted names for nested tables), ``{}`` when absent; ``ConfigError``
    when it is not a table."""
    table, parts = config, name.split(".")
    for depth, part in enumerate(parts, 1):
        table = table.get(part, {})
        if not isinstance(table, dict):
            raise ConfigError(f"[{'.'.join(parts[:depth])}] must be a table, not {table!r}")
    return table


def _value(config: dict, section: str, key: str, kind: type, default):
    """``[section] key`` of ``config`` checked to be of ``kind`` (str, int, float — never a bool — or bool), else
    ``default``. Raises :class:`ConfigError` saying which key and what it must be."""
    value = _section(config, section).get(key, default)
    what, types = _KINDS[kind]
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, types):
        raise ConfigError(f"[{section}] {key} must be {what}, not {value!r}")
    return kind(value)


@dataclass(frozen=True)
class Settings:
    """The configuration the program uses (see ``config.example.toml`` and the README for each key)."""

    token: str = ""
    dev_guild: int = 0
    database: Path = Path("bgclub.sqlite3")
    database_url: str = ""
    synchronous: str = "FULL"
    busy_timeout_ms: int = 10_000
    club_defaults: dict = field(default_factory=dict)
    theme: str = "colourblind"
    width: int = 900
    home: str = "right"
    console_images: Path = Path("images")
    review_after_match: bool = True
    log_level: str = "INFO"
    reminder_seconds: float = 60.0
    shards: int = 0
    beacon: str = ""
    """``[dice] beacon``: the drand chain whose round due enters every game's dice (``"quicknet"``), or "" (off)."""

    def __repr__(self) -> str:
        """Every setting but the token, which is shown as ``<hidden>`` (or ``<none>``): it would let anyone run the
        bot."""
        shown = ", ".join(
            f"{name}={'<hidden>' if self.token else '<none>'}"
            if name == "token"
            else f"{name}={hide_password(value) if name == 'database_url' else value!r}"
            for name, value in self.__dict__.items()
        )
        return f"Settings({shown})"

    __str__ = __repr__

    @classmethod
    def from_config(cls, config: dict, *, base: Path | None = None, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from the parsed TOML; ``DISCORD_TOKEN`` in ``environ`` wins over ``[discord] token``; relative
        paths are taken from ``base`` (default: the current folder, where the program was started); ``BGCLUB_DATABASE_URL`` in ``environ`` wins over
        ``[storage] url`` (a ``postgresql://…`` URL: the PostgreSQL backend instead of the file). Raises :class:`ConfigError` for a value of the wrong
        type (``[discord] token = 5``), saying which key and what it must be."""
        environ = os.environ if environ is None else environ
        base = Path.cwd() if base is None else base
        _unknown_keys(config)
        storage = _section(config, "storage")
        legacy = _value(config, "storage", "database", str, "") if "path" not in storage else ""
        database = Path(_value(config, "storage", "path", str, "") or legacy or "bgclub.sqlite3")
        images = Path(_value(config, "console", "images", str, "images"))
        return cls(
            token=(environ.get("DISCORD_TOKEN") or _value(config, "discord", "token", str, "")).strip(),
            dev_guild=_value(config, "discord", "dev_guild", int, 0),
            shards=_value(config, "discord", "shards", int, 0),
            database=database if database.is_absolute() else base / database,
            database_url=(environ.get("BGCLUB_DATABASE_URL") or _value(config, "storage", "url", str, "")).strip(),
            synchronous=_value(config, "storage", "synchronous", str, "FULL"),
            busy_timeout_ms=_value(config, "storage", "busy_timeout_ms", int, 10_000),
            club_defaults=dict(_section(config, "club.defaults")),
            theme=_value(config, "rendering", "theme", str, "colourblind"),
            width=_value(config, "rendering", "width", int, 900),
            home=_value(config, "rendering", "home", str, "right"),
            console_images=images if images.is_absolute() else base / images,
            review_after_match=_value(config, "analysis", "review_after_match", bool, True),
            log_level=_value(config, "logging", "level", str, "INFO").upper(),
            reminder_seconds=_value(config, "scheduler", "interval_seconds", float, 60.0),
            beacon=_value(config, "dice", "beacon", str, "").strip(),
        )

    def board_options(self) -> BoardOptions:
        """The :class:`club.boards.BoardOptions` of ``[rendering]`` (validated; ``ValueError`` says what is wrong)."""
        return BoardOptions(self.theme, self.width, self.home).checked()

    def dice_beacon(self):
        """The :class:`club.beacon.Beacon` of ``[dice] beacon`` (None when off). Raises ``ValueError`` for a chain
        the bot does not know."""
        from club.beacon import CHAINS, Beacon

        if not self.beacon:
            return None
        if self.beacon not in CHAINS:
            raise ValueError(f"[dice] beacon is one of {', '.join(CHAINS)} (or empty: off), not {self.beacon!r}")
        return Beacon(CHAINS[self.beacon])

    def defaults(self) -> ClubSettings:
        """The settings a new club starts with (``[club.defaults]``); raises ``InvalidRequestError`` for a bad key
        or value, saying which."""
        return ClubSettings.from_json(self.club_defaults)

    def open_database(self, path: Path | None = None):
        """``Database.open`` of ``path`` (default: ``[storage] url`` if set, else ``[storage] path``) with
        ``synchronous`` and ``busy_timeout_ms`` (SQLite's), held by this program alone (a second bot or console on
        the file is refused: :class:`storage.DatabaseInUseError`)."""
        if path is None and self.database_url:
            return Database.open(self.database_url)
        path = path or self.database
        path.parent.mkdir(parents=True, exist_ok=True)
        return Database.open(path, synchronous=self.synchronous, busy_timeout_ms=self.busy_timeout_ms, exclusive=True)

    def check(self) -> str | None:
        """What is wrong with the configuration, in words, or None."""
        try:
            self.board_options()
        except ValueError as error:
            return f"[rendering]: {error}"
        try:
            self.defaults()
        except ValueError as error:
            return f"[club.defaults]: {error}"
        try:
            self.dice_beacon()
        except ValueError as error:
            return str(error)
        if self.log_level not in LOG_LEVELS:
            return f"[logging] level is {', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]}, not {self.log_level!r}"
        low, high = INTERVAL_SECONDS
        if not low <= self.reminder_seconds <= high:
            return (f"[scheduler] interval_seconds is from {low} to {high} (seconds between two checks), "
                    f"not {self.reminder_seconds:g}")
        if self.shards < 0:
            return f"[discord] shards is 0 (as many as Discord recommends) or a number of shards, not {self.shards}"
        if self.database_url and not self.database_url.startswith(("postgresql://", "postgres://")):
            return "[storage] url (or BGCLUB_DATABASE_URL) is a postgresql://user:password@host/database URL"
        if self.synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            return f"[storage] synchronous is FULL, NORMAL, EXTRA or OFF, not {self.synchronous!r}"
        return None
