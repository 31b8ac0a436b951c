"""Helpers for the staged-game tests: stacked decks in dealing order, and drivers."""

from __future__ import annotations

from collections.abc import Sequence

from guts.games.base import Event
from guts.games.staged import StagedRules, StagedSession
from guts.games.staged.events import CardsDealt, CardsShown, PointScored


def session(
    rules: StagedRules, players: int = 3, stacks: int = 100, button: int | None = None
) -> StagedSession:
    """A session of ``players`` (A, B, C, ...) with ``stacks`` each; the dealer is the last
    seat, so seat 0 declares first and turn order is seat order."""
    names = [chr(ord("A") + i) for i in range(players)]
    return StagedSession(
        rules, [(n, stacks) for n in names], button=players - 1 if button is None else button
    )


def start(s: StagedSession, hands: Sequence[str]) -> None:
    """Start a deal giving seat i the cards ``hands[i]`` (whatever the dealer)."""
    order = [seat for seat in s.table.turn_order() if s.table.credit or s.table.stack(seat) > 0]
    s.start_deal(s.stacked({seat: hands[seat] for seat in order}))


def declare(s: StagedSession, choices: Sequence[str]) -> None:
    """Every seat asked now (and until the stage is settled) declares ``choices[seat]``."""
    stage = s.deal.stage_index if s.deal else -1
    deal = s.deals_played
    while s.pending() and s.deals_played == deal and s.deal and s.deal.stage_index == stage:
        decision = s.pending()[0]
        s.act(decision.seat, choices[decision.seat])


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def allowed_cards(s: StagedSession, seat: int | None) -> set[str]:
    """Card codes ``seat`` (None: a spectator) may have seen."""
    seen: set[str] = set()
    for event in s.events:
        if not event.visible_to(seat):
            continue
        dealt = isinstance(event, CardsDealt) and (event.seat == seat or event.face_up)
        if dealt or isinstance(event, CardsShown):
            seen.update(event.cards)  # type: ignore[attr-defined]
        elif isinstance(event, PointScored) and event.card:
            seen.add(event.card)
    return seen
