"""Refusals name the rule: "no doubling in the Crawford game (RULES M3)", "you already rolled: play 2-1",
and an illegal play says what made it illegal next to the legal plays. Each refusal changes nothing."""

from __future__ import annotations

import pytest

from backgammon.errors import IllegalPlayError
from backgammon.moves import legal_plays
from backgammon.position import Position
from club import InjectedDice
from club.errors import NotNowError
from club.frontend import explain
from club.refusals import illegal_play_reason
from tests.clubkit import ALICE, BOB, club_service, new_table, seeded, snapshot

pytestmark = [pytest.mark.asyncio, pytest.mark.backends]


def reason(points: dict, dice, text, bar=(0, 0)) -> str | None:
    position = Position.from_points(points, bar)
    return illegal_play_reason(position, dice, text, legal_plays(position, dice))


async def test_illegal_plays_say_what_made_them_illegal():
    """RULES G4–G8: each illegal play is refused with its reason."""
    opening = {24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5}
    bar = reason({24: 2, 13: 5, 8: 3, 6: 4, 1: -2, 12: -5, 17: -3, 19: -5}, (3, 1), "13/10 6/5", bar=(1, 0))
    assert bar == "a checker on the bar must enter first (RULES G6)"
    assert reason(opening, (6, 4), "13/7") == "you must use both dice when you can (RULES G7)"
    closed = reason({24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -3, 18: -2, 17: -3, 19: -5}, (6, 1), "24/18 24/23")
    assert closed == "the 18-point is closed: your opponent holds it (RULES G4)"
    assert "pips, which the dice 6-4 do not give" in reason(opening, (6, 4), "24/15 13/12")
    outside = reason({8: 1, 6: 5, 5: 5, 4: 4, 19: -15}, (6, 5), "6/off 5/off")
    assert outside == "you may bear off only with all 15 checkers in your home board (RULES G8)"
    assert reason(opening, (5, 5), "13/8 13/8") == "you must play 4 moves of 5 when you can (RULES G5, G7)"
    # found by a new user: these were refused with the legal plays only
    assert reason(opening, (6, 5), "25/18 13/8") == "you have no checker on the bar to move (RULES G4)"
    assert reason(opening, (6, 5), "7/1 13/8") == "you have no checker on the 7-point to move (RULES G4)"
    assert reason(opening, (6, 5), "24/18* 18/13") == (
        "there is no blot of your opponent's to hit on the 18-point (RULES G4: a hit takes a lone checker)"
    )
    assert (
        reason(opening, (6, 5), "24/18 24/18 13/7")
        == "that is 3 moves, and 6-5 gives 2 (RULES G5: only a doublet gives four)"
    )
    blot = {24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -2, 18: -1, 19: -5}
    assert reason(blot, (6, 5), "24/18* 18/13") is None  # the hit is there: that play is legal, nothing to explain


async def test_crawford_double_and_already_rolled_name_the_rule(tmp_path):
    """Found by a user: doubling in the Crawford game answered "you must play 2-1". Now the refusal names RULES M3;
    doubling after rolling in a normal game says "you already rolled: play …"; rolling twice the same. Nothing is
    written by a refusal."""
    path = tmp_path / "club.sqlite"
    async with club_service(path, seeds=seeded(3)) as service:
        outcome = await new_table(service, 3)
        view = outcome.view
        while view.pending != "play":
            view = (await service.roll(view.match_id, view.waiting_for)).view
        roller = view.waiting_for
        before = snapshot(path)
        with pytest.raises(NotNowError) as refused:
            await service.double(view.match_id, roller)
        dice = f"{max(view.game.dice)}-{min(view.game.dice)}"
        assert f"you already rolled: play {dice} (RULES D1" in str(refused.value)
        with pytest.raises(NotNowError) as twice:
            await service.roll(view.match_id, roller)
        assert f"you already rolled: play {dice}" in str(twice.value)
        assert snapshot(path) == before

        loser = roller  # concede a gammon: the opponent reaches 2 of 3, the next game is the Crawford game
        await service.resign(view.match_id, loser, 2)
        view = (await service.accept_resignation(view.match_id, BOB if loser == ALICE else ALICE)).view
        assert view.game.crawford
        while view.pending != "play":
            view = (await service.roll(view.match_id, view.waiting_for)).view
        with pytest.raises(NotNowError) as crawford:
            await service.double(view.match_id, view.waiting_for)
        assert "no doubling in the Crawford game (RULES M3)" in str(crawford.value)


async def test_an_illegal_play_through_the_club_gives_reason_and_legal_plays(tmp_path):
    """RULES G7 through the use-case: 6-4 at the opening played as one checker's 6 only: "you must use both dice",
    followed by the legal plays; nothing stored changes."""
    path = tmp_path / "club.sqlite"
    async with club_service(path, dice=InjectedDice([(6, 4)], fallback=b"r")) as service:
        outcome = await new_table(service, 5)
        view = outcome.view
        assert view.pending == "play" and tuple(sorted(view.game.dice)) == (4, 6)
        before = snapshot(path)
        with pytest.raises(IllegalPlayError) as refused:
            await service.play(view.match_id, view.waiting_for, "13/7")
        text = str(refused.value)
        assert text.startswith("13/7 is not legal with 6-4: you must use both dice when you can (RULES G7)")
        shown = explain(refused.value)  # what the member reads (Discord and the console alike)
        assert shown.startswith(text) and "The legal plays are: " in shown and "24/14" in shown.split("RULES G7")[1]
        assert snapshot(path) == before


async def test_an_illegal_chouette_play_says_what_made_it_illegal(tmp_path):
    """The chouette's board is the 1-on-1 game: an illegal play there names its reason too (RULES G7), and the
    session is unchanged."""
    from tests.chouette_clubkit import ANN, chouettes, seated

    seating = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]
    async with chouettes(tmp_path / "c.sqlite3", dice=InjectedDice([*seating, (6, 4)], fallback=b"c")) as svc:
        sid = (await seated(svc)).session_id
        plays = await svc.legal_plays(sid, ANN)
        assert "24/14" in plays
        before = (await svc.state(sid)).version
        with pytest.raises(IllegalPlayError) as refused:
            await svc.play(sid, ANN, "13/7")
        assert "you must use both dice when you can (RULES G7)" in str(refused.value)
        assert (await svc.state(sid)).version == before
