"""Events as a new organiser tries them through the console: standings that say only what is true of the players
they compare (head-to-head between players who met, a round robin's rest not a win, a shared place not "ahead"),
the organiser's decisions named, a ladder without its withdrawn players and a league season followed once."""

from __future__ import annotations

from console import member_id
from tests.clubkit import snapshot
from tests.consolekit import console_in, enter, say
from tests.eventkit import win

CAST = ("ann", "bob", "cy", "di", "ed")


async def play(console, name: str, key: str, winner: str) -> None:
    """Play pairing ``key`` of event ``name`` to its end, ``winner`` winning."""
    event = await console.events.find(console.guild_id, name)
    links = await console.events.store.matches(event.id)
    await win(console.service, links[console.events._link(event, key)], member_id(winner))


def rows(table: str) -> dict[str, list[str]]:
    """The standings text as ``{player: [place, player, pl, w, l, h2h, buch, +/-, why…]}``."""
    lines = [line.split() for line in table.splitlines()[2:]]
    return {words[1]: words for words in lines if words and words[0].isdigit()}


async def test_head_to_head_only_between_players_who_met(tmp_path):
    """After Swiss round 1 (ann beat cy, bob beat di, ed's bye; then di's bye) four players are level on one win and
    not all of them have met: head-to-head decides nothing, and nobody is "ahead on head-to-head" of a player he
    never played."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Friday", "swiss rounds=2 lengths=1", CAST)
        started = await say(console, "event start Friday")
        assert "S1-1: ann v cy" in started and "S1-2: bob v di" in started
        await play(console, "Friday", "S1-1", "ann")
        await play(console, "Friday", "S1-2", "bob")
        table = await say(console, "event standings Friday")
        assert "head-to-head" not in table, table
        assert {row[5] for row in rows(table).values()} == {"0"}, table


async def test_a_round_robin_rest_is_not_a_win(tmp_path):
    """A round robin of three: ann rests in round 1 while bob beats cy. The rest is no match won: ann has no win,
    bob alone leads, and a bye adds nothing to anyone's Buchholz."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Trio", "roundrobin lengths=1", CAST[:3])
        started = await say(console, "event start Trio")
        assert "R1-1: ann has a bye." in started and "R1-2: bob v cy" in started
        await play(console, "Trio", "R1-2", "bob")
        table = rows(await say(console, "event standings Trio"))
        assert [table[name][:5] for name in ("bob", "ann", "cy")] == [
            ["1", "bob", "1", "1", "0"], ["2", "ann", "0", "0", "0"], ["3", "cy", "1", "0", "1"]]  # fmt: skip
        assert " ".join(table["bob"]).endswith("ahead on match wins, 1 to 0")


async def test_a_shared_place_is_not_ahead(tmp_path):
    """Players who share a place are listed by seed, and the standings say so: nobody is "ahead on seed" of a player
    with the same place; in a knock-out under way the players still in share the top place, and are not "out at
    the same stage"."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Trio", "roundrobin lengths=1", CAST[:3])
        await say(console, "event start Trio")
        table = rows(await say(console, "event standings Trio"))
        assert [row[0] for row in table.values()] == ["1", "1", "1"]
        assert " ".join(table["ann"]).endswith("level on every tie-break; listed by seed, 1 before 2")
        await enter(console, "Cup", "single lengths=1", CAST[:4])
        await say(console, "event start Cup")
        await play(console, "Cup", "W1-1", "ann")
        table = rows(await say(console, "event standings Cup"))
        assert [(row[0], row[1]) for row in table.values()] == [("1", "ann"), ("1", "bob"), ("1", "cy"), ("4", "di")]
        assert " ".join(table["ann"]).endswith("still in; listed by seed, 1 before 2")
        assert " ".join(table["cy"]).endswith("went further in the bracket")
        assert not any("ahead on seed" in " ".join(row) for row in table.values())


async def test_the_organisers_decision_names_the_player(tmp_path):
    """The organiser is asked naming whom ``a`` and ``b`` award the match to, and ``event decide Cup KEY b`` answers
    whom it was awarded to, not the letter typed; a replay and both out say what they did."""
    async with console_in(tmp_path, cast=CAST) as console:
        await say(console, "config expiry nothing")
        await enter(console, "Cup", "single lengths=1 hours=24", CAST[:4])
        started = await say(console, "event start Cup")
        assert "W1-1: ann v di" in started and "W1-2: bob v cy" in started
        waited = await say(console, "wait 25h")
        assert ("W1-1: neither player has played by the deadline — the organiser decides (a: award to ann, b: award "
                "to di, replay, both_out)") in waited, waited  # fmt: skip
        awarded = await say(console, "event decide Cup W1-1 b")
        assert awarded.startswith("Decided W1-1: awarded to di.")
        replayed = await say(console, "event decide Cup W1-2 replay")
        assert replayed.startswith("Decided W1-2: replayed — a new match and a new deadline.")
        await say(console, "wait 25h")
        out = await say(console, "event decide Cup W1-2 both_out")
        assert out.startswith("Decided W1-2: both out.")


async def test_a_withdrawn_player_leaves_the_ladder(tmp_path):
    """On a ladder ann, bob, cy, di (reach 1) cy withdraws: he leaves his rung, so di is third and may challenge
    bob, and the standings list cy below everyone still on the ladder."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Ladder", "ladder reach=1 lengths=1", CAST[:4])
        await say(console, "event start Ladder")
        table = rows(await say(console, "event standings Ladder"))
        assert list(table) == ["ann", "bob", "cy", "di"]
        await say(console, "as cy")
        await say(console, "event withdraw Ladder")
        await say(console, "as di")
        challenged = await say(console, "event challenge Ladder bob")
        assert "X1: di v bob" in challenged
        assert list(rows(await say(console, "event standings Ladder"))) == ["ann", "bob", "di", "cy"]


async def test_a_league_season_is_followed_once(tmp_path):
    """A finished league season makes its next season once: a second ``event season`` from it (a slip, or a
    second try) is refused naming the season already made, and creates nothing."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "League", "league size=3 up=1 down=1 lengths=1", CAST[:3])
        await say(console, "event start League")
        for _round in range(3):
            event = await console.events.find(console.guild_id, "League")
            (pairing,) = [p for p in event.state.pending() if p.b is not None]
            await play(console, "League", pairing.key, "ann" if member_id("ann") in pairing.players else "bob")
        made = await say(console, "event season League 'League 2'")
        assert made.startswith("League 2 has started: 1 division from League.\n")
        before = snapshot(tmp_path / "club.sqlite3")
        again = await console.handle("event season League 'League 3'")
        assert again == "Refused: League's next season is League 2 already.", again
        assert snapshot(tmp_path / "club.sqlite3") == before


async def test_a_bracket_line_nobody_reaches_says_so(tmp_path):
    """A knock-out of five with consolation: the consolation match fed by two bye lines has no player at all; the
    bracket says so instead of "bye (bye)"."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Cup", "single consolation=yes lengths=1", CAST)
        await say(console, "event start Cup")
        bracket = await say(console, "event bracket Cup")
        assert "  C1-2   no match: nobody reaches it" in bracket.splitlines(), bracket
        assert "bye (bye)" not in bracket


async def test_promotion_and_relegation_places_are_not_negative(tmp_path):
    """``up`` and ``down`` are 0 or more: a negative one is refused, and no event is made."""
    async with console_in(tmp_path, cast=CAST) as console:
        before = snapshot(tmp_path / "club.sqlite3")
        refused = await console.handle("event create League league up=-1")
        assert refused.startswith("Refused: ") and "up and down" in refused, refused
        assert snapshot(tmp_path / "club.sqlite3") == before


async def test_an_event_called_off_says_so(tmp_path):
    """An event called off before its start is not "started": joining, leaving, check-in, starting it, or a
    member's withdrawal or report are refused saying it was called off, and store nothing."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Cup", "single lengths=1", CAST[:2])
        assert (await say(console, "event close Cup")).startswith("Cup is called off.")
        before = snapshot(tmp_path / "club.sqlite3")
        for line in ("event start Cup", "event open-checkin Cup 2", "event leave Cup", "event withdraw Cup",
                     "event report Cup bob", "event bracket Cup"):  # fmt: skip
            assert await console.handle(line) in ("Refused: Cup was called off.", "Cup was called off."), line
        await say(console, "as cy")
        assert await console.handle("event join Cup") == "Refused: Cup was called off."
        assert await console.handle("event checkin Cup") == "Refused: Cup was called off."
        assert snapshot(tmp_path / "club.sqlite3") == before


async def test_each_bad_option_is_named(tmp_path):
    """A bad option is refused in its own words, not in a sentence about four options."""
    async with console_in(tmp_path, cast=CAST) as console:
        for line, words in (("event create X single hours=0", "Each round has at least 1 hour (hours)."),
                            ("event create X ladder reach=0", "A ladder's reach is at least 1 place."),
                            ("event create X swiss rounds=-1", "Swiss rounds are 0 or more."),
                            ("event create X swiss rounds=2 out=-1", "out_after (MoreSwiss) is 0 or more.")):  # fmt: skip
            assert await console.handle(line) == f"Refused: {words}", line


async def test_the_waiting_list_in_words(tmp_path):
    """A member beyond the cap is "on the waiting list"; his check-in is refused saying so (he had joined)."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Cap", "single lengths=1 cap=2", ["ann", "bob"])
        await say(console, "event open-checkin Cap 2")
        await say(console, "as cy")
        joined = await say(console, "event join Cap")
        assert joined == "You are on the waiting list of Cap (2 players in the field).", joined
        refused = await console.handle("event checkin Cap")
        assert refused == "Refused: You are on the waiting list of Cap: only its field checks in.", refused


async def test_no_bracket_reset_for_a_withdrawn_champion(tmp_path):
    """Double elimination: ann wins the winners' bracket, then withdraws before the grand final. bob wins it by
    walkover and the event is over — no reset "second life" for a player who has withdrawn; bob first, ann second."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Cup", "double lengths=1", CAST[:2])
        await say(console, "event start Cup")
        await play(console, "Cup", "W1-1", "ann")
        withdrawn = await say(console, "event withdraw Cup")
        assert "GF: bob wins by walkover against ann (not rated)." in withdrawn, withdrawn
        assert "GF2" not in withdrawn and "Cup is over." in withdrawn, withdrawn
        bracket = await say(console, "event bracket Cup")
        assert "reset" not in bracket, bracket
        table = rows(await say(console, "event standings Cup"))
        assert [(row[0], row[1]) for row in table.values()] == [("1", "bob"), ("2", "ann")]


async def test_the_guides_option_names_work_in_the_console(tmp_path):
    """The organisers' guide names the options as Discord does (``out_after``, ``division_size``, ``consolation:True``);
    the console takes them as well as its short forms, and an unknown option is refused by name."""
    async with console_in(tmp_path, cast=CAST) as console:
        more = await say(console, "event create More swiss out_after:2 lengths=1")
        assert "MoreSwiss: out at 2 losses" in more, more
        league = await say(console, "event create League league division_size=6 up=1")
        assert "divisions of about 6, 1 up and 2 down" in league, league
        cup = await say(console, "event create Cup single consolation:True")
        assert "with progressive consolation" in cup, cup
        refused = await console.handle("event create X single bogus=1")
        assert refused.startswith("Refused: event create has no option 'bogus'"), refused
