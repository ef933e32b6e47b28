"""Correspondence play in the console (``wait``, ``away``, ``claim``, ``nudge``,
``rematch``): the ``/player`` verbs and the buttons of a lapsed deadline and a finished match, through the same
:mod:`club.correspondence` calls as the cogs. Each shows in ``help`` and in "you can: …" where it applies; each
refusal is one line and changes nothing."""

from __future__ import annotations

from contextlib import asynccontextmanager

from club import ClubService, ManualClock
from club.settings import DAY, HOUR
from console import Console, member_id
from storage import Database
from tests.clubkit import seeded


@asynccontextmanager
async def club_console(tmp_path, config: str, seed: int = 7, length: int = 3):
    """A console on a fresh database with the club configured (``config …``) and a ``length``-point match alice–bob
    accepted; yields ``(console, late, waiting)``: the names of the member on roll and of his opponent."""
    async with Database.open(tmp_path / "club.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock(), seeds=seeded(seed)))
        for name in ("bob", "carol", "alice"):  # the members (challenge names members only)
            await console.handle(f"as {name}")
        assert "Club settings updated" in await console.handle(f"config {config}")
        await console.handle(f"challenge bob {length}")
        await console.handle("as bob")
        await console.handle("accept")
        view = await console.service.state(1)
        late = "alice" if view.waiting_for == member_id("alice") else "bob"
        yield console, late, ("bob" if late == "alice" else "alice")


def refusal(text: str) -> bool:
    """One line saying what was wrong (never a traceback)."""
    return text.startswith("Refused: ") and "\n" not in text and "Internal error" not in text


async def test_help_lists_the_correspondence_verbs(tmp_path):
    async with club_console(tmp_path, "away_days 3") as (console, _late, _waiting):
        text = await console.handle("help")
        for usage in ("away DAYS [REASON]", "back", "ping [TEXT]", "nudge [game]", "autoroll on|off|HOURS",
                      "claim game|match [game]", "more-time [game]", "rematch [game]", "wait 6h|2d"):  # fmt: skip
            assert f"  {usage}" in text, usage
        assert "You (/player):" in text


async def test_away_pauses_through_repeated_pauses_and_the_deadline_still_arrives(tmp_path):
    """The OGS bug, in the console: the late member goes ``away 1`` and comes ``back`` again and again — each
    costs a day of the allowance (3), a fourth is refused (one line, nothing changed) — and then ``wait`` brings
    his deadline: the club's policy acts (he forfeits the game, RULES M5), within the move time plus the allowance."""
    async with club_console(tmp_path, "move_hours 10 reminders none expiry forfeit_game away_days 3", length=7) as (
        console, late, waiting,
    ):  # fmt: skip
        await console.handle(f"as {late}")
        clock, start = console.service.clock, console.service.clock.now()
        due = (await console.service.db.get_deadline(1)).due_at
        for left in (2, 1, 0):
            out = await console.handle("away 1 travelling")
            assert (
                f"{left} away day{'' if left == 1 else 's'} left this year" in out
                and f"match #1 (to {waiting}):" in out
            ), out
            assert "is away until" in out and "UTC (travelling)" in out and "<t:" not in out
            assert (await console.service.db.get_deadline(1)).due_at > due, "the clock is paused"
            assert "1 hour passes." in await console.handle("wait 1h")
            out = await console.handle("back")
            assert "Welcome back: 1 game told" in out and f"{late} is back" in out
        before = await console.service.state(1)
        out = await console.handle("away 1")
        assert refusal(out) and "0 away day" in out, out
        assert (await console.service.state(1)).version == before.version
        assert "You are not away" in await console.handle("back")
        games = await console.handle("games")
        assert "your turn: play · " in games and " h left" in games, games
        assert "Away days this year: 3 used, 0 left of 3." in games, games
        await console.handle(f"as {waiting}")
        games = await console.handle("games")
        assert f"{late}'s turn · " in games and " h left" in games and "Away days this year: 0 used" in games, games
        await console.handle(f"as {late}")
        out = await console.handle("wait 2d")
        assert f"Time is up for {late}" in out and "forfeits the game" in out, out
        assert (await console.service.state(1)).game_number >= 2, "the late member forfeited game 1"
        assert clock.now() - start == 2 * DAY + 3 * HOUR, "three hours away, then two days"
        after = float(out.split(f"Time is up for {late}")[0].rsplit("— after ", 1)[1].split(" h:")[0])
        assert 3 * HOUR + after * HOUR <= 10 * HOUR + 3 * DAY, "within the move time plus the allowance"


async def test_claim_the_game_more_time_claim_the_match_and_rematch(tmp_path):
    """The claim policy: at the lapsed deadline ``wait`` says who can claim; his board shows "you can: claim game,
    claim match, more-time"; the late member cannot claim; ``more-time`` gives 24 hours, after which the deadline
    lapses again; ``claim match`` ends the match (RULES M5); then "you can: rematch", and the rematch (same length
    and rules) is accepted by the opponent."""
    async with club_console(tmp_path, "move_hours 10 reminders none expiry claim") as (console, late, waiting):
        await console.handle(f"as {waiting}")
        assert refusal(await console.handle("claim game")), "nothing lapsed yet"
        out = await console.handle("wait 11h")
        assert f"{waiting}, you may claim the game" in out
        assert f"{waiting} can: claim game, claim match, more-time (as {waiting})" in out
        assert "you can: claim game, claim match, more-time" in await console.handle("board")
        await console.handle(f"as {late}")
        assert "you can: claim" not in await console.handle("board")
        version = (await console.service.state(1)).version
        out = await console.handle("claim game")
        assert refusal(out) and "nothing to claim" in out, out
        assert refusal(await console.handle("claim")) and refusal(await console.handle("claim everything"))
        await console.handle(f"as {waiting}")
        out = await console.handle("more-time")
        assert f"(to {late}):" in out and "24 hours more" in out and "<t:" not in out, out
        assert (await console.service.state(1)).version == version, "nothing was played"
        assert refusal(await console.handle("claim game")), "the new deadline has not lapsed"
        out = await console.handle("wait 23h")
        assert "Reminder" not in out and "claim" not in out, "the club set reminders none: none after more time"
        out = await console.handle("wait 2h")
        assert f"{waiting} can: claim game, claim match" in out, out
        out = await console.handle("claim match")
        assert f"{late} ran out of time" in out and "Match #1 is over" in out and "you can: rematch" in out, out
        first = await console.service.state(1)
        assert first.status == "over" and first.winner == first.side_of(member_id(waiting))
        await console.handle("as carol")
        out = await console.handle("rematch 1")
        assert refusal(out) and "Only alice and bob" in out and "challenge NAME" in out, out
        assert refusal(await console.handle("rematch")), "carol has no finished match"
        await console.handle(f"as {late}")
        out = await console.handle("rematch")
        assert out.startswith(f"Rematch: {late} challenges {waiting} to a 3-point match") and "match #2" in out
        await console.handle(f"as {waiting}")
        assert f"{waiting} accepts the challenge" in await console.handle("accept")
        second = await console.service.state(2)
        assert (second.length, second.rules, second.status) == (first.length, first.rules, "active")


async def test_rematch_refusals(tmp_path):
    """No rematch of a match still played, nor (bare) with several finished opponents unnamed."""
    async with club_console(tmp_path, "max_stake 10") as (console, late, _waiting):
        await console.handle(f"as {late}")
        out = await console.handle("rematch 1")
        assert refusal(out) and "not over yet" in out, out
        assert refusal(await console.handle("rematch chouette=1"))
        assert refusal(await console.handle("rematch 99"))


async def test_nudge_after_the_clubs_hours_at_most_once_per_that_many(tmp_path):
    """``nudge`` goes to the one game waiting for the member's opponent: refused before ``nudge_hours``, then a
    message to the late member, then refused again until ``nudge_hours`` later; the late member has nobody to
    nudge; ``ping`` reaches each of his games."""
    async with club_console(tmp_path, "move_hours 48 nudge_hours 6") as (console, late, waiting):
        await console.handle(f"as {waiting}")
        out = await console.handle("nudge")
        assert refusal(out) and "after 6 hours" in out, out
        await console.handle("wait 7h")
        out = await console.handle("nudge")
        assert out.startswith("Nudged.") and f"match #1 (to {late}): Nudge from {waiting}" in out, out
        out = await console.handle("nudge 1")
        assert refusal(out) and "next nudge is possible in 6.0 hours" in out, out
        await console.handle("wait 6h")
        assert (await console.handle("nudge")).startswith("Nudged.")
        await console.handle(f"as {late}")
        out = await console.handle("nudge")
        assert refusal(out) and "nobody to nudge" in out, out
        out = await console.handle("nudge 1")
        assert refusal(out) and "nothing to nudge: your opponent is not the one keeping the game waiting" in out, out
        out = await console.handle("ping back tonight")
        assert out.startswith("Pinged 1 game.") and f"(to {waiting}): {late} pings all their games: back tonight" in out


async def test_nudge_with_two_games_waiting_on_opponents_names_them(tmp_path):
    """Two games waiting for the member's opponents: a bare ``nudge`` is refused with both listed (the game-addressing
    rule: never the last game named); ``nudge 2`` goes to #2."""
    async with club_console(tmp_path, "move_hours 48 nudge_hours 1") as (console, late, waiting):
        await console.handle(f"as {waiting}")
        await console.handle("challenge carol 3")
        await console.handle("as carol")
        await console.handle("accept")
        view = await console.service.state(2)
        if view.waiting_for != member_id("carol"):  # make #2 wait for carol: the challenger plays his opening
            await console.handle(f"as {waiting}")
            plays = await console.service.legal_plays(2, member_id(waiting))
            await console.handle(f"move {plays[0]} game=2")
        await console.handle(f"as {waiting}")
        await console.handle("wait 2h")
        await console.handle("board 1")
        out = await console.handle("nudge")
        assert (
            out.startswith("Refused: 2 of your games wait for your opponents")
            and "#1 vs" in out
            and "#2 vs carol" in out
        )
        out = await console.handle("nudge 2")
        assert "(to carol): Nudge from" in out, out


async def test_autoroll_on_off_and_hours(tmp_path):
    async with club_console(tmp_path, "away_days 1") as (console, late, _waiting):
        await console.handle(f"as {late}")
        assert "Auto-roll is off" in await console.handle("autoroll off")
        assert not (await console.service.preferences(member_id(late))).auto_roll
        assert "within 6 hours" in await console.handle("autoroll 6")
        prefs = await console.service.preferences(member_id(late))
        assert prefs.auto_roll and prefs.roll_after == 6.0
        assert "Auto-roll is on: I roll for you" in await console.handle("autoroll on")
        assert (await console.service.preferences(member_id(late))).roll_after == 0.0
        for bad in ("autoroll", "autoroll 0", "autoroll 9999", "autoroll maybe", "autoroll on off"):
            assert refusal(await console.handle(bad)), bad
        assert (await console.service.preferences(member_id(late))).auto_roll
