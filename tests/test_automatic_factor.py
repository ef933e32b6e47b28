"""Automatic doubles that add one (RULES G3, 000 §20b) kept as a factor beside a power-of-two cube (RULES D6), through
the club: in the stored state, on the board image, in the exported ``.mat`` file (re-imported to the same results)
and on the ledger's score sheet."""

from __future__ import annotations

import pytest

from backgammon.matfile import parse_mat
from backgammon.replay import replay
from backgammon.rules import RuleSet
from club import InjectedDice, ManualClock
from club.boards import board_view, render_table
from club.export import export_mat
from club.records import ClubRecords
from rendering.board import render_board
from rendering.view import BoardView
from tests.clubkit import ALICE, BOB, GUILD, club_service, new_table

pytestmark = pytest.mark.backends

T0 = 1_709_510_400.0
ADD = {"automatic_doubles": 3, "automatic_doubles_kind": "add", "jacoby": False, "beavers": False}


async def test_three_ties_make_a_factor_of_four_beside_a_cube_of_one_through_the_club(tmp_path):
    """Three opening ties under 'add one': the cube stays 1 (a power of two) with the factor 4 beside it, the board
    draws it (``×4``), Bob's double turns the cube to 2 (the count 8) and Alice's drop costs 4 (the count before
    the double); the export records the kind and the ties, and the re-import scores the game the same; the ledger's
    sheet notes the factor beside the cube."""
    dice = InjectedDice([(3, 3), (5, 5), (1, 1), (5, 2)], fallback=b"factor")
    async with club_service(tmp_path / "factor.sqlite3", clock=ManualClock(T0), dice=dice) as service:
        outcome = await new_table(service, 0, rules="money", overrides=ADD)
        match_id = outcome.match_id
        game = outcome.view.game
        assert (game.cube_value, game.cube_factor) == (1, 4)
        view = board_view(outcome.view, ALICE)
        assert (view.cube_value, view.cube_factor) == (1, 4)
        plain = render_board(BoardView(position=view.position, cube_value=1))
        assert render_table(outcome.view, ALICE) != render_table(outcome.view, BOB) != plain
        await service.play(match_id, ALICE, "13/11 13/8")
        outcome = await service.double(match_id, BOB)
        assert outcome.view.game.cube_offered == 2
        outcome = await service.drop(match_id, ALICE)
        stored = [(g.result["winner"], g.result["points"], g.result["cube"], g.result.get("factor"))
                  for g in await service.db.games(match_id) if g.result]  # fmt: skip
        assert stored == [(1, 4, 1, 4)]
        _name, text = await export_mat(service, match_id)
        rules = RuleSet.from_json((await service.db.get_match(match_id)).rules)
        sheet = await ClubRecords(service).sheet(GUILD, f"money:{match_id}")
    assert '; [AutomaticDoublesKind "add"]' in text and '; [AutomaticRaises "1:3' in text
    assert "Doubles => 2" in text  # the cube's face, a power of two gnubg reads
    record = parse_mat(text)
    for report in (replay(record, rules), replay(record)):  # the file's own header gives the kind and the limit
        assert report.ok and (report.games[0].result.winner, report.games[0].result.points) == (1, 4)
        assert report.games[0].result.factor == 4
    assert "cube 1 ×4" in sheet.rows[0].note


def test_the_board_draws_every_legal_count():
    """RULES D6: with the factor beside the cube every count an add-one rule set can reach is drawable: faces 1–64
    (a centred cube at 1 shows 64, so it looks as a centred 64) times factors 1–16 all render, and a factor changes
    the picture."""
    from backgammon.position import Position

    images = set()
    for face in (1, 2, 4, 64):
        for factor in (1, 2, 3, 4, 7, 16):
            images.add(render_board(BoardView(position=Position.initial(), cube_value=face, cube_factor=factor)))
    assert len(images) == 4 * 6 - 1  # face 1 and face 64, both centred without a factor, both show '64'


async def test_the_factor_is_shown_on_the_console_board_and_the_discord_embed(tmp_path):
    """RULES D6: the console's text board shows the add-one factor beside the cube (``cube 1 ×4 (automatic doubles)``)
    and a pending double as ``doubles to 2 ×4 (…)``; through the real bot the board's embed footer says it too."""
    from console.games import ascii_table
    from tests.discordkit import GUILD as DISCORD_GUILD
    from tests.discordkit import Harness

    dice = InjectedDice([(3, 3), (5, 5), (1, 1), (5, 2)], fallback=b"factor")
    async with club_service(tmp_path / "factor.sqlite3", clock=ManualClock(T0), dice=dice) as service:
        outcome = await new_table(service, 0, rules="money", overrides=ADD)
        board = ascii_table(outcome.view, ALICE)
        assert "cube 1 ×4 (automatic doubles) centred" in board
        await service.play(outcome.match_id, ALICE, "13/11 13/8")
        offered = await service.double(outcome.match_id, BOB)
        assert "doubles to 2 ×4 (automatic doubles)" in ascii_table(offered.view, ALICE)
    plain = InjectedDice([(5, 2)], fallback=b"plain")
    async with club_service(tmp_path / "plain.sqlite3", clock=ManualClock(T0), dice=plain) as service:
        outcome = await new_table(service, 0, rules="money", overrides={**ADD, "automatic_doubles": 0})
        assert "cube 1 (centred)" in ascii_table(outcome.view, ALICE) and "×" not in ascii_table(outcome.view, ALICE)

    dice = InjectedDice([(3, 3), (5, 5), (1, 1), (5, 2)], fallback=b"factor-bot")
    async with Harness.start(tmp_path / "club.sqlite3", dice=dice) as h:
        await h.bot.service.configure_club(DISCORD_GUILD, rule_overrides=ADD)
        alice, bob = h.member("Alice"), h.member("Bob")
        games = h.channel()
        await h.command(alice, "bg challenge", games, opponent=bob, length="money", rules="money")
        await h.press(bob, h.last(games), "Accept")
        view = await h.bot.service.state(1)
        assert (view.game.cube_value, view.game.cube_factor) == (1, 4)
        thread = h.thread_of(h.messages(games)[0])
        footers = [m.embed.get("footer", {}).get("text", "") for m in h.messages(thread) if m.embed]
        footers += [m.embed.get("footer", {}).get("text", "") for m in h.messages(games) if m.embed]
        assert any("cube 1 ×4 (automatic doubles)" in text for text in footers), footers


def test_the_chouette_panels_show_each_cubes_factor():
    """RULES D6 in a chouette (003 Atlanta 5.1 with 000 §20b's add-one): two opening ties raise every cube's factor to
    3 beside a face of 1; the console's and Discord's seat panels show ``cube 1 ×3 (automatic doubles: 3 points)``."""
    from backgammon.chouette import ChouetteRules
    from club.chouette.views import ChouetteView
    from cogs.chouette_present import seats_text as discord_seats
    from console.chouettes import seats_text as console_seats
    from tests.chouette_clubkit import ANN, BOB, CY, NAMES, seated_table

    rules = ChouetteRules.preset("chouette-atlanta", automatic_doubles=2, automatic_doubles_kind="add")
    table = seated_table(rules, [ANN, BOB, CY], [(6, 6), (6, 5), (5, 5)])
    table.apply("start_game", None, {"number": 1, "dice": "injected", "seed_hash": None})
    for dice in ([4, 4], [2, 2], [2, 1]):
        table.apply("opening_roll", None, {"dice": dice})
    view = ChouetteView.of(1, table, version=1, names=NAMES, decisions=())
    cubes = [cube for cube in view.cubes if not cube.extra]
    assert cubes and all((cube.count, cube.factor, cube.value) == (1, 3, 3) for cube in cubes)
    for text in (console_seats(view), discord_seats(view)):
        assert text.count("cube 1 ×3 (automatic doubles: 3 points) centred") == len(cubes), text
