"""The smaller items of a newcomer's report, each through the console (``tests/consolekit.py``) or the program's
start-up: what he saw and what is right instead."""

from __future__ import annotations

import random
import subprocess
import sys

from console import member_id
from console.core import CONSOLE_GUILD
from tests.casekit import ROOT
from tests.clubkit import play_out
from tests.consolekit import console_in


async def test_verify_writes_the_file_its_text_names_when_the_rolls_do_not_fit(tmp_path, monkeypatch):
    """``verify N`` of a long finished game: the rolls that do not fit in the reply are in a file the console
    writes (there is no attachment in a terminal), named in the reply, and ``tools/verify_dice.py`` checks it."""
    monkeypatch.chdir(tmp_path)
    async with console_in(tmp_path) as console:
        service = console.service
        challenge = await service.challenge(CONSOLE_GUILD, member_id("alice"), member_id("bob"), length=1)
        outcome = await play_out(service, await service.accept(challenge.match_id, member_id("bob")),
                                 random.Random(2))  # fmt: skip
        out = await console.handle(f"verify {outcome.match_id}")
    written = tmp_path / f"dice-{outcome.match_id}-game-1.txt"
    assert "attached" not in out and f"they are in {written}" in out, out
    checked = subprocess.run([sys.executable, str(ROOT / "tools" / "verify_dice.py"), str(written)],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert checked.returncode == 0 and ": ok — " in checked.stdout, checked.stdout + checked.stderr
