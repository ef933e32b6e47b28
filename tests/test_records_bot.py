"""``/club`` through the harness (tests/discordkit.py): the books' commands answer with words and pictures, privately unless shared; a
correction is for admins only (a check, through discord.py's own dispatch) and is announced in the channel."""

from __future__ import annotations

import io
import zipfile

from club import ManualClock
from tests.bookkit import store_chouette, store_table
from tests.discordkit import GUILD, PNG_MAGIC, Harness
from tests.test_bot_tree import check_option

T0 = 1_709_510_400.0  # Monday 2024-03-04 00:00 UTC


def club_harness(tmp_path):
    """The harness an hour after T0 (the books below are from that morning)."""
    return Harness.start(tmp_path / "club.sqlite3", clock=ManualClock(T0 + 3600))


async def stocked(h: Harness):
    """Ann, Ben and Cy; a money session Ann v Ben at 5 a point (Ann +2, Ben +1 → Ann +5), a 3-point match Ben beats
    Cy, and a chouette game (Ann +2, Ben −1, Cy −1 at 1 a point). Returns the members and a channel."""
    ann, ben, cy = h.member("Ann"), h.member("Ben"), h.member("Cy")
    for member in (ann, ben, cy):
        await h.bot.service.register(GUILD, member.id, member.name)
    db = h.bot.service.db
    club_id = (await db.get_club(GUILD)).id
    await store_table(db, club_id, (ann.id, ben.id), [(0, 2, T0 + 60), (1, 1, T0 + 120)], stake=5)
    await store_table(db, club_id, (ben.id, cy.id), [(0, 3, T0 + 180)], length=3)
    await store_chouette(db, club_id, ann.id, [({ann.id: 2, ben.id: -1, cy.id: -1}, T0 + 240)])
    return (ann, ben, cy), h.channel("lobby")


async def test_the_club_group_fits_discords_limits(harness):
    """Its own top-level command (``/bg`` is near Discord's 4000 characters): valid names, descriptions, options;
    guild-only; the eight commands of the issue; ``correct`` needs a reason and has the admin check."""
    group = harness.bot.tree.get_command("club")
    payload = group.to_dict(harness.bot.tree)
    assert payload["dm_permission"] is False
    assert check_option(payload, "") <= 4000
    names = {option["name"]: option for option in payload["options"]}
    assert set(names) == {"sheet", "ledger", "settle", "leaderboard", "rating", "stats", "export", "correct"}
    correct = {option["name"]: option for option in names["correct"]["options"]}
    assert correct["reason"]["required"] and correct["payer"]["type"] == 6
    assert len(group.get_command("correct").checks) == 1


async def test_ledger_settle_sheet_and_leaderboard_answer_with_pictures(tmp_path):
    async with club_harness(tmp_path) as h:
        (ann, ben, cy), lobby = await stocked(h)
        ledger = await h.command(ann, "club ledger", lobby, period="week")
        assert ledger.private and ledger.messages[-1].png.startswith(PNG_MAGIC)
        assert "Ann: +3 pts, +7 (3 games)" in ledger.text and "sums to zero" in ledger.text
        settle = await h.command(ann, "club settle", lobby, period="all")
        assert "Ben pays Ann 6\nCy pays Ann 1" in settle.text and settle.messages[-1].png.startswith(PNG_MAGIC)
        sheet = await h.command(ann, "club sheet", lobby, session="money:1")
        assert sheet.text.startswith("**Score sheet — Money session 1: Ann v Ben** (2 games; `money:1`)")
        board = await h.command(ann, "club leaderboard", lobby, kind="matches", period="all", share=True)
        private, public = board.messages
        assert private.ephemeral and private.content == "Posted in the channel."
        assert not public.ephemeral and public.png.startswith(PNG_MAGIC) and "1. Ben — 1517.32" in public.content
        assert h.last(lobby).id == public.id


async def test_rating_stats_and_the_session_menu(tmp_path):
    async with club_harness(tmp_path) as h:
        (ann, ben, cy), lobby = await stocked(h)
        rating = await h.command(ann, "club rating", lobby, member=cy)
        assert rating.private and rating.text.startswith("**Cy**: rating 1482.68, #2 of 2")
        stats = await h.command(ben, "club stats", lobby)
        assert stats.text.startswith("**Ben** — statistics") and "Games 3: won 2" in stats.text
        newcomer = h.member("Dee")
        fresh = await h.command(ann, "club stats", lobby, member=newcomer)
        assert "No finished money or match game yet." in fresh.text
        menu = await h.autocomplete(ann, "club sheet", "session", "", lobby)
        assert [choice["value"] for choice in menu] == ["chouette:1", "money:1"]
        assert menu[1]["name"] == "money:1 — money session: Ann v Ben, 2 games"
        typed = await h.autocomplete(ann, "club export", "session", "chou", lobby)
        assert [choice["value"] for choice in typed] == ["chouette:1"]


async def test_export_sends_a_zip_of_the_books(tmp_path):
    async with club_harness(tmp_path) as h:
        (ann, ben, cy), lobby = await stocked(h)
        exported = await h.command(ann, "club export", lobby, period="session", session="chouette:1")
        files = exported.messages[-1].files
        assert exported.private and list(files) == ["club-books-chouette-1.zip"]
        archive = zipfile.ZipFile(io.BytesIO(files["club-books-chouette-1.zip"]))
        assert set(archive.namelist()) == {"README.txt", "ledger.csv", "corrections.csv", "sheets/chouette-1.csv"}
        assert archive.read("ledger.csv").decode().splitlines()[1].startswith(f"{ann.id},Ann,0,0,2,0,2,2,1,0")


async def test_correct_is_for_admins_and_is_announced_in_the_channel(tmp_path):
    async with club_harness(tmp_path) as h:
        (ann, ben, cy), lobby = await stocked(h)
        refused = await h.command(cy, "club correct", lobby, payer=ben, payee=ann, reason="typo", points=1)
        assert refused.private and "Only club admins" in refused.text
        assert await h.bot.records.corrections(GUILD) == []

        admin = h.member("Cy the admin", admin=True)
        same = await h.command(admin, "club correct", lobby, payer=ben, payee=ben, reason="x", points=1)
        assert same.private and "two members" in same.text
        done = await h.command(admin, "club correct", lobby, payer=ben, payee=ann, reason="stake misread", points=1,
                               money=5, session="money:1")  # fmt: skip
        private, public = done.messages
        assert private.ephemeral and not public.ephemeral
        assert public.content.startswith("Correction #1: Ben gives Ann 1 point and 5 at the stakes (money:1)")
        assert public.content.endswith("Reason: stake misread — recorded by Cy the admin.")
        ledger = await h.bot.records.ledger(GUILD, "all")
        assert ledger.line_of(ann.id).money == 7 + 5 and ledger.is_zero_sum()
