"""The collector's view of the bot's start-up heap (so that no call takes 11–20 ms for garbage collection).

Python's cyclic garbage collector traverses, at each full collection, every container object alive: in a started
bot that is about 68,000 objects (modules, classes, functions, discord.py's and Pillow's tables, the command tree),
some 30 ms a full collection on this project's 2-core machine — a pause that lands in whatever runs then (a roll,
a board image, the legal plays of a doublet). None of those start-up objects ever becomes garbage. :func:`settle_heap`
collects once and moves them into the collector's permanent generation (:func:`gc.freeze`), so later collections
traverse only what the bot made since it started (the tables in play, their views): a full collection then costs
what the live games cost, not what the libraries cost (``bench/legal_plays.py`` prints both).

It also raises the youngest generation's threshold from 700 to :data:`YOUNG_THRESHOLD` container objects: one
action of the bot (a doublet's ~1,700 plays, a board's drawing, a payload parsed) has a few thousand alive at once,
and at 700 each one set off several young collections and pushed its live objects into the older generations, whose
collections then landed in the next actions (``bench/legal_plays.py``: 363 young, 33 middle and 3 full collections
inside 19,000 calls at 700; 45, 4 and none at 2,000).
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 2_000
"""Allocations (net of frees) of container objects that set off a collection of the youngest generation."""


def settle_heap() -> int:
    """Collect once (the start-up's garbage), then freeze every object still alive (:func:`gc.freeze`) so that no
    later collection traverses it, and set the youngest generation's threshold to :data:`YOUNG_THRESHOLD` (the two
    older ones as they are); returns how many objects are frozen. Call it once the bot has started (storage open,
    cogs loaded), before it serves anybody; frozen objects are still freed when their last reference goes."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return gc.get_freeze_count()
