"""Fan Tan in a club's stats: passes and the chips for cards left are no pots won, and each
member's net is the chips the engine's table holds at the end."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from guts.catalog import find_game
from guts.club.members import Member
from guts.club.stats import NightRecord, SeatResult, SessionRecord, club_stats

PRESET = "fan-tan-false-pass"
NAMES = ["Ann", "Bob", "Cy"]
MEMBERS = [Member(name.lower(), name) for name in NAMES]
LINEUP = (10, 11, 12)


def test_passes_and_cards_left_are_paid_not_won_and_the_nets_agree() -> None:
    session = find_game(PRESET).new_session(NAMES, buy_in=100, rng=random.Random(7))
    for _ in range(3):
        session.start_deal()
        while not session.deal_over:
            decision = session.pending()[0]
            action = "pass" if "pass" in decision.actions else decision.actions[0]
            session.act(decision.seat, action)
    moved = [e.to_dict() for e in session.events if e.to_dict()["kind"] == "moved"]
    assert {"pass", "cards-left"} <= {data["reason"] for data in moved}
    won = [sum(d["reason"] == "win" and d["destination"] == n for d in moved) for n in range(3)]
    events: tuple[dict[str, Any], ...] = tuple(
        e.to_dict() for e in session.events if e.visible_to(None)
    )
    stacks = [seat.stack for seat in session.table.seats]
    seats = tuple(SeatResult(LINEUP[n], name, stacks[n] - 100) for n, name in enumerate(NAMES))
    record = SessionRecord(session.record()["game"], LINEUP, events)
    night = NightRecord("t1", PRESET, datetime(2026, 12, 4, 20, tzinfo=UTC), seats, (record,))
    links = {("t1", LINEUP[n]): member.id for n, member in enumerate(MEMBERS)}
    stats = club_stats(MEMBERS, links, [night])
    for n, member in enumerate(MEMBERS):
        counts = stats[member.id].families[session.record()["game"]]
        assert counts.net == stacks[n] - 100
        assert counts.pots_won == won[n]
        assert counts.deals == session.deals_played
