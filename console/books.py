"""The ``/club`` verbs of the console: score sheets, the ledger, settle-up, leaderboards, ratings, statistics, the
books' export and the admins' corrections (RULES A3, A4) — each the :class:`~club.records.ClubRecords` call the cog
makes, printed as a text table (:mod:`console.tables`) with the same PNG written beside the boards. Money is
shown at the stakes wherever a stake was set."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

from club.errors import InvalidRequestError
from club.records import LEADERBOARDS, export_books, pictures, texts
from club.records.periods import Source
from club.wording import plural

from .core import Console, file_problem
from .parse import MAX_ID, number, options
from .tables import text_table
from .verbs import verb

_SESSION = re.compile(r"^(money|match|chouette|session)[:=]([0-9_]+)$", re.IGNORECASE)


def split_books_args(args: list[str]) -> tuple[str | None, str | None, list[str]]:
    """``[PERIOD words] [money:ID|match:ID|chouette:ID|session=…] [share]`` → ``(period text or None, session
    or None, other words)``; ``share`` is Discord's (everyone sees it) and means nothing here."""
    named, rest = options(args, ("period", "session"))
    session = named.get("session")
    words = []
    for word in rest:
        match = _SESSION.match(word)
        if match is not None:
            session = word
        elif word.lower() not in ("share", "share=true", "share:true"):
            words.append(word)
    if session is not None:
        found = _SESSION.match(session) or re.match(r"^([a-z]+)[: ]?([0-9_]+)$", session.lower())
        if found is None:
            raise InvalidRequestError(f"a session is written money:ID, match:ID or chouette:ID, not {session[:40]!r}")
        source = found.group(1).lower()
        session = (
            f"{'money' if source == 'session' else source}:{number(found.group(2), 'a session number', high=MAX_ID)}"
        )
    period = named.get("period") or (" ".join(words) if words else None)
    return period, session, []


async def _picture(console: Console, table, name: str, words: str = "") -> str:
    lines = [text_table(table)]
    if words:
        lines.append(words)
    if console.images is not None:
        lines.append(console.write_png(name, await pictures.png_async(table, theme=console.options.theme)))
    return "\n".join(line for line in lines if line)


@verb("club sheet", "club sheet [money:ID|match:ID|chouette:ID]", "a session's score sheet (default: your latest)",
      bare=True)  # fmt: skip
async def sheet(console: Console, args: list[str]) -> str:
    """``club sheet [SESSION]``."""
    period, session, _ = split_books_args(args)
    if period is not None:
        raise InvalidRequestError(f"club sheet [money:ID|match:ID|chouette:ID], not {period[:40]!r}")
    found = await console.records.sheet(console.guild_id, session, member=console.member)
    name = f"sheet-{found.session.source}-{found.session.id}.png"
    words = ""
    if found.session.source == Source.CHOUETTE:
        words = (f"The books' sheet (corrections included). The chouette's own sheet, with Box, the circled losers and "
                 f"the next Captain (RULES C11): chouette sheet chouette={found.session.id}")  # fmt: skip
    return await _picture(console, pictures.sheet_table(found), name, words)


@verb("club ledger", "club ledger [week|last week|month|day|all] [SESSION]", "who is up: points and money",
      bare=True)  # fmt: skip
async def ledger(console: Console, args: list[str]) -> str:
    """``club ledger [PERIOD] [SESSION]`` (default: this week)."""
    period, session, _ = split_books_args(args)
    found = await console.records.ledger(console.guild_id, period or "week", session=session, member=console.member)
    zero = "Every column sums to zero." if found.is_zero_sum() else "WARNING: the ledger does not sum to zero."
    return await _picture(console, pictures.ledger_table(found), "ledger.png", zero)


@verb("club settle", "club settle [PERIOD] [SESSION]", "the fewest payments that clear a period", bare=True,
      aliases=("club settle-up",))  # fmt: skip
async def settle(console: Console, args: list[str]) -> str:
    """``club settle [PERIOD] [SESSION]`` (default: this week)."""
    period, session, _ = split_books_args(args)
    found = await console.records.settle(console.guild_id, period or "week", session=session, member=console.member)
    return await _picture(console, pictures.settlement_table(found), "settle-up.png")


@verb("club leaderboard", f"club leaderboard [{'|'.join(LEADERBOARDS)}] [PERIOD]",
      "money, matches (ratings), chouette or pr (error rate)", bare=True)  # fmt: skip
async def leaderboard(console: Console, args: list[str]) -> str:
    """``club leaderboard [KIND] [PERIOD]`` (default: money, all time)."""
    kind = "money"
    if args and args[0].lower() in LEADERBOARDS:
        kind, args = args[0].lower(), args[1:]
    named, args = options(args, ("kind",))
    kind = named.get("kind", kind).lower()
    period, _, _ = split_books_args(args)
    board = await console.records.leaderboard(console.guild_id, kind, period or "all")
    return await _picture(console, pictures.leaderboard_table(board), f"leaderboard-{kind}.png")


@verb("club rating", "club rating [NAME]", "a member's match rating (FIBS formula)", bare=True)
async def rating(console: Console, args: list[str]) -> str:
    """``club rating [NAME]``."""
    who = await console.known(args[0]) if args else console.member
    found, rank, rated = await console.records.rating(console.guild_id, who)
    name = (await console.records.names([who])).get(who, args[0] if args else console.name)
    return texts.rating_text(name, found, rank, rated)


@verb("club stats", "club stats [NAME]", "a member's statistics: games, gammons, cubes, money", bare=True)
async def stats(console: Console, args: list[str]) -> str:
    """``club stats [NAME]``."""
    who = await console.known(args[0]) if args else console.member
    text = texts.stats_text(await console.records.stats(console.guild_id, who))
    return f"{text}\n{(await console.events.member_events(console.guild_id, who)).text()}"


@verb(
    "club export", "club export [PERIOD] [SESSION] [FILE.zip]", "the books as a ZIP: ledger and sheet CSVs, .mat files"
)
async def export(console: Console, args: list[str]) -> str:
    """``club export [PERIOD] [SESSION] [FILE]`` (default: this month, into the current folder)."""
    files = [word for word in args if word.lower().endswith(".zip") or "/" in word]
    period, session, _ = split_books_args([word for word in args if word not in files])
    if len(files) > 1:
        raise InvalidRequestError("club export [PERIOD] [SESSION] [FILE.zip]: one file")
    books = await export_books(console.records, console.guild_id, period or "month", session=session)
    path = Path(files[0] if files else books.filename).expanduser()
    try:
        path = path.resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        with books.file, path.open("wb") as out:  # the streamed ZIP, copied in a worker thread
            await asyncio.to_thread(shutil.copyfileobj, books.file, out)
    except OSError as error:
        raise InvalidRequestError(file_problem(error, path)) from None
    text = f"Wrote {path}: the club's books, {len(books.names)} files ({', '.join(books.names[:6])}"
    text += "…)." if len(books.names) > 6 else ")."
    if books.left_out:
        text += f" {plural(books.left_out, 'older match file')} left out: export a shorter period for them."
    return text


@verb("club correct", "club correct PAYER PAYEE REASON… [points=N] [money=N] [SESSION]",
      "admins: correct the ledger (payer gives payee), kept as the audit trail", bare=True)  # fmt: skip
async def correct(console: Console, args: list[str]) -> str:
    """``club correct PAYER PAYEE REASON [points=N] [money=N] [SESSION]``."""
    if not console.admin:
        raise InvalidRequestError("only a club admin can correct the books")
    named, rest = options(args, ("points", "money", "reason", "payer", "payee"))
    sessions = [word for word in rest if _SESSION.match(word)]
    rest = [word for word in rest if word not in sessions]
    _, session, _ = split_books_args(sessions)
    if len(rest) < 2 + ("reason" not in named):
        raise InvalidRequestError("club correct PAYER PAYEE REASON [points=N] [money=N], e.g. correct bob ann "
                                  "'paid in cash' money=20")  # fmt: skip
    payer, payee = await console.known(rest[0]), await console.known(rest[1])
    reason = named.get("reason") or " ".join(rest[2:])
    points = number(named["points"], "points", low=0, high=10**9) if "points" in named else 0
    amount = number(named["money"], "money", low=0, high=10**9) if "money" in named else 0
    correction = await console.records.correct(console.guild_id, console.member, payer, payee, points=points,
                                               money=amount, reason=reason[:500], session=session)  # fmt: skip
    names = await console.records.names({console.member, payer, payee})
    return texts.correction_text(correction, names)
