"""Guts and its variants: rules as data, deals as state machines, sessions across deals.

Rules are one frozen dataclass, :class:`GutsRules`; a named game is an entry of
:data:`PRESETS` (name -> (rules, one-line description)); options are overridden by name
from strings. A :class:`GutsSession` plays deals on a chip table until its game ends:

>>> import random
>>> session = new_session("two-card-guts", ["Ann", "Bob"], options={"ante": "2"},
...                       buy_in=50, rng=random.Random(7))
>>> session.start_deal()                 # antes, shuffle, deal
>>> [(d.seat, d.actions) for d in session.pending()]
[(1, ('in', 'out'))]
>>> events = session.act(1, "out")       # Ann, the dealer, is then in automatically
>>> [event.kind for event in events][:3]  # act returns the events it caused
['acted', 'declared', 'declared']
>>> session.is_over, session.over_reason, session.table.stack(0)
(True, 'the pot was won', 52)
>>> replayed = GutsSession.replay(session.record())   # JSON-able record -> same events
>>> replayed.events == session.events
True

``view(seat)`` and ``public_view()`` are JSON-able dicts of what a seat (a spectator) may
see; ``events`` is the full record (hidden events included: filter with
``visible_events(seat)``); ``rules.describe()`` is the rules text.
"""

from __future__ import annotations

from guts.games.guts.deal import GutsDeal, Phase
from guts.games.guts.presets import FAMILY, PRESETS, new_session, preset
from guts.games.guts.rules import (
    Declare,
    EveryoneOut,
    Ghost,
    GhostTie,
    GutsRules,
    HandRanking,
    Payment,
    Qualifier,
)
from guts.games.guts.session import GutsSession
from guts.games.guts.settle import ASIDE

__all__ = [
    "ASIDE",
    "FAMILY",
    "PRESETS",
    "Declare",
    "EveryoneOut",
    "Ghost",
    "GhostTie",
    "GutsDeal",
    "GutsRules",
    "GutsSession",
    "HandRanking",
    "Payment",
    "Phase",
    "Qualifier",
    "new_session",
    "preset",
]
