"""``config``: the club's settings from the console, with Discord's option names (``move_hours 24``, ``reminders
24,4``, ``expiry forfeit_game``) or the stored ones (``move_time 86400`` in seconds), and ``rule_overrides`` as the
TOML inline table the README shows (``{ cube_cap = 64 }``). Every value is checked before anything is stored
(:meth:`~club.settings.ClubSettings.updated`); a refused change changes nothing."""

from __future__ import annotations

import re

from club.errors import InvalidRequestError
from club.settings import DAY, HOUR, ClubSettings

from .core import Console
from .parse import hours, number, split_line, toml_table
from .verbs import verb

KEYS = {
    "match_rules": "match_rules",
    "money_rules": "money_rules",
    "move_hours": "move_time",
    "challenge_hours": "challenge_time",
    "move_time": "move_time",
    "challenge_time": "challenge_time",
    "reminders": "reminders",
    "expiry": "expiry_policy",
    "expiry_policy": "expiry_policy",
    "max_stake": "max_stake",
    "rule_overrides": "rule_overrides",
    "channel": "game_channel",
    "game_channel": "game_channel",
    "away_days": "away_days",
    "nudge_hours": "nudge_hours",
    "organiser_role": "organiser_role",
    "event_forum": "event_forum",
}
"""The keys ``config`` takes (Discord's option names and the stored setting names) → the stored setting."""


MIN_TIME, MAX_TIME = 60, 365 * DAY
"""The time per action or for a challenge, in seconds (:class:`~club.settings.ClubSettings` checks the same)."""


def reminder_hours(text: str) -> list[float]:
    """``24,4`` (hours before the deadline; also ``24h,30m``) or ``none`` → seconds. Raises
    :class:`InvalidRequestError`."""
    if text.strip().lower() in ("none", "no", "off", "-", "0", "[]"):
        return []
    parts = [part for part in re.split(r"[,;\s]+", text.strip().strip("[]")) if part]
    if not parts:
        raise InvalidRequestError(f"reminders are hours before the deadline, like 24,4 (or none) — not {text[:40]!r}")
    try:
        return [hours(part, "a reminder") for part in parts]
    except InvalidRequestError:
        raise InvalidRequestError(
            f"reminders are hours before the deadline, like 24,4 (or none) — not {text[:40]!r}"
        ) from None


def setting_value(key: str, text: str):
    """The stored value of ``config KEY TEXT``. Raises :class:`InvalidRequestError` (unknown key, bad value)."""
    if key not in KEYS:
        raise InvalidRequestError(f"there is no setting {key[:40]!r}; settings are: {', '.join(KEYS)}")
    stored = KEYS[key]
    if stored == "rule_overrides":
        return toml_table(text)
    if stored == "reminders":
        return reminder_hours(text)
    if key in ("move_hours", "challenge_hours"):
        refusal = InvalidRequestError(f"{key} is a number of hours from a minute (1m) to a year (8760), like 24 "
                                      f"or 90m — not {text[:40]!r}")  # fmt: skip
        try:  # a bare number is hours; the refusal echoes what was typed
            seconds = hours(text if re.search(r"[a-z]$", text.strip().lower()) else text + "h", key)
        except InvalidRequestError:
            raise refusal from None
        if not MIN_TIME <= seconds <= MAX_TIME:  # said in hours, as typed (ClubSettings says it in seconds)
            raise refusal
        return seconds
    if key in ("move_time", "challenge_time"):
        return number(text, f"{key} (seconds)", low=0, high=10**9)
    if stored == "nudge_hours":
        return hours(text, key) / HOUR
    if stored in ("max_stake", "game_channel", "away_days", "event_forum"):
        return number(text, key, low=0, high=2**53 - 1)
    if stored == "organiser_role":
        return "" if text.strip().lower() in ("none", "-") else text.strip()
    return text.strip().lower()


def parse_changes(raw: str) -> dict:
    """``KEY VALUE [KEY VALUE …]`` (also ``KEY=VALUE``, ``KEY:VALUE``; a ``{ … }`` table may hold spaces) → the
    changes to store. Raises :class:`InvalidRequestError`."""
    changes = {}
    rest = raw.strip()
    while rest:
        match = re.match(r"([A-Za-z_]+)\s*(?:[=:]\s*|\s+)(\{[^}]*\}|\S+)\s*", rest)
        if match is None:
            words = split_line(rest)
            raise InvalidRequestError(
                f"config KEY VALUE [KEY VALUE …], e.g. config move_hours 24 — {words[0][:40]!r} has no value"
                if words
                else "config KEY VALUE"
            )
        key, value = match.group(1).lower(), match.group(2)
        changes[KEYS.get(key, key)] = setting_value(key, value.strip("'\""))
        rest = rest[match.end() :]
    return changes


def settings_text(settings: ClubSettings, changed: bool) -> str:
    """The club settings in words (as ``/bg config`` shows them)."""
    hours_list = [f"{value / HOUR:g} h" for value in settings.reminders] or ["none"]
    lines = [
        "Club settings updated:" if changed else "Club settings:",
        f"• rule sets: matches {settings.match_rules}, money sessions {settings.money_rules}",
        f"• time per action: {settings.move_time / HOUR:g} h (move_time = {settings.move_time:g} s); "
        f"to answer a challenge: {settings.challenge_time / HOUR:g} h",
        f"• reminders before the deadline: {', '.join(hours_list)}",
        f"• at the deadline: {settings.expiry_policy}",
        f"• largest stake per point: {settings.max_stake}",
        f"• rule options: {settings.rule_overrides or 'none'}",
        f"• away days per member a year: {settings.away_days}; a nudge after {settings.nudge_hours:g} h of waiting",
        f"• events organised by admins and the role: {settings.organiser_role or 'none'}; event forum: "
        f"{settings.event_forum or 'none'}",
    ]
    return "\n".join(lines)


@verb("config", "config [KEY VALUE …]", "club settings: match_rules, money_rules, move_hours, reminders 24,4, "
      "expiry claim, max_stake, away_days, nudge_hours, organiser_role Organiser, rule_overrides { cube_cap = 64 }")  # fmt: skip
async def config(console: Console, args: list[str]) -> str:
    """``config [KEY VALUE …]``: show or change the club's settings (admins)."""
    if not console.admin:
        raise InvalidRequestError("only a club admin can change the settings")
    changes = parse_changes(" ".join(args))
    settings = await console.service.configure_club(console.guild_id, **changes)
    return settings_text(settings, bool(changes))
