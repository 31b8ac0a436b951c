"""The summary of many simulated sessions: exact, and merged by adding.

A :class:`Summary` counts sessions (:class:`~guts.sim.runner.SessionResult`) into exact
integer statistics (:mod:`guts.sim.stats`): per seat and per bot kind the nets (per
session, and per deal as a ratio over sessions) and how often a stack went bust; how
many deals sessions lasted; the pot of every deal; the outcome of every settlement.
Two summaries of disjoint sets of sessions merge into the summary of all of them, equal
whatever the split, so a run's result does not depend on its workers.

>>> from guts.sim.runner import SessionResult
>>> one = SessionResult(2, (3, -3), (False, True), 0, False, (2, 4), ("showdown",))
>>> two = SessionResult(1, (-1, 1), (False, False), 0, False, (2,), ("uncontested",))
>>> a, b, both = Summary.empty(("sensible", "random")), Summary.empty(("sensible", "random")),\
 Summary.empty(("sensible", "random"))
>>> a.add(one); b.add(two); both.add(one); both.add(two)
>>> a.merge(b) == both, both.seats[1].busts.total, both.pots.max
(True, 1, 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Self

import numpy as np
from numpy.typing import NDArray

from guts.sim.outcomes import OUTCOMES
from guts.sim.runner import SessionResult
from guts.sim.stats import Histogram, Moments, Ratio, Tally

__all__ = ["SeatStats", "Summary"]


@dataclass
class SeatStats:
    """One seat, or all the seats a bot kind plays (``seats`` of them): per session, the
    seats' total net against the deals played (:attr:`net`) and how many went bust."""

    seats: int = 1
    net: Ratio = field(default_factory=Ratio)
    busts: Moments = field(default_factory=Moments)

    def add(self, net: int, deals: int, busts: int) -> None:
        """Count one session."""
        self.net.add(net, deals)
        self.busts.add(busts)

    def merge(self, other: SeatStats) -> Self:
        """Add ``other``'s sessions; returns self."""
        if other.seats != self.seats:
            raise ValueError(f"cannot merge stats of {other.seats} seats into {self.seats}")
        self.net.merge(other.net)
        self.busts.merge(other.busts)
        return self


@dataclass
class Summary:
    """Everything counted over a set of sessions played with ``bots`` (one per seat)."""

    bots: tuple[str, ...]
    seats: list[SeatStats]
    kinds: dict[str, SeatStats]
    lengths: Histogram = field(default_factory=Histogram)
    capped: int = 0
    overflowed: int = 0
    """Sessions the fast path stopped when a pot passed 2**60 chips."""
    left: Histogram = field(default_factory=Histogram)
    pots: Histogram = field(default_factory=Histogram)
    outcomes: Tally = field(default_factory=Tally)

    @classmethod
    def empty(cls, bots: tuple[str, ...]) -> Summary:
        """The summary of no sessions, for seats played by ``bots``."""
        kinds = {kind: SeatStats(seats=bots.count(kind)) for kind in sorted(set(bots))}
        return cls(bots, [SeatStats() for _ in bots], kinds)

    @property
    def sessions(self) -> int:
        """How many sessions were counted."""
        return self.lengths.n

    @property
    def deals(self) -> int:
        """How many deals they played."""
        return sum(length * times for length, times in self.lengths.counts.items())

    def add(self, result: SessionResult) -> None:
        """Count one session."""
        if len(result.nets) != len(self.bots):
            raise ValueError(f"a session of {len(result.nets)} seats, not {len(self.bots)}")
        deals = result.deals
        self.lengths.add(deals)
        self.capped += result.capped
        self.left.add(result.left)
        for seat, stats in enumerate(self.seats):
            stats.add(result.nets[seat], deals, int(result.busted[seat]))
        for kind, stats in self.kinds.items():
            mine = [seat for seat, bot in enumerate(self.bots) if bot == kind]
            stats.add(sum(result.nets[s] for s in mine), deals, sum(result.busted[s] for s in mine))
        for pot in result.pots:
            self.pots.add(pot)
        self.outcomes.add_all(result.outcomes)

    def merge(self, other: Summary) -> Self:
        """Add ``other``'s sessions (played with the same bots); returns self."""
        if other.bots != self.bots:
            raise ValueError(f"cannot merge sessions of bots {other.bots} into {self.bots}")
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            mine.merge(theirs)
        for kind, stats in self.kinds.items():
            stats.merge(other.kinds[kind])
        self.lengths.merge(other.lengths)
        self.capped += other.capped
        self.overflowed += other.overflowed
        self.left.merge(other.left)
        self.pots.merge(other.pots)
        self.outcomes.merge(other.outcomes)
        return self

    def add_arrays(
        self,
        deals: NDArray[np.int64],
        nets: NDArray[np.int64],
        busted: NDArray[np.bool_],
        left: NDArray[np.int64],
        capped: NDArray[np.bool_],
        *,
        pots: Mapping[int, int],
        outcomes: NDArray[np.int64],
        overflowed: NDArray[np.bool_] | None = None,
    ) -> None:
        """Count many sessions at once (the fast path's arrays: one row per session, a
        column per seat), exactly as :meth:`add` would one by one; ``pots`` counts every
        deal's pot, ``outcomes[s, k]`` how many settlements of session ``s`` came to
        ``OUTCOMES[k]``; ``overflowed``: which sessions were stopped when a pot passed
        2**60 chips."""
        if nets.shape != (len(deals), len(self.bots)):
            raise ValueError(f"nets of shape {nets.shape} for {len(deals)} sessions of "
                             f"{len(self.bots)} seats")  # fmt: skip
        _count(self.lengths, deals)
        self.capped += int(np.count_nonzero(capped))
        if overflowed is not None:
            self.overflowed += int(np.count_nonzero(overflowed))
        _count(self.left, left)
        kinds = list(self.kinds)
        kind_of = np.array([kinds.index(bot) for bot in self.bots], dtype=np.int64)
        columns = [*self.seats, *self.kinds.values()]
        for pot, times in pots.items():
            self.pots.add(pot, times)
        if not _add_compiled(columns, self.outcomes, nets, deals, busted, outcomes, kind_of):
            busts = busted.astype(np.int64)
            for seat, stats in enumerate(self.seats):
                _add_ratio(stats.net, nets[:, seat], deals)
                _add_moments(stats.busts, busts[:, seat])
            for kind, stats in self.kinds.items():
                mine = [seat for seat, bot in enumerate(self.bots) if bot == kind]
                _add_ratio(stats.net, nets[:, mine].sum(axis=1), deals)
                _add_moments(stats.busts, busts[:, mine].sum(axis=1))
            totals = outcomes.sum(axis=1)
            self.outcomes.add_sums(
                len(deals),
                _dot(totals, totals),
                {name: (_sum(c), _dot(c, c), _dot(c, totals))
                 for name, c in zip(OUTCOMES, outcomes.T, strict=True) if c.any()},
            )  # fmt: skip


def _add_compiled(
    columns: list[SeatStats],
    tally: Tally,
    nets: NDArray[np.int64],
    deals: NDArray[np.int64],
    busted: NDArray[np.bool_],
    outcomes: NDArray[np.int64],
    kind_of: NDArray[np.int64],
) -> bool:
    """Add the sessions' nets and busts to ``columns`` (the seats', then the bot kinds',
    ``kind_of`` each seat's) and their outcomes to ``tally`` from compiled passes
    (:func:`guts.sim.kernel.session_sums`); False, adding nothing, where the fast path's
    loop is not compiled or int64 sums could overflow."""
    from guts.sim import kernel

    if not kernel.COMPILED or len(deals) == 0:
        return False
    sums, counted, largest = kernel.session_sums(
        nets, deals, busted, outcomes, kind_of, len(columns) - len(kind_of)
    )
    sessions = len(deals)
    if largest * largest * sessions >= 1 << 62:
        return False
    y, yy = int(sums[-1, 0]), int(sums[-1, 1])
    for column, stats in enumerate(columns):
        x, xx, xy, b, bb = (int(value) for value in sums[column])
        stats.net.merge(Ratio(sessions, x, y, xx, yy, xy))
        stats.busts.merge(Moments(sessions, b, bb))
    tally.add_sums(
        sessions,
        int(counted[-1, 1]),
        {name: (int(c), int(cc), int(ct))
         for name, (c, cc, ct) in zip(OUTCOMES, counted[:-1].tolist(), strict=True) if c},
    )  # fmt: skip
    return True


def _count(histogram: Histogram, values: NDArray[np.int64]) -> None:
    """Add ``values`` to ``histogram``: counted in one pass where they are small whole
    numbers (session lengths, chips left), else sorted."""
    if len(values) and values.min() >= 0 and values.max() < max(1 << 12, len(values)):
        times = np.bincount(values)
        found = np.flatnonzero(times)
        times = times[found]
    else:
        found, times = np.unique(values, return_counts=True)
    for x, n in zip(found.tolist(), times.tolist(), strict=True):
        histogram.add(x, n)


def _sum(values: NDArray[np.int64]) -> int:
    """The exact sum (Python integers where int64 could overflow)."""
    if len(values) == 0:
        return 0
    if int(np.abs(values).max()) * len(values) < 1 << 62:
        return int(values.sum())
    return sum(values.tolist())


def _dot(a: NDArray[np.int64], b: NDArray[np.int64]) -> int:
    """The exact sum of products."""
    if len(a) == 0:
        return 0
    if int(np.abs(a).max()) * int(np.abs(b).max()) * len(a) < 1 << 62:
        return int(np.dot(a, b))
    return sum(x * y for x, y in zip(a.tolist(), b.tolist(), strict=True))


def _add_ratio(ratio: Ratio, x: NDArray[np.int64], y: NDArray[np.int64]) -> None:
    ratio.merge(Ratio(len(x), _sum(x), _sum(y), _dot(x, x), _dot(y, y), _dot(x, y)))


def _add_moments(moments: Moments, x: NDArray[np.int64]) -> None:
    moments.merge(Moments(len(x), _sum(x), _dot(x, x)))
