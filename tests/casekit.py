"""Where the repository's files are, for the tests and benchmarks: :data:`ROOT`, the worked cases (:data:`CASES`,
:data:`MATCHES`, :func:`load_cases`) and the rule catalogue (:data:`RULES`)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root folder."""
CASES = ROOT / "tests" / "cases"
"""The worked cases with their expected answers (``tests/cases/README.md`` describes each file)."""
MATCHES = CASES / "matches"
"""The 39 real match transcripts and GNU Backgammon's reading of them (``expected.json``)."""
RULES = ROOT / "docs" / "rules.md"
"""The numbered rule catalogue (G, D, M, C, A) that code and tests cite as ``RULES G7``."""


def load_cases(name: str):
    """The parsed JSON of the worked case file ``tests/cases/<name>`` (a list of cases, each with its ``id``)."""
    return json.loads((CASES / name).read_text(encoding="utf-8"))
