"""Persistent components: a button per decision and a menu of the legal plays, valid after a restart.

Each is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries the match id, the version of the table it was
drawn for, and the action — ``bg:12:34:take``, ``bgplay:12:34`` — so the bot needs no memory of the message: after a
restart ``bot.add_dynamic_items(GameButton, PlaySelect)`` (in ``setup_hook``) makes every old button work again. A
button drawn for an older version (the game moved on) is refused by the use-case layer as stale, and only the member
concerned can act: anyone else gets an ephemeral explanation and nothing changes (:mod:`cogs.flow`).
"""

from __future__ import annotations

import re

import discord

from club.frontend import ACTION_LABELS, MAX_CHOICES
from club.results import TableView

STYLES = {
    "accept": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.danger,
    "cancel": discord.ButtonStyle.secondary,
    "roll": discord.ButtonStyle.primary,
    "double": discord.ButtonStyle.secondary,
    "take": discord.ButtonStyle.success,
    "drop": discord.ButtonStyle.danger,
    "beaver": discord.ButtonStyle.primary,
    "raccoon": discord.ButtonStyle.primary,
    "accept_resignation": discord.ButtonStyle.success,
    "reject_resignation": discord.ButtonStyle.danger,
    "stop": discord.ButtonStyle.secondary,
}
BUTTON_ORDER = tuple(STYLES)
"""The actions that are buttons, in the order they are shown (``play`` is a menu, ``resign`` a command)."""


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:(?P<match>[0-9]{1,19}):(?P<version>[0-9]{1,12}):(?P<action>[a-z_]{2,24})",
):
    """One decision for one version of one match: ``bg:<match id>:<version>:<action>``."""

    def __init__(self, match_id: int, version: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=ACTION_LABELS.get(action, action.replace("_", " ").capitalize()),
                style=STYLES.get(action, discord.ButtonStyle.secondary),
                custom_id=f"bg:{match_id}:{version}:{action}",
            )
        )
        self.match_id = match_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> GameButton:
        """Rebuild the button from its ``custom_id`` (after a restart too)."""
        return cls(int(match["match"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Do the action for the member who pressed (see :func:`cogs.flow.component_action`)."""
        from . import flow

        await flow.component_action(interaction, self.match_id, self.version, self.action)


class PlaySelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"bgplay:(?P<match>[0-9]{1,19}):(?P<version>[0-9]{1,12})",
):
    """The legal plays of the dice as a menu (when there are at most 25): ``bgplay:<match id>:<version>``."""

    def __init__(self, match_id: int, version: int, plays: list[str] | tuple[str, ...] = ()) -> None:
        options = [discord.SelectOption(label=play[:100], value=play[:100]) for play in plays[:MAX_CHOICES]]
        super().__init__(
            discord.ui.Select(
                custom_id=f"bgplay:{match_id}:{version}",
                placeholder="Choose your play…",
                options=options or [discord.SelectOption(label="pass", value="pass")],
                min_values=1,
                max_values=1,
            )
        )
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> PlaySelect:
        """Rebuild the menu from its ``custom_id`` and the message's options."""
        return cls(int(match["match"]), int(match["version"]), [option.value for option in item.options])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the chosen play (from the interaction's data, as Discord sends it)."""
        from . import flow

        values = (interaction.data or {}).get("values") or []
        await flow.component_action(interaction, self.match_id, self.version, "play", values[0] if values else None)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bgrematch:(?P<match>[0-9]{1,19})"):
    """*Rematch* on a finished match's last board: ``bgrematch:<match id>``. Either player may press it: he
    challenges the other to the same length, rules and stake; the other accepts as any challenge."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Rematch", style=discord.ButtonStyle.primary, custom_id=f"bgrematch:{match_id}")
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> RematchButton:
        """Rebuild the button from its ``custom_id`` (after a restart too)."""
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Challenge the other player again (see :func:`cogs.flow.rematch`)."""
        from . import flow

        await flow.rematch(interaction, self.match_id)


def table_components(view: TableView, plays: list[str] | None = None) -> discord.ui.View | None:
    """The components for exactly the actions possible now: a button per decision of the member who must act (and
    Withdraw for a challenger while the challenge is open), the play menu when ``plays`` (the legal plays) has 2–25
    entries; *Rematch* once the match is over. None when nothing can be done."""
    if view.status == "over" and view.kind == "match":
        components = discord.ui.View(timeout=None)
        components.add_item(RematchButton(view.match_id))
        return components
    if view.status not in ("challenged", "active") or view.waiting_for is None:
        return None
    components = discord.ui.View(timeout=None)
    actions = [action for action in BUTTON_ORDER if action in view.legal]
    if view.status == "challenged":
        actions.append("cancel")
    if view.pending == "play" and plays and 1 < len(plays) <= MAX_CHOICES:
        components.add_item(PlaySelect(view.match_id, view.version, plays))
    for action in actions:
        components.add_item(GameButton(view.match_id, view.version, action))
    return components if components.children else None


def custom_ids(components: discord.ui.View | None) -> list[str]:
    """The ``custom_id`` of every component (for tests and logs)."""
    if components is None:
        return []
    return [item.custom_id for item in components.children if getattr(item, "custom_id", None)]
