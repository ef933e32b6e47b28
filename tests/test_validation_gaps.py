"""Validation before storage: each bad value is refused in words before it reaches the database (a
database CHECK failing is a traceback), and no message outgrows Discord's 2,000 characters."""

from __future__ import annotations

import math

import pytest

from backgammon.errors import IllegalPlayError
from backgammon.notation import parse_play
from backgammon.position import Position
from club import frontend
from club.errors import InvalidRequestError
from club.records.service import ClubRecords
from club.settings import ClubSettings
from tests.clubkit import ALICE, BOB, CAROL, GUILD, club_service, snapshot

pytestmark = pytest.mark.backends


@pytest.mark.parametrize("hours", [math.nan, math.inf, -math.inf])
async def test_nan_or_infinite_reminders_are_refused(tmp_path, hours):
    async with club_service(tmp_path / "c.sqlite3") as service:
        before = snapshot(tmp_path / "c.sqlite3")
        with pytest.raises(InvalidRequestError, match="reminder"):
            await service.configure_club(GUILD, reminders=(hours * 3600,))
        assert snapshot(tmp_path / "c.sqlite3") == before
    with pytest.raises(InvalidRequestError):
        ClubSettings(move_time=math.nan)


@pytest.mark.parametrize("stake", [2**63, 10**30])
async def test_max_stake_has_an_upper_bound(tmp_path, stake):
    async with club_service(tmp_path / "c.sqlite3") as service:
        with pytest.raises(InvalidRequestError, match="max_stake"):
            await service.configure_club(GUILD, max_stake=stake)
        await service.configure_club(GUILD, max_stake=10**12)


@pytest.mark.parametrize("reason", ["\x00", "paid\x00back", "a\x07b"])
async def test_a_correction_reason_of_control_characters_is_refused(tmp_path, reason):
    async with club_service(tmp_path / "c.sqlite3") as service:
        before = snapshot(tmp_path / "c.sqlite3")
        with pytest.raises(InvalidRequestError, match="reason"):
            await ClubRecords(service).correct(GUILD, CAROL, ALICE, BOB, reason=reason, points=1)
        assert snapshot(tmp_path / "c.sqlite3") == before


def _many_plays_error() -> tuple[IllegalPlayError, list[str]]:
    """A position and dice with hundreds of legal plays (1-1 with checkers spread): a play that is illegal."""
    points = {24: 1, 22: 1, 20: 1, 18: 1, 16: 1, 14: 1, 12: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1}
    position = Position.from_points({**points, 1: -15})
    try:
        parse_play(position, (1, 1), "24/19")
    except IllegalPlayError as error:
        return error, error.legal
    raise AssertionError("the play was legal")


def test_an_illegal_play_message_stays_under_2000_characters():
    """The legal plays are counted and the closest shown, never the whole list of hundreds."""
    error, legal = _many_plays_error()
    assert len(str(error)) > 2000, "the case has a long list of legal plays"
    text = frontend.explain(error, typed="24/19")
    assert len(text) < 2000
    assert f"{len(legal)} legal plays in all" in text
    shown = [play for play in legal if play in text.split("legal plays are: ")[1].split(" … ")[0].split(", ")]
    assert len(shown) == 10
    assert "/bg move" in text or "menu" in text


async def test_errors_do_not_echo_a_huge_rule_set_name(tmp_path):
    huge = "x" * 1_000_000
    async with club_service(tmp_path / "c.sqlite3") as service:
        for call in (
            lambda: service.challenge(GUILD, ALICE, BOB, length=3, rules=huge),
            lambda: service.configure_club(GUILD, match_rules=huge),
        ):
            with pytest.raises(Exception) as caught:
                await call()
            assert len(frontend.explain(caught.value)) < 500
            assert len(str(caught.value)) < 500
