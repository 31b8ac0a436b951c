"""The server's shuffles: unpredictable when dealt, exact when replayed.

An engine session takes one ``rng`` for all its shuffles (the deck of each deal, a
reshuffled stock, Bourré's draw seed). The server gives it a :class:`Dealer`: live, it
draws from :class:`random.SystemRandom` and writes down what each draw came to (a
shuffle as the permutation it made, random bits as their value); replaying a table, it
is fed those draws back, so the session deals exactly the same cards. The draws a
command made are stored with it (:meth:`Dealer.take` after applying it live,
:meth:`Dealer.feed` before replaying it), server-side only.

>>> dealer = Dealer()
>>> cards = ["As", "Kd", "7c", "2h"]
>>> dealer.shuffle(cards)
>>> draws = dealer.take()
>>> again = Dealer()
>>> again.feed(draws)
>>> same = ["As", "Kd", "7c", "2h"]
>>> again.shuffle(same); again.done()
>>> same == cards
True

A permutation is stored rather than a seed so that a replay does not depend on the
shuffling algorithm of the Python that runs it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, MutableSequence
from typing import Any

from guts.errors import GutsError

__all__ = ["Dealer", "DealerError", "Draw", "permutation"]

Draw = dict[str, Any]
"""One draw: ``{"shuffle": [permutation]}``, ``{"bits": k, "value": n}`` or
``{"random": x}``."""


class DealerError(GutsError):
    """A replay asked for a draw the record does not hold (or left some unused)."""


def permutation(number: int, n: int) -> list[int]:
    """The order of ``range(n)`` that ``number`` (below n!) stands for: its digits in
    the mixed radix n, n - 1, ..., 2 are the swaps of a Fisher-Yates shuffle, so every
    number gives another order and a uniform number a uniform order.

    >>> sorted(tuple(permutation(k, 3)) for k in range(6)) == sorted(
    ...     __import__("itertools").permutations(range(3)))
    True
    """
    order = list(range(n))
    for last in range(n - 1, 0, -1):
        number, swap = divmod(number, last + 1)
        order[last], order[swap] = order[swap], order[last]
    return order


class Dealer(random.Random):
    """A random source that records its draws (live) or plays them back (replay)."""

    def __init__(self) -> None:
        self._system = random.SystemRandom()
        self._made: list[Draw] = []
        self._fed: list[Draw] | None = None
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Ignored: the draws come from the system's source, or from the record."""

    def getstate(self) -> tuple[Any, ...]:
        raise DealerError("the dealer's draws are recorded, not its state")

    def setstate(self, state: tuple[Any, ...]) -> None:
        raise DealerError("the dealer's draws are recorded, not its state")

    # -- recording and replaying -------------------------------------------------------------

    def take(self) -> list[Draw]:
        """The draws made since the last call (live), to store with the command."""
        made, self._made = self._made, []
        return made

    def feed(self, draws: Iterable[Mapping[str, Any]]) -> None:
        """Replay: the next draws are ``draws`` (a stored command's), in order."""
        self._fed = [dict(draw) for draw in draws]
        self._fed.reverse()

    def done(self) -> None:
        """Replay: back to live draws; DealerError if some fed draws were not used."""
        left, self._fed = self._fed, None
        if left:
            raise DealerError(f"the record holds {len(left)} draws the replay did not make")

    def _next(self, kind: str) -> Draw:
        assert self._fed is not None
        if not self._fed:
            raise DealerError(f"the replay needs a {kind} draw the record does not hold")
        draw = self._fed.pop()
        if kind not in draw:
            raise DealerError(f"the replay needs a {kind} draw, the record holds {sorted(draw)}")
        return draw

    # -- the draws ------------------------------------------------------------------------

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place."""
        if self._fed is None:
            order = self._permutation(len(x))
            self._made.append({"shuffle": order})
        else:
            order = self._next("shuffle")["shuffle"]
            if sorted(order) != list(range(len(x))):
                raise DealerError(f"a recorded shuffle of {len(order)} items for {len(x)}")
        x[:] = [x[i] for i in order]

    def _permutation(self, n: int) -> list[int]:
        """A uniformly random order of ``range(n)`` from one draw of the system's source
        (a number below n!, redrawn when the bits come to more: under two draws on
        average) instead of one draw, and a system call, per item."""
        count = math.factorial(n)
        while (number := self._system.getrandbits(count.bit_length())) >= count:
            pass
        return permutation(number, n)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits."""
        if self._fed is None:
            value = self._system.getrandbits(k)
            self._made.append({"bits": k, "value": value})
            return value
        draw = self._next("bits")
        if draw["bits"] != k:
            raise DealerError(f"a recorded draw of {draw['bits']} bits for {k}")
        return int(draw["value"])

    def random(self) -> float:
        """A float in [0, 1)."""
        if self._fed is None:
            value = self._system.random()
            self._made.append({"random": value})
            return value
        return float(self._next("random")["random"])
