"""Analysis, hints and the practice opponent: an engine behind a small interface, run in worker processes.

- :mod:`club.analysis.engine` — the interface (:class:`~club.analysis.engine.Engine`: best plays with equities, cube
  decision; money and match) and its value types;
- :mod:`club.analysis.sage` — Open Sage (``bgsage``) behind it (optional install: ``requirements-analysis.txt``);
- :mod:`club.analysis.walk` — the decisions of a game, from its history;
- :mod:`club.analysis.grade` — each decision graded, summed per player (error rate, errors, blunders, luck);
- :mod:`club.analysis.pool` — the worker processes the engine runs in (never the event loop);
- :mod:`club.analysis.match` — a whole match or money session analysed (``python bot.py analyse FILE.mat``);
- :mod:`club.analysis.practice` — the practice opponent's choices at a chosen strength.

Without the engine the bot runs as before; :func:`engine_available` is False and :data:`ENABLE_ANALYSIS` says how to
turn analysis on.
"""

from __future__ import annotations

import importlib

ENABLE_ANALYSIS = (
    'Analysis needs the optional engine Open Sage: run `python -m pip install "bgclub[analysis]"` (in a clone of '
    "the repository: `python -m pip install -r requirements-analysis.txt`) and restart the bot."
)


class AnalysisUnavailableError(RuntimeError):
    """The engine is not installed (see :data:`ENABLE_ANALYSIS`); the message says how to install it."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(ENABLE_ANALYSIS + (f" ({detail})" if detail else ""))


def engine_available() -> bool:
    """True when the engine (``bgsage``) can be imported in this environment. Never raises."""
    try:
        importlib.import_module("bgsage")
    except Exception:  # ImportError, or a broken install (missing native library)
        return False
    return True


def require_engine() -> None:
    """Raise :class:`AnalysisUnavailableError` (saying how to install it) when the engine is missing."""
    try:
        importlib.import_module("bgsage")
    except Exception as error:
        raise AnalysisUnavailableError(f"{type(error).__name__}: {error}") from None
