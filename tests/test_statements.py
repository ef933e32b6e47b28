"""One action, one pass: the SQL of each kind of action, counted through the Discord harness on SQLite.

The bot's real path — discord.py parsing the interaction, the cog, the use-case, the commit, the board posted and
remembered — is traced statement by statement (``bench/statements.py``'s :class:`~bench.statements.Tracer`). Each
action may run at most :data:`~bench.statements.TARGET` statements (12) with one write transaction, whatever the
history: one read snapshot of the rows it needs, each read once, and one commit.
"""

from __future__ import annotations

from bench.statements import TARGET, chouette, money


def _over(found: dict) -> list[str]:
    """Each action of ``found`` (name → counts) that went over: its name, figures and statements."""
    over = []
    for name, counts in found.items():
        assert counts, f"{name} was never reached"
        for count in counts:
            if len(count.statements) > TARGET or count.writes > 1:
                shown = "\n".join("    " + " ".join(sql.split())[:160] for sql in count.statements)
                over.append(f"{count.line(name)}\n{shown}")
    return over


async def test_a_move_a_roll_a_double_and_a_take_each_run_at_most_12_statements_in_one_write(tmp_path):
    found = await money(tmp_path, 1)
    assert set(found) == {"/bg move", "roll", "double", "take"}
    assert not _over(found), "\n".join(_over(found))
    for counts in found.values():  # one snapshot, each hot row read once there
        assert all(count.reads == 1 and count.writes == 1 for count in counts)
        assert all(count.rows["clubs"] == 1 for count in counts)


async def test_a_chouette_decision_runs_at_most_12_statements_in_one_write(tmp_path):
    found = await chouette(tmp_path, 1)
    assert set(found) == {"chouette pass", "chouette roll"}
    assert not _over(found), "\n".join(_over(found))
    for counts in found.values():
        assert all(count.reads == 1 and count.rows["chouettes"] == 1 and count.rows["clubs"] == 1 for count in counts)
