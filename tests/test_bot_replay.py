"""``python bot.py replay FILE.mat --images DIR``: real match files played through the use-case layer (challenge,
accept, every roll, play, cube action, resignation and forfeit as a club call into SQLite), a board image after
every turn, each game's result and the final score — checked against the rules engine's own replay
(:mod:`backgammon.replay`) and the cases' ``expected.json`` (RULES M1, M3, G11, G12, D1–D3, A2/M5, A4).

The default run plays a sample of the 39 files covering every dialect and ending (forfeits of a game and of a match,
a file that ends mid-match, 1-point, gnubg and Gibbon exports); ``python -m pytest -m slow`` plays all 39."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bot as botmod
from backgammon.errors import RuleSetError
from backgammon.matfile import parse_mat
from backgammon.replay import replay
from club.export import export_mat
from club.matreplay import replay_match_file
from storage import Database
from tests.casekit import MATCHES, ROOT

ALL_FILES = sorted(path for path in MATCHES.iterdir() if path.name != "expected.json")
SAMPLE = [
    "galaxy_16pt_02.txt",  # a Galaxy forfeit ("Losses") before any play; the file ends mid-match
    "galaxy_5pt_03.txt",  # a forfeit of the match after one play
    "galaxy_3pt_01.txt",  # a forfeited game mid-match, then the Crawford game
    "galaxy_16pt_03.txt",  # a resignation; the file ends mid-match
    "fibs_1pt_01.txt",  # a 1-point match (no Crawford game, dead cube)
    "gnubgexport_7pt_01.mat",  # GNU Backgammon's own export
    "gibbon_7pt_01.mat",  # Gibbon's dialect
    "studio_3pt_01.txt",  # cube lines sharing rows, a drop and a take
]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


async def check_files(tmp_path: Path, names: list[str]) -> None:
    """Each file through the club equals the engine's replay: every game's winner, points, kind and ending, the
    final score and the match winner; every game ends as its declared result says (never an illegal move)."""
    async with Database.open(tmp_path / "replay.sqlite3") as database:
        for index, name in enumerate(names):
            record = parse_mat((MATCHES / name).read_text(encoding="utf-8", errors="replace"))
            engine = replay(record)
            assert engine.ok, name
            result = await replay_match_file(database, record, players=(10 + 2 * index, 11 + 2 * index))
            assert result.ok, (name, result.problems)
            derived = [g.result for g in engine.games if g.result is not None]
            assert [(g.winner, g.points, g.kind, g.ended_by) for g in result.games] == [
                (r.winner, r.points, r.kind, r.ended_by) for r in derived
            ], name
            assert result.score == engine.score and result.winner == engine.winner, name
            if record.length and engine.winner is None:
                assert result.notes and result.status == "active", "the file ends mid-match: the club goes on"


async def test_sample_of_match_files_through_the_club(tmp_path):
    """RULES M1, M3, G11, G12, D1–D3, A2/M5: the sample files play through the use-case layer with the engine's
    results."""
    await check_files(tmp_path, SAMPLE)


@pytest.mark.slow
async def test_all_39_match_files_through_the_club(tmp_path):
    """All 39 files of tests/cases/matches (about 30 s: 15,000 use-case calls into SQLite)."""
    assert len(ALL_FILES) == 39
    await check_files(tmp_path, [path.name for path in ALL_FILES])


def test_replay_command_writes_an_image_per_turn(tmp_path):
    """``python bot.py replay FILE FILE --images DIR``: exit 0, each game's result and the final score printed,
    one PNG per turn (every use-case call that changed the board) in DIR/<file stem>/."""
    files = [MATCHES / "galaxy_3pt_01.txt", MATCHES / "fibs_1pt_01.txt"]
    images = tmp_path / "images"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "replay", *map(str, files), "--images", str(images)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "2 of 2 files played through the club." in out
    for path in files:
        record = parse_mat(path.read_text(encoding="utf-8"))
        engine = replay(record)
        folder = images / path.stem
        pngs = sorted(folder.glob("*.png"))
        line = next(line for line in out.splitlines() if line.startswith("(") and str(folder) in line)
        written = int(line.split(" use-case calls, ")[1].split(" board images")[0])
        assert written == len(pngs) > 0
        assert all(png.read_bytes()[:8] == PNG_MAGIC for png in pngs[:: max(1, len(pngs) // 10)])
        plays = sum(1 for game in record.games for action in game.actions if action.kind == "play")
        assert len(pngs) >= plays, "at least one image per turn"
        names = record.players
        w = engine.winner
        assert f"Final score: {names[0]} {engine.score[0]} – {names[1]} {engine.score[1]}" in out
        assert f"won by {names[w]}" in out
        for game in engine.games:
            if game.result is not None:
                assert f"Game {game.number}: {names[game.result.winner]} wins {game.result.points} point" in out


def test_replay_command_reports_a_bad_file(tmp_path):
    """A file that is not a match file: the command says so and exits 1."""
    bad = tmp_path / "bad.mat"
    bad.write_text("this is not a match\n", encoding="utf-8")
    lines: list[str] = []
    import asyncio

    code = asyncio.run(botmod.replay_files([bad], images=None, database_path=None, settings=botmod.Settings(),
                                           out=lines.append))  # fmt: skip
    assert code == 1 and "cannot read it" in lines[0] and "0 of 1 file" in lines[-1]


async def test_export_of_a_replayed_match_round_trips(tmp_path):
    """RULES A4: a match played through the club exports (/bg export) to a .mat file that the engine replays to the
    same games and score as the original file."""
    async with Database.open(tmp_path / "replay.sqlite3") as database:
        for index, name in enumerate(["gnubgexport_7pt_01.mat", "galaxy_3pt_01.txt"]):
            record = parse_mat((MATCHES / name).read_text(encoding="utf-8"))
            result = await replay_match_file(database, record, players=(50 + 2 * index, 51 + 2 * index))
            from club import ClubService

            filename, text = await export_mat(ClubService(database), result.match_id)
            assert filename.endswith(".mat")
            again = replay(parse_mat(text))
            original = replay(record)
            assert again.ok and again.score == original.score and again.winner == original.winner
            assert [(g.result.winner, g.result.points) for g in again.games] == [
                (g.result.winner, g.result.points) for g in original.games if g.result is not None
            ]


MONEY = """ 0 point match

 Game 1
 Alice : 0                   Bob : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point

 Game 2
 Alice : 0                   Bob : 1
  1) 31: 8/5 6/5                  64: 24/18 13/9
  2)  Doubles => 2                Beavers => 4
  3)  Drops                       Wins 2 points

 Game 3
 Alice : 0                   Bob : 3
  1) 52: 13/8 13/11               Doubles => 2
  2)  Takes                       62: 24/18 13/11
  3)  Doubles => 4                Drops
  4)  Wins 2 points
"""


async def test_a_money_session_file_through_the_club_reads_running_totals_and_takes_the_options(tmp_path):
    """A money-session file's player lines are running totals of points won (0-1, 0-3), not the club's
    signed net score (−1/+1); the beaver (RULES D3) needs ``beavers=True`` as ``python -m backgammon replay
    --beavers`` does, and then the club's results equal the engine's replay with the same option."""
    record = parse_mat(MONEY)
    engine = replay(record, beavers=True)
    assert engine.ok and replay(record).first_illegal.game == 2
    async with Database.open(tmp_path / "money.sqlite3") as database:
        strict = await replay_match_file(database, record, players=(20, 21))
        assert not strict.ok and "game 2" in strict.problems[0] and "beaver" in strict.problems[0].lower()
        result = await replay_match_file(database, record, players=(22, 23), beavers=True)
    assert result.ok, result.problems
    derived = [(g.result.winner, g.result.points) for g in engine.games]
    assert [(g.winner, g.points) for g in result.games] == derived == [(1, 1), (1, 2), (0, 2)]
    assert result.score == engine.score == (-1, 1)


AUTOMATIC = """; [AutomaticRaises "1:1"]

 0 point match

 Game 1
 Alice : 0                   Bob : 0
  1) 31: 8/5 6/5                  Doubles => 4
  2)  Drops                       Wins 2 points
"""


async def test_automatic_doubles_option_rolls_the_recorded_opening_ties(tmp_path):
    """RULES G3: with ``automatic_doubles=1`` the file's recorded opening tie raises the cube to 2 before the
    opening roll (the club rolls the tie), so Bob's 'Doubles => 4' and Alice's drop cost 2, as the engine says; a
    money option on a match is refused."""
    record = parse_mat(AUTOMATIC)
    engine = replay(record, automatic_doubles=1)
    assert engine.ok and engine.games[0].result.points == 2
    async with Database.open(tmp_path / "auto.sqlite3") as database:
        result = await replay_match_file(database, record, players=(30, 31), automatic_doubles=1)
        assert result.ok, result.problems
        assert [(g.winner, g.points) for g in result.games] == [(1, 2)]
        with pytest.raises(RuleSetError):
            await replay_match_file(database, parse_mat(MATCHES.joinpath("fibs_1pt_01.txt").read_text()), jacoby=True)


def test_replay_command_takes_the_money_options(tmp_path):
    """``python bot.py replay FILE --beavers``: the money session plays through (exit 0); without it the beaver is
    refused (exit 1) — the options of ``python -m backgammon replay``."""
    path = tmp_path / "money.mat"
    path.write_text(MONEY, encoding="utf-8")

    def run(*args):
        return subprocess.run(
            [sys.executable, str(ROOT / "bot.py"), "replay", str(path), *args],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip

    assert run().returncode == 1
    done = run("--beavers")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 1 file played through the club." in done.stdout


async def test_a_nackgammon_file_through_the_club_and_its_export(tmp_path):
    """RULES G1: GNU Backgammon's Nackgammon file plays through the club from Nackgammon's set-up, to the engine's
    result, and the club's export says ``; [Variation "Nackgammon"]`` so that it replays the same again."""
    from club import ClubService
    from tests.casekit import CASES

    record = parse_mat((CASES / "interop" / "nackgammon.mat").read_text(encoding="utf-8"))
    engine = replay(record)
    async with Database.open(tmp_path / "nack.sqlite3") as database:
        result = await replay_match_file(database, record, players=(40, 41))
        assert result.ok, result.problems
        _, text = await export_mat(ClubService(database), result.match_id)
    assert [(g.winner, g.points, g.kind) for g in result.games] == [(0, 2, "gammon")]
    assert (result.winner, result.score) == (engine.winner, engine.score)
    assert '; [Variation "Nackgammon"]' in text
    again = replay(parse_mat(text))
    assert again.ok and again.rules.variant == "nackgammon" and again.score == engine.score


def test_replay_command_warns_about_a_second_match_in_the_file():
    """A file of two matches: ``bot.py replay`` plays the first and prints the warning naming the second."""
    import asyncio

    from tests.casekit import CASES

    lines: list[str] = []
    code = asyncio.run(botmod.replay_files([CASES / "interop" / "two_matches.mat"], images=None, database_path=None,
                                           settings=botmod.Settings(), out=lines.append))  # fmt: skip
    assert code == 0, lines
    assert any(line.startswith("two_matches.mat: warning: line 14: a second match starts here") for line in lines)
    assert "1 of 1 file played through the club." in lines
