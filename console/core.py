"""The console's frame: :class:`Console` reads one line, finds its verb in the table (:mod:`console.verbs`),
runs it for the member acting (``as NAME``) and turns every refusal into words. The game verbs, the chouette verbs,
the books and time live in their own modules; this one holds what they share: who acts, which game a command
without a number means (:func:`club.frontend.choose_game`), and writing the board pictures."""

from __future__ import annotations

import errno
import hashlib
import re
import shlex
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from backgammon.errors import BackgammonError, NotationError
from club import frontend
from club.boards import BoardOptions
from club.chouette import ChouetteService
from club.errors import InvalidRequestError, StorageError
from club.events.service import EventService
from club.records import ClubRecords
from club.service import ClubService
from club.table import TableType

from .parse import Target, member_name, split_line, strip_comment
from .verbs import find, help_text, lent, normal_words, unknown_command

if TYPE_CHECKING:
    from club.analysis.pool import AnalysisPool
    from club.quiz import NewQuiz

_TIMESTAMP = re.compile(r"<t:(-?[0-9]{1,12})(?::[a-zA-Z])?>")
"""Discord's timestamp markup (``<t:1700000000:f>``), written out in UTC in the console."""
_CONFIG = re.compile(r"/bg config (\w+):(\S+)")
"""``/bg config away_days:14`` in a club message is ``config away_days 14`` in the console."""
_PLAYER = re.compile(r"/player (away|back|ping|nudge|autoroll|seed)\b")
"""``/player back`` in a club message is ``back`` in the console."""
_ITALIC_LINE = re.compile(r"^_(.+)_$", re.M)
"""A line in Discord's italics (``_note_``): a plain line in the console."""

CONSOLE_GUILD = 1
"""The club id the console plays in (a console is one club)."""

CHOUETTE_CHANNELS = 1_000
"""Chouettes are played in "channels" numbered from here (a console has no channels; each chouette gets one)."""


def member_id(name: str) -> int:
    """A stable member id for a console name (case-insensitive): the first 6 bytes of its SHA-256, plus one."""
    digest = hashlib.sha256(name.strip().lower().encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:6], "big") + 1


class Console:
    """A line-by-line front end over ``service``: :meth:`handle` takes one typed line and returns the text to show.

    ``images``: the folder for board and book PNGs (None = no images); ``options``: how they are drawn; ``admin``:
    whether the console user may change club settings and correct the books (a console is its own club, so yes by
    default). ``chouettes`` / ``records``: the chouette and book use-cases (made over ``service`` when not given).
    ``review_after_match``: when a rated match or money session ends (and the engine is installed), the engine's
    review is computed in the background and printed when ready (:mod:`console.study`; ``bot.py --console``
    turns it on unless ``--no-review`` or ``[analysis] review_after_match = false``).
    """

    def __init__(
        self,
        service: ClubService,
        *,
        images: Path | None = None,
        options: BoardOptions | None = None,
        guild_id: int = CONSOLE_GUILD,
        admin: bool = True,
        chouettes: ChouetteService | None = None,
        records: ClubRecords | None = None,
        review_after_match: bool = False,
    ) -> None:
        self.service = service
        self.chouettes = chouettes or ChouetteService(service)
        self.records = records or ClubRecords(service)
        self.events = EventService(service)
        self.images = images
        self.options = options or BoardOptions()
        self.guild_id = guild_id
        self.admin = admin
        self.acting: int | None = None  # the member named by ``as NAME`` (None before)
        self.name = ""
        self.written: list[Path] = []
        self.last_match: int | None = None
        self.last_quiz: NewQuiz | None = None  # the last quiz printed, for quiz answer
        self.typed: list[str] = []
        self.analysis_pool: AnalysisPool | None = None  # the engine's pool (console.study.pool_of), on first use
        self.review_after_match = review_after_match
        self.review_thread: ThreadPoolExecutor | None = None  # drives the automatic reviews (console.study)
        self.pending_reviews: dict = {}  # match id → (its TableView, the review's future)

    @property
    def member(self) -> int:
        """The member the console acts as (``as NAME``). Raises :class:`InvalidRequestError` before anyone is
        named."""
        if self.acting is None:
            raise InvalidRequestError("Say who you are first: as NAME (e.g. as alice).")
        return self.acting

    @property
    def prompt(self) -> str:
        """``alice> `` (or ``> `` before ``as NAME``)."""
        return f"{self.name}> " if self.name else "> "

    # -- input -----------------------------------------------------------------------------------------------------
    async def handle(self, line: str) -> str:
        """Run one line; returns the reply (refusals included, in words). Raises ``EOFError`` for ``quit``. Never
        raises anything else: an unexpected error becomes one line saying so."""
        try:
            reply = await self._handle(line)
            news = [self.console_words(update.text) for update in self.events.take_news() if update.text]
            return "\n".join(text for text in [reply, *news, *await self.finished_reviews()] if text)
        except EOFError:
            raise
        except BackgammonError as error:
            return "Refused: " + self.console_words(frontend.explain(error, await self._legal_for(error)))
        except StorageError as error:
            if "full" in str(error).lower():
                return "Refused: the database is full (no space left on the disk): nothing was saved. Free some space."
            return f"Refused: the database could not be used ({error}): nothing was saved."
        except OSError as error:
            return "Refused: " + file_problem(error)
        except (RecursionError, MemoryError, UnicodeError) as error:
            return f"Refused: that cannot be read ({type(error).__name__}: {str(error)[:200]})."
        except Exception as error:
            return (
                f"Internal error ({type(error).__name__}: {str(error)[:200]}); nothing more was done. Please report it."
            )

    async def _handle(self, line: str) -> str:
        line = strip_comment(line.strip())
        if not line:
            return ""
        words = normal_words(split_line(line))
        if not words:
            return help_text()
        entry, args = find(words)
        self.typed = [entry.name.split()[-1] if entry else "", *args][:8]
        if entry is None:
            return unknown_command(words)
        if self.acting is None and not entry.anyone:
            return "Say who you are first: as NAME (e.g. as alice)."
        return self.console_words(await entry.run(self, args), entry.name)

    async def finished_reviews(self, *, wait: bool = False) -> list[str]:
        """The automatic reviews done by now (all, with ``wait``), as text (:func:`console.study.ready_reviews`)."""
        if not self.pending_reviews:
            return []
        return [self.console_words(text) for text in await lent("ready_reviews")(self, wait=wait)]

    def close(self) -> None:
        """Stop the engine's worker processes and the review thread (the end of the console)."""
        if self.review_thread is not None:
            self.review_thread.shutdown(wait=True, cancel_futures=True)
            self.review_thread = None
        if self.analysis_pool is not None:
            self.analysis_pool.shutdown()

    def console_words(self, text: str, command: str = "") -> str:
        """``text`` (a club or Discord-layer message) in the console's syntax: ``challenge NAME`` instead of ``/bg
        challenge``, the exact ``python -m club verify`` command for this database, no Discord markdown (bold,
        italic lines)."""
        text = _ITALIC_LINE.sub(r"\1", text.replace("**", ""))
        text = text.replace("Start one with /bg challenge.", "Start one with: challenge NAME (e.g. challenge bob 5).")
        text = text.replace("challenge someone with /bg challenge", "challenge someone with: challenge NAME")
        text = _TIMESTAMP.sub(lambda m: time.strftime("%a %d %b %Y %H:%M UTC", time.gmtime(int(m[1]))), text)
        text = _PLAYER.sub(r"\1", text)
        text = _CONFIG.sub(r"config \1 \2", text)
        target = self.service.verify_target()
        if target is not None:  # PostgreSQL: the URL, its password never printed
            shown, hidden = target
            command_line = f"python -m club verify {shlex.quote(shown)}"
            where = ", with the password in place of <hidden>" if hidden else ""
            text = text.replace("(python -m club verify)", f"(in the project folder{where}: {command_line})")
        return text

    async def _legal_for(self, error: BaseException) -> list[str] | None:
        if self.last_match is None or self.acting is None or not isinstance(error, NotationError):
            return None
        try:
            return await self.service.legal_plays(self.last_match, self.member)
        except BackgammonError:
            return None

    # -- who and which game -----------------------------------------------------------------------------------------
    async def someone(self, name: str) -> int:
        """The member called ``name`` (``@name`` alike; registered in the console club if new); returns his id.
        Raises :class:`InvalidRequestError` for a name that is not one printable word (:func:`member_name`)."""
        name = member_name(name)
        record = await self.service.register(self.guild_id, member_id(name), name)
        return record.user_id

    async def known(self, name: str) -> int:
        """The member called ``name`` (``@name`` alike), who must already be in the club. Raises
        :class:`InvalidRequestError` (not one word, or not a member yet)."""
        name = member_name(name)
        user = member_id(name)
        if user not in await self.service.display_names([user]):
            raise InvalidRequestError(
                f"{name[:40]!r} is not a member of this club yet: a member joins by typing as {name[:40]} once"
            )
        return user

    async def choices(
        self, *, kinds: tuple[str, ...] = tuple(TableType), waiting_only: bool = False
    ) -> list[frontend.GameChoice]:
        """The acting member's open games as :class:`~club.frontend.GameChoice` (key: a :class:`Target`): his
        matches and sessions, and the chouettes he sits in (waiting = a decision is his to make now;
        ``waiting_only``: of the chouettes only those, found without loading the others)."""
        result = []
        if TableType.MATCH in kinds:
            waiting, others = await frontend.open_games(self.service, self.member, self.guild_id)
            result += [frontend.GameChoice(Target(TableType.MATCH, i.match_id), frontend.describe_item(i, True), True,
                                           i.pending) for i in waiting]  # fmt: skip
            result += [frontend.GameChoice(Target(TableType.MATCH, i.match_id), frontend.describe_item(i, False), False)
                       for i in others]  # fmt: skip
        if TableType.CHOUETTE in kinds:
            result += await lent("chouette_choices")(self, waiting_only=waiting_only)
        return result

    async def target(
        self, given: Target | None, *, for_turn: bool, kinds=tuple(TableType), action: str | None = None
    ) -> Target:
        """The game a command means: ``given``, else by the rule of :func:`club.frontend.choose_game` over
        :meth:`choices` of ``kinds`` (``action``: the game action, to find the one game where it can be done). Raises :class:`InvalidRequestError` (none, or several: with the list)."""
        if given is not None:
            if given.kind not in kinds:
                raise InvalidRequestError(f"that command is for {' or '.join(kinds)}es, not for {given}")
            return given
        choices = await self.choices(kinds=kinds, waiting_only=for_turn)
        if for_turn and not any(choice.waiting for choice in choices):  # none waits for him: list every game he has
            choices = await self.choices(kinds=kinds)
        if not choices and not for_turn and "match" in kinds:  # a look at his last game, finished since
            latest = await self.service.history(self.member, guild_id=self.guild_id, limit=1)
            if latest:
                return Target(TableType.MATCH, latest[0].match_id)
        first = next((c.key for c in choices if c.waiting), choices[0].key if choices else Target(TableType.MATCH, 1))
        typed = " ".join(self.typed)
        if first.kind == TableType.CHOUETTE:
            example = f"{typed} chouette={first.id}"
        elif self.typed[:1] in (["move"], ["play"], ["plays"]):
            example = f"{typed} game={first.id}"
        else:
            example = f"{typed} {first.id}"
        found = frontend.choose_game(choices, for_turn=for_turn, how=f"say which one, e.g. {example.strip()}",
                                     action=action)  # fmt: skip
        assert isinstance(found, Target)
        return found

    # -- pictures ---------------------------------------------------------------------------------------------------
    def write_png(self, name: str, data: bytes) -> str:
        """Write ``data`` as ``name`` in the images folder; returns the line to print (the path, or why not)."""
        if self.images is None:
            return ""
        path = self.images / name
        try:
            self.images.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as error:
            return f"(image not written: {file_problem(error, path)})"
        self.written.append(path)
        return f"Image: {path}"


def file_problem(error: OSError, path: Path | str | None = None) -> str:
    """An ``OSError`` in words, with what would be right (another folder, free space)."""
    where = path if path is not None else (error.filename or "the file")
    reason = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"cannot write {where}: the disk is full — free some space and try again"
    if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EACCES, errno.EPERM, errno.EROFS, errno.EISDIR):
        return f"cannot write {where}: {reason} — give a path in a folder you can write to"
    return f"cannot write {where}: {reason}"
