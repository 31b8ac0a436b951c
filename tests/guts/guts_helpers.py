"""Helpers for the Guts tests: sessions, stacked deals (through the public `stacked`), a driver."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guts.games.guts import GutsRules, GutsSession
from guts.games.guts.events import CardsShown, Declared, Outcome


def session(
    rules: GutsRules, players: int = 3, stacks: int = 100, button: int | None = None
) -> GutsSession:
    """A session of ``players`` (A, B, C, ...) with ``stacks`` each; the dealer is the last
    seat, so seat 0 declares first and turn order is seat order."""
    names = [chr(ord("A") + i) for i in range(players)]
    return GutsSession(
        rules, [(n, stacks) for n in names], button=players - 1 if button is None else button
    )


def play(s: GutsSession, actions: Sequence[tuple[int, str]]) -> None:
    """Apply ``(seat, action)`` pairs."""
    for seat, action in actions:
        s.act(seat, action)


def declare_all(s: GutsSession, choices: Sequence[str]) -> None:
    """Seat i declares ``choices[i]`` when asked, in whatever order the rules ask."""
    progress = True
    while progress:
        progress = False
        for decision in s.pending():
            choice = choices[decision.seat]
            if choice in decision.actions:
                s.act(decision.seat, choice)
                progress = True
                break


def start(s: GutsSession, hands: Sequence[str], then: str = "") -> None:
    """Start a deal giving seat i the cards ``hands[i]`` (whatever the dealer)."""
    order = [seat for seat in s.table.turn_order() if s.table.credit or s.table.stack(seat) > 0]
    s.start_deal(s.stacked({seat: hands[seat] for seat in order}, then))


def deal_events(s: GutsSession, kind: type) -> list[Any]:
    """Events of the last deal of type ``kind``."""
    events = list(s.events)
    start = max(i for i, e in enumerate(events) if e.kind == "deal-started")
    return [e for e in events[start:] if isinstance(e, kind)]


def shown(s: GutsSession) -> list[int]:
    return [e.seat for e in deal_events(s, CardsShown)]


def outcome(s: GutsSession) -> str:
    return " | ".join(e.text for e in deal_events(s, Outcome))


def declared(s: GutsSession) -> list[tuple[int, str, bool]]:
    return [(e.seat, e.choice, e.automatic) for e in deal_events(s, Declared)]
