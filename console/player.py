"""The correspondence verbs of the console: ``/player`` — ``away``, ``back``, ``ping``, ``nudge``,
``autoroll`` — and what are buttons in Discord: ``claim game|match`` and ``more-time`` (the Claim the game / Claim
the match / Give 24 h more buttons of a lapsed deadline under the ``claim`` policy) and ``rematch`` (the Rematch
button of a finished match's last board). Each makes the same :class:`club.correspondence.Correspondence` /
:func:`club.correspondence.rematch_terms` call as :mod:`cogs.player` and :mod:`cogs.flow`; the notices Discord
posts in each game's thread are printed here, one line each, with the members they mention."""

from __future__ import annotations

from club import frontend
from club.clocks import Claim
from club.commitments import phrase_text
from club.correspondence import (
    Correspondence,
    autoroll_words,
    away_state_in,
    can_claim,
    pinged_words,
    rematch_terms,
    resolve_their_turn,
)
from club.errors import InvalidRequestError
from club.frontend import GameChoice
from club.table import MatchKind, MatchStatus, TableType
from club.wording import plural

from .core import Console
from .games import next_step, show, you_can
from .parse import Target, number, take_target
from .verbs import part, verb

CLAIM_VERBS = "claim game, claim match, more-time"
"""The console's words for the three buttons of a lapsed deadline under the ``claim`` policy."""


def cases(console: Console) -> Correspondence:
    """The correspondence use-cases over the console's club (matches and chouettes), as the cogs build them."""
    return Correspondence(console.service, console.chouettes)


async def notice_lines(console: Console, notices) -> list[str]:
    """Each notice as the line posted in its game (``match #1 (to bob): …``)."""
    lines = []
    for notice in notices:
        names = await console.service._names(list(notice.ping)) if notice.ping else {}
        whom = ", ".join(names.get(member, str(member)) for member in notice.ping)
        where = f"{'match #' if notice.table == 'match' else 'chouette='}{notice.table_id}"
        lines.append(f"  {where}{f' (to {whom})' if whom else ''}: {notice.text.splitlines()[0]}")
    return lines


async def _mine(console: Console, given: Target | None, *, lapsed: bool) -> int:
    """The match a nudge / claim / more-time means (:func:`club.correspondence.resolve_their_turn`)."""
    if given is not None and given.kind != TableType.MATCH:
        raise InvalidRequestError(f"that is for a match or money session, not for {given}")
    example = " ".join(console.typed) or "nudge"
    return await resolve_their_turn(console.service, console.member, guild_id=console.guild_id,
                                    given=given.id if given else None, lapsed=lapsed,
                                    how=f"say which one, e.g. {example} 2")  # fmt: skip


# -- /player ------------------------------------------------------------------------------------------------------------
@verb("player away", "away DAYS [REASON]", "go away for DAYS: a notice in each of your games, your clocks paused",
      bare=True)  # fmt: skip
async def away(console: Console, args: list[str]) -> str:
    """``away DAYS [REASON]``: the days come out of the club's yearly allowance (``config away_days``)."""
    if not args:
        raise InvalidRequestError("away DAYS [REASON], e.g. away 3 holiday")
    days = number(args[0], "away days", high=366)
    notices = await cases(console).away(console.guild_id, console.member, days, " ".join(args[1:]))
    state = await away_state_in(console.service, console.guild_id, console.member)
    return "\n".join([state.granted(len(notices), "back"), *await notice_lines(console, notices)])


@verb("player back", "back", "back early: your clocks run again, unused whole days come back", bare=True)
async def back(console: Console, args: list[str]) -> str:
    """``back``: ends an away period early."""
    if args:
        raise InvalidRequestError("back takes nothing more: just back")
    notices = await cases(console).back(console.guild_id, console.member)
    lines = [f"Welcome back: {plural(len(notices), 'game')} told, your clocks run again."]
    return "\n".join(lines + await notice_lines(console, notices))


@verb("player ping", "ping [TEXT]", "a message in each of your games, mentioning your opponents", bare=True)
async def ping(console: Console, args: list[str]) -> str:
    """``ping [TEXT]`` ("ping all my games")."""
    notices = await cases(console).ping(console.guild_id, console.member, " ".join(args))
    return "\n".join([pinged_words(len(notices)), *await notice_lines(console, notices)])


@verb("player nudge", "nudge [game]", "nudge an opponent who has kept you waiting (once per the club's hours)",
      bare=True)  # fmt: skip
async def nudge(console: Console, args: list[str]) -> str:
    """``nudge [game]``: to the one game waiting for your opponent, else the one named."""
    target, rest = take_target(args)
    if rest:
        raise InvalidRequestError(f"nudge takes only a game number, not {' '.join(rest)[:60]!r}")
    match_id = await _mine(console, target, lapsed=False)
    notices = await cases(console).nudge(match_id, console.member)
    return "\n".join(["Nudged.", *await notice_lines(console, notices)])


@verb("player autoroll", "autoroll on|off|HOURS", "roll for you when you may not double; HOURS: also when you do "
      "not double within that many hours", bare=True)  # fmt: skip
async def autoroll(console: Console, args: list[str]) -> str:
    """``autoroll on`` / ``autoroll off`` / ``autoroll 6`` (on, and roll for me after 6 hours without doubling)."""
    word = args[0].lower() if len(args) == 1 else ""
    if word in ("on", "off"):
        prefs = await console.service.set_preferences(console.member, auto_roll=word == "on", roll_after=0.0)
    elif word and word[0].isdigit():
        try:
            after = float(word.rstrip("h"))
        except ValueError:
            after = -1.0
        if not 1 <= after <= 720:
            raise InvalidRequestError(f"autoroll HOURS is 1 to 720 hours, not {args[0][:40]!r}")
        prefs = await console.service.set_preferences(console.member, auto_roll=True, roll_after=after)
    else:
        raise InvalidRequestError("autoroll on, autoroll off, or autoroll HOURS (e.g. autoroll 6)")
    return autoroll_words(prefs)


@verb("player autotake", "autotake N|off [GAME]", "money play: take any double up to an N-cube at once; only you "
      "see it", bare=True)  # fmt: skip
async def autotake(console: Console, args: list[str]) -> str:
    """``autotake 4`` (take at once any double to a 4-cube or less in your money session) / ``autotake off``."""
    target, rest = take_target(args, trailing_number=len(args) > 1)
    if len(rest) != 1:
        raise InvalidRequestError("autotake N or autotake off, e.g. autotake 4 (in your money session)")
    upto = None if rest[0].lower() == "off" else number(rest[0], "the biggest cube you take at once", low=2, high=4096)
    if target is not None and target.kind != TableType.MATCH:
        raise InvalidRequestError(f"autotake is for a money session, not for {target}")
    match_id = await frontend.resolve_match(console.service, console.member, guild_id=console.guild_id,
                                            given=target.id if target else None)  # fmt: skip
    return await console.service.standing_take(match_id, console.member, upto)


@verb("player seed", "seed [PHRASE]", "your dice phrase: part of your client seed in every game (none: clear it)",
      bare=True)  # fmt: skip
async def seed(console: Console, args: list[str]) -> str:
    """``seed bob's lucky phrase`` / ``seed`` (clears): ``/player seed`` (:mod:`club.commitments`).
    Each console line's own value (a fresh :mod:`secrets` value) is added after the phrase at the first action."""
    phrase = " ".join(args).strip()
    prefs = await console.service.set_preferences(console.member, seed=phrase)
    return phrase_text(prefs.seed)


@verb("luck", "luck TEXT [game=N|chouette=N]", "add luck of your own to the next game's dice (before its first roll)")
async def luck(console: Console, args: list[str]) -> str:
    """``luck my own words game=1`` (or ``chouette=2``): the "Add your luck" button of the challenge and the board
    (:meth:`club.service.ClubService.add_luck`, :meth:`club.chouette.ChouetteService.add_luck`): the text joins the
    client seeds of the dice waiting for their first roll."""
    target, rest = take_target(args, trailing_number=False)
    if not rest:
        raise InvalidRequestError("luck TEXT: words of your own for the next game's dice, e.g. luck seven sevens")
    target = await console.target(target, for_turn=False)
    if target.kind == TableType.CHOUETTE:
        from .chouettes import show as show_chouette

        return await show_chouette(console, await console.chouettes.add_luck(target.id, console.member, " ".join(rest)))
    return await show(console, await console.service.add_luck(target.id, console.member, " ".join(rest)))


# -- the buttons ----------------------------------------------------------------------------------------------------
CLAIM_WORDS = {"game": Claim.CLAIM_GAME, "match": Claim.CLAIM_MATCH}
"""``claim game`` / ``claim match``: the claim each word stands for."""


@verb("claim", "claim game|match [game]", "your opponent's time ran out (claim policy): they forfeit (RULES M5)")
async def claim(console: Console, args: list[str]) -> str:
    """``claim game [game]`` / ``claim match [game]``: the Claim buttons of a lapsed deadline."""
    target, rest = take_target(args)
    if len(rest) != 1 or rest[0].lower() not in CLAIM_WORDS:
        raise InvalidRequestError("claim game or claim match (then a game number if several), e.g. claim game")
    match_id = await _mine(console, target, lapsed=True)
    console.last_match = match_id
    outcome = await cases(console).claim(match_id, console.member, CLAIM_WORDS[rest[0].lower()])
    return await show(console, outcome)


@verb("more-time", "more-time [game]", "give your late opponent 24 hours more (claim policy)",
      aliases=("more time", "give-time"))  # fmt: skip
async def more_time(console: Console, args: list[str]) -> str:
    """``more-time [game]``: the Give 24 h more button."""
    target, rest = take_target(args)
    if rest:
        raise InvalidRequestError(f"more-time takes only a game number, not {' '.join(rest)[:60]!r}")
    match_id = await _mine(console, target, lapsed=True)
    notices = await cases(console).more_time(match_id, console.member, 24.0)
    return "\n".join(await notice_lines(console, notices))


async def rematch_choices(console: Console) -> list[GameChoice]:
    """The finished matches a bare ``rematch`` may mean: per opponent, his last match with the member if it is a
    finished match (money sessions have no rematch)."""
    history = await console.service.history(console.member, guild_id=console.guild_id, limit=100)
    seen, found = set(), []
    for item in history:  # newest first
        if item.opponent_id in seen:
            continue
        seen.add(item.opponent_id)
        if item.kind == TableType.MATCH and item.status == MatchStatus.OVER:
            label = f"#{item.match_id} vs {item.opponent_name} · {item.length}-point match, you {item.outcome}"
            found.append(GameChoice(item.match_id, label, True))
    return found


@verb("rematch", "rematch [game]", "challenge your opponent of a finished match again: same length, rules, stake")
async def rematch(console: Console, args: list[str]) -> str:
    """``rematch [game]``: the Rematch button of a finished match's last board."""
    target, rest = take_target(args)
    if rest or (target is not None and target.kind != TableType.MATCH):
        raise InvalidRequestError("rematch [game], e.g. rematch or rematch 1")
    if target is None:
        choices = await rematch_choices(console)
        if len(choices) != 1:
            listed = "\n".join(choice.label for choice in choices[:10])
            if not choices:
                raise InvalidRequestError("You have no finished match to ask a rematch of.")
            raise InvalidRequestError(f"You have {len(choices)} finished matches: say which one, e.g. rematch "
                                      f"{choices[0].key}.\n{listed}")  # fmt: skip
        target = Target(TableType.MATCH, choices[0].key)
    terms = await rematch_terms(console.service, console.guild_id, console.member, target.id)
    outcome = await terms.challenge(console.service, console.guild_id)
    console.last_match = outcome.match_id
    return "\n".join(line for line in ("Rematch: " + outcome.message, next_step(outcome.view),
                                       you_can(outcome.view, console.member)) if line)  # fmt: skip


# -- "you can: …" -------------------------------------------------------------------------------------------------------
@part
async def extra_verbs(console: Console, view) -> str:
    """The ``you can: …`` line of the correspondence buttons for the console's member on ``view``: ``rematch``
    after a finished match he played, the claim verbs when his opponent's deadline lapsed under the ``claim``
    policy; ``""`` otherwise."""
    member = console.acting
    if member is None or member not in view.players:
        return ""
    if view.kind == MatchKind.MATCH and view.status == MatchStatus.OVER:
        return "you can: practice" if view.practice else "you can: rematch"
    if view.status != MatchStatus.ACTIVE or view.waiting_for in (None, member):
        return ""
    return f"you can: {CLAIM_VERBS}" if await can_claim(console.service, view.match_id, member) else ""
