"""A club's members and how a device comes to be one.

A member has a stable id, a display name, and the devices that claimed it (each kept as
the hash of the device's club key: the key itself is the device's secret, its bearer
credential at the club). The rules:

* A device that sat at one of the club's tables is the member it claimed: the first seat
  a new device takes makes it a new member, named by the seat's nickname; every seat it
  takes later at the club's tables is that member's.
* On a new device a player claims an existing member with a code the host issued for
  that member: short-lived (:data:`CODE_LIFETIME`), used once, and bounded in attempts
  (after :data:`MAX_FAILURES` wrong codes the club's open codes are void, until the host
  issues another). The device is then that member; a member the device had made alone
  (no other device) is folded into it.
* The host merges two members (the same person who played on two devices before
  claiming): one keeps its id and name and takes the other's devices and seats.

>>> roster = Roster()
>>> jo = roster.seat(("t1", 3), "dev-a", "Jo", new_id="m1")
>>> roster.seat(("t2", 0), "dev-a", "Jo again", new_id="m2").id  # the same device
'm1'
>>> phone = roster.seat(("t2", 4), "dev-b", "Jo (phone)", new_id="m3")
>>> roster.claim("dev-b", "m1").id, sorted(roster.members)  # the phone's member folded in
('m1', ['m1'])
>>> sorted(roster.seats_of("m1"))
[('t1', 3), ('t2', 0), ('t2', 4)]
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from guts.errors import GutsError

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "CODE_LIFETIME",
    "MAX_DEVICES",
    "MAX_FAILURES",
    "MAX_MEMBERS",
    "MAX_NAME",
    "ClaimCode",
    "ClaimError",
    "Member",
    "Roster",
    "SeatKey",
    "check_name",
    "new_code",
    "normal_code",
]

SeatKey = tuple[str, int]
"""A seat of a club table: the table's id and the lobby seat's id."""

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
"""The letters of a claim code: no 0/O, 1/I/L or U, read aloud without doubt."""
CODE_LENGTH = 10
"""Letters in a claim code: 30^10 (about 2^49) codes against at most MAX_FAILURES guesses."""
CODE_LIFETIME = timedelta(minutes=15)
"""How long a claim code may be used after the host issued it."""
MAX_FAILURES = 10
"""Wrong codes a club takes before its open codes are void."""
MAX_MEMBERS = 1000
"""The most members one club keeps (a bound on what one host's club may grow to)."""
MAX_DEVICES = 20
"""The most devices one member may be claimed by."""
MAX_NAME = 40
"""The longest display name."""


class ClaimError(GutsError):
    """A claim, code, merge or rename the rules refuse; ``code`` says which, for an
    HTTP answer."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Member:
    """A member: stable ``id``, display ``name``, and when it was first seen."""

    id: str
    name: str
    since: datetime | None = None


@dataclass(frozen=True)
class ClaimCode:
    """A code the host issued for ``member_id``: its hash, and until when it is good."""

    code_hash: str
    member_id: str
    expires: datetime

    def open(self, now: datetime) -> bool:
        """True while the code may still be used."""
        return now < self.expires


def new_code() -> str:
    """A fresh claim code, grouped for reading aloud (``ABCDE-FGHJK``)."""
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{letters[:5]}-{letters[5:]}"


def normal_code(text: str) -> str:
    """A typed code as it is compared: upper case, without spaces or dashes, the
    letters that look alike read as the alphabet's (O as 0 is not in it: it is refused).

    >>> normal_code(" abcde fghjk "), normal_code("ABCDE-FGHJK")
    ('ABCDEFGHJK', 'ABCDEFGHJK')
    """
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def check_name(name: str) -> str:
    """``name`` stripped, if it is a display name a club keeps (1 to MAX_NAME printable
    characters); ClaimError if not."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise ClaimError("invalid", f"a member's name has 1 to {MAX_NAME} printable characters")
    return name


@dataclass
class Roster:
    """A club's members, which member each device claimed (by the device's key hash),
    and which member each of the club tables' seats was."""

    members: dict[str, Member] = field(default_factory=dict)
    devices: dict[str, str] = field(default_factory=dict)
    seats: dict[SeatKey, str] = field(default_factory=dict)
    codes: list[ClaimCode] = field(default_factory=list)
    failures: int = 0

    def copy(self) -> Roster:
        """A copy to change (the storage writes the difference)."""
        return Roster(dict(self.members), dict(self.devices), dict(self.seats),
                      list(self.codes), self.failures)  # fmt: skip

    def member_of_device(self, device: str) -> Member | None:
        """The member ``device`` (a key hash) claimed, if any."""
        member_id = self.devices.get(device)
        return None if member_id is None else self.members.get(member_id)

    def devices_of(self, member_id: str) -> list[str]:
        return [device for device, owner in self.devices.items() if owner == member_id]

    def seats_of(self, member_id: str) -> list[SeatKey]:
        return [seat for seat, owner in self.seats.items() if owner == member_id]

    def seat(self, seat: SeatKey, device: str, nickname: str, *, new_id: str,
             now: datetime | None = None) -> Member:  # fmt: skip
        """The member a seat taken by ``device`` is: the seat's if it has one already,
        else the device's member, else a new member ``new_id`` named ``nickname`` that
        the device claims."""
        known = self.seats.get(seat)
        if known is not None and known in self.members:
            return self.members[known]
        member = self.member_of_device(device)
        if member is None:
            if len(self.members) >= MAX_MEMBERS:
                raise ClaimError("full", f"a club keeps at most {MAX_MEMBERS} members")
            name = check_name(nickname) if nickname.strip() else "Player"
            member = Member(new_id, name[:MAX_NAME], now)
            self.members[member.id] = member
            self.devices[device] = member.id
        self.seats[seat] = member.id
        return member

    def issue(self, member_id: str, code_hash: str, now: datetime) -> ClaimCode:
        """Open a code (its hash) for ``member_id``: good for :data:`CODE_LIFETIME`;
        the club's count of wrong codes starts again, and expired codes are dropped."""
        self._member(member_id)
        code = ClaimCode(code_hash, member_id, now + CODE_LIFETIME)
        self.codes = [c for c in self.codes if c.open(now)] + [code]
        self.failures = 0
        return code

    def redeem(self, code_hash: str, device: str, now: datetime) -> Member:
        """The member a device claims with a code (its hash): the code is used up, and
        the device is that member from now on (:meth:`claim`). A code that is wrong,
        used or expired counts as a failure; ClaimError."""
        if self.failures >= MAX_FAILURES:
            raise ClaimError("locked", "too many wrong codes: ask the host for a new one")
        found = next((c for c in self.codes if c.open(now)
                      and hmac.compare_digest(c.code_hash, code_hash)), None)  # fmt: skip
        if found is None:
            self.failures += 1
            left = MAX_FAILURES - self.failures
            raise ClaimError("wrong-code", "that code is wrong or expired: ask the host for "
                                           f"a new one ({left} more tries)")  # fmt: skip
        self.codes = [c for c in self.codes if c is not found and c.open(now)]
        return self.claim(device, found.member_id)

    def claim(self, device: str, member_id: str) -> Member:
        """``device`` is ``member_id`` from now on; the member it had made, if no other
        device has it, is folded into ``member_id`` (its seats are the same person's)."""
        member = self._member(member_id)
        before = self.devices.get(device)
        if before == member_id:
            return member
        if len(self.devices_of(member_id)) >= MAX_DEVICES:
            raise ClaimError("full", f"a member has at most {MAX_DEVICES} devices")
        self.devices[device] = member_id
        if before is not None and before in self.members and not self.devices_of(before):
            self.merge(member_id, before)
        return member

    def merge(self, keep: str, gone: str) -> Member:
        """Fold member ``gone`` into ``keep``: its devices and seats are ``keep``'s, it
        is no more; ``keep``'s id and name stay."""
        if keep == gone:
            raise ClaimError("invalid", "a member cannot be merged with itself")
        kept = self._member(keep)
        self._member(gone)
        for device, owner in list(self.devices.items()):
            if owner == gone:
                self.devices[device] = keep
        for seat, owner in list(self.seats.items()):
            if owner == gone:
                self.seats[seat] = keep
        self.codes = [c for c in self.codes if c.member_id != gone]
        first = [m.since for m in (kept, self.members[gone]) if m.since is not None]
        del self.members[gone]
        kept = replace(kept, since=min(first) if first else None)
        self.members[keep] = kept
        return kept

    def rename(self, member_id: str, name: str) -> Member:
        """Give ``member_id`` the display name ``name``."""
        member = replace(self._member(member_id), name=check_name(name))
        self.members[member_id] = member
        return member

    def _member(self, member_id: str) -> Member:
        member = self.members.get(member_id)
        if member is None:
            raise ClaimError("no-such-member", "the club has no such member")
        return member
