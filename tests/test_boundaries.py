"""The storage boundary: SQL lives in ``storage/`` and nowhere else; the front ends (``cogs/``, ``console/``) use
only ``club/`` — they never reach the database through a service's ``db`` or ``store`` (that they never import
``storage`` is :func:`tests.test_layers.test_front_ends_do_not_import_storage`'s).

Read from the source with :mod:`ast`. Outside the scan: ``storage/`` itself, ``tests/`` and ``bench/`` (they build
and inspect database files row by row on purpose)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.casekit import ROOT

OUTSIDE = {"storage", "tests", "bench"}
"""Top-level folders not scanned for SQL (see the module docstring)."""

FRONT_ENDS = ("cogs", "console")
"""The front ends: they call ``club/`` use-cases only."""

SQL = re.compile(
    r"\b(?:SELECT\s+(?:\*|DISTINCT\b|[\w.()]+\s*(?:,|\bFROM\b|\bAS\b))|INSERT\s+INTO|UPDATE\s+\w+\s+SET"
    r"|DELETE\s+FROM|(?:CREATE|DROP)\s+(?:TABLE|(?:UNIQUE\s+)?INDEX|TRIGGER|VIEW)|ALTER\s+TABLE|PRAGMA\s+\w+)"
)
"""An SQL statement as the project writes it (keywords in capitals): ``SELECT * …``, ``SELECT id FROM …``,
``INSERT INTO``, ``UPDATE t SET``, ``DELETE FROM``, ``CREATE``/``DROP`` ``TABLE``/``INDEX``/``TRIGGER``, ``ALTER
TABLE``, ``PRAGMA``."""


def modules() -> list[Path]:
    """Every Python module of the project outside :data:`OUTSIDE` (and outside hidden folders)."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in OUTSIDE or any(part.startswith(".") for part in parts):
            continue
        found.append(path)
    return found


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree`` (prose about SQL is not SQL)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def sql_texts(source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every string constant of ``source`` (f-strings' literal parts and strings written side
    by side included) that holds SQL, docstrings left out."""
    tree = ast.parse(source)
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in node.values)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
        elif isinstance(node, ast.JoinedStr):  # each {…} stands for a name: f"SELECT {columns} FROM {table}"
            text = "".join(part.value if isinstance(part, ast.Constant) else "x" for part in node.values)
        else:
            continue
        if SQL.search(text):
            found.append((node.lineno, text.strip()[:80]))
    return found


def database_uses(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` of every use of an attribute ``db`` or ``store`` (a service's database) in ``source``."""
    return sorted((node.lineno, f".{node.attr}") for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in ("db", "store"))  # fmt: skip


def test_the_scan_sees_sql_and_only_sql():
    """The detectors find what they must and nothing else (a test of the test)."""
    assert [text for _, text in sql_texts('q = "SELECT * FROM actions WHERE match_id = ?"')]
    assert sql_texts('q = f"UPDATE {table} SET state = ?"') and sql_texts('q = ("INSERT INTO clubs " "(id)")')
    assert sql_texts('p = "PRAGMA user_version"') and sql_texts("x = 'DELETE FROM deadlines'")
    assert sql_texts('q = f"SELECT {columns} FROM {table}"') == [(1, "SELECT x FROM x")]
    assert not sql_texts('def f():\n    """Updates are ``UPDATE … WHERE version = ?``: SELECT * FROM t."""')
    assert not sql_texts('t = "Select a play from the menu"; u = "INSERT the disk"; v = "DELETE"')
    assert database_uses("def f(bot):\n    x = bot.service.db.get_match(1)\n    return bot.chouettes.store") == [
        (2, ".db"), (3, ".store")
    ]  # fmt: skip
    assert not database_uses("from club import ClubService\nx = service.database\ny = service.stored")


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_sql_lives_in_storage_only(path):
    """SQL is storage's: a module outside ``storage/`` asks a storage method instead of writing SQL."""
    assert sql_texts(path.read_text(encoding="utf-8")) == [], f"SQL outside storage/ in {path.relative_to(ROOT)}"


@pytest.mark.parametrize(
    "path", [p for p in modules() if p.relative_to(ROOT).parts[0] in FRONT_ENDS], ids=lambda p: str(p.relative_to(ROOT))
)
def test_front_ends_use_club_only(path):
    """A cog or the console does not read the database through a service's ``db`` or ``store``: it calls a
    ``club/`` use-case."""
    assert database_uses(path.read_text(encoding="utf-8")) == [], f"{path.relative_to(ROOT)} reaches the database"


def test_the_front_ends_are_scanned():
    """Both front ends exist where the scan looks (a moved package would otherwise pass unseen)."""
    scanned = {p.relative_to(ROOT).parts[0] for p in modules()}
    assert set(FRONT_ENDS) <= scanned and {"club", "botapp", "backgammon", "rendering"} <= scanned
