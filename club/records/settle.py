"""Settle-up: the payments that clear a period's balances (RULES A3).

Finding the fewest payments that clear a set of balances is NP-hard in general (it contains subset-sum: the
minimum is ``n − k`` where ``k`` is the largest number of disjoint groups whose balances each sum to zero). This
module guarantees **at most n − 1 payments** for ``n`` members with a non-zero balance, and finds the true minimum
when there are at most :data:`EXACT_LIMIT` of them:

1. (``n ≤ EXACT_LIMIT``) split the members into as many zero-sum groups as possible — a dynamic programme over the
   ``2^n`` subsets; every group then settles on its own;
2. within a group, the largest debtor pays the largest creditor the smaller of the two amounts, until all are
   clear. Each payment clears at least one member and the last clears two, so a group of ``m`` needs at most
   ``m − 1`` payments, and ``k`` groups need ``n − k``.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass

EXACT_LIMIT = 12
"""Up to this many non-zero balances the split into zero-sum groups is exact (``2^12`` subsets, a few ms)."""


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (> 0, in the balances' unit)."""

    payer: int
    payee: int
    amount: int


def _zero_sum_groups(members: list[int], balances: Mapping[int, int]) -> list[list[int]]:
    """``members`` split into the largest number of disjoint groups whose balances each sum to zero."""
    n = len(members)
    values = [balances[m] for m in members]
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)  # best[mask]: most zero-sum groups that an ordering of mask can be cut into
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
            rest ^= bit
        best[mask] = most + (sums[mask] == 0)
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        need = best[mask] - (sums[mask] == 0)
        rest = mask
        while rest:  # remove a member that keeps the optimum
            bit = rest & -rest
            if best[mask ^ bit] == need:
                break
            rest ^= bit
        current.append(members[bit.bit_length() - 1])
        mask ^= bit
        if sums[mask] == 0:  # the members removed since the last zero-sum subset sum to zero themselves
            groups.append(current)
            current = []
    return groups


def _greedy(group: list[int], balances: Mapping[int, int]) -> list[Payment]:
    """Largest debtor pays largest creditor until the group is clear (at most ``len(group) − 1`` payments); ties go
    to the lower member id. Two heaps: O(n log n) for n members."""
    debtors = [(balances[m], m) for m in group if balances[m] < 0]
    creditors = [(-balances[m], m) for m in group if balances[m] > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    payments: list[Payment] = []
    while debtors and creditors:
        owed, debtor = heapq.heappop(debtors)
        due, creditor = heapq.heappop(creditors)
        amount = min(-owed, -due)
        payments.append(Payment(debtor, creditor, amount))
        if owed + amount:
            heapq.heappush(debtors, (owed + amount, debtor))
        if due + amount:
            heapq.heappush(creditors, (due + amount, creditor))
    return payments


def settle_up(balances: Mapping[int, int], *, exact_limit: int = EXACT_LIMIT) -> list[Payment]:
    """The payments that bring every balance (member → amount; positive = is owed, negative = owes) to zero.

    At most ``n − 1`` payments for ``n`` non-zero balances; the fewest possible when ``n ≤ exact_limit`` (see the
    module docstring). Payments are listed payer by payer. Raises ``ValueError`` when the balances do not sum to zero
    (a ledger that is not zero-sum cannot be settled) or are not whole numbers.
    """
    for member, value in balances.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"balances are whole amounts, not {value!r} (member {member})")
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"the balances sum to {total:+d}, not zero: they cannot be settled")
    members = sorted(member for member, value in balances.items() if value)
    if not members:
        return []
    groups = _zero_sum_groups(members, balances) if len(members) <= exact_limit else [members]
    payments = [payment for group in groups for payment in _greedy(group, balances)]
    return sorted(payments, key=lambda p: (p.payer, p.payee))
