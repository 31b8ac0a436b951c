"""The grammar of the narration: names joined with "and", verbs agreeing with their
subject, and the player, "You", in the second person.

The engine's outcome sentences and the terminal narration both use these, so a sentence
reads right whoever it is about.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["agree", "each", "is_you", "who"]

_IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do"}


def is_you(name: str) -> bool:
    """True for the player's own name, "You": it takes the second person."""
    return name.casefold() == "you"


def who(names: Sequence[str], *, start: bool = True) -> str:
    """``names`` joined with commas and "and"; the player reads "You" at the start of a
    sentence (``start``) and "you" elsewhere.

    >>> who(["Ann", "You", "Bob"]), who(["You"], start=False), who(["You", "Bob"])
    ('Ann, you and Bob', 'you', 'You and Bob')
    """
    words = [
        ("You" if start and i == 0 else "you") if is_you(name) else name
        for i, name in enumerate(names)
    ]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def agree(names: Sequence[str], verb: str) -> str:
    """``verb``, given as after "she" ("pays", "is", "has"), in the form its subject
    ``names`` takes: one player other than you keeps it, you or several take the plural.

    >>> agree(["Ann"], "pays"), agree(["You"], "pays"), agree(["Ann", "Bob"], "matches")
    ('pays', 'pay', 'match')
    >>> agree(["You"], "is"), agree(["You"], "has"), agree(["Ann", "Bob"], "ties")
    ('are', 'have', 'tie')
    """
    if len(names) == 1 and not is_you(names[0]):
        return verb
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def each(names: Sequence[object]) -> str:
    """The word " each" after an amount several players pay; nothing for one player.

    >>> "pay 4" + each(["Ann", "Bob"]), "pays 4" + each(["Ann"])
    ('pay 4 each', 'pays 4')
    """
    return " each" if len(names) > 1 else ""
