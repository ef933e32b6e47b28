"""The books in words, for a chat message or a terminal (the pictures are :mod:`club.records.pictures`). No Discord
types; each function returns plain text (a few lines, Markdown-light: ``**bold**`` only)."""

from __future__ import annotations

from datetime import UTC, datetime

from storage.books import CorrectionRecord

from ..wording import plural
from .leaderboards import Figure, Leaderboard, figure
from .ledger import Ledger, Unit
from .periods import Source
from .ratings import Rating
from .service import Settlement
from .sheets import SessionSheet
from .stats import MemberStats


def signed(value: int) -> str:
    """``+5``, ``−3`` (a real minus sign), ``0``."""
    return f"+{value:,}" if value > 0 else (f"−{-value:,}" if value < 0 else "0")


def ledger_text(ledger: Ledger, *, limit: int = 10) -> str:
    """The first ``limit`` lines of the ledger: name, points, money (when a stake was set)."""
    if not ledger.lines:
        return f"**Club ledger — {ledger.period.label}**: no finished game in this period."
    money = ledger.has_money
    lines = [f"**Club ledger — {ledger.period.label}**" + (" (money at the stakes)" if money else " (points)")]
    for line in ledger.lines[:limit]:
        figures = f"{signed(line.total_points)} pts" + (f", {signed(line.money)}" if money else "")
        lines.append(f"{line.name}: {figures} ({line.games} game{'s' * (line.games != 1)})")
    if len(ledger.lines) > limit:
        lines.append(f"… and {len(ledger.lines) - limit} more (see the picture)")
    lines.append("Every column sums to zero." if ledger.is_zero_sum() else "WARNING: the ledger does not sum to zero.")
    return "\n".join(lines)


def settlement_text(settlement: Settlement) -> str:
    """One line per payment, or that everybody is square."""
    head = f"**Settle up — {settlement.ledger.period.label}**" + (
        "" if settlement.unit == Unit.MONEY else " (in points: no stakes were set)"
    )
    if not settlement.payments:
        return f"{head}\nEverybody is square: nothing to pay."
    lines = [head]
    for payment in settlement.payments:
        lines.append(f"{settlement.name(payment.payer)} pays {settlement.name(payment.payee)} {payment.amount:,}")
    balances = sum(1 for value in settlement.ledger.balances(settlement.unit).values() if value)
    clear = "clears" if len(settlement.payments) == 1 else "clear"
    lines.append(f"{plural(len(settlement.payments), 'payment')} {clear} {plural(balances, 'balance')}.")
    return "\n".join(lines)


def sheet_text(sheet: SessionSheet) -> str:
    """The sheet's title, games and totals in one or two lines."""
    totals = sheet.totals(Unit.MONEY if sheet.has_money else Unit.POINTS)
    unit = "" if sheet.has_money else " pts"
    figures = ", ".join(f"{sheet.names[m]} {signed(totals[m])}{unit}" for m in sheet.members)
    text = (
        f"**Score sheet — {sheet.title}** ({sheet.games} game{'s' * (sheet.games != 1)}; `{sheet.session}`)\n{figures}"
    )
    if sheet.session.source == Source.CHOUETTE:  # the books' sheet; the play's own is the chouette's (RULES C11)
        text += ("\nThe chouette's own sheet, with Box, the circled losers and the next Captain (RULES C11): "
                 "/bg chouette sheet in its channel.")  # fmt: skip
    return text


def rating_text(name: str, rating: Rating, rank: int | None, rated: int) -> str:
    """A member's FIBS rating, experience and record, with his rank."""
    if rating.matches == 0:
        return f"**{name}**: rating 1500.00 (no finished match yet; experience 0)."
    place = f", #{rank} of {rated}" if rank is not None else ""
    last = f"; last match {rating.last_change:+.2f}"
    return (
        f"**{name}**: rating {rating.rating:.2f}{place} — experience {rating.experience}, "
        f"matches won {rating.wins}, lost {rating.losses}{last}."
    )


def stats_text(stats: MemberStats) -> str:
    """A member's statistics in a few lines."""
    lines = [f"**{stats.name}** — statistics"]
    if stats.games:
        lines.append(
            f"Games {stats.games}: won {stats.wins} ({stats.win_rate:.0%}), gammons won {stats.gammons} "
            f"(backgammons {stats.backgammons}), gammons lost {stats.gammons_lost}; average cube "
            f"{stats.average_cube:.2f}"
        )
        lines.append(
            f"Cubes: offered {stats.doubles}, taken {stats.takes}, dropped {stats.drops}"
            + (f", beavers {stats.beavers}" if stats.beavers else "")
            + (f", raccoons {stats.raccoons}" if stats.raccoons else "")
        )
        lines.append(f"Money sessions: {signed(stats.money_points)} pts; at the stakes {signed(stats.money)}")
    else:
        lines.append("No finished money or match game yet.")
    rating = stats.rating
    lines.append(
        f"Matches: won {rating.wins}, lost {rating.losses}; rating {rating.rating:.2f} (experience {rating.experience})"
    )
    if stats.chouette_games:
        lines.append(
            f"Chouettes: {stats.chouette_games} game{'s' if stats.chouette_games != 1 else ''}, "
            f"{stats.chouette_wins} won, {signed(stats.chouette_points)} pts, "
            f"{signed(stats.chouette_money)} at the stakes"
        )
    if stats.pr is not None:
        lines.append(
            f"PR (Open Sage): {stats.pr:.2f} over {plural(stats.pr_decisions, 'decision')} in "
            f"{plural(stats.pr_matches, 'match', 'matches')} (lower is better)"
        )
    else:
        lines.append("PR (Open Sage): no analysed match yet (a finished match is analysed when its review is made)")
    if stats.replies:
        lines.append(
            f"Reply time: average {_duration(stats.reply_mean)}, median {_duration(stats.reply_median)} "
            f"over {plural(stats.replies, 'reply', 'replies')}; games waiting on {stats.name} now: {stats.waiting_on}"
        )
    else:
        lines.append(f"Reply time: no reply yet; games waiting on {stats.name} now: {stats.waiting_on}")
    return "\n".join(lines)


def _duration(seconds: float | None) -> str:
    """``"3.2 h"``, ``"12 min"`` or ``"2.5 days"``."""
    if seconds is None:
        return "-"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def leaderboard_text(board: Leaderboard, *, limit: int = 10) -> str:
    """The top ``limit`` of a leaderboard."""
    if not board.rows:
        return "\n".join((f"**{board.title}**: nobody on this board yet.", *board.notes))
    lines = [f"**{board.title}**"]
    for row in board.rows[:limit]:
        figures = []
        for heading, value in zip(board.headings, row.values, strict=True):
            if figure(heading) is Figure.RATE:
                figures.append(f"{heading} {value:.2f}" if heading == "PR" else f"{value:.2f}")
            elif figure(heading) is Figure.BALANCE:
                figures.append(f"{signed(value)} {'pts' if heading == 'points' else ''}".strip())
            else:
                figures.append(f"{heading} {value}")
        lines.append(f"{row.rank}. {row.name} — " + ", ".join(figures))
    return "\n".join((*lines, *board.notes))


def correction_text(correction: CorrectionRecord, names: dict[int, str]) -> str:
    """What a correction did, for the audit trail's reply."""
    what = " and ".join(
        part
        for part in (
            f"{correction.points:,} point{'s' * (correction.points != 1)}" if correction.points else "",
            f"{correction.money:,} at the stakes" if correction.money else "",
        )
        if part
    )
    when = datetime.fromtimestamp(correction.counts_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    session = f" ({correction.source}:{correction.source_id})" if correction.source else ""
    return (
        f"Correction #{correction.id}: {names.get(correction.payer, correction.payer)} gives "
        f"{names.get(correction.payee, correction.payee)} {what}{session}, counted {when}. "
        f"Reason: {correction.reason} — recorded by {names.get(correction.admin_id, correction.admin_id)}."
    )
