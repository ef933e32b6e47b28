"""The console's words as a new user reads them: each test pins a message that must say the right thing, or a name
that must be read one way only."""

from __future__ import annotations

from console import member_id
from tests import consolekit


def console_in(tmp_path, seed: int = 7):
    """A console on a fresh database acting as alice, with no other member yet (:func:`consolekit.console_in`)."""
    return consolekit.console_in(tmp_path, seed, cast=())


async def test_as_refuses_a_name_of_two_words(tmp_path):
    """``as a b`` is refused, saying a name is one word, with a_b as the example, and registers nobody: a member
    named "a b" could never be named again (``challenge a b 3`` would read ``b`` as the length)."""
    async with console_in(tmp_path) as console:
        out = await console.handle("as a b")
        assert out.startswith("Refused:") and "one word" in out and "a_b" in out, out
        assert console.name == "alice"
        assert member_id("a b") not in await console.service.db.get_members([member_id("a b")])
        assert await console.handle("as a_b") == "You are a_b."


async def test_as_at_name_is_the_member_every_command_means(tmp_path):
    """``as @bob`` made a new member "@bob" while ``challenge @bob`` and ``club stats @bob`` meant bob."""
    async with console_in(tmp_path) as console:
        await console.handle("as bob")
        assert await console.handle("as @bob") == "You are bob."
        assert console.member == member_id("bob")
        assert member_id("@bob") not in await console.service.db.get_members([member_id("@bob")])


async def test_an_unknown_command_in_a_group_names_the_unknown_word(tmp_path):
    """An unknown command after any group (``/club frobnicate``, ``/bg frobnicate``) names the unknown word, not the
    group, and points to the group's help."""
    async with console_in(tmp_path) as console:
        for group in ("club", "chouette", "player", "study"):
            for line in (f"/{group} frobnicate", f"{group} frobnicate"):
                out = await console.handle(line)
                assert out == f"Unknown command 'frobnicate' in /{group}: type help {group} for the list.", out
            assert f"help {group}" in await console.handle(f"/{group}")
        assert "Unknown command 'frobnicate':" in await console.handle("/bg frobnicate")
        assert "club ledger" in await console.handle("help club")


async def test_wording_slips_counts_in_the_right_number(tmp_path):
    """Counts are in the right number (club.wording.plural): "1 hour passes", "6/5 is 1 pip"."""
    from backgammon.moves import legal_plays
    from backgammon.position import Position
    from club.refusals import illegal_play_reason

    async with console_in(tmp_path) as console:
        assert (await console.handle("wait 1h")).startswith("1 hour passes.")
        assert (await console.handle("wait 2h")).startswith("2 hours pass.")
        assert (await console.handle("wait 90m")).startswith("1.5 hours pass.")
    opening = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5})
    reason = illegal_play_reason(opening, (6, 4), "6/5 13/7", legal_plays(opening, (6, 4)))
    assert reason is not None and "6/5 is 1 pip," in reason, reason


async def test_a_bad_game_number_says_what_the_number_is(tmp_path):
    """``roll game=abc`` says a game is named by the number ``games`` lists (not the 9-quadrillion bound of a
    whole number)."""
    async with console_in(tmp_path) as console:
        out = await console.handle("roll game=abc")
        assert out == "Refused: a game is named by its number as games lists them (e.g. #2 or game=2), not 'abc'", out
        out = await console.handle("roll chouette=x")
        assert "a chouette is named by its number as games lists them (e.g. chouette=1)" in out, out
        assert "9,007" not in await console.handle("roll 99999999999999999999")


async def test_config_hours_is_answered_in_hours(tmp_path):
    """``config move_hours 0`` is refused in hours, the unit typed (not in seconds, "move_time … from 60"), and
    nothing is stored."""
    async with console_in(tmp_path) as console:
        before = await console.service.club_settings(console.guild_id)
        for key in ("move_hours", "challenge_hours"):
            out = await console.handle(f"config {key} 0")
            assert out == (f"Refused: {key} is a number of hours from a minute (1m) to a year (8760), like 24 or "
                           "90m — not '0'"), out  # fmt: skip
        assert "seconds" in await console.handle("config move_time 0")  # typed in seconds: answered in seconds
        assert await console.service.club_settings(console.guild_id) == before
        assert "time per action: 2 h" in await console.handle("config move_hours 2")


async def test_away_in_a_club_without_away_days_says_they_are_not_enabled(tmp_path):
    """``away 2 holiday`` in a club that gives no away days says they are not enabled and names the setting, in the
    console's words (not "You have 0 away days left … ask for 0 or fewer", while ``away 0`` is refused)."""
    async with console_in(tmp_path) as console:
        out = await console.handle("away 2 holiday")
        assert out == ("Refused: Away days are not enabled in this club: an admin sets how many each member may take "
                       "a year with config away_days 14 (any number of days up to 366)."), out  # fmt: skip
        await console.handle("config away_days 3")
        assert "2 away days left this year" in await console.handle("away 1")


async def test_challenge_refuses_a_name_nobody_has_used(tmp_path):
    """``challenge zed 3`` (a typo) is refused as ``club stats nobody`` refuses an unknown name — he is not a member
    of this club yet, and this is how he joins — and stores nothing; after ``as zed`` the challenge is made."""
    async with console_in(tmp_path) as console:
        out = await console.handle("challenge zed 3")
        assert out == "Refused: 'zed' is not a member of this club yet: a member joins by typing as zed once", out
        assert member_id("zed") not in await console.service.db.get_members([member_id("zed")])
        assert "You have no game in progress" in await console.handle("games")
        assert "not a member of this club yet: a member joins by typing as nobody once" in await console.handle(
            "club stats nobody"
        )
        await console.handle("as zed")
        await console.handle("as alice")
        assert "alice challenges zed to a 3-point match" in await console.handle("challenge @zed 3")
