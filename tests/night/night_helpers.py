"""Playing nights in tests: seeded random bots for the games, and choices from a script."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from random import Random

from guts.bots import RandomPolicy
from guts.games.base import Decision
from guts.night import Night, NightRules

NAMES = ("Ann", "Bob", "Cat", "Dan")

Check = Callable[[Night], None]


def new_night(games: str, *, players: int = 4, stack: int = 60, seed: int = 1,
              **options: str) -> Night:
    """A night of ``games`` for ``players`` seats of ``stack`` chips each."""
    rules = NightRules.from_options(None, {"games": games, **options})
    return Night(rules, [(name, stack) for name in NAMES[:players]], rng=Random(seed))


def play(night: Night, choices: Sequence[str] | Iterator[str] = (), *, seed: int = 2,
         games: int | None = None, check: Check | None = None, steps: int = 20_000) -> Night:
    """Play ``night`` with random legal actions until it ends or ``games`` games are over
    (then stop it between deals): each choice is the next of ``choices`` (the first
    game allowed once they run out); ``check`` runs after every step."""
    rng, bot, script = Random(seed), RandomPolicy(), iter(choices)
    for _ in range(steps):
        if night.is_over:
            return night
        if games is not None and len(night.results) >= games and (
            night.session is None or night.deal_over
        ):
            night.stop()
        elif night.deal_over:
            night.start_deal()
        else:
            decision = night.pending()[0]
            night.act(decision.seat, _answer(night, decision, script, bot, rng))
        if check is not None:
            check(night)
    raise AssertionError(f"the night did not end in {steps} steps")


def _answer(night: Night, decision: Decision, script: Iterator[str], bot: RandomPolicy,
            rng: Random) -> str:
    if night.session is None:
        return next(script, decision.actions[0])
    return bot.choose(night.view(decision.seat), decision, rng)


def chips(night: Night) -> int:
    """Every chip at the night: the stacks and the middle of the game in progress, less
    the markers taken (which are chips owed, not chips brought)."""
    ledger = night.ledger
    return sum(ledger.stacks) + ledger.in_play - sum(ledger.markers)
