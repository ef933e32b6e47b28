"""Every number a member types is bounded and read as ASCII digits: an id beyond SQLite's 64-bit integers or a
digit of another script (``²``, ``٣``) gets a clear refusal, never an OverflowError or ValueError traceback."""

from __future__ import annotations

import pytest

from club.errors import InvalidRequestError
from club.records import ClubRecords, SessionRef
from cogs.flow import parse_length
from tests.clubkit import GUILD, club_service

HOSTILE = ["9223372036854775808", "99999999999999999999999", "²", "٣", "1²"]


@pytest.mark.parametrize("number", HOSTILE)
def test_a_session_id_out_of_range_or_not_ascii_is_refused(number):
    with pytest.raises(InvalidRequestError, match="money:ID"):
        SessionRef.parse(f"match:{number}")


@pytest.mark.parametrize("number", HOSTILE)
def test_a_challenge_length_out_of_range_or_not_ascii_is_refused(number):
    with pytest.raises(InvalidRequestError, match="length"):
        parse_length(number)


async def test_the_books_refuse_a_session_beyond_64_bits(tmp_path):
    async with club_service(tmp_path / "club.sqlite3") as service:
        records = ClubRecords(service)
        for ask in (records.sheet(GUILD, "match:9223372036854775808"),
                    records.ledger(GUILD, "session", session="match:9223372036854775808")):  # fmt: skip
            with pytest.raises(InvalidRequestError):
                await ask
