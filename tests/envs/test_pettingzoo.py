"""The PettingZoo AEC environment: PettingZoo's own api_test for every preset, rewards
that are chip changes summing to zero, simultaneous declarations that stay hidden, and
the fixed action space mapped onto the engine's decisions."""

from __future__ import annotations

import warnings
from functools import partial
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test

from guts.catalog import games
from guts.envs.encoding import CARDS, card_index
from guts.envs.pettingzoo import GutsAECEnv, env
from guts.errors import GutsError, IllegalAction, OptionError

PRESETS = sorted(games())


def play(table: GutsAECEnv, seed: int, choose: Any = None) -> dict[str, int]:
    """Play one episode with random legal actions; each agent's summed rewards."""
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    totals = dict.fromkeys(table.agents, 0)
    for agent in table.agent_iter(100_000):
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        table.step(int(rng.choice(legal)) if choose is None else choose(table, legal))
    return totals


@pytest.mark.parametrize("preset", PRESETS)
def test_api_test_passes_for_every_preset(preset: str) -> None:
    table = env(preset, 4, max_deals=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice for dict observations and masks
        api_test(table, num_cycles=15)


@pytest.mark.parametrize("preset", ["hi-lo-guts", "nuts", "five-card-draw", "bourre"])
def test_seed_test_and_render_test_pass(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        seed_test(partial(env, preset, 4, max_deals=3), num_cycles=20)
        render_test(partial(env, preset, 4, max_deals=3, render_mode="ansi"))


@pytest.mark.parametrize("preset", PRESETS)
def test_rewards_are_chip_changes_that_sum_to_zero(preset: str) -> None:
    players = 4 if games()[preset].family in ("staged", "draw") else 3
    table = env(preset, players, max_deals=4, buy_in=60)
    totals = play(table, seed=len(preset))
    stacks = table.episode.stacks()
    assert sum(totals.values()) == 0
    assert [totals[agent] for agent in table.possible_agents] == [s - 60 for s in stacks]
    assert table.agents == []  # every agent stepped out at the end


def test_observation_is_in_its_space_and_shows_the_seats_own_hand() -> None:
    table = env("three-card-guts", 3, max_deals=2)
    table.reset(seed=7)
    agent = table.agent_selection
    observation = table.observe(agent)
    assert table.observation_space(agent).contains(observation)
    seat = table.possible_agents.index(agent)
    hand = table.episode.session.view(seat)["hand"]
    vector = observation["observation"]
    for position, code in enumerate(hand):
        row = vector[position * CARDS : (position + 1) * CARDS]
        assert row[card_index(code)] == 1 and row.sum() == 1


def declares_at_once(preset: str) -> bool:
    """True if the first decision of a four-player episode is made by all at once."""
    table = env(preset, 4)
    table.reset(seed=3)
    return table.episode.pending[0].simultaneous


AT_ONCE = [preset for preset in PRESETS if declares_at_once(preset)]


def test_the_presets_that_declare_at_once_are_found() -> None:
    assert {"simultaneous-guts", "hi-lo-guts", "nuts", "three-five-seven-simultaneous"} <= set(
        AT_ONCE
    )
    assert "two-card-guts" not in AT_ONCE and "three-five-seven" not in AT_ONCE


@pytest.mark.parametrize("preset", AT_ONCE)
def test_a_simultaneous_declaration_is_never_seen_before_all_have_declared(preset: str) -> None:
    first, second = env(preset, 4), env(preset, 4)
    first.reset(seed=3)
    second.reset(seed=3)
    decider = first.agent_selection
    legal = np.flatnonzero(first.observe(decider)["action_mask"])
    assert len(legal) >= 2 and first.episode.pending[0].simultaneous
    first.step(int(legal[0]))  # in (high) here ...
    second.step(int(legal[-1]))  # ... out there
    compared = 0
    while True:
        for agent in first.possible_agents:
            if agent != decider:
                seen, other = first.observe(agent), second.observe(agent)
                assert np.array_equal(seen["observation"], other["observation"])
                assert np.array_equal(seen["action_mask"], other["action_mask"])
                compared += 1
        pending = first.episode.pending
        if len(pending) <= 1:  # the last choice reveals them all
            break
        assert pending[0].simultaneous and first.agent_selection == second.agent_selection
        action = int(np.flatnonzero(first.observe(first.agent_selection)["action_mask"])[0])
        first.step(action)
        second.step(action)
    assert compared >= 3 * 3
    action = int(np.flatnonzero(first.observe(first.agent_selection)["action_mask"])[0])
    first.step(action)
    second.step(action)  # the last choice: now all are shown, and the others see them
    assert any(
        not np.array_equal(first.observe(a)["observation"], second.observe(a)["observation"])
        for a in first.possible_agents
        if a != decider
    )


def test_a_declaration_in_turn_is_seen_by_the_next_seat() -> None:
    """The check above can fail: in turn, the next seat does see the choice."""
    first, second = env("two-card-guts", 4), env("two-card-guts", 4)
    first.reset(seed=3)
    second.reset(seed=3)
    first.step(0)  # in
    second.step(1)  # out
    agent = first.agent_selection
    assert agent == second.agent_selection
    assert not np.array_equal(first.observe(agent)["observation"],
                              second.observe(agent)["observation"])  # fmt: skip


def test_the_same_seed_plays_the_same_episode() -> None:
    def trajectory(seed: int) -> list[tuple[str, int, bytes]]:
        table = env("five-card-draw", 4, max_deals=3)
        steps: list[tuple[str, int, bytes]] = []

        def choose(table: GutsAECEnv, legal: np.ndarray) -> int:
            agent = table.agent_selection
            action = int(legal[len(steps) % len(legal)])
            steps.append((agent, action, table.observe(agent)["observation"].tobytes()))
            return action

        play(table, seed, choose)
        return steps

    assert trajectory(11) == trajectory(11)
    assert trajectory(11) != trajectory(12)


def test_the_deal_cap_truncates_and_the_end_of_a_session_terminates() -> None:
    capped = env("simultaneous-guts", 4, max_deals=1, buy_in=50)
    capped.reset(seed=1)
    while not capped.episode.over:
        capped.step(1)  # everyone out: the pot stays for a next deal
    assert all(capped.truncations.values()) and not any(capped.terminations.values())
    assert capped.episode.session.deals_played == 1
    assert sum(capped.episode.stacks()) == 4 * 50  # the pot was shared out

    whole = env("two-card-guts", 3, max_deals=None)
    play(whole, seed=2)
    assert whole.episode.session.over_reason == "the pot was won"


def test_draw_betting_offers_the_least_middle_and_most_sizes() -> None:
    table = env("five-card-draw", 4, max_deals=2, buy_in=200)
    table.reset(seed=5)
    names = table.action_names
    for _ in range(40):
        seat = table.possible_agents.index(table.agent_selection)
        decision = table.episode.decision(seat)
        assert decision is not None
        mask = table.observe(table.agent_selection)["action_mask"]
        legal = {names[i] for i in np.flatnonzero(mask)}
        if decision.kind == "bet":
            wanted = set(decision.actions)
            named = {a.split()[0] for a in wanted}  # fold, check, call, bet, raise
            assert {n.split()[0] for n in legal} == named
            sized = table.episode.layout.legal(decision)
            assert {a for a in sized.values() if " " in a} == {a for a in wanted if " " in a}
        elif decision.kind == "draw":
            assert len(legal) == 1 + 5 + 10 + 10  # stand pat or throw 1, 2 or 3 of 5
        table.step(
            int(np.flatnonzero(mask)[-1] if decision.kind == "bet" else np.flatnonzero(mask)[0])
        )
        if table.episode.over:
            break


def test_bourre_cards_are_played_by_hand_position() -> None:
    table = env("bourre", 3, max_deals=1)
    table.reset(seed=4)
    played = 0
    while not table.episode.over and played < 6:
        agent = table.agent_selection
        seat = table.possible_agents.index(agent)
        decision = table.episode.decision(seat)
        assert decision is not None
        mask = table.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask)
        if decision.kind == "play":
            hand = table.episode.session.view(seat)["hand"]
            number = int(legal[-1])
            position = int(table.action_names[number].split()[1])
            card = hand[position]
            assert card in decision.options.allowed  # type: ignore[union-attr]
            table.step(number)
            assert card not in table.episode.session.view(seat)["hand"]
            played += 1
        else:
            table.step(int(legal[0]))  # play (not fold), stand pat
    assert played == 6


def test_passing_a_card_left_is_an_action_by_hand_position() -> None:
    table = env("three-card-guts", 3, {"pass-left": "yes"})
    table.reset(seed=8)
    assert table.action_names[-3:] == ("card 0", "card 1", "card 2")
    agent = table.agent_selection
    legal = [table.action_names[i] for i in np.flatnonzero(table.observe(agent)["action_mask"])]
    assert legal == ["card 0", "card 1", "card 2"]
    totals = play(table, seed=8)
    assert sum(totals.values()) == 0


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(OptionError, match="unknown game"):
        env("go-fish", 3)
    with pytest.raises(OptionError, match="max_deals"):
        env("two-card-guts", 3, max_deals=0)
    with pytest.raises(OptionError, match="end-pot"):
        env("bourre", 3, {"end-pot": "stays"})
    table = env("two-card-guts", 3)
    table.reset(seed=1)
    with pytest.raises(IllegalAction, match="not legal now"):
        table.step(4)  # "both": not a choice of two-card Guts


def test_players_may_be_named() -> None:
    table = env("toh", ["Ann", "Bob", "Cat", "Dan"], max_deals=2)
    table.reset(seed=3)
    assert table.possible_agents == ["Ann", "Bob", "Cat", "Dan"]
    assert sum(play(table, seed=3).values()) == 0


def test_a_game_that_leaves_no_choice_is_no_environment() -> None:
    """With two players both hold the two lowest face-up ranks: both are in, always."""
    table = env("two-low-in-wild", 2)
    with pytest.raises(GutsError, match="ended before anyone decided anything"):
        table.reset(seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_many_episodes_of_every_size_stay_in_their_spaces_and_sum_to_zero(preset: str) -> None:
    for players in range(2, 9):
        try:
            table = env(preset, players, max_deals=12, buy_in=40)
            table.reset(seed=0)
        except GutsError:
            continue  # not for this many players, or no choice left to them
        space = table.observation_space(table.possible_agents[0])
        rng = np.random.default_rng(players)

        def choose(table: GutsAECEnv, legal: np.ndarray, space: Any = space, rng: Any = rng) -> int:
            assert space.contains(table.observe(table.agent_selection))
            return int(rng.choice(legal))

        for seed in range(8):
            assert sum(play(table, seed, choose).values()) == 0
