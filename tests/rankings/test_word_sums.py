"""Word sums two cards per lookup: equal to adding one word per card, and bad codes found."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from guts.errors import HandError
from guts.rankings.word_sums import OUTSIDE, WordSums, as_code_bytes, reject_outside

WORDS = np.random.default_rng(5).integers(0, 1 << 40, 54).astype(np.int64)
BIAS = 0x3333 << 20


def one_word_per_card(hands: np.ndarray, valid: int) -> np.ndarray:
    """The plain sum: every card's word, the first card's bias, nothing clever."""
    total = np.full(len(hands), BIAS, np.int64)
    for column in range(hands.shape[1]):
        total += WORDS[hands[:, column]]
    assert (hands < valid).all()
    return total


CODE = st.integers(0, 53)
HANDS = st.integers(1, 7).flatmap(
    lambda k: arrays(np.uint8, st.tuples(st.integers(0, 40), st.just(k)), elements=CODE)
)


@given(HANDS)
def test_pair_lookups_add_up_like_one_word_per_card(hands: np.ndarray) -> None:
    sums = WordSums.of(WORDS, 54, BIAS)
    found = sums.total(hands)
    assert found.tolist() == one_word_per_card(hands, 54).tolist()
    assert not (found & OUTSIDE).any()


@pytest.mark.parametrize("cards", range(1, 8))
def test_every_position_flags_a_code_outside_the_pack(cards: int) -> None:
    sums = WordSums.of(WORDS, 52)
    for position in range(cards):
        for bad in (52, 53, 99, 255):
            hands = np.arange(cards * 3, dtype=np.uint8).reshape(3, cards)
            hands[1, position] = bad
            flagged = (sums.total(hands) & OUTSIDE) != 0
            assert flagged.tolist() == [False, True, False]
            with pytest.raises(HandError, match=f"card code {bad} is not in"):
                reject_outside(sums.total(hands), hands, 52)


def test_seven_codes_outside_the_pack_still_show() -> None:
    hands = np.full((1, 7), 200, np.uint8)
    assert (WordSums.of(WORDS, 52).total(hands) & OUTSIDE).all()


def test_slices_of_a_bigger_array_add_up_alike() -> None:
    hands = np.random.default_rng(1).integers(0, 52, (1000, 5)).astype(np.uint8)
    sums = WordSums.of(WORDS, 52, BIAS)
    for start, stop in ((0, 1000), (1, 1000), (333, 777), (999, 1000)):
        block = hands[start:stop]
        assert sums.total(block).tolist() == one_word_per_card(block, 52).tolist()
    columns = np.random.default_rng(2).integers(0, 52, (7, 20)).astype(np.uint8)[:, ::4]
    assert sums.total(columns).tolist() == one_word_per_card(columns, 52).tolist()


def test_a_hand_of_no_cards_is_an_error() -> None:
    with pytest.raises(HandError, match="at least one card"):
        WordSums.of(WORDS, 52).total(np.zeros((3, 0), np.uint8))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint16", "uint64"])
def test_other_integer_types_are_converted(dtype: str) -> None:
    codes = np.arange(40, dtype=dtype).reshape(8, 5)[::2]  # not contiguous either
    found = as_code_bytes(codes)
    assert found.dtype == np.uint8 and found.flags.c_contiguous
    assert found.tolist() == codes.tolist()


@pytest.mark.parametrize("dtype", [">i4", ">u2", ">i8", "<i8"])
def test_either_byte_order(dtype: str) -> None:
    codes = np.arange(50, dtype=dtype).reshape(10, 5)
    assert as_code_bytes(codes).tolist() == codes.tolist()


def test_uint8_input_is_not_copied() -> None:
    codes = np.arange(10, dtype=np.uint8).reshape(2, 5)
    assert as_code_bytes(codes) is codes


@pytest.mark.parametrize(("dtype", "bad"), [("int64", -1), ("int64", 256), ("int32", 100_000),
                                            ("int8", -128), ("uint64", 2**63)])  # fmt: skip
def test_codes_no_byte_holds_are_errors(dtype: str, bad: int) -> None:
    codes = np.zeros((300_000, 5), dtype)  # more than one conversion block
    codes[299_999, 3] = bad
    with pytest.raises(HandError, match=f"card code {bad} is not a card"):
        as_code_bytes(codes)


def test_codes_must_be_integers() -> None:
    with pytest.raises(HandError, match="integers, not float64"):
        as_code_bytes(np.zeros((2, 5)))
