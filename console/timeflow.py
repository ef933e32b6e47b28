"""``wait 6h`` / ``wait 2d``: time passes on request. The console's club runs on a
:class:`~club.clock.ManualClock`; ``wait`` moves it forward deadline by deadline and runs the one clock at each
(:func:`club.scheduler.run_due` over the matches and the chouettes, and the events' own deadlines,
:meth:`club.events.service.EventService.tick`), so reminders, expiries, proxies and the club's own decisions at a
deadline (RULES A2, C9, M5) happen in order, in minutes."""

from __future__ import annotations

from club.clock import ManualClock
from club.clocks import clocks_of
from club.errors import InvalidRequestError
from club.notices import shown
from club.scheduler import run_due
from club.table import TableType
from club.wording import plural

from .chouettes import show as show_chouette
from .core import Console
from .games import show as show_match
from .parse import hours
from .player import CLAIM_VERBS
from .verbs import verb

MAX_WAIT = 366 * 86_400.0
"""The longest wait at once (a year)."""


async def next_due(console: Console) -> float | None:
    """When the next reminder or expiry of a match or a chouette is due, or None."""
    found = [
        await console.service.next_deadline_at(),
        await console.chouettes.next_deadline_at(),
        await console.events.next_at(),
    ]
    times = [t for t in found if t is not None]
    return min(times) if times else None


async def fire(console: Console, touched: dict | None = None) -> list[str]:
    """Run the one clock once at the clock's time; the notices in words (and the boards the club moved). The
    tables the club moved are added to ``touched`` (keys ``(kind, id)``, kind ``"chouette"`` or ``"match"``)."""
    lines = []
    fired = await run_due(clocks_of(console.service, console.chouettes))
    await shown(console.service, fired)  # shown here, as they fire
    for notice in fired:
        lines.append(notice.text.split("\n", 1)[0] if notice.outcome is not None else notice.text)
        if notice.offer and notice.offer_to is not None:  # the claim policy's buttons, as verbs
            name = (await console.service._names([notice.offer_to])).get(notice.offer_to, str(notice.offer_to))
            lines.append(f"{name} can: {CLAIM_VERBS} (as {name})")
        if notice.outcome is not None:  # what the club did, and the board now
            if touched is not None:
                touched[TableType(notice.table), notice.outcome.view.table_id] = None
            show = show_chouette if notice.table == TableType.CHOUETTE else show_match
            lines.append(await show(console, notice.outcome))
    for update in await console.events.tick():  # the events' deadlines: forfeits, the organiser asked, defaults
        lines.append(console.console_words(update.text))
        for notice in update.notices:  # the claim policy: the waiting member may claim his event match
            lines.append(console.console_words(notice.text))
            if notice.offer_to is not None:
                name = update.names.get(notice.offer_to, str(notice.offer_to))
                lines.append(f"{name} can: claim match (as {name.lower()})")
    lines += [console.console_words(update.text) for update in console.events.take_news() if update.text]
    return lines


@verb("wait", "wait 6h|2d|90m|1w", "let time pass: reminders, expiries, proxies and the club's decisions fire",
      group="console")  # fmt: skip
async def wait(console: Console, args: list[str]) -> str:
    """``wait DURATION``: advance the club's clock by DURATION, firing every deadline on the way, in order."""
    if len(args) != 1:
        raise InvalidRequestError("wait DURATION, e.g. wait 6h, wait 2d, wait 90m")
    seconds = hours(args[0], "a wait")
    if not 0 < seconds <= MAX_WAIT:
        raise InvalidRequestError(f"a wait is more than 0 and at most a year, not {args[0][:40]!r}")
    clock = console.service.clock
    if not isinstance(clock, ManualClock):
        raise InvalidRequestError("this club runs on the real clock: time passes by itself here")
    start = clock.now()
    end = start + seconds
    lines: list[str] = []
    touched: dict = {}
    for _ in range(10_000):
        due = await next_due(console)
        if due is None or due > end:
            break
        if due > clock.now():
            clock.set(due)
        fired = await fire(console, touched)
        if fired:
            lines.append(f"— after {(clock.now() - start) / 3600:.1f} h:")
            lines += fired
        elif due <= clock.now():
            break  # due but nothing to fire (a deadline its owner replaced): go on to the end
    clock.set(end)
    fired = await fire(console, touched)
    if fired:
        lines += [f"— after {seconds / 3600:.1f} h:", *fired]
    if touched:  # the boards above gave the time left when they were drawn: say what is left now
        lines += [f"— now, after {seconds / 3600:g} h:", *await _waiting_now(console, touched)]
    return "\n".join([passed(seconds), *lines, "Nothing else happened." if not lines else ""]).strip()


def passed(seconds: float) -> str:
    """``seconds`` of waiting in words: "1 hour passes.", "2 hours pass.", "1.5 hours pass.", "50 minutes pass.",
    "2 hours and 10 minutes pass."."""
    amount = seconds / 3600
    if amount.is_integer():
        return f"{plural(int(amount), 'hour')} {'passes' if amount == 1 else 'pass'}."
    if (2 * amount).is_integer():
        return f"{amount:g} hours pass."
    hours, minutes = divmod(round(seconds / 60), 60)
    if not hours:
        return f"{plural(minutes, 'minute')} {'passes' if minutes == 1 else 'pass'}."
    return f"{plural(hours, 'hour')} and {plural(minutes, 'minute')} pass."


async def _waiting_now(console: Console, touched: dict) -> list[str]:
    """For each table in ``touched``: who must act and the time left at the clock's time now."""
    now = console.service.clock.now()
    lines = []
    for kind, table_id in touched:
        if kind == TableType.CHOUETTE:
            chouette = await console.chouettes.state(table_id)
            for decision in chouette.decisions:
                whom = "" if decision.actor == decision.subject else f" for {chouette.name(decision.subject)}"
                due = f" within {(decision.due_at - now) / 3600:.1f} h" if decision.due_at else ""
                lines.append(f"Chouette {table_id}: {chouette.name(decision.actor)}{whom} must {decision.words}{due}.")
        else:
            view = await console.service.state(table_id)
            if view.waiting_for is None:
                continue
            name = view.name_of(view.waiting_for)
            due = f" within {(view.due_at - now) / 3600:.1f} h" if view.due_at else ""
            lines.append(f"Match #{table_id}: {name} must {view.pending_text}{due}.")
    return lines or ["Nobody has anything to do in those games now."]
