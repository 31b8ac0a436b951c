"""Fan Tan in the research environments (PettingZoo AEC, Gymnasium), from its family's
action layout alone: pass is the one word, a card is played by its position in the hand,
the mask offers exactly the engine's legal actions, and rewards are chip changes that
sum to zero; the rows are encoded with the table's cards (ActionLayout.laid_out)."""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import seed_test

from guts.envs.encoding import CARDS, card_index
from guts.envs.gymnasium import SeatEnv
from guts.envs.pettingzoo import env


def test_the_actions_are_pass_and_a_card_by_hand_position() -> None:
    table = env("fan-tan", 3, max_deals=1)
    table.reset(seed=4)
    assert table.action_names[0] == "pass"
    assert table.action_names[1:] == tuple(f"card {i}" for i in range(26))
    plays = 0
    while not table.episode.over:
        agent = table.agent_selection
        seat = table.possible_agents.index(agent)
        decision = table.episode.decision(seat)
        assert decision is not None
        legal = [table.action_names[i] for i in np.flatnonzero(table.observe(agent)["action_mask"])]
        hand = table.episode.session.view(seat)["hand"]
        engine = sorted(decision.actions)
        offered = sorted("pass" if name == "pass" else hand[int(name.split()[1])] for name in legal)
        assert offered == engine
        number = table.action_names.index(legal[-1])
        table.step(number)
        plays += legal[-1] != "pass"
    assert plays >= 18  # the winner's whole hand, and the others' plays between


def test_the_same_seed_plays_the_same_fan_tan_episode() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(partial(env, "fan-tan-false-pass", 4, max_deals=2), num_cycles=20)


def test_a_gymnasium_seat_plays_fan_tan_against_the_sensible_bots() -> None:
    seat = SeatEnv("fan-tan", 3, bots="sensible", max_deals=2)
    observation, info = seat.reset(seed=1)
    shape = observation["observation"].shape
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        action = rng.choice(np.flatnonzero(observation["action_mask"]))
        observation, reward, terminated, truncated, info = seat.step(action)
        assert not info.get("illegal") and observation["observation"].shape == shape
        total += float(reward)
        done = terminated or truncated
    stacks = info["stacks"]
    assert total == stacks[0] - 100


def test_the_rows_are_encoded_with_the_tables_cards() -> None:
    table = env("fan-tan", 3, max_deals=1)
    table.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(20):
        agent = table.agent_selection
        table.step(int(rng.choice(np.flatnonzero(table.observe(agent)["action_mask"]))))
    agent = table.agent_selection
    encoder = table.episode.encoder
    start = encoder.sections["hand"] + encoder.sections["seat_cards"]
    on_table = table.observe(agent)["observation"][start : start + CARDS]
    rows = table.episode.session.public_view(events=False)["rows"]
    laid = sorted(card_index(code) for row in rows.values() for code in row)
    assert laid and sorted(np.flatnonzero(on_table)) == laid


def test_a_card_offered_beside_a_pass_is_numbered_by_its_place_in_the_hand() -> None:
    from fantan_helpers import SUITED, play, table

    from guts.envs.encoding import Layout

    session = table(SUITED, options={"false-pass": "pot"})
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s")])
    decision = session.pending()[0]
    assert decision.actions == ("6h", "8h", "pass")
    layout = Layout.for_rules("fantan", session.rules, 4)
    legal = layout.legal(decision)
    hand = list(decision.options.hand)  # type: ignore[union-attr]
    start = layout.names.index("card 0")
    assert legal == {
        layout.names.index("pass"): "pass",
        start + hand.index("6h"): "6h",
        start + hand.index("8h"): "8h",
    }
