"""Wrong claim codes, counted per guesser: one guesser cannot lock the others out.

A claim code (:mod:`guts.club.members`) is guessed with a device key from an address.
Each wrong code counts against that device (:data:`DEVICE_TRIES`) and that address
(:data:`ADDRESS_TRIES`: several devices of one home share one); a guesser past either
bound is refused until the host issues a new code for the club. Anyone else, with
their own device and address, still claims with the code they were given. A fresh
device key costs nothing, so the address bound is the one a griefer meets; the club-wide
count (:data:`guts.club.members.MAX_FAILURES`) stays as a ceiling on all guesses
together, far above what one address may try.

The counts live in the server's memory, at most :data:`CAPACITY` of them (the least
recently counted are dropped first; a guesser's address is counted at every guess, so a
guesser cannot push their own out by guessing with fresh devices).

>>> guesses = Guesses(device_tries=2, address_tries=3)
>>> guesses.may_try("club", "dev-a", "10.0.0.1")
True
>>> guesses.wrong("club", "dev-a", "10.0.0.1"), guesses.wrong("club", "dev-a", "10.0.0.1")
(1, 0)
>>> guesses.may_try("club", "dev-a", "10.0.0.1"), guesses.may_try("club", "dev-b", "10.0.0.1")
(False, True)
>>> guesses.wrong("club", "dev-b", "10.0.0.1")  # the address's third
0
>>> guesses.may_try("club", "dev-c", "10.0.0.1"), guesses.may_try("club", "dev-c", "10.0.0.2")
(False, True)
>>> guesses.reset("club")  # the host issued a new code
>>> guesses.may_try("club", "dev-a", "10.0.0.1")
True
"""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["ADDRESS_TRIES", "CAPACITY", "DEVICE_TRIES", "Guesses"]

DEVICE_TRIES = 10
"""Wrong codes one device may try at a club before the host issues a new code."""
ADDRESS_TRIES = 30
"""Wrong codes one address may try at a club (its devices together) before the host
issues a new code."""
CAPACITY = 10_000
"""The most guessers counted at once, over all clubs (the memory stays bounded)."""


class Guesses:
    """The wrong codes of each device and each address, per club."""

    def __init__(self, device_tries: int = DEVICE_TRIES, address_tries: int = ADDRESS_TRIES,
                 capacity: int = CAPACITY) -> None:  # fmt: skip
        self.limits = {"device": device_tries, "address": address_tries}
        self.capacity = capacity
        self.counts: OrderedDict[tuple[str, str, str], int] = OrderedDict()

    def _keys(self, club_id: str, device: str, address: str) -> list[tuple[str, str, str]]:
        return [(club_id, "device", device), (club_id, "address", address)]

    def may_try(self, club_id: str, device: str, address: str) -> bool:
        """False when the device or the address has tried its most wrong codes."""
        return all(self.counts.get(key, 0) < self.limits[key[1]]
                   for key in self._keys(club_id, device, address))  # fmt: skip

    def wrong(self, club_id: str, device: str, address: str) -> int:
        """Count a wrong code of the device from the address: the tries it has left."""
        left = []
        for key in self._keys(club_id, device, address):
            self.counts[key] = self.counts.get(key, 0) + 1
            self.counts.move_to_end(key)
            left.append(max(0, self.limits[key[1]] - self.counts[key]))
        while len(self.counts) > self.capacity:
            self.counts.popitem(last=False)
        return min(left)

    def reset(self, club_id: str) -> None:
        """The host issued a new code: every guesser of the club may try again."""
        for key in [key for key in self.counts if key[0] == club_id]:
            del self.counts[key]
