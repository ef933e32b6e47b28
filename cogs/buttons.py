"""One button scheme for every table: the persistent buttons and menus of the 1-on-1 (match or money session) and of
the chouette are one :class:`discord.ui.DynamicItem` family keyed by (kind, table id, staleness stamp, action).

``custom_id``: ``t:<kind>:<id>:<stamp>:<action>[:<arg>…]`` for a button, ``tm:…`` for a menu — ``t:m:12:34:take``
(match 12 at version 34), ``t:m:12:34:more_time:1767225600`` (the *Give 24 h more* of the deadline due then), ``t:c:5:3.7:take:<member>:<cube>`` (chouette 5 at game 3, board turn 7, that member's
cube; empty cube = all of his), ``tm:m:12:34:play``, ``tm:c:5:3.7:take:<member>``, ``t:e:3:41:award_a:7`` (event 3
at version 41, the organiser's decision on its 8th pairing). Everything is in the id, so the
bot needs no memory of the message and every posted button works after a restart (``bot.add_dynamic_items(*ITEMS)``).

The per-table differences are hooks of a :class:`TableKind` (:data:`KINDS`), not harmonised away: the **staleness
stamp** (a match's version, checked by ``StaleVersionError`` on equality; a chouette's mark ``<game>.<turn>``, since
Team members act concurrently within a turn), how many arguments an id carries, the default label and style of an
action, and what a press does (:func:`cogs.flow.component_action`, :func:`cogs.chouette.press`). A forged id (an
unknown kind, a stamp of the wrong shape, the wrong arguments) is refused privately and changes nothing; a stale one
is refused by the use-case ("Already done").

The templates of before this scheme stay registered (:data:`LEGACY`: ``bg:<match>:<version>:<action>``,
``bgplay:<match>:<version>``, ``ch:<sid>:<mark>:<member>:<cube>:<action>``, ``chs:<sid>:<mark>:<member>:<what>``,
``bgrematch:<match>``, ``bgc:<match>:<version>:<action>``):
a button already posted is rebuilt into this scheme and works as it did.
"""

from __future__ import annotations

import re
import types
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import discord

from backgammon.game import Action
from club.clocks import Claim
from club.errors import InvalidRequestError
from club.frontend import ACTION_LABELS

from .errors import report
from .host import Interaction, of_club

NUMBER = r"[0-9]{1,19}"
VERSION = re.compile(r"[0-9]{1,12}")
MARK = re.compile(r"[0-9]{1,6}\.[0-9]{1,6}")
_TAIL = (
    r"(?P<kind>[a-z]):(?P<id>[0-9]{1,19}):(?P<stamp>[0-9]{1,12}(?:\.[0-9]{1,6})?):(?P<action>[a-z_]{2,24})"
    r"(?P<args>(?::[0-9>]{0,41}){0,2})"
)
BUTTON_TEMPLATE = "t:" + _TAIL
MENU_TEMPLATE = "tm:" + _TAIL
FORGED = "This button is not one the bot drew: use the buttons of the newest board."
"""The private refusal of a component whose id the bot never draws."""


@dataclass(frozen=True, slots=True)
class Key:
    """What a component carries: ``kind`` (a key of :data:`KINDS`), ``table_id`` (match or chouette id: they
    overlap, so the kind is part of the key), ``stamp`` (the table's staleness token: a version or a mark),
    ``action`` (a button's action; a menu's ``play``/``double``/``take``) and ``args`` (the chouette's member and
    cube)."""

    kind: str
    table_id: int
    stamp: str
    action: str
    args: tuple[str, ...] = ()

    def custom_id(self, prefix: str) -> str:
        """The ``custom_id`` under ``prefix`` (``t`` for a button, ``tm`` for a menu)."""
        return ":".join((prefix, self.kind, str(self.table_id), self.stamp, self.action, *self.args))

    @classmethod
    def of(cls, match: re.Match[str]) -> Key:
        """The key of a ``custom_id`` matched by :data:`BUTTON_TEMPLATE` or :data:`MENU_TEMPLATE`."""
        args = tuple(match["args"].split(":")[1:]) if match["args"] else ()
        return cls(match["kind"], int(match["id"]), match["stamp"], match["action"], args)


class TableKind:
    """The hooks of one kind of table (see the module docstring). Subclasses set ``code``, ``stamp`` (the pattern
    of the staleness token), ``button_args``/``menu_args`` (how many arguments an id carries) and implement
    :meth:`press`."""

    code = ""
    stamp: re.Pattern[str] = VERSION
    button_args = 0
    menu_args = 0
    labels: dict[str, str] = {}
    styles: dict[str, discord.ButtonStyle] = {}

    def check(self, key: Key, menu: bool) -> None:
        """Raise :class:`InvalidRequestError` unless ``key`` has this kind's shape (a forged or garbled id)."""
        if not self.stamp.fullmatch(key.stamp) or len(key.args) != (self.menu_args if menu else self.button_args):
            raise InvalidRequestError(FORGED)

    def look(self, action: str) -> tuple[str, discord.ButtonStyle]:
        """The default label and style of ``action``'s button."""
        label = self.labels.get(action) or action.replace("_", " ").capitalize()
        return label, self.styles.get(action, discord.ButtonStyle.secondary)

    async def press(self, interaction: Interaction, key: Key, values: list[str], item: Any) -> None:
        """Do what the component ``key`` stands for, pressed in ``interaction`` (``values``: a menu's choice;
        ``item``: the rebuilt component): the press its cog registered (:data:`PRESSES`)."""
        await PRESSES[self.code](interaction, key, values, item)


Press = Callable[[Interaction, Key, list[str], Any], Awaitable[None]]
"""``press(interaction, key, values, item)``: what pressing a component of one kind does (see
:meth:`TableKind.press`)."""

PRESSES: dict[str, Press] = {}
"""What a press does, by kind code — ``m`` (:mod:`cogs.bg`), ``c`` (:mod:`cogs.chouette`), ``e`` (:mod:`cogs.event`):
each kind's cog registers its own (:func:`on_press`) when it is imported, so that this module, which they all
import, imports none of them. A kind whose cog is not loaded has no buttons that work (refused as not drawn)."""


def on_press(code: str) -> Callable[[Press], Press]:
    """Decorator: ``press`` is what a component of kind ``code`` does (:data:`PRESSES`); returns it unchanged."""

    def decorate(press: Press) -> Press:
        """Register ``press`` for kind ``code``."""
        PRESSES[code] = press
        return press

    return decorate


CLAIMS = tuple(Claim)
"""The claim buttons of a match's deadline notice."""


class MatchButton(StrEnum):
    """The 1-on-1 buttons that are not a game or table action: *Rematch* (once the match is over) and *Add your
    luck*. Their values are in the buttons' ids: old buttons keep working."""

    REMATCH = "rematch"
    LUCK = "luck"


MATCH_STYLES = {
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
"""The style of each action's button on a 1-on-1's board, in the order they are shown (:mod:`cogs.components`)."""

CLAIM_LABELS: dict[str, str] = {
    Claim.CLAIM_GAME: "Claim the game",
    Claim.CLAIM_MATCH: "Claim the match",
    Claim.MORE_TIME: "Give 24 h more",
}
CLAIM_STYLES: dict[str, discord.ButtonStyle] = {
    Claim.CLAIM_GAME: discord.ButtonStyle.danger,
    Claim.CLAIM_MATCH: discord.ButtonStyle.danger,
    Claim.MORE_TIME: discord.ButtonStyle.success,
}
"""The labels and styles of a deadline notice's claim buttons (:mod:`cogs.player`)."""

CHOUETTE_LABELS = {
    "double": "Double my cube",
    "pass": "No double",
    "take": "Take",
    "drop": "Drop",
    "beaver": "Beaver",
    "raccoon": "Raccoon",
    "offer_extra": "Offer an extra",
    "no_extra": "No extra",
    "roll": "Roll",
}
CHOUETTE_STYLES = {
    "double": discord.ButtonStyle.primary,
    "pass": discord.ButtonStyle.secondary,
    "take": discord.ButtonStyle.success,
    "drop": discord.ButtonStyle.danger,
    "beaver": discord.ButtonStyle.primary,
    "raccoon": discord.ButtonStyle.primary,
    "offer_extra": discord.ButtonStyle.primary,
    "no_extra": discord.ButtonStyle.secondary,
    "roll": discord.ButtonStyle.primary,
    "double_all": discord.ButtonStyle.secondary,
    "double_order": discord.ButtonStyle.secondary,
}
"""The labels and styles of a chouette's decision buttons (:mod:`cogs.chouette_present`)."""


class MatchKind(TableKind):
    """A match or money session: the stamp is the table's version (a press drawn for another version is stale)."""

    code = "m"
    stamp = VERSION

    def check(self, key: Key, menu: bool) -> None:
        """As :meth:`TableKind.check`; *Give 24 h more* may also carry the deadline's due time (whole Unix s)."""
        if key.action == Claim.MORE_TIME and not menu and len(key.args) == 1 and key.args[0].isdigit():
            key = Key(key.kind, key.table_id, key.stamp, key.action)
        super().check(key, menu)

    def look(self, action: str) -> tuple[str, discord.ButtonStyle]:
        """The label and style of the 1-on-1's buttons (:data:`club.frontend.ACTION_LABELS`, the claim buttons',
        *Rematch*)."""
        labels: dict[str, str] = {
            **ACTION_LABELS,
            **CLAIM_LABELS,
            MatchButton.REMATCH: "Rematch",
            MatchButton.LUCK: "Add your luck",
        }
        styles: dict[str, discord.ButtonStyle] = {
            **MATCH_STYLES,
            **CLAIM_STYLES,
            MatchButton.REMATCH: discord.ButtonStyle.primary,
        }
        return labels.get(action, action.replace("_", " ").capitalize()), styles.get(
            action, discord.ButtonStyle.secondary
        )


class ChouetteKind(TableKind):
    """A chouette: the stamp is the mark ``<game>.<turn>``; a button carries the member whose decision it is and
    the cube (empty: all of his), a menu the member."""

    code = "c"
    stamp = MARK
    button_args = 2
    menu_args = 1

    def look(self, action: str) -> tuple[str, discord.ButtonStyle]:
        """The label and style of the chouette's buttons."""
        label = CHOUETTE_LABELS.get(action, action.replace("_", " ").capitalize())
        return label, CHOUETTE_STYLES.get(action, discord.ButtonStyle.secondary)


class EventKind(TableKind):
    """A club event's decision for its organiser (:mod:`cogs.event`): the stamp is the event's version when the
    buttons were drawn (informative: a decision already made is refused by the use-case), the argument the
    pairing's number in the event's log; actions ``award_a``, ``award_b``, ``replay``, ``both_out``."""

    code = "e"
    stamp = VERSION
    button_args = 1
    styles = {"award_a": discord.ButtonStyle.primary, "award_b": discord.ButtonStyle.primary,
              "both_out": discord.ButtonStyle.danger}  # fmt: skip


KINDS: dict[str, TableKind] = {kind.code: kind for kind in (MatchKind(), ChouetteKind(), EventKind())}
"""The table kinds by their code in the ``custom_id``."""


def _sent(interaction: discord.Interaction) -> Mapping[str, object]:
    """The component's data as the client sent it: each field is read with its type checked (a client may send what
    it likes)."""
    return interaction.data or {}


async def _press(interaction: Interaction, item: TableButton | TableMenu, values: list[str]) -> None:
    kind = KINDS.get(item.key.kind)
    try:
        if kind is None or kind.code not in PRESSES:
            raise InvalidRequestError(FORGED)
        kind.check(item.key, isinstance(item, TableMenu))
    except InvalidRequestError as error:
        await interaction.response.defer()
        await report(interaction, error, context={"what": "button", "custom_id": item.custom_id})
        return
    await kind.press(interaction, item.key, values, item)


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """One decision on one table at one stamp: ``t:<kind>:<id>:<stamp>:<action>[:<arg>…]``."""

    def __init__(self, key: Key, label: str | None = None, style: discord.ButtonStyle | None = None) -> None:
        kind = KINDS.get(key.kind)
        default_label, default_style = kind.look(key.action) if kind else (key.action, discord.ButtonStyle.secondary)
        super().__init__(
            discord.ui.Button(
                label=(label or default_label)[:80], style=style or default_style, custom_id=key.custom_id("t")
            )  # fmt: skip
        )
        self.key = key

    @classmethod
    def of(cls, kind: str, table_id: int, stamp: int | str, action: str, *args: Any, label: str | None = None):
        """The button for ``action`` on table ``table_id`` of ``kind`` at ``stamp`` (``args``: the kind's)."""
        return cls(Key(kind, table_id, str(stamp), action, tuple(str(a) for a in args)), label)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        """Rebuild the button from its ``custom_id`` (after a restart too), keeping the label it was drawn with.
        Raises TypeError if ``item`` is not a button (discord.py logs it and drops the interaction)."""
        return cls.rebuild(Key.of(match), item)

    @classmethod
    def rebuild(cls, key: Key, item: discord.ui.Item[Any]) -> TableButton:
        """The button of ``key`` as the message's ``item`` shows it (its label and style); TypeError if ``item`` is
        not a button (a client may send a button's id on another component)."""
        if not isinstance(item, discord.ui.Button):
            raise TypeError(f"the button {key.custom_id('t')!r} came on a {type(item).__name__}")
        return cls(key, item.label, item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Check the id against its kind's shape, then the kind's :meth:`TableKind.press`."""
        await _press(of_club(interaction), self, [])


class TableMenu(discord.ui.DynamicItem[discord.ui.Select], template=MENU_TEMPLATE):
    """A menu on one table at one stamp: ``tm:<kind>:<id>:<stamp>:<what>[:<arg>…]`` — the legal plays (``play``),
    the cubes Box doubles (``double``) or takes, dropping the rest (``take``); ``several``: more than one choice."""

    def __init__(self, key: Key, options: Sequence[tuple[str, str]], placeholder: str = "Choose…",
                 several: bool = False) -> None:  # fmt: skip
        choices = [discord.SelectOption(label=str(label)[:100], value=str(value)[:100]) for label, value in options]
        super().__init__(
            discord.ui.Select(
                custom_id=key.custom_id("tm"),
                placeholder=placeholder,
                options=choices[:25] or [discord.SelectOption(label="pass", value="pass")],
                min_values=1,
                max_values=max(1, min(25, len(choices))) if several else 1,
            )
        )
        self.key = key

    @classmethod
    def of(cls, kind: str, table_id: int, stamp: int | str, what: str, *args: Any, options=(), placeholder=None):
        """The menu ``what`` on table ``table_id`` of ``kind`` at ``stamp`` with ``options`` (label, value)."""
        key = Key(kind, table_id, str(stamp), what, tuple(str(a) for a in args))
        return cls(key, list(options), placeholder or "Choose…", several=what != Action.PLAY)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableMenu:
        """Rebuild the menu from its ``custom_id`` and the message's options. Raises TypeError if ``item`` is not a
        menu (discord.py logs it and drops the interaction)."""
        return cls.rebuild(Key.of(match), item)

    @classmethod
    def rebuild(cls, key: Key, item: discord.ui.Item[Any]) -> TableMenu:
        """The menu of ``key`` with the options, placeholder and number of choices of the message's ``item``;
        TypeError if ``item`` is not a menu (a client may send a menu's id on another component)."""
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"the menu {key.custom_id('tm')!r} came on a {type(item).__name__}")
        options = [(option.label, option.value) for option in item.options]
        return cls(key, options, item.placeholder or "Choose…", several=item.max_values > 1)

    async def callback(self, interaction: discord.Interaction) -> None:
        """The chosen values (as Discord sends them) to the kind's :meth:`TableKind.press`."""
        values = _sent(interaction).get("values")
        await _press(of_club(interaction), self, [str(value) for value in values] if isinstance(values, list) else [])


# -- the templates of before this scheme (buttons already posted) -----------------------------------------------------
def _legacy(
    name: str, scheme: type[TableButton] | type[TableMenu], template: str, doc: str, defaults: dict[str, str]
) -> type[discord.ui.DynamicItem[Any]]:
    """A DynamicItem class for an old ``template`` whose ``from_custom_id`` rebuilds the component as ``scheme``
    (:class:`TableButton` or :class:`TableMenu`) with the key read from the old id's groups (``id``, ``stamp``,
    ``action``; a chouette's ``member`` and ``cube``) or ``defaults``."""

    def key_of(match: re.Match[str]) -> Key:
        found = {**defaults, **match.groupdict()}
        args = tuple(found[group] for group in ("member", "cube") if group in found)
        return Key("c" if args else "m", int(found["id"]), found["stamp"], found["action"], args)

    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton | TableMenu:
        return scheme.rebuild(key_of(match), item)

    from_custom_id.__doc__ = f"The {scheme.__name__} of the same component (its key from the old id)."

    def body(namespace: dict[str, Any]) -> None:
        namespace.update(__doc__=doc, __module__=__name__, from_custom_id=classmethod(from_custom_id))

    base: type = (
        discord.ui.DynamicItem[discord.ui.Button]
        if scheme is TableButton
        else discord.ui.DynamicItem[discord.ui.Select]
    )
    made = types.new_class(name, (base,), {"template": template}, body)
    assert issubclass(made, discord.ui.DynamicItem)  # its base is one
    return made


_MATCH, _VERSION = r"(?P<id>[0-9]{1,19})", r"(?P<stamp>[0-9]{1,12})"
_SEAT = r"(?P<id>[0-9]{1,10}):(?P<stamp>[0-9]{1,6}\.[0-9]{1,6}):(?P<member>[0-9]{1,20}):"
_OLD = {  # name: (rebuilt as, template, what it was, defaults of the groups it lacks)
    "GameButton": (TableButton, f"bg:{_MATCH}:{_VERSION}:(?P<action>[a-z_]{{2,24}})", "The 1-on-1 button", {}),
    "PlaySelect": (TableMenu, f"bgplay:{_MATCH}:{_VERSION}", "The play menu", {"action": "play"}),
    "ChouetteButton": (TableButton, f"ch:{_SEAT}(?P<cube>[0-9>]{{0,41}}):(?P<action>[a-z_]{{2,14}})", "The chouette button", {}),
    "ChouetteSelect": (TableMenu, f"chs:{_SEAT}(?P<action>play|double|take)", "The chouette menu", {}),
    "RematchButton": (TableButton, f"bgrematch:{_MATCH}", "The *Rematch* button", {"stamp": "0", "action": MatchButton.REMATCH}),
    "ClaimButton": (TableButton, f"bgc:{_MATCH}:{_VERSION}:(?P<action>claim_game|claim_match|more_time)", "The claim button", {}),
}  # fmt: skip
LEGACY = tuple(
    _legacy(
        name,
        scheme,
        template,
        f"{what} of before the scheme, ``{template}``, as a :class:`{scheme.__name__}`.",
        default,
    )
    for name, (scheme, template, what, default) in _OLD.items()
)
"""The old templates, still registered so that buttons already posted keep working."""
GameButton, PlaySelect, ChouetteButton, ChouetteSelect, RematchButton, ClaimButton = LEGACY

ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TableButton, TableMenu, *LEGACY)
"""Every dynamic item of the scheme (``bot.add_dynamic_items(*ITEMS)``)."""


async def refuse_unknown(interaction: discord.Interaction) -> None:
    """The listener of every interaction (``bot.add_listener(refuse_unknown, "on_interaction")``): a button or menu
    whose ``custom_id`` matches none of :data:`ITEMS`' templates (``t:m::1:roll``: a client sending what it likes)
    reaches no handler in discord.py, so it is refused here, privately; nothing is read or stored."""
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id = str(_sent(interaction).get("custom_id", ""))
    if any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in ITEMS):
        return
    from .errors import report

    await interaction.response.defer()
    await report(interaction, InvalidRequestError(FORGED), context={"what": "button", "custom_id": custom_id[:100]})
