"""One deal of the solver's model with the dealer's option, as an OpenSpiel Python game.

As ``spiel_deal`` (independent, equally likely hands; declarations in turn from the
dealer's left), and when every other position went out and the dealer is in, each other
position declares again in turn: in challenges the dealer. An information state is the
position, its hand and the declarations before it in its round (``before`` in the first,
``second`` in the second, whose first round was everyone out).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from guts.solve.model import Model
from tests.solve.spiel_deal import IN, OUT, _returns, shape


def load(model: Model, levels: int, values: np.ndarray[Any, Any]) -> pyspiel.Game:
    """The OpenSpiel game of one deal of ``model``, dealer's option, ``levels`` hands."""
    n = model.players
    game_type, info = shape(
        f"guts_solve_option_{n}_{levels}_{int(model.auto_in)}",
        "one deal of the guts solve model with the dealer's option", n, levels, 3 * n,
    )  # fmt: skip
    carry = np.roll(np.asarray(values, dtype=np.float64), 1)
    lone_dealer = [OUT] * (n - 1) + [IN]

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
            self.second: list[int] = []

        def _challenged(self) -> bool:
            return self.said == lone_dealer

        def is_terminal(self) -> bool:
            if len(self.said) < n:
                return False
            return not self._challenged() or len(self.second) == n - 1

        def current_player(self) -> int:
            if len(self.hands) < n:
                return int(pyspiel.PlayerId.CHANCE)
            if self.is_terminal():
                return int(pyspiel.PlayerId.TERMINAL)
            return len(self.said) if len(self.said) < n else len(self.second)

        def _legal_actions(self, player: int) -> list[int]:
            return [OUT, IN]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(h, 1.0 / levels) for h in range(levels)]

        def _apply_action(self, action: int) -> None:
            if len(self.hands) < n:
                self.hands.append(int(action))
            elif len(self.said) < n:
                self.said.append(int(action))
                if model.auto_in and len(self.said) == n - 1 and not any(self.said):
                    self.said.append(IN)
            else:
                self.second.append(int(action))

        def _action_to_string(self, player: int, action: int) -> str:
            return f"hand {action}" if player < 0 else ("out", "in")[action]

        def returns(self) -> list[float]:
            if not self.is_terminal():
                return [0.0] * n
            said = [*self.second, IN] if self._challenged() else self.said
            return _returns(model, self.hands, said, carry, levels)

        def __str__(self) -> str:
            return f"{self.hands} {self.said} {self.second}"

    class Observer:
        def __init__(self) -> None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, Any] = {}

        def set_from(self, state: State, player: int) -> None:
            pass

        def string_from(self, state: State, player: int) -> str:
            hand = state.hands[player] if len(state.hands) > player else "?"
            if len(state.said) == n:
                return f"p{player} hand {hand} second {''.join(map(str, state.second))}"
            return f"p{player} hand {hand} before {''.join(map(str, state.said[:player]))}"

    return Game()
