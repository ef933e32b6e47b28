"""Replaying real match files through the game state machine (RULES G2–G12, D1–D4, M1–M5, A4).

Every game of the 39 files of ``tests/cases/matches`` is replayed move by move; each game's result is derived
from the play and compared with GNU Backgammon's reading (``expected.json``). The 39 files are replayed once per
test session (a module fixture), which keeps the suite fast.
"""

from __future__ import annotations

import json
import re

import gnubg_nn
import pytest

from backgammon.errors import RuleSetError
from backgammon.matfile import FORFEIT, PLAY, parse_mat
from backgammon.notation import parse_play
from backgammon.position import Position
from backgammon.replay import replay
from backgammon.rules import RuleSet
from tests.casekit import MATCHES

FILES = sorted(p.name for p in MATCHES.iterdir() if p.suffix in (".txt", ".mat"))
EXPECTED = json.loads((MATCHES / "expected.json").read_text(encoding="utf-8"))
WITHOUT_FORFEITS = [name for name in FILES if "Losses" not in (MATCHES / name).read_text(encoding="utf-8")]


def text_of(name: str) -> str:
    return (MATCHES / name).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def reports():
    """Every file parsed and replayed once."""
    return {name: replay(parse_mat(text_of(name))) for name in FILES}


def _has_forfeit(record, number: int) -> bool:
    game = next(g for g in record.games if g.number == number)
    return any(a.kind == FORFEIT for a in game.actions)


@pytest.mark.parametrize("name", FILES)
def test_every_file_replays_and_agrees_with_gnubg_per_game(reports, name):
    """Each game's winner, points and ending agree with GNU Backgammon wherever it resolved the game.

    gnubg reports the raw value (cube × 1/2/3) as we do. Galaxy's ``Losses N point`` is a forfeit that gnubg does not
    read (it takes the ``Wins`` line for a resignation, valued by its text): for those games the winner must agree,
    and ours is a forfeit valued per RULES G11 at the cube (A2/M5).
    """
    report = reports[name]
    expected = EXPECTED[name]
    names = expected["players"]
    assert report.ok, report.first_illegal
    assert len(report.games) == len(expected["games"])
    for game, exp in zip(report.games, expected["games"], strict=True):
        assert game.result is not None, f"game {game.number} has no result: {game.notes}"
        forfeit = _has_forfeit(report.record, game.number)
        if forfeit:
            assert game.result.ended_by == "forfeit"
        if exp["winner"] is None:
            assert forfeit  # gnubg left only the Galaxy forfeits unresolved
            continue
        assert names[game.result.winner] == exp["winner"], f"game {game.number}"
        if forfeit:
            continue
        assert game.result.points == exp["points"], f"game {game.number}"
        ours = "play or drop" if game.result.ended_by in ("play", "drop") else "resignation"
        assert ours == exp["ended_by"], f"game {game.number}"
        if "crawford" in exp:
            assert game.crawford == exp["crawford"], f"game {game.number}"


@pytest.mark.parametrize("name", WITHOUT_FORFEITS)
def test_final_score_matches_gnubgs_raw_and_capped_score(reports, name):
    """RULES M1: the match score is capped at the length (the raw total kept), as gnubg's "5-1 (raw 6-1)".
    (Files with a Galaxy forfeit are left out: gnubg does not read 'Losses'; they are compared per game above.)"""
    report = reports[name]
    expected = EXPECTED[name]
    found = re.match(r"(\d+)-(\d+)(?: \(raw (\d+)-(\d+)\))?", expected["gnubg_final_score"])
    capped = (int(found.group(1)), int(found.group(2)))
    raw = (int(found.group(3)), int(found.group(4))) if found.group(3) else capped
    assert report.score == capped and report.raw_score == raw
    if max(capped) >= report.record.length:
        assert report.winner == (0 if capped[0] >= report.record.length else 1)
    else:
        assert report.winner is None
        assert any(d.kind == "match" for d in report.discrepancies)


def test_capped_and_inflated_wins_texts_are_discrepancies(reports):
    """The file's 'Wins N' never decides the points: a capped final game and an absurd total are both reported."""
    capped = reports["galaxy_1pt_01.txt"]
    assert capped.games[0].result.points == 3 and capped.games[0].result.kind == "backgammon"
    assert any(d.kind == "points" and d.game == 1 for d in capped.discrepancies)
    absurd = reports["studio_3pt_01.txt"]
    game = absurd.games[1]
    assert game.declared_points == 4016 and game.result.points == 12  # backgammon resigned at cube 4 (G12, D6)
    assert any(d.kind == "points" and "4016" in d.message for d in absurd.discrepancies)
    honest = reports["fibs_25pt_01.txt"]
    assert not [d for d in honest.discrepancies if d.kind == "points"]


def test_gammon_by_play_beats_the_files_single(reports):
    """galaxy_16pt_03: the text says 'Wins 1 point' but the loser has borne off none: a gammon (RULES G11)."""
    game = reports["galaxy_16pt_03.txt"].games[0]
    assert (game.result.kind, game.result.points, game.result.ended_by) == ("gammon", 2, "play")
    assert game.board.off_opponent == 15 and game.board.off_player == 0


def test_rolled_then_resigned_is_not_an_illegal_move(reports):
    """FIBS '63:' with no move, then the opponent's 'Wins': the player rolled and resigned (G12), as gnubg reads it."""
    for name, number in [("fibs_5pt_01.txt", 5), ("fibs_7pt_01.txt", 3), ("studio_3pt_01.txt", 2)]:
        game = next(g for g in reports[name].games if g.number == number)
        assert game.result.ended_by == "resignation"
        assert any("then resigned" in note for note in game.notes)


def test_galaxy_forfeits(reports):
    """Galaxy 'Losses N point' is a forfeit (RULES A2): winner per the file; 'and the match' forfeits the match (M5)."""
    whole = reports["galaxy_5pt_03.txt"]
    assert whole.games[0].result.ended_by == "forfeit" and whole.winner == 0
    assert whole.games[0].result.points == 1  # Galaxy scores a forfeited game single (forfeit_valuation='single')
    single = reports["galaxy_16pt_02.txt"]
    assert single.games[0].result.winner == 1 and single.winner is None  # no "and the match": the match goes on
    assert single.games[0].result.points == 1  # the file's own "Wins 1 point" now agrees
    assert not [d for d in single.discrepancies if "Wins 1 point" in str(d)]
    margin = reports["galaxy_3pt_01.txt"].games[2]
    assert margin.result.winner == 0 and margin.result.ended_by == "forfeit"


def test_the_move_gnubg_calls_invalid_is_legal():
    """galaxy_3pt_01 game 3, move 33, Bruno '64: 25/21 25/19': gnubg 1.07 warns "Invalid move", but in the replayed
    position Bruno has two checkers on the bar and both entry points are open, so it is legal (RULES G6): it is
    among gnubg_nn's own legal plays for that position."""
    text = text_of("galaxy_3pt_01.txt")
    record = parse_mat(text)
    game = record.games[2]
    index = next(i for i, a in enumerate(game.actions) if a.kind == PLAY and a.text == "25/21 25/19")
    target = game.actions[index]
    assert (target.number, target.side, target.line) == (33, 1, 77)
    game.actions[index:] = []
    before = replay(record).games[2]
    assert before.illegal is None and before.result is None
    bruno = before.board.swap()
    assert bruno.player[24] == 2
    play = parse_play(bruno, target.dice, target.text)
    keys = gnubg_nn.moves(bruno.to_gnubg(), *target.dice)
    assert play.position in {Position.from_gnubg(gnubg_nn.board_from_position_key(k)) for k in keys}


def test_an_illegal_move_names_game_move_and_reason():
    """RULES G6 (bar first): replace Bruno's entry by a move from the 13-point; the replay names game 3, move 33,
    the side and the line, with the IllegalPlayError message listing the legal plays (G10)."""
    text = text_of("galaxy_3pt_01.txt").replace("64: 25/21 25/19", "64: 25/21 13/7")
    report = replay(parse_mat(text))
    first = report.first_illegal
    assert (first.game, first.move, first.side, first.line) == (3, 33, 1, 77)
    assert first.text == "64: 25/21 13/7" and "legal plays" in first.reason and "bar/21 bar/19" in first.reason
    game = report.games[2]
    assert game.illegal is first and game.result is None and not report.ok
    assert "Bruno" in first.describe(report.record.players)


def test_later_games_continue_from_the_files_score_after_an_illegal_move():
    """A game stopped by an illegal move has no result; the next game starts from the score the file states."""
    text = text_of("gibbon_7pt_01.mat").replace("6/2 4/2", "6/1 4/2", 1)  # game 2, move 13 (Bruno, 42)
    report = replay(parse_mat(text))
    first = report.first_illegal
    assert (first.game, first.move, first.side) == (2, 13, 1)
    assert report.games[1].result is None
    expected = EXPECTED["gibbon_7pt_01.mat"]["games"]
    for game, exp in list(zip(report.games, expected, strict=True))[2:]:
        assert ["Alice", "Bruno"][game.result.winner] == exp["winner"] and game.result.points == exp["points"]
    assert any(d.kind == "score" and d.game == 3 for d in report.discrepancies)
    assert report.score == (7, 5)


def test_an_empty_move_when_moves_are_possible_is_illegal():
    """RULES G7: 'Cannot Move' is only right when no move is possible. Without the 'Wins' after it, FIBS's
    '63:' (rolled, then resigned) is an illegal empty play."""
    text = text_of("fibs_5pt_01.txt").replace("Wins 100 points", "")
    report = replay(parse_mat(text))
    first = report.first_illegal
    assert (first.game, first.move, first.side) == (5, 32, 0)
    assert "a move must be played with 6-3" in first.reason


def test_replay_never_raises_for_a_messy_file():
    """Plays after the end of a game, a Drops without a double, a game after the match: reported, never raised."""
    text = (
        " 1 point match\n\n Game 1\n Alice : 0   Bruno : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2)  Drops\n"
        "      Wins 1 point\n\n Game 2\n Alice : 1   Bruno : 0\n  1) 31: 8/5 6/5\n"
    )
    report = replay(parse_mat(text))
    assert report.first_illegal.move == 2 and "not now" in report.first_illegal.reason
    assert report.games[1].skipped
    assert any(d.kind == "extra" for d in report.discrepancies)


# -- rule options (money sessions only) -------------------------------------------------------------------------------
def _money_game(name: str, number: int) -> str:
    """One game of a match file turned into a money session (the header '0 point match', scores 0-0)."""
    record_text = text_of(name)
    start = record_text.index(f" Game {number}")
    body = record_text[start:].split("\n Game ")[0]
    lines = body.split("\n")
    lines[1] = " Alice : 0                       Bruno : 0"
    return " 0 point match\n\n" + "\n".join(lines) + "\n"


def test_jacoby_counts_an_uncubed_gammon_single():
    """RULES D4: with the Jacoby rule an uncubed gammon counts one point; without it two."""
    text = _money_game("galaxy_16pt_03.txt", 1)
    plain = replay(parse_mat(text))
    jacoby = replay(parse_mat(text), jacoby=True)
    assert plain.games[0].result.points == 2 and jacoby.games[0].result.points == 1
    assert jacoby.rules.jacoby and not plain.rules.jacoby


def test_jacoby_beavers_and_automatic_doubles_are_refused_in_a_match():
    record = parse_mat(text_of("galaxy_16pt_03.txt"))
    for options in ({"jacoby": True}, {"beavers": True}, {"automatic_doubles": 1}):
        with pytest.raises(RuleSetError):
            replay(record, **options)
    with pytest.raises(RuleSetError):
        replay(record, RuleSet.preset("money"))


def test_automatic_doubles_are_inferred_from_the_first_double():
    """RULES G3: ties are not written in .mat files; a first 'Doubles => 4' means one automatic double before it."""
    text = (
        _money_game("gibbon_7pt_01.mat", 2)
        .replace("Doubles => 2", "Doubles => 4")
        .replace("Doubles => 4                Drops", "Doubles => 8                Drops")
    )
    auto = replay(parse_mat(text), automatic_doubles=1)
    game = auto.games[0]
    assert auto.ok and game.result.points == 4 and game.result.cube == 4
    assert any("opening tie" in note for note in game.notes)
    plain = replay(parse_mat(text))
    assert plain.games[0].result.points == 2 and any(d.kind == "cube" for d in plain.discrepancies)


def test_beavers_need_the_option():
    """RULES D3: 'Beavers => 4' replays only when beavers are allowed (money play)."""
    text = _money_game("gibbon_7pt_01.mat", 2).replace(
        " 13)  Takes                      42: 6/2 4/2",
        " 13)  Beavers => 4                Takes\n 14)                             42: 6/2 4/2",
    )
    assert "Beavers" in text
    with_beavers = replay(parse_mat(text), beavers=True)
    assert with_beavers.ok and with_beavers.games[0].result.cube == 4
    without = replay(parse_mat(text))
    assert without.first_illegal.move == 13 and "beaver" in without.first_illegal.reason.lower()
