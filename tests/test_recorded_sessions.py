"""Guts, staged and Bourré sessions play exactly as recorded: every preset of those
families over seeded sessions of two to six players with stacks deep and short, each
decision a random one of the actions offered, now and then after an action refused.

The steps of each session (``tests/recorded_sessions.py``: the events of each action in
full, refusals' messages in full, the decisions offered, the views and the record as short
hashes) are JSON in ``tests/fixtures/sessions/``; a failure names the preset, the
session's seed, the step and what differs in it. They hold the engine's behaviour while
its families are rewritten; a deliberate change of a rule's behaviour records them again
(``python tests/test_recorded_sessions.py [PRESET ...]``) and says so in its commit. Draw
has its own, with random options and action spellings: ``tests/test_draw_fast_paths.py``.
"""

from __future__ import annotations

import json
import random
import sys

import pytest
from recorded_sessions import (
    Step,
    as_json,
    differences,
    hashed,
    record,
    recorded,
    recorded_presets,
    refusal,
    views,
)

from guts.catalog import games, replay_record
from guts.errors import GutsError

FOLDER = "sessions"
SESSIONS = 16
"""Seeded sessions per preset."""
DEALS = 6
"""Deals at most per session (then it stops)."""
REFUSED: list[object] = [None, 7, "", "fold me", "raise 10000", "declare nothing", "play zz",
                         "stay stay", "drop 3", "take up"]  # fmt: skip


def presets() -> list[str]:
    """Every preset of the families recorded here, by name."""
    return sorted(name for name, game in games().items() if game.family != "draw")


def play(preset: str, seed: int) -> list[Step]:
    """One seeded session of ``preset``, step by step."""
    rng = random.Random(seed)
    count = rng.randint(2, 6)
    players = [(f"P{seat}", rng.choice([3, 10, 200, 200, 200])) for seat in range(count)]
    steps: list[Step] = [{"do": "set up", "players": players}]
    try:
        session = games()[preset].new_session(players, rng=random.Random(seed))
    except GutsError as error:
        steps.append({"do": "refused the setup", "refused": refusal(error)})
        return steps
    deals = 0
    while not session.is_over:
        if session.deal_over:
            if deals == DEALS:
                session.stop()
                break
            session.start_deal()
            deals += 1
            steps.append({"do": f"start deal {deals}", "views": views(session)})
            continue
        pending = session.pending()
        offered = hashed([d.to_dict() for d in pending])
        decision = rng.choice(pending)
        seat = decision.seat
        if rng.random() < 0.1:
            wrong = rng.choice(REFUSED)
            try:
                session.act(seat, wrong)  # type: ignore[arg-type]
            except GutsError as error:
                steps.append({"do": f"seat {seat}: {wrong!r}", "offered": offered,
                              "refused": refusal(error)})  # fmt: skip
            else:
                steps.append({"do": f"seat {seat}: {wrong!r}", "offered": offered,
                              "taken": True, "views": views(session)})  # fmt: skip
                continue
        action = rng.choice(decision.actions)
        events = [event.to_dict() for event in session.act(seat, action)]
        steps.append({"do": f"seat {seat}: {action!r}", "offered": offered, "events": events,
                      "views": views(session)})  # fmt: skip
    kept = json.loads(json.dumps(session.record()))
    steps.append({"do": "end", "record": hashed(kept), "ledger": hashed(session.table.snapshot())})
    replayed = replay_record(kept)
    steps.append({"do": "replay the record", "record": hashed(replayed.record()),
                  "views": views(replayed)})  # fmt: skip
    return steps


def played(preset: str) -> dict[str, list[Step]]:
    """Every seeded session of ``preset``, by seed, as JSON would read them back."""
    return as_json({str(seed): play(preset, seed) for seed in range(SESSIONS)})


def test_every_preset_is_recorded() -> None:
    assert recorded_presets(FOLDER) == presets()


@pytest.mark.parametrize("preset", presets())
def test_sessions_play_as_recorded(preset: str) -> None:
    found = differences(preset, recorded(FOLDER, preset), played(preset))
    assert not found, f"{len(found)} sessions differ:\n" + "\n".join(found[:5])


if __name__ == "__main__":
    for name in sys.argv[1:] or presets():
        record(FOLDER, name, played(name))
        print(f"recorded {name}")
