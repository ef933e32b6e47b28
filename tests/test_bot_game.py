"""The Discord bot end to end: slash-command and button callbacks with autospec'd interactions, into a real SQLite
file and real PNG boards (tests/botkit.py). A whole game from the challenge to the result (RULES G2, G7, G11), a
match through its Crawford game (RULES M3, D1, D2, G12), autocomplete of the legal plays (RULES G7, G10)."""

from __future__ import annotations

import random

from botkit import PNG_MAGIC, call, cog_of, last_reply, running_bot

from club import InjectedDice
from club.boards import board_view
from club.verify import verify_database
from cogs.bg import game_autocomplete

ALICE, BOB = 101, 202


async def challenge_and_accept(bot, fake, *, length="1", rules=None):
    """Alice challenges Bob (command), Bob presses Accept; returns (alice, bob, thread)."""
    cog = cog_of(bot)
    alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
    lobby = fake.text_channel("lobby")
    interaction = await call(
        cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length=length, rules=rules
    )
    assert last_reply(interaction).ephemeral and "challenges Bob" in last_reply(interaction).content
    post = fake.last(lobby.id)
    assert post.content.startswith(f"<@{BOB}>"), "the challenged member is mentioned"
    assert post.actions == ["accept", "decline", "cancel"]
    await fake.press(bob, post.custom_id("accept"))
    assert post.custom_ids == [], "the answered challenge loses its buttons"
    assert len(post.threads) == 1, "the game gets its own thread, opened from the challenge"
    thread = fake.channels[post.threads[0]]
    assert f"<#{thread.id}>" in post.embed.description
    return alice, bob, thread


async def board_matches_state(bot, post) -> None:
    """The board shows exactly the actions now possible for the member it mentions."""
    match_id = 1
    view = await bot.service.state(match_id)
    assert post.content.startswith(f"<@{view.waiting_for}>"), "the member who must act is mentioned"
    expected = {action for action in view.legal if action not in ("resign", "play")}
    shown = set(post.actions) - {"play"}
    assert shown == expected
    if view.pending == "play":
        legal = await bot.service.legal_plays(match_id, view.waiting_for)
        if len(legal) <= 25:
            assert sorted(post.menu_options) == sorted(legal)
        else:  # too many for a menu: the board says to type /bg move (suggestions as you type)
            assert "play" not in post.actions and "/bg move" in post.embed.fields[-1].value
    versions = {int(custom_id.split(":")[3]) for custom_id in post.custom_ids}
    assert versions <= {view.version}, "every component carries the version it was drawn for"


async def test_whole_game_from_challenge_to_result(tmp_path):
    """RULES G2, G7, G11: a 1-point match played out with buttons, the play menu and /bg move; a fresh board with a
    PNG after every turn; the result announced to both; the stored log verifies (dice proven fair, RULES A1)."""
    rng = random.Random(7)
    async with running_bot(tmp_path / "club.sqlite3") as (bot, fake):
        cog = cog_of(bot)
        alice, bob, thread = await challenge_and_accept(bot, fake)
        members = {ALICE: alice, BOB: bob}
        pngs = set()
        for _ in range(400):
            post = fake.last(thread.id)
            assert post.png is not None and post.png.startswith(PNG_MAGIC)
            pngs.add(post.png)
            if post.custom_ids in ([], ["bgrematch:1"]) and "wins" in post.content:
                break
            await board_matches_state(bot, post)
            view = await bot.service.state(1)
            who = members[view.waiting_for]
            if "roll" in post.actions:
                await fake.press(who, post.custom_id("roll"))
            elif "play" in post.actions and rng.random() < 0.5:
                await fake.press(who, post.custom_id("play"), value=rng.choice(post.menu_options))
            elif view.pending == "play":
                suggestions = await cog.play_autocomplete(fake.interaction(who, thread), "")
                interaction = await call(cog.move, cog, fake.interaction(who, thread), play=suggestions[0].value)
                assert last_reply(interaction).ephemeral and "plays" in last_reply(interaction).content
            else:
                raise AssertionError(f"unexpected board: {post.actions} / {view.pending}")
        else:
            raise AssertionError("the game did not finish")
        final = fake.last(thread.id)
        view = await bot.service.state(1)
        assert view.status == "over" and view.winner is not None
        assert f"<@{ALICE}>" in final.content and f"<@{BOB}>" in final.content
        assert f"{view.names[view.winner]} wins the match 1–0" in final.content
        assert "seed revealed" in final.embed.description
        assert len(pngs) > 20, "a new image after every turn"
        reports = await verify_database(bot.service.db)
        assert all(report.ok for report in reports), [report.problems for report in reports]
        # every board but the last lost its buttons once the next one was posted; the last offers a rematch
        assert all(not post.custom_ids for post in fake.in_channel(thread.id)[:-1])
        assert fake.in_channel(thread.id)[-1].custom_ids == ["bgrematch:1"]


async def test_match_with_crawford(tmp_path):
    """RULES M3 (with D1, D2, G12, M4): in a 3-point match a taken double and a resignation at cube 2 put the leader
    at 2 (1-away); the next game is the Crawford game — no Double button, /bg double refused — and after it doubling
    is back (post-Crawford), until the cube is dead at 2-2 (M4)."""
    async with running_bot(tmp_path / "club.sqlite3", dice=InjectedDice(fallback=b"crawford")) as (bot, fake):
        cog = cog_of(bot)
        for member, name in ((ALICE, "Alice"), (BOB, "Bob")):
            await bot.service.register(777, member, name)
            await bot.service.set_preferences(member, auto_roll=False)  # every roll is a button press
        alice, bob, thread = await challenge_and_accept(bot, fake, length="3")
        members = {ALICE: alice, BOB: bob}

        def other(member):
            return BOB if member == ALICE else ALICE

        async def press(member, action):
            post = fake.last(thread.id)
            assert post.content.startswith(f"<@{member}>"), f"{action}: the board mentions who must act"
            await fake.press(members[member], post.custom_id(action))

        async def to_roll():
            """Play on (the first legal play, /bg move) until a member is on roll; returns the view."""
            for _ in range(10):
                view = await bot.service.state(1)
                if view.pending in ("roll", "roll_or_double"):
                    return view
                plays = await bot.service.legal_plays(1, view.waiting_for)
                await call(cog.move, cog, fake.interaction(members[view.waiting_for], thread), play=plays[0])
            raise AssertionError("nobody came on roll")

        # game 1: the player on roll doubles, the other takes, then resigns a single game at cube 2
        leader = (await to_roll()).waiting_for
        await press(leader, "double")
        await press(other(leader), "take")
        resigned = await call(cog.resign, cog, fake.interaction(members[other(leader)], thread), level="single")
        assert "offers to resign a single game" in last_reply(resigned).content
        assert fake.last(thread.id).actions == ["accept_resignation", "reject_resignation"]
        await press(leader, "accept_resignation")
        view = await bot.service.state(1)
        assert view.game_number == 2 and view.score[view.side_of(leader)] == 2
        assert view.game.crawford, "RULES M3: the leader is 1-away, so this is the Crawford game"

        # game 2, the Crawford game: no Double button, /bg double refused and nothing changes
        view = await to_roll()
        post = fake.last(thread.id)
        assert "Crawford game" in post.embed.footer.text
        assert board_view(view).crawford and not board_view(view).post_crawford, "the picture says so too"
        assert post.actions == ["roll"]
        refused = await call(cog.double, cog, fake.interaction(members[view.waiting_for], thread))
        assert last_reply(refused).ephemeral and "Crawford" in last_reply(refused).content
        assert (await bot.service.state(1)).version == view.version, "a refusal changes nothing"
        await call(cog.resign, cog, fake.interaction(members[leader], thread))  # the leader concedes this one
        await press(other(leader), "accept_resignation")
        view = await bot.service.state(1)
        assert view.game_number == 3 and not view.game.crawford
        assert sorted(view.score) == [1, 2]

        # game 3, post-Crawford: the Double button is back
        view = await to_roll()
        roller = view.waiting_for
        assert "double" in fake.last(thread.id).actions, "RULES M3: post-Crawford the cube is back"
        assert board_view(view).post_crawford and not board_view(view).crawford
        await press(roller, "double")
        await press(other(roller), "drop")
        view = await bot.service.state(1)
        if view.status != "over":  # the trailer doubled and the leader dropped: 2-2, the cube is dead (M4)
            assert view.score == (2, 2)
            view = await to_roll()
            assert fake.last(thread.id).actions == ["roll"], "RULES M4: at double match point the cube is dead"
            await call(cog.resign, cog, fake.interaction(members[view.waiting_for], thread))
            await press(other(view.waiting_for), "accept_resignation")
            view = await bot.service.state(1)
        assert view.status == "over" and view.winner is not None
        final = fake.last(thread.id)
        winner = view.winner
        assert f"wins the match {view.score[winner]}–{view.score[1 - winner]}" in final.content
        assert final.custom_ids == ["bgrematch:1"]


async def test_autocomplete_returns_legal_plays(tmp_path):
    """RULES G7, G10: /bg move suggests the legal plays of the member's dice, filtered by what he typed (any move
    order, bar/25 and off/0 alike), at most 25; other members get nothing; the board offers them as a menu."""
    dice = InjectedDice([(6, 1), (5, 5)], fallback=b"ac")
    async with running_bot(tmp_path / "club.sqlite3", dice=dice) as (bot, fake):
        cog = cog_of(bot)
        alice, bob, thread = await challenge_and_accept(bot, fake, length="3")
        legal = await bot.service.legal_plays(1, ALICE)
        assert "13/7 8/7" in legal
        everything = await cog.play_autocomplete(fake.interaction(alice, thread), "")
        assert [choice.value for choice in everything] == legal[:25]
        assert all(choice.name == choice.value for choice in everything)
        typed = await cog.play_autocomplete(fake.interaction(alice, thread), "8/7 13")
        assert [choice.value for choice in typed] == ["13/7 8/7"]
        some = await cog.play_autocomplete(fake.interaction(alice, thread), "24/")
        assert some and all(choice.value in legal and "24/" in choice.value for choice in some)
        assert len(some) < len(legal)
        assert await cog.play_autocomplete(fake.interaction(alice, thread), "9/1") == []
        assert await cog.play_autocomplete(fake.interaction(bob, thread), "") == [], "not his dice"
        carol = fake.member(303, "Carol")
        assert await cog.play_autocomplete(fake.interaction(carol, thread), "") == []
        assert sorted(fake.last(thread.id).menu_options) == sorted(legal)
        # after Alice plays, Bob rolls 5-5: many plays, at most 25 suggested
        await call(cog.move, cog, fake.interaction(alice, thread), play="13/7 8/7")
        await fake.press(bob, fake.last(thread.id).custom_id("roll"))
        legal = await bot.service.legal_plays(1, BOB)
        suggestions = await cog.play_autocomplete(fake.interaction(bob, thread), "")
        assert len(suggestions) == min(25, len(legal))
        assert {choice.value for choice in suggestions} <= set(legal)
        # the game option's autocomplete lists his game, waiting for him
        games = await game_autocomplete(fake.interaction(bob, thread), "")
        assert [choice.value for choice in games] == [1] and "your turn" in games[0].name


async def test_money_session_every_answer_as_button_and_command(tmp_path):
    """RULES D1–D3, G12 in a money session (beavers and raccoons allowed by the club): Decline and Withdraw buttons
    close a challenge; /bg accept starts the session; Double (button) → /bg beaver → Raccoon (button) → /bg take;
    a resignation refused with /bg decline and with the Reject button; /bg stop; Double → /bg drop ends it."""
    dice = InjectedDice([(3, 1)], fallback=b"money")
    async with running_bot(tmp_path / "club.sqlite3", dice=dice) as (bot, fake):
        cog = cog_of(bot)
        await bot.service.configure_club(777, rule_overrides={"raccoons": True})
        alice, bob = fake.member(ALICE, "Alice"), fake.member(BOB, "Bob")
        members = {ALICE: alice, BOB: bob}
        lobby = fake.text_channel("lobby")
        for member in (ALICE, BOB):
            await bot.service.register(777, member, members[member].display_name)
            await bot.service.set_preferences(member, auto_roll=False)

        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, stake=5)
        first = fake.last(lobby.id)
        await fake.press(bob, first.custom_id("decline"))
        assert not first.custom_ids and "declines" in first.embed.description
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, length="money")
        second = fake.last(lobby.id)
        await fake.press(alice, second.custom_id("cancel"))
        assert not second.custom_ids and "withdraws" in second.embed.description
        await call(cog.challenge, cog, fake.interaction(alice, lobby), opponent=bob, rules="money")
        accepted = await call(cog.accept, cog, fake.interaction(bob, lobby))
        assert "accepts the challenge" in last_reply(accepted).content
        match_id = 3
        thread = fake.channels[fake.last(lobby.id).threads[0]]

        def other(member):
            return BOB if member == ALICE else ALICE

        async def state():
            return await bot.service.state(match_id)

        view = await state()  # Alice opened with 3-1: she plays, then Bob is on roll
        await call(cog.move, cog, fake.interaction(alice, thread), play="8/5 6/5")
        view = await state()
        assert view.pending == "roll_or_double" and view.waiting_for == BOB
        await fake.press(bob, fake.last(thread.id).custom_id("double"))
        assert set(fake.last(thread.id).actions) == {"take", "drop", "beaver"}
        assert board_view(await state()).offer == "double"
        await call(cog.beaver, cog, fake.interaction(alice, thread))
        assert set(fake.last(thread.id).actions) == {"take", "drop", "raccoon"}
        beavered = board_view(await state())
        assert (beavered.offer, beavered.offered_cube) == ("beaver", 4), "the board says beaver, not '4 doubles'"
        await fake.press(bob, fake.last(thread.id).custom_id("raccoon"))
        assert board_view(await state()).offer == "raccoon"
        taken = await call(cog.take, cog, fake.interaction(alice, thread))
        assert "the cube is at 8" in last_reply(taken).content
        view = await state()
        assert view.game.cube_value == 8 and view.game.cube_owner == view.side_of(ALICE), "D3: the beaverer owns it"

        # Bob (on roll) resigns; Alice refuses with /bg decline, then with the Reject button
        await call(cog.resign, cog, fake.interaction(bob, thread))
        refused = await call(cog.decline, cog, fake.interaction(alice, thread))
        assert "rejects the resignation" in last_reply(refused).content
        await call(cog.resign, cog, fake.interaction(bob, thread), level="gammon")
        await fake.press(alice, fake.last(thread.id).custom_id("reject_resignation"))
        view = await state()
        assert view.status == "active" and view.waiting_for == BOB and view.game.resignation is None

        stopped = await call(cog.stop, cog, fake.interaction(bob, thread))
        assert "ends when this game ends" in last_reply(stopped).content
        await fake.press(bob, fake.last(thread.id).custom_id("roll"))
        for _ in range(20):  # play on until Alice, who owns the cube, is on roll and may redouble
            view = await state()
            if view.waiting_for == ALICE and "double" in view.legal:
                break
            if view.pending in ("roll", "roll_or_double"):
                await fake.press(members[view.waiting_for], fake.last(thread.id).custom_id("roll"))
            else:
                plays = await bot.service.legal_plays(match_id, view.waiting_for)
                await call(cog.move, cog, fake.interaction(members[view.waiting_for], thread), play=plays[0])
        await fake.press(alice, fake.last(thread.id).custom_id("double"))
        dropped = await call(cog.drop, cog, fake.interaction(bob, thread))
        assert "Bob drops" in last_reply(dropped).content
        view = await state()
        assert view.status == "over" and view.score[view.side_of(ALICE)] == 8
        final = fake.last(thread.id)
        assert "The session is over" in final.content and not final.custom_ids
