"""The Discord bot end to end through the harness (tests/discordkit.py: the real bot, discord.py's own parsing, a
fake Discord checking every request): a whole game from the challenge to the result (RULES G2, G7, G11), a match
through its Crawford game (RULES M3, D1, D2, G12), autocomplete of the legal plays (RULES G7, G10), a money session
with every answer as a button and as a command (RULES D1–D3, G12)."""

from __future__ import annotations

import random

from club import InjectedDice
from club.boards import board_view
from club.verify import verify_database
from tests.discordkit import GUILD, PNG_MAGIC, Harness, Member, Msg


async def challenge_and_accept(h: Harness, alice: Member, bob: Member, *, length="1", rules=None) -> int:
    """Alice challenges Bob (command) in a new lobby, Bob presses Accept; returns the game's thread."""
    lobby = h.channel("lobby")
    options = {"opponent": bob, "length": length} | ({"rules": rules} if rules else {})
    answer = await h.command(alice, "bg challenge", lobby, **options)
    assert answer.private and "challenges Bob" in answer.text
    post = h.last(lobby)
    assert post.content.startswith(bob.mention), "the challenged member is mentioned"
    assert post.actions == ["accept", "decline", "cancel", "luck"]
    await h.press(bob, post, "Accept")
    assert post.custom_ids == [], "the answered challenge loses its buttons"
    thread = h.thread_of(post)  # the game gets its own thread, opened from the challenge
    assert f"<#{thread}>" in post.embed["description"]
    return thread


async def board_matches_state(h: Harness, post: Msg, match_id: int = 1) -> None:
    """The board shows exactly the actions now possible for the member it mentions."""
    view = await h.bot.service.state(match_id)
    assert post.content.startswith(f"<@{view.waiting_for}>"), "the member who must act is mentioned"
    expected = {action for action in view.legal if action not in ("resign", "play")}
    expected |= set() if view.practice else {"luck"}  # either player may add luck to the next game's dice
    assert set(post.actions) - {"play"} == expected
    if view.pending == "play":
        legal = await h.bot.service.legal_plays(match_id, view.waiting_for)
        if len(legal) <= 25:
            assert sorted(post.menu_options) == sorted(legal)
        else:  # too many for a menu: the board says to type /bg move (suggestions as you type)
            assert "play" not in post.actions and "/bg move" in post.embed["fields"][-1]["value"]
    versions = {int(custom_id.split(":")[3]) for custom_id in post.custom_ids}
    assert versions <= {view.version}, "every component carries the version it was drawn for"


async def test_whole_game_from_challenge_to_result(tmp_path):
    """RULES G2, G7, G11: a 1-point match played out with buttons, the play menu and /bg move (its suggestions as
    Discord asks for them); a fresh board with a PNG after every turn; the result announced to both; the stored log
    verifies (dice proven fair, RULES A1)."""
    rng = random.Random(7)
    async with Harness.start(tmp_path / "club.sqlite3", reviews=False) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        thread = await challenge_and_accept(h, alice, bob)
        pngs = set()
        for _ in range(400):
            post = h.last(thread)
            assert post.png is not None and post.png.startswith(PNG_MAGIC)
            pngs.add(post.png)
            if post.custom_ids in ([], ["t:m:1:0:rematch"]) and "wins" in post.content:
                break
            await board_matches_state(h, post)
            view = await h.bot.service.state(1)
            who = h.members[view.waiting_for]
            if "roll" in post.actions:
                await h.press(who, post, post.action_id("roll"))
            elif "play" in post.actions and rng.random() < 0.5:
                await h.press(who, post, post.action_id("play"), values=[rng.choice(post.menu_options)])
            elif view.pending == "play":
                suggestions = await h.autocomplete(who, "bg move", "play", "", thread)
                moved = await h.command(who, "bg move", thread, play=suggestions[0]["value"])
                assert moved.private and "plays" in moved.text
            else:
                raise AssertionError(f"unexpected board: {post.actions} / {view.pending}")
        else:
            raise AssertionError("the game did not finish")
        final = h.last(thread)
        view = await h.bot.service.state(1)
        assert view.status == "over" and view.winner is not None
        assert alice.mention in final.content and bob.mention in final.content
        assert f"{view.names[view.winner]} wins the match 1–0" in final.content
        assert "seed revealed" in final.embed["description"]
        assert len(pngs) > 20, "a new image after every turn"
        reports = await verify_database(h.bot.service.db)
        assert all(report.ok for report in reports), [report.problems for report in reports]
        # every board but the last lost its buttons once the next one was posted; the last offers a rematch
        assert all(not post.custom_ids for post in h.messages(thread)[:-1])
        assert h.messages(thread)[-1].custom_ids == ["t:m:1:0:rematch"]


async def test_match_with_crawford(tmp_path):
    """RULES M3 (with D1, D2, G12, M4): in a 3-point match a taken double and a resignation at cube 2 put the leader
    at 2 (1-away); the next game is the Crawford game — no Double button, /bg double refused — and after it doubling
    is back (post-Crawford), until the cube is dead at 2-2 (M4)."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice(fallback=b"crawford"), reviews=False) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        for member in (alice, bob):  # every roll is a button press
            assert (await h.command(member, "player autoroll", lobby, state="off")).private
        thread = await challenge_and_accept(h, alice, bob, length="3")
        service = h.bot.service

        def other(member: int) -> int:
            return bob.id if member == alice.id else alice.id

        async def press(member: int, action: str) -> None:
            post = h.last(thread)
            assert post.content.startswith(f"<@{member}>"), f"{action}: the board mentions who must act"
            await h.press(h.members[member], post, post.action_id(action))

        async def to_roll():
            """Play on (the first legal play, /bg move) until a member is on roll; returns the view."""
            for _ in range(10):
                view = await service.state(1)
                if view.pending in ("roll", "roll_or_double"):
                    return view
                plays = await service.legal_plays(1, view.waiting_for)
                await h.command(h.members[view.waiting_for], "bg move", thread, play=plays[0])
            raise AssertionError("nobody came on roll")

        # game 1: the player on roll doubles, the other takes, then resigns a single game at cube 2
        leader = (await to_roll()).waiting_for
        await press(leader, "double")
        await press(other(leader), "take")
        resigned = await h.command(h.members[other(leader)], "bg resign", thread, level="single")
        assert "offers to resign a single game" in resigned.text
        assert h.last(thread).actions == ["accept_resignation", "reject_resignation", "luck"]
        await press(leader, "accept_resignation")
        view = await service.state(1)
        assert view.game_number == 2 and view.score[view.side_of(leader)] == 2
        assert view.game.crawford, "RULES M3: the leader is 1-away, so this is the Crawford game"

        # game 2, the Crawford game: no Double button, /bg double refused and nothing changes
        view = await to_roll()
        post = h.last(thread)
        assert "Crawford game" in post.embed["footer"]["text"]
        assert board_view(view).crawford and not board_view(view).post_crawford, "the picture says so too"
        assert post.actions == ["roll", "luck"]
        refused = await h.command(h.members[view.waiting_for], "bg double", thread)
        assert refused.private and "Crawford" in refused.text
        assert (await service.state(1)).version == view.version, "a refusal changes nothing"
        await h.command(h.members[leader], "bg resign", thread)  # the leader concedes this one
        await press(other(leader), "accept_resignation")
        view = await service.state(1)
        assert view.game_number == 3 and not view.game.crawford
        assert sorted(view.score) == [1, 2]

        # game 3, post-Crawford: the Double button is back
        view = await to_roll()
        roller = view.waiting_for
        assert "double" in h.last(thread).actions, "RULES M3: post-Crawford the cube is back"
        assert board_view(view).post_crawford and not board_view(view).crawford
        await press(roller, "double")
        await press(other(roller), "drop")
        view = await service.state(1)
        if view.status != "over":  # the trailer doubled and the leader dropped: 2-2, the cube is dead (M4)
            assert view.score == (2, 2)
            view = await to_roll()
            assert h.last(thread).actions == ["roll", "luck"], "RULES M4: at double match point the cube is dead"
            await h.command(h.members[view.waiting_for], "bg resign", thread)
            await press(other(view.waiting_for), "accept_resignation")
            view = await service.state(1)
        assert view.status == "over" and view.winner is not None
        final = h.last(thread)
        winner = view.winner
        assert f"wins the match {view.score[winner]}–{view.score[1 - winner]}" in final.content
        assert final.custom_ids == ["t:m:1:0:rematch"]


async def test_autocomplete_returns_legal_plays(tmp_path):
    """RULES G7, G10: /bg move suggests the legal plays of the member's dice, filtered by what he typed (any move
    order, bar/25 and off/0 alike), at most 25; other members get nothing; the board offers them as a menu."""
    dice = InjectedDice([(6, 1), (5, 5)], fallback=b"ac")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        alice, bob, carol = h.member("Alice"), h.member("Bob"), h.member("Carol")
        thread = await challenge_and_accept(h, alice, bob, length="3")
        legal = await h.bot.service.legal_plays(1, alice.id)
        assert "13/7 8/7" in legal

        async def suggest(member: Member, typed: str) -> list[str]:
            choices = await h.autocomplete(member, "bg move", "play", typed, thread)
            assert all(choice["name"] == choice["value"] for choice in choices)
            return [choice["value"] for choice in choices]

        assert await suggest(alice, "") == legal[:25]
        assert await suggest(alice, "8/7 13") == ["13/7 8/7"]
        some = await suggest(alice, "24/")
        assert some and all(value in legal and "24/" in value for value in some)
        assert len(some) < len(legal)
        assert await suggest(alice, "9/1") == []
        assert await suggest(bob, "") == [], "not his dice"
        assert await suggest(carol, "") == []
        assert sorted(h.last(thread).menu_options) == sorted(legal)
        # after Alice plays, Bob rolls 5-5: many plays, at most 25 suggested
        await h.command(alice, "bg move", thread, play="13/7 8/7")
        await h.press(bob, h.last(thread), "Roll")
        legal = await h.bot.service.legal_plays(1, bob.id)
        suggestions = await suggest(bob, "")
        assert len(suggestions) == min(25, len(legal))
        assert set(suggestions) <= set(legal)
        # the game option's autocomplete lists his game, waiting for him
        games = await h.autocomplete(bob, "bg roll", "game", "", thread)
        assert [choice["value"] for choice in games] == [1] and "your turn" in games[0]["name"]


async def test_money_session_every_answer_as_button_and_command(tmp_path):
    """RULES D1–D3, G12 in a money session (beavers and raccoons allowed by the club): Decline and Withdraw buttons
    close a challenge; /bg accept starts the session; Double (button) → /bg beaver → Raccoon (button) → /bg take;
    a resignation refused with /bg decline and with the Reject button; /bg stop; Double → /bg drop ends it."""
    dice = InjectedDice([(3, 1)], fallback=b"money")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice, reviews=False) as h:
        service = h.bot.service
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        await service.configure_club(GUILD, rule_overrides={"raccoons": True})
        for member in (alice, bob):
            await h.command(member, "player autoroll", lobby, state="off")

        await h.command(alice, "bg challenge", lobby, opponent=bob, stake=5)
        first = h.last(lobby)
        await h.press(bob, first, "Decline")
        assert not first.custom_ids and "declines" in first.embed["description"]
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="money")
        second = h.last(lobby)
        await h.press(alice, second, "Withdraw")
        assert not second.custom_ids and "withdraws" in second.embed["description"]
        await h.command(alice, "bg challenge", lobby, opponent=bob, rules="money")
        accepted = await h.command(bob, "bg accept", lobby)
        assert "accepts the challenge" in accepted.text
        match_id = 3
        thread = h.thread_of(h.last(lobby))

        async def state():
            return await service.state(match_id)

        await h.command(alice, "bg move", thread, play="8/5 6/5")  # Alice opened with 3-1; then Bob is on roll
        view = await state()
        assert view.pending == "roll_or_double" and view.waiting_for == bob.id
        await h.press(bob, h.last(thread), "Double")
        assert set(h.last(thread).actions) == {"take", "drop", "beaver", "luck"}
        assert board_view(await state()).offer == "double"
        await h.command(alice, "bg beaver", thread)
        assert set(h.last(thread).actions) == {"take", "drop", "raccoon", "luck"}
        beavered = board_view(await state())
        assert (beavered.offer, beavered.offered_cube) == ("beaver", 4), "the board says beaver, not '4 doubles'"
        await h.press(bob, h.last(thread), "Raccoon")
        assert board_view(await state()).offer == "raccoon"
        taken = await h.command(alice, "bg take", thread)
        assert "the cube is at 8" in taken.text
        view = await state()
        assert view.game.cube_value == 8 and view.game.cube_owner == view.side_of(alice.id), "D3: the beaverer owns it"

        # Bob (on roll) resigns; Alice refuses with /bg decline, then with the Reject button
        await h.command(bob, "bg resign", thread)
        refused = await h.command(alice, "bg decline", thread)
        assert "rejects the resignation" in refused.text
        await h.command(bob, "bg resign", thread, level="gammon")
        board = h.last(thread)
        await h.press(alice, board, board.action_id("reject_resignation"))
        view = await state()
        assert view.status == "active" and view.waiting_for == bob.id and view.game.resignation is None

        stopped = await h.command(bob, "bg stop", thread)
        assert "ends when this game ends" in stopped.text
        await h.press(bob, h.last(thread), "Roll")
        for _ in range(20):  # play on until Alice, who owns the cube, is on roll and may redouble
            view = await state()
            if view.waiting_for == alice.id and "double" in view.legal:
                break
            if view.pending in ("roll", "roll_or_double"):
                await h.press(h.members[view.waiting_for], h.last(thread), "Roll")
            else:
                plays = await service.legal_plays(match_id, view.waiting_for)
                await h.command(h.members[view.waiting_for], "bg move", thread, play=plays[0])
        await h.press(alice, h.last(thread), "Double")
        dropped = await h.command(bob, "bg drop", thread)
        assert "Bob drops" in dropped.text
        view = await state()
        assert view.status == "over" and view.score[view.side_of(alice.id)] == 8
        final = h.last(thread)
        assert "The session is over" in final.content and not final.custom_ids
