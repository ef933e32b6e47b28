"""Dice the bot cannot choose: every game's server seed is committed in public
before any client seed exists (game 1's in the challenge, game n+1's when game n starts), every player's client seed
enters the rolls (a changed one changes them), and a bot grinding thousands of seeds can no longer pick who wins
the opening."""

from __future__ import annotations

import random

import pytest

from club import InvalidRequestError
from club.commitments import CLIENT_SEED, logged_contributions
from club.dice import RECIPE_V3, derive_dice, derive_dice_v2, seed_hash, verify_rolls
from club.requests import Request
from club.verify import verify_database
from tests.clubkit import ALICE, BOB, GUILD, club_service, new_table, play_out, seeded

pytestmark = pytest.mark.backends  # and on PostgreSQL


def _first_seq(log, commitment):
    return min(a.seq for a in log if commitment in (a.args.get("seed_hash"), a.args.get("next_seed_hash")))


async def test_each_commitment_is_published_strictly_before_every_client_seed_of_its_game(tmp_path):
    async with club_service(tmp_path / "c.sqlite3", seeds=seeded(21)) as service:
        challenge = await service.challenge(GUILD, ALICE, BOB, length=5)
        log = await service.log(challenge.match_id)
        commitment = log[0].args["next_seed_hash"]
        assert commitment in challenge.message and not any(a.kind == CLIENT_SEED for a in log)
        service.clock.advance(5)
        await service.add_luck(challenge.match_id, ALICE, "alice's own words")  # the Add your luck button
        await service.set_preferences(BOB, seed="bob's standing phrase")
        accepted = await service.accept(challenge.match_id, BOB)
        final = await play_out(service, accepted, random.Random(4), cube=0.0)
        log = await service.log(challenge.match_id)
        games = {g.number: g for g in await service.db.games(challenge.match_id)}
        assert final.view.status == "over" and len(games) >= 2
        for number, game in games.items():
            published = _first_seq(log, game.seed_hash)
            seeds = [a for a in log if a.kind == CLIENT_SEED and a.args["game"] == number]
            assert {a.side for a in seeds} == ({0, 1} if number == 1 else {1}), f"game {number}: who added luck"
            # set after game 1's commitment, before the later ones': protection in game 1 only
            assert all(a.args["from_roll"] == 0 and a.args["protected"] == (number == 1) for a in seeds)
            assert all(a.seq > published for a in seeds), f"game {number}: a client seed before the commitment"
            starts = next(a for a in log if a.kind == "new_game" and a.args["number"] == number)
            assert starts.args["recipe"] == RECIPE_V3 and (number == 1 or published < starts.seq)
            assert all(a.seq < min(r.seq for r in log if r.game_number == number and r.dice is not None)
                       for a in seeds), "every client seed is fixed before the game's first roll"  # fmt: skip
            rolls = [(a.roll_index, a.dice) for a in log if a.game_number == number and a.dice is not None]
            clients = logged_contributions(log, number)
            assert verify_rolls(game.seed, game.seed_hash, rolls, recipe=RECIPE_V3, contributions=clients) == []
        assert all(r.ok for r in await verify_database(service.db))
        last = logged_contributions(log, max(games))
        assert "the client seeds —" in final.message
        seeds = [a for a in log if a.kind == CLIENT_SEED and a.args["game"] == max(games)]
        names = final.view.names
        # each named with his side, the value as plain text in typographic quotes, not a Python repr
        assert [a.args["seed"] for a in seeds] == [text for _, text in last]
        assert all(f"{names[a.side]} (side {a.side}): “{a.args['seed']}”" in final.message for a in seeds)
        assert not any(repr(text) in final.message for _, text in last)


async def test_a_changed_client_seed_changes_the_rolls(tmp_path):
    """The same server seeds and the same decisions; only Bob's phrase differs — the dice differ, from the opening
    roll on, and each log verifies with its own client seeds."""
    logs = []
    for index, luck in enumerate(("", "bob's luck")):
        async with club_service(tmp_path / f"{index}.sqlite3", seeds=seeded(8)) as service:
            challenge = await service.challenge(GUILD, ALICE, BOB, length=1)
            if luck:
                await service.add_luck(challenge.match_id, BOB, luck)
            request = Request(BOB, contribution="5551212")  # the accept's interaction id: not in the dice
            outcome = await service.accept(challenge.match_id, request)
            await play_out(service, outcome, random.Random(1), stop=lambda o: o.view.game_number > 1)
            logs.append(await service.log(challenge.match_id))
    first = [a.args["seed"] for a in logs[0] if a.kind == CLIENT_SEED and a.side == 1 and a.args["game"] == 1]
    second = [a.args["seed"] for a in logs[1] if a.kind == CLIENT_SEED and a.side == 1 and a.args["game"] == 1]
    assert first == [] and second == ["bob's luck"]
    commitments = [next(a.args["next_seed_hash"] for a in log if a.kind == "challenge") for log in logs]
    assert commitments[0] == commitments[1]  # the same server seed …
    dice = [[a.dice for a in log if a.dice is not None][:10] for log in logs]
    assert dice[0] != dice[1]  # … but other dice


def test_a_bot_grinding_seeds_no_longer_picks_who_starts():
    """The seed-grinding attack: for each of 300 games the bot tries 2,000 server seeds and commits to the one
    that gives side 0 the opening roll. With the v1 recipe (no client seeds) side 0 starts all 300 games; with v2
    the client seeds are fixed after the commitment, so the bot can only grind against a guess — side 0 starts
    about half of them (the binomial spread of a fair coin: 150 ± 8.7; 5 sigma allowed)."""
    rng = random.Random(12)

    def opener(roll) -> int | None:
        return None if roll[0] == roll[1] else (0 if roll[0] > roll[1] else 1)

    def opening(seed: bytes, clients=None) -> int:
        counter = 0
        roll = derive_dice if clients is None else (lambda s, n: derive_dice_v2(s, n, clients))
        while (side := opener(roll(seed, counter))) is None:
            counter += 1
        return side

    v1_starts = v2_starts = 0
    for _ in range(300):
        candidates = [rng.randbytes(32) for _ in range(2000)]
        v1 = next(s for s in candidates if opening(s) == 0)
        v1_starts += opening(v1) == 0
        guess = [(0, "a guess")]
        chosen = next(s for s in candidates if opening(s, guess) == 0)
        assert seed_hash(chosen)  # committed …
        clients = [(0, str(rng.getrandbits(63))), (0, str(rng.getrandbits(63)))]  # … then the players' values
        v2_starts += opening(chosen, clients) == 0
    assert v1_starts == 300
    assert abs(v2_starts - 150) < 5 * 8.7, v2_starts


async def test_discord_player_seed_is_the_client_seed_and_no_interaction_id_is(tmp_path):
    """Through the harness (the real bot, discord.py's parsing): ``/player seed`` sets Bob's phrase; the challenge
    message shows game 1's commitment; Bob's Accept click fixes his phrase as his luck — the click's interaction id,
    which he never sees, is not in the dice, nor is Alice's; the rolls follow from the logged values."""
    from tests.discordkit import Harness

    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        answer = await h.command(bob, "player seed", lobby, phrase="bob's lucky phrase")
        assert answer.private and "“bob's lucky phrase”" in answer.text, answer.text
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="1")
        challenge = h.last(lobby)
        service = h.bot.service
        log = await service.log(1)
        assert log[0].args["next_seed_hash"] in challenge.text
        accept = await h.press(bob, challenge, "Accept")
        thread = h.thread_of(challenge)
        view = await service.state(1)
        mover = alice if view.waiting_for == alice.id else bob
        plays = await service.legal_plays(1, mover.id)
        first = await h.command(mover, "bg move", thread, play=plays[0])
        log = await service.log(1)
        seeds = {a.side: a.args["seed"] for a in log if a.kind == CLIENT_SEED and a.args["game"] == 1}
        assert seeds == {1: "bob's lucky phrase"} and accept.record.id and first.record.id  # no click id in the dice
        game = await service.db.get_game(1, 1)
        rolls = [(a.roll_index, a.dice) for a in log if a.game_number == 1 and a.dice is not None]
        clients = logged_contributions(log, 1)
        assert [d for _, d in rolls] == [derive_dice_v2(bytes.fromhex(game.seed), i, clients) for i, _ in rolls]


async def test_console_seed_verb_sets_the_phrase(tmp_path):
    """The console's ``seed PHRASE`` is ``/player seed``: the phrase is the member's next client seed, alone (no
    value of the console line)."""
    from club import ClubService, ManualClock
    from console import Console, member_id
    from storage import Database

    async with Database.open(tmp_path / "c.sqlite3") as database:
        console = Console(ClubService(database, clock=ManualClock(), seeds=seeded(3)))
        await console.handle("as bob")
        reply = await console.handle("seed my console phrase")
        assert "“my console phrase”" in reply
        await console.handle("as alice")
        await console.handle("challenge bob 1")
        await console.handle("as bob")
        assert "Refused" not in await console.handle("accept")
        log = await console.service.log(1)
        mine = [a.args["seed"] for a in log if a.kind == CLIENT_SEED and a.side == 1]
        assert mine == ["my console phrase"]
        assert "Your dice phrase is cleared" in await console.handle("seed")
        bob = member_id("bob")
        with pytest.raises(InvalidRequestError, match="dice phrase"):
            await console.service.set_preferences(bob, seed="bad\x00phrase")
        assert (await console.service.preferences(bob)).seed == ""  # refused: nothing changed


async def test_a_chouette_commits_each_series_before_its_members_client_seeds(tmp_path):
    """Chouettes the same: the seat throws' series 0 and game 1 are committed in the ``open``,
    game n+1 when game n starts; every member with a standing phrase who acts adds it as his luck to each series
    waiting for its first roll, strictly after its commitment; the seat throws and every game roll follow from the
    server seed and that luck (``club verify``)."""
    from tests.chouette_clubkit import ANN, BOB, CY, DI, ED, chouettes, decide_randomly, seated

    async with chouettes(tmp_path / "ch.sqlite3") as service:
        for member in (ANN, BOB, CY, DI, ED):
            await service.club.set_preferences(member, seed=f"phrase of {member}")
        outcome = await seated(service)
        rng = random.Random(3)
        for _ in range(3000):
            if outcome.view.game_number >= 3 or not outcome.view.decisions:
                break
            outcome = await decide_randomly(service, outcome, rng, double=0.1)
        sid = outcome.session_id
        log = await service.store.actions(sid)
        dice = await service.store.dice(sid)
        assert log[0].args["recipe"] == RECIPE_V3 and log[0].args["next_seed_hash"] == dice[1].seed_hash
        members = {BOB, CY, DI, ED}  # the lobby's members who acted after the open (Ann opened it)
        for number, series in dice.items():
            published = _first_seq(log, series.seed_hash)
            seeds = [a for a in log if a.kind == CLIENT_SEED and a.args["game"] == number]
            assert all(a.seq > published for a in seeds), number
            if number in (0, 1):
                assert {a.member_id for a in seeds} == members, f"series {number}: every member's phrase is in"
        finished = [n for n, s in dice.items() if s.seed_revealed and n]
        assert finished, "a game ended"
        reports = await verify_database(service.club.db)
        assert all(r.ok for r in reports) and sum(r.proven_rolls for r in reports) > 30


async def test_a_restarted_seeded_console_never_deals_a_seed_committed_ahead(tmp_path):
    """``--seed``: a restarted console skips the seeds already committed, those committed ahead of a game not yet
    started included (game 1's in an open challenge), so two games never share a server seed."""
    from bot import reproducible, stored_commitments
    from club import ClubService, ManualClock
    from storage import Database

    async with Database.open(tmp_path / "c.sqlite3") as database:
        service = ClubService(database, clock=ManualClock(), **reproducible("demo"))
        for user, name in ((ALICE, "Alice"), (BOB, "Bob")):
            await service.register(GUILD, user, name)
        challenge = await service.challenge(GUILD, ALICE, BOB, length=1)
        ahead = (await service.log(challenge.match_id))[0].args["next_seed_hash"]
        used = await stored_commitments(database)
        assert ahead in used and None not in used
        restarted = reproducible("demo", used)["seeds"]
        assert seed_hash(restarted()) != ahead


async def test_the_club_rolling_in_a_members_name_contributes_nothing_of_his(tmp_path):
    """``roll_after`` ("roll for me when I do not double within N hours"): the club's roll in his name fixes no client
    seed of his — a value the bot made after the commitment is one it could have chosen."""
    from club.correspondence import roll_for_late_doublers
    from club.settings import HOUR

    async with club_service(tmp_path / "c.sqlite3", seeds=seeded(6)) as service:
        outcome = await new_table(service, 5)
        while outcome.view.pending != "roll_or_double":
            view = outcome.view
            outcome = await service.play(
                view.match_id, view.waiting_for, (await service.legal_plays(1, view.waiting_for))[0]
            )
        waiting = outcome.view.waiting_for
        await service.set_preferences(waiting, roll_after=1.0)
        before = [a for a in await service.log(1) if a.kind == CLIENT_SEED and a.member_id == waiting]
        deadline = await service.db.get_deadline(1)
        notices = await roll_for_late_doublers(service, deadline.set_at + HOUR + 1)
        assert [n.kind for n in notices] == ["auto_roll"]
        log = await service.log(1)
        assert any(a.kind == "roll" and a.member_id == waiting for a in log[-3:])
        assert [a for a in log if a.kind == CLIENT_SEED and a.member_id == waiting] == before


async def test_a_one_point_match_announces_no_game_2_commitment_and_still_verifies(tmp_path):
    """A 1-point match cannot have a game 2 (RULES M1): nothing commits to one, nor announces it; the finished match
    verifies (club verify, and tools/verify_dice.py on its .mat export)."""
    import subprocess
    import sys
    from pathlib import Path

    from club.export import export_mat

    async with club_service(tmp_path / "c.sqlite3", seeds=seeded(23)) as service:
        accepted = await new_table(service, 1)
        assert "Game 2" not in accepted.message
        final = await play_out(service, accepted, random.Random(5))
        assert final.view.status == "over"
        log = await service.log(accepted.view.match_id)
        starts = [a for a in log if a.kind == "new_game"]
        assert len(starts) == 1 and "next_seed_hash" not in starts[0].args and starts[0].args["seed_hash"]
        assert all(r.ok for r in await verify_database(service.db))
        _, text = await export_mat(service, accepted.view.match_id)
    (tmp_path / "m.mat").write_text(text)
    tool = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"
    run = subprocess.run([sys.executable, "-I", str(tool), str(tmp_path / "m.mat")], capture_output=True, text=True)
    assert run.returncode == 0 and "DiceGame1: ok" in run.stdout and "DiceGame2" not in run.stdout, run.stdout


async def test_discord_add_your_luck_button_opens_a_box_whose_words_join_the_next_games_dice(tmp_path):
    """Through the harness: the challenge carries *Add your luck*; Alice presses it, types her words in the box
    (a modal), and they are her client seed in game 1, protected (typed after the commitment); the board carries
    the button too: Bob's words there go into game 2."""
    from tests.discordkit import Harness

    async with Harness.start(tmp_path / "club.sqlite3") as h:
        alice, bob = h.member("Alice"), h.member("Bob")
        lobby = h.channel("lobby")
        await h.command(alice, "bg challenge", lobby, opponent=bob, length="3")
        challenge = h.last(lobby)
        h.clock.advance(20)  # she reads the commitment, then types
        shown = await h.press(alice, challenge, "Add your luck")
        submitted = await h.submit(alice, shown, "seven sevens for grandma")
        assert "Your luck is in" in submitted.text and submitted.private, submitted.text
        service = h.bot.service
        log = await service.log(1)
        (luck,) = [a for a in log if a.kind == CLIENT_SEED]
        assert (luck.side, luck.args["game"], luck.args["seed"], luck.args["protected"]) == (
            0, 1, "seven sevens for grandma", True)
        await h.press(bob, h.last(lobby), "Accept")
        thread = h.thread_of(challenge)
        board = h.last(thread)
        assert board.component("Add your luck")
        shown = await h.press(bob, board, "Add your luck")
        await h.submit(bob, shown, "bob's words")
        log = await service.log(1)
        assert [(a.side, a.args["game"]) for a in log if a.kind == CLIENT_SEED] == [(0, 1), (1, 2)]
        game = await service.db.get_game(1, 1)
        rolls = [(a.roll_index, a.dice) for a in log if a.game_number == 1 and a.dice is not None]
        clients = logged_contributions(log, 1)
        assert verify_rolls_v3(game.seed, rolls, clients)


def verify_rolls_v3(seed_hex: str, rolls, clients) -> bool:
    """Whether ``rolls`` are the v3 recipe's from ``seed_hex`` and the client seeds ``clients``."""
    from club.dice import derive

    return all(tuple(dice) == derive(RECIPE_V3, bytes.fromhex(seed_hex), i, clients) for i, dice in rolls)
