"""Rounds of choices: declaring in or out (in turn or simultaneously) and passing cards.

A round knows who still has to choose and turns choices into events. In turn, each choice
is public at once; simultaneously, a choice is seen only by its maker (and the public sees
only that the seat has chosen) until every seat has chosen, when all are revealed together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from guts.games.base import Decision, Event
from guts.games.declaration.events import Chose, acted, declared

__all__ = ["ChoiceRound", "DeclareRound"]


class ChoiceRound:
    """Seats choosing from per-seat options, in turn or all at once."""

    def __init__(
        self,
        seats: Sequence[int],
        options: dict[int, tuple[str, ...]],
        *,
        simultaneous: bool,
        prompt: str,
        asked: Mapping[int, Decision] | None = None,
    ) -> None:
        self.seats = tuple(seats)
        self.options = options
        self.simultaneous = simultaneous
        self.prompt = prompt
        self.choices: dict[int, str] = {}
        self._asked = asked if asked is not None else {
            seat: Decision.choose(seat, options[seat], prompt, simultaneous) for seat in self.seats
        }  # fmt: skip
        """Each seat's decision (``asked``, when the caller has them made already)."""

    @property
    def done(self) -> bool:
        """True once every seat has chosen."""
        return len(self.choices) == len(self.seats)

    def waiting(self) -> tuple[int, ...]:
        """The seats that must choose now."""
        choices = self.choices
        if self.simultaneous:
            return tuple(s for s in self.seats if s not in choices)
        for seat in self.seats:  # in turn: the first undecided seat only
            if seat not in choices:
                return (seat,)
        return ()

    def pending(self) -> tuple[Decision, ...]:
        """One decision per seat that must choose now."""
        asked = self._asked
        return tuple([asked[seat] for seat in self.waiting()])

    def choose(self, seat: int, action: str) -> list[Event]:
        """Record a (checked) choice; return the events it makes."""
        self.choices[seat] = action
        if not self.simultaneous:
            return [acted(seat, action), *self._made(seat)]
        events: list[Event] = [acted(seat, action, (seat,)), Chose(seat=seat)]
        if self.done:
            events += self._reveal()
        return events

    def _made(self, seat: int) -> list[Event]:
        """Public events for an in-turn choice (none by default)."""
        return []

    def _reveal(self) -> list[Event]:
        """Events revealing every simultaneous choice (none by default)."""
        return []


class DeclareRound(ChoiceRound):
    """A round of declaring. ``auto_last``: the last seat in turn is automatically in
    when every other seat is out (the dealer, in the base game)."""

    def __init__(
        self,
        seats: Sequence[int],
        actions: tuple[str, ...],
        *,
        simultaneous: bool,
        auto_last: bool,
        number: int,
        prompt: str = "declare in or out",
    ) -> None:
        seats = tuple(seats)
        super().__init__(
            seats,
            dict.fromkeys(seats, actions),
            simultaneous=simultaneous,
            prompt=prompt,
            asked=_declarations(seats, actions, prompt, simultaneous),
        )
        self.auto_last = auto_last and not simultaneous and len(self.seats) > 1
        self.number = number
        self._outs = 0
        """How many seats have declared out so far."""

    def _made(self, seat: int) -> list[Event]:
        choice = self.choices[seat]
        events: list[Event] = [declared(seat, choice, self.number)]
        if choice == "out":
            self._outs += 1
        choices = self.choices
        if self.auto_last and self._outs == len(choices) == len(self.seats) - 1:
            last = next(s for s in self.seats if s not in choices)  # every other seat is out
            choices[last] = "in"
            events.append(declared(last, "in", self.number, automatic=True))
        return events

    def _reveal(self) -> list[Event]:
        return [declared(s, self.choices[s], self.number) for s in self.seats]


@lru_cache(maxsize=1 << 10, typed=True)
def _declarations(
    seats: tuple[int, ...], actions: tuple[str, ...], prompt: str, simultaneous: bool
) -> Mapping[int, Decision]:
    """Each seat's decision in a round of declaring, made once for the same seats, words,
    prompt and way of declaring (a decision is an immutable value, and the same rounds
    come deal after deal); read-only."""
    return {seat: Decision.choose(seat, actions, prompt, simultaneous) for seat in seats}
