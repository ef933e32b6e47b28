"""The ``/bg`` verbs of the console: who acts, challenges, the game actions (which also answer a chouette's
decisions: the console's buttons), the looks (board, games, rules, verify, export) and the member's and club's
settings. Each verb parses its words and makes the same :mod:`club.frontend` / :class:`~club.service.ClubService`
call the cogs make."""

from __future__ import annotations

from pathlib import Path

from backgammon.ascii import ascii_board
from backgammon.errors import BackgammonError
from backgammon.game import Action
from backgammon.ids import decode_match_id
from backgammon.moves import dice_text
from backgammon.rules import PRESETS, RuleSet
from club import frontend
from club.boards import awaiting_text, board_filename, finished_games, render_table_async, viewer_side
from club.errors import InvalidRequestError
from club.export import export_mat
from club.results import Outcome, TableView
from club.table import MatchKind, MatchStatus, Pending, TableAction, TableEvent, TableType

from .core import Console, file_problem, member_id
from .parse import member_name, number, options, take_target
from .verbs import help_text, lent, verb

MAX_LENGTH = 99

VERB_WORDS = {
    "roll": "roll",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "raccoon": "raccoon",
    "play": "move PLAY",
    "resign": "resign [gammon|backgammon]",
    "accept": "accept",
    "decline": "decline",
    "accept_resignation": "accept",
    "reject_resignation": "decline",
}
"""Use-case names (:data:`club.frontend.ACTIONS`) as the console's verbs, for the "you can:" line."""


def ascii_table(view: TableView, viewer: int | None = None) -> str:
    """The board of ``view`` as text (:func:`backgammon.ascii.ascii_board`), ``X`` = the side seen at the bottom
    (the ``viewer``'s own, else the side to act), with the cube, score and dice when the gnubg Match ID allows, and
    the add-one automatic factor beside the cube (RULES D6)."""
    game = view.game
    if game is None:
        return ""
    side = viewer_side(view, viewer)
    try:
        state = decode_match_id(game.match_id) if game.match_id else None
    except BackgammonError:  # an ID gnubg writes but refuses to read (a raw score above the length, case SC19)
        state = None
    names = view.names if state is not None else None
    bottom = side if state is not None else None
    score = None if view.length else (view.score[0], view.score[1])  # money: the net running totals, as the picture shows them
    return ascii_board(game.board_for(side), state=state, names=names, bottom=bottom, cube_factor=game.cube_factor,
                       score=score)  # fmt: skip


def money(points: int, stake: int) -> str:
    """``+3 (= +30 at 10 a point)``: points and, with a stake, the money they are."""
    return f"{points:+d}" + (f" (= {points * stake:+d} at {stake} a point)" if stake else "")


def next_step(view: TableView) -> str:
    """``Next: Bob must roll or double (as bob) — match #1.`` or how the match stands when nobody is to act."""
    if view.waiting_for is not None:
        name = view.name_of(view.waiting_for)
        text = f"Next: {name} must {view.pending_text}"
        if view.pending == Pending.PLAY and view.game is not None and view.game.dice:
            text += f" {dice_text(view.game.dice)}"
        return text + f" (as {name}) — match #{view.match_id}."
    if view.status == MatchStatus.OVER:
        if view.kind == MatchKind.MATCH and view.winner is not None:
            return (f"Match #{view.match_id} is over: {view.names[view.winner]} won "
                    f"{view.score[view.winner]}–{view.score[1 - view.winner]}.")  # fmt: skip
        return (f"Session #{view.match_id} is over: {view.names[0]} {money(view.score[0], view.stake)}, "
                f"{view.names[1]} {money(view.score[1], view.stake)}.")  # fmt: skip
    return f"Match #{view.match_id}: {view.status}."


def you_can(view: TableView, member: int | None) -> str:
    """``you can: roll, double, resign [gammon|backgammon]`` — the console verbs for what the member to act may do
    (his buttons in Discord); ``""`` when nobody is to act."""
    if view.waiting_for is None or not view.legal:
        return ""
    verbs = list(dict.fromkeys(VERB_WORDS.get(action, action.replace("_", "-")) for action in view.legal))
    if view.kind == MatchKind.MONEY and view.status == MatchStatus.ACTIVE and view.stop_by is None:
        verbs.append("stop")
    whom = "you" if member == view.waiting_for else view.name_of(view.waiting_for)
    text = f"{whom} can: {', '.join(verbs)}"
    if view.pending == Pending.ANSWER_CHALLENGE and member == view.players[0]:
        text += "; you can: withdraw"
    return text


async def board_text(console: Console, view: TableView, viewer: int | None) -> str:
    """The ASCII board (once a game has started), the PNG written, the next step and what can be done."""
    lines = []
    if view.game is not None:
        lines.append(ascii_table(view, viewer))
        if console.images is not None:
            png = await render_table_async(view, viewer, console.options)
            lines.append(
                console.write_png(board_filename(view, viewer_side(view, viewer)), png).replace(
                    "Image:", "Board image:"
                )
            )
    if view.kind == MatchKind.MONEY and view.stake and view.status == MatchStatus.ACTIVE and view.game_number > 1:
        lines.append(f"Session #{view.match_id} so far: {view.names[0]} {money(view.score[0], view.stake)}, "
                     f"{view.names[1]} {money(view.score[1], view.stake)}.")  # fmt: skip
    if view.kind == MatchKind.MONEY and view.status == MatchStatus.ACTIVE and view.stop_by is not None:
        lines.append(f"The session ends when this game ends ({view.names[view.stop_by]} asked).")
    lines.append(view.luck_text)
    lines.append(next_step(view))
    lines.append(you_can(view, console.member))
    lines.append(await lent("extra_verbs")(console, view))
    return "\n".join(line for line in lines if line)


async def final_board(console: Console, view: TableView) -> str:
    """The last position of a finished game (:func:`club.boards.finished_games`): its result, the ASCII board and
    the PNG written."""
    lines = [awaiting_text(view), ascii_table(view, console.member)]
    if console.images is not None:
        png = await render_table_async(view, console.member, console.options)
        name = board_filename(view, viewer_side(view, console.member))
        lines.append(console.write_png(name, png).replace("Image:", "Final board image:"))
    return "\n".join(line for line in lines if line)


async def show(console: Console, outcome: Outcome) -> str:
    """What happened (in a practice game, the engine's reply too: :func:`console.study.engine_reply`), then
    the board seen by whoever acts next."""
    lines = [outcome.message] if outcome.message else []
    for reply in await lent("engine_reply")(console, outcome):  # a practice game: the engine's turn, played at once
        lines.append(reply.message)
        outcome = reply
    view = outcome.view
    for final in await finished_games(console.service, outcome):  # each game's last position, before the next
        lines.append(await final_board(console, final))
    lines.append(await board_text(console, view, view.waiting_for or console.member))
    if any(event.kind in (TableEvent.MATCH_OVER, TableEvent.SESSION_OVER) for event in outcome.events):
        from club.analysis import engine_available

        if engine_available() and console.review_after_match and not view.practice:
            from club.analysis.review import club_games

            # the review is computed in the background and printed when ready (console.study.ready_reviews), the
            # highlight after it, by its equities
            lines.append(lent("start_review")(console, view, await club_games(console.service, view.match_id)))
        else:
            if engine_available():
                lines.append(f"The engine's review (PRs, costliest plays, cube errors): review {view.match_id}")
            lines.append(await lent("auto_highlight")(console, view))  # by the pip count and the cube
    return "\n".join(line for line in lines if line)


# -- the console itself ------------------------------------------------------------------------------------------------
@verb("help", "help [chouette|club|…]", "this list (or one group's)", aliases=("?",), anyone=True, group="console")
async def help_verb(console: Console, args: list[str]) -> str:
    """``help [GROUP]``."""
    group = args[0].lower().lstrip("/") if args else None
    if group in ("bg", "games", ""):
        group = ""
    text = help_text(group)
    return text if text.count("\n") > 0 else help_text()


@verb("quit", "quit", "leave (also exit, Ctrl-D)", aliases=("exit",), anyone=True, group="console")
async def quit_verb(console: Console, args: list[str]) -> str:
    """``quit``: end the console."""
    raise EOFError


@verb("as", "as NAME", "act as member NAME (registered on first use)", anyone=True, group="console")
async def as_verb(console: Console, args: list[str]) -> str:
    """``as NAME``: register NAME in the console club (if new) and act as him. ``@NAME`` is NAME, as in every
    command; a name of several words is refused (:func:`~console.parse.member_name`)."""
    name = " ".join(args).strip()
    if not name:
        raise InvalidRequestError("as NAME: say who you are, e.g. as alice")
    user = await console.someone(name)
    name = (await console.service.display_names([user]))[user]
    console.acting, console.name = user, name
    text = f"You are {name}."
    choices = [choice for choice in await console.choices(waiting_only=True) if choice.waiting]
    if choices:
        text += " Waiting for you: " + "; ".join(choice.label for choice in choices)
    return text


# -- challenges ----------------------------------------------------------------------------------------------------------
@verb(
    "challenge", "challenge NAME [LENGTH|money] [RULES] [STAKE]", "e.g. challenge bob 5, challenge bob money money 10"
)
async def challenge(console: Console, args: list[str]) -> str:
    """``challenge NAME [LENGTH|money] [RULES] [STAKE]`` (also ``length=``, ``rules=``, ``stake=``). NAME must be a
    member already (``as NAME`` makes him one), as for ``club stats NAME``: a typo is refused, not a new member. A
    refused challenge changes nothing."""
    if not args:
        return "challenge NAME [LENGTH|money] [RULES] [STAKE], e.g. challenge bob 5"
    opponent_name = member_name(args[0])
    named, rest = options(args[1:], ("length", "rules", "stake", "opponent"))
    length = (
        0
        if named.get("length", "money").lower() in ("money", "0", "")
        else number(named["length"], "length", high=MAX_LENGTH)
    )
    rules = named.get("rules")
    stake = number(named["stake"], "a stake", low=0, high=10**9) if "stake" in named else 0
    for index, token in enumerate(word.lower() for word in rest):  # LENGTH|money, then RULES, then STAKE
        if index == 0 and "length" not in named and (token == "money" or token.isdigit()):
            length = 0 if token == "money" else number(token, "a match length (points)", high=MAX_LENGTH)
        elif token in PRESETS and rules is None:
            rules = token
        elif token.isdigit():
            stake = number(token, "a stake", low=0, high=10**9)
        else:
            raise InvalidRequestError(f"{token[:40]!r} is not a length, 'money', a rule set ({', '.join(PRESETS)}) "
                                      "or a stake; e.g. challenge bob 5, challenge bob money money 10")  # fmt: skip
    await _check_challenge(console, opponent_name, length, rules, stake)
    opponent = await console.known(opponent_name)
    outcome = await console.service.challenge(
        console.guild_id, console.member, opponent, length=length, rules=rules, stake=stake
    )
    console.last_match = outcome.match_id
    return outcome.message + "\n" + next_step(outcome.view) + "\n" + you_can(outcome.view, console.member)


async def _check_challenge(console: Console, opponent: str, length: int, rules: str | None, stake: int) -> None:
    """What :meth:`ClubService.challenge` would refuse, and an opponent who is not a member yet
    (:meth:`Console.known`), checked before anything is stored."""
    if member_id(opponent) == console.member:
        raise InvalidRequestError("you cannot challenge yourself: name another member, e.g. challenge bob 5")
    await console.known(opponent)
    settings = await console.service.club_settings(console.guild_id)
    if stake > settings.max_stake:
        raise InvalidRequestError(f"stake is a whole number from 0 to {settings.max_stake}, not {stake}")
    preset = rules or (settings.money_rules if length == 0 else settings.match_rules)
    RuleSet.preset(preset, **settings.rule_overrides).validate_for(length)


async def _answer(console: Console, args: list[str], yes: bool) -> str:
    target, rest = take_target(args)
    if rest:
        raise InvalidRequestError(
            f"{'accept' if yes else 'decline'} takes only a game number, not {' '.join(rest)[:60]!r}"
        )
    match_id = (await console.target(target, for_turn=yes, kinds=("match",), action="accept" if yes else "decline")).id
    console.last_match = match_id
    view = await console.service.state(match_id)
    action = frontend.answer_action(view, console.member, yes)
    return await show(console, await frontend.perform(console.service, match_id, console.member, action))


@verb("accept", "accept [game]", "the challenge or resignation offered to you")
async def accept(console: Console, args: list[str]) -> str:
    """``accept [game]``."""
    return await _answer(console, args, True)


@verb("decline", "decline [game]", "refuse it (or withdraw your own challenge)", aliases=("reject",))
async def decline(console: Console, args: list[str]) -> str:
    """``decline [game]``."""
    return await _answer(console, args, False)


@verb("withdraw", "withdraw [game]", "withdraw your challenge")
async def withdraw(console: Console, args: list[str]) -> str:
    """``withdraw [game]``: your unanswered challenge."""
    target, _ = take_target(args)
    match_id = (await console.target(target, for_turn=False, kinds=("match",))).id
    return await show(console, await frontend.perform(console.service, match_id, console.member, "cancel"))


# -- game actions (matches and chouettes) ------------------------------------------------------------------------------
CHOUETTE_ONLY = {"no-double", "offer-extra", "no-extra"}
MATCH_ONLY = {"resign", "stop"}


async def game_action(console: Console, action: str, args: list[str], *, trailing_number: bool = True) -> str:
    """One game action for the acting member: to the game named, else to the one game waiting for him (a match or
    a chouette; :func:`club.frontend.choose_game`)."""
    target, rest = take_target(args, trailing_number=trailing_number)
    kinds = ("chouette",) if action in CHOUETTE_ONLY else ("match",) if action in MATCH_ONLY else ("match", "chouette")
    target = await console.target(target, for_turn=action != TableAction.STOP, kinds=kinds, action=action)
    if target.kind == TableType.CHOUETTE:
        return await lent("chouette_action")(console, target.id, action, rest)
    match_id = target.id
    console.last_match = match_id
    if action == Action.PLAY:
        if not rest:
            raise InvalidRequestError("move PLAY, e.g. move 13/7 8/7 (plays lists the legal ones)")
        outcome = await frontend.perform(console.service, match_id, console.member, "play", " ".join(rest)[:200])
    elif action == Action.RESIGN:
        if len(rest) > 1:
            raise InvalidRequestError("resign single, gammon or backgammon [game], e.g. resign gammon")
        level = frontend.resign_level(rest[0] if rest else None)
        outcome = await frontend.perform(console.service, match_id, console.member, "resign", level)
    else:
        if rest:
            raise InvalidRequestError(f"{action} takes only a game number here, not {' '.join(rest)[:60]!r}")
        if action in ("no-double",):
            raise InvalidRequestError("no-double is a chouette decision; in a match just roll")
        outcome = await frontend.perform(console.service, match_id, console.member, action)
    return await show(console, outcome)


def _simple(action: str, usage: str, summary: str, **extra):
    async def run(console: Console, args: list[str]) -> str:
        """The game action (docstring replaced below by the verb's usage)."""
        return await game_action(console, action, args)

    run.__doc__ = f"``{usage}``: {summary}."
    verb(action, usage, summary, **extra)(run)
    return run


roll = _simple("roll", "roll [game]", "roll the dice (RULES G4)")
double = _simple(
    "double", "double [all | NAME …] [game]", "offer a double (RULES D1); Box: double all, double carol dave"
)
take = _simple("take", "take [NAME …] [game]", "take the double (RULES D2); Box: take carol = take carol's, drop the rest")
drop = _simple("drop", "drop [NAME …] [game]", "drop it (you lose at the current cube); Box: drop dave")
beaver = _simple("beaver", "beaver [game]", "take and redouble at once (RULES D3)")
raccoon = _simple("raccoon", "raccoon [game]", "redouble the beaver (RULES D3)")
no_double = _simple(
    "no-double", "no-double [chouette=N]", "chouette: do not double your cube now (5.9)", aliases=("pass",)
)
offer_extra = _simple("offer-extra", "offer-extra [chouette=N]", "chouette: offer the lone taker an extra (5.7)")
no_extra = _simple("no-extra", "no-extra [chouette=N]", "chouette: no extra")
stop = _simple("stop", "stop [game]", "money session: end it after this game")


@verb("move", "move PLAY [game=N]", "play your dice, e.g. move 13/7 8/7, move bar/22* 6/off", aliases=("play",))
async def move(console: Console, args: list[str]) -> str:
    """``move PLAY [game=N]`` (RULES G4–G10)."""
    return await game_action(console, "play", args, trailing_number=False)


@verb("resign", "resign [single|gammon|backgammon] [game]", "offer to resign (your opponent accepts or declines)")
async def resign(console: Console, args: list[str]) -> str:
    """``resign [LEVEL] [game]`` (RULES G12)."""
    return await game_action(console, "resign", args)


@verb("plays", "plays [TYPED] [game=N]", "the legal plays (those beginning with TYPED: Discord's autocomplete)")
async def plays(console: Console, args: list[str]) -> str:
    """``plays [TYPED] [game=N]``."""
    target, rest = take_target(args, trailing_number=False)
    target = await console.target(target, for_turn=True)
    if target.kind == TableType.CHOUETTE:
        found = await console.chouettes.legal_plays(target.id, console.member)
    else:
        console.last_match = target.id
        found = await console.service.legal_plays(target.id, console.member)
    if not found:
        return "You have no dice to play now."
    shown = frontend.filter_plays(found, " ".join(rest)[:200], limit=len(found))
    return f"{len(shown)} of {len(found)} legal plays: " + ", ".join(shown)


# -- looking ---------------------------------------------------------------------------------------------------------
async def _match_for_look(console: Console, args: list[str]) -> tuple[int, list[str]]:
    target, rest = take_target(args)
    found = await console.target(target, for_turn=False, kinds=("match",))
    console.last_match = found.id
    return found.id, rest


@verb("board", "board [game]", "the board from your side (a chouette's too: board chouette=1)")
async def board(console: Console, args: list[str]) -> str:
    """``board [game]``."""
    target, _ = take_target(args)
    found = await console.target(target, for_turn=False)
    if found.kind == TableType.CHOUETTE:
        return await lent("chouette_board")(console, await console.chouettes.state(found.id), console.member)
    console.last_match = found.id
    return await board_text(console, await console.service.state(found.id), console.member)


@verb("games", "games", "your games: those waiting for you first, whose turn it is and the time left")
async def games(console: Console, args: list[str]) -> str:
    """``games``: matches (with the time left on each clock, as ``/bg games``) and chouettes, then the member's
    away days when the club gives some."""
    from club.correspondence import games_extras

    service = console.service
    waiting, others = await frontend.open_games(service, console.member, console.guild_id)
    due, away = await games_extras(service, console.member, console.guild_id, [i.match_id for i in others])
    now = service.clock.now()
    mine = [frontend.describe_item(item, True, now=now) for item in waiting]
    theirs = [frontend.describe_item(item, False, due_at=due.get(item.match_id), now=now) for item in others]
    for choice in await console.choices(kinds=("chouette",)):
        (mine if choice.waiting else theirs).append(choice.label)
    if not mine and not theirs:
        return "You have no game in progress. Start one with: challenge NAME (e.g. challenge bob 5), or chouette start."
    lines = ["Your turn:", *(f"• {label}" for label in mine)] if mine else []
    if theirs:
        lines += ["Waiting for others:", *(f"• {label}" for label in theirs)]
    return "\n".join([*lines, away] if away else lines)


def _chouette_named(args: list[str]) -> bool:
    """Whether ``args`` name a chouette (``chouette=N``): the chouette's own verb answers then."""
    target, _ = take_target(args)
    return target is not None and target.kind == TableType.CHOUETTE


@verb("rules", "rules [game]", "the rules a match is played under")
async def rules(console: Console, args: list[str]) -> str:
    """``rules [game]`` (``rules chouette=N``: the chouette's, as ``chouette rules``)."""
    if _chouette_named(args):
        return await lent("chouette_rules")(console, args)
    match_id, _ = await _match_for_look(console, args)
    return frontend.rules_text(await console.service.state(match_id))


@verb("verify", "verify [game] [number=N]", "the dice proof of a game (RULES A1)")
async def verify(console: Console, args: list[str]) -> str:
    """``verify [game] [number=N]`` (``verify chouette=N``: the chouette's proof file, as ``chouette verify``). Rolls
    too many for the reply are written to ``dice-M-game-N.txt`` in this folder (the file ``/bg verify`` attaches)."""
    if _chouette_named(args):
        return await lent("chouette_verify")(console, args)
    named, args = options(args, ("number",))
    match_id, _ = await _match_for_look(console, args)
    game_number = number(named["number"], "a game of the match", high=10_000) if "number" in named else None
    proof = await frontend.dice_proof(console.service, match_id, game_number)
    if frontend.ATTACHED not in proof.text:
        return proof.text
    path = Path(f"dice-{proof.match_id}-game-{proof.game_number}.txt").resolve()  # what /bg verify attaches
    try:
        path.write_text(proof.published, encoding="utf-8")
    except OSError as error:
        raise InvalidRequestError(file_problem(error, path)) from None
    return proof.text.replace(frontend.ATTACHED, str(path)).replace("/bg export", "export")


@verb("export", "export [game] [FILE]", "the match as a .mat file (RULES A4), by default in this folder")
async def export(console: Console, args: list[str]) -> str:
    """``export [game] [FILE]``: the reply gives the full path written."""
    target, rest = take_target([a for a in args if not _looks_like_path(a)])
    paths = [a for a in args if _looks_like_path(a)] + rest
    if len(paths) > 1:
        raise InvalidRequestError("export [game] [FILE]: one file, e.g. export 1 match.mat")
    match_id = (await console.target(target, for_turn=False, kinds=("match",))).id
    name, text = await export_mat(console.service, match_id)
    path = Path(paths[0] if paths else name).expanduser()
    try:
        path = path.resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InvalidRequestError(file_problem(error, path)) from None
    return f"Wrote {path} ({text.count(chr(10))} lines)."


def _looks_like_path(token: str) -> bool:
    return "/" in token or "." in token or "\\" in token


# -- settings -----------------------------------------------------------------------------------------------------------
@verb("notify", "notify on|off", "direct messages when it is your turn (Discord)")
async def notify(console: Console, args: list[str]) -> str:
    """``notify on|off``."""
    if len(args) != 1 or args[0].lower() not in ("on", "off"):
        raise InvalidRequestError("notify on or notify off")
    preferences = await console.service.set_preferences(console.member, notify=args[0].lower() == "on")
    return f"Direct messages when it is your turn: {'on' if preferences.notify else 'off'}."
