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

from collections.abc import Mapping, Sequence
from random import Random

from guts.catalog import FAMILIES, family_of
from guts.errors import GutsError, OptionError
from guts.games.base import Session
from guts.games.policy import Policy, RandomPolicy

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


def _described() -> dict[str, str]:
    """Each kind any family offers, with what it does (per family where they differ)."""
    found: dict[str, dict[str, str]] = {}
    for family in FAMILIES.values():
        for kind, bot in family.bots.items():
            found.setdefault(kind, {})[family.title or family.name] = bot.about
    return {
        kind: next(iter(about.values())) if len(set(about.values())) == 1
        else "; ".join(f"{title}: {text}" for title, text in about.items())
        for kind, about in found.items()
    }  # fmt: skip


BOTS: dict[str, str] = _described()
"""Bot kinds for ``--bots KIND``, with what they do (every family's)."""

FAMILY_BOTS: dict[str, tuple[str, ...]] = {
    name: tuple(family.bots) for name, family in FAMILIES.items()
}
"""The bot kinds each family offers (:func:`policy_for`)."""


def bot_kinds(game_family: str) -> tuple[str, ...]:
    """The bot kinds :func:`make_bot` offers for ``game_family`` (random alone for a
    family not registered)."""
    family = FAMILIES.get(game_family)
    return tuple(family.bots) if family is not None else ("random",)


def make_bot(kind: str, game_family: str, rules: object = None) -> Policy:
    """A bot of ``kind`` for a seat of a ``game_family`` game played by ``rules``.

    >>> make_bot("clever", "guts")
    Traceback (most recent call last):
    ...
    guts.errors.OptionError: bots: unknown kind 'clever' for guts games; allowed: random, \
threshold, sensible, equilibrium
    """
    if kind == "random":
        return RandomPolicy()
    family = FAMILIES.get(game_family)
    if family is None or kind not in family.bots:
        allowed = ", ".join(bot_kinds(game_family))
        raise OptionError(
            f"bots: unknown kind {kind!r} for {game_family} games; allowed: {allowed}"
        )
    return family.bot(kind, rules)


BOT_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit")
"""The bots' names at a table, in seat order."""


def check_bot_kind(kind: str, family: str, rules: object = None) -> None:
    """Raise OptionError unless ``family`` has bots of ``kind`` (and, given the game's
    ``rules``, unless that kind can play them: an ``equilibrium`` bot needs rules that
    ``guts solve`` can solve)."""
    allowed = bot_kinds(family)
    if kind not in allowed:
        raise OptionError(f"--bots must be one of {', '.join(allowed)} for {family} games")
    found = FAMILIES.get(family)
    bot = found.bots[kind] if found is not None and rules is not None else None
    why = bot.check(rules) if bot is not None else ""
    if bot is not None and why:
        raise OptionError(f"{kind} bots need {bot.needs}: {why}")


def policy_for(kind: str, family: str, session: Session) -> Policy:
    """A bot of ``kind`` for a seat of ``session`` (of game family ``family``): each
    family's own bots, behind the one :class:`Policy` interface."""
    check_bot_kind(kind, family)
    rules = getattr(session, "rules", None)
    return family_of(family).bot(kind, rules, len(session.table.names))


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
