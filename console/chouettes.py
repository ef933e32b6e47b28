"""The ``/bg chouette`` verbs of the console, and a chouette's buttons as verbs (RULES C1–C11).

A console has no channels: each ``chouette start`` opens its chouette in a channel of its own (numbered from
:data:`~console.core.CHOUETTE_CHANNELS`) and names it ``chouette=N``. Commands without ``chouette=N`` go to the
chouette the acting member sits in (or, for ``join``, the only one open). What a member's buttons do in Discord,
he types here — the game verbs of :mod:`console.games` route here when the one game waiting for him is a
chouette: a Team member ``double`` / ``no-double``, ``take`` / ``drop`` / ``beaver`` / ``raccoon``; Box ``roll``,
``double all``, ``double carol dave`` (those cubes only), ``double all in order`` (5.8), ``take`` (every cube),
``take carol`` (carol's, dropping the rest), ``drop dave`` (dave's, taking the rest); a proxy adds ``for NAME``.
Each call is the :class:`~club.chouette.ChouetteService` call the cog's buttons make.
"""

from __future__ import annotations

from backgammon.ascii import ascii_board
from backgammon.chouette import CHOUETTE_PRESETS
from backgammon.game import Action
from backgammon.moves import dice_text
from club import frontend
from club.chouette import ChouetteOutcome, ChouetteView
from club.chouette.images import board_png_async, sheet_png_async
from club.chouette.table import Awaited, MemberAction, SettleStep, TablePhase, TableStatus, parse_order
from club.errors import InvalidRequestError, NotNowError
from club.table import TableType

from .core import CHOUETTE_CHANNELS, Console, file_problem, member_id
from .parse import Target, hours, member_name, number, options, take_target
from .tables import Column, RecordTable, signed, text_table
from .verbs import part, verb

_ANSWERS = (Awaited.ANSWER, Awaited.BOX_ANSWER)
KINDS = {
    "roll": (Awaited.ROLL,),
    "play": (Awaited.PLAY,),
    "double": (Awaited.ROLL, Awaited.DOUBLE),
    "no-double": (Awaited.DOUBLE,),
    "take": (*_ANSWERS, Awaited.CONSENT),
    "drop": (*_ANSWERS, Awaited.CONSENT),
    "beaver": _ANSWERS,
    "raccoon": _ANSWERS,
    "offer-extra": (Awaited.EXTRA,),
    "no-extra": (Awaited.EXTRA,),
}
"""Which decisions (:attr:`club.chouette.Decision.pending`) each console verb answers."""

USE_CASES = {"no-double": MemberAction.PASS, "offer-extra": MemberAction.OFFER_EXTRA, "no-extra": MemberAction.NO_EXTRA}
"""The console verbs that are not the use-case's own word (:class:`~club.chouette.table.MemberAction`)."""

OTHER = {"take": "drop", "beaver": "take", "raccoon": "take", "drop": "take"}
"""Box naming some cubes: the named get the verb, the others this (``take carol`` drops the rest)."""


# -- which chouette -----------------------------------------------------------------------------------------------
async def open_views(console: Console) -> list[ChouetteView]:
    """Every open chouette of the console's club."""
    views = []
    for session_id in await console.chouettes.session_ids(["open"]):
        views.append(await console.chouettes.state(session_id))
    return views


def label(view: ChouetteView, member: int | None) -> str:
    """``chouette=1 · game 2, Box Ann · you must answer Box's offer`` — one line for a list."""
    text = f"chouette={view.session_id} · " + (
        f"game {view.game_number}, Box {view.name(view.box)}" if view.board_live else view.phase
    )
    mine = view.decision_of(member) if member is not None else []
    if mine:
        text += " · you must " + "; ".join(
            d.words + ("" if d.subject == member else f" for {view.name(d.subject)}") for d in mine
        )
    return text


@part
async def chouette_choices(console: Console, *, waiting_only: bool = False) -> list[frontend.GameChoice]:
    """The chouettes the acting member sits in, as game choices (waiting: a decision is his now);
    ``waiting_only``: only those waiting for him (one query finds them; the others are not loaded)."""
    result = []
    if waiting_only:
        ids = dict.fromkeys(d.session_id for d in await console.chouettes.waiting(console.member))
        views = [await console.chouettes.state(session_id) for session_id in ids]
    else:
        views = await open_views(console)
    for view in views:
        if console.member in view.members or view.decision_of(console.member):
            waiting = bool(view.decision_of(console.member))
            result.append(frontend.GameChoice(Target(TableType.CHOUETTE, view.session_id), label(view, console.member),
                                              waiting))  # fmt: skip
    return result


async def session_for(
    console: Console, args: list[str], *, joining: bool = False, looking: bool = False
) -> tuple[int, list[str]]:
    """The chouette a chouette command means: ``chouette=N`` (or a trailing number), else the one the member sits
    in (``joining``: the only open one he is not in; ``looking``, for a command that only shows it: else one whose
    score sheet he is on — he left it). Raises :class:`InvalidRequestError` with the list."""
    target, rest = take_target(args)
    if target is not None:
        return target.id, rest
    every = await open_views(console)
    if joining:
        views = [view for view in every if console.member not in view.members] or every
    else:
        views = [view for view in every if console.member in view.members or view.decision_of(console.member)]
    if looking and not views:
        views = [view for view in every if console.member in view.sheet.members]
    if len(views) == 1:
        return views[0].session_id, rest
    if not views:
        raise InvalidRequestError(
            "No chouette here for you: open one with chouette start, or join one (chouette join)."
        )
    lines = "\n".join(label(view, console.member) for view in views[:10])
    raise InvalidRequestError(
        f"{len(views)} chouettes are open: say which one, e.g. chouette status chouette=1.\n{lines}"
    )


# -- showing ----------------------------------------------------------------------------------------------------------
def seats_text(view: ChouetteView) -> str:
    """The seats in rotation order with each cube, away members and proxies (RULES C3, C5, C9)."""
    if view.phase == TablePhase.LOBBY:
        return (f"At the table: {', '.join(view.name(m) for m in view.lobby)}. Others join with chouette join; "
                "chouette seat throws for the seats.")  # fmt: skip
    return "\n".join("  " + line for line in view.seat_lines(team="Team", notes=True))


def decision_verbs(view: ChouetteView, decision) -> list[str]:
    """The console verbs of one decision (the member's buttons in Discord)."""
    kind = decision.pending
    if kind == Awaited.PLAY:
        verbs = ["move PLAY"]
    elif kind == Awaited.ROLL:
        verbs = ["roll"]
        if Action.DOUBLE in decision.actions:
            if decision.subject == view.box and len(decision.cubes) > 1 and not view.rules.single_cube:
                verbs += ["double all", "double NAME …", "double all in order"]
            else:
                verbs.append("double all" if decision.subject == view.box else "double")
    elif kind == Awaited.DOUBLE:
        verbs = ["double", "no-double"]
    elif kind == Awaited.EXTRA:
        verbs = ["offer-extra", "no-extra"]
    elif kind == Awaited.BOX_ANSWER:
        verbs = [action for action in decision.actions if action in OTHER]
        if len(decision.cubes) > 1:
            verbs += ["take NAME … (drops the rest)", "drop NAME … (takes the rest)"]
    else:
        verbs = [action for action in decision.actions if action in OTHER]
    if decision.actor != decision.subject:
        verbs = [f"{v} for {view.name(decision.subject).lower()}" for v in verbs]
    return verbs


def you_can(view: ChouetteView, member: int | None) -> list[str]:
    """One ``NAME can: …`` line per member who must decide now (``you can`` for ``member``)."""
    lines = []
    for decision in view.decisions:
        whom = "you" if decision.actor == member else view.name(decision.actor)
        verbs = decision_verbs(view, decision)
        if decision.actor == member:
            verbs += ["proxy NAME", "leave"]
        lines.append(
            f"{whom} can: {', '.join(verbs)}"
            + ("" if decision.actor == member else f" (as {view.name(decision.actor)})")
        )
    return lines


@part
async def chouette_board(console: Console, view: ChouetteView, viewer: int | None) -> str:
    """The chouette as text: title, the board (Box's side at the bottom), the seats and cubes, who must decide by
    when, the board PNG written and what each decider can type."""
    lines = [_title(view)]
    board = view.board
    if board is not None and view.board_live:
        side = board.turn if board.turn is not None else 0
        seats = ("Box " + view.name(view.box), view.team_seat)  # board side 0 is Box's
        lines.append(f"X = {seats[side]}{' to play ' + dice_text(board.dice) if board.dice else ''}")
        lines.append(ascii_board(board.board_for(side), names=(seats[side], seats[1 - side]),
                                 position_id=board.on_roll_position_id))  # fmt: skip
    lines.append(seats_text(view))
    lines.append(view.luck_text)
    now = console.service.clock.now()
    for decision in view.decisions:
        whom = "" if decision.actor == decision.subject else f" for {view.name(decision.subject)}"
        due = f" within {(decision.due_at - now) / 3600:.1f} h" if decision.due_at else ""
        lines.append(f"{view.name(decision.actor)}{whom} must {decision.words}{due}.")
    if console.images is not None and view.board is not None:
        png = await board_png_async(view, viewer, console.options)
        lines.append(console.write_png(f"chouette-{view.session_id}-game{view.game_number}-{view.mark}.png", png))
    lines += you_can(view, console.member)
    return "\n".join(line for line in lines if line)


def _title(view: ChouetteView) -> str:
    if view.phase in (TablePhase.LOBBY, TablePhase.SEATING):
        return f"Chouette #{view.session_id} (chouette={view.session_id}) · waiting for the seat roll"
    if view.phase == TablePhase.CLOSED or view.status != TableStatus.OPEN:
        return f"Chouette #{view.session_id} · over"
    text = f"Chouette #{view.session_id} (chouette={view.session_id}) · game {view.game_number}"
    return text + (f" · Box {view.name(view.box)} vs {view.team_seat}" if view.board_live else "")


async def show(console: Console, outcome: ChouetteOutcome) -> str:
    """What happened, then the chouette seen by the first member who must decide (or the acting one)."""
    view = outcome.view
    viewer = view.decisions[0].actor if view.decisions else console.member
    text = await chouette_board(console, view, viewer)
    sheet = ""
    if outcome.finished and view.sheet.rows and console.images is not None:  # the sheet after the game (RULES C11)
        name = f"chouette-{view.session_id}-sheet-game{view.sheet.rows[-1].game}.png"
        sheet = console.write_png(name, await sheet_png_async(view, console.options))
    return "\n".join(part for part in (outcome.message, sheet, text) if part)


def sheet_table(view: ChouetteView) -> RecordTable:
    """The chouette's score sheet (RULES C11) as a table: a row per game, a column per member, the totals (and the
    money at the stake)."""
    sheet = view.sheet
    members = sheet.members
    columns = (Column("game", "left"), Column("box", "left"), *(Column(view.name(m)) for m in members), Column("sum"))
    rows = []
    for row in sheet.rows:
        cells = [signed(row.points[m]) if m in row.points else "" for m in members]
        rows.append((str(row.game), view.name(row.box), *cells, signed(sum(row.points.values()))))
    rows.append(("total", "", *(signed(sheet.totals.get(m, 0)) for m in members), signed(sum(sheet.totals.values()))))
    totals = {len(rows) - 1}
    if sheet.stake:
        rows.append(("money", "", *(signed(sheet.money(m)) for m in members),
                     signed(sum(sheet.money(m) for m in members))))  # fmt: skip
        totals.add(len(rows) - 1)
    footer = (f"at {sheet.stake} a point" if sheet.stake else "points (no stake)",
              "every row sums to zero" if sheet.zero_sum else "WARNING: a row does not sum to zero")  # fmt: skip
    return RecordTable(f"Score sheet — chouette {view.session_id}", columns, tuple(rows), footer=footer,
                       total_rows=frozenset(totals))  # fmt: skip


# -- the buttons as verbs ----------------------------------------------------------------------------------------------
@part
async def chouette_action(console: Console, session_id: int, action: str, rest: list[str]) -> str:
    """The acting member's decision ``action`` (a console verb of :data:`KINDS`) in chouette ``session_id``: his
    own, or (``for NAME``) the one he makes as proxy; ``rest`` holds the play or Box's cubes (names)."""
    chouettes, member = console.chouettes, console.member
    view = await chouettes.state(session_id)
    subject = None
    lowered = [word.lower() for word in rest]
    if "for" in lowered:
        index = lowered.index("for")
        if index + 1 >= len(rest):
            raise InvalidRequestError(f"{action} for NAME: say whose decision, e.g. {action} for carol")
        subject = await console.known(rest[index + 1])
        rest = rest[:index] + rest[index + 2 :]
    mine = [d for d in view.decision_of(member) if d.pending in KINDS.get(action, ())]
    if subject is not None:
        own = [d for d in mine if d.subject == member]
        mine = [d for d in mine if d.subject == subject]
        if not mine and subject != member:
            name = view.name(subject)
            yours = f" For your own cube you can: {', '.join(decision_verbs(view, own[0]))}." if own else ""
            raise NotNowError(f"You do not decide for {name} in chouette {session_id}: {name} does, or the proxy "
                              f"{name} names (RULES C9).{yours}")  # fmt: skip
    if not mine:
        waiting = you_can(view, member)
        possible = next((line for line in waiting if line.startswith("you can")), "")
        raise NotNowError(f"You have no decision to {action} in chouette {session_id} now"
                          + (f"; {possible}." if possible else f". {_who_decides(view)}"))  # fmt: skip
    if len(mine) > 1:
        names = ", ".join(f"{action} for {view.name(d.subject).lower()}" for d in mine)
        raise InvalidRequestError(f"You decide for several members in chouette {session_id}: say whose ({names}).")
    decision = mine[0]
    mark = view.mark
    use_case = USE_CASES.get(action) or MemberAction(action)
    if use_case == MemberAction.PLAY:
        if not rest:
            raise InvalidRequestError("move PLAY, e.g. move 13/7 8/7 (plays lists the legal ones)")
        return await show(console, await chouettes.play(session_id, member, " ".join(rest)[:200], mark=mark))
    if use_case == MemberAction.ROLL:
        _no_words(action, rest)
        return await show(console, await chouettes.act(session_id, member, use_case, mark=mark))
    if action in USE_CASES:
        _no_words(action, rest)
        return await show(console, await chouettes.act(session_id, member, use_case, subject=decision.subject,
                                                        mark=mark))  # fmt: skip
    if use_case == MemberAction.DOUBLE:
        return await show(console, await _double(console, view, decision, rest))
    cubes = _cube_keys(view, decision, rest)
    if decision.pending == Awaited.BOX_ANSWER and cubes:
        decisions = {key: action if key in cubes else OTHER[action] for key in decision.cubes}
        outcome = await chouettes.act(session_id, member, MemberAction.TAKE, value=decisions, mark=mark)
    else:
        if cubes:
            raise InvalidRequestError(f"{action} takes no names here: you answer for your own cube")
        outcome = await chouettes.act(session_id, member, use_case, subject=decision.subject, mark=mark)
    return await show(console, outcome)


def _no_words(action: str, rest: list[str]) -> None:
    if rest:
        raise InvalidRequestError(f"{action} takes nothing more here, not {' '.join(rest)[:60]!r}")


PHASE_WORDS = {
    TablePhase.LOBBY: "waiting for the seat roll: nothing to decide yet (chouette join, then chouette seat)",
    TablePhase.SEATING: "throwing for the seats",
    TablePhase.PLAYING: "between two games",
    TablePhase.BETWEEN: "between two games",
    TablePhase.CLOSED: "over",
}
"""A chouette's phase (:attr:`ChouetteView.phase`) in words, when nobody must decide."""


def _who_decides(view: ChouetteView) -> str:
    if not view.decisions:
        return "Nobody must decide now." if view.board_live else f"The chouette is {PHASE_WORDS[view.phase]}."
    return " ".join(f"{view.name(d.actor)} must {d.words}." for d in view.decisions[:5])


def _cube_keys(view: ChouetteView, decision, words: list[str]) -> list[str]:
    """Cube keys named by member names (``carol`` → her cube's key), checked against the decision's cubes."""
    keys = []
    for word in words:
        if word.lower() in ("all", "cubes", "every"):
            continue
        key = str(member_id(member_name(word)))
        if key not in decision.cubes:
            names = ", ".join(view.name(int(k)) for k in decision.cubes if k.isdigit())
            raise InvalidRequestError(f"{word[:40]!r} has no cube in this decision; the cubes are: {names or 'none'}")
        keys.append(key)
    return keys


async def _double(console: Console, view: ChouetteView, decision, rest: list[str]) -> ChouetteOutcome:
    words = [word.lower() for word in rest]
    in_order = "order" in words
    words = [w for w, low in zip(rest, words, strict=True) if low not in ("in", "order", "all")]
    chouettes, member, mark = console.chouettes, console.member, view.mark
    if decision.pending == Awaited.ROLL and decision.subject == view.box:
        targets = [int(key) for key in _cube_keys(view, decision, words)] or None
        return await chouettes.act(view.session_id, member, "double", value=targets, in_order=in_order, mark=mark)
    keys = _cube_keys(view, decision, words)
    if len(keys) > 1:
        raise InvalidRequestError("double one cube at a time, e.g. double (your own cube)")
    return await chouettes.act(view.session_id, member, "double", subject=decision.subject,
                               cube=keys[0] if keys else None, mark=mark)  # fmt: skip


# -- the /bg chouette commands -----------------------------------------------------------------------------------------
@verb("chouette start", "chouette start [RULES] [stake=N] [hours=H] [proxy_hours=H] [no_talk]",
      f"open a chouette ({', '.join(CHOUETTE_PRESETS)}; default Atlanta)", bare=True)  # fmt: skip
async def start(console: Console, args: list[str]) -> str:
    """``chouette start``: a new chouette in a channel of its own; the starter sits in it."""
    named, rest = options(args, ("rules", "stake", "hours", "proxy_hours", "no_talk"))
    rules = named.get("rules")
    no_talk = named.get("no_talk", "").lower() in ("1", "true", "yes", "on")
    for word in rest:
        if word.lower() in CHOUETTE_PRESETS and rules is None:
            rules = word.lower()
        elif word.lower() in ("no_talk", "no-talk"):
            no_talk = True
        elif word.isdigit() and "stake" not in named:
            named["stake"] = word
        else:
            raise InvalidRequestError(f"{word[:40]!r} is not a chouette rule set ({', '.join(CHOUETTE_PRESETS)}), "
                                      "a stake or an option; e.g. chouette start chouette-atlanta stake=10")  # fmt: skip
    stake = number(named["stake"], "a stake", low=0, high=10**9) if "stake" in named else 0
    decision = (
        hours(named["hours"] if named["hours"][-1:].isalpha() else named["hours"] + "h") / 3600
        if "hours" in named
        else None
    )
    proxy = named.get("proxy_hours")
    proxy_hours = hours(proxy if proxy[-1:].isalpha() else proxy + "h") / 3600 if proxy else None
    channel = CHOUETTE_CHANNELS + len(await console.chouettes.session_ids()) + 1
    outcome = await console.chouettes.start(console.guild_id, channel, console.member, rules=rules, stake=stake,
                                            decision_hours=decision, proxy_hours=proxy_hours, no_talk=no_talk)  # fmt: skip
    return await show(console, outcome) + f"\nThis is chouette={outcome.session_id}: the others type chouette join."


@verb("chouette join", "chouette join [stake=1|2|4|8] [chouette=N]", "join (or come back to) a chouette", bare=True)
async def join(console: Console, args: list[str]) -> str:
    """``chouette join``: the lobby before the seat roll, else the end of the Team (RULES C2, C6)."""
    named, args = options(args, ("stake",))
    session_id, rest = await session_for(console, args, joining=True)
    if rest:
        raise InvalidRequestError(f"chouette join [stake=N] [chouette=N], not {' '.join(rest)[:60]!r}")
    stake = number(named["stake"], "a multiple of the stake", high=8) if "stake" in named else 1
    return await show(console, await console.chouettes.join(session_id, console.member, stake=stake))


@verb("chouette leave", "chouette leave [chouette=N]", "leave (after the game in progress)", bare=True)
async def leave(console: Console, args: list[str]) -> str:
    """``chouette leave`` (RULES C2)."""
    session_id, _ = await session_for(console, args)
    return await show(console, await console.chouettes.leave(session_id, console.member))


@verb("chouette seat", "chouette seat [chouette=N]", "throw for the seats; the first game starts (RULES C1)", bare=True)
async def seat(console: Console, args: list[str]) -> str:
    """``chouette seat``."""
    session_id, _ = await session_for(console, args)
    return await show(console, await console.chouettes.seat(session_id, console.member))


@verb("chouette proxy", "chouette proxy NAME [chouette=N]", "who decides for you when you are away (RULES C9)",
      bare=True)  # fmt: skip
async def proxy(console: Console, args: list[str]) -> str:
    """``chouette proxy NAME``."""
    session_id, rest = await session_for(console, args)
    if len(rest) != 1:
        raise InvalidRequestError("chouette proxy NAME, e.g. proxy carol")
    other = await console.known(rest[0])
    return await show(console, await console.chouettes.proxy(session_id, console.member, other))


@verb("chouette order", "chouette order [pass] [take N] [drop N] [until back] | clear [chouette=N]",
      "standing answers for your cube: this game, or while you are away (RULES C9)", bare=True)  # fmt: skip
async def standing_order(console: Console, args: list[str]) -> str:
    """``chouette order pass take 4 drop 8 [until back]`` (never double; take any double up to a 4-cube; drop one
    above an 8-cube; for this game, or while away) or ``chouette order clear``."""
    target, rest = take_target(args, trailing_number=False)  # N is a trailing number, not a chouette
    session_id = target.id if target is not None else (await session_for(console, []))[0]
    order = parse_order(" ".join(rest))
    return await show(console, await console.chouettes.standing_order(session_id, console.member, **order))


@verb("chouette move", "chouette move PLAY [chouette=N]", "play the board's dice (same as move)")
async def chouette_move(console: Console, args: list[str]) -> str:
    """``chouette move PLAY``."""
    target, rest = take_target(args, trailing_number=False)
    if target is None:
        session_id, _ = await session_for(console, [])
    else:
        session_id = target.id
    return await chouette_action(console, session_id, "play", rest)


@verb("chouette team-settle", "chouette team-settle offer NAME POINTS | accept | decline | preempt [chouette=N]",
      "a settlement between Team members (003 Atlanta 4.4)")  # fmt: skip
async def team_settle(console: Console, args: list[str]) -> str:
    """``chouette team-settle offer NAME POINTS`` (you buy NAME's interest in the game for POINTS, negative: he pays
    you), ``accept`` / ``decline`` (NAME, to whom it is offered; ``decline`` by the buyer withdraws it), ``preempt``
    (Box: if NAME accepts, Box pays him instead). RULES C10; see :mod:`club.chouette.table`."""
    target, rest = take_target(args, trailing_number=False)  # POINTS is a trailing number, not a chouette
    session_id = target.id if target is not None else (await session_for(console, []))[0]
    usage = "chouette team-settle offer NAME POINTS | accept | decline | preempt, e.g. team-settle offer carol 1"
    step = rest[0].lower() if rest else ""
    if step == SettleStep.OFFER and len(rest) == 3:
        seller = await console.known(rest[1])
        text = rest[2]
        points = number(text.lstrip("+-"), "the points (a whole number; negative: they pay you)", low=0, high=10_000)
        points = -points if text.startswith("-") else points
        outcome = await console.chouettes.team_settle(session_id, console.member, step, seller=seller, points=points)
    elif step in (SettleStep.ACCEPT, SettleStep.DECLINE, SettleStep.PREEMPT) and len(rest) == 1:
        outcome = await console.chouettes.team_settle(session_id, console.member, step)
    else:
        raise InvalidRequestError(usage)
    return await show(console, outcome)


@verb("chouette status", "chouette status [chouette=N]", "seats, cubes, who must decide", bare=True)
async def status(console: Console, args: list[str]) -> str:
    """``chouette status``."""
    session_id, _ = await session_for(console, args, looking=True)
    return await chouette_board(console, await console.chouettes.state(session_id), console.member)


@verb("chouette sheet", "chouette sheet [chouette=N]", "the score sheet, as a table and a PNG (RULES C11)")
async def sheet(console: Console, args: list[str]) -> str:
    """``chouette sheet``."""
    session_id, _ = await session_for(console, args, looking=True)
    view = await console.chouettes.state(session_id)
    lines = [text_table(sheet_table(view))]
    if console.images is not None:
        lines.append(
            console.write_png(f"chouette-{session_id}-sheet.png", await sheet_png_async(view, console.options))
        )
    return "\n".join(line for line in lines if line)


@verb("chouette rules", "chouette rules [chouette=N]", "the rules this chouette is played under")
@part
async def chouette_rules(console: Console, args: list[str]) -> str:
    """``chouette rules``."""
    session_id, _ = await session_for(console, args, looking=True)
    view = await console.chouettes.state(session_id)
    text = (f"Chouette #{view.session_id}: {view.rules_text}.\nTime: {view.decision_time / 3600:g} h per cube "
            f"decision, {view.proxy_time / 3600:g} h for a proxy.")  # fmt: skip
    return text + (f"\nStake: {view.stake} per point." if view.stake else "")


@verb("chouette verify", "chouette verify [chouette=N] [FILE]",
      "the dice proof: each series' commitment, revealed seed and every roll, as a file (RULES A1)")  # fmt: skip
@part
async def chouette_verify(console: Console, args: list[str]) -> str:
    """``chouette verify [FILE]``: the proof file of ``/bg chouette verify`` written to FILE (default
    ``chouette-N-dice.txt`` in this folder), for ``python tools/verify_dice.py``."""
    from pathlib import Path

    from club.proof import chouette_proof, lines

    files = [word for word in args if "/" in word or "." in word]
    session_id, rest = await session_for(console, [word for word in args if word not in files])
    if rest or len(files) > 1:
        raise InvalidRequestError("chouette verify [chouette=N] [FILE], e.g. chouette verify dice.txt")
    path = Path(files[0] if files else f"chouette-{session_id}-dice.txt").expanduser()
    try:
        path = path.resolve()
        series, text = await chouette_proof(console.chouettes, session_id, str(path))
        path.write_text("\n".join(lines(series)) + "\n", encoding="utf-8")
    except OSError as error:
        raise InvalidRequestError(file_problem(error, path)) from None
    return text + f"\nWrote {path}."
