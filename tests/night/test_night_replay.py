"""Every family can follow every other, and a mixed night replays from its record."""

from __future__ import annotations

import json
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from night_helpers import chips, new_night, play

from guts.errors import GutsError
from guts.games.base import EventError
from guts.night import Night
from guts.night.events import GameEnded, GameStarted

ONE_OF_EACH = ("two-card-guts", "three-five-seven", "jacks-or-better", "bourre")
"""A game of each family, every one for four players."""

POOL = (*ONE_OF_EACH, "napalm", "five-card-draw", "three-card-guts", "toh")


@pytest.mark.parametrize(("first", "then"), list(product(ONE_OF_EACH, repeat=2)))
def test_every_family_can_follow_every_other(first: str, then: str) -> None:
    games = ",".join(dict.fromkeys([first, then]))
    night = play(new_night(games, stack=40), [first, then], games=2)
    assert [result.game for result in night.results] == [first, then]
    ended, started = _of(night, GameEnded), _of(night, GameStarted)
    assert tuple(stack for _, stack in started[1].players) == ended[0].stacks
    assert sum(night.ledger.stacks) == 160
    assert Night.replay(json.loads(json.dumps(night.record()))).events == night.events


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.lists(st.sampled_from(POOL), min_size=1, max_size=5),
       seed=st.integers(0, 10_000), credit=st.booleans(), cap=st.sampled_from(["2", "12"]),
       capped_pot=st.sampled_from(["split", "refund"]))  # fmt: skip
def test_random_orders_of_games_conserve_chips_and_replay(
    order: list[str], seed: int, credit: bool, cap: str, capped_pot: str
) -> None:
    # capped, so that a night on credit ends (a Guts pot on credit may grow for long)
    night = new_night(",".join(POOL), stack=30, seed=seed, credit="yes" if credit else "no",
                      cap=cap, capped_pot=capped_pot)  # fmt: skip

    def conserved(night: Night) -> None:
        assert chips(night) == 120

    play(night, order, seed=seed + 1, games=len(order), check=conserved)
    played = [result.game for result in night.results]
    assert played == order[: len(played)]
    assert len(played) == len(order) or night.is_over
    again = Night.replay(json.loads(json.dumps(night.record())))
    assert again.events == night.events and again.ledger == night.ledger


def test_a_night_cut_in_the_middle_of_a_deal_replays_to_the_same_point() -> None:
    night = new_night("two-card-guts,bourre")
    night.act(0, "bourre")
    night.start_deal()
    decision = night.pending()[0]
    night.act(decision.seat, decision.actions[0])
    again = Night.replay(night.record())
    assert again.events == night.events and again.pending() == night.pending()
    assert again.view(1) == night.view(1)


def test_a_replayed_night_plays_on_like_the_original() -> None:
    night = play(new_night("two-card-guts,bourre", seed=4), ["bourre"], seed=4, games=1)
    record = night.record()
    record["events"] = record["events"][:-1]  # before the stop: the choice waits
    again = Night.replay(record)
    assert again.chooser is not None and not again.is_over
    again.time_out()
    assert again.session is not None


def _tampered(record: dict[str, Any], number: int, **changes: Any) -> dict[str, Any]:
    events = [dict(event) for event in record["events"]]
    events[number].update(changes)
    return {**record, "events": events}


def test_a_tampered_night_does_not_replay() -> None:
    night = play(new_night("two-card-guts,three-five-seven"), ["three-five-seven"], games=2)
    record = night.record()
    kinds = [event["kind"] for event in record["events"]]
    started = kinds.index("night-game-started")
    with pytest.raises(EventError, match="starts with other players"):
        Night.replay(_tampered(record, started, players=[["Ann", 99], ["Bob", 60],
                                                         ["Cat", 60], ["Dan", 60]]))  # fmt: skip
    with pytest.raises(EventError, match="night-game-ended"):
        ended = kinds.index("night-game-ended")
        Night.replay(_tampered(record, ended, stacks=[60, 60, 60, 60]))
    with pytest.raises(GutsError, match="event 1"):
        Night.replay(_tampered(record, 0, seat=1))  # not Bob's choice
    with pytest.raises(EventError, match="missing events"):
        Night.replay({key: value for key, value in record.items() if key != "events"})
    with pytest.raises(EventError, match="rules: unknown night option"):
        Night.replay({**record, "rules": {"deal-limit": "3"}})


def _of(night: Night, kind: type[Any]) -> list[Any]:
    return [event for event in night.events if isinstance(event, kind)]


def test_a_record_names_who_deals_after_a_game_and_an_older_one_replays_as_it_was_played(
) -> None:
    """Records made before ``deal-after-game`` existed were played with the deal going on
    from where each game left it: they still replay, and a record always names it."""
    for deal in ("passes", "continues"):
        night = play(new_night("two-card-guts,bourre", cap="4", deal_after_game=deal), games=4)
        record = night.record()
        assert record["rules"]["deal-after-game"] == deal
        assert Night.replay(json.loads(json.dumps(record))).events == night.events
    older = {**record, "rules": {k: v for k, v in record["rules"].items()
                                if k != "deal-after-game"}}  # fmt: skip
    assert Night.replay(older).events == night.events
    passed = play(new_night("two-card-guts,bourre", cap="4"), games=4).record()
    assert [e["seat"] for e in passed["events"] if e["kind"] == "night-game-chosen"] == [0, 1, 2, 3]
    with pytest.raises(GutsError):  # played passing, read as continuing: another chooser
        Night.replay({**passed, "rules": {k: v for k, v in passed["rules"].items()
                                          if k != "deal-after-game"}})  # fmt: skip
