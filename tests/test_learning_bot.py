"""Learning from the club's own games, through the Discord harness (tests/discordkit.py): the animated highlight of
a finished match (``/study highlight``, and posted by itself when a match ends unless the club turns it off),
refused while the match is played (RULES 003 1.5)."""

from __future__ import annotations

import asyncio
import io
import sys

from PIL import Image

from rendering.animation import MAX_BYTES
from tests.discordkit import Harness
from tests.test_study_bot import rated_game

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
        assert "while it is being played" in asked.text and "003 1.5" in asked.text
        await play_then_resign(h, 1)
        posted = await _posted_highlight(h, thread)
        assert posted is not None, "no highlight was posted at the match's end"
        assert "(by the pip count (no engine))" in posted.content
        [(name, data)] = posted.files.items()
        assert name == "highlight-1.gif" and data.startswith(GIF_MAGIC) and len(data) <= MAX_BYTES
        image = Image.open(io.BytesIO(data))
        assert image.size[0] == 600 and image.n_frames >= 2  # the position before, one frame per checker moved
        lobby = h.channel("lobby")
        asked = await h.command(bob, "study highlight", lobby, game=1)
        assert any(name.endswith(".gif") for m in asked.messages for name in m.files), asked.text
        asked = await h.command(bob, "study highlight", lobby, game=7)
        assert "#7" in asked.text or "no match" in asked.text.lower()


async def test_the_club_can_turn_the_automatic_highlight_off(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice, bob, thread = await rated_game(h, length="1")
        club = await h.bot.service.state(1)
        guild = await h.bot.service.guild_of(club.club_id)
        await h.bot.service.configure_club(guild, highlights=False)
        await play_then_resign(h, 1)
        assert await _posted_highlight(h, thread, tries=40) is None
