"""Values made once per distinct key and handed out again.

Events are immutable values, and a deal makes the same few again and again (seat 2 calls,
deal 3 starts with dealer 1, Ann takes the pot (4)); making one costs several times
finding it, so the families keep each one they make in a :class:`Shared` under the key
of everything it is made from. A table of them is forgotten all at once when full, so
it never grows without bound.

>>> seen: Shared[str] = Shared(most=2)
>>> seen.kept.get(("a", 1)) or seen.keep(("a", 1), "made")
'made'
>>> seen.kept.get(("a", 1))
'made'
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, cast

__all__ = ["Shared"]

V = TypeVar("V")
T = TypeVar("T")


class Shared(Generic[V]):
    """Values of type ``V`` by key (``kept``: read it directly, it is the fast path), at
    most ``most`` of them."""

    __slots__ = ("kept", "most")

    def __init__(self, most: int) -> None:
        self.kept: dict[tuple[Any, ...], V] = {}
        self.most = most

    def keep(self, key: tuple[Any, ...], value: T) -> T:
        """Keep ``value`` (a ``V``: its own type is given back) under ``key``, forgetting
        every other first when full; it."""
        kept = self.kept
        if len(kept) >= self.most:
            kept.clear()
        kept[key] = cast(V, value)
        return value
