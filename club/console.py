"""The console: the same use-cases as the Discord bot, typed in a terminal (``python bot.py --console``).

Pick the acting member with ``as alice``, then type the bot's commands, with or without the ``/bg`` prefix::

    as alice
    /bg challenge bob 5            # a 5-point match (``money`` or 0: a money session; then a rule set, a stake)
    as bob
    /bg accept
    /bg move 13/7 8/7              # or: roll, double, take, drop, beaver, raccoon, resign gammon, decline …
    /bg plays 13/                  # the legal plays starting with what you typed (Discord's autocomplete)

After each action the console prints what happened, an ASCII board seen by the member who must act next and the
path of that turn's board image (PNG, in the ``images`` folder). ``#`` starts a comment (at the start of a line, or
after a space outside quotes; ``#2`` is a game number, not a comment), so a game can be scripted: ``python bot.py
--console < script.txt``. ``help`` lists the commands; a refused command says why
and what is possible, and changes nothing. No Discord types: :class:`Console` calls :class:`~club.service.ClubService`
and :mod:`club.frontend` exactly as the cogs do.

Members are named, not numbered: a name always maps to the same member id (:func:`member_id`), so a console
database can be reopened and play resumed.
"""

from __future__ import annotations

import hashlib
import re
import shlex
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from backgammon.ascii import ascii_board
from backgammon.errors import BackgammonError
from backgammon.ids import decode_match_id
from backgammon.moves import dice_text
from backgammon.rules import PRESETS

from . import frontend
from .boards import BoardOptions, board_filename, render_table_async, viewer_side
from .errors import InvalidRequestError
from .export import export_mat
from .results import Outcome, TableView
from .service import ClubService

CONSOLE_GUILD = 1
"""The club id the console plays in (a console is one club)."""

HELP = """Commands (the /bg prefix is optional; [game] is a match number, needed only when you have several):
  as NAME                                   act as member NAME (registered on first use)
  challenge NAME [LENGTH|money] [RULES] [STAKE]   e.g. challenge bob 5, challenge bob money money 10
  accept [game] | decline [game]            answer a challenge or a resignation offered to you
  withdraw [game]                           withdraw your challenge
  roll | double | take | drop | beaver | raccoon [game]
  move PLAY [game=N]                        e.g. move 13/7 8/7, move bar/22* 6/off
  plays [TYPED] [game=N]                    the legal plays (those beginning with TYPED)
  resign [single|gammon|backgammon] [game]  offer to resign (your opponent accepts or declines)
  stop [game]                               money session: end it after this game
  board [game] | games | rules [game] | verify [game] | export [game] [FILE]
  notify on|off                             direct messages when it is your turn (Discord)
  config [KEY VALUE ...]                    club settings (match_rules, money_rules, move_time, reminders, …)
  help | quit"""

SIMPLE = {"roll", "double", "take", "drop", "beaver", "raccoon", "stop"}
GAME_OPTION = {"move", "play", "plays"}  # commands whose trailing number is not a game: they take game=N


def strip_comment(line: str) -> str:
    """``line`` without its comment: from a ``#`` at the start or after whitespace, outside quotes, that is not a
    game number (``#2``) — so ``/bg challenge bob 5   # or: money`` reads as ``/bg challenge bob 5``."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()) and not re.match(r"#\d+(\s|$)", line[index:]):
            return line[:index].rstrip()
    return line


def member_id(name: str) -> int:
    """A stable member id for a console name (case-insensitive): the first 6 bytes of its SHA-256, plus one."""
    digest = hashlib.sha256(name.strip().lower().encode("utf-8")).digest()
    return int.from_bytes(digest[:6], "big") + 1


def ascii_table(view: TableView, viewer: int | None = None) -> str:
    """The board of ``view`` as text (:func:`backgammon.ascii.ascii_board`), ``X`` = the side seen at the bottom
    (the ``viewer``'s own, else the side to act), with the cube, score and dice when the gnubg Match ID allows."""
    game = view.game
    if game is None:
        return ""
    side = viewer_side(view, viewer)
    try:
        state = decode_match_id(game.match_id) if game.match_id else None
    except BackgammonError:  # an ID gnubg writes but refuses to read (a raw score above the length, case SC19)
        state = None
    names = view.names if state is not None else None
    return ascii_board(game.board_for(side), state=state, names=names, bottom=side if state is not None else None)


class Console:
    """A line-by-line front end over ``service``: :meth:`handle` takes one typed line and returns the text to show.

    ``images``: the folder for board PNGs (None = no images); ``options``: how they are drawn; ``admin``: whether
    the console user may change club settings (a console is its own club, so yes by default)."""

    def __init__(
        self,
        service: ClubService,
        *,
        images: Path | None = None,
        options: BoardOptions | None = None,
        guild_id: int = CONSOLE_GUILD,
        admin: bool = True,
    ) -> None:
        self.service = service
        self.images = images
        self.options = options or BoardOptions()
        self.guild_id = guild_id
        self.admin = admin
        self.member: int | None = None
        self.name = ""
        self.written: list[Path] = []
        self._recent: dict[int, int] = {}
        self._last_match: int | None = None

    @property
    def prompt(self) -> str:
        """``alice> `` (or ``> `` before ``as NAME``)."""
        return f"{self.name}> " if self.name else "> "

    # -- input -----------------------------------------------------------------------------------------------------
    async def handle(self, line: str) -> str:
        """Run one line; returns the reply (errors included, in words). Raises ``EOFError`` for ``quit``."""
        line = strip_comment(line.strip())
        if not line:
            return ""
        try:
            words = shlex.split(line)
        except ValueError as error:
            return f"Cannot read that line: {error}"
        if words[0] == "/bg":
            words = words[1:]
        elif words[0].startswith("/bg"):
            words[0] = words[0][3:]
        if not words:
            return HELP
        command, args = words[0].lstrip("/").lower(), words[1:]
        if command in ("quit", "exit"):
            raise EOFError
        if command in ("help", "?"):
            return HELP
        if command == "as":
            return await self.act_as(" ".join(args))
        handler: Callable | None = getattr(self, f"cmd_{command}", None)
        if handler is None:
            return f"Unknown command {command!r}.\n{HELP}"
        if self.member is None:
            return "Say who you are first: as NAME (e.g. as alice)."
        try:
            return self.console_words(await handler(args), command, args)
        except BackgammonError as error:
            text = "Refused: " + frontend.explain(error, await self._legal_for(error))
            return self.console_words(text, command, args)

    def console_words(self, text: str, command: str, args: list[str]) -> str:
        """``text`` (a club or Discord-layer message) in the console's syntax: ``accept 2`` / ``game=2`` instead of
        the ``game:`` option, ``challenge NAME`` instead of ``/bg challenge``, and the exact ``python -m club
        verify`` command for this database."""
        if "say which one with game: (its number)" in text:
            number = re.search(r"#(\d+)", text.split("\n", 1)[-1])
            number = number.group(1) if number else "N"
            typed = " ".join([command, *args, f"game={number}"] if command in GAME_OPTION else [command, number])
            text = text.replace("say which one with game: (its number)", f"say which one, e.g. {typed}")
        text = text.replace("Start one with /bg challenge.", "Start one with: challenge NAME (e.g. challenge bob 5).")
        path = getattr(self.service.db, "path", None)
        if path is not None:
            command_line = f"python -m club verify {shlex.quote(str(Path(path).resolve()))}"
            text = text.replace("(python -m club verify)", f"(in the project folder: {command_line})")
        return text

    async def _legal_for(self, error: BaseException) -> list[str] | None:
        match_id = self._last_match
        if match_id is None:
            return None
        try:
            return await self.service.legal_plays(match_id, self.member)
        except BackgammonError:
            return None

    async def act_as(self, name: str) -> str:
        """``as NAME``: register NAME in the console club (if new) and act as him."""
        name = name.strip()
        if not name:
            return "as NAME, e.g. as alice"
        record = await self.service.register(self.guild_id, member_id(name), name)
        self.member, self.name = record.user_id, record.display_name
        waiting = await self.service.waiting(self.member, guild_id=self.guild_id)
        text = f"You are {record.display_name}."
        if waiting:
            text += " Waiting for you: " + "; ".join(frontend.describe_item(item, True) for item in waiting)
        return text

    # -- argument helpers -------------------------------------------------------------------------------------------
    def _take_game(self, args: list[str]) -> tuple[int | None, list[str]]:
        """Split a ``game=N`` / ``#N`` token (or a trailing number) off ``args``."""
        rest = []
        game = None
        for token in args:
            lowered = token.lower()
            if lowered.startswith("game="):
                game = self._number(token[5:])
            elif token.startswith("#") and token[1:].isdigit():
                game = int(token[1:])
            else:
                rest.append(token)
        if game is None and rest and rest[-1].isdigit():
            game = int(rest.pop())
        return game, rest

    @staticmethod
    def _number(text: str) -> int:
        if not text.isdigit():
            raise InvalidRequestError(f"a game is its number, like 12, not {text!r}")
        return int(text)

    async def _match(self, game: int | None) -> int:
        """The match meant: ``game`` if given, else the last one this member used here (like a Discord thread),
        else his only open one."""
        recent = self._recent.get(self.member)
        try:
            is_open = recent is not None and (await self.service.state(recent)).status in ("challenged", "active")
        except BackgammonError:  # a game number he mistyped last time: forget it
            self._recent.pop(self.member, None)
            recent = None
            is_open = False
        try:
            match_id = await frontend.resolve_match(
                self.service, self.member, guild_id=self.guild_id, given=game, here=recent if is_open else None
            )
        except InvalidRequestError:
            if game is not None or recent is None:
                raise
            match_id = recent  # his last match is over and he has no other: look at that one
        self._recent[self.member] = match_id
        self._last_match = match_id
        return match_id

    # -- output -------------------------------------------------------------------------------------------------------
    async def show(self, outcome: Outcome) -> str:
        """What happened, the board seen by whoever acts next, the image path and whose turn it is."""
        view = outcome.view
        lines = [outcome.message] if outcome.message else []
        lines.append(await self.board_text(view, view.waiting_for or self.member))
        return "\n".join(line for line in lines if line)

    async def board_text(self, view: TableView, viewer: int | None) -> str:
        """The ASCII board (if a game has started), the PNG written and the next step, for ``viewer``."""
        lines = []
        if view.game is not None:
            lines.append(ascii_table(view, viewer))
            if self.images is not None:
                png = await render_table_async(view, viewer, self.options)
                self.images.mkdir(parents=True, exist_ok=True)
                path = self.images / board_filename(view, viewer_side(view, viewer))
                path.write_bytes(png)
                self.written.append(path)
                lines.append(f"Board image: {path}")
        lines.append(self.next_step(view))
        return "\n".join(lines)

    @staticmethod
    def next_step(view: TableView) -> str:
        """``Next: Bob must roll or double (as bob).`` or how the match stands when nobody is to act."""
        if view.waiting_for is not None:
            side = view.side_of(view.waiting_for)
            name = view.names[side]
            text = f"Next: {name} must {view.pending_text}"
            if view.pending == "play" and view.game is not None and view.game.dice:
                text += f" {dice_text(view.game.dice)}"
            return text + f" (as {name.lower()}) — match #{view.match_id}."
        if view.status == "over":
            if view.kind == "match" and view.winner is not None:
                return f"Match #{view.match_id} is over: {view.names[view.winner]} won {view.score[view.winner]}–{view.score[1 - view.winner]}."
            return f"Session #{view.match_id} is over: {view.names[0]} {view.score[0]:+d}, {view.names[1]} {view.score[1]:+d}."
        return f"Match #{view.match_id}: {view.status}."

    # -- commands ------------------------------------------------------------------------------------------------------
    async def cmd_challenge(self, args: list[str]) -> str:
        """``challenge NAME [LENGTH|money] [RULES] [STAKE]``."""
        if not args:
            return "challenge NAME [LENGTH|money] [RULES] [STAKE], e.g. challenge bob 5"
        opponent_name, rest = args[0], args[1:]
        length, rules, stake = 0, None, 0
        positional = []
        for token in rest:
            lowered = token.lower()
            if lowered.startswith("stake="):
                stake = self._number(token[6:])
            elif lowered.startswith("length="):
                length = self._number(token[7:])
            elif lowered.startswith("rules="):
                rules = token[6:]
            else:
                positional.append(lowered)
        for index, token in enumerate(positional):  # LENGTH|money, then RULES, then STAKE (a number)
            if index == 0 and (token == "money" or token.isdigit()):
                length = 0 if token == "money" else int(token)
            elif token in PRESETS and rules is None:
                rules = token
            elif token.isdigit():
                stake = int(token)
            else:
                raise InvalidRequestError(
                    f"{token!r} is not a length, 'money', a rule set ({', '.join(PRESETS)}) or a stake"
                )
        opponent = await self.service.register(self.guild_id, member_id(opponent_name), opponent_name)
        outcome = await self.service.challenge(
            self.guild_id, self.member, opponent.user_id, length=length, rules=rules, stake=stake
        )
        return outcome.message + "\n" + self.next_step(outcome.view)

    async def _answer(self, args: list[str], yes: bool) -> str:
        game, _ = self._take_game(args)
        match_id = await self._match(game)
        view = await self.service.state(match_id)
        action = frontend.answer_action(view, self.member, yes)
        return await self.show(await frontend.perform(self.service, match_id, self.member, action))

    async def cmd_accept(self, args: list[str]) -> str:
        """``accept [game]``: the challenge or resignation offered to you."""
        return await self._answer(args, True)

    async def cmd_decline(self, args: list[str]) -> str:
        """``decline [game]`` (also ``reject``): the challenge or resignation offered to you."""
        return await self._answer(args, False)

    cmd_reject = cmd_decline

    async def cmd_withdraw(self, args: list[str]) -> str:
        """``withdraw [game]``: your unanswered challenge."""
        game, _ = self._take_game(args)
        match_id = await self._match(game)
        return await self.show(await frontend.perform(self.service, match_id, self.member, "cancel"))

    async def _simple(self, action: str, args: list[str]) -> str:
        game, rest = self._take_game(args)
        if rest:
            raise InvalidRequestError(f"{action} takes only a game number, not {' '.join(rest)!r}")
        match_id = await self._match(game)
        return await self.show(await frontend.perform(self.service, match_id, self.member, action))

    async def cmd_roll(self, args):
        """``roll [game]``."""
        return await self._simple("roll", args)

    async def cmd_double(self, args):
        """``double [game]`` (RULES D1)."""
        return await self._simple("double", args)

    async def cmd_take(self, args):
        """``take [game]`` (RULES D2)."""
        return await self._simple("take", args)

    async def cmd_drop(self, args):
        """``drop [game]`` (RULES D2)."""
        return await self._simple("drop", args)

    async def cmd_beaver(self, args):
        """``beaver [game]`` (RULES D3)."""
        return await self._simple("beaver", args)

    async def cmd_raccoon(self, args):
        """``raccoon [game]`` (RULES D3)."""
        return await self._simple("raccoon", args)

    async def cmd_stop(self, args):
        """``stop [game]``: end a money session after this game."""
        return await self._simple("stop", args)

    async def cmd_move(self, args: list[str]) -> str:
        """``move PLAY [game=N]``: play the dice (RULES G4–G10)."""
        game = None
        rest = []
        for token in args:
            if token.lower().startswith("game=") or (token.startswith("#") and token[1:].isdigit()):
                game, _ = self._take_game([token])
            else:
                rest.append(token)
        if not rest:
            raise InvalidRequestError("move PLAY, e.g. move 13/7 8/7")
        match_id = await self._match(game)
        return await self.show(await frontend.perform(self.service, match_id, self.member, "play", " ".join(rest)))

    cmd_play = cmd_move

    async def cmd_plays(self, args: list[str]) -> str:
        """``plays [TYPED] [game=N]``: the legal plays, filtered like Discord's autocomplete."""
        game = None
        rest = []
        for token in args:
            if token.lower().startswith("game=") or (token.startswith("#") and token[1:].isdigit()):
                game, _ = self._take_game([token])
            else:
                rest.append(token)
        match_id = await self._match(game)
        plays = await self.service.legal_plays(match_id, self.member)
        if not plays:
            view = await self.service.state(match_id)
            return "You have no dice to play now. " + self.next_step(view)
        shown = frontend.filter_plays(plays, " ".join(rest), limit=len(plays))
        return f"{len(shown)} of {len(plays)} legal plays: " + ", ".join(shown)

    async def cmd_resign(self, args: list[str]) -> str:
        """``resign [single|gammon|backgammon] [game]`` (RULES G12)."""
        game, rest = self._take_game(args)
        level = frontend.resign_level(rest[0] if rest else None)
        match_id = await self._match(game)
        return await self.show(await frontend.perform(self.service, match_id, self.member, "resign", level))

    async def cmd_board(self, args: list[str]) -> str:
        """``board [game]``: the board from your side."""
        game, _ = self._take_game(args)
        view = await self.service.state(await self._match(game))
        return await self.board_text(view, self.member)

    async def cmd_games(self, args: list[str]) -> str:
        """``games``: your games, waiting for you first."""
        waiting, others = await frontend.open_games(self.service, self.member, self.guild_id)
        return frontend.games_text(waiting, others)

    async def cmd_rules(self, args: list[str]) -> str:
        """``rules [game]``."""
        game, _ = self._take_game(args)
        return frontend.rules_text(await self.service.state(await self._match(game)))

    async def cmd_verify(self, args: list[str]) -> str:
        """``verify [game]``: the dice proof of the current (or last) game (RULES A1)."""
        game, _ = self._take_game(args)
        proof = await frontend.dice_proof(self.service, await self._match(game))
        return proof.text

    async def cmd_export(self, args: list[str]) -> str:
        """``export [game] [FILE]``: the match as a .mat file (RULES A4), by default ``<its name>.mat`` in the
        current directory; the reply gives the full path written."""
        game = None
        rest = []
        for token in args:
            if token.isdigit() or token.lower().startswith("game=") or token.startswith("#"):
                game, _ = self._take_game([token])
            else:
                rest.append(token)
        name, text = await export_mat(self.service, await self._match(game))
        path = (Path(rest[0]) if rest else Path(name)).resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return f"Wrote {path} ({text.count(chr(10))} lines)."

    async def cmd_notify(self, args: list[str]) -> str:
        """``notify on|off``."""
        if not args or args[0].lower() not in ("on", "off"):
            raise InvalidRequestError("notify on or notify off")
        preferences = await self.service.set_preferences(self.member, notify=args[0].lower() == "on")
        return f"Direct messages when it is your turn: {'on' if preferences.notify else 'off'}."

    async def cmd_config(self, args: list[str]) -> str:
        """``config [KEY VALUE ...]``: show or change the club settings (numbers in seconds)."""
        if not self.admin:
            raise InvalidRequestError("only a club admin can change the settings")
        if len(args) % 2:
            raise InvalidRequestError("config KEY VALUE [KEY VALUE …], e.g. config move_time 86400")
        changes = {}
        for key, value in zip(args[::2], args[1::2], strict=True):
            changes[key] = _setting_value(key, value)
        if changes:
            settings = await self.service.configure_club(self.guild_id, **changes)
        else:
            settings = await self.service.club_settings(self.guild_id)
        return "\n".join(f"{key} = {value}" for key, value in settings.to_json().items())


def _setting_value(key: str, value: str):
    if key == "reminders":
        return [float(part) for part in value.split(",") if part.strip()]
    if key == "rule_overrides":
        import json

        return json.loads(value)
    try:
        number = float(value)
    except ValueError:
        return value
    return int(number) if number.is_integer() else number


def _read_line(stdin: TextIO, stdout: TextIO, prompt: str | None) -> str:
    """Show ``prompt`` (None: none) and read one line of ``stdin`` ('' at EOF). Ctrl-C raises ``KeyboardInterrupt``
    here: asyncio's own SIGINT handler would only cancel the task once a line arrived, so Python's default one is
    in place while the console waits."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler) if main else None
    try:
        if prompt is not None:
            stdout.write(prompt)
            stdout.flush()
        return stdin.readline()
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


async def run_console(service: ClubService, stdin: TextIO, stdout: TextIO, **options) -> int:
    """The REPL: read lines from ``stdin`` until EOF (Ctrl-D), Ctrl-C or ``quit``, print each reply to ``stdout``
    and ``Bye.`` at the end. With a terminal the prompt shows the acting member; a script's lines are echoed after
    the prompt. Returns 0."""
    console = Console(service, **options)
    interactive = stdin.isatty()
    print("Backgammon club console — type help for the commands, quit to leave.", file=stdout)
    while True:
        try:
            line = _read_line(stdin, stdout, console.prompt if interactive else None)
        except KeyboardInterrupt:
            line = ""
        if not line:
            if interactive:
                print(file=stdout)  # end the prompt's line
            break
        if not interactive and strip_comment(line.strip()):
            print(f"{console.prompt}{line.rstrip()}", file=stdout)
        try:
            reply = await console.handle(line)
        except EOFError:
            break
        if reply:
            print(reply, file=stdout)
    print("Bye.", file=stdout)
    return 0


if __name__ == "__main__":  # pragma: no cover - use python bot.py --console
    sys.exit("Run the console with: python bot.py --console")
