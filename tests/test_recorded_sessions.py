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

import copy
import json
import random
import sys
from typing import Any

import pytest
from recorded_sessions import (
    Step,
    ViewDigests,
    as_json,
    differences,
    every_view,
    hashed,
    record,
    recorded,
    recorded_presets,
    refusal,
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
        if rng.random() < 0.1:
            wrong = rng.choice(REFUSED)
            try:
                session.act(seat, wrong)  # type: ignore[arg-type]
            except GutsError as error:
                steps.append({"do": f"seat {seat}: {wrong!r}", "offered": offered,
                              "refused": refusal(error)})  # fmt: skip
            else:
                steps.append({"do": f"seat {seat}: {wrong!r}", "offered": offered,
                              "taken": True, "views": views(every_view(session))})  # fmt: skip
                continue
        action = rng.choice(decision.actions)
        events = [event.to_dict() for event in session.act(seat, action)]
        steps.append({"do": f"seat {seat}: {action!r}", "offered": offered, "events": events,
                      "views": views(every_view(session))})  # fmt: skip
    kept = json.loads(json.dumps(session.record()))
    steps.append({"do": "end", "record": hashed(kept), "ledger": hashed(session.table.snapshot())})
    replayed = replay_record(kept)
    steps.append({"do": "replay the record", "record": hashed(replayed.record()),
                  "views": ViewDigests()(every_view(replayed))})  # fmt: skip
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


def views_at_each_step(actions: int) -> list[list[dict[str, Any]]]:
    """Every view of a seeded three-player Fan Tan deal after each of its first
    ``actions`` actions (copies: a session's views share their events)."""
    rng = random.Random(3)
    session = games()["fan-tan"].new_session([("A", 50), ("B", 50), ("C", 50)], rng=rng)
    session.start_deal()
    steps = []
    for _ in range(actions):
        decision = rng.choice(session.pending())
        session.act(decision.seat, rng.choice(decision.actions))
        steps.append(copy.deepcopy(every_view(session)))
    return steps


def test_a_steps_views_hash_changes_with_any_view_at_that_step() -> None:
    """The views' hash of a step (each view hashed without the events it showed at the
    step before) still changes with any one view there: in an event it showed before, in
    one new at that step, or outside its events; and the same views hash alike."""
    steps = views_at_each_step(6)
    once, again = ViewDigests(), ViewDigests()
    want = [once(views) for views in steps]
    assert [again(views) for views in steps] == want
    assert len(set(want)) == len(want)  # every step changes some view
    assert steps[-1][1]["events"][0] in steps[-2][1]["events"]  # shown at the step before
    assert steps[-1][2]["events"][-1] not in steps[-2][2]["events"]  # new at the last step
    changes: list[Any] = [
        lambda views: views[1]["events"][0].update(changed=True),  # shown before
        lambda views: views[2]["events"][-1].update(changed=True),  # new at this step
        lambda views: views[-1]["events"].pop(0),  # an event left out
        lambda views: views[0].update(pot=views[0]["pot"] + 1),  # outside the events
    ]
    for change in changes:
        changed = copy.deepcopy(steps)
        change(changed[-1])
        digests = ViewDigests()
        got = [digests(views) for views in changed]
        assert got[:-1] == want[:-1] and got[-1] != want[-1]


if __name__ == "__main__":
    for name in sys.argv[1:] or presets():
        record(FOLDER, name, played(name))
        print(f"recorded {name}")
