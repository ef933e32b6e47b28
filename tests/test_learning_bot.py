"""Learning from the club's own games, through the Discord harness (tests/discordkit.py): the animated highlight of
a finished match (``/study highlight``, and posted by itself when a match ends unless the club turns it off),
refused while the match is played (RULES 003 1.5); the club quiz (``/study quiz``): a Discord poll within its
limits, drawn only from finished games, revealed from the poll's final results after a restart, with the
leaderboard; refused without the engine, saying how to install it."""

from __future__ import annotations

import asyncio
import io
import random
import sys

import pytest
from PIL import Image

from club.analysis import ENABLE_ANALYSIS
from club.quiz import QuizQuestion, pending_quizzes
from rendering.animation import MAX_BYTES
from tests.discordkit import Harness
from tests.test_study_bot import needs_engine, rated_game

GIF_MAGIC = b"GIF8"


async def play_then_resign(h: Harness, match_id: int, plays: int = 6) -> None:
    """Both members play the first legal play of each roll ``plays`` times, then the one on roll resigns and the
    other accepts (RULES G12): a short finished match (the service, then the publisher, as a button's handler)."""
    service = h.bot.service
    while plays:
        view = await service.state(match_id)
        member = view.waiting_for
        if view.pending == "play":
            found = await service.legal_plays(match_id, member)
            outcome = await service.play(match_id, member, found[0], version=view.version)
            plays -= 1
        else:
            outcome = await service.roll(match_id, member, version=view.version)
        await h.bot.publisher.publish(outcome, actor=member)
    view = await service.state(match_id)
    resigner = view.waiting_for
    await h.bot.publisher.publish(await service.resign(match_id, resigner), actor=resigner)
    view = await service.state(match_id)
    outcome = await service.accept_resignation(match_id, view.waiting_for)
    await h.bot.publisher.publish(outcome, actor=view.waiting_for)
    assert outcome.view.status == "over"


async def _posted_highlight(h: Harness, thread, tries: int = 300):
    for _ in range(tries):  # posted by the match-end listener task
        found = [m for m in h.messages(thread) if m.content.startswith("Turning point of #")]
        if found:
            return found[0]
        await asyncio.sleep(0.05)
    return None


async def test_highlight_refused_in_play_then_posted_at_match_end_and_on_demand(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)  # without the engine: the turning point by the pip count
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice, bob, thread = await rated_game(h, length="1")
        asked = await h.command(alice, "study highlight", thread)
        assert asked.private and "No highlight of match #1 while it is being played" in asked.text
        assert "003 1.5" in asked.text
        await play_then_resign(h, 1)
        posted = await _posted_highlight(h, thread)
        assert posted is not None, "no highlight was posted at the match's end"
        assert "(by the pip count and the cube)" in posted.content
        [(name, data)] = posted.files.items()
        assert name == "highlight-1.gif" and data.startswith(GIF_MAGIC) and len(data) <= MAX_BYTES
        image = Image.open(io.BytesIO(data))
        assert image.size[0] == 600 and image.n_frames >= 2  # the position before, one frame per checker moved
        lobby = h.channel("lobby")
        asked = await h.command(bob, "study highlight", lobby, game=1)
        assert asked.private and "The highlight of match #1 is posted" in asked.text, asked.text
        assert any(name.endswith(".gif") for name in h.last(lobby).files), "posted in the channel asked from"
        asked = await h.command(bob, "study highlight", lobby, game=7)
        assert "#7" in asked.text or "no match" in asked.text.lower()


async def test_the_club_can_turn_the_automatic_highlight_off(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice, bob, thread = await rated_game(h, length="1")
        asked = await h.command(bob, "study options", thread, highlights=False)
        assert "Only club admins" in asked.text
        admin = h.member("Ada", admin=True)
        asked = await h.command(admin, "study options", thread, highlights=False, names=True, every_days=7)
        assert asked.private and "Highlights at match end: off" in asked.text and "names shown" in asked.text
        assert "every 7 days in no channel set" in asked.text
        await play_then_resign(h, 1)
        assert await _posted_highlight(h, thread, tries=40) is None


# -- the club quiz ----------------------------------------------------------------------------------------------------
async def play_randomly(h: Harness, match_id: int, plays: int, seed: int, *, resign: bool = True) -> None:
    """Random legal plays (many of them errors), ``plays`` of them, then (``resign``) a resignation accepted."""
    service = h.bot.service
    rng = random.Random(seed)
    while plays:
        view = await service.state(match_id)
        member = view.waiting_for
        if view.pending == "play":
            found = await service.legal_plays(match_id, member)
            await service.play(match_id, member, rng.choice(found), version=view.version)
            plays -= 1
        else:
            await service.roll(match_id, member, version=view.version)
    if resign:
        view = await service.state(match_id)
        await service.resign(match_id, view.waiting_for)
        view = await service.state(match_id)
        outcome = await service.accept_resignation(match_id, view.waiting_for)
        assert outcome.view.status == "over"


@needs_engine
async def test_quiz_poll_within_limits_then_revealed_after_a_restart_from_final_results(harness):
    h = harness
    alice, bob, _thread = await rated_game(h, length="1")
    await play_randomly(h, 1, 24, seed=1)
    carol, dan = h.member("Carol"), h.member("Dan")
    games = h.channel("games")
    await h.command(carol, "bg challenge", games, opponent=dan, length="1")
    await h.press(dan, h.last(games), "Accept")
    await play_randomly(h, 2, 30, seed=2, resign=False)  # match 2 is being played: never a quiz
    lobby = h.channel("lobby")
    asked = await h.command(alice, "study quiz", lobby, hours=2)
    assert asked.private and "Quiz 1 is posted" in asked.text, asked.text
    posted = h.last(lobby)
    poll = posted.data["poll"]
    answers = [a["poll_media"]["text"] for a in poll["answers"]]
    question = poll["question"]["text"]
    assert 3 <= len(answers) <= 4 and len(set(answers)) == len(answers)
    assert len(question) <= 300 and all(len(a) <= 55 for a in answers) and question.startswith("Quiz 1: ")
    assert "Alice" not in question and "Bob" not in question  # names are off by default
    assert any(name.endswith(".png") for name in posted.files)
    [record] = await pending_quizzes(h.bot.service)
    stored = QuizQuestion.from_json({k: v for k, v in record.question.items() if k != "number"})
    assert stored.match_id == 1 and stored.answers() == answers and stored.best != stored.made
    best, wrong = answers[stored.best], answers[stored.made]
    h.vote(bob, posted, best)
    h.vote(carol, posted, wrong)
    # not final yet: nothing is revealed (Discord's counts may still change)
    assert await h.bot.get_cog("Study").reveal(record) is False
    await h.restart()
    h.end_poll(posted)  # the final results arrive as a MESSAGE_UPDATE, to the new bot
    await h.settle()
    reveal = h.last(lobby)
    assert reveal.content.startswith("**Quiz 1 — the answer**"), reveal.content
    assert f"{best}: " in reveal.content and "— best; votes: Bob" in reveal.content
    assert "Right: Bob." in reveal.content and f"<@{bob.id}> 1 of 1 right" in reveal.content
    assert f"<@{carol.id}> 0 of 1 right" in reveal.content
    assert any(name.endswith(".png") for name in reveal.files)
    assert await pending_quizzes(h.bot.service) == []
    board = await h.command(dan, "study quizboard", lobby)
    assert board.private and board.text.splitlines()[1] == f"1. <@{bob.id}> 1 of 1 right"
    # the admins' schedule: the reminder loop's tick posts the next quiz in the quiz channel when one is due
    study = h.bot.get_cog("Study")
    await study.quiz_tick()
    assert h.last(lobby).id == reveal.id  # no schedule yet
    admin = h.member("Ada", admin=True)
    asked = await h.command(admin, "study options", lobby, every_days=7, channel=lobby)
    assert f"every 7 days in <#{lobby}>" in asked.text
    await study.quiz_tick()
    assert h.last(lobby).data.get("poll") is None  # quiz 1 was made less than 7 days ago
    h.clock.advance(7 * 86_400)
    await h.bot.get_cog("Reminders").tick()  # the reminder loop's own round reaches the study cog
    scheduled = h.last(lobby)
    assert scheduled.data["poll"]["question"]["text"].startswith("Quiz 2: ")
    await study.quiz_tick()
    assert h.last(lobby).id == scheduled.id  # the next one is due in 7 days


async def test_quiz_refused_without_the_engine_saying_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice, lobby = h.member("Alice"), h.channel("lobby")
        for command in ("study quiz", "study blunders"):
            asked = await h.command(alice, command, lobby)
            assert asked.private and asked.text == ENABLE_ANALYSIS and "requirements-analysis.txt" in asked.text


@pytest.mark.slow
@needs_engine
async def test_blunders_private_from_finished_matches_only(harness):
    h = harness
    alice, bob, _thread = await rated_game(h, length="1")
    await play_randomly(h, 1, 24, seed=1)
    games = h.channel("games")
    await h.command(alice, "bg challenge", games, opponent=bob, length="1")
    await h.press(bob, h.last(games), "Accept")
    await play_randomly(h, 2, 20, seed=4, resign=False)  # match 2 is being played: never listed
    lobby = h.channel("lobby")
    asked = await h.command(alice, "study blunders", lobby, count=2)
    assert asked.private and asked.text.startswith("**Alice's costliest decisions**"), asked.text
    listed = [line for line in asked.text.splitlines() if line[:3] in ("1. ", "2. ")]
    assert listed and all(line.split()[1] == "#1" for line in listed), asked.text
    assert all("played " in line and ", best " in line and "−" in line for line in listed)
    assert sum(name.endswith(".png") for m in asked.messages for name in m.files) == len(listed)
    shared = await h.command(bob, "study blunders", lobby, share=True)
    assert not shared.private and shared.text.startswith("**Bob's costliest decisions**")
    other = await h.command(bob, "study blunders", lobby, member=alice, share=True)
    assert other.private  # another member's list is never posted for everyone


@needs_engine
async def test_nothing_from_a_chouette_in_play_nor_from_another_servers_games(tmp_path):
    """The hint rule (RULES 003 1.5) for the quiz, the blunders and the highlight: a chouette being played (its
    members asking, in its channel or elsewhere) gives no quiz, no blunder and no highlight — only finished rated
    matches are read — and neither does a match being played, asked for from another server (nor is it named
    there). Nothing here reaches the engine: each answer comes before any screening."""
    from club import InjectedDice
    from tests.test_chouette_bot import SEATING, chouette, members, play_first

    dice = InjectedDice([*SEATING[:4], (1, 2)], fallback=b"learn")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        ann, bob, cy, di, _ed = members(h)
        room = h.channel("club-night")
        await chouette(h, ann, "start", room)
        for member in (bob, cy, di):
            await chouette(h, member, "join", room)
        await chouette(h, ann, "seat", room)
        await play_first(h, bob, h.last(room))  # the chouette's first game is being played
        games = h.channel("games")
        await h.command(ann, "bg challenge", games, opponent=bob, length="1")
        await h.press(bob, h.last(games), "Accept")  # match 1, being played
        lobby = h.channel("lobby")
        for where in (room, lobby):
            asked = await h.command(bob, "study quiz", where)
            assert asked.private and "no finished rated match" in asked.text, asked.text
            asked = await h.command(ann, "study blunders", where)
            assert asked.private and asked.text == "Ann has no finished match in this club yet.", asked.text
        asked = await h.command(cy, "study highlight", room)
        assert "Say which match" in asked.text and not any(m.files for m in asked.messages)
        asked = await h.command(cy, "study highlight", room, game=1)
        assert "while it is being played" in asked.text and not any(m.files for m in asked.messages)
        elsewhere = h.channel("elsewhere")
        with h.from_guild(888):
            for who in (ann, bob):
                asked = await h.command(who, "study highlight", elsewhere, game=1)
                assert asked.private and "no match or session 1 here" in asked.text, asked.text
                assert not any(m.files for m in asked.messages)
                asked = await h.command(who, "study blunders", elsewhere)
                assert asked.text.endswith("has no finished match in this club yet."), asked.text
                asked = await h.command(who, "study quiz", elsewhere)
                assert "no finished" in asked.text and "#1" not in asked.text, asked.text
        assert await pending_quizzes(h.bot.service) == []


@needs_engine
async def test_a_passed_double_is_asked_as_take_or_pass_with_the_cube_offered_and_revealed(harness):
    """A cube decision from the club's games: a double passed after one play each (a take by far) is the costliest
    decision of the match, posted as a poll "Take" / "Pass" with the board (the cube offered), revealed with the
    taker's equities."""
    h = harness
    _alice, bob, _thread = await rated_game(h, length="3")
    service = h.bot.service
    plays = 0
    while plays < 2:
        view = await service.state(1)
        if view.pending == "play":
            await service.play(1, view.waiting_for, (await service.legal_plays(1, view.waiting_for))[0])
            plays += 1
        else:
            await service.roll(1, view.waiting_for)
    view = await service.state(1)
    await service.double(1, view.waiting_for)
    await service.drop(1, (await service.state(1)).waiting_for)  # game 1 over
    view = await service.state(1)
    await service.resign(1, view.waiting_for, 3)
    outcome = await service.accept_resignation(1, (await service.state(1)).waiting_for)
    assert outcome.view.status == "over"
    lobby = h.channel("lobby")
    asked = await h.command(bob, "study quiz", lobby, hours=1)
    assert "Quiz 1 is posted" in asked.text, asked.text
    posted = h.last(lobby)
    poll = posted.data["poll"]
    assert poll["question"]["text"] == "Quiz 1: A double to 2 (3-point match, 0-0). Take or pass?"
    assert [a["poll_media"]["text"] for a in poll["answers"]] == ["Take", "Pass"]
    [record] = await pending_quizzes(h.bot.service)
    assert record.question["kind"] == "answer" and (record.question["best"], record.question["made"]) == (0, 1)
    h.vote(bob, posted, "Take")
    h.end_poll(posted)
    await h.settle()
    reveal = h.last(lobby)
    lines = reveal.content.splitlines()
    assert lines[1].startswith("1. Take: +") and lines[1].endswith("— best; votes: Bob"), reveal.content
    assert lines[2].startswith("2. Pass: -1.000 (") and "played in the game; no votes" in lines[2]
    assert "Right: Bob." in reveal.content and any(name.endswith(".png") for name in reveal.files)
