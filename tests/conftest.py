"""Shared test helpers: where the worked cases live, and the project root on sys.path."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT.parent / "shared" / "cases"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def load_cases(name: str):
    """The parsed JSON of ``../shared/cases/<name>`` (never copied into the project)."""
    return json.loads((CASES / name).read_text(encoding="utf-8"))
