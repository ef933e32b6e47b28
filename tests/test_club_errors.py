"""Refused calls: a typed error with a clear message, and the stored database byte-for-byte unchanged.

Wrong member, out of turn, the wrong action now, unknown or finished game, stale version, garbage arguments, illegal
plays (RULES G10: never accept an illegal play) and cube refusals (RULES D1).
"""

from __future__ import annotations

import pytest

from backgammon.errors import BackgammonError, CubeError, IllegalPlayError, InvalidPlayError
from club import (
    GameFinishedError,
    InjectedDice,
    InvalidRequestError,
    NotAPlayerError,
    NotNowError,
    NotYourTurnError,
    StaleVersionError,
    UnknownGameError,
    UnknownMemberError,
)
from tests.clubkit import ALICE, BOB, CAROL, GUILD, club_service, new_table, snapshot

pytestmark = [pytest.mark.asyncio, pytest.mark.backends]


async def test_every_refusal_is_typed_and_changes_nothing(tmp_path):
    path = tmp_path / "club.sqlite"
    dice = InjectedDice([(6, 1), (5, 3)], fallback=b"errors")
    async with club_service(path, dice=dice) as service:
        await service.set_preferences(ALICE, auto_roll=False)
        outcome = await new_table(service, 0, rules="money", overrides={"beavers": False, "automatic_doubles": 0})
        match_id = outcome.match_id
        stale = outcome.version
        outcome = await service.play(match_id, ALICE, "13/7 8/7")  # Alice opened 6-1; Bob to roll or double
        assert outcome.view.waiting_for == BOB and outcome.view.pending == "roll_or_double"
        declined = await service.challenge(GUILD, ALICE, CAROL, length=1)
        await service.decline(declined.match_id, CAROL)
        version = outcome.version
        queued = dice.pending

        async def refused(error_type, call, match=None):
            before = snapshot(path)
            with pytest.raises(error_type, match=match) as caught:
                await call()
            assert isinstance(caught.value, BackgammonError)
            assert str(caught.value)  # a message for a person
            assert snapshot(path) == before, f"{error_type.__name__} changed the database"
            assert dice.pending == queued  # no die was consumed either
            return caught.value

        # wrong member: Carol does not play here
        await refused(NotAPlayerError, lambda: service.roll(match_id, CAROL), "Alice against Bob")
        # out of turn: Bob is to act, not Alice
        error = await refused(NotYourTurnError, lambda: service.roll(match_id, ALICE), "Bob must roll or double")
        assert isinstance(error, NotYourTurnError)
        await refused(NotYourTurnError, lambda: service.double(match_id, ALICE))
        await refused(NotYourTurnError, lambda: service.play(match_id, ALICE, "24/23"))
        await refused(NotYourTurnError, lambda: service.accept_resignation(match_id, ALICE))
        # Bob's turn, but not for that
        await refused(NotNowError, lambda: service.take(match_id, BOB), "roll or double")
        await refused(NotNowError, lambda: service.play(match_id, BOB, "24/18"), "must roll or double")
        await refused(NotNowError, lambda: service.accept(match_id, BOB))
        await refused(NotNowError, lambda: service.raccoon(match_id, BOB))
        # unknown and finished games
        await refused(UnknownGameError, lambda: service.roll(987654, BOB))
        await refused(UnknownGameError, lambda: service.state(987654))
        await refused(GameFinishedError, lambda: service.accept(declined.match_id, CAROL), "declined")
        await refused(GameFinishedError, lambda: service.roll(declined.match_id, ALICE))
        # stale version (a click on an old board)
        error = await refused(StaleVersionError, lambda: service.roll(match_id, BOB, version=stale), "Already done")
        assert error.expected == stale and error.actual == version
        # garbage arguments
        for call in (
            lambda: service.roll("1", BOB),
            lambda: service.roll(-3, BOB),
            lambda: service.roll(True, BOB),
            lambda: service.roll(match_id, "Bob"),
            lambda: service.roll(match_id, None),
            lambda: service.roll(match_id, BOB, version="7"),
            lambda: service.roll(match_id, BOB, version=0),
            lambda: service.play(match_id, BOB, 1324),
            lambda: service.play(match_id, BOB, "13/7 " * 100),
            lambda: service.resign(match_id, BOB, 4),
            lambda: service.resign(match_id, BOB, "gammon"),
            lambda: service.challenge(GUILD, ALICE, BOB, length=-1),
            lambda: service.challenge(GUILD, ALICE, BOB, length="5"),
            lambda: service.challenge(GUILD, ALICE, BOB, length=3, stake=1.5),
            lambda: service.challenge(GUILD, ALICE, BOB, length=3, overrides="cube_cap=2"),
            lambda: service.challenge(GUILD, ALICE, BOB, length=3, rules=5),
            lambda: service.challenge(GUILD, ALICE, ALICE, length=3),
            lambda: service.challenge(424242, ALICE, BOB, length=3),
            lambda: service.set_preferences(ALICE, auto_roll="yes"),
            lambda: service.set_preferences(ALICE, colour="blue"),
            lambda: service.configure_club(GUILD, expiry_policy="explode"),
            lambda: service.configure_club(GUILD, move_time=-5),
            lambda: service.configure_club(GUILD, reminders="soon"),
            lambda: service.configure_club(GUILD, weather="fine"),
            lambda: service.history(ALICE, limit=0),
            lambda: service.register(GUILD, BOB, "   "),
            lambda: service.remember_message(match_id, 0, 5),
        ):
            await refused(InvalidRequestError, call)
        await refused(UnknownMemberError, lambda: service.set_preferences(777, auto_roll=False))
        await refused(UnknownMemberError, lambda: service.challenge(GUILD, ALICE, 777, length=3))
        # Bob rolls 5-3; now the play must be legal (RULES G10) and well-formed
        outcome = await service.roll(match_id, BOB)
        assert outcome.view.game.dice == (5, 3)
        queued = dice.pending
        error = await refused(IllegalPlayError, lambda: service.play(match_id, BOB, "24/18 13/11"))
        assert error.legal and "8/3 6/3" in error.legal
        await refused(InvalidPlayError, lambda: service.play(match_id, BOB, "24-19 hello"))
        await refused(NotNowError, lambda: service.roll(match_id, BOB), "you already rolled: play 5-3")
        await refused(NotNowError, lambda: service.double(match_id, BOB), "you already rolled: play 5-3 \\(RULES D1")
        outcome = await service.play(match_id, BOB, "8/3 6/3")
        # Alice doubles, Bob takes: now Alice may not double again (RULES D1: Bob owns the cube)
        dice.add((2, 1), (4, 3))
        await service.double(match_id, ALICE)
        outcome = await service.take(match_id, BOB)
        assert outcome.view.waiting_for == ALICE and outcome.view.pending == "roll"  # auto-roll is off for Alice
        queued = dice.pending
        await refused(CubeError, lambda: service.double(match_id, ALICE), "owns the cube")
        await refused(NotYourTurnError, lambda: service.take(match_id, BOB))
        outcome = await service.roll(match_id, ALICE)
        assert outcome.view.game.dice == (2, 1)
        outcome = await service.play(match_id, ALICE, "24/23 13/11")
        assert outcome.view.waiting_for == BOB and outcome.view.pending == "roll_or_double"  # Bob owns the cube
        outcome = await service.roll(match_id, BOB)
        assert outcome.view.game.dice == (4, 3)
