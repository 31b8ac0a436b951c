"""Bots: policies that see only a seat's view and the legal actions.

A :class:`Policy` chooses one of a :class:`~guts.games.base.Decision`'s actions from the
seat's :meth:`~guts.games.base.Session.view` alone (and a random source); it is never
handed the session. :func:`make_bot` builds one by kind (:data:`BOTS`) for a game family
from the session's public rules; :func:`play_out` drives a session with a policy per seat:

>>> from random import Random
>>> from guts.games.guts import new_session
>>> session = new_session("two-card-guts", ["Ann", "Bob", "Cy"], buy_in=50, rng=Random(4))
>>> bots = [make_bot("sensible", "guts", session.rules), RandomPolicy(), RandomPolicy()]
>>> deals = play_out(session, bots, Random(5), max_deals=20)
>>> session.is_over, sum(seat.stack for seat in session.table.seats)
(True, 150)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any, Protocol

from guts.errors import GutsError, OptionError
from guts.games.base import Decision, Session

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "FAMILY_BOTS",
    "Policy",
    "RandomPolicy",
    "bot_kinds",
    "check_bot_kind",
    "make_bot",
    "play_out",
    "policy_for",
]


class Policy(Protocol):
    """A bot: one of ``decision.actions``, chosen from the seat's view alone."""

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """The action to take."""
        ...


class RandomPolicy:
    """Any legal action, uniformly at random.

    >>> RandomPolicy().choose({}, Decision.choose(0, ("in", "out")), Random(1)) in ("in", "out")
    True
    """

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """A uniformly random legal action."""
        return rng.choice(decision.actions)


class _ViewOnly:
    """Adapts a family bot that reads everything from the view (``choose(view)``)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def choose(self, view: Mapping[str, Any], decision: Decision, rng: Random) -> str:
        """The wrapped bot's action."""
        return str(self.bot.choose(view))


def _guts(kind: str) -> Callable[[Any], Policy]:
    def build(rules: Any) -> Policy:
        from guts.games.guts import GutsRules
        from guts.games.guts.bots import SensiblePolicy, ThresholdPolicy

        if not isinstance(rules, GutsRules):
            raise OptionError(f"{kind} Guts bots need the session's GutsRules, not {rules!r}")
        return ThresholdPolicy(rules) if kind == "threshold" else SensiblePolicy(rules)

    return build


def _equilibrium(rules: Any) -> Policy:
    from guts.games.guts import GutsRules
    from guts.solve.bot import EquilibriumPolicy

    if not isinstance(rules, GutsRules):
        raise OptionError(f"equilibrium Guts bots need the session's GutsRules, not {rules!r}")
    return EquilibriumPolicy(rules)


def _bourre_sensible(rules: Any) -> Policy:
    from guts.games.bourre.bots import SensibleBot

    return _ViewOnly(SensibleBot())


BOTS: dict[str, str] = {
    "random": "any legal action, uniformly at random (every game)",
    "threshold": "Guts: stays in with a hand quantile of at least (L / (W + L)) ** (1 / m)",
    "sensible": "plays each variant's rules with a Monte Carlo estimate (Guts), or by "
    "trumps and aces (Bourre)",
    "equilibrium": "Guts: plays the equilibrium that guts solve finds (solved once per "
    "number of players, then cached)",
}
"""Bot kinds for ``--bots KIND``, with what they do."""

_MAKERS: dict[str, dict[str, Callable[[Any], Policy]]] = {
    "guts": {
        "threshold": _guts("threshold"),
        "sensible": _guts("sensible"),
        "equilibrium": _equilibrium,
    },
    "bourre": {"sensible": _bourre_sensible},
}


def bot_kinds(game_family: str) -> tuple[str, ...]:
    """The bot kinds :func:`make_bot` offers for ``game_family``."""
    return ("random", *_MAKERS.get(game_family, {}))


def make_bot(kind: str, game_family: str, rules: Any = None) -> Policy:
    """A bot of ``kind`` for a seat of a ``game_family`` game played by ``rules``.

    >>> make_bot("clever", "guts")
    Traceback (most recent call last):
    ...
    guts.errors.OptionError: bots: unknown kind 'clever' for guts games; allowed: random, \
threshold, sensible, equilibrium
    """
    if kind == "random":
        return RandomPolicy()
    maker = _MAKERS.get(game_family, {}).get(kind)
    if maker is None:
        allowed = ", ".join(bot_kinds(game_family))
        raise OptionError(
            f"bots: unknown kind {kind!r} for {game_family} games; allowed: {allowed}"
        )
    return maker(rules)


BOT_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit")
"""The bots' names at a table, in seat order."""

FAMILY_BOTS: dict[str, tuple[str, ...]] = {
    "guts": ("random", "threshold", "sensible", "equilibrium"),
    "staged": ("random", "sensible"),
    "draw": ("random", "sensible"),
    "bourre": ("random", "sensible"),
}
"""The bot kinds each family offers (:func:`policy_for`)."""


def check_bot_kind(kind: str, family: str, rules: object = None) -> None:
    """Raise OptionError unless ``family`` has bots of ``kind`` (and, given the game's
    ``rules``, unless ``guts solve`` can solve them for an ``equilibrium`` bot)."""
    allowed = FAMILY_BOTS.get(family, ("random",))
    if kind not in allowed:
        raise OptionError(f"--bots must be one of {', '.join(allowed)} for {family} games")
    if kind == "equilibrium" and rules is not None:
        from guts.games.guts import GutsRules
        from guts.solve.model import out_of_reach

        why = out_of_reach(rules) if isinstance(rules, GutsRules) else "not a Guts game"
        if why:
            raise OptionError(f"equilibrium bots need rules guts solve can solve: {why}")


def policy_for(kind: str, family: str, session: Session) -> Policy:
    """A bot of ``kind`` for a seat of ``session`` (of game family ``family``): each
    family's own bots, behind the one :class:`Policy` interface."""
    check_bot_kind(kind, family)
    rules: Any = getattr(session, "rules", None)
    if family == "guts" and kind == "equilibrium":
        from guts.solve.bot import EquilibriumPolicy

        return EquilibriumPolicy(rules, len(session.table.names))  # the seats solved for
    if family == "guts":
        return make_bot(kind, family, rules)
    if family == "bourre":
        from guts.games.bourre import RandomBot, SensibleBot

        return _ViewOnly(RandomBot(Random()) if kind == "random" else SensibleBot())
    if family == "draw":
        from guts.games.draw.bots import RandomBot as DrawRandom
        from guts.games.draw.bots import SensibleBot as DrawSensible

        return _ViewOnly(DrawRandom(Random()) if kind == "random" else DrawSensible(rules))
    from guts.games.staged.bots import make_bot as staged_bot

    return staged_bot(kind, rules)


def play_out(
    session: Session,
    policies: Sequence[Policy] | Mapping[int, Policy],
    rng: Random,
    max_deals: int | None = None,
) -> int:
    """Play ``session`` with ``policies[seat]`` choosing for each seat; return the deals
    started.

    Starts each deal, asks each pending seat's policy with that seat's view and decision,
    and applies its action. Simultaneous decisions are all asked before any is applied,
    so no choice depends on another made at the same time. With ``max_deals``, after
    that many deals the session is stopped (``session.stop()``, which shares out what is
    left) if it has not ended. An action that is not legal raises IllegalAction.
    """
    started = 0
    while not session.is_over:
        if session.deal_over:
            if max_deals is not None and started >= max_deals:
                _stop(session)
                break
            session.start_deal()
            started += 1
            continue
        pending = session.pending()
        if not pending:
            raise GutsError("the session is waiting for no one: it cannot go on")
        now = [d for d in pending if d.simultaneous] if pending[0].simultaneous else [pending[0]]
        choices = [(d.seat, policies[d.seat].choose(session.view(d.seat), d, rng)) for d in now]
        for seat, action in choices:
            session.act(seat, action)
    return started


def _stop(session: Session) -> None:
    stop = getattr(session, "stop", None)
    if callable(stop):
        stop(f"the deal limit ({_count(session)}) was reached")


def _count(session: Session) -> int:
    return int(getattr(session, "deals_played", 0))
