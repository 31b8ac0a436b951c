"""The dealer's draws: recorded live, fed back exactly, and a record that does not fit
the replay is refused."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest

from guts.catalog import find_game
from guts.server.dealer import Dealer, DealerError, permutation


def test_a_session_dealt_live_deals_the_same_cards_when_fed_its_draws() -> None:
    live = Dealer()
    session = find_game("bourre").new_session(["A", "B", "C"], buy_in=20, rng=live)
    session.start_deal()
    draws = json.loads(json.dumps(live.take()))  # as stored
    assert [sorted(draw) for draw in draws] == [["shuffle"], ["bits", "value"]]
    again = Dealer()
    replay = find_game("bourre").new_session(["A", "B", "C"], buy_in=20, rng=again)
    again.feed(draws)
    replay.start_deal()
    again.done()
    assert replay.events == session.events


def test_live_draws_come_from_the_system() -> None:
    dealer = Dealer()
    cards = list(range(52))
    dealer.shuffle(cards)
    assert sorted(cards) == list(range(52)) and cards != list(range(52))
    assert isinstance(dealer._system, random.SystemRandom)
    dealer.seed(1)  # ignored: no seed makes the draws predictable
    first = list(range(52))
    dealer.shuffle(first)
    dealer.seed(1)
    second = list(range(52))
    dealer.shuffle(second)
    assert first != second
    with pytest.raises(DealerError):
        dealer.getstate()


def test_a_record_that_does_not_fit_is_refused() -> None:
    dealer = Dealer()
    dealer.feed([{"shuffle": [1, 0]}])
    with pytest.raises(DealerError, match="2 items for 3"):
        dealer.shuffle([1, 2, 3])
    dealer.feed([{"bits": 64, "value": 5}])
    with pytest.raises(DealerError, match="needs a shuffle draw"):
        dealer.shuffle([1, 2])
    dealer.feed([])
    with pytest.raises(DealerError, match="does not hold"):
        dealer.getrandbits(8)
    dealer.feed([{"random": 0.5}])
    with pytest.raises(DealerError, match="did not make"):
        dealer.done()
    dealer.feed([{"random": 0.25}, {"bits": 8, "value": 7}])
    assert (dealer.random(), dealer.getrandbits(8)) == (0.25, 7)
    dealer.done()


def test_each_number_below_n_factorial_is_another_order() -> None:
    orders = {tuple(permutation(number, 5)) for number in range(math.factorial(5))}
    assert orders == set(itertools.permutations(range(5)))


def test_live_shuffles_deal_every_order_about_as_often() -> None:
    dealer = Dealer()
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(2400):
        cards = [0, 1, 2]
        dealer.shuffle(cards)
        counts[tuple(cards)] += 1
    assert [sorted(draw) for draw in dealer.take()] == [["shuffle"]] * 2400
    # 400 expected each, a standard deviation of about 18: 250 is over eight of them off
    assert len(counts) == 6 and all(250 < count < 550 for count in counts.values())
