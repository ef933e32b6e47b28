"""The ``event`` verbs of the console (console/events.py): each format through the console to its end — a knock-out
with consolation, a round robin, MoreSwiss with its eliminations, a ladder's challenges, a league season and the
next one with promotion and relegation — and every mistake refused in words with nothing stored. The event matches
themselves are played through the service's ordinary match calls (tests/eventkit.py)."""

from __future__ import annotations

import pytest

from console import member_id
from tests.clubkit import snapshot
from tests.consolekit import console_in, enter, say
from tests.eventkit import win

CAST = ("ann", "bob", "cy", "di", "ed", "fay")


async def refused(console, line: str, words: str) -> None:
    """Type ``line``; it must be refused with ``words`` in the answer."""
    reply = await console.handle(line)
    assert reply.startswith("Refused") and words in reply, (line, reply)


async def finish(console, name: str, better: bool = True, rounds: int = 40) -> None:
    """Play the event's matches until it is over, the better seed winning each (``better``), or the worse."""
    events = console.events
    for _ in range(rounds):
        event = await events.find(console.guild_id, name)
        if event.status.value != "running":
            return
        links = await events.store.matches(event.id)
        pending = [p for p in event.state.pending() if p.b is not None]
        assert pending, "a running event waits for nothing"
        seed = event.state.seed_of
        for pairing in pending:
            choose = min if better else max
            await win(console.service, links[events._link(event, pairing.key)], choose(pairing.players, key=seed.get))
    raise AssertionError(f"{name} did not end")


async def test_knockout_with_consolation_to_the_end(tmp_path):
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Cup", "single consolation=yes lengths=1", CAST[:5])
        started = await say(console, "event start Cup")
        assert "Byes to round 2: ann, bob, cy." in started
        await finish(console, "Cup")
        bracket = await say(console, "event bracket Cup")
        assert "Consolation, round 1:" in bracket
        table = await say(console, "event standings Cup")
        assert table.splitlines()[2].split()[:2] == ["1", "ann"]
        written = await say(console, f"event export Cup {tmp_path / 'cup.zip'}")
        assert written.startswith(f"Written {tmp_path / 'cup.zip'}") and (tmp_path / "cup.zip").exists()
        stats = await say(console, "club stats")
        assert stats.endswith("Events: 1 played, best finish 1st in Cup.")


async def test_round_robin_and_moreswiss(tmp_path):
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Trio", "roundrobin lengths=1", CAST[:3])
        await say(console, "event start Trio")
        await finish(console, "Trio", better=False)
        table = await say(console, "event standings Trio")
        assert "ahead on match wins" in table
        await enter(console, "More", "moreswiss out=2 lengths=1", CAST)
        await say(console, "event start More")
        await finish(console, "More")
        event = await console.events.find(console.guild_id, "More")
        losses = {p: 0 for p in event.state.seeds}
        for result in event.state.results.values():
            if result.loser is not None:
                losses[result.loser] += 1
        assert sorted(losses.values()).count(2) == len(CAST) - 1  # everyone but the winner out at his 2nd loss
        pairings = await say(console, "event pairings More 2")
        assert "why: score group" in pairings


async def test_ladder_challenges_through_the_console(tmp_path):
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Ladder", "ladder reach=2 lengths=1", CAST[:4])
        await say(console, "event start Ladder")
        await say(console, "as di")
        await refused(console, "event challenge Ladder ann", "1 to 2 places above")
        reply = await say(console, "event challenge Ladder bob")
        assert "X1: di v bob" in reply
        event = await console.events.find(console.guild_id, "Ladder")
        links = await console.events.store.matches(event.id)
        await win(console.service, links["X1"], member_id("di"))
        table = await say(console, "event standings Ladder")
        assert [line.split()[1] for line in table.splitlines()[2:6]] == ["ann", "di", "bob", "cy"]
        await say(console, "as bob")
        await refused(console, "event challenge Ladder di", "You played di last; a rematch waits")
        await say(console, "as ann")
        closed = await say(console, "event close Ladder")
        assert "Ladder is over" in closed


async def test_league_season_and_the_next(tmp_path):
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "League", "league size=3 up=1 down=1 lengths=1", CAST)
        await say(console, "event start League")
        await finish(console, "League")
        table = await say(console, "event standings League")
        assert "League — division 1" in table and "League — division 2" in table
        event = await console.events.find(console.guild_id, "League")
        first, second = event.state.divisions
        reply = await say(console, "event season League 'League 2'")
        assert "2 divisions from League. Up to division 1: " in reply
        new = await console.events.find(console.guild_id, "League 2")
        from club.events.standings import standings

        top = [r.player for r in standings(event.state, second)][0]
        bottom = [r.player for r in standings(event.state, first)][-1]
        assert top in new.state.divisions[0] and bottom in new.state.divisions[1]


async def test_a_crash_while_the_next_season_is_written_leaves_nothing(tmp_path, monkeypatch):
    """The next league season is one write: a crash while its joins and start are written leaves no empty open
    event and the old season unfollowed; typed again, the season is made and started."""
    from storage.pgstore import PgTx
    from storage.store import Tx

    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "League", "league size=3 up=1 down=1 lengths=1", CAST)
        await say(console, "event start League")
        await finish(console, "League")
        before = snapshot(tmp_path / "club.sqlite3")
        for tx in (Tx, PgTx):
            written = tx.executemany

            async def crash(self, sql, params, written=written):
                if "event_actions" in sql:
                    raise RuntimeError("killed")
                await written(self, sql, params)

            monkeypatch.setattr(tx, "executemany", crash)
        reply = await console.handle("event season League 'League 2'")
        assert "killed" in reply, reply
        assert snapshot(tmp_path / "club.sqlite3") == before
        monkeypatch.undo()
        await say(console, "event season League 'League 2'")
        new = await console.events.find(console.guild_id, "League 2")
        assert new.status.value == "running" and len(new.state.seeds) == len(CAST)


async def test_mistakes_are_refused_and_store_nothing(tmp_path):
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Open", "swiss rounds=2 lengths=1", CAST[:1])
        before = snapshot(tmp_path / "club.sqlite3")
        await refused(console, "event join Open", "already in the field of Open")
        await refused(console, "event start Open", "needs at least 2 players to start; it has 1")
        await refused(console, "event create Open swiss rounds=2", "already has an event called 'Open'")
        await refused(console, "event create Other swiss", "A Swiss needs a number of rounds")
        await refused(console, "event create Other chess", "the format is one of single, double")
        await refused(console, "event create Other single lengths=5,x", "a match length is a whole number")
        await refused(console, "event join Nowhere", "There is no event called 'Nowhere'. This club's events: Open")
        await refused(console, "event standings Open", "Open has not started yet")
        await refused(console, "event join", "event join NAME")
        assert snapshot(tmp_path / "club.sqlite3") == before
        await say(console, "as bob")
        await say(console, "event join Open")
        await say(console, "as ann")
        await say(console, "event start Open")
        await say(console, "as cy")
        before = snapshot(tmp_path / "club.sqlite3")
        await refused(console, "event join Open", "Open has started: joining is closed")
        await refused(console, "event report Open ann", "only its two players report a result")
        await refused(console, "event withdraw Open", "You do not play in Open")
        assert snapshot(tmp_path / "club.sqlite3") == before
        await say(console, "as bob")
        my = await say(console, "event my")
        assert my.startswith("Open: S1-1 against ann — match #1, deadline ")


@pytest.mark.parametrize("command", ["event list", "help event"])
async def test_listing(tmp_path, command):
    async with console_in(tmp_path, cast=CAST) as console:
        reply = await say(console, command)
        assert "event" in reply.lower()


SIZES = (2, 3, 5, 8, pytest.param(13, marks=pytest.mark.slow))
FORMAT_SPECS = {
    "single": "single consolation=yes lengths=1",
    "double": "double lengths=1",
    "roundrobin": "roundrobin lengths=1",
    "swiss": "swiss rounds=4 lengths=1",
    "moreswiss": "moreswiss out=2 lengths=1",
    "league": "league size=4 lengths=1",
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", list(FORMAT_SPECS))
async def test_every_format_and_size_through_the_console(tmp_path, kind, size):
    """Each format to its end through the console with 2, 3, 5, 8 and 13 players (a league needs 3), one of
    them withdrawing after the start, with real club matches (13 players: ``-m slow``, 5 s more)."""
    if kind == "league" and size < 3:
        size = 3
    cast = tuple(f"m{i}" for i in range(1, size + 1))
    async with console_in(tmp_path, cast=cast) as console:
        await say(console, "as m1")
        await say(console, f"event create Run {FORMAT_SPECS[kind]}")
        for name in cast:
            await say(console, f"as {name}")
            await say(console, "event join Run")
        await say(console, "as m1")
        await say(console, "event start Run")
        if size >= 5:
            await say(console, f"as {cast[-1]}")
            await say(console, "event withdraw Run")
        await finish(console, "Run", rounds=200)
        table = await say(console, "event standings Run")
        assert "why" in table
        event = await console.events.find(console.guild_id, "Run")
        assert event.status.value == "over"


async def test_checkin_seeds_only_those_who_checked_in(tmp_path):
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Night", "swiss rounds=1 lengths=1", CAST[:4])
        await refused(console, "event checkin Night", "Night has no check-in open")
        opened = await say(console, "event open-checkin Night 2")
        assert "Check-in for Night is open for 2 h" in opened
        for name in ("ann", "bob", "cy"):
            await say(console, f"as {name}")
            await say(console, "event checkin Night")
        await refused(console, "event checkin Night", "already checked in")
        await say(console, "as di")
        await say(console, "wait 3h")
        await refused(console, "event checkin Night", "Check-in for Night has closed")
        await say(console, "as ann")
        started = await say(console, "event start Night")
        assert "Night has started with 3 players." in started
        event = await console.events.find(console.guild_id, "Night")
        assert member_id("di") not in event.state.seeds


async def test_the_event_settings_from_the_console(tmp_path):
    """``config organiser_role`` and ``config event_forum`` set the club's event settings (the name's case kept,
    ``none`` for admins only); a bad value is refused with nothing stored; a console that is not an admin's cannot
    create an event."""
    async with console_in(tmp_path, cast=CAST) as console:
        shown = await say(console, "config organiser_role Referee event_forum 42")
        assert "events organised by admins and the role: Referee; event forum: 42" in shown
        settings = await console.service.club_settings(console.guild_id)
        assert (settings.organiser_role, settings.event_forum) == ("Referee", 42)
        before = snapshot(tmp_path / "club.sqlite3")
        await refused(console, "config event_forum -3", "event_forum")
        assert snapshot(tmp_path / "club.sqlite3") == before
        cleared = await say(console, "config organiser_role none")
        assert "and the role: none" in cleared
        assert (await console.service.club_settings(console.guild_id)).organiser_role == ""
        console.admin = False
        await say(console, "as ann")
        await refused(console, "event create Cup single", "Only a club admin can create an event")


async def test_a_round_deadline_under_the_claim_policy(tmp_path):
    """Under ``config expiry claim`` a round's deadline forfeits nobody: ``wait`` says the organiser decides and
    that the waiting member can claim the match; his ``claim match`` decides the pairing, as a claim."""
    async with console_in(tmp_path, cast=CAST) as console:
        await say(console, "as ann")
        await say(console, "config expiry claim")
        await enter(console, "Duel", "single lengths=3 hours=24", CAST[:2])
        await say(console, "event start Duel")
        event = await console.events.find(console.guild_id, "Duel")
        pairing = event.state.pairings["W1-1"]
        match_id = (await console.events.store.matches(event.id))["W1-1"]
        await console.service.accept(match_id, pairing.b)
        late = (await console.service.db.get_match(match_id)).waiting_for
        waiting = next(name for name in CAST if member_id(name) == pairing.other(late))
        waited = await say(console, "wait 25h")
        assert "the organiser decides" in waited and f"{waiting} may claim it" in waited
        assert f"{waiting} can: claim match (as {waiting})" in waited
        await say(console, f"as {waiting}")
        await say(console, f"claim match {match_id}")
        event = await console.events.find(console.guild_id, "Duel")
        result = event.state.results["W1-1"]
        assert result.winner == member_id(waiting) and result.how.value == "claim"


async def test_an_option_the_format_does_not_use_is_refused(tmp_path):
    """An option of another format (rounds on a knock-out, up or down on a Swiss, reach on a league) is refused
    naming the option and the formats it applies to; nothing is stored."""
    async with console_in(tmp_path, cast=CAST) as console:
        await say(console, "as ann")
        before = snapshot(tmp_path / "club.sqlite3")
        await refused(console, "event create Cup single rounds=3", "rounds applies to Swiss only")
        await refused(console, "event create Open swiss rounds=3 up=1", "up applies to league only")
        await refused(console, "event create Open swiss rounds=3 down=1", "down applies to league only")
        await refused(console, "event create Lg league reach=2", "reach applies to ladder only")
        await refused(
            console,
            "event create RR roundrobin final=7",
            "final applies to single elimination, double elimination only",
        )
        await refused(console, "event create Dbl double consolation=yes", "consolation applies to single")
        assert snapshot(tmp_path / "club.sqlite3") == before
        await say(console, "event create Lg league cycles=2 up=1 down=1 size=4")


async def test_a_withdrawn_player_is_ranked_after_all_who_completed(tmp_path):
    """A round robin's player who won every match and withdrew before the last match of the event was played is
    placed after all who completed it, marked withdrawn in the table; his results stay for his opponents."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Robin", "roundrobin lengths=1", CAST[:4])
        await say(console, "event start Robin")
        ann, events = member_id("ann"), console.events
        for round_no in (1, 2, 3):
            event = await events.find(console.guild_id, "Robin")
            links = await events.store.matches(event.id)
            for pairing in sorted(event.state.pending(), key=lambda p: ann not in p.players):
                winner = ann if ann in pairing.players else min(pairing.players, key=event.state.seed_of.get)
                await win(console.service, links[events._link(event, pairing.key)], winner)
                if round_no == 3 and winner == ann:
                    await say(console, "event withdraw Robin")
        assert (await events.find(console.guild_id, "Robin")).status.value == "over"
        table = await say(console, "event standings Robin")
        rows = [line.split() for line in table.splitlines()[2:6]]
        assert [row[:3] for row in rows][-1] == ["4", "ann", "3"] and "withdrawn" in rows[-1], table
        assert [row[3] for row in rows] == ["2", "1", "0", "3"], table
        assert "the next withdrew" in table.splitlines()[4], table
        from club.events import pictures

        _, tables = await events.standings(console.guild_id, "Robin")
        picture = pictures.standings_table("Robin", tables[0], {ann: "ann"})
        assert picture.rows[-1][1] == "ann  withdrawn"


async def test_pairings_of_a_round_that_does_not_exist_are_refused(tmp_path):
    """event pairings NAME ROUND of a round the event does not have is refused naming the rounds it has."""
    async with console_in(tmp_path, cast=CAST) as console:
        await enter(console, "Open", "swiss rounds=3 lengths=1", CAST[:4])
        await say(console, "event start Open")
        await finish(console, "Open")
        assert "Open — round 3" in await say(console, "event pairings Open 3")
        await refused(console, "event pairings Open 9", "Open has rounds 1–3: there is no round 9.")
        await refused(console, "event pairings Open 0", "Open has rounds 1–3: there is no round 0.")
