"""A club's stats, from sessions the engine plays: the counts agree with what the
players chose and with the chips the engine's table holds at the end."""

from __future__ import annotations

import csv
import io
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from guts.catalog import find_game
from guts.club.export import MEMBER_COLUMNS, member_nights_csv, members_csv
from guts.club.members import Member
from guts.club.stats import NightRecord, SeatResult, SessionRecord, club_stats
from guts.games.base import Session

DAY = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
LINEUP = (10, 11, 12)
"""The lobby seats of the session's seats 0, 1, 2 (a table's seat ids are its own)."""
MEMBERS = [Member("ann", "Ann"), Member("bob", "Bob"), Member("cy", "Cy")]


def public(session: Session) -> tuple[dict[str, Any], ...]:
    """The session's events as a spectator's record has them."""
    return tuple(e.to_dict() for e in session.events if e.visible_to(None))


def play(preset: str, choose: Any, deals: int, seed: int = 7) -> Session:
    session = find_game(preset).new_session(["Ann", "Bob", "Cy"], buy_in=100,
                                            rng=random.Random(seed))  # fmt: skip
    for _ in range(deals):
        if session.is_over:
            break
        session.start_deal()
        while not session.deal_over:
            decision = session.pending()[0]
            session.act(decision.seat, choose(session, decision))
    return session


def night(table: str, preset: str, session: Session, when: datetime = DAY) -> NightRecord:
    stacks = [seat.stack for seat in session.table.seats]
    seats = tuple(SeatResult(LINEUP[n], name, stacks[n] - 100)
                  for n, name in enumerate(["Ann", "Bob", "Cy"]))  # fmt: skip
    family = session.record()["game"]
    return NightRecord(table, preset, when, seats,
                       (SessionRecord(family, LINEUP, public(session)),))  # fmt: skip


def links(*tables: str) -> dict[tuple[str, int], str]:
    return {(t, LINEUP[n]): m.id for t in tables for n, m in enumerate(MEMBERS)}


def test_guts_ins_by_position_deals_and_nets_agree_with_the_play() -> None:
    chosen: list[tuple[int, int, str]] = []  # (seat, position after the dealer, choice)

    def choose(session: Session, decision: Any) -> str:
        dealer = session.table.button
        position = (decision.seat - dealer) % 3
        choice = "in" if position == 1 or decision.seat == 2 else "out"
        if choice in decision.actions:
            chosen.append((decision.seat, position, choice))
            return choice
        return str(decision.actions[0])

    session = play("two-card-guts", choose, deals=12)
    stats = club_stats(MEMBERS, links("t1"), [night("t1", "two-card-guts", session)])
    for n, member in enumerate(MEMBERS):
        guts = stats[member.id].families["guts"]
        mine = [(p, c) for s, p, c in chosen if s == n]
        assert guts.declared == len(mine)
        assert guts.ins == sum(c == "in" for _, c in mine)
        for position, (declared, went_in) in guts.by_position.items():
            assert declared == sum(p == position for p, _ in mine)
            assert went_in == sum(p == position and c == "in" for p, c in mine)
        assert guts.deals == session.deals_played  # everyone is dealt every deal
        assert guts.net == session.table.seats[n].stack - 100
        assert stats[member.id].net == guts.net  # the ledger's net, one night
    assert stats["cy"].families["guts"].ins == stats["cy"].families["guts"].declared


def test_the_biggest_pot_is_the_most_a_member_took_in_one_deal() -> None:
    session = play("two-card-guts", lambda s, d: "in", deals=10, seed=3)
    taken: dict[int, list[int]] = {0: [], 1: [], 2: []}
    deal_won: dict[int, int] = {}
    for event in session.events:
        data = event.to_dict()
        if data["kind"] == "deal-started":
            for seat, amount in deal_won.items():
                taken[seat].append(amount)
            deal_won = {}
        elif data["kind"] == "moved" and data["reason"] == "win":
            deal_won[data["destination"]] = deal_won.get(data["destination"], 0) + data["amount"]
    for seat, amount in deal_won.items():
        taken[seat].append(amount)
    stats = club_stats(MEMBERS, links("t1"), [night("t1", "two-card-guts", session)])
    assert any(taken.values())
    for n, member in enumerate(MEMBERS):
        guts = stats[member.id].families.get("guts")
        assert guts is not None
        assert guts.biggest_pot == max(taken[n], default=0)
        assert guts.pots_won == len(taken[n])


def test_draw_hands_played_and_showdowns_won() -> None:
    def call_down(session: Session, decision: Any) -> str:
        for action in ("call", "bet 1", "stand", "check"):
            if action in decision.actions:
                return action
        return str(decision.actions[0])

    session = play("five-card-draw", call_down, deals=6)
    stats = club_stats(MEMBERS, links("t1"), [night("t1", "five-card-draw", session)])
    winners = []
    for event in session.events:
        data = event.to_dict()
        if data["kind"] == "draw-deal-ended":
            winners.append({seat for seat, amount in data["won"] if amount > 0})
    assert len(winners) == session.deals_played
    for n, member in enumerate(MEMBERS):
        draw = stats[member.id].families["draw"]
        assert draw.deals == session.deals_played
        assert draw.showdowns == session.deals_played  # nobody folds: every deal shows down
        assert draw.showdowns_won == sum(n in won for won in winners)
        assert draw.net == session.table.seats[n].stack - 100


def test_nights_add_up_over_time_and_unclaimed_seats_count_for_no_one() -> None:
    first = play("two-card-guts", lambda s, d: "in", deals=3, seed=1)
    second = play("bourre", lambda s, d: str(d.actions[0]), deals=2, seed=2)
    nights = [night("late", "bourre", second, DAY + timedelta(days=7)),
              night("early", "two-card-guts", first)]  # fmt: skip
    seats = links("early", "late")
    del seats[("late", LINEUP[1])]  # Bob's seat at the second table was claimed by no one
    stats = club_stats(MEMBERS, seats, nights)
    ann = stats["ann"]
    assert [n.table_id for n in ann.nights] == ["early", "late"]
    assert ann.running_net() == [ann.nights[0].net, ann.nights[0].net + ann.nights[1].net]
    assert [n.table_id for n in stats["bob"].nights] == ["early"]
    assert "bourre" not in stats["bob"].families
    assert stats["cy"].families["bourre"].deals == second.deals_played
    rows = list(csv.DictReader(io.StringIO(members_csv(stats.values()))))
    assert tuple(rows[0]) == MEMBER_COLUMNS
    assert [int(row["nights"]) for row in rows] == [2, 1, 2]
    assert [int(row["net"]) for row in rows] == [s.net for s in stats.values()]
    nights_rows = list(csv.DictReader(io.StringIO(member_nights_csv(stats.values()))))
    assert [row["running_net"] for row in nights_rows if row["member_id"] == "ann"] == [
        str(v) for v in ann.running_net()
    ]


def test_a_member_with_two_seats_at_one_table_has_one_night_of_both_nets() -> None:
    session = play("two-card-guts", lambda s, d: "in", deals=2)
    record = night("t", "two-card-guts", session)
    seats = {("t", 10): "ann", ("t", 11): "ann", ("t", 12): "cy"}
    stats = club_stats(MEMBERS, seats, [record])
    assert len(stats["ann"].nights) == 1
    assert stats["ann"].net == record.seats[0].net + record.seats[1].net
    assert stats["ann"].nights[0].nickname == "Ann / Bob"
    assert stats["bob"].nights == []


def test_a_dealers_choice_night_counts_each_game_for_its_family() -> None:
    from random import Random

    from guts.bots import RandomPolicy
    from guts.night import Night, NightRules

    rules = NightRules.from_options(None, {"games": "two-card-guts,five-card-draw"})
    night = Night(rules, [("Ann", 60), ("Bob", 60), ("Cy", 60)], rng=Random(4))
    rng, bot, games = Random(5), RandomPolicy(), iter(["two-card-guts", "five-card-draw"] * 5)
    started: dict[str, int] = {"guts": 0, "draw": 0}
    for _ in range(20_000):
        if night.is_over or (len(night.results) >= 4 and night.deal_over):
            break
        if night.deal_over:
            night.start_deal()
        else:
            decision = night.pending()[0]
            action = (next(games, decision.actions[0]) if night.session is None
                      else bot.choose(night.view(decision.seat), decision, rng))  # fmt: skip
            if action not in decision.actions and night.session is None:
                action = decision.actions[0]
            night.act(decision.seat, action)
    if not night.is_over:
        night.stop()
    for event in night.events:
        if event.kind == "deal-started":
            started["guts"] += 1
        elif event.kind == "draw-deal-started":
            started["draw"] += 1
    assert started["guts"] and started["draw"], started
    record = NightRecord("t", "dealers-choice", DAY, tuple(
        SeatResult(LINEUP[n], name, 0) for n, name in enumerate(["Ann", "Bob", "Cy"])
    ), (SessionRecord("night", LINEUP, public(night)),))  # fmt: skip
    stats = club_stats(MEMBERS, links("t"), [record])
    for member in MEMBERS:
        families = stats[member.id].families
        assert families["guts"].deals == started["guts"]
        assert families["draw"].deals == started["draw"]


def test_a_nights_summary_kept_as_json_gives_the_same_stats() -> None:
    import json

    from guts.club.stats import NightSummary, summarize

    guts = night("g", "two-card-guts", play("two-card-guts", lambda s, d: "in", deals=4))
    draw_session = play("five-card-draw", lambda s, d: str(d.actions[-1]), deals=3, seed=9)
    draw = night("d", "five-card-draw", draw_session, DAY + timedelta(days=1))
    kept = [NightSummary.from_dict(json.loads(json.dumps(summarize(n).to_dict())))
            for n in (guts, draw)]  # fmt: skip
    seats = links("g", "d")
    fresh = club_stats(MEMBERS, seats, [guts, draw])
    read = club_stats(MEMBERS, seats, kept)
    assert {k: v.to_dict() for k, v in fresh.items()} == {k: v.to_dict() for k, v in read.items()}
    assert any(f.deals for s in read.values() for f in s.families.values())
