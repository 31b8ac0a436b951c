"""A table's action clocks: who is on the clock, since when, and how much time is left.

A person who must decide has the table's ``clock`` seconds, then what is left of their
time bank; when both run out the table takes the seat's safe action as a timeout
(:class:`~guts.server.autopilot.Autopilot`), and the time bank the decision used is
committed with it. A disconnected person's clock runs the same way. The clocks keep
nothing in the record but what each action used of a bank: they are restarted from the
table's state after every command (:meth:`Clocks.sync`), and after a restart.

The time comes from the table's :meth:`~guts.server.open_table.OpenTable.now` (the
event loop's, or the clock a test moves by hand); the rest, from the table's state at
each call (a table rebuilt from its record has a new one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from guts.server.state import TableState


@dataclass
class Clock:
    """A person's running action clock: since when, and their time bank then (ms)."""

    seat_id: int
    started: float
    bank_ms: int


class Clocks:
    """The running action clock of each game seat a person must decide for."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self.running: dict[int, Clock] = {}
        """The clocks by game seat (the seat's number in the session)."""

    def __len__(self) -> int:
        """How many clocks run."""
        return len(self.running)

    def sync(self, state: TableState, acted: int | None) -> None:
        """Start a clock for each person who must decide now (afresh for ``acted``, the
        game seat that just acted), and stop those of the others."""
        session = state.session
        running = self.running
        if acted is not None:
            running.pop(acted, None)
        if (
            not state.clock_ms
            or state.paused
            or state.status != "playing"
            or session is None
            or session.deal_over
        ):
            running.clear()
            return
        deciding = set()
        for decision in session.pending():
            seat = state.seat_at(decision.seat)
            if seat is None or seat.kind != "person" or state.plays_safe(decision.seat):
                continue
            deciding.add(decision.seat)
            clock = running.get(decision.seat)
            if clock is None or clock.seat_id != seat.seat_id:
                running[decision.seat] = Clock(seat.seat_id, self.now(), seat.bank_ms)
        for number in set(running) - deciding:
            del running[number]

    def bank_used(self, state: TableState, number: int) -> int:
        """The ms of the time bank seat ``number``'s decision used so far."""
        clock = self.running.get(number)
        if clock is None:
            return 0
        spent = int((self.now() - clock.started) * 1000)
        return min(clock.bank_ms, max(0, spent - state.clock_ms))

    def left(self, state: TableState, clock: Clock) -> float:
        """Seconds before ``clock`` (its time, then its bank) runs out."""
        return clock.started + (state.clock_ms + clock.bank_ms) / 1000 - self.now()

    def soonest(self, state: TableState) -> float | None:
        """Seconds before the first clock runs out (0 if one has), None if none runs."""
        if not self.running:
            return None
        return max(0.0, min(self.left(state, clock) for clock in self.running.values()))

    def shown(self, state: TableState) -> list[dict[str, Any]]:
        """The running clocks as the protocol's ``Clock`` objects."""
        clock_s = state.clock_ms / 1000
        listed = []
        for number, clock in sorted(self.running.items()):
            spent = self.now() - clock.started
            seconds = max(0.0, clock_s - spent)
            bank = min(clock.bank_ms / 1000, max(0.0, self.left(state, clock)))
            listed.append({"seat": number, "seconds": round(seconds, 1), "bank": round(bank, 1)})
        return listed
