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

from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

from guts.catalog import games
from guts.envs.encoding import CARDS, card_index
from guts.envs.pettingzoo import WAIT, GutsAECEnv, GutsParallelEnv, env, parallel_env
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


def test_a_game_that_leaves_no_choice_is_refused_at_construction() -> None:
    """With two players both hold the two lowest face-up ranks: both are in, always."""
    with pytest.raises(OptionError, match=r"every player is in every deal.*at least 3 players"):
        env("two-low-in-wild", 2)
    table = env("two-low-in-wild", 3)  # the third face-up rank is free: a choice is left
    table.reset(seed=0)
    assert table.observe(table.agent_selection)["action_mask"].sum() >= 2


@pytest.mark.parametrize("preset", PRESETS)
def test_every_size_is_refused_at_construction_or_has_a_decision_at_reset(preset: str) -> None:
    """No preset refuses a table only when it is reset (Bourré for eight did), and none
    deals on and on looking for a decision (two low in and wild for two did, for a minute)."""
    for players in range(2, 10):
        try:
            table = env(preset, players, max_deals=3)
        except OptionError:
            continue
        table.reset(seed=players)
        mask = table.observe(table.agent_selection)["action_mask"]
        assert mask.sum() >= 1 and not table.episode.over


def test_render_mode_is_checked_and_ansi_and_human_render(capsys: Any) -> None:
    with pytest.raises(OptionError, match="render_mode: one of ansi, human or None, not 'rgb"):
        env("nuts", 3, render_mode="rgb_array")
    assert GutsAECEnv.metadata["render_modes"] == ["ansi", "human"]
    table = env("nuts", 3, render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert str(text).startswith("nuts: player_0 ")
    printed = env("nuts", 3, render_mode="human")
    printed.reset(seed=1)
    assert printed.render() is None
    assert capsys.readouterr().out == f"{text}\n"


# -- the parallel form ------------------------------------------------------------------------

IN_TURN = ["two-card-guts", "three-five-seven", "five-card-draw", "bourre"]


@pytest.mark.parametrize("preset", [*AT_ONCE, *IN_TURN])
def test_parallel_api_test_passes(preset: str) -> None:
    table = parallel_env(preset, 4, max_deals=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from the checker either
        parallel_api_test(table, num_cycles=400)


@pytest.mark.parametrize("preset", ["hi-lo-guts", "nuts", "three-five-seven-simultaneous"])
def test_seats_declaring_at_once_act_in_one_step_and_the_others_wait(preset: str) -> None:
    table = parallel_env(preset, 4, max_deals=2)
    observations, infos = table.reset(seed=5)
    deciding = [agent for agent in table.agents if infos[agent]["deciding"]]
    assert len(deciding) == 4  # the first declaration: everyone at once
    wait = table.action_names.index(WAIT)
    assert wait == table.action_space("player_0").n - 1  # type: ignore[attr-defined]
    simultaneous_steps = 0
    while table.agents:
        deciding = [a for a in table.agents if table.observe(a)["action_mask"][wait] == 0]
        for agent in table.agents:
            mask = observations[agent]["action_mask"]
            if agent in deciding:
                assert mask[wait] == 0 and mask.sum() >= 1
            else:
                assert mask.tolist() == [0] * wait + [1]  # wait, and only wait
        simultaneous_steps += len(deciding) > 1
        actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[-1]) for a in table.agents}
        observations, *_ = table.step(actions)
    assert simultaneous_steps >= 1


def play_aec_and_parallel(preset: str, seed: int) -> tuple[dict[str, int], dict[str, int]]:
    """The same choices in both forms: the AEC form's random legal choices, replayed a
    step at a time in the parallel form; each form's summed rewards."""
    aec, parallel = env(preset, 4, max_deals=4), parallel_env(preset, 4, max_deals=4)
    chosen: list[tuple[str, int]] = []

    def choose(table: GutsAECEnv, legal: np.ndarray) -> int:
        action = int(np.random.default_rng(len(chosen) + seed).choice(legal))
        chosen.append((table.agent_selection, action))
        return action

    aec_totals = play(aec, seed, choose)
    parallel.reset(seed=seed)
    parallel_totals = dict.fromkeys(parallel.possible_agents, 0)
    queue = list(chosen)
    while parallel.agents:
        deciding = [a for a in parallel.agents if not parallel.observe(a)["action_mask"][-1]]
        step = dict(queue[: len(deciding)])
        del queue[: len(deciding)]
        assert sorted(step) == sorted(deciding)  # the AEC form asked the same agents in turn
        _, rewards, *_ = parallel.step(step)
        for agent, reward in rewards.items():
            parallel_totals[agent] += reward
    assert not queue
    assert parallel.episode.stacks() == aec.episode.stacks()
    return aec_totals, parallel_totals


@pytest.mark.parametrize("preset", ["simultaneous-guts", "hi-lo-guts", "nuts", "bourre"])
def test_the_parallel_form_plays_as_the_aec_form_does(preset: str) -> None:
    for seed in (1, 2):
        aec_totals, parallel_totals = play_aec_and_parallel(preset, seed)
        assert aec_totals == parallel_totals
        assert sum(parallel_totals.values()) == 0


def test_a_bad_parallel_step_is_refused_and_changes_nothing() -> None:
    table = parallel_env("simultaneous-guts", 3, max_deals=2)
    observations, _ = table.reset(seed=2)
    before = {a: o["observation"].copy() for a, o in observations.items()}
    wait = table.action_names.index(WAIT)
    with pytest.raises(IllegalAction, match="player_2 must act now"):
        table.step({"player_0": 0, "player_1": 1})
    with pytest.raises(IllegalAction, match="not legal now"):
        table.step({"player_0": 0, "player_1": 1, "player_2": 4})  # both: not in this game
    with pytest.raises(IllegalAction, match="not legal now"):
        table.step({"player_0": 0, "player_1": 1, "player_2": wait})  # a decider cannot wait
    with pytest.raises(IllegalAction, match="no live agents"):
        table.step({"player_0": 0, "player_1": 1, "player_2": 0, "player_9": 0})
    assert table.episode.session.deals_played == 1
    for agent in table.agents:
        assert np.array_equal(table.observe(agent)["observation"], before[agent])
        assert observations[agent]["action_mask"].tolist() == [1, 1, 0, 0, 0, 0]
    table.step({"player_0": 0, "player_1": 0, "player_2": 1})  # two in, one out: a showdown
    waiting = GutsParallelEnv("two-card-guts", 3)
    waiting.reset(seed=2)
    idle = next(a for a in waiting.agents if waiting.observe(a)["action_mask"][-1])
    with pytest.raises(IllegalAction, match=f"{idle} has nothing to decide now"):
        waiting.step({idle: 0})


def test_the_parallel_form_renders_and_refuses_bad_input() -> None:
    table = parallel_env("nuts", 3, render_mode="ansi")
    table.reset(seed=1)
    assert str(table.render()).startswith("nuts: player_0 ")
    with pytest.raises(OptionError, match="render_mode"):
        parallel_env("nuts", 3, render_mode="rgb_array")
    with pytest.raises(OptionError, match="nobody ever decides anything"):
        parallel_env("two-low-in-wild", 2)


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
