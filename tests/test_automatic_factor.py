"""Automatic doubles that add one (RULES G3, 000 §20b) kept as a factor beside a power-of-two cube (RULES D6), through
the club: in the stored state, on the board image, in the exported ``.mat`` file (re-imported to the same results)
and on the ledger's score sheet (issue 16)."""

from __future__ import annotations

from clubkit import ALICE, BOB, GUILD, club_service, new_table

from backgammon.matfile import parse_mat
from backgammon.replay import replay
from backgammon.rules import RuleSet
from club import InjectedDice, ManualClock
from club.boards import board_view, render_table
from club.export import export_mat
from club.records import ClubRecords
from rendering.board import render_board
from rendering.view import BoardView

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
