"""Action strings of draw poker.

Betting: ``fold``, ``check``, ``call``, ``bet N`` (open with N chips), ``raise N`` (raise
to N in all for this round; ``raise to N`` is also read), read by
:func:`guts.games.decision.betting_action`; a decision's
:class:`~guts.games.decision.Wager` gives the exact range.

Drawing: ``stand pat`` or ``discard 7h 2c`` (the cards thrown away; any order and
spelling is read, the canonical form lists them in hand order); ``discard all`` throws
the whole hand (All for One); a decision's :class:`~guts.games.decision.Discard` says
which sets are legal. The Bosnian exchange: ``take up`` or ``take down``. Declaring
(cards do not speak): ``declare full-house``.

>>> from guts.cards import parse_cards
>>> discard_text(parse_cards("7h 2c")), discard_text(())
('discard 7h 2c', 'stand pat')
"""

from __future__ import annotations

from collections.abc import Sequence

from guts.cards import Card

__all__ = ["discard_text"]


def discard_text(cards: Sequence[Card]) -> str:
    """``stand pat`` for no cards, else ``discard`` and the cards' ASCII codes."""
    return "discard " + " ".join(card.ascii for card in cards) if cards else "stand pat"
