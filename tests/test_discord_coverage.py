"""The harness suite as a whole (issue 10 "Must show"): every subcommand of the tree invoked through the harness, no
limit broken and no interaction left unanswered or answered twice in any harness of the run.

These tests read :data:`discordkit.SESSION`, filled by every harness of the pytest session; ``conftest.py`` runs
them last, and only in a session that runs every harness test (``python -m pytest`` does)."""

from __future__ import annotations

from discord import app_commands
from discordkit import SESSION


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


async def test_every_subcommand_is_invoked_through_the_harness(harness):
    """Each leaf of /bg, /bg chouette, /club, /player, /study … was run through the harness in this session."""
    leaves = _leaves(harness.bot.tree)
    assert len(leaves) >= 35
    never = [leaf for leaf in leaves if leaf not in SESSION.invoked]
    assert never == [], f"never invoked through the harness: {never}"


def test_no_harness_of_the_run_broke_a_rule():
    """Across every harness of the run: zero limit violations, zero interactions unanswered or answered twice,
    zero thinking defers left open, zero apologies not asked for (each harness checks itself on leaving; this
    says it over the whole run, with the figures)."""
    assert SESSION.harnesses >= 30 and SESSION.interactions >= 300, (SESSION.harnesses, SESSION.interactions)
    assert SESSION.problems == []
