"""Invariants of every staged game under random play: chips are conserved after every
step, views never leak a hidden card, a replay reproduces the state, sessions end."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from staged_helpers import allowed_cards

from guts.games.staged import PRESETS, StagedSession, new_session
from guts.games.staged.events import CardsShown, Declared, Moved

GAMES = sorted(PRESETS)


def _codes_in_view(view: dict[str, Any]) -> set[str]:
    codes: set[str] = set(view.get("hand") or [])
    for shown in view.get("shown", []):
        codes.update(shown["cards"])
    for cards in view.get("point_cards", {}).values():
        codes.update(cards)
    for event in view["events"]:
        for key in ("cards", "deck"):
            codes.update(event.get(key, []))
        if event.get("card"):
            codes.add(event["card"])
    return codes


def _check_step(s: StagedSession) -> None:
    table = s.table
    table.check_invariant()
    assert sum(seat.stack for seat in table.seats) + sum(table.places.values()) == (
        table.total_bought_in
    )
    moved = [e for e in s.events if isinstance(e, Moved)]
    assert len(moved) == len(table.ledger) - len(table.seats)  # the buy-ins are not events
    holdings: dict[int | str, int] = {seat.index: 12 for seat in table.seats}
    for event in moved:  # after every event, the chips on the table are the chips bought
        holdings[event.source] = holdings.get(event.source, 0) - event.amount
        holdings[event.destination] = holdings.get(event.destination, 0) + event.amount
        assert sum(holdings.values()) == 12 * len(table.seats)
        assert all(holdings[p] >= 0 for p in holdings if isinstance(p, str))
    assert [holdings[seat.index] for seat in table.seats] == [x.stack for x in table.seats]
    for seat in [*range(len(table.names)), None]:
        view = s.public_view() if seat is None else s.view(seat)
        json.dumps(view)
        assert _codes_in_view(view) <= allowed_cards(s, seat)
        assert all(e["kind"] != "shuffled" for e in view["events"])


def _check_private_audiences(s: StagedSession) -> None:
    """A private comparison is seen by exactly the players who declared in."""
    ins: set[int] = set()
    for event in s.events:
        if isinstance(event, Declared) and event.audience is None:
            if event.choice == "in":
                ins.add(event.seat)
        elif isinstance(event, CardsShown) and event.audience is not None:
            assert set(event.audience) == ins and event.seat in ins
        elif event.kind in ("staged-stage", "deal-started"):
            ins = set()


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    players=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    credit=st.booleans(),
    deals=st.integers(1, 5),
    data=st.data(),
)
def test_random_play_keeps_every_invariant(
    game: str, players: int, seed: int, credit: bool, deals: int, data: st.DataObject
) -> None:
    options = {"max-deals": str(deals), "credit": "yes" if credit else "no"}
    options["min-players"] = "2"  # Toh too, below the text's 4 to 10 people
    s = new_session(
        game, [f"P{i}" for i in range(players)], options=options, buy_in=12,
        rng=random.Random(seed),
    )  # fmt: skip
    steps = 0
    while not s.is_over:
        if s.deal_over:
            s.start_deal()
        else:
            decision = s.pending()[data.draw(st.integers(0, len(s.pending()) - 1))]
            s.act(decision.seat, data.draw(st.sampled_from(decision.actions)))
        _check_step(s)
        steps += 1
        assert steps < 400
    _check_private_audiences(s)
    record = json.loads(json.dumps(s.record()))
    again = StagedSession.replay(record)
    assert again.events == s.events and again.points == s.points
    assert again.table.snapshot() == s.table.snapshot()
    for seat in range(players):
        assert again.view(seat) == s.view(seat)
    s.stop()
    assert s.table.places == {}


@settings(max_examples=20, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_sessions_without_a_deal_limit_end_with_the_pot_won(game: str, seed: int) -> None:
    rng = random.Random(seed)
    few = {"min-players": "2"}  # Toh too, below the text's 4 to 10 people
    s = new_session(game, ["a", "b", "c"], options=few, rng=random.Random(seed))
    while not s.is_over:
        if s.deal_over:
            s.start_deal()
            continue
        decision = s.pending()[0]
        s.act(decision.seat, rng.choice(decision.actions))
        assert s.deals_played < 500
    assert s.table.pot == 0 and max(s.points.values()) == s.target
