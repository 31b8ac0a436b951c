"""Stacked decks and short drivers for the draw poker tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from guts.cards import Card, Deck, DeckKind, parse_card, parse_cards
from guts.games.base import Event
from guts.games.draw import DrawRules, DrawSession, preset
from guts.games.draw.rules import DrawRules as Rules


def stacked(
    hands: Sequence[str],
    rest: str = "",
    *,
    kind: DeckKind = DeckKind.STANDARD,
    widow: str | None = None,
    widow_after: int = 4,
) -> Deck:
    """A stock dealing ``hands`` (dealer's left first) one card at a time, then ``rest``."""
    parsed = [parse_cards(hand) for hand in hands]
    cards: list[Card] = []
    for index in range(len(parsed[0])):
        cards.extend(hand[index] for hand in parsed)
        if widow is not None and index + 1 == widow_after:
            cards.append(parse_card(widow))
    cards.extend(parse_cards(rest))
    return Deck.stacked(cards, kind)


def table_session(
    rules: DrawRules | str,
    players: int,
    *,
    stacks: Sequence[int] | int = 100,
    seed: int = 0,
) -> DrawSession:
    """A session with seats P0..P(n-1), P0 dealing first."""
    if isinstance(rules, str):
        rules = preset(rules)
    assert isinstance(rules, Rules)
    chips = [stacks] * players if isinstance(stacks, int) else list(stacks)
    names = [(f"P{i}", chips[i]) for i in range(players)]
    return DrawSession(rules, names, rng=random.Random(seed))


def play(session: DrawSession, *moves: tuple[int, str]) -> None:
    """Apply ``(seat, action)`` moves in order."""
    for seat, action in moves:
        session.act(seat, action)


def to_act(session: DrawSession) -> int:
    """The one seat that must act now."""
    (decision,) = session.pending()
    return decision.seat


def of_kind(session: DrawSession, kind: str) -> list[Event]:
    """The events of one kind in the session's record."""
    return [event for event in session.events if event.kind == kind]


def hand(session: DrawSession, seat: int) -> tuple[Card, ...]:
    """``seat``'s cards in the current deal."""
    assert session.deal is not None
    return tuple(session.deal.hands[seat])
