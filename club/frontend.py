"""What every front end shares (the Discord cogs, the console): one use-case call by name, which game a member
means when he names none, the legal plays filtered by what he typed, errors in words, and the texts of the
read-only commands (games, rules, the dice proof). No Discord types: the console and the cogs call exactly this.

Actions (:data:`ACTIONS`) are the names of the :class:`~club.service.ClubService` use-cases a button or a command
triggers; :func:`perform` makes the call. ``accept``/``decline`` answer whatever is offered to the member — a
challenge or a resignation (RULES G12) — see :func:`answer_action`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from backgammon.game import Action
from backgammon.moves import Play

from .describe import shorten
from .dice_check import ATTACHED, DiceProof, dice_proof  # noqa: F401 (re-exported: /bg verify, the console's verify)
from .errors import InvalidRequestError, NotAPlayerError, NotNowError
from .requests import Request, as_request
from .results import Outcome, TableView
from .scope import _is_id, in_club, record_in_club
from .service import ClubService, HistoryItem, WaitingItem
from .table import MatchKind, MatchStatus, Pending, TableAction
from .wording import (  # noqa: F401 (re-exported: the front ends call frontend.explain, frontend.filter_plays)
    MAX_CHOICES,
    MAX_CLOSEST,
    MAX_MESSAGE,
    MAX_PLAYS_SHOWN,
    clip,
    closest_plays,
    explain,
    filter_plays,
    is_refusal,
    plural,
)

ACTIONS = (
    "accept",
    "decline",
    "cancel",
    "roll",
    "play",
    "double",
    "take",
    "drop",
    "beaver",
    "raccoon",
    "resign",
    "accept_resignation",
    "reject_resignation",
    "stop",
)
"""The use-cases a member can trigger (names of :class:`~club.service.ClubService` methods)."""

RESIGN_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}
"""Resignation levels by name (RULES G12)."""

ACTION_LABELS = {
    "accept": "Accept",
    "decline": "Decline",
    "cancel": "Withdraw",
    "roll": "Roll",
    "double": "Double",
    "take": "Take",
    "drop": "Drop",
    "beaver": "Beaver",
    "raccoon": "Raccoon",
    "accept_resignation": "Accept resignation",
    "reject_resignation": "Reject resignation",
    "stop": "Stop after this game",
}
"""Button labels of the actions (``play`` and ``resign`` need an argument: a menu or a command)."""


async def perform(
    service: ClubService,
    match_id: int,
    member: int | Request,
    action: str,
    value: str | Play | int | None = None,
    *,
    version: int | None = None,
    guild_id: int | None = None,
) -> Outcome:
    """Call the use-case ``action`` (one of :data:`ACTIONS`) for ``member`` (his :class:`~club.requests.Request`:
    his server, the version he saw, his dice contribution; a bare id: nothing else known) on match ``match_id``;
    ``value`` is the play for ``play`` (notation or a legal Play) and the level 1/2/3 for ``resign`` (default 1).
    ``version`` and ``guild_id``: the view the member acted on and his server, when the request does not say (a
    stale view raises :class:`~club.errors.StaleVersionError`). The use-case checks the club: a match of another
    server is unknown there (RULES A2).

    Raises :class:`~club.errors.InvalidRequestError` for an unknown action, :class:`~club.errors.UnknownGameError`,
    and whatever the use-case raises."""
    if action not in ACTIONS:
        raise InvalidRequestError(f"unknown action {action!r}; actions are: {', '.join(ACTIONS)}")
    request = as_request(member, version)
    if guild_id is not None and request.guild_id is None:
        request = replace(request, guild_id=guild_id)
    if action == Action.PLAY:
        if value is None or isinstance(value, int):
            raise InvalidRequestError("say which play, e.g. 24/18 13/11")
        return await service.play(match_id, request, value)
    if action == Action.RESIGN:
        level = 1 if value is None else value
        if not isinstance(level, int):
            raise InvalidRequestError(
                f"a resignation is of level 1 (single), 2 (gammon) or 3 (backgammon), not {level!r}"
            )
        return await service.resign(match_id, request, level)
    return await getattr(service, action)(match_id, request)


def answer_action(view: TableView, member: int, yes: bool) -> str:
    """The use-case that "accept" (``yes``) or "decline" means for ``member`` now: the challenge
    (``accept``/``decline``) or a resignation (``accept_resignation``/``reject_resignation``, RULES G12).
    Raises :class:`~club.errors.NotAPlayerError` or :class:`~club.errors.NotNowError` (saying what is awaited)."""
    if view.side_of(member) is None:
        raise NotAPlayerError(
            f"You do not play in match {view.match_id}: it is {view.names[0]} against {view.names[1]}."
        )
    if view.pending == Pending.ANSWER_CHALLENGE and view.waiting_for == member:
        return "accept" if yes else "decline"
    if view.pending == Pending.ANSWER_RESIGNATION and view.waiting_for == member:
        return "accept_resignation" if yes else "reject_resignation"
    if view.status == MatchStatus.CHALLENGED and not yes and view.players[0] == member:
        return "cancel"
    offer = "challenge or resignation"
    if view.waiting_for == member:
        raise NotNowError(
            f"There is no {offer} for you to answer in match {view.match_id}: you must {view.pending_text}."
        )
    who = view.name_of(view.waiting_for) if view.waiting_for is not None else "nobody"
    raise NotNowError(f"There is no {offer} for you to answer in match {view.match_id} ({who} is to act).")


def resign_level(text: str | int | None) -> int:
    """A resignation level from ``single``/``gammon``/``backgammon`` or 1/2/3 (default single, RULES G12);
    raises :class:`~club.errors.InvalidRequestError` otherwise."""
    if text is None or text == "":
        return 1
    if isinstance(text, int) and not isinstance(text, bool) and text in (1, 2, 3):
        return text
    level = RESIGN_LEVELS.get(str(text).strip().lower())
    if level is None:
        raise InvalidRequestError(f"resign single, gammon or backgammon, not {text!r}")
    return level


# -- which game ---------------------------------------------------------------------------------------------------------
def time_left(due_at: float | None, now: float | None) -> str:
    """``"21.5 h left"`` / ``"2.0 h overdue"`` for a deadline, or ``""`` without one."""
    if due_at is None or now is None:
        return ""
    hours = (due_at - now) / 3600
    return f"{hours:.1f} h left" if hours >= 0 else f"{-hours:.1f} h overdue"


def describe_item(
    item: WaitingItem | HistoryItem,
    member_waiting: bool,
    *,
    link: str | None = None,
    due_at: float | None = None,
    now: float | None = None,
) -> str:
    """One line for a match in a list: ``#12 vs Bob · 5-point match 2–1 · your turn: play · 21.5 h left · <link>``
    (whose turn it is, the time left on the clock and a link to the board message when known)."""
    what = "money session" if item.kind == MatchKind.MONEY else f"{item.length}-point match"
    score = (
        f"{item.score[0]:+d}/{item.score[1]:+d}" if item.kind == MatchKind.MONEY else f"{item.score[0]}–{item.score[1]}"
    )
    text = f"#{item.match_id} vs {item.opponent_name} · {what} {score}"
    if member_waiting and isinstance(item, WaitingItem):
        text += f" · your turn: {item.pending_text}"
        due_at = item.due_at if due_at is None else due_at
    elif isinstance(item, HistoryItem):
        text += (
            f" · {item.opponent_name}'s turn" if item.status == MatchStatus.ACTIVE else " · challenge not answered yet"
        )
    left = time_left(due_at, now)
    if left:
        text += f" · {left}"
    if link:
        text += f" · {link}"
    return text


async def open_games(
    service: ClubService, member: int, guild_id: int | None
) -> tuple[list[WaitingItem], list[HistoryItem]]:
    """The member's matches waiting for him, and his other open ones (active or challenged, waiting for the
    opponent), newest first — his practice games against the engine (:mod:`club.practice`) included."""
    waiting = await service.waiting(member, guild_id=guild_id)
    history = await service.history(member, guild_id=guild_id, limit=100)
    if guild_id is not None:  # the server's practice room (without a guild every club is searched already)
        waiting += await service.waiting(member, guild_id=guild_id, practice=True)
        history += await service.history(member, guild_id=guild_id, limit=100, practice=True)
    mine = {item.match_id for item in waiting}
    live = (MatchStatus.ACTIVE, MatchStatus.CHALLENGED)
    others = [item for item in history if item.status in live and item.match_id not in mine]
    return waiting, others


Key = TypeVar("Key")
"""What a front end names a game by (a match id; the console's target)."""


@dataclass(frozen=True, slots=True)
class GameChoice(Generic[Key]):
    """One game a member could mean: ``key`` (a match id, or whatever the front end uses to find it again),
    ``label`` (one line for a list, see :func:`describe_item`), ``waiting`` (it waits for him to act now) and
    ``pending`` (what it waits for: a match's pending action; None when not known, as for a chouette)."""

    key: Key
    label: str
    waiting: bool
    pending: str | None = None


_ANSWERS = (Pending.ANSWER_CHALLENGE, Pending.ANSWER_RESIGNATION)
_CUBE_ANSWERS = (Pending.ANSWER_DOUBLE, Pending.ANSWER_BEAVER, Pending.ANSWER_RACCOON)
ACTION_PENDINGS: dict[str, tuple[Pending, ...]] = {
    TableAction.ACCEPT: _ANSWERS,
    TableAction.DECLINE: _ANSWERS,
    Action.ROLL: (Pending.ROLL, Pending.ROLL_OR_DOUBLE),
    Action.DOUBLE: (Pending.ROLL_OR_DOUBLE,),
    Action.TAKE: _CUBE_ANSWERS,
    Action.DROP: _CUBE_ANSWERS,
    Action.BEAVER: (Pending.ANSWER_DOUBLE,),
    Action.RACCOON: (Pending.ANSWER_BEAVER,),
    Action.PLAY: (Pending.PLAY,),
}
"""The pending actions of a match where each game action can be done (:func:`choose_game` narrows by them)."""


def choose_game(
    choices: Sequence[GameChoice[Key]],
    *,
    for_turn: bool,
    how: str = "say which one with game: (its number)",
    action: str | None = None,
) -> Key:
    """The game a member means when he names none — the game-addressing rule of every front end (the console,
    and Discord outside a game's thread). Returns the chosen ``key``.

    - an action that needs his turn (``for_turn``: roll, move, double, take, drop, accept, resign …) goes to **the one
      game waiting for him**; with none or several waiting it is refused, listing his games — never "the last one
      named", so an action cannot land in the wrong game; of several, the one where ``action`` can be done at all
      (:data:`ACTION_PENDINGS`: ``accept`` with one challenge among games at their roll) is meant;
    - a command that does not need his turn (board, rules, export, withdraw, stop …) goes to the one game waiting
      for him, else to his only open game.

    ``how`` tells him how to name one (e.g. ``say which one, e.g. withdraw 2``). Raises
    :class:`InvalidRequestError` with the list (at most 10 lines), games waiting for him first."""
    waiting = [choice for choice in choices if choice.waiting]
    if len(waiting) > 1 and action in ACTION_PENDINGS:
        fits = [c for c in waiting if c.pending is None or c.pending in ACTION_PENDINGS[action]]
        if len(fits) == 1:
            return fits[0].key
    if len(waiting) == 1:
        return waiting[0].key
    if not waiting and len(choices) == 1 and not for_turn:
        return choices[0].key
    if not choices:
        raise InvalidRequestError("You have no game in progress. Start one with /bg challenge.")
    ordered = waiting + [choice for choice in choices if not choice.waiting]
    lines = [choice.label for choice in ordered]
    shown = "\n".join(lines[:10]) + (f"\n… and {len(lines) - 10} more" if len(lines) > 10 else "")
    if len(waiting) > 1:
        raise InvalidRequestError(f"You have {len(waiting)} games waiting for you: {how}.\n{shown}")
    if for_turn:  # naming one would not help: each waits for someone else
        yours = "it waits" if len(choices) == 1 else "they all wait"
        raise InvalidRequestError(f"No game is waiting for you to act: {yours} for someone else.\n{shown}")
    raise InvalidRequestError(f"You have {len(choices)} games: {how}.\n{shown}")


async def resolve_match(
    service: ClubService,
    member: int,
    *,
    guild_id: int | None,
    given: int | None = None,
    here: int | None = None,
    thread: int | None = None,
    open_only: bool = True,
    for_turn: bool = False,
    action: str | None = None,
    links: Callable[[list[int]], Awaitable[dict[int, str]]] | None = None,
) -> int:
    """The match ``member`` means: ``given`` if he named one; else ``here`` (the game of the thread he is in) if
    he plays in it, or the match whose thread is ``thread`` (the channel he acts in) if he plays in it (with
    ``open_only``, only while it is challenged or played: in a finished match's thread an action goes to his open
    games; one read); else by :func:`choose_game` over his open games (``for_turn``: the action needs his turn;
    ``action``: which, to find the one game where it can be done) —
    the game-addressing rule: never "the last one named". Only matches of the club of ``guild_id`` are found
    (:func:`in_club`; None: any club). ``links``: ``async (match ids) -> {id: link}`` (Discord: a jump link to each
    game's board), asked only for a refusal, whose list then carries them.

    Raises :class:`~club.errors.InvalidRequestError` when he has none, or several (listing them),
    :class:`~club.errors.UnknownGameError` for a ``given`` match that is not in this server."""
    if given is not None:
        return await in_club(service, given, guild_id)
    if here is not None and _is_id(here):
        record = await service.db.get_match(here)  # the row only: who plays there, in which club
        if record is not None and member in record.players and await record_in_club(service, record, guild_id):
            return here
    if thread is not None:
        in_thread = await service.match_in_thread(thread, member, guild_id, open_only=open_only)
        if in_thread is not None:
            return in_thread
    waiting, others = await open_games(service, member, guild_id)
    choices = [GameChoice(item.match_id, describe_item(item, True), True, item.pending) for item in waiting]
    choices += [GameChoice(item.match_id, describe_item(item, False), False) for item in others]
    try:
        return choose_game(choices, for_turn=for_turn, action=action)
    except InvalidRequestError:
        if links is None or not choices:
            raise
    found = await links([choice.key for choice in choices])
    items = [(item, True) for item in waiting] + [(item, False) for item in others]
    choices = [GameChoice(item.match_id, describe_item(item, mine, link=found.get(item.match_id)), mine)
               for item, mine in items]  # fmt: skip
    return choose_game(choices, for_turn=for_turn, action=action)


async def resolve_chouette(
    chouettes, member: int, *, guild_id: int | None, here: int | None = None, for_turn: bool = False,
    links: Callable[[list[int]], Awaitable[dict[int, str]]] | None = None,
) -> int:  # fmt: skip
    """The chouette ``member`` means (``chouettes``: a :class:`~club.chouette.ChouetteService`): ``here`` (the
    one played in the channel where he is, so of his server) if given; else — the game-addressing rule of :func:`resolve_match` — the one chouette
    of the club of ``guild_id`` waiting for his decision (``for_turn``), or the one he sits in. Raises
    :class:`InvalidRequestError` with none or several, listing them (with ``links``: ``async (ids) -> {id:
    link}``, a jump link to each board)."""
    if here is not None:  # the chouette of his channel: of his server (a use-case checks the club again, RULES A2)
        return here
    club = await chouettes.club.db.get_club(guild_id) if _is_id(guild_id) else None
    if for_turn:
        ids = list(dict.fromkeys(deadline.session_id for deadline in await chouettes.waiting(member)))
    else:
        ids = await chouettes.store.session_ids(("open",))
    found = []
    for session_id in ids:
        record = await chouettes.store.get(session_id)
        if record is None or (guild_id is not None and (club is None or record.club_id != club.id)):
            continue
        view = await chouettes.state(session_id)
        if view.decision_of(member) or (not for_turn and member in view.members):
            found.append((session_id, "your decision" if view.decision_of(member) else f"game {view.game_number}"))
    if len(found) == 1:
        return found[0][0]
    if not found:
        what = "waits for your decision" if for_turn else "has you at the table"
        raise InvalidRequestError(f"No chouette runs in this channel, and none {what}: use the command in the "
                                  "chouette's channel, or start one with /bg chouette start.")  # fmt: skip
    shown = await links([session_id for session_id, _ in found]) if links is not None else {}
    lines = [f"Chouette #{sid} · {what}" + (f" · {shown[sid]}" if shown.get(sid) else "") for sid, what in found]
    waiting = " waiting for you" if for_turn else ""
    raise InvalidRequestError(f"You have {len(found)} chouettes{waiting}: use the command in the chouette's channel."
                              "\n" + "\n".join(lines[:10]))  # fmt: skip


async def game_choices(
    service: ClubService, member: int, guild_id: int | None, typed: str = ""
) -> list[tuple[str, int]]:
    """Autocomplete for a ``game`` option: ``(label, match id)`` of the member's open games whose label contains
    what he typed (at most :data:`MAX_CHOICES`), those waiting for him first."""
    waiting, others = await open_games(service, member, guild_id)
    items = [(describe_item(item, True), item.match_id) for item in waiting]
    items += [(describe_item(item, False), item.match_id) for item in others]
    typed = typed.strip().lstrip("#").lower()
    return [(shorten(label, 100), match_id) for label, match_id in items if typed in label.lower()][:MAX_CHOICES]


def rules_text(view: TableView) -> str:
    """The rules a match is played under, in words (RULES "Rule sets", M1, M3, D3–D5)."""
    rules = view.rules
    what = "Money session" if view.kind == MatchKind.MONEY else f"{view.length}-point match"
    lines = [f"Match #{view.match_id}: {what}, {view.names[0]} vs {view.names[1]}.", f"Rule set: {view.rules_text}."]
    options = []
    if view.kind == MatchKind.MATCH:
        options.append("Crawford rule" + ("" if rules.get("crawford") else " off") + " (RULES M3)")
        if rules.get("dead_cube"):
            options.append("no dead-cube doubles (RULES M4)")
    else:
        options.append("Jacoby rule (D4)" if rules.get("jacoby") else "gammons always count")
        options.append("beavers (D3)" if rules.get("beavers") else "no beavers")
        if rules.get("automatic_doubles"):
            options.append(f"automatic doubles up to {rules['automatic_doubles']} (G3)")
    cap = rules.get("cube_cap")
    options.append(f"cube limit {cap} (D5)" if cap else "no cube limit (D5)")
    lines.append("Options: " + ", ".join(options) + ".")
    if view.stake:
        lines.append(f"Stake: {view.stake} per point.")
    return "\n".join(lines)


def games_text(
    waiting: Sequence[WaitingItem],
    others: Sequence[HistoryItem],
    *,
    links: dict[int, str] | None = None,
    due: dict[int, float] | None = None,
    now: float | None = None,
    away: str = "",
) -> str:
    """``/bg games``: the member's games waiting for him, then the others (whose turn it is), each with the time
    left (``due``: deadlines by match, ``now``) and a link to its board message (``links``); ``away``: a line
    about his away days."""
    links, due = links or {}, due or {}
    if not waiting and not others:
        text = "You have no game in progress. Start one with /bg challenge."
        return f"{text}\n{away}" if away else text
    lines = []
    if waiting:
        lines.append("Your turn:")
        lines += [f"• {describe_item(item, True, link=links.get(item.match_id), now=now)}" for item in waiting]
    if others:
        lines.append("Waiting for your opponent:")
        lines += [
            f"• {describe_item(item, False, link=links.get(item.match_id), due_at=due.get(item.match_id), now=now)}"
            for item in others
        ]
    if away:
        lines.append(away)
    return "\n".join(lines)
