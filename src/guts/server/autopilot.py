"""What a table does by itself: the bots' turns, the next deal, the end of the night, and
a person's safe action when their clock runs out.

The autopilot looks at the table after every command and schedules its next step (a
``tick`` of the actor's inbox) after the step's delay (:class:`~guts.server.open_table.Settings`);
the step then goes through the inbox and the commit path as any command does. A bot
that may think for seconds (:data:`SLOW_BOTS`) chooses in a thread, and its choice comes
back through the inbox (:class:`Thought`), played only if the table has not moved on.
The actor's loop pauses the table when a step cannot be told to every seat, and stops
the autopilot after an unexpected error in a step (its ``stalled``).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from guts.bots import Policy
from guts.games.base import Decision
from guts.night.bots import NightPolicy
from guts.server.commands import ActCommand, DealCommand, StopCommand
from guts.server.open_table import OpenTable
from guts.server.state import Seat, TableSession

SLOW_BOTS = frozenset({"equilibrium"})
"""The bots whose choice may take seconds of CPU (a first solve of the game): they choose
in a thread, so that no table of the server waits for them."""


@dataclass
class Thought:
    """A bot's choice made off the event loop, for the decision ``key`` names (or the
    error its policy raised)."""

    key: tuple[Any, ...]
    action: str | None
    error: BaseException | None = None


class Autopilot:
    """The steps a table takes by itself, and when it takes the next one."""

    def __init__(
        self, table: OpenTable, *, tick: Callable[[], None], hand_in: Callable[[Thought], None]
    ) -> None:
        self.table = table
        self._tick = tick
        """Queues a step in the table's inbox."""
        self._hand_in = hand_in
        """Queues a choice made in a thread in the table's inbox."""
        self.rng = random.SystemRandom()
        """What the bots choose with."""
        self._due = False
        """True while a step waits in the inbox or on the timer."""
        self._due_at = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._thinking: asyncio.Task[None] | None = None
        """A slow bot's choice being made in a thread (:data:`SLOW_BOTS`), if any."""
        self._thought: Thought | None = None
        """The last choice made in a thread, until the table plays it or moves on."""

    @property
    def thinking(self) -> bool:
        """True while a slow bot's choice is being made in a thread."""
        return self._thinking is not None

    def next_step(self) -> float | None:
        """The delay before the table acts by itself, None while it waits for people; 0
        while a bot's choice is being made in a thread."""
        return 0.0 if self._thinking is not None else self.delay()

    def stop(self) -> None:
        """Take back the step scheduled and give up a choice being made (its thread
        finishes alone; nothing waits for it)."""
        if self._timer is not None:
            self._timer.cancel()
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None

    def stepping(self) -> None:
        """A step the autopilot scheduled came out of the inbox."""
        self._due = False

    def thought(self, thought: Thought) -> None:
        """A choice made in a thread came out of the inbox: the next step plays it."""
        self._thinking, self._thought = None, thought

    def delay(self) -> float | None:
        """The delay before the next step, or None if there is none now."""
        table = self.table
        state = table.state
        session = state.session
        if table.stalled or table.stale or state.paused:
            return None
        if state.leftover():
            return 0.0
        if state.status != "playing" or session is None:
            return None
        if state.ending and state.between_games():
            return 0.0
        if session.deal_over:
            if state.ending:
                return 0.0
            return table.settings.deal_delay if state.can_deal() else None
        for decision in session.pending():
            seat = state.seat_at(decision.seat)
            if seat is None:
                continue
            if state.plays_safe(decision.seat):
                return table.settings.bot_delay
            if seat.kind in SLOW_BOTS and self._thinking is not None:
                continue  # its thread hands its choice in when it is made
            if seat.kind != "person":
                return table.settings.bot_delay
        return table.clocks.soonest(state)

    def schedule(self) -> None:
        """Queue the next step after its delay (sooner, if one now falls due before the
        step already waiting)."""
        delay = self.delay()
        if delay is None:
            return  # a step already waiting checks again when it comes
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        if self._due:
            if self._due_at <= due:
                return
            if self._timer is not None:
                self._timer.cancel()
        self._due, self._due_at, self._timer = True, due, None
        if delay <= 0:
            self._tick()
        else:
            self._timer = loop.call_later(delay, self._tick)

    async def step(self) -> None:
        """Take the step due now, if one is: share out what is left, stop or deal, play
        a bot's or a safe turn, or time out a person whose clock ran out."""
        table = self.table
        state = table.state
        session = state.session
        if self.delay() is None or session is None:
            return
        if state.leftover():
            await table.commit(StopCommand(reason="the night is over: what is left is shared out"))
            return
        if session.deal_over or (state.ending and state.between_games()):
            if state.ending:
                await table.commit(StopCommand(reason="the host ended the night"))
            else:
                await table.commit(DealCommand())
            return
        for decision in session.pending():
            seat = state.seat_at(decision.seat)
            if seat is None:
                continue
            if state.plays_safe(decision.seat):
                action = state.safe(decision)
            elif seat.kind in SLOW_BOTS:
                chosen = self._slow_choice(session, decision, seat)
                if chosen is None:
                    continue  # its choice is being made in a thread
                action = session.canonical(decision.seat, chosen)
            elif seat.kind != "person":
                policy = state.policies[decision.seat]
                view = session.view(decision.seat)
                action = session.canonical(decision.seat, policy.choose(view, decision, self.rng))
            else:
                continue
            await table.commit(ActCommand(seat=decision.seat, action=action, seat_id=seat.seat_id))
            return
        clocks = table.clocks
        for number, clock in sorted(clocks.running.items()):
            due = session.decision(number)
            if clocks.left(state, clock) <= 0 and due is not None:
                timeout = ActCommand(seat=number, action=state.safe(due), seat_id=clock.seat_id,
                                     timeout=True, bank_ms=clock.bank_ms)  # fmt: skip
                await table.commit(timeout)
                return

    def _decision_key(
        self, session: TableSession, decision: Decision, seat: Seat
    ) -> tuple[Any, ...]:
        """What a choice made for ``decision`` stays good for: this session object (a
        rebuild makes another), as far as its events went, the seat and its bot (objects
        compared as themselves)."""
        policy = self.table.state.policies[decision.seat]
        return (session, len(session.events), decision, seat.seat_id, policy)

    def _slow_choice(self, session: TableSession, decision: Decision, seat: Seat) -> str | None:
        """The choice a thread made for ``decision`` if the table has not moved on since
        it was asked for; else None, asking for it (unless a thread is at work already).
        A choice made for a table that moved on (an event, a rebuild) is dropped."""
        key = self._decision_key(session, decision, seat)
        thought, self._thought = self._thought, None
        if thought is not None and thought.key == key:
            if thought.error is not None:
                raise thought.error
            return thought.action
        if self._thinking is None:
            policy = self.table.state.policies[decision.seat]
            view = session.view(decision.seat)
            self._thinking = asyncio.create_task(
                self._think(key, policy, view, decision), name=f"table {self.table.id} bot"
            )
        return None

    async def _think(
        self,
        key: tuple[Any, ...],
        policy: Policy | NightPolicy,
        view: dict[str, Any],
        decision: Decision,
    ) -> None:
        """Have ``policy`` choose in a thread, then hand the choice to the actor's inbox
        (it is committed there, in turn with every other command)."""
        try:
            action = await asyncio.to_thread(policy.choose, view, decision, self.rng)
        except Exception as error:
            self._hand_in(Thought(key, None, error))
        else:
            self._hand_in(Thought(key, action))
