"""Exact, mergeable statistics of whole numbers: moments, ratios, histograms, shares.

Everything a simulation observes is a whole number (chips, deals, counts), so each summary
keeps exact integer sums: the count ``n``, ``Σx`` and ``Σx²`` (and ``Σy``, ``Σy²``, ``Σxy``
for a ratio). These are Welford's running moments held exactly: the mean is ``Σx / n`` and
``M2 = Σ(x - mean)² = Σx² - (Σx)² / n``, both computed as fractions only when asked for, so
there is no cancellation to guard against. Merging two summaries adds their sums, which is
Chan, Golub and LeVeque's pairwise update ``M2 = M2a + M2b + δ² na nb / n`` in exact
arithmetic; it is associative and commutative, so a result does not depend on how the
sessions were split among workers or in which order the parts were merged:

>>> left, right, whole = Moments(), Moments(), Moments()
>>> for x in (3, -1, 4):
...     left.add(x)
...     whole.add(x)
>>> for x in (1, -5):
...     right.add(x)
...     whole.add(x)
>>> left.merge(right) == whole, whole.mean, whole.m2
(True, Fraction(2, 5), Fraction(256, 5))

Intervals are 95%, with the session as the unit wherever the deals of a session depend on
each other (they share stacks and pots): a mean net per session from the sessions' nets; a
mean per deal as a ratio over sessions (delta method); a share of deals or settlements from
each session's count (Wilson's score interval on the effective number of deals, Kish's
design effect). A mean of values known to lie between two bounds (nets at table stakes,
session lengths, busts) takes :func:`bounded`: Wilson's interval on an effective sample
size, which is Wilson's own for values at the bounds only and the normal interval for values
spread well inside them, so that a skewed or one-valued sample (every session a bust) never
gets a zero-width interval. An estimate with no interval has ``ci95`` None (fewer than two
units, or an unbounded sample of one value). ``tests/sim/test_sim_coverage.py`` measures
their coverage against the truth over many seeds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Self

__all__ = ["Z95", "Histogram", "Interval", "Moments", "Ratio", "Tally", "bounded", "wilson"]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval (``low``, ``high``)."""

    estimate: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        """``{"mean": estimate, "ci95": [low, high]}``."""
        return {"mean": self.estimate, "ci95": [self.low, self.high]}

    @classmethod
    def around(cls, estimate: Fraction, variance: Fraction) -> Interval:
        """``estimate ± Z95 * sqrt(variance)`` (``variance``: of the estimate)."""
        centre = float(estimate)
        half = Z95 * math.sqrt(float(variance))
        return cls(centre, centre - half, centre + half)


def _estimate_json(estimate: Fraction | None, interval: Interval | None) -> dict[str, Any]:
    if interval is not None:
        return interval.to_json()
    return {"mean": None if estimate is None else float(estimate), "ci95": None}


@dataclass
class Moments:
    """Count, sum and sum of squares of whole numbers (see the module docstring)."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, x: int, times: int = 1) -> None:
        """Count ``x`` (``times`` times)."""
        self.n += times
        self.total += x * times
        self.squares += x * x * times

    def merge(self, other: Moments) -> Self:
        """Add ``other``'s observations to these; returns self."""
        self.n += other.n
        self.total += other.total
        self.squares += other.squares
        return self

    @property
    def mean(self) -> Fraction | None:
        """The exact mean (None before any observation)."""
        return Fraction(self.total, self.n) if self.n else None

    @property
    def m2(self) -> Fraction:
        """Welford's ``M2``: the sum of squared deviations from the mean, exactly."""
        return Fraction(self.squares) - Fraction(self.total**2, self.n) if self.n else Fraction(0)

    @property
    def variance(self) -> Fraction | None:
        """The sample variance (``M2 / (n - 1)``; None below two observations)."""
        return self.m2 / (self.n - 1) if self.n >= 2 else None

    def interval(self, low: int | None = None, high: int | None = None) -> Interval | None:
        """The mean with its 95% interval: :func:`bounded` when every value lies between
        ``low`` and ``high``, else the normal interval (None below two observations, or
        when, unbounded, they are all equal: one value says nothing of the spread)."""
        variance, mean = self.variance, self.mean
        if variance is None or mean is None:
            return None
        if low is not None and high is not None:
            return bounded(self, low, high)
        if variance == 0:
            return None
        return Interval.around(mean, variance / self.n)

    def sums(self) -> dict[str, int]:
        """The exact sums (which merge by adding)."""
        return {"n": self.n, "sum": self.total, "sum_squares": self.squares}

    def to_json(self, low: int | None = None, high: int | None = None) -> dict[str, Any]:
        """The mean and its interval (bounded by ``low`` and ``high``, if given), then
        the exact sums."""
        return _estimate_json(self.mean, self.interval(low, high)) | self.sums()


PSEUDO = 0.5
"""The weight of the pseudo-observation :func:`bounded` puts at each bound (Jeffreys':
half an observation each way)."""


def bounded(moments: Moments, low: int, high: int) -> Interval | None:
    """The mean of values that lie between ``low`` and ``high`` with its 95% interval.

    Scaled to [0, 1], values of mean ``m`` have a variance of at most ``m (1 - m)``
    (reached by values at the bounds only); the sample's variance is a share ``r`` of
    that (found with half an observation added at each bound, so that a sample of one
    value still has a spread), and the interval is Wilson's score interval for a share
    ``m`` of ``n / r`` trials. For values at the bounds it is Wilson's; for values well
    inside them, close to the normal interval; for a sample all at one bound (every
    session a bust), Wilson's for ``0 of n``: never of zero width.

    >>> busts = Moments()
    >>> busts.add(-10, times=300)
    >>> interval = bounded(busts, -10, 50)
    >>> interval.low, round(interval.high, 3)
    (-10.0, -9.241)
    """
    if moments.n < 2 or high <= low:
        return None
    n, span = moments.n, high - low
    shifted = moments.total - n * low  # Σ(x - low): exact integers, then floats
    deviations = n * (moments.squares - 2 * low * moments.total + n * low * low) - shifted**2
    mean = shifted / n / span  # the mean scaled to [0, 1]
    weight = PSEUDO
    count = n + 2 * weight
    centre = (shifted / span + weight) / count
    # Σ(y - centre)² over the sample and the two half observations at 0 and 1
    spread = deviations / n / span / span + n * (mean - centre) ** 2
    spread += weight * centre * centre + weight * (1 - centre) * (1 - centre)
    share = min(spread / (count - 1) / (centre * (1 - centre)), 1.0)
    share_interval = wilson_share(mean, n / max(share, 1e-12))
    return Interval(
        low + span * mean, low + span * share_interval.low, low + span * share_interval.high
    )


@dataclass
class Ratio:
    """Paired whole numbers ``(x, y)``, one pair per independent unit, for ``Σx / Σy``.

    The simulator's units are sessions: ``x`` a seat's net, ``y`` the deals played, so the
    ratio is the mean net per deal; its interval is the delta method's, which allows for
    deals of one session not being independent of each other.

    >>> nets = Ratio()
    >>> for net, deals in ((4, 2), (-6, 3), (5, 1)):
    ...     nets.add(net, deals)
    >>> nets.ratio, round(nets.interval().low, 3)
    (Fraction(1, 2), -3.199)
    """

    n: int = 0
    x: int = 0
    y: int = 0
    xx: int = 0
    yy: int = 0
    xy: int = 0

    def add(self, x: int, y: int) -> None:
        """Count one unit with values ``x`` and ``y``."""
        self.n += 1
        self.x += x
        self.y += y
        self.xx += x * x
        self.yy += y * y
        self.xy += x * y

    def merge(self, other: Ratio) -> Self:
        """Add ``other``'s units to these; returns self."""
        self.n += other.n
        self.x += other.x
        self.y += other.y
        self.xx += other.xx
        self.yy += other.yy
        self.xy += other.xy
        return self

    def x_moments(self) -> Moments:
        """The moments of the ``x`` values alone."""
        return Moments(self.n, self.x, self.xx)

    @property
    def ratio(self) -> Fraction | None:
        """``Σx / Σy`` exactly (None while ``Σy`` is zero)."""
        return Fraction(self.x, self.y) if self.y else None

    def interval(self) -> Interval | None:
        """The ratio with its 95% delta-method interval (None below two units)."""
        ratio = self.ratio
        if ratio is None or self.n < 2:
            return None
        variance = self.variance()
        if variance is None or variance <= 0:
            return None  # every unit has the same ratio: nothing says how it varies
        return Interval.around(ratio, variance)

    def variance(self) -> Fraction | None:
        """The delta method's variance of the ratio (None below two units)."""
        ratio = self.ratio
        if ratio is None or self.n < 2:
            return None
        residuals = self.xx - 2 * ratio * self.xy + ratio * ratio * self.yy
        mean_y = Fraction(self.y, self.n)
        return max(residuals / (self.n - 1) / (self.n * mean_y * mean_y), Fraction(0))

    def share(self) -> Interval | None:
        """The ratio as a share of ``Σy`` trials (``x`` successes of ``y`` in each unit)
        with Wilson's interval on the effective number of trials ``p (1 - p) / variance``
        (Kish's design effect), at most ``Σy`` (the trials as if independent); where the
        variance is nothing (every unit the same share, or a share of 0 or 1), ``Σy`` for
        a share inside, the units for 0 or 1 (as few as they could be worth)."""
        ratio, variance = self.ratio, self.variance()
        if ratio is None:
            return None
        p = float(ratio)
        trials = float(self.y)
        if 0 < p < 1 and variance:
            trials = min(trials, p * (1 - p) / float(variance))
        elif not 0 < p < 1:
            trials = float(self.n)
        return wilson_share(p, trials)

    def sums(self) -> dict[str, int]:
        """The exact sums (which merge by adding)."""
        return {"n": self.n, "sum_x": self.x, "sum_y": self.y, "sum_xx": self.xx,
                "sum_yy": self.yy, "sum_xy": self.xy}  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The ratio and its interval, then the exact sums."""
        return _estimate_json(self.ratio, self.interval()) | self.sums()


@dataclass
class Histogram:
    """Exact counts of whole numbers: every quantile, the extremes and the moments.

    >>> pots = Histogram()
    >>> for pot in (4, 4, 8, 12, 40):
    ...     pots.add(pot)
    >>> pots.quantile(0.5), pots.quantile(0.9), pots.max, pots.moments().mean
    (8, 40, 40, Fraction(68, 5))
    """

    counts: dict[int, int] = field(default_factory=dict)

    def add(self, x: int, times: int = 1) -> None:
        """Count ``x`` (``times`` times)."""
        self.counts[x] = self.counts.get(x, 0) + times

    def merge(self, other: Histogram) -> Self:
        """Add ``other``'s counts to these; returns self."""
        for x, times in other.counts.items():
            self.add(x, times)
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Histogram):
            return NotImplemented
        return {x: c for x, c in self.counts.items() if c} == {
            x: c for x, c in other.counts.items() if c
        }

    @property
    def n(self) -> int:
        """How many values were counted."""
        return sum(self.counts.values())

    @property
    def max(self) -> int | None:
        """The largest value (None if empty)."""
        return max(self.counts) if self.counts else None

    @property
    def min(self) -> int | None:
        """The smallest value (None if empty)."""
        return min(self.counts) if self.counts else None

    def moments(self) -> Moments:
        """The counted values' moments."""
        moments = Moments()
        for x, times in self.counts.items():
            moments.add(x, times)
        return moments

    def quantile(self, q: float) -> int | None:
        """The smallest value with at least a share ``q`` of the counts at or below it."""
        total = self.n
        if not total:
            return None
        share = Fraction(q).limit_denominator(10**6)  # 0.9 is nine tenths, not 0.9000...02
        need = max(1, math.ceil(share * total))
        seen = 0
        for x in sorted(self.counts):
            seen += self.counts[x]
            if seen >= need:
                return x
        return self.max  # pragma: no cover - q > 1

    def to_json(self) -> dict[str, Any]:
        """Mean, standard deviation, quartiles, tails, extremes and every count."""
        moments = self.moments()
        variance = moments.variance
        return {
            "n": moments.n,
            "mean": None if moments.mean is None else float(moments.mean),
            "sd": None if variance is None else math.sqrt(float(variance)),
            "min": self.min,
            "p25": self.quantile(0.25),
            "median": self.quantile(0.5),
            "p75": self.quantile(0.75),
            "p90": self.quantile(0.9),
            "p99": self.quantile(0.99),
            "max": self.max,
            "counts": [[x, self.counts[x]] for x in sorted(self.counts) if self.counts[x]],
        }


def wilson(successes: int, trials: int) -> Interval | None:
    """The share ``successes / trials`` with its 95% Wilson score interval.

    >>> share = wilson(0, 50)
    >>> share.estimate, share.low, round(share.high, 4)
    (0.0, 0.0, 0.0713)
    """
    if trials <= 0:
        return None
    return wilson_share(successes / trials, trials)


def wilson_share(p: float, trials: float) -> Interval:
    """Wilson's 95% score interval for a share ``p`` of ``trials`` (which need not be a
    whole number: an effective sample size)."""
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return Interval(p, low, high)


@dataclass
class Tally:
    """Counts of named events (the outcomes of deals), unit by unit (a unit is a session:
    its deals share stacks and pots), and their shares with intervals from the units.

    >>> outcomes = Tally()
    >>> outcomes.add_all(["showdown", "uncontested", "showdown"])
    >>> outcomes.add_all(["uncontested"])
    >>> outcomes.total, outcomes.units, outcomes.to_json()["showdown"]["count"]
    (4, 2, 2)
    """

    counts: dict[str, int] = field(default_factory=dict)
    squares: dict[str, int] = field(default_factory=dict)
    """Per name, the sum over units of the square of its count in the unit."""
    cross: dict[str, int] = field(default_factory=dict)
    """Per name, the sum over units of its count times the unit's count of all names."""
    units: int = 0
    unit_squares: int = 0
    """The sum over units of the square of each unit's count of all names."""
    loose: int = 0
    """Events counted outside any unit (:meth:`add`)."""

    def add(self, name: str, times: int = 1) -> None:
        """Count ``name`` (``times`` times) outside any unit: the shares' intervals then
        take the events as independent."""
        self._count(name, times)
        self.loose += times

    def _count(self, name: str, times: int) -> None:
        self.counts[name] = self.counts.get(name, 0) + times

    def add_all(self, names: Iterable[str]) -> None:
        """Count ``names``, the events of one unit."""
        counts: dict[str, int] = {}
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        total = sum(counts.values())
        for name, times in counts.items():
            self._count(name, times)
            self.squares[name] = self.squares.get(name, 0) + times * times
            self.cross[name] = self.cross.get(name, 0) + times * total
        self.units += 1
        self.unit_squares += total * total

    def add_sums(
        self, units: int, unit_squares: int, sums: Mapping[str, tuple[int, int, int]]
    ) -> None:
        """Add ``units`` units at once: per name its count, the sum of its squares per
        unit and of its products with the units' totals (``sums``), and the sum of the
        squares of the units' totals."""
        for name, (times, squares, cross) in sums.items():
            self._count(name, times)
            self.squares[name] = self.squares.get(name, 0) + squares
            self.cross[name] = self.cross.get(name, 0) + cross
        self.units += units
        self.unit_squares += unit_squares

    def merge(self, other: Tally) -> Self:
        """Add ``other``'s counts to these; returns self."""
        sums = {name: (times, other.squares.get(name, 0), other.cross.get(name, 0))
                for name, times in other.counts.items()}  # fmt: skip
        self.add_sums(other.units, other.unit_squares, sums)
        self.loose += other.loose
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented

        def mine(tally: Tally) -> tuple[Any, ...]:
            return ({k: v for k, v in tally.counts.items() if v}, tally.units,
                    tally.unit_squares, {k: v for k, v in tally.squares.items() if v},
                    {k: v for k, v in tally.cross.items() if v}, tally.loose)  # fmt: skip

        return mine(self) == mine(other)

    @property
    def total(self) -> int:
        """All counts together."""
        return sum(self.counts.values())

    def share(self, name: str) -> Interval | None:
        """The share of ``name`` with its 95% interval: from the units where every event
        was counted in one (:meth:`Ratio.share`), else Wilson's as if independent."""
        total, times = self.total, self.counts.get(name, 0)
        if self.units and not self.loose:
            ratio = Ratio(self.units, times, total, self.squares.get(name, 0),
                          self.unit_squares, self.cross.get(name, 0))  # fmt: skip
            return ratio.share()
        return wilson(times, total)

    def to_json(self) -> dict[str, Any]:
        """Each name (sorted) with its count, share and the share's interval."""
        out: dict[str, Any] = {}
        for name in sorted(self.counts):
            share = self.share(name)
            assert share is not None
            out[name] = {
                "count": self.counts[name],
                "share": share.estimate,
                "ci95": [share.low, share.high],
            }
        return out

    @classmethod
    def of(cls, counts: Mapping[str, int]) -> Tally:
        """A tally holding ``counts`` (outside any unit)."""
        return cls(dict(counts), loose=sum(counts.values()))
