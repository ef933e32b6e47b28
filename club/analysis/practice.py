"""The practice opponent's choices at a chosen strength: the engine takes a seat.

Each strength is an engine depth and a *noise*: every candidate's equity gets a random error drawn from a normal
distribution of that width before the best is taken, so a weaker opponent makes the kind of errors people make —
small ones often, big ones rarely. ``"expert"`` plays the engine's 2-ply choice with no noise. The random numbers come
from a seeded :class:`random.Random` per decision, so a practice game can be replayed. These functions are the worker
tasks (:mod:`club.analysis.pool`): they take and return plain values (position IDs, notation, words).
"""

from __future__ import annotations

import random

from backgammon.position import Position

from .engine import CubeState

STRENGTHS: dict[str, tuple[str, float]] = {
    "beginner": ("1ply", 0.25),
    "casual": ("1ply", 0.12),
    "intermediate": ("1ply", 0.06),
    "advanced": ("1ply", 0.02),
    "expert": ("2ply", 0.0),
}
DEFAULT_STRENGTH = "intermediate"


def check_strength(strength: str | None) -> str:
    """The strength's name (default :data:`DEFAULT_STRENGTH`); raises :class:`ValueError` naming the choices."""
    name = (strength or DEFAULT_STRENGTH).strip().lower()
    if name not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}; choose one of: {', '.join(STRENGTHS)}")
    return name


def choose_play_task(position_id: str, dice: tuple[int, int], cube: CubeState, strength: str, seed: int) -> str:
    """Worker task: the play (notation; ``""`` when nothing can be played, RULES G9) the practice opponent makes with
    ``dice`` in the position ``position_id`` (gnubg Position ID, seen by him)."""
    from .pool import engine

    level, noise = STRENGTHS[check_strength(strength)]
    ranked = engine(level).best_plays(Position.from_position_id(position_id), dice, cube)
    rng = random.Random(seed)
    chosen = max(ranked, key=lambda entry: entry.equity + (rng.gauss(0.0, noise) if noise else 0.0))
    return chosen.play.notation()


def cube_action_task(position_id: str, cube: CubeState, strength: str, seed: int, answering: bool = False) -> str:
    """Worker task: the practice opponent's cube action. ``answering`` False: he is on roll (``position_id`` seen by
    him) and returns ``"double"`` or ``"roll"``; True: he was doubled (``position_id`` and ``cube`` seen by the
    doubler) and returns ``"take"`` or ``"drop"`` (RULES D1, D2)."""
    from .pool import engine

    level, noise = STRENGTHS[check_strength(strength)]
    equities = engine(level).cube_decision(Position.from_position_id(position_id), cube)
    rng = random.Random(seed)
    jitter = rng.gauss(0.0, noise) if noise else 0.0
    if answering:
        return "take" if equities.double_take + jitter <= equities.double_pass else "drop"
    return "double" if equities.double_equity + jitter > equities.no_double else "roll"
