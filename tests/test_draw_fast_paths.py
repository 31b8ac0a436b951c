"""Draw sessions play exactly as recorded: every draw preset over many seeded sessions
with random options, stacks (table stakes and credit, short stacks too) and a mix of legal
actions in several spellings and refused ones.

Each session is a list of steps (the setup, each deal's start, each action taken or
refused, the end), and each step shows what the engine did: the events an action made
in full, a refusal's message in full, and a short hash of the bulky rest (the decisions
offered, every seat's and the public view, the record, the narration and the replayed
record; ``tests/recorded_sessions.py``). The recorded steps are JSON in
``tests/fixtures/draw_sessions/``; a failure
names the preset, the session's seed, the step and what differs in it. A deliberate
change of the rules' behaviour records them again (``python tests/test_draw_fast_paths.py``)
and says so in its commit. ``tests/test_compiled.py`` plays the same sessions on the
compiled build.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from enum import StrEnum
from typing import Any, get_type_hints

import pytest
from recorded_sessions import (
    Step,
    ViewDigests,
    as_json,
    differences,
    every_view,
    first_difference,
    hashed,
    record,
    recorded,
    recorded_presets,
    refusal,
)

from guts.catalog import games, replay_record
from guts.errors import GutsError
from guts.games.decision import Decision, Discard, Wager
from guts.games.draw.rules import DrawRules
from guts.games.options import dash, split_optional
from guts.narrate import Narrator

FOLDER = "draw_sessions"
SESSIONS = 60
"""Seeded sessions per preset with random options, players and stacks."""
PLAIN = 20
"""Seeded sessions per preset as the preset stands, a full table with deep stacks."""
DEALS = 5
"""Deals at most per session (then it stops)."""
SKIPPED = {"max_deals", "seed", "min_players", "max_players"}
REFUSED: list[Any] = [None, 7, "", "raise 10000", "bet 0", "call", "check", "fold me",
                      "discard zz", "take up", "declare nothing", "pat", "raise to 3"]  # fmt: skip

def draw_presets() -> list[str]:
    """Every draw preset, by name."""
    return sorted(name for name, game in games().items() if game.family == "draw")


def seeds() -> list[tuple[int, bool]]:
    """Every session's seed, and whether it is a plain one."""
    return [(seed, False) for seed in range(SESSIONS)] + [
        (1000 + seed, True) for seed in range(PLAIN)
    ]


def random_options(rules: Any, rng: random.Random) -> dict[str, str]:
    """Up to three of ``rules``' options set to values their types allow."""
    hints = get_type_hints(type(rules))
    names = [f.name for f in dataclasses.fields(rules) if f.name not in SKIPPED]
    options: dict[str, str] = {}
    for name in rng.sample(names, k=rng.randint(0, 3)):
        inner, optional = split_optional(hints[name])
        if optional and rng.random() < 0.3:
            options[dash(name)] = "none"
        elif inner is bool:
            options[dash(name)] = rng.choice(["yes", "no"])
        elif isinstance(inner, type) and issubclass(inner, StrEnum):
            options[dash(name)] = rng.choice([member.value for member in inner])
        elif inner is int:
            options[dash(name)] = str(rng.choice([0, 1, 2, 2, 3, 4, 5, 10]))
    return options


def spelled(decision: Decision, rng: random.Random) -> str:
    """A legal action for ``decision``, now and then not in its canonical spelling."""
    options = decision.options
    roll = rng.random()
    if isinstance(options, Wager) and roll < 0.2:
        legal = options.legal
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            return f"raise to {rng.randint(legal.min_raise_to, legal.max_raise_to)}"
        if legal.min_bet is not None and legal.max_bet is not None:
            return f"b {rng.randint(legal.min_bet, legal.max_bet)}"
    if isinstance(options, Discard) and options.counts and roll < 0.3:
        count = rng.choice(options.counts)
        cards = rng.sample(list(options.hand), k=min(count, len(options.hand)))
        return " ".join(cards) if cards else "pat"
    action = rng.choice(decision.actions)
    return action.upper() if roll > 0.9 else action


def play(preset: str, seed: int, *, plain: bool = False) -> list[Step]:
    """One seeded session of ``preset``, step by step: a ``plain`` one with the preset's
    options, as many players as it takes and deep stacks, the others with random
    options, players and stacks."""
    rng = random.Random(seed)
    game = games()[preset]
    rules = game.rules()
    assert isinstance(rules, DrawRules)
    if plain:
        options, stacks = {}, [1000] * rules.player_limit
    else:
        options = random_options(rules, rng)
        options["credit"] = rng.choice(["yes", "no", "no"])
        players = rng.randint(rules.fewest_players, rules.player_limit + rng.choice([0, 0, 0, 1]))
        stacks = [rng.choice([0, 1, 3, 8, 40, 500, 500]) for _ in range(players)]
    names = [(f"P{seat}", chips) for seat, chips in enumerate(stacks)]
    steps: list[Step] = [{"do": "set up", "options": options, "players": names}]
    try:
        session = game.new_session(names, options=options, rng=random.Random(seed))
    except GutsError as error:
        steps.append({"do": "refused the setup", "refused": refusal(error)})
        return steps
    views = ViewDigests()
    deals = 0
    while not session.is_over:
        if session.deal_over:
            if deals == DEALS:
                session.stop()
                break
            session.start_deal()
            deals += 1
            steps.append({"do": f"start deal {deals}", "views": views(every_view(session))})
            continue
        pending = session.pending()
        offered = hashed([d.to_dict() for d in pending])
        decision = rng.choice(pending)
        seat = decision.seat
        if rng.random() < 0.15:
            wrong = rng.choice(REFUSED)
            try:
                session.act(seat, wrong)
            except GutsError as error:
                steps.append({"do": f"seat {seat}: {wrong!r}", "offered": offered,
                              "refused": refusal(error)})  # fmt: skip
            else:
                steps.append({"do": f"seat {seat}: {wrong!r}", "offered": offered,
                              "taken": True, "views": views(every_view(session))})  # fmt: skip
                continue
        action = spelled(decision, rng)
        events = [event.to_dict() for event in session.act(seat, action)]
        steps.append({"do": f"seat {seat}: {action!r}", "offered": offered, "events": events,
                      "views": views(every_view(session))})  # fmt: skip
    record = json.loads(json.dumps(session.record()))
    narrator = Narrator(session.table.names)
    steps.append({"do": "end", "record": hashed(record),
                  "ledger": hashed(session.table.snapshot()),
                  "narration": hashed([narrator.tell(e) for e in session.events])})  # fmt: skip
    replayed = replay_record(record)
    steps.append({"do": "replay the record", "record": hashed(replayed.record()),
                  "views": ViewDigests()(every_view(replayed))})  # fmt: skip
    return steps


def played(preset: str) -> dict[str, list[Step]]:
    """Every seeded session of ``preset``, by seed, as JSON would read them back."""
    return as_json({str(seed): play(preset, seed, plain=plain) for seed, plain in seeds()})


def test_every_draw_preset_is_recorded() -> None:
    assert recorded_presets(FOLDER) == draw_presets()


@pytest.mark.parametrize("preset", draw_presets())
def test_draw_sessions_play_as_recorded(preset: str) -> None:
    found = differences(preset, recorded(FOLDER, preset), played(preset))
    assert not found, f"{len(found)} sessions differ:\n" + "\n".join(found[:5])


def test_a_difference_names_the_session_step_and_what_changed() -> None:
    """The comparison itself: one event changed in a recorded session is reported with
    its preset, seed, step and both values."""
    preset = "five-card-draw"
    got = played(preset)
    seed, steps = next((seed, steps) for seed, steps in got.items()
                       if any("events" in step for step in steps))  # fmt: skip
    index = next(i for i, step in enumerate(steps) if step.get("events"))
    changed = json.loads(json.dumps(steps))
    changed[index]["events"][0]["seat"] = 99
    message = first_difference(preset, seed, changed, steps)
    assert message.startswith(f"{preset}, session {seed}, step {index} ({steps[index]['do']!r})")
    assert "events: expected" in message and "'seat': 99" in message
    assert f"{len(steps)} steps recorded, {len(steps) - 1} played" in first_difference(
        preset, seed, steps, steps[:-1]
    )


if __name__ == "__main__":
    for name in sys.argv[1:] or draw_presets():
        record(FOLDER, name, played(name))
        print(f"recorded {name}")
