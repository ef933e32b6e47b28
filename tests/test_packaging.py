"""The project as a package: ``pyproject.toml`` and the ``requirements*.txt`` files name the same dependencies, every
package of the repository is shipped with the data it reads, nothing patches ``sys.path``, and (slow) a wheel built
from the repository installs into a fresh virtual environment whose ``bgclub`` command runs outside the repository.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.casekit import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]

REQUIREMENT_FILES = {
    "requirements.txt": (),
    "requirements-postgres.txt": ("postgres",),
    "requirements-analysis.txt": ("analysis",),
    "requirements-dev.txt": ("dev",),
}
"""Each requirements file and the extras of ``pyproject.toml`` it stands for (with the runtime dependencies)."""

NOT_SHIPPED = {"tests", "bench", "examples", "tools", "build", "dist"}
"""Folders of the repository that stay out of the package: the suite, the benchmarks, the example scripts, the
members' standalone dice verifier, and what building a wheel leaves behind (ignored by git)."""


def _key(text: str) -> tuple[str, str, str]:
    """A requirement as a comparable triple: canonical name, specifier set (sorted), marker."""
    requirement = Requirement(text)
    return canonicalize_name(requirement.name), str(requirement.specifier), str(requirement.marker or "")


def _from_file(name: str) -> set[tuple[str, str, str]]:
    """The requirements ``name`` installs, its ``-r`` includes followed; comments and blank lines ignored."""
    found: set[tuple[str, str, str]] = set()
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r "):
            found |= _from_file(line[3:].strip())
        elif line:
            found.add(_key(line))
    return found


def _from_pyproject(extras: tuple[str, ...]) -> set[tuple[str, str, str]]:
    """The requirements ``pip install ".[extras]"`` installs: the dependencies and each extra, the project's own
    extras (``bgclub[postgres]`` inside ``dev``) followed."""
    found = {_key(text) for text in PROJECT["dependencies"]}
    for extra in extras:
        for text in PROJECT["optional-dependencies"][extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == canonicalize_name(PROJECT["name"]):
                found |= _from_pyproject(tuple(requirement.extras))
            else:
                found.add(_key(text))
    return found


@pytest.mark.parametrize("name", sorted(REQUIREMENT_FILES))
def test_each_requirements_file_installs_what_pyproject_says(name):
    """``pip install -r NAME`` and ``pip install ".[extras]"`` install the same packages with the same versions."""
    assert _from_file(name) == _from_pyproject(REQUIREMENT_FILES[name])


def test_every_extra_has_its_requirements_file():
    """The extras are ``analysis``, ``postgres`` and ``dev``, each with its requirements file, and nothing the bot
    needs to run is only in an extra: the runtime dependencies are discord.py, Pillow, aiosqlite, the beacon's BLS
    library and networkx (Swiss pairings)."""
    assert set(PROJECT["optional-dependencies"]) == {"analysis", "postgres", "dev"}
    assert {extra for extras in REQUIREMENT_FILES.values() for extra in extras} == set(PROJECT["optional-dependencies"])
    assert {_key(text)[0] for text in PROJECT["dependencies"]} == {
        "discord-py", "pillow", "aiosqlite", "py-arkworks-bls12381", "networkx"}  # fmt: skip
    assert {_key(text)[0] for text in PROJECT["optional-dependencies"]["analysis"]} == {"bgsage"}
    assert {_key(text)[0] for text in PROJECT["optional-dependencies"]["postgres"]} == {"asyncpg"}


def test_every_package_of_the_repository_is_shipped():
    """Each top-level folder with an ``__init__.py`` (besides the suite and the benchmarks) is listed in
    ``[tool.setuptools.packages.find] include`` with its subpackages, and ``bot.py`` is the module of ``bgclub``."""
    include = set(SETUPTOOLS["packages"]["find"]["include"])
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - NOT_SHIPPED
    assert {"backgammon", "club", "cogs", "rendering", "storage", "botapp"} <= packages
    assert all({name, f"{name}.*"} <= include for name in packages), sorted(packages - include)
    assert SETUPTOOLS["py-modules"] == ["bot"]
    assert PROJECT["scripts"] == {"bgclub": "bot:main"}
    for folder in ROOT.iterdir():
        if (
            folder.is_dir()
            and folder.name not in NOT_SHIPPED
            and not folder.name.startswith(".")
            and folder.suffix != ".egg-info"
        ):
            inside = [path for path in folder.rglob("*.py") if "__pycache__" not in path.parts]
            assert not inside or (folder / "__init__.py").exists(), f"{folder.name}/ has modules but is no package"


def test_package_data_covers_every_file_the_code_reads():
    """The files beside the modules that the code opens (the fonts, the gallery's samples, the SQL schema) are package
    data."""
    data = SETUPTOOLS["package-data"]
    assert data == {"rendering": ["fonts/*", "samples/*"], "storage": ["schema.sql"]}
    shipped_packages = {name for name in SETUPTOOLS["packages"]["find"]["include"] if "." not in name}
    for package in shipped_packages:
        folder = ROOT / package
        if not folder.is_dir():
            continue  # listed ahead of its arrival (console/)
        others = [path.relative_to(folder).as_posix() for path in folder.rglob("*")
                  if path.is_file() and path.suffix not in (".py", ".pyc")]  # fmt: skip
        patterns = data.get(package, [])
        unlisted = [name for name in others if not any(Path(name).match(pattern) for pattern in patterns)]
        assert not unlisted, f"{package}: files that a wheel would leave out: {unlisted}"


SYS_PATH_EDIT = re.compile(r"sys\.path\s*(\.\s*(insert|append|extend|remove)\s*\(|\[[^\]]*\]\s*=|\s*[+]?=)")


def test_nothing_patches_sys_path():
    """Modules, tests, benchmarks and tools import the project by name: the tests and benchmarks run from the root
    (``python -m pytest``, ``python -m bench.NAME``) or after ``pip install -e .``, never by editing ``sys.path``."""
    offenders = []
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT)
        if relative.parts[0].startswith(".") or relative.parts[0] in ("build", "dist"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SYS_PATH_EDIT.search(line) and path != Path(__file__):
                offenders.append(f"{relative}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_the_texts_name_the_command_that_was_typed(monkeypatch):
    """Usage lines and hints say ``bgclub`` when the installed command started the program, else ``python bot.py``."""
    from botapp.settings import program

    monkeypatch.setattr(sys, "argv", ["/venv/bin/bgclub", "--console"])
    assert program() == "bgclub"
    monkeypatch.setattr(sys, "argv", ["bot.py"])
    assert program() == "python bot.py"


def _run(*args: str | Path, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run a command; fail the test with its output when it fails."""
    done = subprocess.run([str(arg) for arg in args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}: {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.mark.slow
def test_the_wheel_installs_and_bgclub_plays_a_game_outside_the_repository(tmp_path):
    """``pip wheel .`` builds one wheel; installed into a fresh virtual environment (its dependencies from the
    package index), ``bgclub --help`` and ``bgclub --console`` run in a folder of their own, with no repository on
    the path: a piped script plays a one-point match to its end, which draws its boards with the shipped fonts and
    stores it with the shipped schema."""
    source = tmp_path / "source"  # a copy: building writes build/ and bgclub.egg-info/ beside pyproject.toml
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__"))
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, source, cwd=tmp_path)
    (wheel,) = wheels.glob("bgclub-*.whl")
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", wheel, cwd=tmp_path)
    outside = tmp_path / "club"
    outside.mkdir()
    bgclub = tmp_path / "venv" / "bin" / "bgclub"
    helped = _run(bgclub, "--help", cwd=outside)
    assert helped.stdout.startswith("usage: bgclub") and "--console" in helped.stdout
    tokenless = subprocess.run([bgclub, "--sync"], cwd=outside, capture_output=True, text=True, timeout=120)
    assert tokenless.returncode == 1 and "play right here: bgclub --console" in tokenless.stdout, tokenless.stdout
    script = "\n".join(["as bob", "as alice", "/bg challenge bob 1", "as bob", "/bg accept", "/bg move 24/18 13/11",
                        "as alice", "/bg resign gammon", "as bob", "/bg accept", "quit", ""])  # fmt: skip
    played = subprocess.run([bgclub, "--console", "--db", "club.sqlite3", "--seed", "demo", "--no-review"],
                            input=script, cwd=outside, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert played.returncode == 0 and not played.stderr, played.stderr
    assert "bob wins game 1 (resignation): a gammon, 2 points." in played.stdout, played.stdout[-3000:]
    assert "Match #1 is over: bob won 1–0." in played.stdout
    assert len(list((outside / "images" / "club").glob("*.png"))) == 4  # [console] images, from the current folder
    verified = _run(python, "-m", "club", "verify", "club.sqlite3", cwd=outside)
    assert "1 match checked, 0 with problems" in verified.stdout


async def test_postgresql_without_the_postgres_extra_says_what_to_install(monkeypatch):
    """A ``postgresql://`` URL where asyncpg is not installed (the ``postgres`` extra left out) is one line naming the
    database without its password and the install command — not a traceback."""
    from storage import Database, DatabaseUnavailableError

    monkeypatch.setitem(sys.modules, "asyncpg", None)  # import asyncpg raises ModuleNotFoundError
    monkeypatch.delitem(sys.modules, "storage.pgstore", raising=False)
    with pytest.raises(DatabaseUnavailableError) as refused:
        Database.open("postgresql://club:s3cret@db.example/club")
    message = str(refused.value)
    assert 'pip install "bgclub[postgres]"' in message and "requirements-postgres.txt" in message
    assert "s3cret" not in message and "db.example/club" in message


def test_nothing_reads_the_shared_folder_beside_the_repository():
    """The repository is self-contained: no file names ``../shared`` (the CHANGELOG may tell where things came from)."""
    named = []
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT)
        if (
            relative.parts[0].startswith(".")
            or not path.is_file()
            or path.name == "CHANGELOG.md"
            or path == Path(__file__)
        ):
            continue
        if path.suffix in (".py", ".md", ".toml", ".txt", ".json", ".sql", "") and path.stat().st_size < 2_000_000:
            text = path.read_text(encoding="utf-8", errors="replace")
            if "../shared" in text or re.search(r"""parents?\[?\d?\]?\s*/\s*["']shared["']""", text):
                named.append(str(relative))
    assert not named, named
