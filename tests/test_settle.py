"""Settle-up (RULES A3): every balance cleared, at most n − 1 payments, the fewest possible for small clubs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.records import settle_up
from club.records.settle import EXACT_LIMIT

pytestmark = pytest.mark.backends


def apply(balances: dict[int, int], payments) -> dict[int, int]:
    """The balances after the payments (a payer's debt shrinks, a payee's credit shrinks)."""
    left = dict(balances)
    for payment in payments:
        assert payment.amount > 0 and payment.payer != payment.payee
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    return left


def fewest_payments(values: list[int]) -> int:
    """Brute force: n − (the largest number of disjoint zero-sum groups), by trying every set partition."""
    best = 0

    def partitions(items, groups):
        nonlocal best
        if not items:
            if all(sum(group) == 0 for group in groups):
                best = max(best, len(groups))
            return
        first, rest = items[0], items[1:]
        for group in groups:
            group.append(first)
            partitions(rest, groups)
            group.pop()
        groups.append([first])
        partitions(rest, groups)
        groups.pop()

    partitions(values, [])
    return len(values) - best


balances_strategy = st.lists(st.integers(-60, 60), min_size=1, max_size=7).map(
    lambda values: dict(enumerate([*values, -sum(values)], start=1))
)


@settings(max_examples=150, deadline=None)
@given(balances_strategy)
def test_payments_clear_every_balance_with_at_most_n_minus_1_and_the_fewest(balances):
    payments = settle_up(balances)
    assert all(value == 0 for value in apply(balances, payments).values())
    nonzero = [value for value in balances.values() if value]
    assert len(payments) <= max(0, len(nonzero) - 1)
    assert len(payments) == fewest_payments(nonzero)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 1000) | st.integers(-1000, -1), min_size=EXACT_LIMIT + 1, max_size=40))
def test_large_clubs_still_need_at_most_n_minus_1(values):
    balances = dict(enumerate([*values, -sum(values)], start=1))
    payments = settle_up(balances)
    assert all(value == 0 for value in apply(balances, payments).values())
    assert len(payments) <= sum(1 for value in balances.values() if value) - 1


def test_zero_sum_groups_settle_apart():
    """Three pairs that owe each other exactly: three payments, not the five a greedy pass over all six might make
    (the largest debtor −7 would pay the largest creditor +6 first)."""
    balances = {1: 6, 2: -6, 3: 1, 4: -7, 5: 7, 6: -1}
    payments = settle_up(balances)
    assert {(p.payer, p.payee, p.amount) for p in payments} == {(2, 1, 6), (4, 5, 7), (6, 3, 1)}


def test_a_square_ledger_needs_nothing_and_a_lopsided_one_is_refused():
    assert settle_up({}) == [] and settle_up({1: 0, 2: 0}) == []
    with pytest.raises(ValueError, match="sum to \\+3"):
        settle_up({1: 5, 2: -2})
    with pytest.raises(ValueError, match="whole amounts"):
        settle_up({1: 0.5, 2: -0.5})
