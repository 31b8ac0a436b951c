"""The fuzzer's pieces (``tests/sessions/test_fuzz.py``, and any family's own fuzzing):
random options, legal and garbage actions, and the checks that a refused action changes
nothing, no view leaks a card, and a simultaneous choice cannot be told apart."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import weakref
from enum import StrEnum
from typing import Any, get_type_hints

import pytest

from guts.catalog import replay_record
from guts.errors import GutsError
from guts.games.base import Session
from guts.games.decision import Decision, Discard, Wager
from guts.games.options import dash, split_optional

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|jk)$", re.IGNORECASE)

GARBAGE_ACTIONS: list[Any] = [
    None, 1, 0, 2.5, True, [], ["in"], {"action": "in"}, b"in", "", " ", "raise ²",
    "bet " + "9" * 5000, "bet -3", "bet 0", "raise to", "discard zz", "discard As As",
    "play 11x", "\x00", "in" * 200, "declare nothing", "take", "7z",
]  # fmt: skip
GARBAGE_SEATS: list[Any] = [True, False, -1, 99, "0", None, 0.0, 1.0, [0]]
SKIPPED_OPTIONS = {"max_deals", "credit", "seed"}


def random_options(rules: Any, rng: random.Random) -> dict[str, str]:
    """A few options of ``rules`` set to random values their types allow."""
    hints = get_type_hints(type(rules))
    names = [f.name for f in dataclasses.fields(rules) if f.name not in SKIPPED_OPTIONS]
    options: dict[str, str] = {}
    for name in rng.sample(names, k=min(len(names), rng.randint(0, 3))):
        inner, optional = split_optional(hints[name])
        if optional and rng.random() < 0.3:
            value = "none"
        elif inner is bool:
            value = rng.choice(["yes", "no"])
        elif isinstance(inner, type) and issubclass(inner, StrEnum):
            value = rng.choice([member.value for member in inner])
        elif inner is int:
            value = str(rng.choice([0, 1, 2, 3, 5, 10, 40]))
        else:
            continue
        options[dash(name)] = value
    return options


def snapshot(session: Session) -> str:
    """Everything an error must leave untouched."""
    seats = range(len(session.table.names))
    return json.dumps(
        {
            "events": [e.to_dict() for e in session.events],
            "views": [session.view(s) for s in seats],
            "public": session.public_view(),
            "ledger": len(session.table.ledger),
            "stacks": [seat.stack for seat in session.table.seats],
            "over": session.over_reason,
        },
        sort_keys=True,
        default=str,
    )


def cards_in(value: Any) -> set[str]:
    """Every card code found in a JSON-able value."""
    found: set[str] = set()
    if isinstance(value, str):
        for token in value.replace(",", " ").split():
            if CARD.match(token):
                found.add(token.lower())
    elif isinstance(value, dict):
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= cards_in(item)
    return found


_SEEN: weakref.WeakKeyDictionary[Session, dict[int | None, tuple[int, set[str]]]] = (
    weakref.WeakKeyDictionary()
)
"""For each session being checked, and each seat: how many of its visible events were read
and the cards they showed (so each event is read once, not at every step)."""


def seen_by(session: Session, seat: int | None) -> set[str]:
    """Every card the events ``seat`` may see have shown it (None: the public's)."""
    visible = session.visible_events(seat)
    per_seat = _SEEN.setdefault(session, {})
    read, seen = per_seat.get(seat, (0, set()))
    if len(visible) < read:  # a session's events only grow; read them all again if not
        read, seen = 0, set()
    seen = seen | cards_in([e.to_dict() for e in visible[read:]])
    per_seat[seat] = (len(visible), seen)
    return seen


def check_no_leak(session: Session) -> None:
    """No seat's view (nor the public view) shows a card its visible events never did."""
    for seat in [None, *range(len(session.table.names))]:
        view = session.public_view() if seat is None else session.view(seat)
        leaked = cards_in(view) - seen_by(session, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)} it was never shown"


def legal_action(decision: Decision, rng: random.Random) -> str:
    """A random legal action, sometimes in another spelling than the canonical one."""
    options = decision.options
    if isinstance(options, Wager) and rng.random() < 0.5:
        legal = options.legal
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            return f"raise to {rng.randint(legal.min_raise_to, legal.max_raise_to)}"
        if legal.min_bet is not None and legal.max_bet is not None:
            return f"b {rng.randint(legal.min_bet, legal.max_bet)}"
    if isinstance(options, Discard) and options.counts and rng.random() < 0.5:
        count = rng.choice(options.counts)
        cards = rng.sample(list(options.hand), k=min(count, len(options.hand)))
        return " ".join(cards) if cards else "pat"
    action = rng.choice(decision.actions)
    return action.upper() if rng.random() < 0.2 else action


def refuse(session: Session, seat: Any, action: Any) -> None:
    """``act`` must refuse with a GutsError and change nothing."""
    before = snapshot(session)
    assert not session.can_act(seat, action)
    with pytest.raises(GutsError):
        session.act(seat, action)
    assert snapshot(session) == before


def garbage(session: Session, rng: random.Random) -> None:
    """One wrong input: a bad seat, a bad action, or a legal action out of turn."""
    count = len(session.table.names)
    roll = rng.random()
    if roll < 0.3:
        refuse(session, rng.choice(GARBAGE_SEATS), "in")
    elif roll < 0.8 or count == 1:
        waiting = [d.seat for d in session.pending()] or [rng.randrange(count)]
        refuse(session, rng.choice(waiting), rng.choice(GARBAGE_ACTIONS))
    else:
        waiting = {d.seat for d in session.pending()}
        idle = [s for s in range(count) if s not in waiting]
        if idle and session.pending():
            refuse(session, rng.choice(idle), session.pending()[0].actions[0])


def check_secret_choice(session: Session, decision: Decision) -> None:
    """A simultaneous choice is seen by no one else until all have chosen: whichever
    choice the seat makes, every other seat's view and the public view are the same."""
    if len(decision.actions) < 2 or len(session.pending()) < 2:
        return
    record = json.loads(json.dumps(session.record()))
    others = [s for s in range(len(session.table.names)) if s != decision.seat]
    seen = []
    for action in decision.actions[:2]:
        copy = replay_record(record)
        copy.act(decision.seat, action)
        seen.append(json.dumps([copy.public_view(), *(copy.view(s) for s in others)]))
    assert seen[0] == seen[1], f"{decision.actions[:2]} by seat {decision.seat} can be told apart"
