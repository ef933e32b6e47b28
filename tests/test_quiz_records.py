"""The club quizzes' records (storage/quizzes.py, schema version 11) on SQLite and PostgreSQL: a quiz open until
its reveal, one reveal only, the answers kept for the leaderboard, and only finished matches offered."""

from __future__ import annotations

import random

import pytest

from storage import quizzes
from tests.clubkit import ALICE, BOB, CAROL, club_service, new_table, play_out, seeded

pytestmark = pytest.mark.backends  # and on PostgreSQL


async def test_a_quiz_is_open_until_one_reveal_and_its_answers_make_the_leaderboard(tmp_path):
    async with club_service(tmp_path / "club.sqlite3", seeds=seeded(2)) as service:
        finished = await play_out(service, await new_table(service, 1), random.Random(1))
        playing = await new_table(service, 1, players=(ALICE, CAROL))
        db, club = service.db, finished.view.club_id
        assert await quizzes.finished_matches(db, club) == [finished.match_id]  # never the one being played
        assert await quizzes.finished_matches(db, club, member=CAROL) == []
        assert playing.view.status == "active"
        question = {"match_id": finished.match_id, "game": 1, "index": 7, "number": 1}
        quiz = await quizzes.add_quiz(db, club, 555, question, 100.0, 200.0)
        assert await quizzes.open_quizzes(db) == []  # not posted yet
        await quizzes.set_quiz_message(db, quiz, 9_000_000_000_000_000_001)
        [record] = await quizzes.open_quizzes(db, message_id=9_000_000_000_000_000_001)
        assert (record.id, record.channel_id, record.question, record.closes_at) == (quiz, 555, question, 200.0)
        assert await quizzes.used_decisions(db, club) == {(finished.match_id, 1, 7)}
        assert await quizzes.last_quiz_at(db, club) == 100.0 and await quizzes.quiz_count(db, club) == 1
        assert await quizzes.reveal_quiz(db, quiz, club, [(ALICE, True), (BOB, False)]) is True
        assert await quizzes.reveal_quiz(db, quiz, club, [(BOB, True)]) is False  # once only: nothing written
        assert await quizzes.open_quizzes(db) == []
        scores = await quizzes.quiz_scores(db, club)
        assert [(s.member_id, s.answered, s.correct) for s in scores] == [(ALICE, 1, 1), (BOB, 1, 0)]
        dropped = await quizzes.add_quiz(db, club, 555, {**question, "index": 9}, 300.0, 400.0)
        await quizzes.drop_quiz(db, dropped)
        assert await quizzes.quiz_count(db, club) == 1


async def test_finished_games_screens_are_kept_and_replaced(tmp_path):
    async with club_service(tmp_path / "club.sqlite3", seeds=seeded(3)) as service:
        finished = await play_out(service, await new_table(service, 1), random.Random(2))
        db, match = service.db, finished.match_id
        assert await quizzes.kept_screens(db, [match]) == {}
        await quizzes.keep_screens(db, [((match, 1, 40), [(0.5, 7, 0), (0.125, 9, 1)]), ((match, 2, 12), [])])
        assert await quizzes.kept_screens(db, [match, match + 1]) == {
            (match, 1, 40): [(0.5, 7, 0), (0.125, 9, 1)], (match, 2, 12): []
        }  # fmt: skip
        await quizzes.keep_screens(db, [((match, 1, 44), [(0.25, 41, 1)])])  # the game screened again: replaced
        assert (await quizzes.kept_screens(db, [match]))[(match, 1, 44)] == [(0.25, 41, 1)]
        assert (match, 1, 40) not in await quizzes.kept_screens(db, [match])
        await quizzes.keep_screens(db, [])
        assert await quizzes.forget_screens(db) == 2 and await quizzes.kept_screens(db, [match]) == {}
