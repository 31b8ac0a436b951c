"""A Gymnasium environment for one seat of a preset, the others played by bots (needs the
``envs`` extra).

The agent plays ``seat``; each other seat is played by a bot of :mod:`guts.bots`
(``random``, ``threshold``, ``sensible``: one kind for all, or one per seat), which sees
only its own view. Observations are the dict of the PettingZoo environment
(``observation`` and ``action_mask``; :mod:`guts.envs.encoding`), actions the same fixed
discrete space. An action the mask forbids is replaced by the first legal one, and
``info["illegal"]`` says so. The reward is the seat's change of chips since its last
action; an episode is one session (``terminated``) or ``max_deals`` deals
(``truncated``). ``reset(seed=...)`` seeds the shuffles and the bots, so the same seed
and actions play the same episode.

>>> from guts.envs.gymnasium import SeatEnv
>>> table = SeatEnv("two-card-guts", 3, bots="threshold", max_deals=3)
>>> observation, info = table.reset(seed=4)
>>> info["actions"]
['in', 'out']

Importing the module also registers it as ``guts/Seat-v0`` for :func:`gymnasium.make`:

>>> made = gymnasium.make(ENV_ID, preset="bourre", players=3, bots="sensible")
>>> made.reset(seed=1)[1]["actions"]
['play', 'fold']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from guts.bots import Policy, RandomPolicy, check_bot_kind, policy_for
from guts.envs.encoding import BOUND
from guts.envs.episode import Episode, check_render_mode
from guts.errors import GutsError, OptionError

__all__ = ["ENV_ID", "SeatEnv"]

ENV_ID = "guts/Seat-v0"
"""The id :func:`gymnasium.make` knows :class:`SeatEnv` by."""

Observation = dict[str, Any]
"""``observation`` (float32) and ``action_mask`` (int8) arrays."""


class SeatEnv(gymnasium.Env[Observation, np.int64]):
    """Seat ``seat`` of ``preset`` for ``players`` (a count or names) with the rules
    ``options``; ``bots`` is one kind for every other seat or a kind per other seat."""

    # The class's (gymnasium.make reads it before building one); Env declares it an
    # instance variable, so it cannot be a ClassVar here.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        preset: str,
        players: int | Sequence[str] = 4,
        options: Mapping[str, str] | None = None,
        *,
        seat: int = 0,
        bots: str | Sequence[str] = "random",
        buy_in: int = 100,
        max_deals: int | None = 10,
        render_mode: str | None = None,
    ) -> None:
        self.episode = Episode(preset, players, options, buy_in=buy_in, max_deals=max_deals)
        count = len(self.episode.names)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
            raise OptionError(f"seat: a seat number 0 to {count - 1}, not {seat!r}")
        self.seat = seat
        self.bot_kinds = _bot_kinds(bots, count - 1, self.episode.family)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        layout = self.episode.layout
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (self.episode.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (layout.size,), np.int8),
        })  # fmt: skip
        self.action_space = spaces.Discrete(layout.size)
        self.action_names = layout.names
        self._bots: dict[int, Policy] = {}
        self._bot_rng = Random()
        self._first_step = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new session: ``seed`` seeds the shuffles and the bots' choices."""
        super().reset(seed=seed)
        deck_seed, bot_seed = (int(n) for n in self.np_random.integers(0, 2**63, size=2))
        self._bot_rng = Random(bot_seed)
        self.episode.start(Random(deck_seed))
        self._bots = self._make_bots()
        self._play_bots()
        while self.episode.over:  # the bots played a whole session: a new one
            self.episode.start(Random(int(self.np_random.integers(0, 2**63))))
            self._bots = self._make_bots()
            self._play_bots()
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Take ``action`` for the seat, let the bots play until the seat's next
        decision, and return what the seat sees then."""
        episode = self.episode
        if episode.over:
            raise GutsError("the episode is over: call reset")
        mask = episode.mask(self.seat)
        illegal = not (0 <= int(action) < len(mask)) or not mask[int(action)]
        number = int(np.flatnonzero(mask)[0]) if illegal else int(action)
        start = episode.stacks()[self.seat]
        episode.act(self.seat, number)
        self._play_bots()
        reward = float(episode.stacks()[self.seat] - start)
        if self._first_step:
            reward += float(start - self.episode.buy_in)  # the antes before
            self._first_step = False
        terminated = episode.over and not episode.truncated
        truncated = episode.over and episode.truncated
        info = self._info()
        info["illegal"] = illegal
        return self._observation(), reward, terminated, truncated, info

    def _make_bots(self) -> dict[int, Policy]:
        self._first_step = True
        others = [s for s in range(len(self.episode.names)) if s != self.seat]
        session = self.episode.session
        family = self.episode.family
        return {
            seat: RandomPolicy() if kind == "random" else policy_for(kind, family, session)
            for seat, kind in zip(others, self.bot_kinds, strict=True)
        }

    def _play_bots(self) -> None:
        """Let the bots decide until the seat must, or the episode ends. Bots deciding
        at once all choose before any choice is applied."""
        episode = self.episode
        while not episode.over:
            pending = episode.pending
            if any(d.seat == self.seat for d in pending) and (
                pending[0].seat == self.seat or pending[0].simultaneous
            ):
                return
            session = episode.session
            choices = [
                (d.seat, self._bots[d.seat].choose(session.view(d.seat), d, self._bot_rng))
                for d in episode.deciding
            ]
            for seat, action in choices:
                episode.act_text(seat, action)

    def _observation(self) -> Observation:
        return {
            "observation": self.episode.observe(self.seat),
            "action_mask": self.episode.mask(self.seat),
        }

    def _info(self) -> dict[str, Any]:
        decision = self.episode.decision(self.seat)
        return {
            "actions": [self.action_names[n] for n in self.episode.layout.legal(decision)],
            "stacks": self.episode.stacks(),
        }

    def render(self) -> str | None:
        """The table in words (render mode ``ansi``)."""
        if self.render_mode is None:
            return None
        stacks = ", ".join(f"{n} {s}" for n, s in zip(self.episode.names, self.episode.stacks(),
                                                      strict=True))  # fmt: skip
        return f"{self.episode.game.name}: {stacks}"


def _bot_kinds(bots: str | Sequence[str], others: int, family: str) -> list[str]:
    """One bot kind per other seat, each checked against the family's bots."""
    kinds = [bots] * others if isinstance(bots, str) else list(bots)
    if len(kinds) != others:
        raise OptionError(f"bots: one kind for all or one per other seat ({others}), "
                          f"not {len(kinds)}")  # fmt: skip
    for kind in kinds:
        check_bot_kind(kind, family)
    return kinds


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="guts.envs.gymnasium:SeatEnv")
