"""The sensible bot beats random play in every staged game (seeded, so deterministic)."""

from __future__ import annotations

import random
import statistics

import pytest

from guts.cards import parse_cards
from guts.games.staged import RandomBot, SensibleBot, make_bot, new_session, play_session
from guts.games.staged.bots import percentile
from guts.games.staged.presets import preset


@pytest.mark.parametrize(
    ("game", "deals"), [("three-five-seven", 4), ("napalm", 4), ("nuts", 4), ("toh", 10)]
)
def test_sensible_beats_random(game: str, deals: int) -> None:
    nets = []
    for i in range(120):
        rng = random.Random(i)
        options = {"max-deals": str(deals), "min-players": "2"}  # Toh: 3 players, below 4
        s = new_session(
            game, ["P0", "P1", "P2"], options=options, rng=random.Random(10_000 + i),
        )  # fmt: skip
        me = i % 3
        bots = {k: SensibleBot() if k == me else RandomBot(random.Random(rng.random()))
                for k in range(3)}  # fmt: skip
        play_session(s, bots)
        assert s.is_over and s.table.places == {}
        nets.append(s.table.net(me))
    mean = statistics.mean(nets)
    error = statistics.stdev(nets) / len(nets) ** 0.5
    assert mean > 3 * error > 0


def test_sensible_takes_a_free_leg_and_picks_in_turn() -> None:
    s = new_session("three-five-seven-dealers-choice", ["a", "b", "c"], rng=random.Random(1))
    s.start_deal()
    bot = SensibleBot(threshold=1.0)
    assert bot.choose(s.view(0)) == "in-turn"
    s.act(0, "in-turn")
    s.act(1, "out")
    s.act(2, "out")
    assert bot.choose(s.view(0)) == "in"  # everyone else is out: a free leg


def test_percentile_orders_hands() -> None:
    ranking = preset("toh").stages()[0].ranking
    assert percentile(ranking, parse_cards("As")) == 1.0
    assert percentile(ranking, parse_cards("2c")) < 0.1
    low = preset("nuts", {"low-pairs": "bad"}).stages()[0].ranking
    assert percentile(low, parse_cards("Ac 2d")) > percentile(low, parse_cards("Kc Qd"))


def test_make_bot() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("sensible"), SensibleBot)
    with pytest.raises(ValueError, match="random or sensible"):
        make_bot("clever")
