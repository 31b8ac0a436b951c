"""A PettingZoo AEC environment for every preset (needs the ``envs`` extra).

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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from guts.envs.encoding import BOUND
from guts.envs.episode import Episode

__all__ = ["GutsAECEnv", "env"]


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
        "render_modes": ["ansi"],
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
        self.render_mode = render_mode
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
        """The table in words: stacks, the pot and who is to act (render mode ``ansi``)."""
        if self.render_mode is None:
            return None
        session = self.episode.session
        stacks = ", ".join(f"{n} {s}" for n, s in zip(session.table.names, self.episode.stacks(),
                                                      strict=True))  # fmt: skip
        waiting = [d.prompt for d in self.episode.pending]
        return f"{session.game}: {stacks}; pot {session.table.pot}; " + (
            f"{self.agent_selection}: {waiting[0]}" if waiting else f"over ({session.over_reason})"
        )

    def close(self) -> None:
        """Nothing to release."""
