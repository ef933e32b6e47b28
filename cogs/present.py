"""An outcome (or a table's state) as a Discord message, in one place: the mention of whoever must act, an embed
with what happened (plays in standard notation), the board image (rendered off the event loop) and the components
for exactly the actions possible now."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import discord

from backgammon.cube import cube_text
from club.boards import BoardOptions, awaiting_text, render_table_async
from club.frontend import MAX_CHOICES
from club.results import TableView
from club.service import ClubService
from club.table import MatchKind, MatchStatus, Pending

from .components import table_components

COLOURS = {
    "challenged": discord.Colour.gold(),
    "active": discord.Colour.blurple(),
    "over": discord.Colour.green(),
    "declined": discord.Colour.dark_grey(),
    "cancelled": discord.Colour.dark_grey(),
    "expired": discord.Colour.dark_grey(),
}
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def mention(member_id: int) -> str:
    """``<@id>``: a Discord user mention (it pings when posted, not when edited)."""
    return f"<@{member_id}>"


def title(view: TableView) -> str:
    """``Match #12 · Alice vs Bob · 5-point match`` (or ``money session``)."""
    what = (
        "money session" + (f", stake {view.stake}" if view.stake else "")
        if view.kind == MatchKind.MONEY
        else (f"{view.length}-point match")
    )
    return f"Match #{view.match_id} · {view.names[0]} vs {view.names[1]} · {what}"


def score_line(view: TableView) -> str:
    """``Game 3 · Alice 2 – Bob 1 · Crawford game``; in a money session with add-one automatic doubles the cube
    and its factor (``· cube 1 ×4 (automatic doubles)``, RULES D6, G3)."""
    if view.kind == MatchKind.MONEY:
        score = f"{view.names[0]} {view.score[0]:+d} · {view.names[1]} {view.score[1]:+d}"
    else:
        score = f"{view.names[0]} {view.score[0]} – {view.names[1]} {view.score[1]}"
    text = f"Game {view.game_number} · {score}" if view.game_number else score
    if view.game is not None and view.game.crawford:
        text += " · Crawford game (no doubling)"
    if view.game is not None and view.game.cube_factor != 1:  # RULES D6: the add-one factor beside the cube
        text += f" · cube {cube_text(view.game.cube_value, view.game.cube_factor)}"
    return text


def status_line(view: TableView) -> str:
    """Who must do what now (with a mention), or how the match ended."""
    if view.waiting_for is not None:
        text = f"{mention(view.waiting_for)} {view.name_of(view.waiting_for)}, {awaiting_text(view)}".rstrip(", ")
        if view.due_at:
            text += f" (by <t:{int(view.due_at)}:f>)"
        return text
    if view.status == MatchStatus.OVER:
        both = " ".join(mention(player) for player in view.players)
        if view.kind == MatchKind.MATCH and view.winner is not None:
            w = view.winner
            return f"{both} {view.names[w]} wins the match {view.score[w]}–{view.score[1 - w]}."
        return f"{both} The session is over: {view.names[0]} {view.score[0]:+d}, {view.names[1]} {view.score[1]:+d}."
    if view.status in (MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED):
        return f"{mention(view.players[0])} The challenge was {view.status}."
    return ""


@dataclass
class BoardMessage:
    """One message ready to send or edit: ``content`` (the mention line), ``embed``, the PNG (``png``,
    ``filename``) and ``components`` (None = none)."""

    content: str
    embed: discord.Embed
    png: bytes | None
    filename: str
    components: discord.ui.View | None

    def file(self) -> discord.File | None:
        """A fresh :class:`discord.File` of the image (a File can be sent only once)."""
        return None if self.png is None else discord.File(io.BytesIO(self.png), filename=self.filename)

    @property
    def shown(self) -> discord.ui.View | None:
        """The components that go with this message (the hook of :class:`cogs.chouette_present.ChouetteMessage`,
        whose further ones go to overflow messages)."""
        return self.components

    def send_kwargs(self, *, ephemeral: bool = False) -> dict[str, Any]:
        """Keyword arguments for ``channel.send`` / ``followup.send``."""
        kwargs: dict[str, Any] = {"content": self.content, "embed": self.embed, "allowed_mentions": MENTIONS}
        file = self.file()
        if file is not None:
            kwargs["file"] = file
        if self.shown is not None:
            kwargs["view"] = self.shown
        if ephemeral:
            kwargs["ephemeral"] = True
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``message.edit`` (the image replaced, the components replaced or removed)."""
        file = self.file()
        return {
            "content": self.content,
            "embed": self.embed,
            "attachments": [file] if file is not None else [],
            "view": self.shown,
            "allowed_mentions": MENTIONS,
        }


async def board_message(
    service: ClubService,
    view: TableView,
    text: str = "",
    *,
    viewer: int | None = None,
    options: BoardOptions | None = None,
    buttons: bool = True,
) -> BoardMessage:
    """The message showing ``view``: ``text`` (what happened) in the embed, the board seen by ``viewer`` (default:
    the member who must act), the mention line and — if ``buttons`` — the components for what he may do now."""
    viewer = view.waiting_for if viewer is None else viewer
    embed = discord.Embed(title=title(view)[:256], colour=COLOURS.get(view.status, discord.Colour.blurple()))
    description = text.strip() or awaiting_text(view)
    embed.description = description[:4000]
    embed.set_footer(text=f"{score_line(view)} · v{view.version}"[:2048])
    png = None
    filename = f"board-{view.match_id}-{view.version}.png"
    if view.game is not None:
        png = await render_table_async(view, viewer, options)
        embed.set_image(url=f"attachment://{filename}")
    if view.status == MatchStatus.CHALLENGED:
        embed.add_field(name="Rules", value=view.rules_text[:1024] or "-", inline=False)
    if view.luck_text:
        embed.add_field(name="Luck", value=view.luck_text[:1024], inline=False)
    plays = None
    if buttons and view.pending == Pending.PLAY and view.waiting_for is not None:
        plays = (
            list(view.plays) if view.plays is not None else await service.legal_plays(view.match_id, view.waiting_for)
        )
    components = table_components(view, plays) if buttons else None
    if view.pending == Pending.PLAY and view.waiting_for is not None and (plays is None or len(plays) > MAX_CHOICES):
        embed.add_field(name="Your play", value="Type `/bg move` — the legal plays are suggested as you type.")
    return BoardMessage(status_line(view)[:2000], embed, png, filename, components)
