"""Helpers for the Fan Tan tests: suits as hands, stacked deals, a driver."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from guts.games.fantan import FanTanSession, new_session
from guts.games.fantan.events import Moved

RANKS = "A23456789TJQK"


def suit(letter: str, without: str = "", plus: str = "") -> str:
    """The 13 cards of a suit, less the codes in ``without``, plus those in ``plus``."""
    left = [f"{r}{letter}" for r in RANKS if f"{r}{letter}" not in without.split()]
    return " ".join(left + plus.split())


SUITED = {0: suit("h"), 1: suit("c"), 2: suit("d"), 3: suit("s")}
"""Four players, each dealt one whole suit: seat 0 hearts, 1 clubs, 2 diamonds, 3 spades."""


def table(
    hands: Mapping[int, str],
    players: int = 4,
    preset: str = "fan-tan",
    options: Mapping[str, str] | None = None,
    stacks: int = 50,
) -> FanTanSession:
    """A session of ``players`` (A, B, C, ...) with ``stacks`` each, dealer the last seat (so
    seat 0 is dealt first and plays first, and turns go in seat order), its first deal
    dealing ``hands``."""
    names = [chr(ord("A") + i) for i in range(players)]
    session = new_session(
        preset, [(n, stacks) for n in names], options=dict(options or {}), button=players - 1
    )
    session.start_deal(session.stacked(hands))
    return session


def play(session: FanTanSession, actions: Sequence[tuple[int, str]]) -> None:
    """Apply ``(seat, action)`` pairs in order."""
    for seat, action in actions:
        session.act(seat, action)


def first_legal(session: FanTanSession, choices: Mapping[int, list[str]] | None = None) -> None:
    """Play the deal out: each seat plays its next scripted choice (``choices``: seat ->
    actions, used in order) or else its first legal card, passing only when it must."""
    scripted = {seat: list(actions) for seat, actions in (choices or {}).items()}
    while not session.deal_over:
        decision = session.pending()[0]
        wanted = scripted.get(decision.seat)
        if wanted:
            session.act(decision.seat, wanted.pop(0))
        else:
            session.act(decision.seat, decision.actions[0])


def paid_to(session: FanTanSession, reason: str, destination: int | str = "pot") -> dict[int, int]:
    """Chips each seat paid for ``reason`` to ``destination`` (a seat, or a place's name)."""
    paid: dict[int, int] = {}
    for event in session.events:
        if (
            isinstance(event, Moved)
            and event.reason == reason
            and event.destination == destination
            and isinstance(event.source, int)
        ):
            paid[event.source] = paid.get(event.source, 0) + event.amount
    return paid
