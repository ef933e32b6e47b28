"""Persistent components: a button per decision and a menu of the legal plays, valid after a restart.

The buttons and the menu are the one scheme of :mod:`cogs.buttons` (:class:`~cogs.buttons.TableButton`,
:class:`~cogs.buttons.TableMenu`) whose ``custom_id`` carries the kind, the match id, the version of the table it was
drawn for, and the action — ``t:m:12:34:take``, ``tm:m:12:34:play`` — so the bot needs no memory of the message:
after a restart ``bot.add_dynamic_items(*cogs.buttons.ITEMS)`` (in ``setup_hook``) makes every old button work again,
the ``bg:``/``bgplay:`` ones of before the scheme too. A button drawn for an older version (the game moved on) is
refused by the use-case layer as stale, and only the member concerned can act: anyone else gets an ephemeral
explanation and nothing changes (:mod:`cogs.flow`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from backgammon.game import Action
from club.frontend import MAX_CHOICES
from club.results import TableView
from club.table import MatchKind, MatchStatus, Pending, TableAction

from .buttons import MATCH_STYLES as STYLES
from .buttons import GameButton, MatchButton, PlaySelect, TableButton, TableMenu  # noqa: F401 (the old names stay importable)
from .errors import report
from .flow import register, request_of
from .host import Interaction, of_club

BUTTON_ORDER = tuple(STYLES)
"""The actions that are buttons, in the order they are shown (``play`` is a menu, ``resign`` a command)."""


def table_components(view: TableView, plays: list[str] | None = None) -> discord.ui.View | None:
    """The components for exactly the actions possible now: a button per decision of the member who must act (and
    Withdraw for a challenger while the challenge is open), the play menu when ``plays`` (the legal plays) has 2–25
    entries, *Add your luck* for either player (:class:`LuckModal`); *Rematch* once the match is over.
    None when nothing can be done."""
    over = view.status == MatchStatus.OVER and view.kind == MatchKind.MATCH
    if over and not view.practice:  # practice: /study practice again
        components = discord.ui.View(timeout=None)
        components.add_item(TableButton.of("m", view.match_id, 0, MatchButton.REMATCH))
        return components
    if view.status not in (MatchStatus.CHALLENGED, MatchStatus.ACTIVE) or view.waiting_for is None:
        return None
    components = discord.ui.View(timeout=None)
    actions = [action for action in BUTTON_ORDER if action in view.legal]
    if view.status == MatchStatus.CHALLENGED:
        actions.append(TableAction.CANCEL)
    if view.pending == Pending.PLAY and plays and 1 < len(plays) <= MAX_CHOICES:
        options = [(play, play) for play in plays[:MAX_CHOICES]]
        components.add_item(TableMenu.of("m", view.match_id, view.version, Action.PLAY, options=options,
                                          placeholder="Choose your play…"))  # fmt: skip
    for action in actions:
        components.add_item(TableButton.of("m", view.match_id, view.version, action))
    if not view.practice and len(components.children) < 25:  # either player adds luck to the next game's dice
        components.add_item(TableButton.of("m", view.match_id, view.version, MatchButton.LUCK))
    return components if components.children else None


def custom_ids(components: discord.ui.View | None) -> list[str]:
    """The ``custom_id`` of every component (for tests and logs)."""
    if components is None:
        return []
    found = (item.custom_id for item in components.children
             if isinstance(item, (discord.ui.Button, discord.ui.Select, discord.ui.DynamicItem)))  # fmt: skip
    return [custom_id for custom_id in found if custom_id]  # a link button has none


class LuckModal(discord.ui.Modal, title="Add your luck to the next game's dice"):
    """The box of the *Add your luck* button (a 1-on-1's challenge and board, a chouette's board): any words of the
    player's own, added to the client seeds of the table's next dice before their first roll
    (:meth:`club.service.ClubService.add_luck`, :meth:`club.chouette.ChouetteService.add_luck`). Typed after that
    game's commitment was shown, the bot could not have chosen its seed against them. ``submit(interaction, table
    id, words)``: what another kind of table does with the words (a chouette's: :func:`cogs.chouette.add_luck`);
    None: a match or session's."""

    words: discord.ui.TextInput = discord.ui.TextInput(
        label="Your words (anything; they join the dice)", min_length=1, max_length=100,
        placeholder="e.g. seven sevens for grandma",
    )  # fmt: skip

    def __init__(self, table_id: int, submit: Callable[[Interaction, int, str], Awaitable[None]] | None = None
                 ) -> None:  # fmt: skip
        super().__init__(timeout=900)
        self.match_id = table_id
        self.submit = submit

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Add the words; the table's board gets its new buttons (the words are an action: a match's version moved
        on), and the player a private word on which game they go into."""
        await self._add(of_club(interaction))

    async def _add(self, interaction: Interaction) -> None:
        if self.submit is not None:
            await self.submit(interaction, self.match_id, self.words.value)
            return
        try:
            member = await register(interaction)
            service = interaction.client.service
            outcome = await service.add_luck(self.match_id, request_of(interaction, member, None), self.words.value)
            view = outcome.view
            plays = None
            if view.pending == Pending.PLAY and view.waiting_for is not None:
                plays = await service.legal_plays(view.match_id, view.waiting_for)
        except Exception as error:
            await report(interaction, error, context={"what": "luck", "match": self.match_id})
            return
        if interaction.message is not None:
            edit: dict = {"view": table_components(view, plays)}
            if interaction.message.embeds:  # the challenge's or board's text, naming who added luck now
                edit["embed"] = luck_field(interaction.message.embeds[0], view.luck_text)
                edit["attachments"] = interaction.message.attachments  # the board picture stays
            await interaction.response.edit_message(**edit)
        else:
            await interaction.response.defer(ephemeral=True)
        await interaction.followup.send(luck_words(self.words.value, outcome.message), ephemeral=True)


def luck_field(embed: discord.Embed, text: str) -> discord.Embed:
    """A copy of a board's or challenge's ``embed`` whose *Luck* field says ``text`` (who has added luck to the
    next game's dice, :attr:`club.results.TableView.luck_text`; none when empty)."""
    embed = embed.copy()
    for index in reversed(range(len(embed.fields))):
        if embed.fields[index].name == "Luck":
            embed.remove_field(index)
    return embed.add_field(name="Luck", value=text[:1024], inline=False) if text else embed


def luck_words(words: str, message: str) -> str:
    """The private answer to the luck box: what was added, where it goes, why it protects him."""
    return (f"Your luck is in: “{words.strip()}”. {message} You typed it after the game's commitment was shown, so "
            "the bot could not have chosen the dice against it.")  # fmt: skip
