"""The engine's quicker paths give exactly what the general ones give.

Each speed-up of issue 11 keeps a general path (the one the rules are written in) and adds
a quicker one for the common case; these tests hold the two equal on many random inputs.
"""

from __future__ import annotations

import random

import pytest

from guts.cards import DeckKind, deck_cards
from guts.errors import GutsError
from guts.rankings.high import HighRanking


@pytest.mark.parametrize("ace_low", [True, False])
def test_five_card_words_are_the_evaluations_words(ace_low: bool) -> None:
    pack = list(deck_cards(DeckKind.STANDARD))
    rng = random.Random(11)
    looked_up, evaluated = HighRanking(ace_low=ace_low), HighRanking(ace_low=ace_low)
    for _ in range(20_000):
        hand = rng.sample(pack, 5)
        assert looked_up.describe(hand) == evaluated.evaluate(hand).description


def test_five_card_words_of_a_bad_hand_raise_as_evaluate_does() -> None:
    ranking = HighRanking()
    ace = deck_cards(DeckKind.STANDARD)[-1]
    hand = [ace, ace, *deck_cards(DeckKind.STANDARD)[:3]]
    with pytest.raises(GutsError) as evaluated:
        ranking.evaluate(hand)
    with pytest.raises(GutsError) as described:
        ranking.describe(hand)
    assert str(described.value) == str(evaluated.value)
