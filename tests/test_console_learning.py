"""Learning from the club's games in the console: ``highlight [game]`` writes a finished match's turning point as
an animated GIF and prints where, and refuses a match being played (RULES 003 1.5); ``quiz`` prints a quiz's poll
as text and writes its board, ``quiz answer`` the engine's ranking; without the engine, how to install it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from PIL import Image

from club.analysis import ENABLE_ANALYSIS, engine_available
from rendering.animation import MAX_BYTES
from tests.consolekit import console_in

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")


async def _play_then_resign(console, *, plays: int, seed: int = 3) -> None:
    """Match 1: random legal plays (``plays`` of them), then a resignation accepted (RULES G12)."""
    service = console.service
    rng = random.Random(seed)
    while plays:
        view = await service.state(1)
        if view.pending == "play":
            await service.play(1, view.waiting_for, rng.choice(await service.legal_plays(1, view.waiting_for)))
            plays -= 1
        else:
            await service.roll(1, view.waiting_for)
    view = await service.state(1)
    await service.resign(1, view.waiting_for)
    view = await service.state(1)
    await service.accept_resignation(1, view.waiting_for)


async def test_highlight_written_as_a_gif_after_the_match_and_refused_before(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)  # the turning point by the pip count, no engine processes
    async with console_in(tmp_path, images=tmp_path / "images") as console:
        await console.handle("challenge bob 1")
        await console.handle("as bob")
        await console.handle("accept")
        out = await console.handle("highlight 1")
        assert "while it is being played" in out, out
        await _play_then_resign(console, plays=4)
        out = await console.handle("highlight 1")
        assert out.startswith("Turning point of #1, game 1") and "pip lead" in out, out
        path = Path(out.splitlines()[-1].removeprefix("Image: ").rsplit(" (", 1)[0])
        assert path.name == "highlight-1.gif" and 0 < path.stat().st_size <= MAX_BYTES
        with Image.open(path) as image:
            assert image.format == "GIF" and image.n_frames >= 2 and image.size[0] == 600


@needs_engine
async def test_quiz_printed_as_a_poll_then_its_answer(tmp_path):
    async with console_in(tmp_path, images=tmp_path / "images") as console:
        try:
            out = await console.handle("quiz")
            assert "no finished" in out, out
            await console.handle("challenge bob 1")
            await console.handle("as bob")
            await console.handle("accept")
            await _play_then_resign(console, plays=24)
            out = await console.handle("quiz")
            lines = out.splitlines()
            assert lines[0].startswith("Quiz 1: the player on roll to play "), out
            choices = [line for line in lines if line[:3] in ("A. ", "B. ", "C. ", "D. ")]
            assert 3 <= len(choices) <= 4 and any(line.startswith("Image: ") for line in lines)
            answer = await console.handle("quiz answer")
            assert "Quiz 1 — the answer" in answer and "— best" in answer and "played in the game" in answer
            listed = await console.handle("blunders 1")
            assert listed.startswith("bob's costliest decisions") and "\n1. #1 game 1, " in listed, listed
            assert listed.splitlines()[-1].startswith("Image: ") and "blunder-1.png" in listed
        finally:
            if console.analysis_pool is not None:
                console.analysis_pool.shutdown()


async def test_quiz_without_the_engine_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)
    async with console_in(tmp_path) as console:
        assert await console.handle("quiz") == ENABLE_ANALYSIS
        assert await console.handle("blunders") == ENABLE_ANALYSIS


async def _end_by_console(console, match_id: int, *, plays: int, seed: int) -> str:
    """Random legal plays on match ``match_id``, then the member on roll resigns and the other accepts, both typed
    in the console (what it prints when the match ends is returned)."""
    service = console.service
    rng = random.Random(seed)
    while plays:
        view = await service.state(match_id)
        if view.pending == "play":
            await service.play(
                match_id, view.waiting_for, rng.choice(await service.legal_plays(match_id, view.waiting_for))
            )
            plays -= 1
        else:
            await service.roll(match_id, view.waiting_for)
    view = await service.state(match_id)
    names = await service.display_names(view.players)
    resigner = view.waiting_for
    other = next(p for p in view.players if p != resigner)
    await console.handle(f"as {names[resigner]}")
    await console.handle(f"resign #{match_id}")
    await console.handle(f"as {names[other]}")
    return await console.handle(f"accept #{match_id}")


async def test_the_highlight_is_written_when_a_match_ends_unless_the_club_turned_it_off(tmp_path, monkeypatch):
    """As Discord posts it in the game's thread: the turning point (no engine: by the pip count and the cube) written
    as a GIF when the match ends, its path printed; ``options highlights=off`` (admins) turns it off."""
    monkeypatch.setitem(sys.modules, "bgsage", None)
    async with console_in(tmp_path, images=tmp_path / "images") as console:
        await console.handle("challenge bob 1")
        await console.handle("as bob")
        await console.handle("accept")
        out = await _end_by_console(console, 1, plays=4, seed=5)
        assert "Turning point of #1, game 1" in out and "(by the pip count and the cube)" in out, out
        line = next(line for line in out.splitlines() if "highlight-1.gif" in line)
        path = Path(line.removeprefix("Image: ").rsplit(" (", 1)[0])
        with Image.open(path) as image:
            assert image.format == "GIF" and image.n_frames >= 2
        shown = await console.handle("options")
        assert "Highlights at match end: on" in shown and "names hidden" in shown, shown
        assert "highlights is on or off, not 'maybe'" in await console.handle("options highlights=maybe")
        out = await console.handle("options highlights=off threshold=0.1")
        assert "Highlights at match end: off" in out and "lost 0.1 or more" in out, out
        await console.handle("challenge carol 1")
        await console.handle("as carol")
        await console.handle("accept")
        out = await _end_by_console(console, 2, plays=4, seed=6)
        assert "Turning point" not in out and not (tmp_path / "images" / "highlight-2.gif").exists(), out
