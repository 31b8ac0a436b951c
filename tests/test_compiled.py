"""The compiled kernels (numba, the ``fast`` extra) equal the numpy kernels, and
``GUTS_KERNELS`` chooses between them."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from guts.cards import parse_cards
from guts.errors import HandError, OptionError
from guts.rankings import batch_high
from guts.rankings.high import HighRanking
from guts.rankings.tables import hand_chunks
from guts.rankings.wilds import JokerMode, Wilds

pytest.importorskip("numba")

RANKINGS = {
    "natural": HighRanking(),
    "natural-ace-high": HighRanking(ace_low=False),
    "deuces": HighRanking(wilds=Wilds.of([2])),
    "one-eyed-jacks": HighRanking(wilds=Wilds.of(cards=parse_cards("Js Jh"))),
    "one-bug": HighRanking(jokers=1),
    "two-bugs-ace-high": HighRanking(jokers=2, ace_low=False),
    "two-wild-jokers": HighRanking(wilds=Wilds.of(joker=JokerMode.WILD), jokers=2),
    "deuces-and-a-bug": HighRanking(wilds=Wilds.of([2]), jokers=1),
}


def strengths(ranking: HighRanking, hands: NDArray[np.uint8], kernels: str,
              monkeypatch: pytest.MonkeyPatch) -> NDArray[np.int64]:  # fmt: skip
    monkeypatch.setenv("GUTS_KERNELS", kernels)
    return ranking.strength_batch(hands)


def random_hands(ranking: HighRanking, cards: int, count: int, seed: int) -> NDArray[np.uint8]:
    pack = 52 + ranking.jokers
    keys = np.random.default_rng(seed).random((count, pack))
    return np.argpartition(keys, cards - 1, axis=1)[:, :cards].astype(np.uint8)


@pytest.mark.parametrize("ace_low", [True, False])
@pytest.mark.parametrize("jokers", [0, 1])
def test_every_five_card_hand_alike(ace_low: bool, jokers: int,
                                    monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Natural hands take the five-card tables (jokers=0) or the general ones (jokers=1)."""
    ranking = HighRanking(ace_low=ace_low, jokers=jokers)
    hands = np.concatenate(list(hand_chunks(range(52), 5, chunk=1 << 22)))
    numpy = strengths(ranking, hands, "numpy", monkeypatch)
    assert (strengths(ranking, hands, "numba", monkeypatch) == numpy).all()


@pytest.mark.parametrize("name", RANKINGS)
@pytest.mark.parametrize("cards", range(1, 8))
def test_random_hands_alike(name: str, cards: int, monkeypatch: pytest.MonkeyPatch) -> None:
    ranking = RANKINGS[name]
    hands = random_hands(ranking, cards, 20_000, seed=cards)
    numpy = strengths(ranking, hands, "numpy", monkeypatch)
    assert (strengths(ranking, hands, "numba", monkeypatch) == numpy).all()


@pytest.mark.parametrize("name", ["natural", "deuces", "one-bug"])
@pytest.mark.parametrize("cards", [2, 5, 7])
def test_codes_outside_the_pack_are_the_same_error(
    name: str, cards: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ranking = RANKINGS[name]
    hands = random_hands(ranking, cards, 100, seed=4)
    hands[60, cards - 1] = 53 if ranking.jokers == 1 else 52
    messages = set()
    for kernels in ("numpy", "numba"):
        with pytest.raises(HandError, match="is not in this ranking's pack") as caught:
            strengths(ranking, hands, kernels, monkeypatch)
        messages.add(str(caught.value))
    assert len(messages) == 1


@pytest.mark.parametrize("name", RANKINGS)
@pytest.mark.parametrize("cards", [5, 6, 7])
def test_repeated_cards_alike(name: str, cards: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches do not look for repeated cards; the rankings' results for them mean
    nothing, but both kernels must read only their tables and agree, up to the biggest
    keys (seven aces of spades, every card of one suit)."""
    ranking = RANKINGS[name]
    pack = 52 + ranking.jokers
    rng = np.random.default_rng(cards)
    hands = rng.integers(0, pack, (5000, cards)).astype(np.uint8)
    hands[:pack] = np.arange(pack, dtype=np.uint8)[:, None]  # one card, k times over
    hands[pack : pack + 4] = np.arange(48, 52, dtype=np.uint8)[:, None]
    numpy = strengths(ranking, hands, "numpy", monkeypatch)
    assert (strengths(ranking, hands, "numba", monkeypatch) == numpy).all()


def test_auto_picks_the_compiled_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("auto", "", "Numba"):
        monkeypatch.setenv("GUTS_KERNELS", value)
        assert batch_high.compiled_kernels() is not None
    monkeypatch.delenv("GUTS_KERNELS")
    assert batch_high.compiled_kernels() is not None
    monkeypatch.setenv("GUTS_KERNELS", "numpy")
    assert batch_high.compiled_kernels() is None


def test_a_bad_choice_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUTS_KERNELS", "cython")
    with pytest.raises(OptionError, match="auto, numba or numpy, not 'cython'"):
        HighRanking().strength_batch(np.arange(5, dtype=np.uint8)[None, :])


def test_a_bad_choice_is_an_error_without_numba_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_high, "_compiled_module", lambda: None)
    monkeypatch.setenv("GUTS_KERNELS", "fast")
    with pytest.raises(OptionError, match="not 'fast'"):
        HighRanking().strength_batch(np.arange(5, dtype=np.uint8)[None, :])


def test_without_numba_auto_falls_back_and_numba_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(batch_high, "_compiled_module", lambda: None)
    hand = np.arange(5, dtype=np.uint8)[None, :]  # four deuces and a three
    monkeypatch.setenv("GUTS_KERNELS", "auto")
    assert batch_high.compiled_kernels() is None
    four_deuces = HighRanking().strength(parse_cards("2c 2d 2h 2s 3c"))
    assert HighRanking().strength_batch(hand).tolist() == [four_deuces]
    monkeypatch.setenv("GUTS_KERNELS", "numba")
    with pytest.raises(OptionError, match=r"pip install 'guts\[fast\]'"):
        HighRanking().strength_batch(hand)
