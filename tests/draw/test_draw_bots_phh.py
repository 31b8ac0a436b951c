"""Bots (the sensible one beats random, seeded) and the PHH export."""

from __future__ import annotations

import random
import statistics
import tomllib
from typing import Any

import pytest
from draw_helpers import play, stacked, table_session, to_act

from guts.cards import parse_cards
from guts.games.draw import DrawSession, new_session, preset
from guts.games.draw.bots import RandomBot, SensibleBot, play_session
from guts.games.draw.phh import PhhError, deal_to_phh, deal_to_phh_fields


@pytest.mark.parametrize("name", ["five-card-draw", "jacks-or-better", "deuces-wild"])
def test_sensible_bot_beats_random_by_several_standard_errors(name: str) -> None:
    nets = []
    for k in range(40):
        options = {"max-deals": "10", "min-players": "2"}  # heads-up Jacks or Better too
        session = new_session(name, ["A", "B"], buy_in=100, rng=random.Random(k),
                              options=options, button=k % 2)  # fmt: skip
        bot = k % 2
        play_session(session, {bot: SensibleBot(session.rules),
                               1 - bot: RandomBot(random.Random(1000 + k))})  # fmt: skip
        nets.append(session.table.net(bot))
    mean, error = statistics.mean(nets), statistics.stdev(nets) / len(nets) ** 0.5
    assert mean > 4 * error


def _sensible_nets(name: str, players: int, sessions: int) -> list[int]:
    """The sensible bot's net chips over seeded sessions against ``players - 1`` random bots,
    the bot taking each seat in turn."""
    nets = []
    for k in range(sessions):
        names = [f"P{i}" for i in range(players)]
        options = {"max-deals": "10", "min-players": "2"}  # heads-up Jacks Back too
        session = new_session(name, names, buy_in=100, rng=random.Random(k),
                              options=options, button=k % players)  # fmt: skip
        bot = k % players
        policies: dict[int, RandomBot | SensibleBot] = {
            seat: RandomBot(random.Random(1000 * (seat + 1) + k)) for seat in range(players)
        }
        policies[bot] = SensibleBot(session.rules)
        play_session(session, policies)
        nets.append(session.table.net(bot))
    return nets


@pytest.mark.parametrize(
    ("name", "players", "sessions"),
    [("seven-card-draw", 2, 60), ("jacks-back", 2, 40), ("five-card-draw", 4, 40)],
)
def test_sensible_bot_beats_random_in_more_games(name: str, players: int, sessions: int) -> None:
    nets = _sensible_nets(name, players, sessions)
    mean, error = statistics.mean(nets), statistics.stdev(nets) / len(nets) ** 0.5
    assert mean > 4 * error, (mean, error)


def _seat_of(session: DrawSession, cards: str) -> int:
    """The seat dealt ``cards``."""
    (seat,) = [s for s in (0, 1) if set(session.view(s)["hand"]) == set(_codes(cards))]
    return seat


def _codes(cards: str) -> list[str]:
    """The cards' codes as views show them ("Th" for the ten of hearts)."""
    return [card.ascii for card in parse_cards(cards)]


def _until(session: DrawSession, seat: int, phase: str) -> dict[str, Any]:
    """Check, call or stand pat until ``seat`` must act in ``phase``; its view then."""
    while True:
        actor = to_act(session)
        view = session.view(actor)
        if actor == seat and view["phase"] == phase:
            return view
        actions = session.pending()[0].actions
        move = next(a for a in ("check", "call", "stand pat") if a in actions)
        session.act(actor, move)


def _seven_card_discard(cards: str, other: str) -> set[str]:
    session = table_session("seven-card-draw", 2)
    session.start_deal(stacked([cards, other]))
    view = _until(session, _seat_of(session, cards), "drawing")
    action = SensibleBot(session.rules).choose(view)
    return {card.ascii for card in parse_cards(" ".join(action.split()[1:]))}


def test_seven_card_draw_bot_keeps_a_four_flush_outside_its_best_five() -> None:
    thrown = _seven_card_discard("Ah 9h 7h 4h Kc Qd Js", "2c 2d 3s 5c 6d 8s Tc")
    assert thrown == set(_codes("Kc Qd Js"))


def test_seven_card_draw_bot_keeps_its_two_best_pairs_and_a_made_hand() -> None:
    other = "Jc Jd Js Tc Td 3s 3h"
    thrown = _seven_card_discard("Ah Ad 9c 9s 4h 4d 2c", other)
    assert thrown == {"4h", "4d", "2c"}  # the third pair does not play
    thrown = _seven_card_discard("9c 8d 7h 6s 5c Kd 2h", other)  # a straight
    assert thrown == {"Kd", "2h"}


def test_no_limit_bot_folds_a_pair_to_an_all_in_but_calls_a_small_raise() -> None:
    hand = "8c 8d 3s 5c Kd 2h Jh"
    for raise_to, expected in [("raise 100", "fold"), ("raise 4", "call")]:
        session = table_session("seven-card-draw", 2)
        session.start_deal(stacked(["Ah Kc Qd 4h 6s 7d 9s", hand]))
        bot = _seat_of(session, hand)
        if to_act(session) == bot:
            play(session, (bot, "call"))
        play(session, (1 - bot, raise_to))
        view = session.view(to_act(session))
        assert to_act(session) == bot
        assert SensibleBot(session.rules).choose(view) == expected, raise_to


def test_jacks_back_bot_calls_with_a_one_card_low_draw_before_the_draw() -> None:
    hand = "As 2d 3c 4h Ks"
    session = table_session(preset("jacks-back", {"min-players": "2"}), 2)
    session.start_deal(stacked([hand, "9c 8d 7h 6s Tc"]))
    bot = _seat_of(session, hand)
    for _ in range(2):
        play(session, (to_act(session), "check"))  # nobody opens
    if to_act(session) == bot:
        play(session, (bot, "check"))
    play(session, (1 - bot, "bet 1"))
    view = session.view(bot)
    assert view["hi_lo"] == "low" and to_act(session) == bot
    assert SensibleBot(session.rules).choose(view) == "call"


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
