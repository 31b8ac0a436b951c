"""The outcomes a simulation counts: what each settlement of a deal came to.

A deal is settled once (most games) or once per stage (Three Five Seven, Napalm, Nuts,
Toh), and each settlement is one of:

- ``nobody-in``: nobody stayed in (Guts, the staged games), played (Bourré) or opened
  (draw poker); the pot stays, with whatever the rules add to it;
- ``uncontested``: one player was in (the others out or folded) and took the pot or the
  leg without a comparison, or paid for lacking a qualifying hand;
- ``showdown``: hands were compared, two or more of them or one against the ghost or the
  deck, or tricks were played out.

Each family reads its own events (its ``Family.settlements``).
"""

from __future__ import annotations

__all__ = ["NOBODY_IN", "OUTCOMES", "SHOWDOWN", "UNCONTESTED"]

NOBODY_IN = "nobody-in"
UNCONTESTED = "uncontested"
SHOWDOWN = "showdown"
OUTCOMES = (NOBODY_IN, UNCONTESTED, SHOWDOWN)
"""Every outcome, in the order reports list them."""
