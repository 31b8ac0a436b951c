"""Nicknames people can tell apart: normalised, visible, and one per look at a table.

A nickname is normalised (NFKC: a fullwidth ``Ｐａｔ`` is ``Pat``), may hold no control,
format or line-separator characters, no character that shows as nothing (a Hangul
filler, a blank Braille pattern...), no more than two combining marks on a letter, and
must show something. Two nicknames are the same name at a table when their
:func:`skeleton` is the same: Unicode's confusable characters (from the data of the
``confusable-homoglyphs`` package, Unicode's ``confusables.txt``) folded together, case
folded, marks and variation selectors left out, so ``Раt`` (a Cyrillic Р) and
``Pat\\ufe0f`` are ``Pat`` there.

>>> normal_nickname("  Ｐａｔ ")
'Pat'
>>> skeleton("Раt") == skeleton("pat") == skeleton("Pat\\ufe0f")
True
>>> normal_nickname("\\u3164")
Traceback (most recent call last):
...
ValueError: a nickname may not hold characters that show as nothing
"""

from __future__ import annotations

import unicodedata
from functools import cache

__all__ = ["MAX_MARKS", "normal_nickname", "skeleton"]

MAX_MARKS = 2
"""The most combining marks a nickname may put on one letter."""

BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # the blank Braille pattern
    "\u180e\u17b4\u17b5\u034f\u061c"  # a Mongolian vowel separator, Khmer vowels inherent...
    "\u2028\u2029"  # the line and paragraph separators
)
"""Characters that show as nothing though Unicode does not call them space or format."""


def normal_nickname(name: str, limit: int = 24) -> str:
    """``name`` as shown (NFKC, trimmed), or ValueError saying what is wrong with it."""
    name = unicodedata.normalize("NFKC", name).strip()
    if not name:
        raise ValueError("a nickname may not be empty")
    if len(name) > limit:
        raise ValueError(f"a nickname has at most {limit} characters")
    marks = 0
    visible = False
    for char in name:
        category = unicodedata.category(char)
        if category[0] == "C":
            raise ValueError("a nickname may not hold control characters")
        if char in BLANKS or category in ("Zl", "Zp"):
            raise ValueError("a nickname may not hold characters that show as nothing")
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                raise ValueError(f"a nickname may put at most {MAX_MARKS} marks on a letter")
            continue
        marks = 0
        visible |= category[0] != "Z"
    if not visible:
        raise ValueError("a nickname must show something")
    return name


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal for two names a reader could take for each other
    (confusable characters folded to one of them, case folded, marks left out)."""
    prototype = _prototypes()

    def fold(text: str) -> str:
        return "".join(
            prototype.get(char, char)
            for char in unicodedata.normalize("NFD", text)
            if unicodedata.category(char) not in ("Mn", "Me", "Cf") and not char.isspace()
        )

    return fold(fold(unicodedata.normalize("NFKC", name)).casefold())


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the least character it may be taken for,
    over the pairs of single characters of Unicode's confusables."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char] = parent.get(parent[char], parent[char])
        return char

    for char, alikes in confusables_data.items():
        if len(char) != 1:
            continue
        for alike in alikes:
            other = str(alike["c"]).replace("\u200e", "")
            if len(other) == 1:
                first, second = sorted((root(char), root(other)))
                if first != second:
                    parent[second] = first
    return {char: root(char) for char in list(parent)}
