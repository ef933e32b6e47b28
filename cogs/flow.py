"""The one path every game action takes, from a slash command or a button: acknowledge at once (defer), register the
member, find the match, make **one** use-case call (:func:`club.frontend.perform`), publish the new board
(:class:`cogs.publish.Publisher`, image rendered off the event loop) and answer the member. A refusal becomes an
ephemeral message that says what was wrong and what is possible (an illegal play lists the legal plays); anything
unexpected is logged with its context and the member gets an apology (:mod:`cogs.errors`).

Slash commands are deferred ephemerally (the member's own acknowledgement and any refusal are private; the board is
posted for everyone by the bot in the game's thread). Buttons and the play menu are deferred as a silent update:
a stale button (the game moved on) or another member's button gets a private explanation and changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from backgammon.errors import BackgammonError, NotationError
from club import frontend
from club.requests import Request
from club.results import Outcome
from club.table import TableAction
from club.work import Purpose

from .errors import report, send_private
from .host import Interaction, guild_of, of_club

log = logging.getLogger("bgclub.discord")


async def register(interaction: discord.Interaction, user: discord.abc.User | None = None) -> int:
    """Make ``user`` (default: the member acting) a club member under his current display name; returns his id.
    Any interaction with the club's bot (a chouette's and an event's too)."""
    return await of_club(interaction).client.register_member(guild_of(interaction), user or interaction.user)


def request_of(interaction: discord.Interaction, member: int, version: int | str | None = None) -> Request:
    """The request of ``member`` acting by ``interaction`` (:class:`club.requests.Request`): from its server, on
    the view at ``version``, contributing the interaction's id to his dice (Discord makes it, the bot cannot choose
    it)."""
    return Request(member, guild_id=interaction.guild_id, version=version, contribution=str(interaction.id))


async def _legal(interaction: Interaction, match_id: int | None, member: int) -> list[str] | None:
    if match_id is None:
        return None
    try:
        return await interaction.client.service.legal_plays(match_id, member)
    except BackgammonError:
        return None


def acknowledgement(outcome: Outcome, message: discord.Message | None) -> str:
    """The private answer to a command that worked: what happened and where the board is."""
    text = " ".join(outcome.message.splitlines()[:3]) or "Done."
    if message is not None and getattr(message, "jump_url", None):
        text += f"\nBoard: {message.jump_url}"
    return text


async def _publish(interaction: Interaction, outcome: Outcome, member: int) -> tuple[Any, bool]:
    """Publish the outcome (a fresh home in the member's channel if the game's is gone); returns ``(board message or
    None, whether the member has already been told)`` — told when publishing failed (the action stands)."""
    try:
        message = await interaction.client.publisher.publish(outcome, actor=member, fallback=interaction.channel)
        return message, False
    except Exception as error:
        log.error("could not publish match %s v%s", outcome.match_id, outcome.version, exc_info=error)
        await send_private(
            interaction,
            f"{acknowledgement(outcome, None)}\n(Done — but the board could not be posted here: {error}. "
            "Use /bg board to see it.)",
        )
        return None, True


NOT_FOR_TURN = ("decline", "stop")
"""Slash-command actions that do not need the member's turn (decline also withdraws his own challenge; stop ends a
money session after the game, RULES M1): outside a game's thread they may go to his only open game."""


def board_links(bot, guild_id: int | None):
    """``async (match ids) -> {match id: jump link}`` — a link to the newest board message of each match (the
    lists of ``/bg games`` and of a refusal that names the member's games)."""

    async def links(match_ids: list[int]) -> dict[int, str]:
        """The jump links of ``match_ids`` that have a board message."""
        found = {}
        for match_id in match_ids:
            boards = await bot.service.messages(match_id, purpose=Purpose.BOARD)
            if boards and guild_id:
                last = boards[-1]
                found[match_id] = f"https://discord.com/channels/{guild_id}/{last.channel_id}/{last.message_id}"
        return found

    return links


async def command_action(
    interaction: Interaction, action: str, *, game: int | None = None, value: Any = None
) -> Outcome | None:
    """A slash command's game action (``roll``, ``play`` …, or ``accept``/``decline`` for whatever is offered to
    the member). Without ``game`` outside a game's thread the action goes to the one game waiting for him (the
    game-addressing rule, :func:`club.frontend.choose_game`); none or several: refused privately with the list and
    jump links. Returns the outcome, or None when refused."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    match_id = member = None
    try:
        member = await register(interaction)
        match_id = await frontend.resolve_match(
            bot.service, member, guild_id=interaction.guild_id, given=game, thread=interaction.channel_id,
            for_turn=action not in NOT_FOR_TURN, action=action, links=board_links(bot, interaction.guild_id),
        )  # fmt: skip
        if action in (TableAction.ACCEPT, TableAction.DECLINE):
            action = frontend.answer_action(await bot.service.state(match_id), member, action == TableAction.ACCEPT)
        outcome = await frontend.perform(bot.service, match_id, request_of(interaction, member), action, value)
    except Exception as error:
        legal = await _legal(interaction, match_id, member) if isinstance(error, NotationError) and member else None
        await report(interaction, error, legal=legal, context={"what": f"/bg {action}", "match": match_id,
                                                                "value": value})  # fmt: skip
        return None
    message, told = await _publish(interaction, outcome, member)
    if not told:  # the thinking defer is always completed, board or not
        await send_private(interaction, acknowledgement(outcome, message))
    return outcome


async def component_action(
    interaction: Interaction, match_id: int, version: int, action: str, value: Any = None
) -> Outcome | None:
    """A button press or a menu choice on a board drawn at ``version``: the action if the presser is the member
    concerned and the board is current; otherwise a private explanation and no change."""
    await interaction.response.defer()
    member = None
    try:
        member = await register(interaction)
        request = request_of(interaction, member, version)
        outcome = await frontend.perform(interaction.client.service, match_id, request, action, value)
    except Exception as error:
        legal = await _legal(interaction, match_id, member) if isinstance(error, NotationError) and member else None
        await report(interaction, error, legal=legal, context={"what": f"button {action}", "match": match_id,
                                                                "version": version})  # fmt: skip
        return None
    await _publish(interaction, outcome, member)
    return outcome


def parse_length(text: str | None) -> int:
    """A challenge's length option: empty, ``money`` or 0 → a money session (0); a number of points otherwise.
    Raises :class:`~club.errors.InvalidRequestError`."""
    from club.errors import InvalidRequestError

    if text is None or not text.strip() or text.strip().lower() in ("money", "0", "money session"):
        return 0
    cleaned = text.strip().lower().removesuffix("points").removesuffix("point").removesuffix("pt").strip()
    if not (cleaned.isascii() and cleaned.isdigit()) or len(cleaned) > 4:
        raise InvalidRequestError(f"length is a number of points (1–99) or 'money', not {text!r}")
    return int(cleaned)


async def challenge(
    interaction: Interaction,
    opponent: discord.abc.User,
    *,
    length: str | None,
    rules: str | None,
    stake: int | None,
) -> Outcome | None:
    """``/bg challenge``: the challenge is posted (Accept / Decline / Withdraw, the opponent mentioned) in the club's
    game channel or here; the challenger gets a private acknowledgement."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    try:
        if getattr(opponent, "bot", False):
            from club.errors import InvalidRequestError

            raise InvalidRequestError(f"{opponent.display_name} is a bot: challenge a member of the club")
        member = await register(interaction)
        other = await register(interaction, opponent)
        where = await bot.publisher.challenge_channel(guild_of(interaction), interaction.channel)
        bot.publisher.check_challenge_channel(where)  # before anything is stored
        outcome = await bot.service.challenge(
            guild_of(interaction), member, other, length=parse_length(length), rules=rules, stake=stake or 0
        )
        message = await bot.publisher.post_challenge(outcome, channel=where)
    except Exception as error:
        await report(interaction, error, context={"what": "/bg challenge", "opponent": getattr(opponent, "id", None)})
        return None
    await send_private(interaction, f"{outcome.message}\n{message.jump_url}")
    return outcome


async def rematch(interaction: Interaction, match_id: int) -> Outcome | None:
    """The *Rematch* button of finished match ``match_id``: its player who pressed challenges the other to the same
    length, rules and stake — posted like ``/bg challenge`` (in the club's game channel, else the channel of the
    finished match's thread), the permissions checked first. Anyone else, or a match not over, is refused."""
    from club.correspondence import rematch_terms

    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    try:
        member = await register(interaction)
        terms = await rematch_terms(bot.service, interaction.guild_id, member, match_id)
        origin = interaction.channel
        origin = getattr(origin, "parent", None) or origin if isinstance(origin, discord.Thread) else origin
        where = await bot.publisher.challenge_channel(guild_of(interaction), origin)
        bot.publisher.check_challenge_channel(where)
        outcome = await terms.challenge(bot.service, guild_of(interaction))
        message = await bot.publisher.post_challenge(outcome, channel=where)
    except Exception as error:
        await report(interaction, error, context={"what": "rematch", "match": match_id})
        return None
    await send_private(interaction, f"Rematch: {outcome.message}\n{message.jump_url}")
    return outcome
