"""PRs kept per club: each finished rated match's PR per member written when its review is computed,
shown in the member's stats and on the ``pr`` leaderboard with the decisions behind it; practice games never."""

from __future__ import annotations

import random

import pytest

from club.analysis import engine_available
from club.records import ClubRecords
from club.records.texts import leaderboard_text, stats_text
from storage.prs import MatchPr, keep_match_prs, match_prs, pr_totals
from tests.clubkit import ALICE, BOB, CAROL, GUILD, club_service, new_table, play_out, seeded

pytestmark = pytest.mark.backends  # and on PostgreSQL

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")


def row(member: int, decisions: int, lost: float) -> MatchPr:
    pr = 500 * lost / decisions if decisions else None
    return MatchPr(member, decisions, lost, pr, 0, 0, 0, "Open Sage 2ply")


async def test_pr_leaderboard_orders_by_pr_over_all_decisions(tmp_path):
    """PR over several matches is 500 × Σ lost ÷ Σ decisions (not the mean of the matches' PRs); lowest first, a tie
    broken by more decisions; the decision and match counts shown; another club's rows not counted."""
    async with club_service(tmp_path / "club.db") as service:
        club = (await service.db.get_club(GUILD)).id
        matches = [(await new_table(service, 1, players=pair)).match_id for pair in ((ALICE, BOB), (BOB, CAROL))]
        matches.append((await new_table(service, 1, players=(ALICE, CAROL))).match_id)
        # Alice: 0.5 lost in 100 + 0.1 in 20 → 500 × 0.6 / 120 = 2.5 (her match PRs 2.5 and 2.5)
        await keep_match_prs(service.db, matches[0], club, 100.0, [row(ALICE, 100, 0.5), row(BOB, 90, 1.8)])
        # Bob: 1.8 in 90 and 0.2 in 10 → 500 × 2.0 / 100 = 10.0 (the mean of his PRs, 10 and 10, agrees here)
        # Carol: 0.2 in 40 and 0.125 in 10 → 500 × 0.325 / 50 = 3.25 (the mean of her PRs would be 4.375)
        await keep_match_prs(service.db, matches[1], club, 200.0, [row(BOB, 10, 0.2), row(CAROL, 40, 0.2)])
        await keep_match_prs(service.db, matches[2], club, 300.0, [row(ALICE, 20, 0.1), row(CAROL, 10, 0.125)])
        await keep_match_prs(service.db, matches[2], club, 300.0, [row(ALICE, 20, 0.1), row(CAROL, 10, 0.125)])
        await keep_match_prs(
            service.db, matches[0], club + 99, 100.0, [row(CAROL, 1000, 0.0)]
        )  # another club's: not here
        totals = await pr_totals(service.db, club)
        assert totals[CAROL].decisions == 50 and totals[CAROL].pr == pytest.approx(3.25)
        records = ClubRecords(service)
        board = await records.leaderboard(GUILD, "pr")
        assert [(r.rank, r.member, r.values) for r in board.rows] == [
            (1, ALICE, (2.5, 120, 2)),
            (2, CAROL, (3.25, 50, 2)),
            (3, BOB, (10.0, 100, 2)),
        ]
        text = leaderboard_text(board)
        assert "1. Alice — PR 2.50, decisions 120, matches 2" in text
        stats = await records.stats(GUILD, CAROL)
        assert stats.pr == pytest.approx(3.25) and stats.pr_decisions == 50 and stats.pr_matches == 2
        assert "PR (Open Sage): 3.25 over 50 decisions in 2 matches" in stats_text(stats)
        # the review computed again replaces its rows; a tie on PR (2.5): more decisions first
        await keep_match_prs(service.db, matches[1], club, 200.0, [row(BOB, 10, 0.2), row(CAROL, 190, 0.875)])
        board = await records.leaderboard(GUILD, "pr")  # Carol: 500 × 1.0 / 200 = 2.5
        assert [(r.rank, r.member, r.values) for r in board.rows] == [
            (1, CAROL, (2.5, 200, 2)),
            (2, ALICE, (2.5, 120, 2)),
            (3, BOB, (10.0, 100, 2)),
        ]


@needs_engine
async def test_review_keeps_prs_for_rated_matches_not_practice(tmp_path):
    from club.analysis.pool import AnalysisPool
    from club.analysis.review import review_match
    from club.practice import engine_turns, start_practice

    with AnalysisPool(1) as pool:
        await _review_keeps_prs(tmp_path, pool, review_match, engine_turns, start_practice)


async def _review_keeps_prs(tmp_path, pool, review_match, engine_turns, start_practice):
    from club.analysis.grade import MIN_DECISIONS

    # seeded dice: the same match every run (with secret dice, a short match could leave a side under the
    # ranking minimum, and the board would rightly leave him out)
    async with club_service(tmp_path / "club.db", seeds=seeded(11)) as service:
        records = ClubRecords(service)
        assert (await records.stats(GUILD, ALICE)).pr is None
        done = await play_out(service, await new_table(service, 1), random.Random(7))
        review = await review_match(service, done.match_id, pool=pool, level="1ply")  # quicker; same rows
        kept = {r.member_id: r for r in await match_prs(service.db, done.match_id)}
        for side, member in enumerate((ALICE, BOB)):
            player = review.analysis.players[side]
            assert kept[member].decisions == player.decisions > 0
            assert kept[member].equity_lost == pytest.approx(player.equity_lost)
        stats = await records.stats(GUILD, ALICE)
        assert stats.pr_decisions == kept[ALICE].decisions and stats.pr_matches == 1
        assert stats.pr == pytest.approx(500 * kept[ALICE].equity_lost / kept[ALICE].decisions)
        board = await records.leaderboard(GUILD, "pr")
        ranked = {m: kept[m].decisions for m in (ALICE, BOB) if kept[m].decisions >= MIN_DECISIONS}
        assert set(ranked) == {ALICE, BOB}  # this seed's match is long enough for both
        assert {r.member: r.values[1] for r in board.rows} == ranked
        # a practice match to its end, reviewed: nothing kept, the board unchanged
        outcome = await start_practice(service, GUILD, CAROL, 990_001, length=1, strength="advanced")
        view = outcome.view
        rng = random.Random(3)
        for _ in range(300):
            if view.status == "over":
                break
            if view.engine_to_act:
                view = (await engine_turns(service, view.match_id, pool))[-1].view
                continue
            if view.pending == "play":
                plays = await service.legal_plays(view.match_id, CAROL)
                view = (await service.play(view.match_id, CAROL, rng.choice(plays))).view
            elif view.pending in ("roll", "roll_or_double"):
                view = (await service.roll(view.match_id, CAROL)).view
            else:
                view = (await service.take(view.match_id, CAROL)).view
        assert view.status == "over"
        await review_match(service, view.match_id, pool=pool, level="1ply")
        assert await match_prs(service.db, view.match_id) == []
        assert await records.leaderboard(GUILD, "pr") == board
        assert (await records.stats(GUILD, CAROL)).pr is None


@pytest.mark.sqlite_only  # rewinds the SQLite file itself
async def test_a_version_5_file_gains_the_pr_table(tmp_path):
    import re
    import sqlite3

    from storage import SCHEMA_VERSION, Database
    from storage.migrations import MIGRATIONS

    path = tmp_path / "v5.sqlite3"
    async with Database.open(path):
        pass
    conn = sqlite3.connect(path)  # back to version 5: every table, index and column the later steps add, dropped
    for version, script in MIGRATIONS:
        if version > 5:
            for kind, name in re.findall(r"CREATE (TABLE|INDEX) (?:IF NOT EXISTS )?(\w+)", script):
                conn.execute(f"DROP {kind} IF EXISTS {name}")
            for table, column in re.findall(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", script):
                conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.executescript("PRAGMA user_version = 5;")
    conn.close()
    async with Database.open(path) as db:
        assert await db.user_version() == SCHEMA_VERSION >= 6
        assert await pr_totals(db, 1) == {}
        assert await db.integrity_check() == ["ok"]


async def test_pr_leaderboard_and_stats_in_discord(harness):
    h = harness
    alice, bob = h.member("Alice"), h.member("Bob")
    games = h.channel()
    await h.command(alice, "bg challenge", games, opponent=bob, length="1")
    await h.press(bob, h.last(games), "Accept")
    service = h.bot.service
    club = (await service.db.get_club(h.world.guild_id)).id
    await keep_match_prs(service.db, 1, club, 100.0, [row(alice.id, 80, 0.4), row(bob.id, 70, 0.7)])
    answer = await h.command(alice, "club leaderboard", games, kind="pr")
    shown = answer.text + "".join(m.text for m in answer.messages)
    assert answer.private and "Error rate (PR" in shown, shown
    stats = await h.command(alice, "club stats", games)
    assert "PR (Open Sage): 2.50 over 80 decisions in 1 match " in stats.text, stats.text
