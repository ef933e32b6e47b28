"""The review in the console: when a rated match ends the engine's review is computed in the background and
printed (PRs, costliest plays with their board PNGs, cube errors) and both members' PRs are kept, as Discord's review
keeps them; ``[analysis] review_after_match`` / ``--no-review`` turn it off."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot import ConfigError, Settings
from club import ClubService, ManualClock
from club.analysis import engine_available
from console import Console, member_id
from storage import Database
from storage.prs import match_prs

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")


async def play_to_the_end(console: Console, match_id: int, rng: random.Random) -> str:
    """Play match ``match_id`` through the console (random legal plays, takes, no doubles) until it is over;
    returns the reply to the last action."""
    service = console.service
    names = {member_id("alice"): "alice", member_id("bob"): "bob"}
    out = ""
    for _ in range(400):
        view = await service.state(match_id)
        if view.status == "over":
            return out
        await console.handle(f"as {names[view.waiting_for]}")
        if view.pending == "play":
            out = await console.handle(f"move {rng.choice(await service.legal_plays(match_id, view.waiting_for))}")
        elif view.pending in ("roll", "roll_or_double"):
            out = await console.handle("roll")
        elif view.pending == "answer_resignation":
            out = await console.handle("accept")
        else:
            out = await console.handle("take")
        assert not out.startswith("Refused"), out
    raise AssertionError("the match did not end")


@needs_engine
async def test_the_review_is_printed_and_the_prs_kept_when_a_console_match_ends(tmp_path):
    rng = random.Random(5)
    async with Database.open(tmp_path / "c.sqlite3") as database:
        console = Console(
            ClubService(database, clock=ManualClock()), images=tmp_path / "images", review_after_match=True
        )
        try:
            await console.handle("as bob")
            await console.handle("as alice")
            await console.handle("challenge bob 1")
            await console.handle("as bob")
            await console.handle("accept")
            out = await play_to_the_end(console, 1, rng)
            assert "Match #1 is over" in out and "The engine is reviewing #1" in out, out
            assert "review 1" not in out  # no need to ask for it
            # printed with a later command once done, or (as the console's loop does) before Bye
            printed = [out] + await console.finished_reviews(wait=True)
            text = "\n".join(printed)
            assert "Review: alice vs bob, 1-point match (#1) (Open Sage" in text, text
            assert "alice: PR" in text and "bob: PR" in text and "Cube errors:" in text
            pictures = [Path(line.rsplit(": ", 1)[1]) for line in text.splitlines() if "review-" in line]
            assert pictures and all(path.read_bytes().startswith(b"\x89PNG") for path in pictures)
            assert any("played" in line for line in text.splitlines() if "review-" in line)
            # then the highlight, by the review's equities (the club's highlights are on by default)
            assert "Turning point of #1, game 1, " in text and "(by the engine's equity)" in text, text
            assert (tmp_path / "images" / "highlight-1.gif").read_bytes().startswith(b"GIF8")
            kept = await match_prs(database, 1)
            assert {row.member_id for row in kept} == {member_id("alice"), member_id("bob")}
            assert all(row.decisions > 0 for row in kept)
            assert console.pending_reviews == {}
            # review 1 afterwards shows the same review (no second row of PRs)
            again = await console.handle("review 1")
            assert "alice: PR" in again and len(await match_prs(database, 1)) == 2
        finally:
            console.close()


async def test_without_review_after_match_the_console_only_says_how_to_ask(tmp_path):
    """The default of a :class:`Console` (and ``--no-review``): no engine work when a match ends."""
    async with Database.open(tmp_path / "c.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock()), images=None)
        await console.handle("as bob")
        await console.handle("as alice")
        await console.handle("challenge bob 1")
        await console.handle("as bob")
        await console.handle("accept")
        out = await play_to_the_end(console, 1, random.Random(2))
        assert "Match #1 is over" in out and "reviewing" not in out
        assert "Turning point of #1, game 1, " in out and "(by the pip count and the cube)" in out, out
        assert console.pending_reviews == {} and console.analysis_pool is None
        assert await match_prs(database, 1) == []


def test_review_after_match_setting():
    """``[analysis] review_after_match``: true by default, false turns the automatic review off, a non-boolean is
    refused saying what it must be."""
    assert Settings.from_config({}).review_after_match is True
    assert Settings.from_config({"analysis": {"review_after_match": False}}).review_after_match is False
    with pytest.raises(ConfigError, match=r"\[analysis\] review_after_match must be true or false"):
        Settings.from_config({"analysis": {"review_after_match": "no"}})


@needs_engine
async def test_the_console_loop_prints_a_review_still_computing_before_bye(tmp_path):
    """A script ends right after the match: the loop waits for the review and prints it before ``Bye.``."""
    import io

    from bot import reproducible
    from console import run_console

    script = (
        "as bob\nas alice\nchallenge bob 1\nas bob\naccept\nmove 24/18 13/11\nas alice\nroll\nresign\nas bob\naccept\n"
    )
    out = io.StringIO()
    async with Database.open(tmp_path / "c.sqlite3") as database:
        service = ClubService(database, clock=ManualClock(), **reproducible("demo"))  # bob opens with 6-2
        stdin = io.BytesIO(script.encode())
        stdin.isatty = lambda: False
        assert await run_console(service, stdin, out, images=None, review_after_match=True) == 0
        text = out.getvalue()
        assert "Match #1 is over" in text and "The engine is reviewing #1" in text, text[-1500:]
        assert text.index("Review: alice vs bob, 1-point match (#1)") < text.rindex("Bye.")
        assert "too few for a meaningful error rate" in text  # a match of two plays says so instead of a PR
        assert len(await match_prs(database, 1)) == 2
