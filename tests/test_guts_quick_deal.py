"""The quick Guts deal plays exactly as the general one.

Sessions of every Guts preset, with random options, players, stacks and actions, are
played twice: as they are (the quick deal wherever its rules allow) and with the quick
deal turned off (the general deal, round and settlement everywhere). Everything a caller
can see must be equal: the events each action returns, every seat's view and the public
view after every step, the decisions, the ledger, the narration, the record and its replay.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from guts.catalog import find_game, replay_record
from guts.errors import GutsError
from guts.games.base import Session
from guts.games.guts import PRESETS
from guts.narrate import Narrator

CHOICES: dict[str, list[str]] = {
    "ante": ["1", "1", "2", "3"],
    "ante-every-deal": ["yes", "no"],
    "cards": ["2", "2", "3", "4"],
    "declare": ["in-turn", "in-turn", "simultaneous"],
    "last-in-when-all-out": ["yes", "no"],
    "everyone-out": ["pot-stays", "chicken-fee", "wimp", "henry"],
    "payment": ["match", "match", "single-loser", "worst-doubles"],
    "winner-takes-all": ["no", "no", "yes"],
    "nobody-wins-contested": ["no", "no", "yes"],
    "dropouts-ante": ["no", "yes"],
    "ghost": ["never", "never", "always", "lone", "deck"],
    "lone-qualifier": ["none", "none", "pair"],
    "max-loss": ["none", "none", "3", "10"],
    "pot-limit": ["none", "none", "6"],
    "pot-cap": ["none", "none", "3"],
    "continue-after-empty": ["no", "no", "yes"],
    "odd-chips": ["nearest-left", "leave-in-pot"],
    "crumpler": ["no", "no", "yes"],
    "wild": ["", "", "2"],
}
"""Options drawn at random, the quick deal's usual values weighted up."""


def random_options(rng: random.Random) -> dict[str, str]:
    """A few options at random (none, some or many), and credit or table stakes."""
    names = rng.sample(sorted(CHOICES), k=rng.choice([0, 0, 1, 2, 4]))
    options = {name: rng.choice(CHOICES[name]) for name in names}
    options["credit"] = rng.choice(["yes", "yes", "no"])
    options["max-deals"] = "12"
    return options


def spelled(action: str, rng: random.Random) -> str:
    """``action``, sometimes spelled otherwise than its canonical form."""
    roll = rng.random()
    if roll < 0.1:
        return action.upper()
    if roll < 0.15:
        return f"  {action} "
    return action


def play(preset: str, seed: int) -> str | None:
    """A digest of everything a seeded session of ``preset`` shows (None: the drawn
    options or players do not make a session)."""
    rng = random.Random(seed)
    options = random_options(rng)
    players = rng.randint(2, 6)
    stacks = [rng.choice([1, 2, 5, 30, 200]) for _ in range(players)]
    names = [(f"P{i}", stack) for i, stack in enumerate(stacks)]
    try:
        session = find_game(preset).new_session(names, options=options, rng=random.Random(seed))
    except GutsError:
        return None
    digest = hashlib.sha256()

    def note(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=repr).encode())

    note(options)
    deals = 0
    while not session.is_over:
        if session.deal_over:
            if deals >= 8:
                session.stop()
                break
            session.start_deal()
            deals += 1
        else:
            decision = rng.choice(session.pending())
            if rng.random() < 0.1:
                note(session.can_act(decision.seat, "nonsense"))
            action = spelled(rng.choice(decision.actions), rng)
            note([event.to_dict() for event in session.act(decision.seat, action)])
        note(seen(session))
    note(session.record())
    note([transfer.to_dict() for transfer in session.table.ledger])
    note(narration(session))
    replayed = replay_record(json.loads(json.dumps(session.record())))
    assert replayed.events == session.events
    note(seen(replayed))
    return digest.hexdigest()


def seen(session: Session) -> list[Any]:
    """Every view, the decisions, the stacks and where the session stands."""
    seats = range(len(session.table.names))
    return [
        session.public_view(),
        *(session.view(seat) for seat in seats),
        [decision.to_dict() for decision in session.pending()],
        [seat.stack for seat in session.table.seats],
        session.table.pot,
        session.over_reason,
        session.deal_over,
    ]


def narration(session: Session) -> list[list[str | None]]:
    """The story told to a spectator and to each seat (told as "You")."""
    names = list(session.table.names)
    told = [[Narrator(names).tell(event) for event in session.visible_events(None)]]
    for seat in range(len(names)):
        own = [*names[:seat], "You", *names[seat + 1 :]]
        narrator = Narrator(own)
        told.append([narrator.tell(event) for event in session.visible_events(seat)])
    return told


def test_a_digest_notes_what_a_session_shows() -> None:
    """The digest tells two sessions apart (a check that could not fail would not help)."""
    digests = {play("two-card-guts", seed) for seed in range(6)}
    assert len(digests - {None}) == 6


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_quick_deal_plays_as_the_general_one(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = range(25)
    quick = [play(preset, seed) for seed in seeds]
    monkeypatch.setattr("guts.games.guts.session.QUICK", False)
    general = [play(preset, seed) for seed in seeds]
    assert quick == general
    assert sum(digest is not None for digest in quick) >= 10
