"""Beavers and raccoons in ``.mat`` files, as GNU Backgammon 1.07 writes and reads them (RULES D3, A4), without
gnubg itself (``test_gnubg_interop.py`` runs the real program): our replay reads gnubg's own export as the games were
played, and our writer spells each beaver so that gnubg's reader cannot turn the cube once too often or carry a take
into the next game."""

from __future__ import annotations

import re

import pytest

from backgammon.matfile import BEAVER, DOUBLE, DROP, PLAY, RACCOON, TAKE, WIN, Action, format_mat, parse_mat
from backgammon.replay import replay
from backgammon.rules import RuleSet

MONEY = RuleSet.preset("money", jacoby=False, raccoons=True, automatic_doubles=0)

# A session played in GNU Backgammon 1.07 (set beavers 3; "beaver" twice is the raccoon) and written by its
# "export match mat" (names changed, trailing spaces dropped). Bruno's points: 4, 2, 8, 4; Alice's: 8, 2.
GNUBG_EXPORT = """\
 0 point match

 Game 1
 Alice : 0                      Bruno : 0
  1) 41: 13/9 24/23               Doubles => 2
  2)  Beavers => 4               21: 13/11 6/5
                                  Wins 4 points

 Game 2
 Alice : 0                      Bruno : 4
  1)                             65: 24/18 18/13
  2)  Doubles => 2                Beavers => 4
  3)  Drops                       Wins 2 points

 Game 3
 Alice : 0                      Bruno : 6
  1) 21: 13/11 6/5                Doubles => 2
  2)  Beavers => 4                Beavers => 8
  3)                             21: 13/11 6/5
                                  Wins 8 points

 Game 4
 Alice : 0                      Bruno : 14
  1) 63: 24/18 13/10              Doubles => 2
  2)  Beavers => 4                Beavers => 8
  3)  Drops                       Wins 4 points

 Game 5
 Alice : 0                      Bruno : 18
  1) 61: 13/7 8/7                 Doubles => 2
  2)  Beavers => 4
      Wins 8 points

 Game 6
 Alice : 8                      Bruno : 18
  1)                             53: 8/3 6/3
  2)  Doubles => 2                Takes
  3) 21: 13/11 6/5
      Wins 2 points
"""
PLAYED = [(1, 4, 4), (1, 2, 2), (1, 8, 8), (1, 4, 4), (0, 8, 4), (0, 2, 2)]  # winner, points, cube


def results(report):
    return [(g.result.winner, g.result.points, g.result.cube) for g in report.games]


def test_gnubgs_export_replays_as_played_the_takes_it_leaves_out_implied():
    """gnubg writes every immediate redouble ``Beavers => N`` (the raccoon of games 3 and 4 too) and leaves out the
    take that accepts it: the doubler's roll (games 1, 3) or the ``Wins`` line (game 5) implies it (RULES D3)."""
    report = replay(parse_mat(GNUBG_EXPORT), MONEY)
    assert report.ok and results(report) == PLAYED and report.discrepancies == []
    implied = [g.number for g in report.games if any("leaves the take" in note for note in g.notes)]
    assert implied == [1, 3, 5]
    assert [g.result.ended_by for g in report.games] == ["resignation", "drop", "resignation", "drop"] + [
        "resignation"
    ] * 2


def test_a_raccoon_spelled_beavers_needs_the_raccoon_option():
    """The second ``Beavers`` of a pending offer is the raccoon (RULES D3): refused where raccoons are not allowed."""
    report = replay(parse_mat(GNUBG_EXPORT), RuleSet.preset("money", jacoby=False, automatic_doubles=0))
    assert [g.number for g in report.games if g.illegal] == [3, 4]
    assert "raccoon" in report.first_illegal.reason.lower()


def test_our_rewrite_of_gnubgs_export_spells_each_beaver_as_gnubg_reads_it():
    """The beaver a roll follows keeps ``Beavers => 4`` without its take (gnubg's own form); a dropped beaver, and
    one answered by a ``Wins`` line, become ``Doubles => 4`` with the answer spelled out; the rewrite replays the
    same and is a fixed point."""
    text = format_mat(parse_mat(GNUBG_EXPORT))
    games = text.split(" Game ")[1:]
    assert re.search(r"Beavers => 4 +21: 13/11 6/5", games[0]) and "Takes" not in games[0]
    assert re.search(r"Doubles => 2 +Doubles => 4\n +3\)  Drops", games[1])
    assert re.search(r"Beavers => 4 +Beavers => 8\n +3\) +21:", games[2])  # the raccoon: the roll follows
    assert re.search(r"Beavers => 4 +Doubles => 8\n +3\)  Drops", games[3])
    assert re.search(r"Doubles => 4 +Takes\n +Wins 8 points", games[4])
    assert results(replay(parse_mat(text), MONEY)) == PLAYED
    assert format_mat(parse_mat(text)) == text


OPENING = " 0 point match\n\n Game 1\n Alice : 0                   Bruno : 0\n  1) 52: 13/11 13/8\n"


@pytest.mark.parametrize(
    "answer, written, result",
    [
        ((Action(0, 1, TAKE), Action(0, 1, PLAY, (2, 1), "13/11 6/5")), r"2\)  Beavers => 4 +21: 13/11 6/5", None),
        ((Action(0, 1, DROP), Action(0, 0, WIN, value=2)), r"2\)  Doubles => 4 +Drops", (0, 2, 2)),
        ((Action(0, 1, TAKE), Action(0, 0, WIN, value=8)), r"2\)  Doubles => 4 +Takes\n +Wins 8 points", (0, 8, 4)),
        (
            (Action(0, 1, RACCOON, value=8), Action(0, 0, DROP), Action(0, 1, WIN, value=4)),
            r"2\)  Beavers => 4 +Raccoons => 8\n +3\)  Drops",
            (1, 4, 4),
        ),
    ],
    ids=["taken-then-rolled", "dropped", "taken-then-resigned", "raccooned-and-dropped"],
)
def test_a_beaver_as_club_export_records_it_is_spelled_by_what_follows(answer, written, result):
    """A record as club/export builds it (every take present): Bruno doubles, Alice beavers, then ``answer``. The
    beaver's spelling follows what comes after it, and the file replays to the game's result."""
    record = parse_mat(OPENING)
    record.games[0].actions += [Action(0, 1, DOUBLE, value=2), Action(0, 0, BEAVER, value=4), *answer]
    text = format_mat(record)
    assert re.search(written, text), text
    report = replay(parse_mat(text), MONEY)
    assert report.ok and (results(report) == [result] if result else report.games[0].result is None)


def test_a_beavers_entry_with_no_double_to_answer_is_a_double_as_gnubg_reads_it():
    """GNU Backgammon reads ``Beavers`` as a turn of the cube: with no offer pending it is a double (RULES D1)."""
    text = (
        OPENING.replace("13/11 13/8", "13/11 13/8              Beavers => 2")
        + "  2)  Drops\n"
        + " " * 34
        + "Wins 1 point\n"
    )
    report = replay(parse_mat(text), MONEY)
    assert report.ok and results(report) == [(1, 1, 1)]
    assert [d.kind for d in report.discrepancies] == ["cube"]


def test_the_files_own_header_sets_the_money_options_when_none_are_given():
    """A money file that says ``; [Beaver "On"]`` (as our exports do) replays with beavers and raccoons without any
    option (RULES D3; a user exported a session with a beaver and could not replay it); without the header the same
    moves are refused as illegal beavers."""
    with_header = '; [Beaver "On"]\n; [Jacoby "Off"]\n; [AutomaticDoubles "0"]\n\n' + GNUBG_EXPORT
    report = replay(parse_mat(with_header))
    assert report.ok and results(report) == PLAYED
    assert not replay(parse_mat(GNUBG_EXPORT)).ok
