"""Invariants under random legal play: chips conserved, no leaked cards, replay, termination."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts.games.base import EventError
from guts.games.draw import PRESETS, DrawRules, DrawSession, new_session
from guts.games.draw.events import Dealt, Drew, Offered, OpenersShown, Showed, WidowTurned

NAMES = sorted(PRESETS)


def _tokens(data: Any) -> set[str]:
    if isinstance(data, str):
        return set(data.split())
    if isinstance(data, dict):
        return set().union(*(_tokens(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(_tokens(v) for v in data)) if data else set()
    return set()


def _public_cards(session: DrawSession) -> set[str]:
    shown: set[str] = set()
    for event in session.events:
        if isinstance(event, Showed):
            shown.update(event.cards)
        elif isinstance(event, Drew):
            shown.update(event.shown)
        elif isinstance(event, WidowTurned):
            shown.add(event.card)
        elif isinstance(event, Offered):
            shown.add(event.up)
        elif isinstance(event, OpenersShown):
            shown.update(event.cards + event.kept_apart)
    return shown


def _seen_by(session: DrawSession, seat: int) -> set[str]:
    return {c for e in session.events if isinstance(e, Dealt) and e.seat == seat for c in e.cards}


def _check_no_leaks(session: DrawSession) -> None:
    deal = session.deal
    if deal is None:
        return
    public = _public_cards(session)
    hidden = {s: {c.ascii for c in cards} - public for s, cards in deal.hands.items()}
    everyone = set().union(*hidden.values())
    assert not everyone & _tokens(session.public_view())
    for seat in deal.seats:
        others = everyone - hidden[seat] - _seen_by(session, seat)
        assert not others & _tokens(session.view(seat)), seat


def _play(name: str, players: int, seed: int, options: dict[str, str]) -> DrawSession:
    rules = DrawRules.from_options(PRESETS[name][0], options)
    most = 5 if rules.stripped else 8  # every count the pack allows, not only the text's
    options = {"min-players": "2", "max-players": str(most), **options}
    rules = DrawRules.from_options(PRESETS[name][0], options)
    players = min(players, rules.player_limit, 52 // rules.hand_size)
    session = new_session(name, [f"P{i}" for i in range(players)], buy_in=60,
                          options=options, rng=random.Random(seed))  # fmt: skip
    chooser = random.Random(seed + 1)
    steps = 0
    while not session.is_over:
        steps += 1
        assert steps < 20_000, "the session did not end"
        if session.deal_over:
            session.start_deal()
            continue
        (decision,) = session.pending()
        session.act(decision.seat, chooser.choice(decision.actions))
        session.table.check_invariant()
        total = sum(s.stack for s in session.table.seats) + sum(session.table.places.values())
        assert total == 60 * players
        if steps % 7 == 0:
            _check_no_leaks(session)
    return session


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    players=st.integers(2, 8),
    seed=st.integers(0, 10_000),
    limit=st.sampled_from(["fixed", "no-limit", "pot"]),
)
def test_random_play_conserves_chips_leaks_nothing_and_replays(
    name: str, players: int, seed: int, limit: str
) -> None:
    options = {"max-deals": "4", "limit": limit}
    if limit != "fixed":
        options["raise-cap"] = "none"
    session = _play(name, players, seed, options)
    record = json.loads(json.dumps(session.record()))
    again = DrawSession.replay(record)
    assert again.events == session.events
    assert [s.stack for s in again.table.seats] == [s.stack for s in session.table.seats]


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(NAMES), players=st.integers(2, 8), seed=st.integers(0, 10_000))
def test_a_session_played_until_a_pot_is_won_ends(name: str, players: int, seed: int) -> None:
    session = _play(name, players, seed, {})
    assert session.is_over and session.over_reason


def test_a_tampered_record_does_not_replay() -> None:
    session = _play("five-card-draw", 3, 5, {"max-deals": "2"})
    record = session.record()
    record["events"] = record["events"][:-3]
    with pytest.raises(EventError, match="replay"):
        DrawSession.replay(record)
