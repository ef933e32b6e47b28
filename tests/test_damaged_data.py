"""Damaged data gets one clear line, never a traceback: ``python -m club verify`` on a corrupt or
foreign file; start-up refusing a damaged file (naming the backup to restore), a newer schema, a read-only folder
and missing fonts, each with exit code 2."""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest

import bot as botmod
from club.__main__ import main as club_main
from storage import SCHEMA_VERSION
from storage.health import check_before_opening
from tests.clubkit import club_service, new_table


async def _club_file(path):
    async with club_service(path) as service:
        await new_table(service, 3)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


def _damage(path) -> None:
    """Break the b-tree of the actions table: its root page gets an invalid page type."""
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'actions'").fetchone()[0]
    conn.close()
    with open(path, "r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\x07\xff\xff\xff\xff\xff\xff\xff")


def _one_line(text: str) -> None:
    assert "Traceback" not in text
    assert len([line for line in text.splitlines() if line.strip()]) == 1, text


@pytest.mark.parametrize("content", [b"\x00garbage" * 1000, b"SQLite format 3\x00" + os.urandom(4000)])
def test_verify_reports_a_corrupt_file_in_one_line(tmp_path, capsys, content):
    path = tmp_path / "bad.sqlite3"
    path.write_bytes(content)
    assert club_main(["verify", str(path)]) == 1
    out = capsys.readouterr()
    _one_line(out.out + out.err)


def test_verify_reports_a_foreign_database_in_one_line(tmp_path, capsys):
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()
    assert club_main(["verify", str(path)]) == 1
    out = capsys.readouterr()
    _one_line(out.out + out.err)
    assert "another program" in out.out
    assert sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall() == [("invoices",)]


async def test_verify_and_start_up_refuse_a_damaged_file_naming_the_backup(tmp_path, capsys):
    path = await _club_file(tmp_path / "club.sqlite3")
    backups = tmp_path / "backups"
    backups.mkdir()
    shutil.copy(path, backups / "club-old.sqlite3")
    os.utime(backups / "club-old.sqlite3", (1_000_000_000, 1_000_000_000))
    shutil.copy(path, backups / "club-new.sqlite3")
    _damage(path)
    assert club_main(["verify", str(path)]) == 1
    out = capsys.readouterr()
    _one_line(out.out + out.err)
    assert "damaged" in out.out
    assert botmod.main(["--console", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert "damaged" in err and f"python -m storage restore {backups / 'club-new.sqlite3'} {path}" in err


async def test_start_up_refuses_a_newer_schema(tmp_path, capsys):
    path = await _club_file(tmp_path / "club.sqlite3")
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    assert botmod.main(["--console", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert "newer" in err and "upgrade" in err


def test_start_up_refuses_a_read_only_folder(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    if os.geteuid() == 0:  # root writes anyway: make the folder refuse as a read-only mount would
        import storage.health as health

        real = health.tempfile.TemporaryFile

        def refuse(*args, dir=None, **kwargs):
            if dir is not None and os.path.samefile(dir, folder):
                raise PermissionError(30, "Read-only file system")
            return real(*args, dir=dir, **kwargs)

        monkeypatch.setattr(health.tempfile, "TemporaryFile", refuse)
    try:
        assert botmod.main(["--console", "--db", str(folder / "club.sqlite3")]) == 2
    finally:
        folder.chmod(0o700)
    err = capsys.readouterr().err
    _one_line(err)
    assert "read-only" in err and not (folder / "club.sqlite3").exists()


def test_start_up_refuses_missing_fonts_and_pictures_fall_back(tmp_path, capsys, monkeypatch):
    import rendering.text as text

    monkeypatch.setattr(text, "BOLD", tmp_path / "gone.ttf")
    assert botmod.main(["--console", "--db", str(tmp_path / "club.sqlite3")]) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert "gone.ttf" in err and "rendering/fonts" in err
    text.font.cache_clear()
    try:
        assert text.font(tmp_path / "gone.ttf", 20).getbbox("A")  # falls back to the bundled regular font
    finally:
        text.font.cache_clear()


async def test_a_sound_file_passes(tmp_path):
    path = await _club_file(tmp_path / "club.sqlite3")
    assert check_before_opening(path) is None
    assert check_before_opening(tmp_path / "new.sqlite3") is None


async def test_bytes_flipped_in_the_last_page_are_noticed(tmp_path, capsys):
    """One byte flipped in the file's last page (as a failing disk does: neither size nor time change) — which
    SQLite's own checks do not read — is noticed at start-up and by verify; a file written since is not judged."""
    path = await _club_file(tmp_path / "club.sqlite3")
    assert check_before_opening(path) is None
    stat = path.stat()
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    conn.close()
    data = bytearray(path.read_bytes())
    data[len(data) - page_size // 3] ^= 0x20
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "SQLite does not notice it"
    conn.close()
    problem = check_before_opening(path)
    assert problem is not None and problem.kind == "damaged" and "changed on the disk" in problem.text
    assert botmod.main(["--console", "--db", str(path)]) == 2
    assert club_main(["verify", str(path)]) == 1
    out = capsys.readouterr()
    _one_line(out.err)
    assert "changed on the disk" in out.out
    os.utime(path)  # written since (another process, a restore): the old seal no longer judges it
    assert check_before_opening(path) is None


@pytest.mark.parametrize("how", ["emptied", "halved", "deleted"])
async def test_a_file_smaller_than_its_seal_is_refused_never_started_as_a_new_club(tmp_path, capsys, how):
    """A sealed file emptied (truncated to 0 bytes), cut short or gone while its seal records its size: start-up and
    verify refuse it in one line naming the seal and the backup to restore — the bot never starts it as an empty
    club — and a file grown since its seal (the bot wrote to it) still passes."""
    path = await _club_file(tmp_path / "club.sqlite3")
    backups = tmp_path / "backups"
    backups.mkdir()
    shutil.copy(path, backups / "club-monday.sqlite3")
    seal = tmp_path / "club.sqlite3.seal"
    assert seal.exists()
    size = path.stat().st_size
    if how == "deleted":
        path.unlink()
    else:
        with open(path, "r+b") as handle:
            handle.truncate(0 if how == "emptied" else size // 2)
    problem = check_before_opening(path)
    assert problem is not None and problem.kind == "damaged"
    assert str(seal) in problem.text and f"{size} bytes" in problem.text
    assert f"python -m storage restore {backups / 'club-monday.sqlite3'} {path}" in problem.text
    assert botmod.main(["--console", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert str(seal) in err and str(backups / "club-monday.sqlite3") in err
    assert not path.exists() or path.stat().st_size < size  # not started as a new club
    if how != "deleted":
        assert club_main(["verify", str(path)]) == 1
        out = capsys.readouterr()
        _one_line(out.out + out.err)
        assert str(seal) in out.out


async def test_a_file_grown_since_its_seal_passes(tmp_path):
    path = await _club_file(tmp_path / "club.sqlite3")
    with open(path, "ab") as handle:  # as the bot's writes after a crash would (the seal is older than the file)
        handle.write(b"\x00" * 4096)
    assert check_before_opening(path) is None


async def test_a_schema_table_with_a_byte_that_is_not_utf8_is_damaged_in_one_line(tmp_path, capsys):
    """A non-UTF-8 byte in the schema table (sqlite_master): start-up and verify say the file is damaged in one
    line, and a damaged file beside it still gets its message (the bad file is no backup to name)."""
    path = await _club_file(tmp_path / "club.sqlite3")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET name = CAST(X'6d61746368ff' AS TEXT) WHERE name = 'clubs'")
    conn.commit()
    conn.close()
    problem = check_before_opening(path)
    assert problem is not None and problem.kind == "damaged" and "UTF-8" in problem.text
    assert club_main(["verify", str(path)]) == 1
    out = capsys.readouterr()
    _one_line(out.out + out.err)
    assert botmod.main(["--console", "--db", str(path)]) == 2
    _one_line(capsys.readouterr().err)
    other = await _club_file(tmp_path / "other.sqlite3")
    _damage(other)
    problem = check_before_opening(other)
    assert problem is not None and problem.kind == "damaged" and str(path) not in problem.text
