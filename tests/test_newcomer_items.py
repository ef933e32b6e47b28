"""The smaller items of a newcomer's report, each through the console (``tests/consolekit.py``) or the program's
start-up: what he saw and what is right instead."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from console import member_id
from console.core import CONSOLE_GUILD
from tests.casekit import ROOT
from tests.clubkit import play_out
from tests.consolekit import console_in


async def test_verify_writes_the_file_its_text_names_when_the_rolls_do_not_fit(tmp_path, monkeypatch):
    """``verify N`` of a long finished game: the rolls that do not fit in the reply are in a file the console
    writes (there is no attachment in a terminal), named in the reply, and ``tools/verify_dice.py`` checks it."""
    monkeypatch.chdir(tmp_path)
    async with console_in(tmp_path) as console:
        service = console.service
        challenge = await service.challenge(CONSOLE_GUILD, member_id("alice"), member_id("bob"), length=1)
        outcome = await play_out(service, await service.accept(challenge.match_id, member_id("bob")),
                                 random.Random(2))  # fmt: skip
        out = await console.handle(f"verify {outcome.match_id}")
    written = tmp_path / f"dice-{outcome.match_id}-game-1.txt"
    assert "attached" not in out and f"they are in {written}" in out, out
    checked = subprocess.run([sys.executable, str(ROOT / "tools" / "verify_dice.py"), str(written)],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert checked.returncode == 0 and ": ok — " in checked.stdout, checked.stdout + checked.stderr


async def test_the_books_sheet_and_the_chouette_sheet_are_two_files_and_each_game_end_writes_the_sheet(tmp_path,
                                                                                                     monkeypatch):
    """``club sheet chouette:1`` (the books: results as booked, corrections included) and ``chouette sheet`` (RULES
    C11: Box, circled losers, the next Captain) are different pictures under different names — neither overwrites
    the other — and the books' reply points to the C11 sheet. A chouette game's end writes the C11 sheet as it
    stands after that game, as Discord posts it."""
    from tests.test_console_newuser import seated_chouette

    async def no_board(*_):  # the boards of the game are not what is tested here, and drawing them is slow
        return b"board"

    monkeypatch.setattr("console.chouettes.board_png_async", no_board)
    images = tmp_path / "images"
    async with console_in(tmp_path, images=images) as console:
        await seated_chouette(console)
        await end_a_game_fast(console)
        after_game = sorted(path.name for path in images.glob("chouette-1-sheet*.png"))
        books = await console.handle("club sheet chouette:1")
        played = await console.handle("chouette sheet")
    assert after_game == ["chouette-1-sheet-game1.png"]
    assert f"Image: {images / 'sheet-chouette-1.png'}" in books
    assert "chouette sheet chouette=1" in books and "RULES C11" in books
    assert f"Image: {images / 'chouette-1-sheet.png'}" in played
    assert (images / "sheet-chouette-1.png").read_bytes() != (images / "chouette-1-sheet.png").read_bytes()


async def end_a_game_fast(console) -> None:
    """Play chouette 1 until its first game ends the quickest way: every cube doubled, every double dropped."""
    from tests.test_console_newuser import NAMES

    names = {member_id(n): n for n in NAMES}
    for _ in range(100):
        view = await console.chouettes.state(1)
        if view.game_number >= 2:
            return
        decision = view.decisions[0]
        await console.handle(f"as {names[decision.actor]}")
        if decision.pending == "play":
            out = await console.handle(f"move {(await console.chouettes.legal_plays(1, decision.actor))[0]}")
        else:
            verb = {"double": "double", "answer": "drop"}.get(decision.pending, "double")
            out = await console.handle(verb)
            if out.startswith("Refused"):
                out = await console.handle("roll")
        assert not out.startswith("Refused"), out
    raise AssertionError("the game did not end")


def test_the_chouette_sheet_explains_its_marks_and_groups_thousands():
    """The C11 sheet's circle, crossed circle and "b" are explained under it when they appear, and money has
    thousands separators as in the text ("−1,305")."""
    from rendering.sheet import SheetCell, SheetLine, SheetView, figure, legend, sheet_layout

    plain = SheetView("Chouette #1", ("Ann", "Bob"), (SheetLine(1, "Ann", (SheetCell(1), SheetCell(-1)), "Bob"),),
                      (1, -1), money=(1305, -1305))  # fmt: skip
    marked = SheetView("Chouette #1", ("Ann", "Bob", "Cy"), (SheetLine(1, "Ann", (
        SheetCell(2), SheetCell(-1, circled=True, crossed=True), SheetCell(-1, circled=True, b=True)), "Cy"),),
        (2, -1, -1))  # fmt: skip
    assert legend(plain) == ""
    text = legend(marked)
    assert "circled: lost to Box" in text and "crossed through: has been Box since" in text and "b:" in text
    unmarked = SheetView("Chouette #1", ("Ann", "Bob", "Cy"), (SheetLine(1, "Ann", (
        SheetCell(2), SheetCell(-1), SheetCell(-1)), "Cy"),), (2, -1, -1))  # fmt: skip
    assert sheet_layout(marked).height > sheet_layout(unmarked).height  # a line for the legend
    assert figure(-1305) == "−1,305" and figure(1305) == "+1,305" and figure(0) == "0"


def test_a_second_program_on_the_same_sqlite_file_is_refused_with_a_clear_line(tmp_path, capsys):
    """Two programs must never share one SQLite file (the scheduler would run twice): while a bot or console holds
    the file (``Database.open(..., exclusive=True)``, as ``Settings.open_database`` opens it for both), a second
    one stops at once with one line saying so, exit 2, and writes nothing; once the first has closed, the file is
    free. Tools that only read (``python -m club verify``) are not held off."""
    import asyncio

    import bot as botmod
    from storage import Database, DatabaseInUseError

    path = tmp_path / "club.sqlite3"

    async def second_program() -> None:
        async with Database.open(path, exclusive=True):
            with pytest.raises(DatabaseInUseError, match="another bot or console"):
                await Database.open(path, exclusive=True)
            assert await asyncio.to_thread(botmod.main, ["--console", "--no-images", "--db", str(path)]) == 2
            async with Database.open(path) as reader:  # a tool that reads is not held off
                assert await reader.store.latest_time() is None
        async with Database.open(path, exclusive=True):  # the first has closed: the file is free again
            pass

    asyncio.run(second_program())
    assert capsys.readouterr().err == (
        f"database: {path}: another bot or console is using this database; two programs must never share one SQLite "
        "file (stop the other first, or use PostgreSQL for several bot processes)\n"
    )


def test_the_reviews_best_play_picture_is_not_captioned_as_the_members_play(monkeypatch):
    """A costly play's two review pictures: "played" says what the member played; "best" shows the engine's play
    and says so ("best for alice with 3-1: 8/5 6/5"), with what he played instead — never "alice played 8/5 6/5"."""
    import rendering
    from backgammon.moves import legal_plays
    from backgammon.position import Position
    from club.analysis.engine import CubeState
    from club.analysis.grade import Grade, PlayerGrade
    from club.analysis.match import MatchAnalysis
    from club.analysis.review import error_pictures
    from club.analysis.walk import PLAY, Decision
    from rendering.words import caption_text

    start = Position.initial()
    plays = {play.notation(): play for play in legal_plays(start, (3, 1))}
    decision = Decision(PLAY, 0, 1, start, CubeState(), dice=(3, 1), play=plays["24/20"], choices=16)
    grade = Grade(decision, loss=0.2, counted=True, made="24/20", best="8/5 6/5", made_equity=-0.2, best_equity=0.0,
                  best_play=plays["8/5 6/5"], game=1)  # fmt: skip
    analysis = MatchAnalysis(("alice", "bob"), 1, [PlayerGrade("alice", grades=[grade]), PlayerGrade("bob")], 1, "1ply")
    views = []
    monkeypatch.setattr(rendering, "render_board", lambda view, *_, **__: views.append(view) or b"png")
    error_pictures(analysis)
    played, best = (caption_text(view) for view in views)
    assert played == "alice played 3-1: 24/20"
    assert best == "best for alice with 3-1: 8/5 6/5 (alice played 24/20)"


def test_a_roll_is_written_the_higher_die_first():
    """Standard notation writes a roll the higher die first ("5-2", never "2-5"): a chouette's roll and an opening
    tie in its log, and the engine's hint table."""
    from club.analysis.hints import hint_text
    from club.chouette.describe import describe

    assert describe("roll", 1, {"dice": [2, 5]}, {1: "ann"}) == "ann rolls 5-2."
    assert describe("roll", None, {"dice": [1, 2]}, {}) == "Auto-roll: 2-1."
    from backgammon.position import Position

    hint = hint_text(Position.initial(), (1, 2), {"plays": [("13/11 6/5", 0.01, 0.0)]})
    assert "Best plays of 2-1 (equity, loss):" in hint.text


async def test_console_words_carry_no_discord_markdown_and_waits_read_naturally(tmp_path):
    """The console prints no Discord markdown ("_erin made only 1 counted decision_" is a plain line, "**Review**"
    plain text; an underscore inside a name stays), and a wait that is not whole or half hours is said in hours and
    minutes ("50 minutes pass.", not "0.833333 hours pass.")."""
    async with console_in(tmp_path, cast=("zoë_🎲",)) as console:
        text = console.console_words("**Review: #1**\n_erin made only 1 counted decision (fewer than 20): no PR_\nzoë_🎲")
        assert text == "Review: #1\nerin made only 1 counted decision (fewer than 20): no PR\nzoë_🎲"
        assert (await console.handle("wait 50m")).startswith("50 minutes pass.")
        assert (await console.handle("wait 130m")).startswith("2 hours and 10 minutes pass.")
        assert (await console.handle("wait 1m")).startswith("1 minute passes.")
        assert (await console.handle("wait 90m")).startswith("1.5 hours pass.")


async def test_an_action_without_a_game_goes_to_the_one_game_where_it_can_be_done(tmp_path):
    """bob plays erin (his turn to roll) and has carol's challenge to answer: ``accept`` can only mean carol's
    challenge, so it is accepted — not refused with "You have 2 games waiting for you"; ``roll`` can only mean the
    game with erin. An action that fits both still asks which."""
    async with console_in(tmp_path) as console:
        await console.handle("as erin")
        await console.handle("challenge bob 3")
        await console.handle("as carol")
        await console.handle("challenge bob 3")
        await console.handle("as bob")
        await console.handle("accept 1")
        view = await console.service.state(1)
        if view.waiting_for != member_id("bob"):  # erin opened: she plays, then it is bob's roll
            await console.handle("as erin")
            plays = await console.service.legal_plays(1, member_id("erin"))
            await console.handle(f"move {plays[0]}")
            await console.handle("as bob")
        assert (await console.handle("resign")).startswith("Refused: You have 2 games waiting for you")
        accepted = await console.handle("accept")
        assert "bob accepts the challenge." in accepted, accepted
        assert (await console.service.state(2)).status == "active"


async def test_a_refused_hours_setting_echoes_what_was_typed(tmp_path):
    async with console_in(tmp_path) as console:
        out = await console.handle("config move_hours -1")
    assert out == ("Refused: move_hours is a number of hours from a minute (1m) to a year (8760), like 24 or 90m — "
                   "not '-1'")  # fmt: skip


def test_a_play_written_with_dashes_is_read_as_with_slashes():
    """``13-7 8-7`` (as FIBS and many players write it) is the play ``13/7 8/7``; ``bar-22*`` and ``6-off`` too."""
    from backgammon.notation import parse_segments

    assert parse_segments("13-7 8-7") == parse_segments("13/7 8/7")
    assert parse_segments("bar-22* 6-off 8-5(2)") == parse_segments("bar/22* 6/off 8/5(2)")


async def test_a_money_sessions_text_board_shows_the_net_score_as_its_picture_does(tmp_path):
    """RULES M1: in a money session the text board's score is each member's net running total, signed, as the PNG
    and the sheet show it ("score +1 (money)" / "score -1 (money)"), not the points each has won."""
    async with console_in(tmp_path) as console:
        await console.handle("challenge bob money money 10")
        await console.handle("as bob")
        await console.handle("accept")
        view = await console.service.state(1)
        loser = "alice" if view.waiting_for == member_id("alice") else "bob"
        winner = "bob" if loser == "alice" else "alice"
        await console.handle(f"as {loser}")
        await console.handle("resign")
        await console.handle(f"as {winner}")
        await console.handle("accept")
        board = await console.handle("board 1")
    lines = board.splitlines()
    assert any(line.rstrip().endswith("score -1 (money)") for line in lines), board
    assert any(line.rstrip().endswith("score +1 (money)") for line in lines), board


def test_a_long_footnote_of_a_table_picture_wraps_instead_of_being_cut():
    """The PR leaderboard's footnote at a narrow width: its words wrap onto more lines (the picture grows by a
    line each), never cut with "…" ("Practice not count…")."""
    from rendering.records import Column, RecordTable, footer_lines, render_record_table
    from rendering.text import layout_text

    note = "PR = 500 × equity lost ÷ counted decisions (Open Sage); lower is better. Practice not counted."
    table = RecordTable("Leaderboard — PR", (Column("#"), Column("member", "left")), (("1", "alice"),), footer=(note,))
    lines = footer_lines(table, 400)
    assert len(lines) > 1 and " ".join(lines) == note and all(layout_text(line, 16).width <= 400 for line in lines)
    short = RecordTable("Leaderboard — PR", table.columns, table.rows, footer=("Lower is better.",))
    from io import BytesIO

    from PIL import Image

    heights = [Image.open(BytesIO(render_record_table(t, max_width=400))).height for t in (short, table)]
    grown = heights[1] - heights[0]
    assert grown >= 24 * (len(lines) - 1) and grown % 24 == 0  # a line more for each wrap


async def test_a_decision_for_someone_you_do_not_stand_in_for_says_so(tmp_path):
    """``double for di`` by a Team member who is not di's proxy: the refusal says he does not decide for di and who
    does (RULES C9), and what he can do for his own cube — not "You have no decision to double"."""
    from tests.test_console_newuser import NAMES, seated_chouette

    names = {member_id(n): n for n in NAMES}
    async with console_in(tmp_path) as console:
        await seated_chouette(console)
        for _ in range(60):
            view = await console.chouettes.state(1)
            decision = view.decisions[0]
            await console.handle(f"as {names[decision.actor]}")
            if decision.pending == "double" and len(view.decisions) > 1:
                break
            if decision.pending == "play":
                await console.handle(f"move {(await console.chouettes.legal_plays(1, decision.actor))[0]}")
            else:
                await console.handle("take" if decision.pending == "answer" else "roll")
        other = next(names[d.actor] for d in view.decisions if d.actor != decision.actor)
        out = await console.handle(f"double for {other}")
    assert out == (f"Refused: You do not decide for {other} in chouette 1: {other} does, or the proxy {other} names "
                   f"(RULES C9). For your own cube you can: double, no-double.")  # fmt: skip
