"""Through the harness (tests/discordkit.py): club settings (admins only, enforced by a check in discord.py's own
dispatch), the game channel, direct messages, and the read-only commands: board, games, rules, verify (RULES A1),
export (RULES A4)."""

from __future__ import annotations

from backgammon.matfile import parse_mat
from backgammon.replay import replay
from club import InjectedDice
from club.boards import board_view
from tests.discordkit import GUILD, PNG_MAGIC, Harness


async def test_config_is_for_club_admins_only(harness):
    """RULES A2 settings are a club decision: /bg config, through discord.py's command tree, runs only for a member
    who may manage the server — a check, not just default permissions; others are refused privately and nothing
    changes."""
    h = harness
    member, admin = h.member("Alice"), h.member("Ada", admin=True)
    lobby = h.channel()
    options = {"move_hours": 12.0, "expiry": "forfeit_game", "reminders": "6,1"}
    plain = await h.command(member, "bg config", lobby, **options)
    assert plain.private and "Only club admins" in plain.text
    settings = await h.bot.service.club_settings(GUILD)
    assert settings.move_time == 3 * 86_400 and settings.expiry_policy == "nothing"

    done = await h.command(admin, "bg config", lobby, **options)
    assert done.private and done.text.startswith("Club settings updated")
    settings = await h.bot.service.club_settings(GUILD)
    assert settings.move_time == 12 * 3600 and settings.expiry_policy == "forfeit_game"
    assert settings.reminders == (6 * 3600, 3600)
    assert "time per action: 12 h" in done.text
    # the check is attached to the command itself, so every path into it is guarded
    assert len(h.bot.tree.get_command("bg").get_command("config").checks) == 1


async def test_config_game_channel_and_bad_values(harness):
    """An admin sets the game channel: challenges are posted there (and the game's thread opened there); a bad
    value is refused with what is valid."""
    h = harness
    alice, bob = h.member("Alice", admin=True), h.member("Bob")
    lobby, games = h.channel("lobby"), h.channel("games")
    done = await h.command(alice, "bg config", lobby, channel=games)
    assert f"<#{games}>" in done.text
    bad = await h.command(alice, "bg config", lobby, reminders="soon")
    assert bad.private and "reminders are hours before the deadline" in bad.text
    await h.command(alice, "bg challenge", lobby, opponent=bob, length="3")
    assert h.messages(lobby) == [] and len(h.messages(games)) == 1
    await h.press(bob, h.last(games), "Accept")
    thread = h.thread_of(h.last(games))
    assert int(h.world.channels[thread]["parent_id"]) == games


async def test_notify_sends_direct_messages_when_it_is_your_turn(tmp_path):
    """/bg notify on: a direct message (with a link to the board) when it becomes his turn; off by default."""
    async with Harness.start(tmp_path / "club.sqlite3", dice=InjectedDice([(6, 1)], fallback=b"n")) as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel()
        turned_on = await h.command(bob, "bg notify", lobby, state="on")
        assert "direct message" in turned_on.text
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="3")
        await h.press(bob, h.last(lobby), "Accept")
        thread = h.thread_of(h.last(lobby))
        assert h.dms(alice) == [] and h.dms(bob) == [], "Alice has not asked for direct messages; Bob acted himself"
        await h.command(alice, "bg move", thread, play="13/7 8/7")
        dms = h.dms(bob)
        assert len(dms) == 1 and "Your turn" in dms[0].content
        assert str(h.last(thread).id) in dms[0].content, "a link to the board"
        await h.command(bob, "bg notify", lobby, state="off")
        await h.press(bob, h.last(thread), "Roll")
        board = h.last(thread)
        await h.press(bob, board, board.action_id("play"), values=[board.menu_options[0]])
        assert len(h.dms(bob)) == 1 and h.dms(alice) == []


async def test_board_games_rules_verify_and_export(tmp_path):
    """The read-only commands answer privately: the board from the asker's side (with his buttons only when he
    must act), his games, the rules, the dice proof (RULES A1) and the .mat export that replays to the same result
    (RULES A4)."""
    async with Harness.start(tmp_path / "club.sqlite3", reviews=False) as h:
        await _read_only_commands(h)


async def _read_only_commands(h: Harness) -> None:
    alice, bob = h.member("Alice"), h.member("Bob")
    lobby = h.channel()
    await h.command(alice, "bg challenge", lobby, opponent=bob, length="1")
    games = await h.command(bob, "bg games", lobby)
    assert games.private and "Your turn" in games.text and "#1 vs Alice" in games.text
    await h.press(bob, h.last(lobby), "Accept")
    thread = h.thread_of(h.last(lobby))
    view = await h.bot.service.state(1)
    mover = h.members[view.waiting_for]
    other = bob if mover is alice else alice

    for member in (mover, other):
        shown = await h.command(member, "bg board", lobby)
        answer = shown.messages[-1]
        assert shown.private and answer.png is not None and answer.png.startswith(PNG_MAGIC)
        assert bool(answer.custom_ids) == (member is mover), "buttons only for the member who must act"
        assert board_view(view, member.id).viewer_name == view.names[view.side_of(member.id)]
    rules = await h.command(alice, "bg rules", thread)
    assert rules.private and "1-point match" in rules.text and "Crawford" in rules.text
    proof = await h.command(alice, "bg verify", thread)
    assert proof.private and "seed stays secret" in proof.text
    assert view.game.seed_hash in proof.text

    # the member with the dice resigns a backgammon (G12); the other accepts
    await h.command(mover, "bg resign", thread, level="backgammon")
    board = h.last(thread)
    await h.press(other, board, board.action_id("accept_resignation"))
    proof = await h.command(alice, "bg verify", thread, game=1, number=1)
    assert "the dice were fair" in proof.text
    exported = await h.command(bob, "bg export", thread)
    files = exported.messages[-1].files
    assert exported.private and len(files) == 1
    name, data = next(iter(files.items()))
    assert name.endswith(".mat")
    report = replay(parse_mat(data.decode("utf-8")))
    side = view.side_of(other.id)
    assert report.ok and report.winner == side and report.score[side] == 1
    assert report.games[0].result.kind == "backgammon" and report.games[0].result.ended_by == "resignation"
