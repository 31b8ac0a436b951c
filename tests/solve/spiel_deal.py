"""One deal of the solver's model as an OpenSpiel Python game, for the cross-check.

Chance gives each player one of ``levels`` equally likely hands (independently, as the
solver's hand abstraction for three or more players does); then each position declares
in or out from the dealer's left, seeing the earlier declarations when in turn and none
when simultaneous; the dealer is in automatically when every other is out (in turn, with
the rule). Returns are the model's payoffs plus the next pot times the fixed continuation
value of the position each player moves to.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from guts.solve.model import OUTCOMES, Model

OUT, IN = 0, 1


def load(model: Model, levels: int, values: np.ndarray[Any, Any]) -> pyspiel.Game:
    """The OpenSpiel game of one deal of ``model`` with ``levels`` hands."""
    n = model.players
    game_type, info = shape(
        f"guts_solve_deal_{n}_{levels}_{int(model.in_turn)}", "one deal of the guts solve model",
        n, levels, 2 * n,
    )  # fmt: skip
    carry = np.roll(np.asarray(values, dtype=np.float64), 1)  # p becomes p - 1

    class Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> State:
            return State(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            return Observer()

    class State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Game) -> None:
            super().__init__(game)
            self.hands: list[int] = []
            self.said: list[int] = []

        def current_player(self) -> int:
            if len(self.said) == n:
                return int(pyspiel.PlayerId.TERMINAL)
            if len(self.hands) < n:
                return int(pyspiel.PlayerId.CHANCE)
            return len(self.said)

        def _legal_actions(self, player: int) -> list[int]:
            return [OUT, IN]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(h, 1.0 / levels) for h in range(levels)]

        def _apply_action(self, action: int) -> None:
            if len(self.hands) < n:
                self.hands.append(int(action))
                return
            self.said.append(int(action))
            if model.in_turn and model.auto_in and len(self.said) == n - 1 and not any(self.said):
                self.said.append(IN)  # the dealer, in automatically

        def _action_to_string(self, player: int, action: int) -> str:
            return f"hand {action}" if player < 0 else ("out", "in")[action]

        def is_terminal(self) -> bool:
            return len(self.said) == n

        def returns(self) -> list[float]:
            if not self.is_terminal():
                return [0.0] * n
            return _returns(model, self.hands, self.said, carry, levels)

        def __str__(self) -> str:
            return f"{self.hands} {self.said}"

    class Observer:
        def __init__(self) -> None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, Any] = {}

        def set_from(self, state: State, player: int) -> None:
            pass

        def string_from(self, state: State, player: int) -> str:
            hand = state.hands[player] if len(state.hands) > player else "?"
            before = state.said[:player] if model.in_turn else []
            return f"p{player} hand {hand} before {''.join(map(str, before))}"

    return Game()


def shape(
    name: str, long_name: str, n: int, levels: int, length: int
) -> tuple[pyspiel.GameType, pyspiel.GameInfo]:
    """The type and info of a one-deal game of ``n`` players on ``levels`` hands: chance
    deals, then in/out decisions, ``length`` moves at most, returns a pot unit shared."""
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=2,
        max_chance_outcomes=levels,
        num_players=n,
        min_utility=-float(n + 2),
        max_utility=float(n + 2),
        utility_sum=1.0,
        max_game_length=length,
    )
    return game_type, info


def _returns(
    model: Model, hands: list[int], said: list[int], carry: np.ndarray[Any, Any], levels: int
) -> list[float]:
    n = model.players
    ins = [p for p in range(n) if said[p] == IN]
    if not ins:
        pay = model.payoff(0, 0, "players")
        return [pay.out + pay.next * carry[p] for p in range(n)]
    best = max(hands[p] for p in ins)
    top = sum(hands[p] == best for p in ins)
    chances = _ghost(model, len(ins), best, levels)
    total = [0.0] * n
    for outcome, chance in zip(OUTCOMES, chances, strict=True):
        if not chance:
            continue
        pay = model.payoff(len(ins), top, outcome)
        for p in range(n):
            gain = pay.out if p not in ins else pay.top if hands[p] == best else pay.loser
            total[p] += chance * (gain + pay.next * carry[p])
    return total


def _ghost(model: Model, count: int, best: int, levels: int) -> tuple[float, float, float]:
    """(players, ghost, push) chances: the ghost's hand is one more uniform draw."""
    if not model.ghost_plays(count):
        return (1.0, 0.0, 0.0)
    below, tie = best / levels, 1.0 / levels
    above = 1.0 - below - tie
    ties = model.ghost_ties.value
    if ties == "players-win":
        return (below + tie, above, 0.0)
    if ties == "ghost-wins":
        return (below, above + tie, 0.0)
    return (below, above, tie)
