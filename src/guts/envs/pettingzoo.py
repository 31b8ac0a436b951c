"""PettingZoo environments for every preset (needs the ``envs`` extra): :func:`env`, the
AEC form (one agent acts a step), and :func:`parallel_env`, the parallel form (every
agent deciding now acts in the same step: all the seats declaring at once).

Each seat is an agent (``player_0`` ...). An observation is a dict: ``observation``, the
seat's view as a fixed-size float32 vector (:class:`~guts.envs.encoding.Encoder`), and
``action_mask``, 1 for each legal action of the preset's fixed discrete action space
(:class:`~guts.envs.encoding.Layout`; ``env.unwrapped.action_names`` names them). The
agent selected is the first seat the engine awaits; where the rules declare at once,
the seats declare one after another, and no observation shows a declaration before all
are made (the engine's views never do). A reward is the seat's change of chips at that
step; the episode is one session (ended by its rules: *terminated*) or stops at
``max_deals`` deals (*truncated*), and the pot is shared out when it ends, so the
rewards of an episode sum to zero.

>>> from guts.envs.pettingzoo import env
>>> table = env("two-card-guts", 3, max_deals=2)
>>> table.reset(seed=1)
>>> observation, reward, terminated, truncated, info = table.last()
>>> observation["action_mask"].tolist()[:2], table.agent_selection
([1, 1], 'player_1')

The parallel form adds one action, ``wait``, the only one legal for an agent that has
nothing to decide in that step (and illegal for one that has):

>>> from guts.envs.pettingzoo import parallel_env
>>> table = parallel_env("hi-lo-guts", 3, max_deals=2)
>>> observations, infos = table.reset(seed=1)
>>> [table.action_names[a] for a in np.flatnonzero(observations["player_2"]["action_mask"])]
['out', 'high', 'low', 'both']
>>> actions = {"player_0": 2, "player_1": 1, "player_2": 3}  # high, out, low: at once
>>> observations, rewards, terminations, truncations, infos = table.step(actions)
>>> rewards, all(terminations.values()), table.agents  # each alone its way: the pot split
({'player_0': 1, 'player_1': -1, 'player_2': 0}, True, [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from guts.envs.encoding import BOUND
from guts.envs.episode import Episode, check_render_mode
from guts.errors import IllegalAction

__all__ = ["WAIT", "GutsAECEnv", "GutsParallelEnv", "env", "parallel_env"]

WAIT = "wait"
"""The parallel form's last action: an agent with nothing to decide in that step."""

_RENDER_MODES = ["ansi", "human"]


def env(
    preset: str,
    players: int | Sequence[str] = 4,
    options: Mapping[str, str] | None = None,
    **settings: Any,
) -> GutsAECEnv:
    """The AEC environment of ``preset`` for ``players`` (a count or names) with the
    rules ``options``; ``settings``: ``buy_in``, ``max_deals``, ``render_mode``."""
    return GutsAECEnv(preset, players, options, **settings)


class GutsAECEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """The agents of one table of ``preset`` (see the module's description)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "guts_v0",
        "render_modes": _RENDER_MODES,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str,
        players: int | Sequence[str] = 4,
        options: Mapping[str, str] | None = None,
        *,
        buy_in: int = 100,
        max_deals: int | None = 10,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.episode = Episode(preset, players, options, buy_in=buy_in, max_deals=max_deals)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = list(self.episode.names)
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        layout, size = self.episode.layout, self.episode.encoder.size
        observation = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (layout.size,), np.int8),
        })  # fmt: skip
        action = spaces.Discrete(layout.size)
        self._observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self._action_spaces = dict.fromkeys(self.possible_agents, action)
        self.action_names = layout.names

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space (the same for every agent)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space (the same for every agent)."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new session, shuffled by a generator seeded with ``seed``."""
        self.episode.start(Random(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s encoded view and action mask."""
        seat = self._seat[agent]
        return {"observation": self.episode.observe(seat), "action_mask": self.episode.mask(seat)}

    def step(self, action: int | None) -> None:
        """The selected agent takes ``action`` (None once it is done); IllegalAction if
        the mask does not allow it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for an agent that is done")
        deltas = self.episode.act(self._seat[agent], int(action))
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: deltas[self._seat[a]] for a in self.agents}
        if self.episode.over:
            truncated = self.episode.truncated
            self.terminations = dict.fromkeys(self.agents, not truncated)
            self.truncations = dict.fromkeys(self.agents, truncated)
        self._select()
        self._accumulate_rewards()

    def _select(self) -> None:
        seat = self.episode.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.agents:  # the episode is over: each agent in turn steps out
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        """The table in words: stacks, the pot and who is to act (``ansi``: returned;
        ``human``: printed)."""
        return _render(self.episode, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def _render(episode: Episode, mode: str | None) -> str | None:
    """The table in words for render ``mode`` (printed for ``human``)."""
    if mode is None:
        return None
    session = episode.session
    stacks = ", ".join(f"{n} {s}" for n, s in zip(session.table.names, episode.stacks(),
                                                  strict=True))  # fmt: skip
    deciding = episode.deciding
    text = f"{episode.game.name}: {stacks}; pot {session.table.pot}; " + (
        ", ".join(episode.names[d.seat] for d in deciding) + f": {deciding[0].prompt}"
        if deciding
        else f"over ({session.over_reason})"
    )
    if mode == "human":
        print(text)
        return None
    return text


def parallel_env(
    preset: str,
    players: int | Sequence[str] = 4,
    options: Mapping[str, str] | None = None,
    **settings: Any,
) -> GutsParallelEnv:
    """The parallel environment of ``preset`` for ``players`` (a count or names) with the
    rules ``options``; ``settings``: ``buy_in``, ``max_deals``, ``render_mode``."""
    return GutsParallelEnv(preset, players, options, **settings)


class GutsParallelEnv(ParallelEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """The agents of one table of ``preset``, all deciding now acting in one step.

    Each step every live agent may send an action: the agents the engine awaits (every
    seat declaring at once, or the one seat whose turn it is) must, choosing by the mask;
    the others send ``wait`` (the last action, their only legal one) or nothing. Every
    choice is checked before any is applied, so an illegal one changes nothing; no
    observation shows a simultaneous choice before all are made. Observations, rewards
    (the change of each seat's chips in the step), the end of an episode and the sharing
    out of the pot are the AEC environment's (see the module's description).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "guts_parallel_v0",
        "render_modes": _RENDER_MODES,
    }

    def __init__(
        self,
        preset: str,
        players: int | Sequence[str] = 4,
        options: Mapping[str, str] | None = None,
        *,
        buy_in: int = 100,
        max_deals: int | None = 10,
        render_mode: str | None = None,
    ) -> None:
        self.episode = Episode(preset, players, options, buy_in=buy_in, max_deals=max_deals)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = list(self.episode.names)
        self.agents: list[str] = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        layout, size = self.episode.layout, self.episode.encoder.size
        self.wait = layout.size
        self.action_names = (*layout.names, WAIT)
        observation = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.wait + 1,), np.int8),
        })  # fmt: skip
        action = spaces.Discrete(self.wait + 1)
        self._observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self._action_spaces = dict.fromkeys(self.possible_agents, action)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space (the same for every agent)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space (the same for every agent): the AEC form's and ``wait``."""
        return self._action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """A new session, shuffled by a generator seeded with ``seed``: each agent's
        observation and info."""
        self.episode.start(Random(seed))
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s encoded view and action mask (only ``wait`` if it does not decide)."""
        seat = self._seat[agent]
        mask = np.zeros(self.wait + 1, dtype=np.int8)
        decision = self.episode.decision(seat)
        if any(d.seat == seat for d in self.episode.deciding):
            mask[: self.wait] = self.episode.layout.mask(decision)
        elif not self.episode.over:
            mask[self.wait] = 1
        return {"observation": self.episode.observe(seat), "action_mask": mask}

    def step(
        self, actions: Mapping[str, int | None]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, int],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Every agent deciding now takes its action in ``actions``, at once; IllegalAction
        (nothing applied) for a missing or illegal action, or one from an agent that
        waits (other than ``wait``), or an agent that is not live."""
        episode = self.episode
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise IllegalAction(f"no live agents {unknown}: the live agents are {self.agents}")
        chosen: list[tuple[int, str]] = []
        deciding = {d.seat: d for d in episode.deciding}
        for agent in self.agents:
            seat, action = self._seat[agent], actions.get(agent)
            decision = deciding.get(seat)
            if decision is not None:
                if action is None:
                    raise IllegalAction(f"{agent} must act now: {decision.prompt}")
                chosen.append((seat, episode.layout.action(decision, int(action))))
            elif action is not None and int(action) != self.wait:
                raise IllegalAction(
                    f"{agent} has nothing to decide now: its only action is {self.wait} ({WAIT})"
                )
        live = list(self.agents)
        totals = dict.fromkeys(live, 0)
        for seat, text in chosen:
            for agent, delta in zip(self.possible_agents, episode.act_text(seat, text),
                                    strict=True):  # fmt: skip
                if agent in totals:
                    totals[agent] += delta
        observations, infos = self._observations(), self._infos()
        over = episode.over
        terminations = dict.fromkeys(live, over and not episode.truncated)
        truncations = dict.fromkeys(live, over and episode.truncated)
        if over:
            self.agents = []
        return observations, totals, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.observe(agent) for agent in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        deciding = {d.seat for d in self.episode.deciding}
        return {agent: {"deciding": self._seat[agent] in deciding} for agent in self.agents}

    def render(self) -> str | None:
        """The table in words (``ansi``: returned; ``human``: printed)."""
        return _render(self.episode, self.render_mode)

    def state(self) -> np.ndarray:
        """Not offered: a global state would show every seat's hidden cards."""
        raise NotImplementedError("a global state would show every seat's hidden cards")

    def close(self) -> None:
        """Nothing to release."""
