"""The rule catalogue (``docs/rules.md``) and its citations: every ``RULES X12`` in the code, the schema, the tests and
the documents names a rule of the catalogue, every rule is named by at least one test, and the catalogue names the
texts its rules come from."""

from __future__ import annotations

import ast
import re

from tests.casekit import ROOT, RULES

RULE = r"[GDMCA]\d+"
CITATION = re.compile(rf"RULES((?:(?:\s*[,/;]\s*|\s+and\s+|\s+)(?:{RULE})(?:\s*[–-]\s*(?:{RULE}))?)+)")
"""``RULES G7``, ``RULES G4–G10``, ``RULES A2, C5, C9``, ``RULES A2/M5``: the word and a run of rule numbers (a range
is two numbers of one family joined by a dash). ``RULES 003 1.5`` cites a source text's section, not a rule."""
NUMBER = re.compile(rf"({RULE})(?:\s*[–-]\s*({RULE}))?")
CATALOGUE = RULES.read_text(encoding="utf-8")
CATALOGUED = set(re.findall(rf"^- \*\*({RULE}) ", CATALOGUE, flags=re.MULTILINE))


def cited(text: str) -> set[str]:
    """The rule numbers the ``RULES …`` citations in ``text`` name, ranges expanded (``G4–G6`` → G4, G5, G6)."""
    numbers = set()
    for citation in CITATION.finditer(text):
        for first, last in NUMBER.findall(citation.group(1)):
            if last and first[0] == last[0]:
                numbers |= {f"{first[0]}{n}" for n in range(int(first[1:]), int(last[1:]) + 1)}
            else:
                numbers |= {first, last} - {""}
    return numbers


def test_the_citation_reader():
    """The reader finds single numbers, lists, ranges and slashes, and leaves source sections alone."""
    assert cited("a doublet (RULES G5) and RULES G4–G6, and RULES A2, C5/C9; not RULES 003 1.5") == {
        "G4", "G5", "G6", "A2", "C5", "C9"}  # fmt: skip
    assert cited("RULES D1 and D3 (003 5.3)") == {"D1", "D3"}
    assert cited("see RULES.md and docs/rules.md") == set()


def test_the_catalogue_has_every_family_and_names_its_sources():
    """G1–G12, D1–D6, M1–M6, C1–C11 and A1–A4, each once, and the five source texts (000–004) by name."""
    numbers = re.findall(rf"^- \*\*({RULE}) ", CATALOGUE, flags=re.MULTILINE)
    assert len(numbers) == len(CATALOGUED), "a rule number is used twice"
    families = {"G": 12, "D": 6, "M": 6, "C": 11, "A": 4}
    assert {f"{family}{n}" for family, count in families.items() for n in range(1, count + 1)} == CATALOGUED
    sources = CATALOGUE.split("## Sources", 1)[1].split("\n## ", 1)[0]
    for number, title in [("000", "Backgammon Official Rules"), ("001", "Vanity Fair"), ("002", "general rules"),
                          ("003", "Rules of Play for Chouettes"), ("004", "newcomers")]:  # fmt: skip
        assert re.search(rf"^\| `{number}` \|.*{title}", sources, flags=re.MULTILINE), number


def test_every_citation_names_a_catalogued_rule():
    """A ``RULES X12`` anywhere in the repository (code, ``schema.sql``, tests, documents) names a rule that
    ``docs/rules.md`` has: no citation points at nothing."""
    unknown = []
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if path.suffix not in (".py", ".sql", ".md", ".toml") or relative.parts[0].startswith("."):
            continue
        text = path.read_text(encoding="utf-8")
        for number in sorted(cited(text) - CATALOGUED):
            unknown.append(f"{relative}: RULES {number}")
    assert not unknown, "\n".join(unknown)


def test_every_rule_is_named_by_a_test():
    """Each catalogued rule is cited (``RULES X12``) in a test function, or named in its name or docstring."""
    named: set[str] = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                named |= cited("\n".join(lines[node.lineno - 1 : node.end_lineno]))
                words = f"{node.name.upper().replace('_', ' ')} {ast.get_docstring(node) or ''}"
                named |= set(re.findall(rf"\b({RULE})\b", words))
    assert not CATALOGUED - named, f"rules named by no test: {sorted(CATALOGUED - named)}"
