"""What every front end shares (the Discord cogs, the console): one use-case call by name, which game a member
means when he names none, the legal plays filtered by what he typed, errors in words, and the texts of the
read-only commands (games, rules, the dice proof). No Discord types: the console and the cogs call exactly this.

Actions (:data:`ACTIONS`) are the names of the :class:`~club.service.ClubService` use-cases a button or a command
triggers; :func:`perform` makes the call. ``accept``/``decline`` answer whatever is offered to the member — a
challenge or a resignation (RULES G12) — see :func:`answer_action`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from backgammon.moves import Play
from storage import ActionRecord

from . import proof
from .commitments import CLIENT_SEED
from .describe import shorten
from .dice import RECIPES, verify_rolls
from .errors import MAX_ID, InvalidRequestError, NotAPlayerError, NotNowError, UnknownGameError, shown
from .results import Outcome, TableView
from .service import ClubService, HistoryItem, WaitingItem
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


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < MAX_ID


async def in_club(service: ClubService, match_id: int, guild_id: int | None) -> int:
    """``match_id`` if that match or session belongs to the club of guild ``guild_id`` (club isolation: a member acts
    only in his own server, RULES A2); ``guild_id`` None (a front end with one club, e.g. the console) accepts any.

    The server's practice games (:mod:`club.practice`, in its practice room) belong to it too.

    Raises :class:`~club.errors.InvalidRequestError` for an id that is not a positive whole number and
    :class:`~club.errors.UnknownGameError` ("no match or session N here") for an unknown id or another server's."""
    if not _is_id(match_id):
        raise InvalidRequestError(f"a game is its number, like 12, not {shown(match_id)}")
    record = await service.db.get_match(match_id)
    if record is not None and guild_id is not None:
        club = await service.db.get_club(guild_id) if _is_id(guild_id) else None
        room = await service.db.get_club(-guild_id) if _is_id(guild_id) else None  # its practice room
        if club is None or record.club_id not in (club.id, room.id if room is not None else None):
            record = None
    if record is None:
        raise UnknownGameError(f"There is no match or session {match_id} here.")
    return match_id


async def chouette_in_club(chouettes, session_id: int, guild_id: int | None) -> int:
    """``session_id`` if that chouette belongs to the club of guild ``guild_id`` (``chouettes``: a
    :class:`~club.chouette.ChouetteService`; None: any club) — :func:`in_club` for chouettes.

    Raises :class:`~club.errors.UnknownGameError` ("no chouette N here") otherwise."""
    if not _is_id(session_id):
        raise InvalidRequestError(f"a chouette is its number, like 3, not {shown(session_id)}")
    record = await chouettes.store.get(session_id)
    if record is not None and guild_id is not None:
        club = await chouettes.club.db.get_club(guild_id) if _is_id(guild_id) else None
        if club is None or club.id != record.club_id:
            record = None
    if record is None:
        raise UnknownGameError(f"There is no chouette {session_id} here.")
    return session_id


async def perform(
    service: ClubService,
    match_id: int,
    member: int,
    action: str,
    value: str | Play | int | None = None,
    *,
    version: int | None = None,
    guild_id: int | None = None,
) -> Outcome:
    """Call the use-case ``action`` (one of :data:`ACTIONS`) for ``member`` on match ``match_id``; ``value`` is the
    play for ``play`` (notation or a legal Play) and the level 1/2/3 for ``resign`` (default 1). ``version``: the
    view the member acted on (a stale one raises :class:`~club.errors.StaleVersionError`). ``guild_id``: the server
    the member acts from; a match of another server is unknown there (:func:`in_club`).

    Raises :class:`~club.errors.InvalidRequestError` for an unknown action, :class:`~club.errors.UnknownGameError`,
    and whatever the use-case raises."""
    if action not in ACTIONS:
        raise InvalidRequestError(f"unknown action {action!r}; actions are: {', '.join(ACTIONS)}")
    if guild_id is not None:
        await in_club(service, match_id, guild_id)
    if action == "play":
        if value is None:
            raise InvalidRequestError("say which play, e.g. 24/18 13/11")
        return await service.play(match_id, member, value, version=version)
    if action == "resign":
        return await service.resign(match_id, member, 1 if value is None else value, version=version)
    return await getattr(service, action)(match_id, member, version=version)


def answer_action(view: TableView, member: int, yes: bool) -> str:
    """The use-case that "accept" (``yes``) or "decline" means for ``member`` now: the challenge
    (``accept``/``decline``) or a resignation (``accept_resignation``/``reject_resignation``, RULES G12).
    Raises :class:`~club.errors.NotAPlayerError` or :class:`~club.errors.NotNowError` (saying what is awaited)."""
    if view.side_of(member) is None:
        raise NotAPlayerError(
            f"You do not play in match {view.match_id}: it is {view.names[0]} against {view.names[1]}."
        )
    if view.pending == "answer_challenge" and view.waiting_for == member:
        return "accept" if yes else "decline"
    if view.pending == "answer_resignation" and view.waiting_for == member:
        return "accept_resignation" if yes else "reject_resignation"
    if view.status == "challenged" and not yes and view.players[0] == member:
        return "cancel"
    offer = "challenge or resignation"
    if view.waiting_for == member:
        raise NotNowError(
            f"There is no {offer} for you to answer in match {view.match_id}: you must {view.pending_text}."
        )
    who = view.names[view.side_of(view.waiting_for)] if view.waiting_for is not None else "nobody"
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
    what = "money session" if item.kind == "money" else f"{item.length}-point match"
    score = f"{item.score[0]:+d}/{item.score[1]:+d}" if item.kind == "money" else f"{item.score[0]}–{item.score[1]}"
    text = f"#{item.match_id} vs {item.opponent_name} · {what} {score}"
    if member_waiting and isinstance(item, WaitingItem):
        text += f" · your turn: {item.pending_text}"
        due_at = item.due_at if due_at is None else due_at
    elif isinstance(item, HistoryItem):
        text += f" · {item.opponent_name}'s turn" if item.status == "active" else " · challenge not answered yet"
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
    others = [item for item in history if item.status in ("active", "challenged") and item.match_id not in mine]
    return waiting, others


@dataclass(frozen=True, slots=True)
class GameChoice:
    """One game a member could mean: ``key`` (a match id, or whatever the front end uses to find it again),
    ``label`` (one line for a list, see :func:`describe_item`) and ``waiting`` (it waits for him to act now)."""

    key: object
    label: str
    waiting: bool


def choose_game(
    choices: Sequence[GameChoice], *, for_turn: bool, how: str = "say which one with game: (its number)"
) -> object:
    """The game a member means when he names none — the game-addressing rule of every front end (the console,
    and Discord outside a game's thread). Returns the chosen ``key``.

    - an action that needs his turn (``for_turn``: roll, move, double, take, drop, accept, resign …) goes to **the one
      game waiting for him**; with none or several waiting it is refused, listing his games — never "the last one
      named", so an action cannot land in the wrong game;
    - a command that does not need his turn (board, rules, export, withdraw, stop …) goes to the one game waiting
      for him, else to his only open game.

    ``how`` tells him how to name one (e.g. ``say which one, e.g. withdraw 2``). Raises
    :class:`InvalidRequestError` with the list (at most 10 lines), games waiting for him first."""
    waiting = [choice for choice in choices if choice.waiting]
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
    for_turn: bool = False,
    links: Callable[[list[int]], Awaitable[dict[int, str]]] | None = None,
) -> int:
    """The match ``member`` means: ``given`` if he named one; else ``here`` (the game of the thread he is in) if
    he plays in it; else by :func:`choose_game` over his open games (``for_turn``: the action needs his turn) —
    issue 11's rule: never "the last one named". Only matches of the club of ``guild_id`` are found
    (:func:`in_club`; None: any club). ``links``: ``async (match ids) -> {id: link}`` (Discord: a jump link to each
    game's board), asked only for a refusal, whose list then carries them.

    Raises :class:`~club.errors.InvalidRequestError` when he has none, or several (listing them),
    :class:`~club.errors.UnknownGameError` for a ``given`` match that is not in this server."""
    if given is not None:
        return await in_club(service, given, guild_id)
    if here is not None and _is_id(here):
        record = await service.db.get_match(here)  # the row only: who plays there
        if record is not None and member in record.players:
            try:
                return await in_club(service, here, guild_id)
            except UnknownGameError:
                pass
    waiting, others = await open_games(service, member, guild_id)
    choices = [GameChoice(item.match_id, describe_item(item, True), True) for item in waiting]
    choices += [GameChoice(item.match_id, describe_item(item, False), False) for item in others]
    try:
        return choose_game(choices, for_turn=for_turn)
    except InvalidRequestError:
        if links is None or not choices:
            raise
    found = await links([choice.key for choice in choices])
    items = [(item, True) for item in waiting] + [(item, False) for item in others]
    choices = [GameChoice(item.match_id, describe_item(item, mine, link=found.get(item.match_id)), mine)
               for item, mine in items]  # fmt: skip
    return choose_game(choices, for_turn=for_turn)


async def resolve_chouette(
    chouettes, member: int, *, guild_id: int | None, here: int | None = None, for_turn: bool = False,
    links: Callable[[list[int]], Awaitable[dict[int, str]]] | None = None,
) -> int:  # fmt: skip
    """The chouette ``member`` means (``chouettes``: a :class:`~club.chouette.ChouetteService`): ``here`` (the
    one played where he is) if given; else — issue 11's rule, as :func:`resolve_match` — the one chouette of the
    club of ``guild_id`` waiting for his decision (``for_turn``), or the one he sits in. Raises
    :class:`InvalidRequestError` with none or several, listing them (with ``links``: ``async (ids) -> {id:
    link}``, a jump link to each board)."""
    if here is not None:
        return await chouette_in_club(chouettes, here, guild_id)
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
    what = "Money session" if view.kind == "money" else f"{view.length}-point match"
    lines = [f"Match #{view.match_id}: {what}, {view.names[0]} vs {view.names[1]}.", f"Rule set: {view.rules_text}."]
    options = []
    if view.kind == "match":
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


@dataclass(frozen=True, slots=True)
class DiceProof:
    """The dice check of one game (RULES A1): ``text`` in words, ``ok`` (None while the seed is still secret or
    the dice were injected, else whether every roll was recomputed from the revealed seed); ``published``: the
    published lines (:mod:`club.proof`) for ``tools/verify_dice.py``, also when they do not fit in ``text``."""

    match_id: int
    game_number: int
    text: str
    ok: bool | None
    published: str = ""


async def dice_proof(
    service: ClubService, match_id: int, game_number: int | None = None, *, guild_id: int | None = None
) -> DiceProof:
    """Check the dice of game ``game_number`` (default: the current or last game) of match ``match_id`` (RULES A1,
    :mod:`club.dice`): while it is played, the commitment; once over, the revealed seed, its SHA-256 against the
    commitment and every logged roll recomputed. Raises :class:`~club.errors.UnknownGameError`,
    :class:`~club.errors.InvalidRequestError` for a game that does not exist; with ``guild_id``, another server's
    match is unknown (:func:`in_club`)."""
    if guild_id is not None:
        await in_club(service, match_id, guild_id)
    view = await service.state(match_id)
    if game_number is not None and not _is_id(game_number):
        raise InvalidRequestError(f"a game of a match is its number, 1, 2 …, not {shown(game_number)}")
    number = view.game_number if game_number is None else game_number
    game = await service.db.get_game(match_id, number)  # this game's rows only: the cost does not grow with history
    if game is None:
        have = "none yet" if view.game_number < 1 else "1" if view.game_number == 1 else f"1–{view.game_number}"
        raise InvalidRequestError(f"match {match_id} has no game {number} (games: {have})")
    # this game's actions and those that may hold its client seeds (the game before, whose players fix the seeds of
    # the game ahead, and the actions outside any game: the challenge) — not the whole log
    rows = await service.db._fetchall(
        "SELECT * FROM actions WHERE match_id = ? AND (game_number IS NULL OR game_number IN (?, ?)) ORDER BY seq",
        (match_id, number - 1, number),
    )
    actions = [ActionRecord.from_row(row) for row in rows]
    rolls = [(a.roll_index, a.dice) for a in actions if a.game_number == number and a.dice is not None]
    head = f"Match #{match_id}, game {number}: {plural(len(rolls), 'roll')} logged."
    if game.dice == "injected":
        return DiceProof(match_id, number, head + " The dice were given from outside (a test or a replay): "
                         "there is no seed to check.", None)  # fmt: skip
    series = [s for s in proof.match_series([game], actions) if s.key == f"DiceGame{number}"]
    recipe_name = series[0].recipe if series else proof.RECIPE
    when = "published before either player's client seed" if series and series[0].clients else "shown when it started"
    commitment = f"Commitment (SHA-256 of the server seed, {when}): {game.seed_hash}"
    recipe = f"Recipe {recipe_name}: {RECIPES[recipe_name]}"
    clients = _client_seed_lines(view, actions, number) if series else ""
    published = "\n".join(proof.lines(series))
    if not game.seed_revealed:
        text = (f"{head}\n{commitment}{clients}\nThe seed stays secret until the game ends; then /bg verify shows it "
                f"and every roll.\n{recipe}")  # fmt: skip
        return DiceProof(match_id, number, clip(text), None)
    contributions = series[0].clients if series else ()
    problems = verify_rolls(game.seed, game.seed_hash, rolls, recipe=recipe_name, contributions=contributions)
    text = f"{head}\n{commitment}\nRevealed seed: {game.seed}{clients}\n{recipe}\n"
    if problems:
        text += "PROBLEMS:\n" + "\n".join(problems)
    else:
        every = "the only roll follows" if len(rolls) == 1 else f"all {plural(len(rolls), 'roll')} follow"
        text += f"The seed hashes to the commitment and {every} from it: the dice were fair."
    check = ("\nCheck it yourself: save the lines below (or the /bg export file) and run "
             "python tools/verify_dice.py FILE (standard library only).\n")  # fmt: skip
    if len(text) + len(check) + len(published) <= MAX_MESSAGE:
        text += check + published
    else:
        text += "\nAll rolls are too many for one message: they are in the attached file and in /bg export (run python tools/verify_dice.py FILE on either)."
    return DiceProof(match_id, number, text, not problems, published + "\n")


def _client_seed_lines(view, actions: Sequence[ActionRecord], number: int) -> str:
    """The client seeds of game ``number`` as /bg verify lists them (RULES A1, issue 12 item 1): one line each, in
    the published order, naming the member and his side and giving the value as plain text in typographic quotes —
    e.g. ``Client seed of bob (side 1), counting from roll 0: “bob's lucky phrase | 1312…”``."""
    out = []
    for action in actions:
        if action.kind != CLIENT_SEED or action.args.get("game") != number:
            continue
        side = action.side if action.side is not None else view.side_of(action.member_id)
        who = f"{view.names[side]} (side {side})" if side is not None else f"member {action.member_id}"
        out.append(f"\nClient seed of {who}, counting from roll {action.args['from_roll']}: “{action.args['seed']}”")
    return "".join(out)


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
