"""``/event`` through the Discord harness (cogs/event.py driving discord.py's own routing): an organiser creates a
double elimination, members join (names autocomplete), it starts; each pairing is a challenge posted in the
event's channel with both players mentioned in one message, accepted by its second player and played as any match;
results post the bracket picture; /event my links the match; refusals are private and store nothing."""

from __future__ import annotations

import pytest

from club.events.log import Post
from tests.clubkit import snapshot
from tests.discordkit import Harness
from tests.eventkit import win


def _mentioned(message) -> set[int]:
    return {int(part[2:-1]) for part in message.content.replace(",", " ").split() if part.startswith("<@")}


async def _duel_under_claim(h):
    """Under the club's ``claim`` policy, Olga (an admin) runs Duel in #cup: a single elimination of Ann and Bob,
    3 points, 24-hour rounds; started, and its one match accepted. Returns the organiser, Ann, Bob, the room and the
    match's thread."""
    organiser = h.member("Olga", admin=True)
    ann, bob = h.member("Ann"), h.member("Bob")
    room = h.channel("cup")
    configured = await h.command(organiser, "bg config", h.channel("admin"), expiry="claim")
    assert "Club settings updated" in configured.text, configured.text
    await h.command(organiser, "event create", room, name="Duel", format="single", lengths="3", hours=24)
    for member in (ann, bob):
        await h.command(member, "event join", room, event="Duel")
    await h.command(organiser, "event start", room, event="Duel")
    post = next(m for m in h.messages(room) if "Duel W1-1:" in m.content)
    second = h.members[(await h.bot.events.find(h.guild, "Duel")).state.pairings["W1-1"].b]
    await h.press(second, post, "Accept")
    return organiser, ann, bob, room, h.thread_of(post)


async def test_an_event_through_discord(tmp_path):
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        organiser = h.member("Olga", admin=True)
        players = [organiser, h.member("Ann"), h.member("Bob"), h.member("Cy")]
        room = h.channel("events")
        created = await h.command(players[1], "event create", room, name="Cup", format="double", lengths="1")
        assert created.private and "organiser role" in created.text
        created = await h.command(organiser, "event create", room, name="Cup", format="double", lengths="1")
        assert created.private and "Cup is open" in created.text
        for member in players:
            joined = await h.command(member, "event join", room, event="Cup")
            assert joined.private and "You are in the field of Cup" in joined.text
        choices = await h.autocomplete(players[2], "event join", "event", "c", room)
        assert [c["value"] for c in choices] == ["Cup"]
        before = snapshot(tmp_path / "club.sqlite3")
        again = await h.command(players[1], "event join", room, event="Cup")
        assert again.private and "already in the field of Cup" in again.text
        early = await h.command(players[1], "event start", room, event="Cup")
        assert early.private and "Only the organiser of Cup" in early.text
        assert snapshot(tmp_path / "club.sqlite3") == before
        started = await h.command(organiser, "event start", room, event="Cup")
        assert started.private and "Cup has started with 4 players" in started.text
        posts = [m for m in h.messages(room) if "Cup W1-" in m.content]
        assert len(posts) == 2
        event = await h.bot.events.find(h.guild, "Cup")
        for post in posts:
            key = post.content.split("Cup ")[1].split(":")[0]
            pairing = event.state.pairings[key]
            assert _mentioned(post) == {pairing.a, pairing.b}  # one ping to both players
            assert "Accept" in post.labels
        first = posts[0]
        key = first.content.split("Cup ")[1].split(":")[0]
        pairing = event.state.pairings[key]
        accepted = await h.press(h.members[pairing.b], first, "Accept")
        assert not accepted.text or "Refused" not in accepted.text
        links = await h.bot.events.store.matches(event.id)
        my = await h.command(h.members[pairing.a], "event my", room)
        assert my.private and f"{key} against" in my.text and "https://discord.com/channels/" in my.text
        reporter = next(m for m in players if m.id not in pairing.players)
        stranger = await h.command(reporter, "event report", room, event="Cup", winner=h.members[pairing.a])
        assert stranger.private and "You report only your own match" in stranger.text
        await win(h.bot.service, links[key], pairing.a)
        await h.settle()
        assert any(m.png is not None and "Cup" in m.content for m in h.messages(room)), "the bracket picture"
        bracket = await h.command(players[1], "event bracket", room, event="Cup")
        assert bracket.private and "Winners' bracket" in bracket.text and bracket.messages[0].png
        standings = await h.command(players[1], "event standings", room, event="Cup")
        assert standings.private and standings.messages[0].png
        pairings = await h.command(players[1], "event pairings", room, event="Cup")
        assert "why: seed" in pairings.text
        shown = await h.command(players[1], "event show", room)
        assert "Cup — double, running" in shown.text


@pytest.mark.parametrize("picture_gone", [False, True])
async def test_a_swiss_runs_to_its_end_posting_each_round(tmp_path, picture_gone):
    """Every round's pairings are posted by the event itself as the previous round's matches end (no command),
    each with both players mentioned once, the standings picture posted and then edited, and the end announced.
    ``picture_gone``: the picture's message is deleted before round 2's result (Discord answers its edit 10008
    Unknown Message): the picture is posted again, once, and the new message is the one remembered."""
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        organiser = h.member("Olga", admin=True)
        players = [organiser, h.member("Ann"), h.member("Bob")]
        room = h.channel("swiss")
        await h.command(organiser, "event create", room, name="Friday", format="swiss", rounds=2, lengths="1")
        for member in players:
            await h.command(member, "event join", room, event="Friday")
        await h.command(organiser, "event start", room, event="Friday")
        service, events = h.bot.service, h.bot.events
        for round_no in (1, 2):
            event = await events.find(h.guild, "Friday")
            links = await events.store.matches(event.id)
            (pairing,) = [p for p in event.state.pending() if p.b is not None]
            post = next(m for m in h.messages(room) if f"Friday {pairing.key}:" in m.content)
            assert _mentioned(post) == {pairing.a, pairing.b} and pairing.round == round_no
            if picture_gone and round_no == 2:
                (picture,) = [m for m in h.messages(room) if m.png is not None and m.content == "Friday:"]
                h.fail(rf"^PATCH /channels/{room}/messages/{picture.id}$", 10008, times=None)
            await win(service, links[pairing.key], pairing.a)
            await h.settle()
        event = await events.find(h.guild, "Friday")
        assert event.status.value == "over"
        texts = "\n".join(m.content for m in h.messages(room))
        assert "Friday is over." in texts and "has a bye" in texts
        pictures = [m for m in h.messages(room) if m.png is not None and m.content == "Friday:"]
        if not picture_gone:
            assert len(pictures) == 1  # posted once, edited after each result
        else:
            assert len(pictures) == 2 and event.posts[Post.PICTURE] == pictures[-1].id


async def test_a_match_nobody_played_asks_the_organiser_with_buttons(tmp_path):
    """At the deadline of a pairing neither player touched, the organiser gets buttons (award to either, replay,
    both out); another member's press is refused privately; the organiser's award advances the event."""
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        organiser = h.member("Olga", admin=True)
        ann, bob = h.member("Ann"), h.member("Bob")
        room = h.channel("cup")
        await h.command(organiser, "event create", room, name="Duel", format="single", lengths="1", hours=24)
        for member in (ann, bob):
            await h.command(member, "event join", room, event="Duel")
        await h.command(organiser, "event start", room, event="Duel")
        h.clock.advance(25 * 3600)
        await h.tick()
        ask = next(m for m in h.messages(room) if "has played by the deadline" in m.content)
        assert organiser.id in _mentioned(ask)
        assert ask.labels == ["Award to Ann", "Award to Bob", "Replay", "Both out"]
        refused = await h.press(ann, ask, "Award to Ann")
        assert refused.private and "Only the organiser of Duel" in refused.text
        decided = await h.press(organiser, ask, "Award to Bob")
        assert decided.private and "Decided W1-1" in decided.text
        event = await h.bot.events.find(h.guild, "Duel")
        assert event.status.value == "over" and event.state.results["W1-1"].winner == bob.id
        again = await h.press(organiser, ask, "Both out")
        assert again.private and "not an undecided match" in again.text


async def test_a_late_member_under_the_claim_policy_is_claimed_with_the_button(tmp_path):
    """Under the club's ``claim`` policy nobody forfeits at the round's deadline: the match's thread gets the claim
    notice naming the event, with Claim the match for the waiting member (the late member's press is refused), and
    the organiser gets his buttons saying who may claim; the claim decides the pairing, as a claim, not rated."""
    async with Harness.start(tmp_path / "club.sqlite3") as h:
        organiser, ann, bob, room, thread = await _duel_under_claim(h)
        match_id = next(iter((await h.bot.events.store.matches((await h.bot.events.find(h.guild, "Duel")).id))
                             .values()))  # fmt: skip
        late = h.members[(await h.bot.service.state(match_id)).waiting_for]
        waiting = bob if late is ann else ann
        h.clock.advance(25 * 3600)
        await h.tick()
        notice = next(m for m in h.messages(thread) if "Claim the match" in m.labels)
        assert "Duel W1-1" in notice.content and waiting.mention in notice.content
        assert notice.labels == ["Claim the match"]
        ask = next(m for m in h.messages(room) if "Duel W1-1 (" in m.content and "Both out" in m.labels)
        assert f"{waiting.name} may claim it" in ask.content and organiser.id in _mentioned(ask)
        refused = await h.press(late, notice, "Claim the match")
        assert refused.private and "nothing to claim" in refused.text.lower()
        claimed = await h.press(waiting, notice, "Claim the match")
        assert claimed.private
        await h.settle()
        event = await h.bot.events.find(h.guild, "Duel")
        result = event.state.results["W1-1"]
        assert event.status.value == "over" and result.winner == waiting.id and result.how.value == "claim"
        assert any("wins by claim" in m.content and "(not rated)" in m.content for m in h.messages(room))


class Killed(BaseException):
    """The process dies here: nothing after this point runs."""


@pytest.mark.backends
@pytest.mark.parametrize("after_the_post", [False, True])
async def test_a_kill_between_an_events_commit_and_its_posts_posts_them_once_after_the_restart(tmp_path,
                                                                                                after_the_post):
    """At-least-once notices, each posted once, for events: at the round's deadline under the ``claim`` policy the
    event asks its organiser and opens the match to a claim — both recorded pending in the event's commit — and the
    process dies before its posts reached Discord, or after them but before they were marked posted. The restarted
    bot (on PostgreSQL: a new process taking the scheduler's lease) posts what is pending: the claim notice in the
    match's thread and the organiser's buttons in the event's channel, each exactly once (the posts' nonces), and
    never again."""
    async with Harness.start(tmp_path / "club.sqlite3", reviews=False) as h:
        organiser, ann, bob, room, thread = await _duel_under_claim(h)
        cog = h.bot.get_cog("EventCog")

        async def dies(update):  # the cog's listener: it posts (or not), and the process dies before marking it
            if after_the_post:
                await cog.post(update)
            raise Killed

        h.bot.events.listeners[:] = [dies]
        h.clock.advance(25 * 3600)
        with pytest.raises(Killed):
            await h.bot.get_cog("Reminders").tick()
        await h.settle()
        assert (await h.bot.events.find(h.guild, "Duel")).asked, "the event's commit was made"

        def shown() -> tuple[int, int]:
            claims = sum("Claim the match" in m.labels for m in h.messages(thread))
            asks = sum("Duel W1-1 (" in m.content and "Both out" in m.labels for m in h.messages(room))
            return claims, asks

        assert shown() == ((0, 1) if after_the_post else (0, 0))
        await h.restart()
        await h.tick()
        assert shown() == (1, 1)
        await h.tick()
        await h.restart()
        await h.tick()
        assert shown() == (1, 1)


async def test_a_kill_after_a_result_opens_the_next_round_posts_the_round_once_after_the_restart(tmp_path):
    """A round opening through the outbox: the last match of round 1 ends, the event records the result and pairs
    round 2 in one commit (its news pending with it) and makes the new match; the process dies before posting. The
    restarted bot posts the result and round 2's challenge, each once, and nothing more on the next rounds."""
    async with Harness.start(tmp_path / "club.sqlite3", reviews=False) as h:
        organiser = h.member("Olga", admin=True)
        players = [organiser, h.member("Ann"), h.member("Bob")]
        room = h.channel("swiss")
        await h.command(organiser, "event create", room, name="Friday", format="swiss", rounds=2, lengths="1")
        for member in players:
            await h.command(member, "event join", room, event="Friday")
        await h.command(organiser, "event start", room, event="Friday")
        events = h.bot.events
        event = await events.find(h.guild, "Friday")
        (pairing,) = [p for p in event.state.pending() if p.b is not None]
        match_id = (await events.store.matches(event.id))[pairing.key]

        async def dies(update):
            raise Killed

        events.listeners[:] = [dies]
        with pytest.raises(Killed):
            await win(h.bot.service, match_id, pairing.a)
        await h.settle()
        event = await events.find(h.guild, "Friday")
        (second,) = [p for p in event.state.pending() if p.b is not None]
        assert second.round == 2

        def shown() -> tuple[int, int]:
            challenges = sum(f"Friday {second.key}:" in m.content for m in h.messages(room))
            results = sum(f"{pairing.key}: " in m.content and " beat " in m.content for m in h.messages(room))
            return challenges, results

        assert shown() == (0, 0)
        await h.restart()
        await h.tick()
        assert shown() == (1, 1)
        await h.tick()
        assert shown() == (1, 1)


async def test_a_kill_between_posting_the_picture_and_storing_its_id_leaves_one_picture(tmp_path):
    """The standings picture's first post carries a nonce of its event: the process dies after Discord took it but
    before its message id was logged with the event. The restarted bot posts the pending news again; Discord
    returns the first picture for that nonce, its id is stored, and the next result edits it: one picture."""
    async with Harness.start(tmp_path / "club.sqlite3", reviews=False) as h:
        organiser = h.member("Olga", admin=True)
        players = [organiser, h.member("Ann"), h.member("Bob"), h.member("Cy")]
        room = h.channel("swiss")
        await h.command(organiser, "event create", room, name="Friday", format="swiss", rounds=2, lengths="1")
        for member in players:
            await h.command(member, "event join", room, event="Friday")
        await h.command(organiser, "event start", room, event="Friday")
        events = h.bot.events
        event = await events.find(h.guild, "Friday")
        first, second = event.state.pending()  # four players: no bye, so no picture before the first result
        matches = await events.store.matches(event.id)

        async def dies(event_id, what, post_id):
            raise Killed

        events.remember = dies
        with pytest.raises(Killed):
            await win(h.bot.service, matches[first.key], first.a)
        await h.settle()

        def pictures() -> list:
            return [m for m in h.messages(room) if m.png is not None and m.content == "Friday:"]

        assert len(pictures()) == 1, "the picture reached Discord before the kill"
        await h.restart()
        await h.tick()
        assert len(pictures()) == 1
        event = await h.bot.events.find(h.guild, "Friday")
        assert event.posts.get(Post.PICTURE) == pictures()[0].id, "the first picture's id is stored"
        await win(h.bot.service, matches[second.key], second.a)
        await h.settle()
        assert len(pictures()) == 1, "the next result edits it"
