"""Counts read in the right number everywhere a member or an operator reads them ("1 game", "5 payments"): no
"game(s)" left in the texts of club/, cogs/, console/, rendering/ and botapp/ (log lines aside)."""

from __future__ import annotations

import re

from tests.casekit import ROOT

PACKAGES = ("club", "cogs", "console", "rendering", "botapp")
HEDGED = re.compile(r"\}[a-z .]*?[a-z]\(s\)")


def test_no_count_is_hedged_with_an_s_in_brackets():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HEDGED.search(line) and "log." not in line and not line.lstrip().startswith("#")
    ]
    assert not found, "\n".join(found)
