"""A club organiser's first session from the README (the newcomer's report of 2026-12-02): each test is one of its
repros, run in the console as he typed it, and failed before its fix."""

from __future__ import annotations

from consolekit import console_in


async def run(console, lines: str) -> list[str]:
    """Each ``;``-separated line of ``lines`` typed in turn; their replies."""
    return [await console.handle(line.strip()) for line in lines.split(";")]


async def test_a_jacoby_reduced_result_says_counted_single(tmp_path):
    """A gammon resigned with the cube in the middle under the Jacoby rule scores a single (RULES D4): the game's
    line and the sheet say so, not "a gammon, 1 point" and "resigned gammon | +1"."""
    async with console_in(tmp_path) as console:
        out = await run(console, "as erin; challenge bob money money 10; as bob; accept; as erin; resign gammon; "
                                 "as bob; accept; club sheet")  # fmt: skip
        accepted, sheet = out[-2], out[-1]
        assert "bob wins game 1 (resignation): a gammon, counted single (Jacoby), 1 point" in accepted, accepted
        assert "resigned gammon, counted single (Jacoby)" in sheet, sheet
