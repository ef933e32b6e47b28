"""The documents say what works: every relative link in ``README.md``, ``CONTRIBUTING.md``, ``CHANGELOG.md`` and
``docs/*.md`` resolves (file and heading), the README stays short, and every shell block is either run here or names
the tests that run its commands.

Each fenced ``sh`` block is preceded by one marker line:

- ``<!-- run -->``: :func:`test_the_offline_commands_run` runs each of its lines from the repository's root (``python``
  is this interpreter, ``/tmp/`` a temporary folder) and expects exit status 0;
- ``<!-- tested: tests/test_x.py::test_name, … -->``: those tests exist (:func:`test_each_block_names_tests_that_exist`)
  and run its commands;
- ``<!-- needs: … -->``: the block needs what a test run does not have (the network, a Discord token, root), said in
  words.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")])
README_LIMIT = 10_240
"""The README's size limit in bytes: the front door, not the manual."""

FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.M | re.S)
MARKER = re.compile(r"<!-- (run|tested|needs)(?::\s*(.*?))? -->\s*$")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def without_code(text: str) -> str:
    """``text`` without fenced blocks and inline code spans (a link written inside code is not a link)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def anchors(path: Path) -> set[str]:
    """The anchors of ``path``'s headings, as GitHub makes them: lower case, punctuation dropped, spaces → ``-``."""
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *$", FENCE.sub("", path.read_text(encoding="utf-8")), re.M):
        plain = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
        slug = "".join(c for c in plain if c in "-_ " or unicodedata.category(c)[0] in "LN").replace(" ", "-")
        found.add(slug)
    return found


def shell_blocks() -> list[tuple[Path, str, str, str]]:
    """Every ``sh`` block of the documents: ``(document, marker kind, marker text, block)``; kind ``""`` when the
    line before the block is no marker."""
    blocks = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for fence in FENCE.finditer(text):
            if fence.group(2) != "sh":
                continue
            before = text[: fence.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
            marker = MARKER.match(before)
            kind, note = (marker.group(1), marker.group(2) or "") if marker else ("", before)
            blocks.append((path, kind, note, fence.group(3)))
    return blocks


def commands(block: str) -> list[str]:
    """The command lines of a block: continuation lines joined, blank lines left out."""
    return [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def test_every_relative_link_resolves():
    """Each ``[text](target)`` outside code names a file of the repository, and its ``#anchor`` a heading there."""
    broken = []
    for path in DOCUMENTS:
        for target in LINK.findall(without_code(path.read_text(encoding="utf-8"))):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve() if file else path
            if not resolved.exists() or ROOT not in (resolved, *resolved.parents):
                broken.append(f"{_name(path)}: {target} (no such file)")
            elif anchor and (resolved.suffix != ".md" or anchor not in anchors(resolved)):
                broken.append(f"{_name(path)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_link_check_sees_links_and_headings():
    """The checker itself: links in code are not links, and anchors are GitHub's."""
    assert LINK.findall(without_code("[a](docs/x.md#y) `[b](c.md)` ![p](i.png)")) == ["docs/x.md#y", "i.png"]
    assert {"sqlite-and-when-postgresql", "the-clubs-books", "reviews-hints-and-the-practice-opponent"} <= (
        anchors(ROOT / "docs" / "operators.md") | anchors(ROOT / "docs" / "players.md")
    )


def test_the_readme_is_the_front_door():
    """The README is short and holds the two commands, the tour, the Discord set-up and the board picture."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= README_LIMIT
    assert "## Two commands" in readme and "## A five-minute tour in the console" in readme
    assert "## Discord set-up" in readme and "](docs/images/board.png)" in readme
    assert (ROOT / "docs" / "images" / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_shell_block_is_run_or_covered():
    """No ``sh`` block without a marker: each command shown is run here, covered by named tests, or says what it
    needs."""
    unmarked = [f"{_name(path)}: block after {note!r}" for path, kind, note, _ in shell_blocks() if not kind]
    assert not unmarked, "\n".join(unmarked)
    assert not [b for b in shell_blocks() if b[1] == "needs" and not b[2].strip()], "say what the block needs"


def test_each_block_names_tests_that_exist():
    """A ``tested:`` marker names ``tests/file.py::test_name`` items, and each is a test function in that file."""
    missing = []
    for path, kind, note, _ in shell_blocks():
        if kind != "tested":
            continue
        for item in (each.strip() for each in note.split(",")):
            file, _, name = item.partition("::")
            source = ROOT / file
            if not name or not source.is_file() or not re.search(rf"^(async )?def {name}\(", source.read_text(), re.M):
                missing.append(f"{_name(path)}: {item}")
    assert not missing, "\n".join(missing)


RUN_BLOCKS = [(path, block) for path, kind, _, block in shell_blocks() if kind == "run"]


@pytest.mark.parametrize(("path", "block"), RUN_BLOCKS, ids=[f"{_name(p)}-{i}" for i, (p, _) in enumerate(RUN_BLOCKS)])
def test_the_offline_commands_run(path, block, tmp_path):
    """Each line of a ``<!-- run -->`` block, as written, exits 0 (``python`` → this interpreter, ``/tmp/`` → a
    temporary folder, the console's pictures kept there too)."""
    config = tmp_path / "config.toml"
    config.write_text(f'[console]\nimages = "{tmp_path / "images"}"\n', encoding="utf-8")
    for line in commands(block):
        words = shlex.split(line.replace("/tmp/", f"{tmp_path}/"), comments=True)
        assert words[0] == "python", f"{_name(path)}: {line}"
        if words[1] == "bot.py":
            words[2:2] = ["--config", str(config)] if words[2] not in ("replay", "analyse") else []
        run = subprocess.run([sys.executable, *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, f"{_name(path)}: {line}\n{run.stdout[-2000:]}{run.stderr[-2000:]}"


def tour() -> tuple[list[str], str]:
    """The README's tour: the command that starts the console and the lines typed into it."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## A five-minute tour", 1)[1]
    start = section.split("```sh\n", 1)[1].split("```", 1)[0].strip()
    typed = section.split("```text\n", 1)[1].split("```", 1)[0]
    return shlex.split(start), typed


def test_the_tour_runs_when_piped(tmp_path):
    """The tour's console command, fed the tour's lines: every line accepted, and bob's opening 6-2 played."""
    words, typed = tour()
    assert words[:3] == ["python", "bot.py", "--console"] and "--seed" in words
    words = [w.replace("/tmp/", f"{tmp_path}/") for w in words]
    run = subprocess.run(
        [sys.executable, *words[1:], "--no-images", "--no-review"], input=typed + "quit\n", cwd=ROOT,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Refused" not in run.stdout and "Unknown" not in run.stdout, run.stdout
    assert "24/18 13/11" in run.stdout and run.stdout.rstrip().endswith("Bye."), run.stdout[-1500:]


def test_the_test_command_is_the_one_ci_runs():
    """The README's test command is a line of ``.ci/run``, so CI runs what the README tells a newcomer to run."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = readme.split("Run the tests", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0].strip()
    assert command.startswith("python -m pytest")
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


HELP_DRIVER = """
import runpy, sys
failed = []
for script in sys.argv[1:]:
    sys.argv = [script, "--help"]
    try:
        runpy.run_module(script, run_name="__main__", alter_sys=True)
    except SystemExit as done:
        if done.code not in (0, None):
            failed.append(f"{script}: exit {done.code}")
    except ModuleNotFoundError as error:
        if error.name not in ("bgsage", "gnubg_nn"):  # the optional engine and the test oracle
            failed.append(f"{script}: {error!r}")
        else:
            print(f"SKIPPED {script}: no {error.name}", file=sys.stderr)
    except Exception as error:
        failed.append(f"{script}: {error!r}")
    else:
        failed.append(f"{script}: --help did not stop at the usage")
print("".join(f"FAILED {line}\\n" for line in failed), file=sys.stderr, end="")
"""


def test_every_benchmark_answers_help():
    """Each ``python -m bench.NAME`` the documents name exists and prints its usage for ``--help`` (one process for
    all of them, so the shared imports are paid once)."""
    named = sorted({m for path in DOCUMENTS for m in re.findall(r"python -m (bench\.\w+)", path.read_text("utf-8"))})
    assert len(named) >= 10 and all((ROOT / "bench" / f"{name[6:]}.py").is_file() for name in named), named
    run = subprocess.run([sys.executable, "-c", HELP_DRIVER, *named], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)  # fmt: skip
    assert run.returncode == 0 and "FAILED " not in run.stderr, run.stderr[-3000:]
    assert run.stdout.count("usage:") == len(named) - run.stderr.count("SKIPPED ")
