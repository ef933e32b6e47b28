"""``/club`` in (fake) Discord: the books' commands answer with words and pictures, privately unless shared; a
correction is for admins only (a check, through discord.py's own dispatch) and is announced in the channel."""

from __future__ import annotations

import io
import zipfile

import discord
from bookkit import store_chouette, store_table
from botkit import GUILD, PNG_MAGIC, last_reply, running_bot
from test_bot_tree import check_option

from club import ManualClock

ANN, BEN, CY = 101, 202, 303
T0 = 1_709_510_400.0  # Monday 2024-03-04 00:00 UTC


def group(bot):
    """The ``/club`` group."""
    return bot.tree.get_command("club")


async def stocked(bot, fake):
    """Ann, Ben and Cy; a money session Ann v Ben at 5 a point (Ann +2, Ben +1 → Ann +5), a 3-point match Ben beats
    Cy, and a chouette game (Ann +2, Ben −1, Cy −1 at 1 a point). Returns the members and a channel."""
    members = {user: fake.member(user, name) for user, name in ((ANN, "Ann"), (BEN, "Ben"), (CY, "Cy"))}
    for member in members.values():
        await bot.register_member(GUILD, member)
    db = bot.service.db
    club_id = (await db.get_club(GUILD)).id
    await store_table(db, club_id, (ANN, BEN), [(0, 2, T0 + 60), (1, 1, T0 + 120)], stake=5)
    await store_table(db, club_id, (BEN, CY), [(0, 3, T0 + 180)], length=3)
    await store_chouette(db, club_id, ANN, [({ANN: 2, BEN: -1, CY: -1}, T0 + 240)])
    return members, fake.text_channel("lobby")


async def run(bot, fake, user, channel, name: str, *, permissions=None, **options):
    """Call ``/club <name>``'s callback as discord.py does after parsing the options; returns the interaction."""
    interaction = fake.interaction(user, channel, permissions=permissions)
    command = group(bot).get_command(name)
    await command.callback(group(bot), interaction, **options)
    return interaction


async def test_the_club_group_fits_discords_limits():
    """Its own top-level command (``/bg`` is near Discord's 4000 characters): valid names, descriptions, options;
    guild-only; the eight commands of the issue; ``correct`` needs a reason and has the admin check."""
    async with running_bot_at_tmp() as (bot, _fake):
        payload = group(bot).to_dict(bot.tree)
        assert payload["dm_permission"] is False
        assert check_option(payload, "") <= 4000
        names = {option["name"]: option for option in payload["options"]}
        assert set(names) == {"sheet", "ledger", "settle", "leaderboard", "rating", "stats", "export", "correct"}
        correct = {option["name"]: option for option in names["correct"]["options"]}
        assert correct["reason"]["required"] and correct["payer"]["type"] == 6
        assert len(group(bot).get_command("correct").checks) == 1


def running_bot_at_tmp():
    import tempfile
    from contextlib import asynccontextmanager
    from pathlib import Path

    @asynccontextmanager
    async def context():
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(Path(folder) / "club.sqlite3", clock=ManualClock(T0 + 3600)) as pair:
                yield pair

    return context()


async def test_ledger_settle_sheet_and_leaderboard_answer_with_pictures(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3", clock=ManualClock(T0 + 3600)) as (bot, fake):
        members, lobby = await stocked(bot, fake)
        ann = members[ANN]
        ledger = last_reply(await run(bot, fake, ann, lobby, "ledger", period="week", session=None, share=False))
        assert ledger.ephemeral and ledger.png.startswith(PNG_MAGIC)
        assert "Ann: +3 pts, +7 (3 games)" in ledger.content and "sums to zero" in ledger.content
        settle = last_reply(await run(bot, fake, ann, lobby, "settle", period="all", session=None, share=False))
        assert "Ben pays Ann 6\nCy pays Ann 1" in settle.content and settle.png.startswith(PNG_MAGIC)
        sheet = last_reply(await run(bot, fake, ann, lobby, "sheet", session="money:1", share=False))
        assert sheet.content.startswith("**Score sheet — Money session 1: Ann v Ben** (2 games; `money:1`)")
        board = await run(bot, fake, ann, lobby, "leaderboard", kind="matches", period="all", share=True)
        private, public = [reply for reply in board.replies if reply.kind == "followup"]
        assert private.ephemeral and private.content == "Posted in the channel."
        assert not public.ephemeral and public.png.startswith(PNG_MAGIC) and "1. Ben — 1517.32" in public.content


async def test_rating_stats_and_the_session_menu(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3", clock=ManualClock(T0 + 3600)) as (bot, fake):
        members, lobby = await stocked(bot, fake)
        rating = last_reply(await run(bot, fake, members[ANN], lobby, "rating", member=members[CY], share=False))
        assert rating.content.startswith("**Cy**: rating 1482.68, #2 of 2")
        stats = last_reply(await run(bot, fake, members[BEN], lobby, "stats", member=None, share=False))
        assert stats.content.startswith("**Ben** — statistics") and "Games 3: won 2" in stats.content
        newcomer = fake.member(404, "Dee")
        fresh = last_reply(await run(bot, fake, members[ANN], lobby, "stats", member=newcomer, share=False))
        assert "No finished money or match game yet." in fresh.content
        from cogs.records import session_autocomplete

        menu = await session_autocomplete(fake.interaction(members[ANN], lobby), "")
        assert [choice.value for choice in menu] == ["chouette:1", "money:1"]
        assert menu[1].name == "money:1 — money session: Ann v Ben, 2 game(s)"
        assert [c.value for c in await session_autocomplete(fake.interaction(members[ANN], lobby), "chou")] == [
            "chouette:1"
        ]


async def test_export_sends_a_zip_of_the_books(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3", clock=ManualClock(T0 + 3600)) as (bot, fake):
        members, lobby = await stocked(bot, fake)
        reply = last_reply(await run(bot, fake, members[ANN], lobby, "export", period="session", session="chouette:1"))
        assert reply.ephemeral and reply.filename == "club-books-chouette-1.zip"
        archive = zipfile.ZipFile(io.BytesIO(reply.file_bytes))
        assert set(archive.namelist()) == {"README.txt", "ledger.csv", "corrections.csv", "sheets/chouette-1.csv"}
        assert archive.read("ledger.csv").decode().splitlines()[1].startswith("101,Ann,0,0,2,0,2,2,1,0")


async def test_correct_is_for_admins_and_is_announced_in_the_channel(tmp_path):
    async with running_bot(tmp_path / "club.sqlite3", clock=ManualClock(T0 + 3600)) as (bot, fake):
        members, lobby = await stocked(bot, fake)
        data = {"id": "1", "name": "club", "type": 1, "options": [{"name": "correct", "type": 1, "options": [
            {"name": "payer", "type": 6, "value": str(BEN)}, {"name": "payee", "type": 6, "value": str(ANN)},
            {"name": "reason", "type": 3, "value": "typo"}, {"name": "points", "type": 4, "value": 1}]}]}  # fmt: skip
        plain = fake.interaction(members[CY], lobby, data=data, permissions=discord.Permissions(send_messages=True))
        await bot.tree._call(plain)
        refused = last_reply(plain)
        assert refused.ephemeral and "Only club admins" in refused.content
        assert await bot.records.corrections(GUILD) == []

        admin = discord.Permissions(manage_guild=True)
        same = await run(bot, fake, members[CY], lobby, "correct", permissions=admin, payer=members[BEN],
                         payee=members[BEN], reason="x", points=1, money=0, session=None)  # fmt: skip
        assert last_reply(same).ephemeral and "two members" in last_reply(same).content
        done = await run(bot, fake, members[CY], lobby, "correct", permissions=admin, payer=members[BEN],
                         payee=members[ANN], reason="stake misread", points=1, money=5, session="money:1")  # fmt: skip
        private, public = [reply for reply in done.replies if reply.kind == "followup"]
        assert private.ephemeral and not public.ephemeral
        assert public.content.startswith("Correction #1: Ben gives Ann 1 point and 5 at the stakes (money:1)")
        assert public.content.endswith("Reason: stake misread — recorded by Cy.")
        ledger = await bot.records.ledger(GUILD, "all")
        assert ledger.line_of(ANN).money == 7 + 5 and ledger.is_zero_sum()
