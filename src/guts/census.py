"""Hand censuses: how many hands of each category a ranking's pack holds.

:func:`census` enumerates **every** hand of ``cards`` cards exactly; :func:`sample_census`
draws random hands and reports estimates with confidence intervals. Both work for any
:class:`~guts.rankings.Ranking`: strengths come from its batch evaluator, and each distinct
strength is explained once by evaluating one representative hand, so a category table is
derived from the hand classes rather than from a second evaluator.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING

from guts.cards import Card, Rank
from guts.errors import OptionError
from guts.rankings.base import Category, Ranking

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["CensusResult", "census", "hands", "sample_census"]

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a census runs."""

CHUNK = 1 << 17


@dataclass(frozen=True)
class CensusResult:
    """A census: counts by category (best first) and, for low rankings, by top card.

    ``classes`` is the number of distinct strengths seen. For a sampled census,
    ``sampled`` is True and ``intervals`` gives a 95% confidence interval for the share
    of each category.
    """

    ranking: str
    cards: int
    deck: str
    total: int
    classes: int
    categories: dict[Category, int]
    no_pair_by_top_card: dict[str, int] | None = None
    sampled: bool = False
    intervals: dict[Category, tuple[float, float]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """The census as one JSON object."""
        data: dict[str, object] = {
            "ranking": self.ranking,
            "cards": self.cards,
            "deck": self.deck,
            "total": self.total,
            "classes": self.classes,
            "categories": {c.value: n for c, n in self.categories.items()},
        }
        if self.no_pair_by_top_card is not None:
            data["no-pair-by-top-card"] = self.no_pair_by_top_card
        if self.sampled:
            data["sampled"] = True
            data["intervals"] = {c.value: list(ci) for c, ci in self.intervals.items()}
        return data


def hands(deck: tuple[Card, ...], size: int, chunk: int = CHUNK) -> Iterator[NDArray[np.uint8]]:
    """Every ``size``-card hand of ``deck`` as (N, size) arrays of card codes."""
    from guts.rankings.tables import hand_chunks

    return hand_chunks([card.code for card in deck], size, chunk)


def _check_size(ranking: Ranking, size: int) -> None:
    if not ranking.min_cards <= size <= ranking.max_cards:
        raise OptionError(
            f"the {ranking.name} ranking takes {ranking.min_cards} to {ranking.max_cards} "
            f"cards, not {size}"
        )


def census(ranking: Ranking, size: int, progress: Progress | None = None) -> CensusResult:
    """Count every ``size``-card hand of the ranking's pack by category."""

    _check_size(ranking, size)
    deck = ranking.deck.cards
    total = math.comb(len(deck), size)
    fast = getattr(ranking, "census", None)
    if fast is not None:
        counts, classes = fast(size, progress)
        return CensusResult(ranking.name, size, ranking.deck.value, total, classes, counts)
    tally: dict[int, int] = {}
    examples: dict[int, NDArray[np.uint8]] = {}
    done = 0
    for block in hands(deck, size):
        _tally(ranking, block, tally, examples)
        done += len(block)
        if progress is not None:
            progress(done, total)
    return _explain(ranking, size, tally, examples, total)


def sample_census(
    ranking: Ranking,
    size: int,
    samples: int,
    seed: int | None = None,
    progress: Progress | None = None,
) -> CensusResult:
    """Estimate the category shares from ``samples`` random hands (Wilson 95% intervals)."""
    import numpy as np

    _check_size(ranking, size)
    if samples < 1:
        raise OptionError(f"--sample must be at least 1, not {samples}")
    deck = np.array([card.code for card in ranking.deck.cards], dtype=np.uint8)
    rng = np.random.default_rng(Random(seed).getrandbits(64) if seed is not None else None)
    tally: dict[int, int] = {}
    examples: dict[int, NDArray[np.uint8]] = {}
    done = 0
    while done < samples:
        rows = min(CHUNK, samples - done)
        keys = rng.random((rows, len(deck)))
        block = deck[np.argpartition(keys, size - 1, axis=1)[:, :size]]
        _tally(ranking, block, tally, examples)
        done += rows
        if progress is not None:
            progress(done, samples)
    result = _explain(ranking, size, tally, examples, samples)
    intervals = {c: _wilson(n, samples) for c, n in result.categories.items()}
    return CensusResult(
        result.ranking, size, result.deck, samples, result.classes, result.categories,
        result.no_pair_by_top_card, sampled=True, intervals=intervals,
    )  # fmt: skip


def _tally(
    ranking: Ranking,
    block: NDArray[np.uint8],
    tally: dict[int, int],
    examples: dict[int, NDArray[np.uint8]],
) -> None:
    """Count ``block``'s hands by strength, keeping the first hand seen of each."""
    import numpy as np

    values, first, counts = np.unique(
        ranking.strength_batch(block), return_index=True, return_counts=True
    )
    for value, index, count in zip(values.tolist(), first.tolist(), counts.tolist(), strict=True):
        if value not in tally:
            tally[value] = 0
            examples[value] = block[index]
        tally[value] += count


def _explain(
    ranking: Ranking,
    size: int,
    tally: dict[int, int],
    examples: dict[int, NDArray[np.uint8]],
    total: int,
) -> CensusResult:
    """Turn counts per strength into counts per category (one evaluation per class)."""
    categories = dict.fromkeys(ranking.categories(), 0)
    by_top: dict[str, int] | None = _top_card_table(ranking)
    for value, count in tally.items():
        evaluation = ranking.evaluate([Card(int(code)) for code in examples[value]])
        categories[evaluation.category] += count
        if by_top is not None and evaluation.category is Category.HIGH_CARD:
            top = evaluation.cards[0]
            represented = dict(evaluation.stands_for).get(top, top)
            rank = represented.rank
            key = "?" if rank is None else "10" if rank is Rank.TEN else rank.symbol
            by_top[key] = by_top.get(key, 0) + count
    return CensusResult(
        ranking.name, size, ranking.deck.value, total, len(tally), categories, by_top
    )


def _top_card_table(ranking: Ranking) -> dict[str, int] | None:
    """For low rankings, an empty no-pair table keyed 5 ... K (and any others seen)."""
    if ranking.name != "low":
        return None
    return dict.fromkeys(["5", "6", "7", "8", "9", "10", "J", "Q", "K"], 0)


def _wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a binomial share."""
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return (max(0.0, centre - half / denominator), min(1.0, centre + half / denominator))
