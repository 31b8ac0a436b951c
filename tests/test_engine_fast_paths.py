"""The engine's quicker paths give exactly what the general ones give.

Each speed-up of issue 11 keeps a general path (the one the rules are written in) and adds
a quicker one for the common case; these tests hold the two equal on many random inputs.
"""

from __future__ import annotations

import gc
import random
import weakref
from itertools import combinations_with_replacement

import pytest

from guts.betting import Legal
from guts.cards import Card, DeckKind, deck_cards
from guts.catalog import find_game
from guts.errors import GutsError
from guts.games.decision import Decision, Wager
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


@pytest.mark.parametrize(
    "preset",
    [
        "two-card-guts",
        "five-card-draw",
        "deuces-wild",
        "bosnian-32-card-poker",
        "bourre",
        "three-five-seven",
    ],
)
def test_verbatim_actions_read_as_themselves(preset: str) -> None:
    """Every action a decision lists as verbatim is what the session's own reading makes
    of it, and acting with it records the same events as acting with its canonical form."""
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        session = find_game(preset).new_session(["A", "B", "C", "D"], buy_in=200, rng=rng)
        deals = 0
        while not session.is_over and deals < 8:
            if session.deal_over:
                session.start_deal()
                deals += 1
                continue
            decision = session.pending()[0]
            for action in decision.verbatim:
                assert session.canonical(decision.seat, action) == action
                checked += 1
            session.act(decision.seat, rng.choice(decision.actions))
    assert checked > 20


def test_wager_decisions_are_shared_and_equal_to_new_ones() -> None:
    legal = Legal(2, True, False, 5, None, None, 10, 40)
    first = Decision.wager(legal, 100)
    assert first is Decision.wager(legal, 100)
    assert first == Decision(2, Wager(legal, 100))
    assert Decision.wager(legal, 50) == Decision(2, Wager(legal, 50))
    assert first.verbatim == frozenset(first.actions)


@pytest.mark.parametrize("ace_low", [True, False])
def test_every_five_card_class_has_its_evaluations_words(ace_low: bool) -> None:
    """Every rank multiset, unsuited and (five distinct ranks) suited: all 7,462 classes."""
    looked_up, evaluated = HighRanking(ace_low=ace_low), HighRanking(ace_low=ace_low)
    seen = set()
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if max(ranks.count(rank) for rank in ranks) > 4:
            continue
        suits = [ranks[:i].count(rank) for i, rank in enumerate(ranks)]
        if len(set(ranks)) == 5:
            suits[0] = 1  # not a flush; the flush of these ranks follows
        hands = [[Card.of(rank, suit) for rank, suit in zip(ranks, suits, strict=True)]]
        if len(set(ranks)) == 5:
            hands.append([Card.of(rank, 0) for rank in ranks])
        for hand in hands:
            assert looked_up.describe(hand) == evaluated.evaluate(hand).description
            seen.add(looked_up.strength(hand))
    assert len(seen) == 7462


@pytest.mark.parametrize("preset", ["five-card-draw", "two-card-guts"])
def test_a_finished_session_is_freed_without_the_cycle_collector(preset: str) -> None:
    """Neither a session and its deal nor a draw deal and its showdown hold each other."""
    rng = random.Random(3)
    session = find_game(preset).new_session(["A", "B", "C", "D"], buy_in=100, rng=rng)
    while not session.is_over:
        session.start_deal()
        while not session.deal_over:
            decision = session.pending()[0]
            session.act(decision.seat, rng.choice(decision.actions))
    deal = weakref.ref(session.deal)
    gc.disable()
    try:
        del session
        assert deal() is None
    finally:
        gc.enable()
