"""Analysis in Discord, through the harness (tests/discordkit.py): ``/study hint`` (refused in a rated game and in a
chouette while it is played, 003 1.5; given for a position by ID), ``/study review`` and the review posted in the
game's thread when a match ends (with the costliest plays as board images), and the bot without the engine."""

from __future__ import annotations

import asyncio
import random
import sys

import pytest

from backgammon.position import Position
from club import frontend
from club.analysis import ENABLE_ANALYSIS, engine_available
from club.errors import UnknownGameError
from tests.discordkit import PNG_MAGIC, Harness, Member

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")


async def rated_game(h: Harness, length: str = "3") -> tuple[Member, Member, int]:
    """Alice challenges Bob, Bob accepts: returns them and the game's thread."""
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    await h.command(alice, "bg challenge", games, opponent=bob, length=length)
    await h.press(bob, h.last(games), "Accept")
    return alice, bob, h.thread_of(h.messages(games)[0])


async def test_hint_refused_during_a_rated_game_with_the_reason(harness):
    h = harness
    alice, bob, thread = await rated_game(h)
    # in the game's thread, without a position: this match is being played
    asked = await h.command(alice, "study hint", thread)
    assert asked.private and "No hints in match #1 while it is being played" in asked.text and "003 1.5" in asked.text
    # a review asked in play: a private refusal worded for a review
    asked = await h.command(alice, "study review", thread)
    assert asked.private and asked.thinking and "No review of match #1 while it is being played" in asked.text
    assert "hint" not in asked.text.lower()
    # the Position ID of his own game in progress, from another channel: refused too
    view = await h.bot.service.state(1)
    lobby = h.channel("lobby")
    for position_id in (view.game.board.position_id(), view.game.board.swap().position_id()):
        asked = await h.command(bob, "study hint", lobby, position=position_id, dice="31")
        assert "your match #1" in asked.text and "003 1.5" in asked.text


async def test_hint_refused_in_a_chouette_being_played(harness):
    h = harness
    ann = h.member("Ann")
    room = h.channel("chouette")
    await h.command(ann, "bg chouette start", room)
    asked = await h.command(ann, "study hint", room, position=Position.initial().position_id())
    assert "No hints in the chouette of this channel" in asked.text and "003 1.5" in asked.text


@needs_engine
async def test_hint_for_a_position_by_id(harness):
    h = harness
    alice = h.member("Alice")
    lobby = h.channel("lobby")
    start = Position.initial().position_id()
    asked = await h.command(alice, "study hint", lobby, position=start, dice="3-1")
    assert asked.private and "Best plays of 3-1" in asked.text
    assert [line for line in asked.text.splitlines() if line.startswith("1. ")][0].startswith("1. 8/5 6/5")
    asked = await h.command(alice, "study hint", lobby, position=start)
    assert "Right action: no double, take" in asked.text
    asked = await h.command(alice, "study hint", lobby, position="nonsense", dice="31")
    assert "is not a Position ID" in asked.text


async def _play_to_the_end(h: Harness, match_id: int) -> None:
    """Both members play the first legal play of every roll until the match is over (the service, then the
    publisher, as a button's handler does)."""
    service = h.bot.service
    for _ in range(600):
        view = await service.state(match_id)
        if view.status == "over":
            return
        member = view.waiting_for
        if view.pending == "play":
            plays = await service.legal_plays(match_id, member)
            outcome = await service.play(match_id, member, plays[0], version=view.version)
        elif "roll" in view.legal:
            outcome = await service.roll(match_id, member, version=view.version)
        elif "take" in view.legal:
            outcome = await service.take(match_id, member, version=view.version)
        else:
            raise AssertionError(f"unexpected: {view.pending} {view.legal}")
        await h.bot.publisher.publish(outcome, actor=member)
    raise AssertionError("the match did not end")


@needs_engine
async def test_review_posted_at_match_end_with_images(harness):
    h = harness
    alice, bob, thread = await rated_game(h, length="1")
    # no review while it is being played
    asked = await h.command(alice, "study review", thread)
    assert "while it is being played" in asked.text
    await _play_to_the_end(h, 1)
    for _ in range(600):  # the review is posted by a listener task, the engine working in its processes
        reviews = [m for m in h.messages(thread) if m.content.startswith("**Review:")]
        if reviews:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("no review was posted")
    text = reviews[0].content
    assert "Alice: PR" in text and "Bob: PR" in text and "Costliest plays:" in text and "Cube errors" in text
    # the three costliest plays as pictures: the play made and the best play, with equities
    assert len(reviews[0].files) == 6 and all(png.startswith(PNG_MAGIC) for png in reviews[0].files.values())
    review = await h.bot.get_cog("Study").review_of(1)
    assert [caption.split(":")[1].split()[0] for _, caption, _ in review.images[:2]] == ["played", "best"]
    asked = await h.command(bob, "study review", thread)
    assert asked.private and "The review of match #1 is posted" in asked.text
    assert h.last(thread).content.startswith("**Review: Alice vs Bob, 1-point match (#1)")


async def test_without_the_engine_study_says_how_to_enable_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)  # `import bgsage` fails, as without the optional install
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice = h.member("Alice")
        lobby = h.channel("lobby")
        asked = await h.command(alice, "study hint", lobby, position=Position.initial().position_id())
        assert asked.text == ENABLE_ANALYSIS
        asked = await h.command(alice, "study review", lobby, game=1)
        assert asked.text == ENABLE_ANALYSIS


@needs_engine
async def test_chouette_review_grades_each_members_cube_decisions(harness):
    from tests.chouette_clubkit import decide_randomly

    h = harness
    ann, ben, cy = (h.member(name) for name in ("Ann", "Ben", "Cy"))
    room = h.channel("chouette")
    await h.command(ann, "bg chouette start", room)
    for member in (ben, cy):
        await h.command(member, "bg chouette join", room)
    chouettes = h.bot.chouettes
    sid = await chouettes.session_in(room)
    outcome = await chouettes.seat(sid, cy.id)
    rng = random.Random(3)
    while outcome.view.game_number < 2:
        outcome = await decide_randomly(chouettes, outcome, rng, double=0.4)
    asked = await h.command(ann, "study review", room)
    assert asked.private and "The review of chouette #1 is posted" in asked.text
    text = h.last(room).content  # posted in the chouette's channel
    assert "**Cube review: chouette #1**" in text
    assert sum(name in text for name in ("Ann", "Ben", "Cy")) >= 2 and "cube decisions" in text


async def test_review_of_another_servers_match_is_unknown_here(harness):
    """Club isolation (RULES A2): the match of this server is unknown from another (the check /study review makes
    before any engine work, :func:`club.frontend.in_club`)."""
    h = harness
    await rated_game(h, length="1")
    with pytest.raises(UnknownGameError, match="There is no match or session 1 here."):
        await frontend.in_club(h.bot.service, 1, 999)


async def test_no_hint_for_the_position_of_ones_own_chouette_from_any_server(harness):
    """Fair play (RULES 003 1.5): the Position ID of the board of a chouette a member takes part in — Box, Captain or
    Team, either side's ID — is refused to him in any channel of any server while its game is played; a member who
    left during the game still takes part until it ends. Someone who does not sit in it is not refused."""
    h = harness
    ann, ben, cy, outsider = (h.member(name) for name in ("Ann", "Ben", "Cy", "Eve"))
    room = h.channel("chouette")
    await h.command(ann, "bg chouette start", room)
    for member in (ben, cy):
        await h.command(member, "bg chouette join", room)
    chouettes = h.bot.chouettes
    sid = await chouettes.session_in(room)
    view = (await chouettes.seat(sid, cy.id)).view
    board = view.board.board
    ids = (board.position_id(), board.swap().position_id())
    await h.command(cy, "bg chouette leave", room)  # away now, out once this game is over (RULES C2)
    lobby = h.channel("lobby")
    with h.from_guild(888):
        for member in (ann, ben, cy):
            for position_id in ids:
                asked = await h.command(member, "study hint", lobby, position=position_id, dice="64")
                assert "No hints in your chouette #1" in asked.text and "003 1.5" in asked.text, asked.text
    asked = await h.command(outsider, "study hint", lobby, position=ids[0], dice="64")
    assert "No hints" not in asked.text


async def test_no_hint_for_the_position_of_ones_own_match_in_another_server(harness):
    h = harness
    alice, bob, thread = await rated_game(h)
    view = await h.bot.service.state(1)
    with h.from_guild(888):
        asked = await h.command(bob, "study hint", h.channel("elsewhere"), position=view.game.board.position_id())
    assert "your match #1" in asked.text and "003 1.5" in asked.text, asked.text


@needs_engine
async def test_a_review_being_computed_at_a_restart_is_posted_once_after_it(tmp_path):
    """At-least-once reviews, each posted once: the bot stops while it computes a finished match's review (the
    review is recorded due at the match's end); the restarted bot computes it — keeping both players' PRs — and
    posts it in the game's thread, once; a further restart posts nothing again."""
    import asyncio

    from tests.test_discord_platform import _finished

    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        study = h.bot.get_cog("Study")

        async def stopped(match_id):
            raise asyncio.CancelledError  # the process stops in the middle of the engine's work

        study.review_of = stopped
        _, thread = await _finished(h, alice, bob, h.channel())
        await h.settle()
        reviews = [m for m in h.messages(thread) if m.content.startswith("**Review:")]
        assert reviews == [] and await h.bot.service.db._fetchall("SELECT * FROM match_prs") == []
        for _ in range(2):
            await h.restart()
            await h.bot.get_cog("Study")._resume
            await h.settle()
            reviews = [m for m in h.messages(thread) if m.content.startswith("**Review:")]
            assert len(reviews) == 1 and "Alice: PR" in reviews[0].content and "Bob: PR" in reviews[0].content
            kept = await h.bot.service.db._fetchall("SELECT member_id FROM match_prs WHERE match_id = 1")
            assert sorted(row[0] for row in kept) == sorted((alice.id, bob.id))
