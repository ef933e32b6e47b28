"""Exports of the club's books (RULES A3, A4): CSV that the csv module reads back into the same sheet and ledger,
a ZIP whose .mat files re-import (parse + replay) to the stored results, and the PNG pictures."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import random
import re
import zipfile
from contextlib import asynccontextmanager

import pytest
from PIL import Image

from backgammon.matfile import format_mat, parse_mat
from backgammon.replay import replay
from backgammon.rules import RuleSet
from club import InjectedDice, ManualClock, csvexport
from club.__main__ import main as club_main
from club.export import export_mat, mat_text
from club.records import ClubRecords, export_books, pictures
from rendering.records import Cell, Column, RecordTable, RecordTableError, render_record_table
from storage import OperationFailedError
from storage.books import SheetEntry
from storage.filesnapshot import FileSnapshot
from tests.bookkit import store_table
from tests.clubkit import ALICE, BOB, CAROL, GUILD, club_service, new_table, play_out, seeded

pytestmark = pytest.mark.backends

T0 = 1_709_510_400.0


def read_csv(text: str) -> list[list[str]]:
    """Rows of a CSV text, read with the csv module."""
    return list(csv.reader(io.StringIO(text, newline="")))


@asynccontextmanager
async def played_club(path):
    """Alice v Bob: a money session at 3 a point stopped after game 3; Bob v Carol: a 3-point match. Real play
    through the use-cases (random legal decisions, provably fair dice from a fixed seed source). Yields the
    service and the ids of the session and the match."""
    clock = ManualClock(T0)
    rng = random.Random(5)
    async with club_service(path, clock=clock, seeds=seeded(3)) as service:
        outcome = await new_table(service, 0, stake=3)
        outcome = await play_out(service, outcome, rng, stop=lambda o: o.view.game_number >= 3)
        outcome = await play_out(service, await service.stop(outcome.match_id, outcome.view.waiting_for), rng)
        clock.advance(3600)
        match = await play_out(service, await new_table(service, 3, players=(BOB, CAROL)), rng, resign=0.02)
        yield service, outcome.match_id, match.match_id


async def test_csv_parses_with_the_csv_module_and_matches_the_sheet_and_ledger(tmp_path):
    async with played_club(tmp_path / "csv.sqlite3") as (service, money_id, _):
        records = ClubRecords(service)
        await service.register(GUILD, 77, "=HYPERLINK(evil), Jr.")
        await records.correct(GUILD, 99, ALICE, 77, points=1, money=3, reason='-said "oops", then left',
                              session=f"money:{money_id}")  # fmt: skip
        sheet = await records.sheet(GUILD, f"money:{money_id}")
        rows = read_csv(csvexport.sheet_csv(sheet))
        header, body, total = rows[0], rows[1:-1], rows[-1]
        assert header == ["game", "ended_utc", "Alice", "Bob", "'=HYPERLINK(evil), Jr.", "Alice money", "Bob money",
                          "'=HYPERLINK(evil), Jr. money", "note"]  # fmt: skip
        assert len(body) == len(sheet.rows) == sheet.games + 1
        for row, line in zip(sheet.rows, body, strict=True):
            assert line[0] == row.label
            cells = [int(cell) if cell else None for cell in line[2:8]]
            assert cells[:3] == [row.points.get(m) for m in sheet.members]
            assert cells[3:] == [row.money.get(m) for m in sheet.members]
            assert sum(value for value in cells[:3] if value is not None) == 0
        assert body[-1][-1] == '\'-said "oops", then left'
        assert [int(value) for value in total[2:8]] == [
            *sheet.totals("points").values(),
            *sheet.totals("money").values(),
        ]
        ledger = await records.ledger(GUILD, "all")
        rows = read_csv(csvexport.ledger_csv(ledger))
        assert rows[0][:2] == ["member_id", "member"] and len(rows) == len(ledger.lines) + 1
        by_id = {int(row[0]): row for row in rows[1:]}
        for line in ledger.lines:
            assert int(by_id[line.member][rows[0].index("money")]) == line.money
            assert int(by_id[line.member][rows[0].index("points")]) == line.total_points
        for column in ("money_points", "match_points", "correction_points", "points", "money"):
            assert sum(int(row[rows[0].index(column)]) for row in rows[1:]) == 0


async def test_export_zip_holds_the_books_and_mat_files_that_reimport_to_the_same_results(tmp_path):
    async with played_club(tmp_path / "export.sqlite3") as (service, money_id, match_id):
        records = ClubRecords(service)
        club_id = (await service.db.get_club(GUILD)).id
        unfinished = await store_table(service.db, club_id, (ALICE, CAROL), [(0, 1, T0 + 7200)], length=5, over=False)
        export = await export_books(records, GUILD, "all")
        archive = zipfile.ZipFile(io.BytesIO(export.data))
        names = set(archive.namelist())
        assert {"README.txt", "ledger.csv", "corrections.csv", f"sheets/money-{money_id}.csv",
                f"sheets/match-{match_id}.csv", f"sheets/match-{unfinished}.csv"} <= names  # fmt: skip
        mats = sorted(name for name in names if name.endswith(".mat"))
        assert len(mats) == 2 and export.left_out == 0  # the unfinished match has a sheet but no .mat
        for name in mats:
            table_id = int(re.match(r"mat/match(\d+)_", name).group(1))
            record = await service.db.get_match(table_id)  # replayed under the rule set it was played with
            report = replay(parse_mat(archive.read(name).decode("utf-8")), RuleSet.from_json(record.rules))
            stored = [game.result for game in await service.db.games(table_id) if game.result is not None]
            assert report.ok and [(g.result.winner, g.result.points) for g in report.games] == [
                (r["winner"], r["points"]) for r in stored
            ]
            if record.kind == "match":
                assert report.winner == record.winner and report.score == (record.score0, record.score1)
        sheet = await records.sheet(GUILD, f"money:{money_id}")
        assert archive.read(f"sheets/money-{money_id}.csv").decode() == csvexport.sheet_csv(sheet)
        assert "every column sums to zero" in archive.read("README.txt").decode()
        limited = await export_books(records, GUILD, "all", max_mat=1)
        assert limited.left_out == 1 and sum(n.endswith(".mat") for n in limited.names) == 1
        # a table whose log cannot be replayed (written here without its challenge) is reported, not fatal
        broken = await store_table(service.db, club_id, (ALICE, CAROL), [(1, 1, T0 + 9000)], length=1)
        export = await export_books(records, GUILD, "all")
        assert [match for match, _ in export.failed] == [broken] and len(export.names) == len(names) + 1
        readme = zipfile.ZipFile(io.BytesIO(export.data)).read("README.txt").decode()
        assert f"match {broken} could not be written" in readme and "2 match files" in readme


async def test_pictures_of_ledger_sheet_leaderboard_and_settle_up_are_pngs(tmp_path):
    async with club_service(tmp_path / "pictures.sqlite3", clock=ManualClock(T0)) as service:
        records = ClubRecords(service)
        club_id = (await service.db.get_club(GUILD)).id
        money_id = await store_table(service.db, club_id, (ALICE, BOB), [(0, 2, T0), (1, 4, T0 + 60)], stake=3)
        await store_table(service.db, club_id, (BOB, CAROL), [(0, 3, T0 + 120)], length=3)
        await service.register(GUILD, 78, "Zoë 李小龍 🎲")
        await records.correct(GUILD, 99, BOB, 78, points=2, money=6, reason="fix")
        tables = [
            pictures.ledger_table(await records.ledger(GUILD, "all")),
            pictures.sheet_table(await records.sheet(GUILD, f"money:{money_id}")),
            pictures.leaderboard_table(await records.leaderboard(GUILD, "matches")),
            pictures.leaderboard_table(await records.leaderboard(GUILD, "chouette")),
            pictures.settlement_table(await records.settle(GUILD, "all")),
        ]
        assert tables[0].rows[-1][0] == "total" and "Zoë 李小龍 🎲" in [row[0] for row in tables[0].rows]
        assert [cell.text for cell in tables[1].rows[-1][1:3]] == ["−6", "+6"]  # Alice's and Bob's money
        assert tables[3].footer == ("Nobody on this board yet.",)
        # Alice −6, Bob +6 − 6 (the correction), Zoë +6: one payment
        assert [(row[0], row[2], row[3].text) for row in tables[4].rows] == [("Alice", "Zoë 李小龍 🎲", "6")]
        for table in tables:
            png = await pictures.png_async(table)
            image = Image.open(io.BytesIO(png))
            assert image.format == "PNG" and 400 <= image.width <= 1400 and image.height >= 100


def test_record_table_rendering_refuses_malformed_tables_and_keeps_long_ones_bounded():
    import pytest

    with pytest.raises(RecordTableError, match="row 0 has 1 cells for 2 columns"):
        render_record_table(RecordTable("t", (Column("a"), Column("b")), (("x",),)))
    with pytest.raises(RecordTableError, match="unknown tone"):
        render_record_table(RecordTable("t", (Column("a"),), ((Cell("x", "loud"),),)))
    long = RecordTable(
        "Long", (Column("name", "left"), Column("n")), tuple((f"member {i} " * 20, str(i)) for i in range(90))
    )
    image = Image.open(io.BytesIO(render_record_table(long, max_width=600)))
    assert image.width == 600 and image.height < 60 * 33 + 300  # 60 rows drawn, the rest counted in the footer


def test_sheet_entries_of_a_chouette_round_trip_through_csv():
    """A chouette sheet with a member who joined late: his empty cells stay empty in the CSV."""
    from club.records.periods import SessionRef
    from club.records.sheets import build_sheet

    entries = [SheetEntry(1, T0, 1, 2, 2), SheetEntry(1, T0, 2, -1, -1), SheetEntry(1, T0, 3, -1, -1),
               SheetEntry(2, T0 + 60, 1, -3, -3), SheetEntry(2, T0 + 60, 2, 1, 1), SheetEntry(2, T0 + 60, 3, 1, 1),
               SheetEntry(2, T0 + 60, 4, 1, 1)]  # fmt: skip
    sheet = build_sheet(SessionRef("chouette", 4), "Chouette 4", entries, [], {1: "A", 2: "B", 3: "C", 4: "D"})
    rows = read_csv(csvexport.sheet_csv(sheet))
    assert rows[0][:6] == ["game", "ended_utc", "A", "B", "C", "D"]
    assert rows[1][2:6] == ["2", "-1", "-1", ""] and rows[2][2:6] == ["-3", "1", "1", "1"]
    assert rows[-1][2:6] == ["-1", "0", "0", "1"]


async def test_a_money_session_with_opening_ties_reimports_to_the_same_results(tmp_path):
    """RULES G3, A4: the ``money`` preset (automatic doubles, limit 1), every game opening with a tie (cube 2).
    Game 1: Bob resigns at once, Alice +2; game 2: Bob doubles to 4, Alice drops, Bob +2; game 3 (the session is
    stopped) is played out without a double and ends by the bear-off. The exported file records the raises
    (``AutomaticRaises``) and replays to the stored results and score; without that line (another program's file)
    the replay still infers the tie from the double of game 2, and misreads the games that end without one."""
    dice = InjectedDice([(3, 3), (5, 2), (4, 4), (6, 1), (2, 2), (6, 1)], fallback=b"ties")
    async with club_service(tmp_path / "ties.sqlite3", clock=ManualClock(T0), dice=dice) as service:
        outcome = await new_table(service, 0, rules="money")
        match_id = outcome.match_id
        assert outcome.view.game.cube_value == 2 and outcome.view.waiting_for == ALICE
        await service.play(match_id, ALICE, "13/11 13/8")
        await service.resign(match_id, BOB, 1)
        outcome = await service.accept_resignation(match_id, ALICE)
        assert outcome.view.game_number == 2 and outcome.view.game.cube_value == 2
        await service.play(match_id, ALICE, "13/7 8/7")
        await service.double(match_id, BOB)
        outcome = await service.drop(match_id, ALICE)
        assert outcome.view.game_number == 3 and outcome.view.game.cube_value == 2
        outcome = await service.stop(match_id, outcome.view.waiting_for)
        outcome = await play_out(service, outcome, random.Random(11), cube=0.0)
        assert outcome.view.status == "over"
        _name, text = await export_mat(service, match_id)
        rules = RuleSet.from_json((await service.db.get_match(match_id)).rules)
        stored = [(g.result["winner"], g.result["points"]) for g in await service.db.games(match_id) if g.result]
    assert stored[:2] == [(0, 2), (1, 2)] and len(stored) == 3 and stored[2][1] % 2 == 0
    record = parse_mat(text)
    assert [game.automatic_raises for game in record.games] == [1, 1, 1] and "AutomaticRaises" not in record.header
    assert '; [AutomaticRaises "1:1 2:1 3:1"]' in text and format_mat(record) == text  # a rewrite keeps the line
    report = replay(record, rules)
    assert report.ok and [(g.result.winner, g.result.points) for g in report.games] == stored
    assert [g.result.ended_by for g in report.games] == ["resignation", "drop", "play"]
    assert report.raw_score == tuple(sum(p for w, p in stored if w == side) for side in (0, 1))
    assert "1 opening tie(s) recorded in the file (RULES G3)" in report.games[0].notes
    # a file without the line: the tie is inferred from game 2's double only
    old = replay(parse_mat(re.sub(r"; \[AutomaticRaises [^\n]*\n", "", text)), rules)
    assert all(game.automatic_raises is None for game in old.record.games)
    assert (old.games[1].result.winner, old.games[1].result.points) == stored[1]
    assert "1 opening tie(s) inferred from the first double (RULES G3)" in old.games[1].notes
    assert [(g.result.winner, g.result.points) for g in (old.games[0], old.games[2])] == [
        (w, p // 2) for w, p in (stored[0], stored[2])
    ]


async def test_a_finished_tables_match_file_is_kept_when_it_ends_and_read_back_without_a_replay(tmp_path, monkeypatch):
    """Exports at 50,000 games: when a table ends, its match file is made (the log replayed in a worker
    thread) and kept at the table's version — before any export; exports read the kept file — the same text as a
    replay of the log — without reading the log again; a table still being played is not kept (its log grows)."""
    async with played_club(tmp_path / "kept.sqlite3") as (service, money_id, match_id):
        for table_id in (money_id, match_id):
            kept = await service.db._fetchone("SELECT version, name, text FROM mat_files WHERE match_id = ?",
                                              (table_id,))  # fmt: skip
            view = await service.state(table_id)
            assert kept is not None and kept[0] == view.version and kept[1].startswith(f"match{table_id}_")
            replayed = mat_text(await service.log(table_id), view.names, table_id, await service.db.games(table_id))
            assert kept[2] == replayed
        first = await export_mat(service, match_id)
        assert first == (kept[1], kept[2])

        async def no_log(_match_id):
            raise AssertionError("the log was read again")

        monkeypatch.setattr(service, "log", no_log)
        assert await export_mat(service, match_id) == first
        books = await export_books(ClubRecords(service), GUILD, "all")
        assert zipfile.ZipFile(books.file).read(f"mat/{first[0]}").decode() == first[1]
        monkeypatch.undo()
        outcome = await new_table(service, 5, players=(ALICE, CAROL))
        await export_mat(service, outcome.match_id)
        assert await service.db._fetchone("SELECT 1 FROM mat_files WHERE match_id = ?", (outcome.match_id,)) is None


async def forget_mat_files(db) -> None:
    """Make ``db`` look like a database from before the match files were kept."""
    async with db.transaction() as tx:
        await tx.execute("DELETE FROM mat_files")


@pytest.mark.sqlite_only
async def test_tables_without_a_kept_file_still_export_and_upgrade_keeps_their_files(tmp_path, monkeypatch):
    """An older database has finished tables with no kept match file: the export replays each once (and keeps it),
    and ``python -m club upgrade`` keeps the files of all of them, so that the next export reads only kept files."""
    path = tmp_path / "older.sqlite3"
    async with played_club(path) as (service, money_id, match_id):
        expected = {table_id: await export_mat(service, table_id) for table_id in (money_id, match_id)}
        await forget_mat_files(service.db)
        books = await export_books(ClubRecords(service), GUILD, "all")
        archive = zipfile.ZipFile(io.BytesIO(books.data))
        assert {archive.read(f"mat/{name}").decode() for name, _ in expected.values()} == {
            text for _, text in expected.values()
        }
        assert (await service.db._fetchone("SELECT count(*) FROM mat_files"))[0] == 2  # kept by the export
        await forget_mat_files(service.db)
    assert await asyncio.to_thread(club_main, ["upgrade", str(path)]) == 0
    async with club_service(path) as service:
        rows = await service.db._fetchall("SELECT match_id, name, text FROM mat_files ORDER BY match_id")
        assert [(row[0], (row[1], row[2])) for row in rows] == sorted(expected.items())

        async def no_log(_match_id):
            raise AssertionError("the log was read again")

        monkeypatch.setattr(service, "log", no_log)
        books = await export_books(ClubRecords(service), GUILD, "all")
        assert sum(name.endswith(".mat") for name in books.names) == 2 and books.failed == ()


async def test_a_long_tables_file_is_made_in_the_background_and_drain_waits_for_it(tmp_path, monkeypatch):
    """A table that ends with a long log (over ``KEEP_INLINE`` actions) does not make its last action wait for the
    replay: the file is made in the background, and ``drain`` waits for it; it is the replay's text."""
    import club.service

    monkeypatch.setattr(club.service, "KEEP_INLINE", 0)
    async with club_service(tmp_path / "long.sqlite3", clock=ManualClock(T0), seeds=seeded(6)) as service:
        outcome = await play_out(service, await new_table(service, 1, players=(BOB, CAROL)), random.Random(4))
        assert outcome.view.status == "over"
        await service.drain()
        kept = await service.db._fetchone("SELECT version, text FROM mat_files WHERE match_id = ?",
                                          (outcome.match_id,))  # fmt: skip
        view = await service.state(outcome.match_id)
        log = await service.log(outcome.match_id)
        assert kept is not None and kept[0] == view.version
        assert kept[1] == mat_text(log, view.names, outcome.match_id, await service.db.games(outcome.match_id))


async def test_an_export_holds_every_sheet_or_says_what_it_left_out(tmp_path):
    """The all-time export has no silent cap: every session of the period has its sheet (a ZIP capped at N sheets or
    N match files says in README.txt how many of which it left out and why)."""
    async with played_club(tmp_path / "capped.sqlite3") as (service, money_id, match_id):
        records = ClubRecords(service)
        club_id = (await service.db.get_club(GUILD)).id
        more = [await store_table(service.db, club_id, (ALICE, CAROL), [(0, 1, T0 + 7200 + 60 * n)]) for n in range(3)]
        export = await export_books(records, GUILD, "all")
        sheets = sorted(name for name in export.names if name.startswith("sheets/"))
        assert len(sheets) == 5 and export.left_out == 0 and export.sheets_left_out == 0
        readme = zipfile.ZipFile(io.BytesIO(export.data)).read("README.txt").decode()
        assert "5 score sheets" in readme and "left out" not in readme
        capped = await export_books(records, GUILD, "all", max_sheets=2, max_mat=1)
        assert capped.sheets_left_out == 3 and capped.left_out == 4
        assert sorted(n for n in capped.names if n.startswith("sheets/")) == [f"sheets/money-{m}.csv" for m in more[1:]]
        readme = zipfile.ZipFile(io.BytesIO(capped.data)).read("README.txt").decode()
        assert "2 score sheets" in readme and "3 older sessions' score sheets left out" in readme
        assert "4 older finished tables left out" in readme


async def test_a_table_whose_file_is_not_kept_when_the_worker_reads_is_named_in_the_readme(tmp_path, monkeypatch):
    """A finished table found without its kept match file by the export's writer (it ended during the export: its file
    is made as it ends) is left out and named, with the reason, in README.txt and ``failed`` — never silently. The
    ZIP is handed back as an open file already gone from the disk."""
    from club.records import bundle

    async with played_club(tmp_path / "ending.sqlite3") as (service, money_id, match_id):
        await forget_mat_files(service.db)

        async def none_made(*_args):
            return ()

        monkeypatch.setattr(bundle, "_make_missing_mats", none_made)
        export = await export_books(ClubRecords(service), GUILD, "all")
        assert sorted(export.failed) == sorted([(money_id, bundle.NOT_KEPT), (match_id, bundle.NOT_KEPT)])
        assert not any(name.endswith(".mat") for name in export.names) and export.left_out == 0
        readme = zipfile.ZipFile(io.BytesIO(export.data)).read("README.txt").decode()
        assert f"(match {match_id} could not be written: {bundle.NOT_KEPT})" in readme and "0 match files" in readme
        assert not os.path.exists(export.file.name)
        export.file.close()


@pytest.mark.sqlite_only
async def test_the_export_workers_snapshot_of_the_file_sees_one_moment_and_writes_nothing(tmp_path):
    """The worker process reads the SQLite file itself (storage.filesnapshot.FileSnapshot): every read sees the moment
    it opened the file, whatever the bot commits meanwhile, and it cannot write."""
    async with club_service(tmp_path / "snapshot.sqlite3") as service:
        await service.register(GUILD, 77, "Before")
        with FileSnapshot(service.db.path) as snapshot:
            await service.register(GUILD, 78, "After")
            assert set(await snapshot.get_members([77, 78])) == {77}
            with pytest.raises(OperationFailedError, match="readonly"):
                await snapshot._fetchall("DELETE FROM members WHERE user_id = 77")
        assert set(await service.db.get_members([77, 78])) == {77, 78}
