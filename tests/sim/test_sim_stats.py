"""The simulator's statistics: exact moments that merge like Welford/Chan, intervals."""

from __future__ import annotations

import math
import statistics
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from guts.sim.stats import Histogram, Moments, Ratio, Tally, wilson

values = st.lists(st.integers(-10**6, 10**6), max_size=60)


def moments_of(xs: list[int]) -> Moments:
    moments = Moments()
    for x in xs:
        moments.add(x)
    return moments


def welford(xs: list[int]) -> tuple[int, float, float]:
    """Welford's one-pass update in floating point: n, mean, M2."""
    n, mean, m2 = 0, 0.0, 0.0
    for x in xs:
        n += 1
        delta = x - mean
        mean += delta / n
        m2 += delta * (x - mean)
    return n, mean, m2


@given(values, values)
def test_merged_moments_equal_the_one_pass_moments(xs: list[int], ys: list[int]) -> None:
    merged = moments_of(xs).merge(moments_of(ys))
    assert merged == moments_of(xs + ys)
    assert moments_of(ys).merge(moments_of(xs)) == merged  # in either order


@given(values, values)
def test_merge_is_chans_pairwise_update_exactly(xs: list[int], ys: list[int]) -> None:
    a, b = moments_of(xs), moments_of(ys)
    merged = moments_of(xs).merge(b)
    if a.n and b.n:
        assert a.mean is not None and b.mean is not None
        delta = b.mean - a.mean
        assert merged.m2 == a.m2 + b.m2 + delta * delta * Fraction(a.n * b.n, a.n + b.n)
        assert merged.mean == a.mean + delta * Fraction(b.n, a.n + b.n)


@given(values)
def test_exact_moments_agree_with_floating_point_welford(xs: list[int]) -> None:
    n, mean, m2 = welford(xs)
    moments = moments_of(xs)
    assert moments.n == n
    if n:
        assert moments.mean is not None
        assert math.isclose(float(moments.mean), mean, rel_tol=1e-9, abs_tol=1e-6)
        assert math.isclose(float(moments.m2), m2, rel_tol=1e-7, abs_tol=1e-3)
    if n >= 2:
        assert moments.variance == Fraction(statistics.variance([Fraction(x) for x in xs]))


@given(st.lists(st.tuples(st.integers(-500, 500), st.integers(1, 50)), max_size=40),
       st.integers(0, 40))  # fmt: skip
def test_ratio_merges_at_any_split(pairs: list[tuple[int, int]], cut: int) -> None:
    def ratio(chunk: list[tuple[int, int]]) -> Ratio:
        out = Ratio()
        for x, y in chunk:
            out.add(x, y)
        return out

    assert ratio(pairs[:cut]).merge(ratio(pairs[cut:])) == ratio(pairs)


def test_ratio_interval_is_the_delta_method() -> None:
    pairs = [(4, 2), (-6, 3), (5, 1), (0, 4)]
    ratio = Ratio()
    for x, y in pairs:
        ratio.add(x, y)
    r = Fraction(3, 10)
    residuals = [x - r * y for x, y in pairs]
    variance = statistics.variance(residuals) / (4 * Fraction(10, 4) ** 2)
    interval = ratio.interval()
    assert ratio.ratio == r and interval is not None
    assert math.isclose(interval.high - 0.3, 1.959963984540054 * math.sqrt(variance))
    assert Ratio().interval() is None


@given(st.lists(st.integers(0, 300), min_size=1, max_size=80), st.integers(0, 80))
def test_histogram_quantiles_and_merge(xs: list[int], cut: int) -> None:
    def histogram(chunk: list[int]) -> Histogram:
        out = Histogram()
        for x in chunk:
            out.add(x)
        return out

    whole = histogram(xs)
    assert histogram(xs[:cut]).merge(histogram(xs[cut:])) == whole
    ordered = sorted(xs)
    for q in (0.0, 0.25, 0.5, 0.9, 0.99, 1.0):
        rank = max(1, math.ceil(Fraction(str(q)) * len(xs)))
        assert whole.quantile(q) == ordered[rank - 1]
    assert whole.max == max(xs) and whole.min == min(xs)
    assert whole.moments() == moments_of(xs)
    assert whole.to_json()["counts"] == [[x, xs.count(x)] for x in sorted(set(xs))]


def test_wilson_interval() -> None:
    none, half, every = wilson(0, 40), wilson(20, 40), wilson(40, 40)
    assert none is not None and half is not None and every is not None
    assert (none.low, none.estimate) == (0.0, 0.0) and 0.08 < none.high < 0.1
    assert math.isclose(half.low + half.high, 1.0) and half.low < 0.5 < half.high
    assert every.high == 1.0 and every.low > 0.9
    assert wilson(0, 0) is None


def test_tally_shares() -> None:
    tally = Tally()
    tally.add_all(["showdown", "showdown", "nobody-in", "showdown"])
    other = Tally.of({"uncontested": 4})
    data = tally.merge(other).to_json()
    assert list(data) == ["nobody-in", "showdown", "uncontested"]
    assert data["showdown"]["count"] == 3 and data["uncontested"]["share"] == 0.5


def test_moments_intervals_need_two_observations() -> None:
    one = moments_of([5])
    assert one.mean == 5 and one.variance is None and one.interval() is None
    assert one.to_json() == {"mean": 5.0, "ci95": None, "n": 1, "sum": 5, "sum_squares": 25}
    assert Moments().mean is None and Moments().m2 == 0
