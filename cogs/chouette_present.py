"""A chouette outcome as Discord messages (the chouette's counterpart of :mod:`cogs.present`).

The session lives in its channel. Its **board message** holds the board image with the chouette panel (Box,
Partner, Captain and Team in rotation order with every cube), what happened, and a row of buttons per member who
must decide now — each row is that member's own (RULES C5): *Double my cube* / *No double* in the Team's window,
*Take* / *Drop* / *Beaver* (/ *Raccoon*) for Box's offers, Box's *Roll* / *Double all* and his answers, and the
menus (Box's selective double, his mixed answer, the legal plays). When someone new must decide, a new board message
is posted that mentions exactly those members (the previous one loses its buttons); otherwise the board message is
edited in place, so a window of five passes is one message, not five. More than five deciders overflow into a
second message. Posting and editing are :class:`cogs.publish.Publisher`'s (one publisher for the 1-on-1 and the
chouette: the same post-or-edit rule with the chouette's hook, the same overflow rows, the live-message index); this
module only builds the messages. With "no cube, no talk" a private thread holds Box and the members whose cube is
still in the game.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum

import discord

from club.chouette import ChouetteView
from club.chouette.images import board_png_async
from club.chouette.table import Awaited, MemberAction, TablePhase

from .buttons import CHOUETTE_LABELS as LABELS
from .buttons import TableButton, TableMenu
from .present import BoardMessage, mention

log = logging.getLogger("bgclub.discord")

MAX_ROWS = 5


class PanelButton(StrEnum):
    """The chouette buttons that are not a member's action (:class:`~club.chouette.table.MemberAction`): Box's
    doubles of every cube (in rotation order, 003 Atlanta 5.8) and *Add your luck*. Their values are in the buttons'
    ids: old buttons keep working."""

    DOUBLE_ALL = "double_all"
    DOUBLE_ORDER = "double_order"
    LUCK = "luck"


def title(view: ChouetteView) -> str:
    """``Chouette #3 · game 2 · Box Ann vs Captain Bob`` (or the lobby)."""
    if view.phase in (TablePhase.LOBBY, TablePhase.SEATING):
        return f"Chouette #{view.session_id} · waiting for the seat roll"
    if view.phase == TablePhase.CLOSED:
        return f"Chouette #{view.session_id} · over"
    text = f"Chouette #{view.session_id} · game {view.game_number}"
    if view.board_live:
        text += f" · Box {view.name(view.box)} vs {view.team_seat}"
    return text


def seats_text(view: ChouetteView) -> str:
    """The seats in rotation order with each cube (value, state), away members and proxies (RULES C3, C5, C9)."""
    if view.phase == TablePhase.LOBBY:
        names = ", ".join(view.name(m) for m in view.lobby)
        return f"At the table: {names}. Join with /bg chouette join; /bg chouette seat throws for the seats."
    return "\n".join(view.seat_lines(cubes_between=True))


def decisions_text(view: ChouetteView) -> str:
    """Who must decide what, for whom, by when (RULES A2, C9)."""
    lines = []
    for decision in view.decisions:
        whom = "" if decision.actor == decision.subject else f" for {view.name(decision.subject)}"
        due = f" by <t:{int(decision.due_at)}:f>" if decision.due_at else ""
        lines.append(f"{view.name(decision.actor)}{whom} must {decision.words}{due}.")
    return "\n".join(lines)


@dataclass
class ChouetteMessage(BoardMessage):
    """One message ready to send or edit (:class:`cogs.present.BoardMessage`): ``content`` (mentions), ``embed``, the
    PNG, ``components`` the first component view (five rows of deciders, it goes with the message) and ``overflow``
    the others (overflow messages of more deciders)."""

    overflow: list[discord.ui.View]


Component = TableButton | TableMenu
"""A chouette's button or menu."""


def decision_rows(view: ChouetteView) -> list[list[Component]]:
    """A row of components per decision (the member's own buttons; Box's menus get rows of their own)."""
    rows: list[list[Component]] = []
    sid, mark = view.session_id, view.mark

    def button(member: int, cube: str, action: str, label: str) -> TableButton:
        return TableButton.of("c", sid, mark, action, member, cube, label=label)

    def menu(member: int, what: str, options, placeholder: str) -> TableMenu:
        return TableMenu.of("c", sid, mark, what, member, options=options, placeholder=placeholder)

    for decision in view.decisions:
        who = view.name(decision.subject)
        if decision.pending == Awaited.PLAY:
            rows.append([menu(decision.subject, MemberAction.PLAY, (), "Choose your play…")])
            continue
        if decision.pending == Awaited.ROLL:
            buttons: list[Component] = [button(decision.subject, "", MemberAction.ROLL, f"{who}: Roll")]
            several = len(decision.cubes) > 1 and not view.rules.single_cube
            if MemberAction.DOUBLE in decision.actions:
                buttons.append(button(decision.subject, "", MemberAction.DOUBLE, "Double all"))
                if several:
                    buttons.append(button(decision.subject, "", PanelButton.DOUBLE_ORDER,
                                          "Double all, in rotation order (5.8)"))  # fmt: skip
            rows.append(buttons)
            if MemberAction.DOUBLE in decision.actions and several:
                targets = [(view.name(int(k)), k) for k in decision.cubes if k.isdigit()]
                rows.append([menu(decision.subject, MemberAction.DOUBLE, targets, "Double some cubes…")])
            continue
        if decision.pending == Awaited.BOX_ANSWER:
            rows.append([button(decision.subject, "", action, f"Box: {LABELS[action]} all")
                         for action in decision.actions if action in LABELS])  # fmt: skip
            if len(decision.cubes) > 1:
                choices = [(_cube_label(view, key), key) for key in decision.cubes]
                rows.append([menu(decision.subject, MemberAction.TAKE, choices, "Take these, drop the rest…")])
            continue
        doubling = [MemberAction.DOUBLE, MemberAction.PASS]
        actions = doubling if decision.pending == Awaited.DOUBLE else list(decision.actions)
        cubes = list(decision.cubes) if decision.pending == Awaited.DOUBLE and len(decision.cubes) > 1 else [""]
        row: list[Component] = []
        for cube in cubes:
            for action in actions:
                if action == MemberAction.PASS and cube:
                    continue
                label = LABELS.get(action, action)
                if cube:
                    label += f" ({_cube_label(view, cube)})"
                if not row:
                    label = f"{who}: {label}"
                row.append(button(decision.subject, cube, action, label))
        if cubes != [""]:
            row.append(button(decision.subject, "", MemberAction.PASS, LABELS[MemberAction.PASS]))
        rows.append(row[:5])
    return rows


def _cube_label(view: ChouetteView, key: str) -> str:
    if ">" in key:
        giver, taker = key.split(">")
        return f"extra {view.name(int(giver))}→{view.name(int(taker))}"
    return view.name(int(key))


async def components_for(view: ChouetteView, plays: list[str] | None) -> list[discord.ui.View]:
    """The component views of the decisions (five rows each); the play menu filled with ``plays`` (2–25 of them);
    *Add your luck* (for every member, member 0 in its id) while a game's dice wait for the members' luck."""
    rows: list[list[Component]] = []
    shown = decision_rows(view)
    if view.luck_game is not None:
        shown.append([TableButton.of("c", view.session_id, view.mark, PanelButton.LUCK, 0, "", label="Add your luck")])
    for row in shown:
        if isinstance(row[0], TableMenu) and row[0].key.action == MemberAction.PLAY:
            if not plays or len(plays) > 25:
                continue
            key = row[0].key
            row = [TableMenu(key, [(play, play) for play in plays], "Choose your play…")]
        rows.append(row)
    views = []
    for start in range(0, len(rows), MAX_ROWS):
        components = discord.ui.View(timeout=None)
        for number, row in enumerate(rows[start : start + MAX_ROWS]):
            for item in row:
                item.item.row = number
                components.add_item(item)
        views.append(components)
    return views


async def chouette_message(
    bot, view: ChouetteView, text: str = "", *, ping: tuple[int, ...] = (), viewer: int | None = None,
    buttons: bool = True,
) -> ChouetteMessage:  # fmt: skip
    """The message showing ``view``: mentions of ``ping``, the embed (what happened, seats, decisions), the board
    with the panel seen by ``viewer`` (Box sees Box's side), the members' buttons if ``buttons``."""
    embed = discord.Embed(title=title(view)[:256], colour=discord.Colour.dark_teal())
    embed.description = (text.strip() or decisions_text(view) or "—")[:4000]
    seats = seats_text(view)
    if seats:
        embed.add_field(name="Seats", value=seats[:1024], inline=False)
    decisions = decisions_text(view)
    if decisions and text.strip():
        embed.add_field(name="Waiting for", value=decisions[:1024], inline=False)
    embed.set_footer(text=f"{view.rules_text} · mark {view.mark} · v{view.version}"[:2048])
    png, filename = None, f"chouette-{view.session_id}-{view.version}.png"
    if view.board is not None:
        png = await board_png_async(view, viewer, bot.board_options)
        embed.set_image(url=f"attachment://{filename}")
    if view.luck_text:
        embed.add_field(name="Luck", value=view.luck_text[:1024], inline=False)
    components: list[discord.ui.View] = []
    if buttons and (view.decisions or view.luck_game is not None):
        plays = None
        play = next((d for d in view.decisions if d.pending == Awaited.PLAY), None)
        if play is not None:
            plays = (
                list(view.plays)
                if view.plays is not None
                else await bot.chouettes.legal_plays(view.session_id, play.subject)
            )
            if len(plays) > 25:
                embed.add_field(name="Your play", value="Type `/bg chouette move` — the legal plays are suggested.")
        components = await components_for(view, plays)
    if ping:
        content = " ".join(mention(member) for member in ping) + " — your decision: "
        content += "; ".join(
            f"{view.name(d.actor)}{'' if d.actor == d.subject else ' for ' + view.name(d.subject)}: {d.words}"
            for d in view.decisions
            if d.actor in ping
        )
    else:
        waiting = ", ".join(dict.fromkeys(view.name(d.actor) for d in view.decisions))
        content = f"Waiting for {waiting}." if waiting else ""
    return ChouetteMessage(content[:2000], embed, png, filename, components[0] if components else None, components[1:])
