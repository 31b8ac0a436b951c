"""Main and side pots built from what each seat put in, and awarding them.

A seat can win from each other seat at most what it put in itself, so the pot is cut in
layers at every all-in level of the seats still in the hand:

>>> pots = side_pots({0: 50, 1: 100, 2: 100, 3: 30}, folded={3})
>>> [(pot.amount, pot.eligible) for pot in pots]
[(180, (0, 1, 2)), (100, (1, 2))]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from guts.table import POT, ChipError, OddChipRule, Place, Reason, SeatError, Table

__all__ = ["Pot", "award_pots", "side_pots"]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips and the seats that may win it (main pot first, then side pots)."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict."""
        return {"amount": self.amount, "eligible": list(self.eligible)}


def side_pots(
    contributions: Mapping[int, int], folded: Collection[int] = (), dead: int = 0
) -> list[Pot]:
    """The main pot and the side pots, smallest layer first.

    ``contributions`` is what each seat put in during the deal (antes, blinds, bets);
    ``folded`` seats' chips stay in but they win nothing; ``dead`` chips already in the pot
    from earlier deals go to the main pot. A layer runs up to each distinct amount put in
    by a seat still in the hand, and the seats eligible for it are those still in that
    put in at least that much; folded chips above the top level join the top pot. The
    amounts add up to ``sum(contributions.values()) + dead``. Each eligible tuple lists
    seats in the order of ``contributions``.
    """
    for seat, chips in contributions.items():
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise ChipError(f"seat {seat} put in {chips!r}: expected a whole number of chips")
    if isinstance(dead, bool) or not isinstance(dead, int) or dead < 0:
        raise ChipError(f"dead chips must be a whole number, not {dead!r}")
    live = [seat for seat in contributions if seat not in folded]
    levels = sorted({contributions[seat] for seat in live if contributions[seat] > 0})
    total = sum(contributions.values()) + dead
    if not levels:
        return [Pot(total, tuple(live))] if total else []
    if len(levels) == 1:  # one layer (no one all in for less): everything in one pot
        return [Pot(total, tuple(seat for seat in live if contributions[seat] >= levels[0]))]
    pots, below = [], 0
    for level in levels:
        amount = sum(min(c, level) - min(c, below) for c in contributions.values())
        eligible = tuple(seat for seat in live if contributions[seat] >= level)
        pots.append(Pot(amount, eligible))
        below = level
    top_extra = sum(max(c - below, 0) for c in contributions.values())
    pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
    pots[-1] = Pot(pots[-1].amount + top_extra, pots[-1].eligible)
    return pots


def award_pots(
    table: Table,
    pots: Sequence[Pot],
    strengths: Mapping[int, int],
    *,
    source: Place = POT,
    rule: OddChipRule | None = None,
) -> dict[int, int]:
    """Pay each pot to its best eligible hand; return what each seat won.

    ``strengths`` maps each seat that shows a live hand to its strength (bigger is
    better; a seat missing from it cannot win, e.g. a dead hand). Ties split the pot by
    ``rule`` (the table's odd-chip rule if None); with ``FIRST_LISTED`` the odd chips go
    in the order of ``strengths``. A pot none of whose eligible seats has a strength
    stays in ``source``. Everything is checked before any chip moves.
    """
    seats = range(len(table.names))
    for seat in strengths:
        if seat not in seats:
            raise SeatError(f"no seat {seat!r}: seats are 0 to {len(table.names) - 1}")
    needed = sum(pot.amount for pot in pots)
    if needed > table.chips_in(source):
        raise ChipError(f"the pots total {needed} but the {source} holds "
                        f"{table.chips_in(source)}")  # fmt: skip
    won: dict[int, int] = {}
    for pot in pots:
        contenders = [seat for seat in strengths if seat in pot.eligible]
        if not contenders or not pot.amount:
            continue
        best = max(strengths[seat] for seat in contenders)
        winners = [seat for seat in contenders if strengths[seat] == best]
        if len(winners) == 1:
            shares = {winners[0]: table.collect(source, winners[0], pot.amount, Reason.WIN)}
        else:
            shares = table.split(source, winners, Reason.SPLIT, amount=pot.amount, rule=rule)
        for seat, chips in shares.items():
            won[seat] = won.get(seat, 0) + chips
    return won
