"""Exceptions raised by guts.

Every error a player or a caller can cause is a :class:`GutsError`, which is a
:class:`ValueError`, and carries a message that names what was wrong and what is allowed.
"""

from __future__ import annotations


class GutsError(ValueError):
    """Base class of every error guts raises for bad input."""


class CardError(GutsError):
    """A token that is not a card, or a card that is not in the game's deck."""


class HandError(GutsError):
    """A hand of the wrong size, with duplicate cards, or otherwise unplayable."""


class OptionError(GutsError):
    """An unknown option, a bad option value, or options that contradict each other."""


class IllegalAction(GutsError):
    """An action a seat may not take now; the state is left untouched."""
