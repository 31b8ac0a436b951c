"""Invariants of Fan Tan sessions under random play, and the bots.

Hypothesis drives whole sessions with random (sometimes illegal) actions over every
preset, player count and table stakes or credit: chips are conserved after every event,
no seat (nor a spectator) ever sees a card it was not shown, every deal is the whole pack
played or shown, replaying a record reproduces every event and the table.
"""

from __future__ import annotations

import json
import re
import statistics
from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from guts.errors import IllegalAction
from guts.games.base import Event
from guts.games.fantan import PRESETS, FanTanSession, new_session
from guts.games.fantan.bots import RandomBot, SensibleBot, play_session
from guts.games.fantan.events import (
    CardPlaced,
    CardsDealt,
    CardsShown,
    DealStarted,
    FalsePassFound,
    FanTanResult,
    Moved,
)

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA])([cdhs])(?![A-Za-z0-9])")


def cards_in(data: Any) -> set[str]:
    """Every card code named anywhere in a JSON-able value."""
    return {m.group(0) for m in CARD.finditer(json.dumps(data))}


def known_by(event: Event, seat: int | None) -> set[str]:
    """The cards ``event`` lets ``seat`` know: its own hand, the cards played and the hands
    shown."""
    if (isinstance(event, CardsDealt) and event.seat == seat) or isinstance(event, CardsShown):
        return set(event.cards)
    if isinstance(event, CardPlaced | FalsePassFound):
        return {event.card}
    return set()


class Known:
    """Each seat's (and the public's, None) known cards and the cards its visible events
    named, read once per event as the session's events grow."""

    def __init__(self, seats: int) -> None:
        self.read = 0
        self.known: dict[int | None, set[str]] = {seat: set() for seat in [None, *range(seats)]}
        self.named: dict[int | None, set[str]] = {seat: set() for seat in self.known}

    def update(self, events: list[Event]) -> None:
        for event in events[self.read :]:
            for seat, known in self.known.items():
                known |= known_by(event, seat)
                if event.visible_to(seat):
                    self.named[seat] |= cards_in(event.to_dict())
        self.read = len(events)


def random_session(seed: int, players: int, variant: str, deals: int) -> FanTanSession:
    """A session played with random actions, some illegal, checked after every step."""
    rng = Random(seed)
    names = [(f"P{i}", rng.choice([1, 3, 10, 60])) for i in range(players)]
    options = {"max-deals": str(deals), "credit": rng.choice(["yes", "no"])}
    s = new_session(variant, names, rng=Random(seed + 1), options=options, button=seed % players)
    total = s.table.total_bought_in
    known = Known(players)
    while not s.is_over:
        if s.deal_over:
            s.start_deal()
        else:
            step(s, rng)
        check_chips(s, total)
        check_views(s, known)
    return s


def step(s: FanTanSession, rng: Random) -> None:
    decision = s.pending()[0]
    if rng.random() < 0.1:
        before = s.events
        try:
            s.act(decision.seat, rng.choice(["9x", "pass", "Ah", "7d", "discard 2c", "fold"]))
        except IllegalAction:
            assert s.events == before
        return
    s.act(decision.seat, rng.choice(decision.actions))


def check_chips(s: FanTanSession, total: int) -> None:
    table = s.table
    table.check_invariant()
    assert sum(table.stacks) + table.pot == total
    moved = [e for e in s.events if isinstance(e, Moved)]
    buy_ins = len(s.players) - [stack for _, stack in s.players].count(0)
    assert len(moved) == len(table.ledger) - buy_ins, "every transfer is an event at once"


def check_views(s: FanTanSession, known: Known) -> None:
    known.update(list(s.events))
    for seat in [None, *range(len(s.table.names))]:
        view = s.public_view() if seat is None else s.view(seat)
        allowed = known.known[seat]
        assert known.named[seat] <= allowed
        assert cards_in(view) <= allowed
        if seat is not None and s.deal is not None:
            assert view["hand"] == [c.ascii for c in s.deal.hands.get(seat, [])]


def check_whole_pack(s: FanTanSession) -> None:
    """Each finished deal: the cards played and the losers' cards shown make the pack, and
    every loser paid for exactly the cards it showed."""
    played: list[str] = []
    shown: dict[int, int] = {}
    for e in s.events:
        if isinstance(e, DealStarted):
            played, shown = [], {}
        elif isinstance(e, CardPlaced):
            played.append(e.card)
        elif isinstance(e, CardsShown):
            shown[e.seat] = len(e.cards)
            played.extend(e.cards)
        elif isinstance(e, FanTanResult):
            assert len(played) == len(set(played)) == 52
            assert dict(e.cards) == shown


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 8),
    variant=st.sampled_from(sorted(PRESETS)),
    deals=st.integers(1, 3),
)
def test_random_sessions_keep_every_invariant(
    seed: int, players: int, variant: str, deals: int
) -> None:
    s = random_session(seed, players, variant, deals)
    copy = FanTanSession.replay(json.loads(json.dumps(s.record())))
    assert copy.events == s.events
    assert copy.table.snapshot() == s.table.snapshot()
    check_whole_pack(s)


def test_a_replay_of_a_deal_in_progress_reproduces_its_views() -> None:
    s = new_session("fan-tan-false-pass", ["A", "B", "C"], buy_in=40, rng=Random(5))
    s.start_deal()
    rng = Random(6)
    for _ in range(30):
        decision = s.pending()[0]
        s.act(decision.seat, rng.choice(decision.actions))
    copy = FanTanSession.replay(json.loads(json.dumps(s.record())))
    for seat in range(3):
        assert copy.view(seat) == s.view(seat)
    assert copy.public_view() == s.public_view()


def test_the_sensible_bot_beats_random_players() -> None:
    nets = []
    for k in range(30):
        names = ["Sensible", "R1", "R2", "R3"]
        s = new_session("fan-tan", names, rng=Random(k), button=k % 4)
        bots = [SensibleBot()] + [RandomBot(Random(1000 * i + k)) for i in (1, 2, 3)]
        play_session(s, bots, deals=4)
        nets.append(s.table.net(0))
    mean = statistics.mean(nets)
    error = statistics.stdev(nets) / len(nets) ** 0.5
    assert mean > 3 * error


def test_the_sensible_bot_never_passes_while_a_card_fits() -> None:
    s = new_session("fan-tan-false-pass", ["A", "B", "C"], rng=Random(9))
    play_session(s, [SensibleBot(), SensibleBot(), RandomBot(Random(3))], deals=5)
    found = [e for e in s.events if isinstance(e, FalsePassFound)]
    assert {e.seat for e in found} <= {2}
