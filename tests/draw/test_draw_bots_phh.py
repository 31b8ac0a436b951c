"""Bots (the sensible one beats random, seeded) and the PHH export."""

from __future__ import annotations

import random
import statistics
import tomllib

import pytest
from draw_helpers import play, stacked, table_session

from guts.games.draw import new_session
from guts.games.draw.bots import RandomBot, SensibleBot, play_session
from guts.games.draw.phh import PhhError, deal_to_phh, deal_to_phh_fields


@pytest.mark.parametrize("name", ["five-card-draw", "jacks-or-better", "deuces-wild"])
def test_sensible_bot_beats_random_by_several_standard_errors(name: str) -> None:
    nets = []
    for k in range(40):
        session = new_session(name, ["A", "B"], buy_in=100, rng=random.Random(k),
                              options={"max-deals": "10"}, button=k % 2)  # fmt: skip
        bot = k % 2
        play_session(session, {bot: SensibleBot(session.rules),
                               1 - bot: RandomBot(random.Random(1000 + k))})  # fmt: skip
        nets.append(session.table.net(bot))
    mean, error = statistics.mean(nets), statistics.stdev(nets) / len(nets) ** 0.5
    assert mean > 4 * error


def test_random_bot_only_takes_listed_actions() -> None:
    session = new_session("all-for-one", ["A", "B", "C"], buy_in=30, rng=random.Random(3),
                          options={"max-deals": "3"})  # fmt: skip
    bots = {seat: RandomBot(random.Random(seat)) for seat in range(3)}
    play_session(session, bots)
    assert session.is_over


def test_sensible_bot_keeps_pairs_and_draws_to_flushes_and_open_straights() -> None:
    bot = SensibleBot(table_session("five-card-draw", 3).rules)
    for cards, kept in [
        ("As Ad 7c 5h 2s", {"As", "Ad"}),
        ("Ah 9h 7h 4h 2c", {"Ah", "9h", "7h", "4h"}),
        ("9c 8d 7h 6s Kc", {"9c", "8d", "7h", "6s"}),
        ("Ks Kd 9c 9h 3s", {"Ks", "Kd", "9c", "9h"}),
    ]:
        session = table_session("five-card-draw", 3)
        others = ["Qs Qh Jc Jd Tc", "Ts Th 8c 8h 6d"]
        session.start_deal(stacked([cards, *others], "5c 5d 4c 4d 3c 3d"))
        play(session, (1, "bet 1"), (2, "call"), (0, "call"))
        action = bot.choose(session.view(1))
        thrown = set(action.split()[1:]) if action != "stand pat" else set()
        assert set(cards.split()) - thrown == kept, (cards, action)


def _played(seed: int = 4) -> dict[str, object]:
    session = new_session("five-card-draw", ["Ann", "Bob", "Cy"], buy_in=50,
                          rng=random.Random(seed), options={"max-deals": "3"})  # fmt: skip
    play_session(session, {s: SensibleBot(session.rules) for s in range(3)})
    return session.record()


def test_phh_export_has_the_required_fields_and_parses_as_toml() -> None:
    session = table_session("five-card-draw", 3)
    session.start_deal(stacked(["As Ad 7c 5h 2s", "Ks Kd 9c 8h 3s", "Qs Qd Jc 4h 6d"],
                               "Tc Th Ts 9d"))  # fmt: skip
    play(session, (1, "bet 1"), (2, "raise 2"), (0, "fold"), (1, "call"))
    play(
        session, (1, "discard 7c 5h 2s"), (2, "discard 3s"), (1, "check"), (2, "bet 2"), (1, "call")
    )
    data = tomllib.loads(deal_to_phh(session.record(), 1))
    assert data["variant"] == "F5CD"
    assert data["antes"] == [1, 1, 1] and data["blinds_or_straddles"] == [0, 0, 0]
    assert (data["small_bet"], data["big_bet"]) == (1, 2)
    assert data["starting_stacks"] == [100, 100, 100]
    assert data["players"] == ["P1", "P2", "P0"]
    assert data["actions"][:3] == ["d dh p1 AsAd7c5h2s", "d dh p2 KsKd9c8h3s",
                                   "d dh p3 QsQdJc4h6d"]  # fmt: skip
    assert data["actions"][3:7] == ["p1 cbr 1", "p2 cbr 2", "p3 f", "p1 cc"]
    assert data["actions"][7:9] == ["p1 sd 7c5h2s", "d dh p1 TcThTs"]
    assert data["actions"][-2:] == ["p2 sm KsKd9c8h9d", "p1 sm AsAdTcThTs"]  # aggressor first
    assert data["winnings"] == [11, 0, 0]
    assert data["finishing_stacks"] == [100 - 5 + 11, 95, 99]
    assert data["_result"] == "won"


def test_phh_export_of_every_deal_of_a_played_session() -> None:
    record = _played()
    for deal in (1, 2, 3):
        fields = deal_to_phh_fields(record, deal)
        assert fields["hand"] == deal
        assert len(fields["starting_stacks"]) == len(fields["players"])
        tomllib.loads(deal_to_phh(record, deal))
    with pytest.raises(PhhError):
        deal_to_phh(record, 9)


def test_phh_no_limit_writes_min_bet() -> None:
    session = new_session("seven-card-draw", ["A", "B", "C"], buy_in=50, rng=random.Random(1),
                          options={"max-deals": "1"})  # fmt: skip
    play_session(session, {s: SensibleBot(session.rules) for s in range(3)})
    data = tomllib.loads(deal_to_phh(session.record(), 1))
    assert data["variant"] == "N7CD" and data["min_bet"] == 2
    assert data["blinds_or_straddles"] == [1, 2, 0]
    assert data["_rules"]["hand-size"] == "7"
