"""Learning from the club's games in the console: ``highlight [game]`` writes a finished match's turning point as
an animated GIF and prints where, and refuses a match being played (RULES 003 1.5)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image

from rendering.animation import MAX_BYTES
from tests.consolekit import console_in


async def test_highlight_written_as_a_gif_after_the_match_and_refused_before(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)  # the turning point by the pip count, no engine processes
    async with console_in(tmp_path, images=tmp_path / "images") as console:
        await console.handle("challenge bob 1")
        await console.handle("as bob")
        await console.handle("accept")
        out = await console.handle("highlight 1")
        assert "while it is being played" in out, out
        service = console.service
        rng = random.Random(3)
        for _ in range(8):  # a few plays, then a resignation accepted (RULES G12)
            view = await service.state(1)
            if view.pending == "play":
                await service.play(1, view.waiting_for, rng.choice(await service.legal_plays(1, view.waiting_for)))
            else:
                await service.roll(1, view.waiting_for)
        view = await service.state(1)
        await service.resign(1, view.waiting_for)
        view = await service.state(1)
        await service.accept_resignation(1, view.waiting_for)
        out = await console.handle("highlight 1")
        assert out.startswith("Turning point of #1, game 1") and "pip lead" in out, out
        path = Path(out.splitlines()[-1].removeprefix("Image: ").rsplit(" (", 1)[0])
        assert path.name == "highlight-1.gif" and 0 < path.stat().st_size <= MAX_BYTES
        with Image.open(path) as image:
            assert image.format == "GIF" and image.n_frames >= 2 and image.size[0] == 600
