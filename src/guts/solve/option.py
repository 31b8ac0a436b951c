"""The dealer's option: a second chance to challenge a dealer who alone stayed in.

With ``dealer-option`` (declarations in turn, the dealer last), when every other player
went out and the dealer is in, the others declare again, in turn from the dealer's left:
in challenges the dealer, out lets the dealer take the pot alone. The deal is then settled
as any other with the dealer and the challengers in (``guts.games.guts.deal``).

The game tree is the in-turn tree of :class:`~guts.solve.cfr.Deal` with one more branch:
the leaf "the dealer alone in" becomes the second round. Each position but the dealer has
a second set of information sets, (position, the second round's declarations before it,
hand class), reached only after it and everyone went out; its rows follow the first
round's in the position's strategy (``strategy[p][2**p + second]``). A second-round leaf
is marked by bit ``players`` of its ``ins`` (the other bits are who is in at the end), so
the payoffs, exact card removal for two players and the independent-hands sums for more
are those of :class:`Deal`, unchanged.

Counterfactual values: a second-round leaf credits the second-round information set its
value; the first-round "out" of every position (which leads there) also gets what its
own second-round play earns, the chance-weighted value of those sets. The best response
is taken from the last decisions back: the best second-round action of each set, then
the first round with "out" worth its best second round.

>>> from guts.games.guts import preset
>>> from guts.solve.hands import HandClasses
>>> from guts.solve.model import model_of
>>> rules = preset("two-card-guts", {"dealer-option": "yes"})
>>> deal = DealerOptionDeal(model_of(rules, 2), HandClasses.of(rules.hand_ranking))
>>> [len(s) for s in deal.uniform()]   # dealer's left: first round, second chance
[2, 2]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from guts.solve.cfr import Deal

__all__ = ["DealerOptionDeal"]

FloatArray = NDArray[np.float64]


class DealerOptionDeal(Deal):
    """One deal's declarations with the dealer's option (see the module docstring)."""

    @property
    def _second(self) -> int:
        """The bit that marks a second-round leaf."""
        return 1 << self.players

    @property
    def _dealer(self) -> int:
        return 1 << (self.players - 1)

    def histories(self, position: int) -> int:
        """The first round's histories, then (but for the dealer) the second round's."""
        first = 1 << position
        return first if position == self.players - 1 else 2 * first

    def history(self, position: int, ins: int) -> int:
        """The row of ``position``'s strategy on the way to leaf ``ins``: in the second
        round, its second-round history (after a first round with everyone before it out)."""
        if ins & self._second:
            if position == self.players - 1:
                return 0  # the dealer declared in after everyone went out
            return (1 << position) + (ins & ((1 << position) - 1))
        return ins & ((1 << position) - 1)

    def _chance(self, strategy: list[FloatArray], position: int, ins: int) -> FloatArray:
        earlier = self._went_out(position, ins)
        if earlier >= 0:
            first_out: FloatArray = 1.0 - strategy[position][earlier]
            return first_out * super()._chance(strategy, position, ins)
        return super()._chance(strategy, position, ins)

    def leaves(self) -> list[int]:
        """Every leaf: the first round's (but the dealer alone in, and nobody in when the
        dealer is in automatically), then the second round's."""
        first = [ins for ins in super().leaves() if ins != self._dealer]
        second = [self._second | self._dealer | ins for ins in range(1 << (self.players - 1))]
        return [*first, *second]

    def _went_out(self, position: int, ins: int) -> int:
        """In the second round, every position but the dealer went out in the first."""
        return 0 if ins & self._second and position != self.players - 1 else -1

    def _values(
        self, strategy: list[FloatArray], carry: FloatArray, position: int | None
    ) -> list[FloatArray]:
        cv = super()._values(strategy, carry, position)
        for p in range(self.players - 1):  # going out first leads to the second round
            cv[p][0, 0] += self._second_round(strategy[p], cv[p], p)[0].sum(axis=0)
        return cv

    def _second_round(
        self, s: FloatArray, cv: FloatArray, position: int
    ) -> tuple[FloatArray, FloatArray]:
        """Per second-round history and class: (what ``s`` earns, the best it could)."""
        rows = slice(1 << position, 2 << position)
        inn, out = cv[rows, 1], cv[rows, 0]
        return s[rows] * inn + (1.0 - s[rows]) * out, np.maximum(inn, out)

    def _choices(
        self, strategy: list[FloatArray], cv: list[FloatArray], position: int
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """The first round's information sets; for a best response "out" is worth the
        best second round after it (chosen from the second round back)."""
        first = 1 << position
        s, out, inn = strategy[position][:first], cv[position][:first, 0], cv[position][:first, 1]
        best_out = out.copy()
        if position < self.players - 1:
            earned, could = self._second_round(strategy[position], cv[position], position)
            best_out[0] += could.sum(axis=0) - earned.sum(axis=0)
        return s, out, inn, best_out
