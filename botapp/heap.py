"""The collector's view of the bot's start-up heap (issue 16: single calls of 11–20 ms when garbage collection runs).

Python's cyclic garbage collector traverses, at each full collection, every container object alive: in a started
bot that is about 68,000 objects (modules, classes, functions, discord.py's and Pillow's tables, the command tree),
some 30 ms a full collection on this project's 2-core machine — a pause that lands in whatever runs then (a roll,
a board image, the legal plays of a doublet). None of those start-up objects ever becomes garbage. :func:`settle_heap`
collects once and moves them into the collector's permanent generation (:func:`gc.freeze`), so later collections
traverse only what the bot made since it started (the tables in play, their views): a full collection then costs
what the live games cost, not what the libraries cost (``bench/legal_plays.py`` prints both).
"""

from __future__ import annotations

import gc


def settle_heap() -> int:
    """Collect once (the start-up's garbage), then freeze every object still alive (:func:`gc.freeze`) so that no
    later collection traverses it; returns how many objects are frozen. Call it once the bot has started (storage
    open, cogs loaded), before it serves anybody; frozen objects are still freed when their last reference goes."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
