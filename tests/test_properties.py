"""Hypothesis properties of legal plays (RULES G4–G8): conservation, one colour a point, most dice used."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.moves import apply_move, legal_plays
from backgammon.position import Position
from tests.randompos import random_position

rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))
positions = st.builds(random_position, st.randoms(use_true_random=False))


def naive_single_moves(position: Position, die: int):
    """A deliberately simple statement of RULES G4, G6 and G8, independent of backgammon.moves."""
    me, them = position.player, position.opponent
    sources = [25] if me[24] else [p for p in range(24, 0, -1) if me[p - 1]]
    all_home = me[24] == 0 and sum(me[6:24]) == 0
    for source in sources:
        target = source - die
        if target >= 1:
            if them[24 - target] < 2:
                yield source, target
        elif all_home and (target == 0 or not any(me[p - 1] for p in range(source + 1, 7))):
            yield source, 0


def naive_results(position: Position, dice: tuple[int, int]) -> tuple[int, set[Position]]:
    """Every position reachable by playing dice in any order, keeping only those using the most dice (G7)."""
    d1, d2 = dice
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    found: dict[Position, tuple[int, int]] = {}

    def walk(pos: Position, left: list[int], used: int, first_die: int) -> None:
        moved = False
        if left:
            for source, target in naive_single_moves(pos, left[0]):
                moved = True
                walk(apply_move(pos, source, target)[0], left[1:], used + 1, first_die or left[0])
        if not moved and used >= found.get(pos, (-1, 0))[0]:
            found[pos] = (used, first_die)

    for order in orders:
        walk(position, order, 0, 0)
    most = max(used for used, _ in found.values())
    results = {pos for pos, (used, _) in found.items() if used == most}
    if most == 1 and d1 != d2:
        high = {pos for pos, (used, die) in found.items() if used == 1 and die == max(d1, d2)}
        results = high or results
    return most, results


@settings(max_examples=300, deadline=None)
@given(positions, rolls)
def test_checker_conservation_and_one_colour_per_point(position, dice):
    """RULES G4: every result keeps 15 checkers a side (board + bar + off) and never two colours on a point."""
    for play in legal_plays(position, dice):
        result = play.position  # Position() itself rejects two colours on a point
        assert sum(result.player) + result.off_player == 15
        assert sum(result.opponent) + result.off_opponent == 15
        assert result.opponent[24] == position.opponent[24] + play.hits
        assert result.pips_player == position.pips_player - sum((m.source - m.target) for m in play.moves)


@settings(max_examples=300, deadline=None)
@given(positions, rolls)
def test_every_legal_play_uses_the_most_dice_possible(position, dice):
    """RULES G5, G7: all plays use the same, greatest possible number of dice; the set equals a naive search."""
    plays = legal_plays(position, dice)
    most, naive = naive_results(position, dice)
    assert {play.dice_used for play in plays} == {most}
    assert {play.position for play in plays} == naive
    assert len({play.position for play in plays}) == len(plays)  # distinct by resulting position
