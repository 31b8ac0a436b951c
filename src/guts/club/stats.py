"""A club's stats: each member's nights, net over time, and counts per game family.

The input is what the tables' records say in public, as plain data: for each night (a
table) its seats with their nets from the table's ledger, and each session's public
events (everything a spectator sees: the records as the history download writes them
for no seat) with the lobby seat each session seat was. Nothing here knows a game's
rules: it counts what the events say happened.

* A member's **night** is a table at which one of its seats bought chips; its net is
  the ledger's (the seats of one member at one table added up).
* **Deals** of a family: the deals a member was dealt into (a ``deal-started`` or
  ``draw-deal-started`` event naming its seat).
* **In** (Guts and Three Five Seven): of the member's declarations that were its own
  choice (``declared``, not ``automatic``), how many were ``in``; by position: the seat's
  place after the dealer in that deal's order (1: first after the dealer; 0: the dealer).
* **Biggest pot**: the most chips a member took out of the middle in one deal (the
  ``win`` and ``split`` movements to its seat).
* **Showdowns** (draw poker): the deals in which two or more hands were shown and the
  member's was one; **won**: of those, the ones it won chips in.
* **Net** of a family: the chips that moved to the member's seats less those that moved
  from them in that family's games, buy-ins and cash-outs left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from guts.club.members import Member, SeatKey

__all__ = [
    "FAMILY_NAMES",
    "FamilyStats",
    "MemberNight",
    "MemberStats",
    "NightRecord",
    "NightSummary",
    "SeatResult",
    "SeatSummary",
    "SessionRecord",
    "club_stats",
    "summarize",
]

FAMILY_NAMES = {"guts": "Guts", "staged": "Three Five Seven", "draw": "Draw poker",
                "bourre": "Bourré"}  # fmt: skip
"""The families' names as the page and the CSV show them."""
DEAL_STARTS = ("deal-started", "draw-deal-started")
MOVES = ("moved", "draw-moved")
BANKING = ("buy-in", "cash-out")
WINNING = ("win", "split")


@dataclass(frozen=True)
class SeatResult:
    """A lobby seat of a table: who sat there, whether a person, and its ledger net."""

    seat_id: int
    nickname: str
    net: int
    person: bool = True


@dataclass(frozen=True)
class SessionRecord:
    """One session's public record: its family (``night`` for dealer's choice, whose
    games each name theirs), which lobby seat each session seat was, and its events as
    JSON objects."""

    family: str
    lineup: tuple[int, ...]
    events: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class NightRecord:
    """A table's night: its id, game, when it was opened, its seats and sessions."""

    table_id: str
    preset: str
    when: datetime
    seats: tuple[SeatResult, ...]
    sessions: tuple[SessionRecord, ...] = ()


@dataclass
class FamilyStats:
    """One member's counts in one family's games."""

    family: str
    deals: int = 0
    net: int = 0
    declared: int = 0
    ins: int = 0
    by_position: dict[int, list[int]] = field(default_factory=dict)
    """Position after the dealer -> [declarations, ins]."""
    pots_won: int = 0
    biggest_pot: int = 0
    showdowns: int = 0
    showdowns_won: int = 0

    @property
    def name(self) -> str:
        return FAMILY_NAMES.get(self.family, self.family)

    def add(self, other: FamilyStats) -> None:
        """Count ``other``'s deals too (another seat's, or another night's, of one member)."""
        self.deals += other.deals
        self.net += other.net
        self.declared += other.declared
        self.ins += other.ins
        for position, (declared, went_in) in other.by_position.items():
            row = self.by_position.setdefault(position, [0, 0])
            row[0] += declared
            row[1] += went_in
        self.pots_won += other.pots_won
        self.biggest_pot = max(self.biggest_pot, other.biggest_pot)
        self.showdowns += other.showdowns
        self.showdowns_won += other.showdowns_won

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FamilyStats:
        """The counts :meth:`to_dict` wrote."""
        return cls(str(data["family"]), int(data["deals"]), int(data["net"]),
                   int(data["declared"]), int(data["in"]),
                   {int(p): [int(d), int(i)] for p, d, i in data["by_position"]},
                   int(data["pots_won"]), int(data["biggest_pot"]), int(data["showdowns"]),
                   int(data["showdowns_won"]))  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """As JSON: the counts, and the positions as ``[position, declared, in]`` rows."""
        positions = [[p, d, i] for p, (d, i) in sorted(self.by_position.items())]
        return {"family": self.family, "name": self.name, "deals": self.deals, "net": self.net,
                "declared": self.declared, "in": self.ins, "by_position": positions,
                "pots_won": self.pots_won, "biggest_pot": self.biggest_pot,
                "showdowns": self.showdowns, "showdowns_won": self.showdowns_won}  # fmt: skip


@dataclass(frozen=True)
class MemberNight:
    """One of a member's nights: the table, its game, when, the nickname(s) and net."""

    table_id: str
    preset: str
    when: datetime
    nickname: str
    net: int


@dataclass
class MemberStats:
    """A member's nights (oldest first) and counts per family."""

    member: Member
    nights: list[MemberNight] = field(default_factory=list)
    families: dict[str, FamilyStats] = field(default_factory=dict)

    @property
    def net(self) -> int:
        return sum(night.net for night in self.nights)

    def running_net(self) -> list[int]:
        """The net after each night, oldest first (what the plot of net over time draws)."""
        total, points = 0, []
        for night in self.nights:
            total += night.net
            points.append(total)
        return points

    def family(self, family: str) -> FamilyStats:
        if family not in self.families:
            self.families[family] = FamilyStats(family)
        return self.families[family]

    def to_dict(self) -> dict[str, Any]:
        """As JSON for the page: the member, the nights with the running net, the families."""
        running = self.running_net()
        return {
            "id": self.member.id, "name": self.member.name, "net": self.net,
            "nights": [{"table_id": n.table_id, "preset": n.preset, "when": n.when.isoformat(),
                        "nickname": n.nickname, "net": n.net, "running": r}
                       for n, r in zip(self.nights, running, strict=True)],
            "families": [f.to_dict() for f in sorted(self.families.values(),
                                                     key=lambda f: -f.deals)],
        }  # fmt: skip


@dataclass(frozen=True)
class SeatSummary:
    """What one seat of a night did: its ledger net and its counts per family."""

    seat_id: int
    nickname: str
    net: int
    person: bool
    families: tuple[FamilyStats, ...] = ()


@dataclass(frozen=True)
class NightSummary:
    """A night's counts by lobby seat (:func:`summarize`): all the stats need of it, so
    a finished night is read once and kept (as :meth:`to_dict`'s JSON)."""

    table_id: str
    preset: str
    when: datetime
    seats: tuple[SeatSummary, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "preset": self.preset, "when": self.when.isoformat(),
                "seats": [{"seat_id": s.seat_id, "nickname": s.nickname, "net": s.net,
                           "person": s.person, "families": [f.to_dict() for f in s.families]}
                          for s in self.seats]}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NightSummary:
        """The summary :meth:`to_dict` wrote."""
        seats = tuple(
            SeatSummary(int(s["seat_id"]), str(s["nickname"]), int(s["net"]), bool(s["person"]),
                        tuple(FamilyStats.from_dict(f) for f in s["families"]))
            for s in data["seats"]
        )  # fmt: skip
        return cls(str(data["table_id"]), str(data["preset"]),
                   datetime.fromisoformat(str(data["when"])), seats)  # fmt: skip


def summarize(night: NightRecord) -> NightSummary:
    """Count ``night``'s events for each of its people's seats."""
    per = {str(seat.seat_id): MemberStats(Member(str(seat.seat_id), seat.nickname))
           for seat in night.seats if seat.person}  # fmt: skip
    for session in night.sessions:
        of = {n: str(seat_id) for n, seat_id in enumerate(session.lineup) if str(seat_id) in per}
        _count(per, session, of)
    seats = tuple(
        SeatSummary(seat.seat_id, seat.nickname, seat.net, seat.person,
                    tuple(per[str(seat.seat_id)].families.values()) if seat.person else ())
        for seat in night.seats
    )  # fmt: skip
    return NightSummary(night.table_id, night.preset, night.when, seats)


def club_stats(
    members: Iterable[Member],
    seats: Mapping[SeatKey, str],
    nights: Iterable[NightRecord | NightSummary],
) -> dict[str, MemberStats]:
    """Every member's stats from the club's ``nights`` (records, or their summaries);
    ``seats`` says which member each table's seat was (seats of no member, bots and the
    unclaimed, count for no one)."""
    stats = {member.id: MemberStats(member) for member in members}
    summaries = [n if isinstance(n, NightSummary) else summarize(n) for n in nights]
    for night in sorted(summaries, key=lambda n: (n.when, n.table_id)):
        owners = {seat.seat_id: seats.get((night.table_id, seat.seat_id))
                  for seat in night.seats if seat.person}  # fmt: skip
        _night_lines(stats, night, owners)
        for seat in night.seats:
            member_id = owners.get(seat.seat_id)
            if member_id is None or member_id not in stats:
                continue
            for family in seat.families:
                stats[member_id].family(family.family).add(family)
    return stats


def _night_lines(stats: dict[str, MemberStats], night: NightSummary,
                 owners: Mapping[int, str | None]) -> None:  # fmt: skip
    """Add each member's line for ``night`` (its seats' nets together)."""
    lines: dict[str, tuple[list[str], int]] = {}
    for seat in night.seats:
        member_id = owners.get(seat.seat_id)
        if member_id is None or member_id not in stats:
            continue
        names, net = lines.get(member_id, ([], 0))
        if seat.nickname not in names:
            names.append(seat.nickname)
        lines[member_id] = (names, net + seat.net)
    for member_id, (names, net) in lines.items():
        stats[member_id].nights.append(
            MemberNight(night.table_id, night.preset, night.when, " / ".join(names), net)
        )


@dataclass
class _Deal:
    """What is known of the deal being read."""

    family: str
    positions: dict[int, int] = field(default_factory=dict)
    won: dict[int, int] = field(default_factory=dict)
    shown: set[int] = field(default_factory=set)


def _count(stats: dict[str, MemberStats], session: SessionRecord, of: Mapping[int, str]) -> None:
    """Count ``session``'s events for the members ``of`` its seats."""
    family = session.family
    deal: _Deal | None = None
    for event in session.events:
        kind = event.get("kind")
        if kind == "night-game-started":
            family = str(event.get("family", family))
        elif kind in DEAL_STARTS:
            _close(stats, deal, of)
            deal = _start(stats, family, event, of)
        elif kind in MOVES:
            _moved(stats, family, deal, event, of)
        elif deal is None:
            continue
        elif kind == "declared" and not event.get("automatic"):
            _declared(stats, deal, event, of)
        elif kind == "draw-showed":
            deal.shown.add(int(event.get("seat", -1)))
        elif kind == "draw-deal-ended":
            _showdown(stats, deal, event, of)
    _close(stats, deal, of)


def _start(stats: dict[str, MemberStats], family: str, event: Mapping[str, Any],
           of: Mapping[int, str]) -> _Deal:  # fmt: skip
    """A deal begins: each member dealt in plays one more of ``family``'s deals."""
    order: Sequence[int] = event.get("seats") or ()
    dealer = event.get("dealer")
    deal = _Deal(family)
    for index, seat in enumerate(order):
        deal.positions[seat] = 0 if seat == dealer else index + 1
        if seat in of:
            stats[of[seat]].family(family).deals += 1
    return deal


def _moved(stats: dict[str, MemberStats], family: str, deal: _Deal | None,
           event: Mapping[str, Any], of: Mapping[int, str]) -> None:  # fmt: skip
    if event.get("reason") in BANKING:
        return
    amount = int(event.get("amount", 0))
    source, destination = _seat(event.get("source")), _seat(event.get("destination"))
    if source is not None and source in of:
        stats[of[source]].family(family).net -= amount
    if destination is not None and destination in of:
        stats[of[destination]].family(family).net += amount
        if deal is not None and event.get("reason") in WINNING and source is None:
            deal.won[destination] = deal.won.get(destination, 0) + amount


def _declared(stats: dict[str, MemberStats], deal: _Deal, event: Mapping[str, Any],
              of: Mapping[int, str]) -> None:  # fmt: skip
    seat = _seat(event.get("seat"))
    if seat is None or seat not in of:
        return
    counts = stats[of[seat]].family(deal.family)
    went_in = event.get("choice") == "in"
    counts.declared += 1
    counts.ins += went_in
    position = deal.positions.get(seat)
    if position is not None:
        row = counts.by_position.setdefault(position, [0, 0])
        row[0] += 1
        row[1] += went_in


def _showdown(stats: dict[str, MemberStats], deal: _Deal, event: Mapping[str, Any],
              of: Mapping[int, str]) -> None:  # fmt: skip
    """A draw deal ended: a showdown if two or more hands were shown."""
    if len(deal.shown) < 2:
        return
    winners = {seat for seat, amount in event.get("won", ()) if amount > 0}
    for seat in sorted(deal.shown):
        if seat in of:
            counts = stats[of[seat]].family(deal.family)
            counts.showdowns += 1
            counts.showdowns_won += seat in winners


def _close(stats: dict[str, MemberStats], deal: _Deal | None, of: Mapping[int, str]) -> None:
    """A deal is over: count the pots its members took."""
    if deal is None:
        return
    for seat, amount in deal.won.items():
        if seat in of and amount > 0:
            counts = stats[of[seat]].family(deal.family)
            counts.pots_won += 1
            counts.biggest_pot = max(counts.biggest_pot, amount)


def _seat(place: object) -> int | None:
    """``place`` if it is a seat's number (else a pot, the bets, the bank: None)."""
    return place if isinstance(place, int) and not isinstance(place, bool) else None
