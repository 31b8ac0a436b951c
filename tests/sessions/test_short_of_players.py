"""At table stakes a session that cannot go on (fewer than two players with chips) ends,
with a reason, in every family: when it is built so, after the deal that leaves it so, or
at ``start_deal``; ``start_deal`` never loops, counts only the deals it starts, and an
error from it changes nothing."""

from __future__ import annotations

import random
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from guts.cards import Deck, DeckKind, deck_cards, parse_cards
from guts.errors import GutsError, HandError, IllegalAction
from guts.games.bourre import BourreRules, BourreSession
from guts.games.draw import DrawRules, DrawSession
from guts.games.guts import GutsRules, GutsSession
from guts.games.staged import StagedRules, StagedSession
from guts.games.staged.rules import Game

SHORT = "fewer than two players have chips"

Maker = Callable[[Sequence[int], int], Any]  # a family's session (start_deal takes a deck)

FAMILIES: dict[str, Maker] = {
    "guts": lambda stacks, button: GutsSession(
        replace(GutsRules(), credit=False), _seats(stacks), button=button,
        rng=random.Random(1)),
    "three-five-seven": lambda stacks, button: StagedSession(
        replace(StagedRules(), credit=False), _seats(stacks), button=button,
        rng=random.Random(1)),
    "toh": lambda stacks, button: StagedSession(
        replace(StagedRules(game=Game.TOH), credit=False), _seats(stacks), button=button,
        rng=random.Random(1)),
    "draw": lambda stacks, button: DrawSession(
        replace(DrawRules(), credit=False), _seats(stacks), button=button,
        rng=random.Random(1)),
    "bourre": lambda stacks, button: BourreSession(
        replace(BourreRules(), credit=False), _seats(stacks), button=button,
        rng=random.Random(1)),
}  # fmt: skip


def _seats(stacks: Sequence[int]) -> list[tuple[str, int]]:
    return [(chr(ord("A") + i), chips) for i, chips in enumerate(stacks)]


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail instead of hanging if the block loops."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(("stacks", "button"), [([0, 0, 0, 0], 0), ([5, 0, 0, 0], 1),
                                                 ([0, 0, 0, 5], 0)])  # fmt: skip
def test_a_session_built_with_fewer_than_two_stakes_is_over(
    family: str, stacks: list[int], button: int
) -> None:
    s = FAMILIES[family](stacks, button)
    assert s.is_over and s.over_reason == SHORT and s.deals_played == 0
    before = s.events
    with within(5), pytest.raises(IllegalAction, match="over"):
        s.start_deal()
    assert s.events == before and s.deals_played == 0 and s.table.button == button
    again = type(s).replay(s.record())
    assert again.events == s.events and again.is_over


@pytest.mark.parametrize("family", FAMILIES)
def test_start_deal_ends_a_session_whose_stakes_were_taken_off_the_table(family: str) -> None:
    s = FAMILIES[family]([5, 5, 5, 5], 0)
    for seat in (0, 1, 2):
        s.table.cash_out(seat)  # the players leave between deals
    with within(5):
        s.start_deal()
    assert s.is_over and s.over_reason == SHORT and s.deals_played == 0 and s.deal is None


def test_bourre_ends_after_the_deal_that_leaves_one_stake_and_replays() -> None:
    s = BourreSession(BourreRules(credit=False), [("A", 1), ("B", 1)], button=1)
    dealt = parse_cards("Ah 2h Ad 2d As 9s 3c 5c 4c 6c")  # one at a time, A first
    s.start_deal(Deck([*dealt, *(c for c in deck_cards(DeckKind.STANDARD) if c not in dealt)]),
                 seed=1)  # fmt: skip
    while not s.deal_over:
        decision = s.pending()[0]
        actions = decision.actions
        s.act(decision.seat, "play" if "play" in actions else
              "stand" if "stand" in actions else actions[0])  # fmt: skip
    assert s.is_over and s.over_reason == SHORT and s.deals_played == 1
    assert BourreSession.replay(s.record()).events == s.events


def test_bourre_start_deal_with_a_bad_deck_changes_nothing() -> None:
    s = FAMILIES["bourre"]([0, 5, 5], 0)  # the button sits on a player without chips
    before = s.events
    with pytest.raises(HandError, match="whole 52-card pack"):
        s.start_deal(Deck.stacked("As Ks Qs"))
    assert s.table.button == 0 and s.events == before and s.deals_played == 0
    s.start_deal()  # a player with chips deals
    assert s.deal is not None and s.deal.dealer != 0 and s.deals_played == 1


@pytest.mark.parametrize("family", ["guts", "draw", "three-five-seven"])
def test_start_deal_with_too_few_cards_changes_nothing(family: str) -> None:
    s = FAMILIES[family]([5, 5, 5, 5], 0)
    before = [seat.stack for seat in s.table.seats]
    with pytest.raises(GutsError, match="this deal"):
        s.start_deal(Deck.stacked("As Ks Qs"))
    assert s.deals_played == 0 and not s.is_over and s.deal is None
    assert [seat.stack for seat in s.table.seats] == before and s.table.pot == 0
