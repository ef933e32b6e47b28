"""The harness itself (:mod:`discordkit`): the real bot logs in to the fake Discord, its command tree is within
Discord's limits, and a match runs to its end through buttons and commands, every interaction answered once."""

from __future__ import annotations

import random

import pytest

from tests.discord_limits import check_command, check_components, check_message, check_tree, command_size


async def test_the_command_tree_syncs_within_discords_limits(harness):
    """Every group (/bg with /bg chouette, /club and any new one) as Discord receives it on sync."""
    synced = await harness.bot.tree.sync()
    payload = harness.requests("PUT", "/commands")[-1].payload
    assert {command["name"] for command in payload} >= {"bg", "club"}
    assert len(synced) == len(payload)
    assert check_tree(payload) == []
    for command in payload:
        assert command_size(command) <= 4000, command["name"]
        for node in command.get("options") or []:
            assert len(node.get("options") or []) <= 25


def test_the_limit_checks_catch_what_discord_refuses():
    """The checks the harness applies can fail: each limit broken once."""
    assert check_message({"content": "x" * 2001})
    assert check_message({"embeds": [{"title": "t" * 257}]})
    assert check_message({"embeds": [{"description": "d" * 4097}]})
    assert check_message({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    assert check_message({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]})
    assert check_message({"embeds": [{"image": {"url": "attachment://board.png"}}]})
    assert not check_message({"embeds": [{"image": {"url": "attachment://board.png"}}]}, {"board.png": 10})
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"c{i}"} for i in range(6)]}
    assert check_components([row])
    assert check_components([{"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "x"}]}] * 6)
    select = {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    assert check_components([{"type": 1, "components": [select]}])
    alone = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    assert check_components([{"type": 1, "components": [alone, {"type": 2, "style": 1, "label": "b",
                                                                 "custom_id": "b"}]}])  # fmt: skip
    assert check_components([{"type": 1, "components": [{"type": 2, "style": 1, "label": "b",
                                                         "custom_id": "x" * 101}]}])  # fmt: skip
    big = {"name": "bg", "description": "d", "options": [
        {"type": 1, "name": f"c{i}", "description": "x" * 100, "options": [
            {"type": 3, "name": f"o{j}", "description": "y" * 100} for j in range(2)]} for i in range(26)]}  # fmt: skip
    assert any("26 options" in p for p in check_command(big))
    assert any("characters" in p for p in check_command(big))
    assert check_tree([{"name": "Bad Name", "description": "d"}])


@pytest.mark.parametrize("seed", [7])
async def test_a_whole_match_through_discord(tmp_path, seed):
    """Challenge → accept → a 3-point match to its end through buttons, menus and /bg move, its Crawford game
    included whatever the dice (game 1: the first player who may double does, it is taken, and the other resigns a
    single game at cube 2: 2-away → 1-away); every interaction answered exactly once, no limit broken."""
    from tests.discordkit import Harness, play_turn

    rng = random.Random(seed)
    async with Harness.start(tmp_path / "club.sqlite3", seed=seed, reviews=False) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        games = h.channel("games")
        answer = await h.command(alice, "bg challenge", games, opponent=bob, length="3")
        assert answer.thinking and answer.private and "challenges Bob" in answer.text
        challenge = h.last(games)
        assert bob.mention in challenge.content and challenge.labels == ["Accept", "Decline", "Withdraw", "Add your luck"]
        await h.press(bob, challenge, "Accept")
        thread = h.thread_of(challenge)
        match_id = 1
        service = h.bot.service
        for _ in range(200):  # game 1 to its first double, taken
            view = await service.state(match_id)
            if view.pending == "answer_double":
                taker = h.members[view.waiting_for]
                await play_turn(h, match_id, rng)  # take
                break
            await play_turn(h, match_id, rng, cube=1.0)
        else:
            raise AssertionError("nobody could double in game 1")
        await h.command(taker, "bg resign", thread, level="single")
        assert (await service.state(match_id)).pending == "answer_resignation"
        await play_turn(h, match_id, rng)  # the doubler accepts the resignation: 2-0
        assert sorted((await service.state(match_id)).score) == [0, 2]
        crawford = False
        for _ in range(2000):
            view = await service.state(match_id)
            if view.status == "over":
                break
            crawford = crawford or bool(view.game is not None and view.game.crawford)
            await play_turn(h, match_id, rng)
        else:
            raise AssertionError("the match did not end")
        assert crawford, "game 2 was the Crawford game"
        assert any("wins the match" in message.text for message in h.messages(thread))
        assert len(h.exchanges) > 20
