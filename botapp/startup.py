"""What the program checks and upgrades before it starts: :func:`start_up_problem`, why it cannot
start (the database file refused, the fonts missing), and :func:`upgrade_stored_states`, the stored states brought up
to date from their logs. Split out of ``bot.py``, which re-exports these names."""

from __future__ import annotations

import logging
from pathlib import Path

from storage import Database

log = logging.getLogger("bgclub")


async def upgrade_stored_states(database: Database) -> None:
    """Bring states stored in an older format up to date from their logs (:func:`club.states.upgrade_states`);
    logs what was done and what was left (the tables still load and play either way)."""
    from club.states import upgrade_states

    report = await upgrade_states(database)
    if report.upgraded:
        log.info("upgraded %d stored states to the current format", len(report.upgraded))
    for problem in report.problems:
        log.warning("state upgrade: %s", problem)


def start_up_problem(database: Path | None) -> str | None:
    """Why the program cannot start, in one line, or None: the database file is refused by
    :func:`storage.health.check_before_opening` (read-only folder, foreign or newer file, damaged: restore which
    backup; None = a PostgreSQL database, nothing to check here), or the bundled fonts are missing
    (:func:`rendering.text.font_problem`)."""
    from rendering.text import font_problem
    from storage.health import check_before_opening

    problem = None if database is None else check_before_opening(database)
    if problem is not None:
        return f"database: {problem.text}"
    fonts = font_problem()
    return None if fonts is None else f"fonts: {fonts}"
