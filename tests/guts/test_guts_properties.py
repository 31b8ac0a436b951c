"""Invariants of Guts sessions over random presets, options, player counts and seeds."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guts.cards import Card, parse_card
from guts.errors import IllegalAction, OptionError
from guts.games.base import events_from_json, events_to_json
from guts.games.guts import PRESETS, GutsRules, GutsSession
from guts.games.guts.events import Acted, CardsDealt, DealStarted, Moved, Passed

OVERRIDES: list[dict[str, str]] = [
    {},
    {"declare": "simultaneous"},
    {"ghost": "always"},
    {"ghost": "lone"},
    {"ghost": "deck"},
    {"everyone-out": "chicken-fee"},
    {"everyone-out": "wimp"},
    {"everyone-out": "henry"},
    {"payment": "single-loser", "ante-every-deal": "yes"},
    {"payment": "worst-doubles"},
    {"winner-takes-all": "yes"},
    {"nobody-wins-contested": "yes"},
    {"dealer-option": "yes"},
    {"pot-limit": "7"},
    {"pot-cap": "5"},
    {"max-loss": "3"},
    {"credit": "no"},
    {"ghost-ties": "push"},
    {"ghost-ties": "players-win"},
    {"lone-qualifier": "pair"},
    {"pass-left": "yes"},
    {"no-peek": "yes"},
    {"batey": "yes"},
    {"dropouts-ante": "yes"},
    {"continue-after-empty": "yes"},
    {"hi-lo": "yes"},
    {"crumpler": "yes"},
    {"straights": "yes", "flushes": "yes"},
    {"second-declare": "yes"},
    {"ante": "2"},
]

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|Jk)$")


def _build(name: str, extra: list[dict[str, str]], players: int, seed: int) -> GutsSession | None:
    options: dict[str, str] = {"max-deals": "12"}
    for override in extra:
        options.update(override)
    try:
        rules = GutsRules.from_options(PRESETS[name][0], options)
    except OptionError:
        return None
    while players >= 2:
        names = [(f"P{i}", 40) for i in range(players)]
        try:
            return GutsSession(rules, names, rng=random.Random(seed), button=seed % players)
        except OptionError:
            players -= 1
    return None


def _cards_in(data: Any) -> set[Card]:
    found: set[Card] = set()
    if isinstance(data, str):
        if CARD.match(data):
            found.add(parse_card(data))
    elif isinstance(data, dict):
        for key, value in data.items():
            if key != "actions":  # a seat's own choices (its own cards when passing)
                found |= _cards_in(value)
    elif isinstance(data, list | tuple):
        for value in data:
            found |= _cards_in(value)
    return found


def _current_deal_events(view: dict[str, Any]) -> list[dict[str, Any]]:
    events = view["events"]
    starts = [i for i, e in enumerate(events) if e["kind"] == DealStarted.kind]
    return events[starts[-1] :] if starts else []


def _check_views(s: GutsSession) -> None:
    deal = s.deal
    if deal is None:
        return
    public: set[Card] = set(deal.community)
    for up in deal.up.values():
        public |= set(up)
    for shown in deal.shown.values():
        public |= set(shown)
    spectator = s.public_view()
    fields = {k: v for k, v in spectator.items() if k != "events"}
    assert _cards_in(fields) | _cards_in(_current_deal_events(spectator)) <= public
    current = list(s.events)[max(i for i, e in enumerate(s.events) if isinstance(e, DealStarted)) :]
    for seat in range(len(s.table.names)):
        known = set(public)
        if seat in deal.down and seat in deal.peeked:
            known |= set(deal.down[seat])
        known |= {parse_card(e.card) for e in current if isinstance(e, Passed) and e.seat == seat}
        view = s.view(seat)
        fields = {k: v for k, v in view.items() if k not in ("events", "pending")}
        seen = _cards_in(fields) | _cards_in(_current_deal_events(view))
        assert seen <= known, f"seat {seat} sees {seen - known}"
        for event in view["events"]:
            if event["kind"] == Acted.kind and event["seat"] != seat:
                assert event["audience"] is None  # only in-turn choices are public
        secret = deal.round
        if secret is not None and secret.simultaneous:
            number = getattr(secret, "number", 0)
            for other in secret.choices:
                if other != seat:
                    revealed = [
                        e
                        for e in _current_deal_events(view)
                        if e["kind"] == "declared" and e["seat"] == other and e["round"] == number
                    ]
                    assert not revealed, f"{other}'s choice is visible before all have chosen"


def _chips_conserved(s: GutsSession) -> None:
    """Replaying the Moved events from the starting stacks gives the table, and the chips on
    the table never change after any event (no buy-ins happen during a session)."""
    s.table.check_invariant()
    balances: dict[int | str, int] = {seat: stack for seat, (_, stack) in enumerate(s.players)}
    total = sum(balances.values())
    for event in s.events:
        if isinstance(event, Moved):
            balances[event.source] = balances.get(event.source, 0) - event.amount
            balances[event.destination] = balances.get(event.destination, 0) + event.amount
            assert sum(balances.values()) == total
    assert [balances[seat] for seat in range(len(s.players))] == [
        seat.stack for seat in s.table.seats
    ]
    assert {p: n for p, n in balances.items() if isinstance(p, str) and n} == {
        place.name: n for place, n in s.table.places.items()
    }


def _state(s: GutsSession) -> tuple[Any, ...]:
    return (s.events, s.table.ledger, s.pending(), s.is_over, json.dumps(s.public_view()))


def _try_illegal(s: GutsSession, rng: random.Random) -> None:
    before = _state(s)
    pending = {d.seat for d in s.pending()}
    idle = [seat for seat in range(len(s.table.names)) if seat not in pending]
    attempts = [(rng.choice(sorted(pending)) if pending else 0, "bogus")]
    if idle:
        attempts.append((rng.choice(idle), "in"))
    for seat, action in attempts:
        try:
            s.act(seat, action)
        except IllegalAction as error:
            assert str(error)
        else:
            raise AssertionError(f"{seat} {action} was accepted")
        assert _state(s) == before


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(PRESETS)),
    extra=st.lists(st.sampled_from(OVERRIDES), max_size=3),
    players=st.integers(2, 10),
    seed=st.integers(0, 2**32 - 1),
    out_bias=st.sampled_from([0.3, 0.6, 0.85]),
)
def test_random_sessions_keep_every_invariant(
    name: str, extra: list[dict[str, str]], players: int, seed: int, out_bias: float
) -> None:
    s = _build(name, extra, players, seed)
    if s is None:
        return
    rng = random.Random(seed)
    for step in range(400):
        if s.is_over:
            break
        if s.deal_over and s.deals_played and rng.random() < 0.03:
            s.stop()  # the players call it a night: what is left is shared out
            assert s.is_over and not s.table.places
        elif s.deal_over:
            s.start_deal()
        else:
            decision = rng.choice(s.pending())
            out = "out" in decision.actions and rng.random() < out_bias
            s.act(decision.seat, "out" if out else rng.choice(decision.actions))
        _chips_conserved(s)
        _check_views(s)
        if step % 7 == 0 and not s.is_over:
            _try_illegal(s, rng)
        cap = s.rules.pot_cap
        if cap is not None and s.deal_over:
            assert s.table.pot <= cap * s.rules.ante
    assert s.is_over and s.over_reason  # max-deals bounds every session
    record = json.loads(json.dumps(s.record()))
    again = GutsSession.replay(record)
    assert again.events == s.events
    assert again.table.snapshot() == s.table.snapshot()
    assert events_from_json(events_to_json(s.events)) == list(s.events)


def test_dealt_face_down_cards_are_always_private() -> None:
    s = GutsSession(
        GutsRules(pass_left=True, declare=GutsRules().declare),
        ["A", "B", "C"],
        rng=random.Random(3),
        button=2,
    )
    s.start_deal()
    for event in s.events:
        if isinstance(event, CardsDealt) and not event.face_up:
            assert event.audience == (event.seat,)


def _strongest(s: GutsSession) -> int | None:
    """The seat a decisive driver keeps in alone: a forced-in seat, or the best hand."""
    deal = s.deal
    if deal is None or deal.over:
        return None
    if deal.forced_in:
        return deal.forced_in[0]
    return max(
        deal.seats,
        key=lambda seat: deal.ranking(len(deal.playing_cards(seat))).strength(
            deal.playing_cards(seat)
        ),
    )


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(PRESETS)),
    players=st.integers(2, 10),
    seed=st.integers(0, 2**32 - 1),
    credit=st.sampled_from(["yes", "no"]),
)
def test_sessions_with_a_pot_cap_end_or_say_why_not(
    name: str, players: int, seed: int, credit: str
) -> None:
    """With the pot capped, a session ends once deals are decided (one player, the best
    hand or a forced-in one, stays in alone) after some random ones, unless its rules say
    why it may not (``endless_reason``); the pot never passes the cap plus one ante round."""
    s = _build(name, [{"pot-cap": "20", "max-deals": "none", "credit": credit}], players, seed)
    if s is None:
        return
    rng = random.Random(seed)
    lone: int | None = None
    while not s.is_over and s.deals_played < 300:
        if s.deal_over:
            s.start_deal()
            assert s.table.pot <= 20 * s.rules.ante + len(s.table.names) * s.rules.ante
            decisive = s.deals_played > 10 or rng.random() < 0.5
            lone = _strongest(s) if decisive else None
            continue
        decision = rng.choice(s.pending())
        if lone is not None and "out" in decision.actions:
            action = "out" if decision.seat != lone else rng.choice(decision.actions[:-1])
        else:
            action = rng.choice(decision.actions)
        s.act(decision.seat, action)
    assert s.is_over or s.rules.endless_reason
    if s.is_over:
        assert s.over_reason
