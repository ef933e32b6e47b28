"""The harness suite as a whole: every subcommand of the tree invoked through the harness by a
test of its own (not only by the smoke test that runs each leaf once), no limit broken and no interaction left
unanswered or answered twice in any harness of the run.

These tests read :data:`discordkit.SESSION`, filled by every harness of the pytest session; ``conftest.py`` runs
them last, and only in a session that runs every harness test (``python -m pytest`` does)."""

from __future__ import annotations

from discord import app_commands

from tests.discordkit import SESSION

SMOKE = "test_every_subcommand_of_every_group_answers"
"""The test that runs each leaf once with its required options (tests/test_discord_flows.py)."""


def _leaves(tree: app_commands.CommandTree) -> list[str]:
    found = []

    def walk(command) -> None:
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child)
        else:
            found.append(command.qualified_name)

    for command in tree.get_commands():
        walk(command)
    return found


async def test_every_subcommand_is_invoked_by_a_test_of_its_own(harness):
    """Each leaf of /bg, /bg chouette, /club, /player, /study … was run through the harness in this session, and
    by some test besides the smoke test (a new command without a test of its outcome fails here)."""
    leaves = _leaves(harness.bot.tree)
    assert len(leaves) >= 35
    never = [leaf for leaf in leaves if leaf not in SESSION.invoked]
    assert never == [], f"never invoked through the harness: {never}"
    only_smoke = [leaf for leaf in leaves if all(SMOKE in test for test in SESSION.invoked[leaf])]
    assert only_smoke == [], f"invoked only by {SMOKE}: {only_smoke}"


def test_no_harness_of_the_run_broke_a_rule():
    """Across every harness of the run: zero limit violations, zero interactions unanswered or answered twice,
    zero thinking defers left open, zero apologies not asked for (each harness checks itself on leaving; this
    says it over the whole run, with the figures)."""
    assert SESSION.harnesses >= 80 and SESSION.interactions >= 800, (SESSION.harnesses, SESSION.interactions)
    assert SESSION.problems == []
