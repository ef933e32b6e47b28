"""club/ use-cases on real SQLite files: whole matches and money sessions, restarts mid-game, auto-play, queries.

Every game here is played through ``ClubService`` only (the calls the cogs make), with provably fair dice from
seeded seeds (reproducible) or injected dice where a test needs particular rolls. After each scenario the stored
log must rebuild the stored state exactly (club.verify).
"""

from __future__ import annotations

import random

import pytest

from backgammon.errors import CubeError, RuleSetError
from club import (
    ClubService,
    ClubSettings,
    GameFinishedError,
    InjectedDice,
    InvalidRequestError,
    ManualClock,
    NotYourTurnError,
    UnknownMemberError,
)
from club.commitments import logged_contributions
from club.dice import derive_dice_v2, seed_hash
from club.verify import verify_database
from storage import Database
from tests.clubkit import ALICE, BOB, CAROL, GUILD, club_service, decide, new_table, seeded

pytestmark = [pytest.mark.asyncio, pytest.mark.backends]


async def assert_sound(service):
    """Every stored match's log rebuilds its stored state; every fair roll is proven."""
    reports = await verify_database(service.db)
    assert reports and all(report.ok for report in reports), [r.problems for r in reports if not r.ok]
    return reports


async def test_whole_match_to_five_points_rules_m1_m3_a1(tmp_path):
    """A 5-point match played to the end through club/ (RULES M1); no one is asked to double in the Crawford game
    (M3); every game's seed is revealed at its end and proves every roll (A1); the log rebuilds the state."""
    rng = random.Random(8)  # a match of several games with these seeds and client seeds
    async with club_service(tmp_path / "club.sqlite", seeds=seeded(5)) as service:
        outcome = await new_table(service, 5)
        assert outcome.view.status == "active" and outcome.view.game_number == 1
        assert "Dice commitment" in outcome.message and outcome.image_due
        calls = 0
        while outcome.view.status == "active":
            view = outcome.view
            if view.game.crawford:
                assert view.pending != "roll_or_double" and "double" not in view.legal
            assert view.game.seed is None  # the seed stays secret while the game is played
            outcome = await decide(service, view, rng, cube=0.3)
            calls += 1
        view = outcome.view
        assert view.status == "over" and view.winner in (0, 1) and view.waiting_for is None
        assert view.score[view.winner] == 5 and view.score[1 - view.winner] < 5
        assert "wins the match" in outcome.message and outcome.revealed
        assert set(outcome.notify) <= {ALICE, BOB}
        assert view.game.seed is not None and seed_hash(bytes.fromhex(view.game.seed)) == view.game.seed_hash
        games = await service.db.games(view.match_id)
        assert len(games) == view.game_number >= 2
        assert all(game.status == "over" and game.seed_revealed for game in games)
        reports = await assert_sound(service)
        assert reports[0].proven_rolls >= calls // 3
        first = await service.game(view.match_id, 1)  # a past game, for review
        assert first.result is not None and first.seed == games[0].seed and first.phase == "over"


async def test_crawford_game_rolls_itself_then_post_crawford_cube_returns_m3(tmp_path):
    """2-point match: Bob doubles, Alice drops (0–1). Game 2 is the Crawford game: nobody may double, so with
    auto-roll on neither player is ever asked to roll (RULES M3, D1). If Alice wins it (1–1), game 3 is
    post-Crawford and the cube is back."""
    dice = InjectedDice([(6, 1)], fallback=b"crawford")
    async with club_service(tmp_path / "club.sqlite", dice=dice) as service:
        outcome = await new_table(service, 2)
        match_id = outcome.match_id
        # opening 6-1: Alice (side 0) moves first
        assert outcome.view.waiting_for == ALICE and outcome.view.pending == "play"
        outcome = await service.play(match_id, ALICE, "13/7 8/7")
        assert outcome.view.waiting_for == BOB and outcome.view.pending == "roll_or_double"
        outcome = await service.double(match_id, BOB)
        outcome = await service.drop(match_id, ALICE)
        assert outcome.view.score == (0, 1) and outcome.view.game_number == 2
        assert outcome.view.game.crawford
        rng = random.Random(2)
        asked_to_roll = 0
        while outcome.view.status == "active" and outcome.view.game.crawford:
            assert outcome.view.pending in ("play", "answer_resignation")
            asked_to_roll += outcome.view.pending in ("roll", "roll_or_double")
            outcome = await decide(service, outcome.view, rng)
        assert asked_to_roll == 0
        auto_rolls = [a for a in await service.log(match_id) if a.game_number == 2 and a.kind == "roll"]
        assert auto_rolls and all(a.auto for a in auto_rolls)
        if outcome.view.status == "active":  # 1-1: post-Crawford, the cube is alive again (M3)
            assert outcome.view.score == (1, 1) and not outcome.view.game.crawford
        await assert_sound(service)


async def test_money_session_beaver_raccoon_resignation_stake_and_stop_d3_g12(tmp_path):
    """Money session with beavers and raccoons (RULES D3): double 2, beaver 4, raccoon 8, take; a gammon
    resignation accepted scores 16 (G12, D6; Jacoby D4 does not apply to a turned cube); stop ends the session when
    the current game ends; running totals sum to zero."""
    dice = InjectedDice([(5, 2)], fallback=b"money")
    async with club_service(tmp_path / "club.sqlite", dice=dice) as service:
        challenge = await service.challenge(GUILD, ALICE, BOB, length=0, overrides={"raccoons": True}, stake=5)
        assert "money session" in challenge.message and "Stake: 5" in challenge.message
        outcome = await service.accept(challenge.match_id, BOB)
        match_id = outcome.match_id
        assert outcome.view.waiting_for == ALICE  # opening 5-2: Alice first
        outcome = await service.play(match_id, ALICE, "13/8 13/11")
        outcome = await service.double(match_id, BOB)
        assert outcome.view.pending == "answer_double" and "beaver" in outcome.view.legal
        assert "beaver" in outcome.view.pending_text
        outcome = await service.beaver(match_id, ALICE)
        assert outcome.view.waiting_for == BOB and outcome.view.pending == "answer_beaver"
        outcome = await service.raccoon(match_id, BOB)
        assert outcome.view.game.cube_offered == 8
        outcome = await service.take(match_id, ALICE)
        assert outcome.view.game.cube_value == 8 and outcome.view.game.cube_owner == 0
        # the doubler is on roll; Alice owns the cube, so Bob cannot double and is rolled for (auto-roll)
        assert outcome.view.waiting_for == BOB and outcome.view.pending == "play"
        assert "Bob rolls" in outcome.message and "auto-roll" in outcome.message
        outcome = await service.resign(match_id, BOB, 2)
        assert outcome.view.waiting_for == ALICE and outcome.view.pending == "answer_resignation"
        outcome = await service.accept_resignation(match_id, ALICE)
        assert outcome.view.score == (16, -16) and outcome.view.game_number == 2
        assert "16 points" in outcome.message
        idle = ALICE if outcome.view.waiting_for == BOB else BOB  # either player may stop, on turn or not
        outcome = await service.stop(match_id, idle)
        assert outcome.view.status == "active" and "ends when this game ends" in outcome.message
        rng = random.Random(7)
        while outcome.view.status == "active":
            outcome = await decide(service, outcome.view, rng, cube=0.2, resign=0.05)
        assert outcome.view.status == "over" and outcome.view.game_number == 2
        assert sum(outcome.view.score) == 0 and "session is over" in outcome.message
        history = await service.history(ALICE)
        assert history[0].match_id == match_id and history[0].outcome == f"{outcome.view.score[0]:+d}"
        assert history[0].stake == 5 and history[0].games == 2
        await assert_sound(service)


async def test_close_and_reopen_mid_game_then_finish(tmp_path):
    """The bot restarts between moves: close the database mid-game, reopen it with a new service, finish the match;
    nothing is lost and the log rebuilds the state."""
    path = tmp_path / "club.sqlite"
    rng = random.Random(11)
    seeds = seeded(11)
    async with club_service(path, seeds=seeds) as service:
        outcome = await new_table(service, 3)
        for _ in range(25):
            outcome = await decide(service, outcome.view, rng, cube=0.05)
        before = await service.state(outcome.match_id)
        assert before == outcome.view and before.status == "active"
    for _ in range(3):  # several restarts
        async with Database.open(path) as db:
            service = ClubService(db, clock=ManualClock(), seeds=seeds)
            view = await service.state(before.match_id)
            assert view == before
            outcome = None
            for _ in range(20):
                outcome = await decide(service, view, rng, cube=0.05)
                view = outcome.view
                if view.status != "active":
                    break
            before = view
    async with Database.open(path) as db:
        service = ClubService(db, clock=ManualClock(), seeds=seeds)
        view = await service.state(before.match_id)
        while view.status == "active":
            view = (await decide(service, view, rng, cube=0.05)).view
        assert view.status == "over"
        await assert_sound(service)


async def test_auto_roll_forced_play_and_no_legal_play_g7_g9_d1(tmp_path):
    """With auto-roll on (the default) nobody is asked to roll when he cannot double (RULES D1: the opponent owns
    the cube); a forced play is played for him (G7) and no legal play passes the turn with a message (G9). With
    auto-roll off, Bob is asked to roll."""
    rng = random.Random(3)
    async with club_service(tmp_path / "club.sqlite", seeds=seeded(3)) as service:
        outcome = await new_table(service, 0)
        match_id = outcome.match_id
        texts = []
        while outcome.view.game_number <= 12:
            view = outcome.view
            assert view.pending != "roll"  # cannot double → rolled automatically
            if view.pending == "play":
                assert len(await service.legal_plays(match_id, view.waiting_for)) >= 2  # forced plays are auto
            texts.append(outcome.message)
            outcome = await decide(service, view, rng, cube=0.3)
        log = await service.log(match_id)
        auto_rolls = [a for a in log if a.kind == "roll" and a.auto]
        forced = [a for a in log if a.kind == "play" and a.auto and a.args["moves"]]
        passes = [a for a in log if a.kind == "play" and not a.args["moves"]]
        assert auto_rolls and forced and passes
        assert all(a.auto for a in passes)
        text = "\n".join(texts)
        assert "auto-roll" in text and "the only legal play" in text and "no legal play: the turn passes" in text
        # auto-roll off: Bob is asked to roll when he cannot double
        await service.set_preferences(BOB, auto_roll=False)
        assert not (await service.preferences(BOB)).auto_roll
        asked = False
        for _ in range(400):
            view = outcome.view
            if view.waiting_for == BOB and view.pending == "roll":
                asked = True
                break
            outcome = await decide(service, view, rng, cube=0.5)
        assert asked
        await assert_sound(service)


async def test_queries_waiting_history_state_log_and_messages(tmp_path):
    """games waiting for a member, his history, a game's state, the log (who, what, dice, when), message ids."""
    clock = ManualClock(1_000_000)
    async with club_service(tmp_path / "club.sqlite", clock=clock, seeds=seeded(1)) as service:
        first = await new_table(service, 3, players=(ALICE, BOB))
        clock.advance(60)
        second = await service.challenge(GUILD, CAROL, ALICE, length=1)
        clock.advance(60)
        third = await service.challenge(GUILD, BOB, CAROL, length=0)
        waiting_alice = await service.waiting(ALICE)
        expected = {second.match_id} | ({first.match_id} if first.view.waiting_for == ALICE else set())
        assert {item.match_id for item in waiting_alice} == expected
        item = next(i for i in waiting_alice if i.match_id == second.match_id)
        assert item.opponent_name == "Carol" and item.pending == "answer_challenge" and item.length == 1
        assert item.pending_text == "accept or decline the challenge" and item.due_at > clock.now()
        assert [i.match_id for i in await service.waiting(CAROL)] == [third.match_id]
        assert await service.waiting(ALICE, guild_id=999) == []
        # decline and cancel show in the history
        await service.decline(second.match_id, ALICE)
        await service.cancel(third.match_id, BOB)
        history = await service.history(CAROL)
        assert [(h.match_id, h.outcome) for h in history] == [
            (third.match_id, "cancelled"),
            (second.match_id, "declined"),
        ]
        state = await service.state(first.match_id)
        assert state.version == first.version and state.names == ("Alice", "Bob") and state.length == 3
        log = await service.log(first.match_id)
        assert [a.kind for a in log[:3]] == ["challenge", "accept", "new_game"]  # no phrase, no luck: no client seed
        assert log[1].member_id == BOB and log[0].member_id == ALICE
        openings = [a for a in log if a.kind == "opening_roll"]
        game = await service.db.get_game(first.match_id, 1)
        clients = logged_contributions(log, 1)
        derived = [derive_dice_v2(bytes.fromhex(game.seed), i, clients) for i in range(len(openings))]
        assert clients == []
        assert [a.dice for a in openings] == derived
        assert all(a.at == log[0].at for a in log)  # the injected clock stamps every action
        message = await service.remember_message(first.match_id, 555, 777, game_number=1)
        assert message.purpose == "board" and await service.match_of_message(555, 777) == first.match_id
        assert [m.message_id for m in await service.messages(first.match_id)] == [777]
        assert await service.legal_plays(first.match_id, first.view.players[1 - first.view.game.turn]) == []


async def test_challenge_answers_and_rule_sets(tmp_path):
    """Decline, cancel, accept; a rule set must suit the length (RULES G3, M2, D3); bad challenges are refused."""
    async with club_service(tmp_path / "club.sqlite", seeds=seeded(2)) as service:
        with pytest.raises(RuleSetError):
            await service.challenge(GUILD, ALICE, BOB, length=5, rules="money")  # beavers/Jacoby in a match
        with pytest.raises(RuleSetError):
            await service.challenge(GUILD, ALICE, BOB, length=0, overrides={"no_such_option": True})
        with pytest.raises(InvalidRequestError):
            await service.challenge(GUILD, ALICE, ALICE, length=1)
        with pytest.raises(UnknownMemberError):
            await service.challenge(GUILD, ALICE, 4242, length=1)
        with pytest.raises(InvalidRequestError):
            await service.challenge(GUILD, ALICE, BOB, length=0, stake=-1)
        capped = await service.challenge(GUILD, ALICE, BOB, length=0, overrides={"cube_cap": 2})
        assert capped.view.rules["cube_cap"] == 2 and capped.view.kind == "money"
        assert capped.notify == (BOB,) and not capped.image_due
        with pytest.raises(NotYourTurnError):
            await service.accept(capped.match_id, ALICE)
        with pytest.raises(NotYourTurnError):
            await service.cancel(capped.match_id, BOB)
        declined = await service.decline(capped.match_id, BOB)
        assert declined.view.status == "declined" and declined.notify == (ALICE,)
        with pytest.raises(GameFinishedError, match="declined"):
            await service.accept(capped.match_id, BOB)
        match = await service.challenge(GUILD, ALICE, BOB, length=7)
        assert match.view.rules["name"] == "tournament"
        await service.configure_club(GUILD, match_rules="classic-1931", rule_overrides={"automatic_doubles": 0})
        other = await service.challenge(GUILD, ALICE, BOB, length=3)
        assert other.view.rules["name"] == "classic-1931" and other.view.rules["automatic_doubles"] == 0
        await assert_sound(service)


async def test_new_clubs_start_with_the_configured_defaults(tmp_path):
    """The bot's configuration gives the settings a new club starts with (RULES A2 time limits and policy)."""
    async with Database.open(tmp_path / "club.sqlite") as db:
        defaults = ClubSettings(move_time=7200, reminders=(600,), expiry_policy="forfeit_match")
        service = ClubService(db, clock=ManualClock(), defaults=defaults)
        assert await service.club_settings(77) == defaults
        await service.register(77, ALICE, "Alice")
        assert await service.club_settings(77) == defaults
        changed = await service.configure_club(77, expiry_policy="nothing")
        assert changed.move_time == 7200 and changed.expiry_policy == "nothing"
        assert await service.club_settings(77) == changed


async def test_cube_cap_and_owner_refusals_d1_d5(tmp_path):
    """A capped cube (RULES D5) and the owner rule (D1) refuse a double with a CubeError; the use-case never lets
    the player be asked to double when he cannot."""
    dice = InjectedDice([(4, 2), (3, 1)], fallback=b"cap")
    async with club_service(tmp_path / "club.sqlite", dice=dice) as service:
        await service.set_preferences(ALICE, auto_roll=False)
        await service.set_preferences(BOB, auto_roll=False)
        outcome = await new_table(service, 0, overrides={"cube_cap": 2, "beavers": False})
        match_id = outcome.match_id
        outcome = await service.play(match_id, ALICE, "8/4 6/4")
        outcome = await service.double(match_id, BOB)
        outcome = await service.take(match_id, ALICE)
        assert outcome.view.waiting_for == BOB and outcome.view.pending == "roll"
        with pytest.raises(CubeError):
            await service.double(match_id, BOB)  # Alice owns the cube (D1)
        outcome = await service.roll(match_id, BOB)
        assert outcome.view.game.dice == (3, 1) and outcome.view.pending == "play"
        outcome = await service.play(match_id, BOB, "8/5 6/5")
        assert outcome.view.waiting_for == ALICE and outcome.view.pending == "roll"  # at the cap (D5)
        with pytest.raises(CubeError, match="limited to 2"):
            await service.double(match_id, ALICE)
        await assert_sound(service)


async def test_injected_dice_are_used_and_marked(tmp_path):
    """Tests and replays may inject dice; such games say so and have no seed to prove (RULES A1)."""
    dice = InjectedDice([(3, 3), (2, 2), (6, 5), (4, 4)])
    async with club_service(tmp_path / "club.sqlite", dice=dice) as service:
        outcome = await new_table(service, 0, rules="money", overrides={"automatic_doubles": 2})
        # two opening ties raise the cube twice (RULES G3), then 6-5 for Alice
        assert outcome.view.game.cube_value == 4 and outcome.view.game.cube_owner is None
        assert outcome.view.game.dice == (6, 5) and outcome.view.waiting_for == ALICE
        assert outcome.message.count("a tie, roll again") == 2 and "automatic double" in outcome.message
        outcome = await service.play(outcome.match_id, ALICE, "24/13")
        outcome = await service.roll(outcome.match_id, BOB)
        assert outcome.view.game.dice == (4, 4) and dice.pending == 0
        game = await service.db.get_game(outcome.match_id, 1)
        assert game.dice == "injected" and game.seed is None and game.seed_hash is None
        reports = await assert_sound(service)
        assert reports[0].injected_games == 1 and reports[0].proven_rolls == 0


async def test_a_table_left_mid_way_by_the_club_is_finished_by_the_next_call(tmp_path):
    """If the club's own steps were cut short (a bound on automatic actions), the next player's call completes them
    first (here: the opening roll, RULES G2) and is then judged on the completed state."""
    from backgammon.moves import legal_plays
    from backgammon.position import Position

    path = tmp_path / "club.sqlite"
    async with club_service(path, seeds=seeded(12), max_auto_actions=1) as capped:
        challenge = await capped.challenge(GUILD, ALICE, BOB, length=3)
        outcome = await capped.accept(challenge.match_id, BOB)
        assert outcome.view.waiting_for is None and outcome.view.game.phase == "opening"
        game = await capped.db.get_game(outcome.match_id, 1)
        clients = logged_contributions(await capped.log(outcome.match_id), 1)  # Bob's, from his accept
    seed = bytes.fromhex(game.seed)
    rolls = (derive_dice_v2(seed, i, clients) for i in range(50))
    opening = next(roll for roll in rolls if len(set(roll)) == 2)
    first = ALICE if opening[0] > opening[1] else BOB
    play = legal_plays(Position.initial(), opening)[0].notation()
    async with Database.open(path) as db:
        service = ClubService(db, clock=ManualClock(), seeds=seeded(13))
        outcome = await service.play(outcome.match_id, first, play)
        assert "Opening roll" in outcome.message and f"plays {play}" in outcome.message
        assert outcome.view.waiting_for == (BOB if first == ALICE else ALICE)
        await assert_sound(service)


async def test_the_waiting_summary_names_the_answers_the_rules_allow_d3(tmp_path):
    """ "Waiting for you" says what the board says (RULES D3): "take, drop or beaver" where beavers are allowed, "take
    or drop" where not (a match, tournament rules)."""
    for length, words in ((0, "take, drop or beaver the double"), (5, "take or drop the double")):
        dice = InjectedDice([(5, 2)], fallback=b"wait")
        async with club_service(tmp_path / f"w{length}.sqlite", dice=dice) as service:
            challenge = await service.challenge(GUILD, ALICE, BOB, length=length)
            outcome = await service.accept(challenge.match_id, BOB)
            outcome = await service.play(outcome.match_id, ALICE, "13/8 13/11")
            outcome = await service.double(outcome.match_id, BOB)
            assert outcome.view.pending_text == words
            waiting = await service.waiting(ALICE)
            assert [item.pending_text for item in waiting] == [words]
