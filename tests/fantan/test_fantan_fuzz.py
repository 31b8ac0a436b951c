"""The fuzzer of every preset (tests/test_fuzz.py) over Fan Tan's presets, counted: each
preset's random sessions (random options, stacks and player counts, garbage between legal
actions) make events, views checked for hidden cards and records replayed, and a count of
zero fails, so the fuzzer cannot pass over Fan Tan without playing it."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from fuzz_helpers import check_no_leak, garbage, legal_action, random_options

from guts.catalog import find_game, replay_record
from guts.games.fantan import PRESETS
from guts.games.fantan.events import CardPlaced, FanTanResult


def fuzz_counted(name: str, seed: int, counts: Counter[str], steps: int = 300) -> None:
    rng = random.Random(seed)
    game = find_game(name)
    options = random_options(game.rules({}), rng)
    options["credit"] = rng.choice(["yes", "no"])
    players = rng.randint(2, 8)
    stacks = [rng.choice([0, 1, 5, 30, 200]) for _ in range(players)]
    session = game.new_session([(f"P{i}", stacks[i]) for i in range(players)], options=options,
                               rng=random.Random(seed))  # fmt: skip
    for _ in range(steps):
        if session.is_over:
            break
        if rng.random() < 0.2:
            garbage(session, rng)
            counts["refused"] += 1
        if session.deal_over:
            session.start_deal()
        else:
            decision = session.pending()[0]
            session.act(decision.seat, legal_action(decision, rng))
        assert sum(session.table.stacks) + sum(session.table.places.values()) == sum(stacks)
        check_no_leak(session)
        counts["views"] += players + 1
    if not session.is_over and session.deal_over:
        session.stop()
    replayed = replay_record(json.loads(json.dumps(session.record())))
    assert replayed.events == session.events
    counts["replays"] += 1
    counts["events"] += len(session.events)
    counts["cards played"] += sum(isinstance(e, CardPlaced) for e in session.events)
    counts["deals ended"] += sum(isinstance(e, FanTanResult) for e in session.events)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_fuzzer_plays_every_fan_tan_preset(name: str) -> None:
    counts: Counter[str] = Counter()
    for seed in range(3):
        fuzz_counted(name, seed, counts)
    for what in ("events", "views", "replays", "cards played", "deals ended", "refused"):
        assert counts[what] > 0, f"{name}: no {what} in {dict(counts)}"
