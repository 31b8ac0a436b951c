"""The middle of a game's table: whether anything is owed, and the refund rule.

A game may end between deals when nothing is owed (:func:`nothing_owed`); a game cut by
the cap under ``capped-pot=refund`` gives the middle back by :func:`refund`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guts.table import BANK, Place, Transfer

__all__ = ["nothing_owed", "refund"]


def nothing_owed(session: Any) -> bool:
    """True if no chips are in the middle of ``session``'s table (pot, reserve, anything
    set aside) and nobody holds legs or points toward a pot."""
    return not session.table.places and not getattr(session, "points", None)


def refund(ledger: Sequence[Transfer], seats: int) -> tuple[int, ...]:
    """What each seat gets back of the chips in the middle (every place but the bank):
    shares in proportion to what each put in, less what it took out, since the middle
    was last empty; the odd chips go to the bigger shares' seats, then the lower seats.

    >>> from guts.table import POT, Reason
    >>> refund([Transfer(0, POT, 3, Reason.ANTE), Transfer(1, POT, 6, Reason.ANTE)], 2)
    (3, 6)
    """
    put = [0] * seats
    middle = 0
    for transfer in ledger:
        source, destination, amount = transfer.source, transfer.destination, transfer.amount
        into = isinstance(destination, Place) and destination != BANK
        out_of = isinstance(source, Place) and source != BANK
        if isinstance(source, int) and into:
            put[source] += amount
            middle += amount
        elif out_of and isinstance(destination, int):
            put[destination] -= amount
            middle -= amount
        if middle == 0:
            put = [0] * seats
    owed = [max(n, 0) for n in put]
    total = sum(owed)
    if not middle or not total:
        return (0,) * seats
    shares = [middle * n // total for n in owed]
    order = sorted(range(seats), key=lambda s: (-(middle * owed[s] % total), -owed[s], s))
    for seat in order[: middle - sum(shares)]:
        shares[seat] += 1
    return tuple(shares)
