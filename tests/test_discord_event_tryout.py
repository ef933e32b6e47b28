"""Events through the Discord harness as a new organiser sees them: a result is posted before the pairings it
makes."""

from __future__ import annotations

from tests.discordkit import Harness
from tests.eventkit import win


async def test_a_result_is_posted_before_the_pairings_it_makes(tmp_path):
    """A Swiss of four: the last result of round 1 reads before round 2's challenges in the event's channel (they
    were posted first, so the round seemed paired before it ended)."""
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        olga = h.member("Olga", admin=True)
        players = [olga, h.member("Ann"), h.member("Bob"), h.member("Cy")]
        room = h.channel("events")
        await h.command(olga, "event create", room, name="Cup", format="swiss", rounds=2, lengths="1")
        for member in players:
            await h.command(member, "event join", room, event="Cup")
        await h.command(olga, "event start", room, event="Cup")
        event = await h.bot.events.find(h.guild, "Cup")
        links = await h.bot.events.store.matches(event.id)
        for key in ("S1-1", "S1-2"):
            pairing = event.state.pairings[key]
            await win(h.bot.service, links[key], pairing.a)
            await h.settle()
        texts = [m.content for m in h.messages(room)]
        last = next(i for i, text in enumerate(texts) if text.startswith("S1-2: ") and " beat " in text)
        first_of_round_2 = next(i for i, text in enumerate(texts) if "Cup S2-" in text)
        assert last < first_of_round_2, texts
