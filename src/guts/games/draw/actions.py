"""Action strings of draw poker: betting, discarding, the Bosnian choice, declarations.

Betting: ``fold``, ``check``, ``call``, ``bet N`` (open with N chips), ``raise N`` (raise
to N in all for this round; ``raise to N`` is also read). A bet or raise may be any legal
amount: a :class:`~guts.games.base.Decision` lists the smallest, a middle and the largest
size, and its prompt gives the whole range (``bet 10..40``).

Drawing: ``stand pat`` or ``discard 7h 2c`` (the cards thrown away, by their text; a
Decision lists every legal discard with the cards in hand order); ``discard all`` throws
the whole hand (All for One). The Bosnian exchange: ``take up`` or ``take down``.
Declaring (cards do not speak): ``declare full-house``.

>>> betting_action("raise to 40"), betting_action("bet 10")
(Raise(to=40), Bet(amount=10))
>>> betting_choices(Legal(0, True, True, 0, min_bet=10, max_bet=40))
('fold', 'check', 'bet 10', 'bet 25', 'bet 40')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from guts.betting import Action, Bet, Call, Check, Fold, Legal, Raise
from guts.cards import Card, parse_cards
from guts.errors import CardError, IllegalAction

__all__ = [
    "betting_action",
    "betting_choices",
    "betting_text",
    "discard_text",
    "discards_of",
    "parse_discard",
]


def betting_action(text: str) -> Action:
    """The betting action a string names; anything else raises IllegalAction."""
    words = text.strip().lower().split()
    if words == ["fold"]:
        return Fold()
    if words == ["check"]:
        return Check()
    if words == ["call"]:
        return Call()
    if len(words) == 3 and words[:2] == ["raise", "to"]:
        words = ["raise", words[2]]
    if len(words) == 2 and words[0] in ("bet", "raise") and words[1].isdigit():
        amount = int(words[1])
        if amount >= 1:
            return Bet(amount) if words[0] == "bet" else Raise(amount)
    raise IllegalAction(f"{text!r} is not a betting action (fold, check, call, bet N, raise N)")


def betting_text(action: Action) -> str:
    """The canonical string of a betting action (``raise 40`` for a raise to 40)."""
    if isinstance(action, Raise):
        return f"raise {action.to}"
    return str(action)


def _sizes(low: int, high: int) -> list[int]:
    return sorted({low, (low + high) // 2, high})


def betting_choices(legal: Legal) -> tuple[str, ...]:
    """Representative betting actions: fold, check/call, the least, a middle, the most size."""
    words = ["fold"]
    if legal.can_check:
        words.append("check")
    if legal.can_call:
        words.append("call")
    if legal.min_bet is not None and legal.max_bet is not None:
        words += [f"bet {n}" for n in _sizes(legal.min_bet, legal.max_bet)]
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        words += [f"raise {n}" for n in _sizes(legal.min_raise_to, legal.max_raise_to)]
    return tuple(words)


def discard_text(cards: Sequence[Card]) -> str:
    """``stand pat`` for no cards, else ``discard`` and the cards' ASCII codes."""
    return "discard " + " ".join(card.ascii for card in cards) if cards else "stand pat"


def discards_of(hand: Sequence[Card], counts: Sequence[int]) -> list[tuple[Card, ...]]:
    """Every set of cards of ``hand`` (in hand order) whose size is in ``counts``."""
    return [combo for n in sorted(set(counts)) for combo in combinations(hand, n)]


def parse_discard(text: str, hand: Sequence[Card]) -> tuple[Card, ...]:
    """The cards a ``discard``/``stand pat`` string throws, in hand order.

    Raises IllegalAction when it is not a discard or names a card not in ``hand``.
    """
    words = text.strip().split(None, 1)
    lowered = text.strip().lower()
    if lowered in ("stand pat", "pat", "discard", "discard none"):
        return ()
    if lowered == "discard all":
        return tuple(hand)
    if not words or words[0].lower() != "discard" or len(words) < 2:
        raise IllegalAction(f"{text!r} is not a draw (stand pat, or discard and the cards)")
    try:
        cards = parse_cards(words[1])
    except (CardError, ValueError) as error:
        raise IllegalAction(f"{text!r}: {error}") from None
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"{text!r} names a card twice")
    jokers = [card for card in hand if card.is_joker]
    wanted = sum(1 for card in cards if card.is_joker)
    if wanted > len(jokers):
        raise IllegalAction(f"{text!r}: there is no joker to discard")
    chosen = {card for card in cards if not card.is_joker} | set(jokers[:wanted])
    missing = [card for card in chosen if card not in hand]
    if missing:
        raise IllegalAction(f"{text!r}: {missing[0]} is not in the hand")
    return tuple(card for card in hand if card in chosen)
