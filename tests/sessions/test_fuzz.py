"""A fuzzer over every preset: random options and stacks, legal and garbage actions.

After every step: only GutsError escapes; a refused action changes nothing (events,
views, ledger); chips are conserved; no view shows a card its seat has not been shown;
the session ends; and its record replays to the same events. Every preset is counted:
its events, the views checked and the records replayed (none fails the test).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from fuzz_helpers import check_no_leak, check_secret_choice, garbage, legal_action, random_options

from guts.catalog import find_game, games, replay_record
from guts.errors import GutsError

TRIES = 25
"""Random tables drawn before a fuzz gives up finding one the game accepts."""


def fuzz(name: str, seed: int, counts: Counter[str], steps: int = 400) -> None:
    """One random session of ``name``, checked at every step; what it did, in ``counts``."""
    rng = random.Random(seed)
    game = find_game(name)
    base = game.rules({})
    for _ in range(TRIES):  # options that contradict each other, or a player count refused
        options = random_options(base, rng)
        options["credit"] = rng.choice(["yes", "no"])
        players = rng.randint(2, 7)
        stacks = [rng.choice([0, 1, 2, 5, 30, 200]) for _ in range(players)]
        names = [(f"P{i}", stacks[i]) for i in range(players)]
        try:
            session = game.new_session(names, options=options, rng=random.Random(seed))
            break
        except GutsError:
            counts["refused sessions"] += 1
    else:
        return
    total = sum(stacks)
    deals = 0
    for _ in range(steps):
        if session.is_over:
            break
        if rng.random() < 0.25:
            garbage(session, rng)
            counts["garbage refused"] += 1
        if session.deal_over:
            if deals >= 6:
                session.stop()
                continue
            session.start_deal()
            deals += 1
        else:
            decision = rng.choice(session.pending())
            if decision.simultaneous and rng.random() < 0.3:
                check_secret_choice(session, decision)
            events = session.act(decision.seat, legal_action(decision, rng))
            assert tuple(session.events[-len(events) :]) == events if events else True
        table = session.table
        table.check_invariant()
        held = sum(seat.stack for seat in table.seats) + sum(table.places.values())
        assert held == total, f"chips: {held} on the table, {total} bought in"
        check_no_leak(session)
        counts["views"] += players + 1
    if not session.is_over and session.deal_over:
        session.stop()
    replayed = replay_record(json.loads(json.dumps(session.record())))
    assert replayed.events == session.events
    counts["replays"] += 1
    counts["events"] += len(session.events)


@pytest.mark.parametrize("name", sorted(games()))
def test_fuzzing_every_preset_finds_nothing(name: str) -> None:
    """Three random sessions of every preset; a preset the fuzzer never played (no
    events, views or replays counted: its options always refused) fails."""
    counts: Counter[str] = Counter()
    for seed in range(3):
        fuzz(name, seed, counts)
    for what in ("events", "views", "replays"):
        assert counts[what] > 0, f"{name}: no {what} in {dict(counts)}"
