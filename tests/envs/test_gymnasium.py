"""The single-seat Gymnasium environment: Gymnasium's own env_checker for a preset of each
family, reproducible seeding, rewards that add up to the seat's net, and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from guts.envs.gymnasium import SeatEnv
from guts.errors import OptionError


@pytest.mark.parametrize(
    ("preset", "bots"),
    [
        ("two-card-guts", "threshold"),
        ("hi-lo-guts", "sensible"),
        ("three-five-seven-simultaneous", "sensible"),
        ("five-card-draw", "sensible"),
        ("bourre", ["sensible", "random", "sensible"]),
    ],
)
def test_check_env_passes(preset: str, bots: str | list[str]) -> None:
    table = SeatEnv(preset, 4, bots=bots, seat=1, max_deals=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from the checker either
        check_env(table, skip_render_check=True)


def run(table: SeatEnv, seed: int) -> tuple[list[bytes], list[float], list[int]]:
    """One episode taking the last legal action each time: observations, rewards, stacks."""
    observation, _ = table.reset(seed=seed)
    seen, rewards = [observation["observation"].tobytes()], []
    done = False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[-1])
        observation, reward, terminated, truncated, info = table.step(action)
        assert not info["illegal"]
        seen.append(observation["observation"].tobytes())
        rewards.append(float(reward))
        done = terminated or truncated
    return seen, rewards, table.episode.stacks()


def test_the_same_seed_plays_the_same_episode() -> None:
    table = SeatEnv("hi-lo-guts", 4, bots="sensible", max_deals=6)
    first, again = run(table, 21), run(SeatEnv("hi-lo-guts", 4, bots="sensible", max_deals=6), 21)
    assert first == again
    assert run(table, 22)[0] != first[0]


@pytest.mark.parametrize("preset", ["simultaneous-guts", "nuts", "jacks-or-better", "bourre"])
def test_rewards_add_up_to_the_seats_net(preset: str) -> None:
    table = SeatEnv(preset, 4, seat=2, bots="sensible", max_deals=5, buy_in=80)
    for seed in range(3):
        _, rewards, stacks = run(table, seed)
        assert sum(rewards) == stacks[2] - 80
        assert sum(stacks) == 4 * 80


def test_an_illegal_action_is_replaced_by_the_first_legal_one() -> None:
    first, second = SeatEnv("two-card-guts", 3), SeatEnv("two-card-guts", 3)
    first.reset(seed=5)
    observation, _ = second.reset(seed=5)
    assert observation["action_mask"].tolist() == [1, 1, 0, 0, 0]
    after, _, _, _, info = first.step(4)  # "both": not a choice of two-card Guts
    expected, _, _, _, legal = second.step(0)
    assert info["illegal"] and not legal["illegal"]
    assert np.array_equal(after["observation"], expected["observation"])


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(OptionError, match="seat"):
        SeatEnv("two-card-guts", 3, seat=3)
    with pytest.raises(OptionError, match="bots"):
        SeatEnv("two-card-guts", 3, bots=["random"])
    with pytest.raises(OptionError, match="--bots must be one of"):
        SeatEnv("bourre", 3, bots="threshold")


def test_gymnasium_make_builds_it_by_its_id() -> None:
    import gymnasium

    from guts.envs.gymnasium import ENV_ID

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the passive checker gymnasium.make adds is silent
        table = gymnasium.make(ENV_ID, preset="nuts", players=3, bots="sensible", max_deals=4)
        observation, _ = table.reset(seed=2)
        done = False
        while not done:
            action = int(np.flatnonzero(observation["action_mask"])[0])
            observation, _, terminated, truncated, _ = table.step(action)
            done = terminated or truncated
    assert isinstance(table.unwrapped, SeatEnv)


def test_gymnasium_make_with_ansi_rendering_is_silent() -> None:
    """The render modes are the class's, where gymnasium.make looks before it builds one."""
    import gymnasium

    from guts.envs.gymnasium import ENV_ID

    assert SeatEnv.metadata["render_modes"] == ["ansi"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = gymnasium.make(ENV_ID, preset="bourre", players=3, render_mode="ansi")
        table.reset(seed=3)
        assert str(table.render()).startswith("bourre: player_0 ")
    with pytest.raises(OptionError, match="render_mode"):
        SeatEnv("bourre", 3, render_mode="human")


def test_a_game_that_leaves_no_choice_is_refused_at_construction() -> None:
    with pytest.raises(OptionError, match="nobody ever decides anything"):
        SeatEnv("two-low-in-wild", 2)
    with pytest.raises(OptionError, match="Bourré is for 2 to 7 players"):
        SeatEnv("bourre", 8)
