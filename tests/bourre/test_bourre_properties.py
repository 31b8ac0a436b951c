"""Invariants of Bourré sessions under random play, and the bots.

Hypothesis drives whole sessions with random (sometimes illegal) actions: chips are
conserved after every event, no seat (and no spectator) ever sees a card it should not,
replaying a record reproduces every event, and every hand played out is five tricks.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from guts.cards import parse_card
from guts.errors import IllegalAction
from guts.games.base import Event
from guts.games.bourre import BourreSession, new_session
from guts.games.bourre.bots import RandomBot, SensibleBot, play_session
from guts.games.bourre.events import (
    CardPlayed,
    CardsDealt,
    CardsDrawn,
    DealStarted,
    Moved,
    Reneged,
    TrickWon,
    TrumpTurned,
)

VARIANTS = [
    "bourre",
    "bourre-policed",
    "bourre-retract",
    "bourre-house",
    "bourre-stock-trump",
    "bourre-dealer-antes",
    "bourre-eight",
]
CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([cdhs♣♦♥♠])(?![A-Za-z0-9])")


def cards_in(data: Any) -> set[str]:
    """Every card named anywhere in a JSON-able value, as ASCII codes."""
    return {
        parse_card(m.group(0)).ascii for m in CARD.finditer(json.dumps(data, ensure_ascii=False))
    }


def known_to(events: list[Event], seat: int | None) -> set[str]:
    """The cards ``seat`` may know: its own cards, the trump card, the cards played."""
    known: set[str] = set()
    for e in events:
        if isinstance(e, CardsDealt | CardsDrawn) and e.seat == seat:
            known |= set(e.cards)
        elif isinstance(e, TrumpTurned | CardPlayed | Reneged):
            known.add(e.card)
    return known


def random_session(seed: int, players: int, variant: str, deals: int) -> BourreSession:
    """A session played with random actions, some illegal, checking the invariants
    after every step."""
    rng = Random(seed)
    names = [f"P{i}" for i in range(players)]
    options = {"max-deals": str(deals), "lone-player": rng.choice(["takes-pot", "dealer-plays"])}
    if players == 8:
        options["eight-players"] = "yes"
    s = new_session(variant, names, buy_in=200, rng=Random(seed + 1), options=options)
    while not s.is_over:
        if s.deal_over:
            s.start_deal()
        else:
            step(s, rng)
        check_chips(s)
        check_views(s)
    return s


def step(s: BourreSession, rng: Random) -> None:
    decision = s.pending()[0]
    if rng.random() < 0.1:
        before = s.events
        try:
            s.act(decision.seat, rng.choice(["9x", "discard 2c 2c", "fold", "Ah"]))
        except IllegalAction:
            assert s.events == before
        return
    s.act(decision.seat, rng.choice(decision.actions))


def check_chips(s: BourreSession) -> None:
    table = s.table
    table.check_invariant()
    assert sum(seat.stack for seat in table.seats) + table.pot == table.total_bought_in
    moved = [e for e in s.events if isinstance(e, Moved)]
    assert len(moved) == len(table.ledger), "every transfer is an event at once"


def check_views(s: BourreSession) -> None:
    events = list(s.events)
    for seat in [None, *range(len(s.table.names))]:
        view = s.public_view() if seat is None else s.view(seat)
        seen = [e for e in events if e.visible_to(seat)]
        allowed = known_to(events, seat)
        assert cards_in([e.to_dict() for e in seen]) <= allowed
        assert cards_in(view) <= allowed
        if seat is not None and s.deal is not None:
            assert view["hand"] == [c.ascii for c in s.deal.hands.get(seat, [])]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 8),
    variant=st.sampled_from(VARIANTS),
    deals=st.integers(1, 3),
)
def test_random_sessions_keep_every_invariant(
    seed: int, players: int, variant: str, deals: int
) -> None:
    s = random_session(seed, players, variant, deals)
    copy = BourreSession.replay(json.loads(json.dumps(s.record())))
    assert copy.events == s.events
    assert copy.table.snapshot() == s.table.snapshot()
    check_five_tricks(s)


def check_five_tricks(s: BourreSession) -> None:
    deal = 0
    tricks: Counter[int] = Counter()
    played: Counter[tuple[int, int]] = Counter()
    for e in s.events:
        if isinstance(e, DealStarted):
            deal = e.deal
        elif isinstance(e, TrickWon):
            tricks[deal] += 1
        elif isinstance(e, CardPlayed):
            played[deal, e.seat] += 1
    assert set(tricks.values()) <= {5}
    assert set(played.values()) <= {5}
    assert {d for d, _ in played} == set(tricks)


def test_the_sensible_bot_beats_random_players() -> None:
    nets = []
    for k in range(50):
        names = ["Sensible", "R1", "R2", "R3"]
        s = new_session("bourre", names, rng=Random(k), options={"pot-limit": "10"}, button=k % 4)
        bots = [SensibleBot()] + [RandomBot(Random(1000 * i + k)) for i in (1, 2, 3)]
        play_session(s, bots, deals=10)
        nets.append(s.table.net(0))
    mean = statistics.mean(nets)
    error = statistics.stdev(nets) / len(nets) ** 0.5
    assert mean > 4 * error


def test_the_sensible_bot_follows_the_forced_play_rules() -> None:
    s = new_session("bourre-house", ["A", "B", "C"], rng=Random(9), options={"max-deals": "20"})
    play_session(s, [SensibleBot(), SensibleBot(), RandomBot(Random(3))])
    assert not [e for e in s.events if isinstance(e, Reneged)]
    assert s.deals_played == 20
