"""Every hand ranking of the rule texts, by name.

======================  =====================================================
``high``                high poker hands, best five of n, wild cards, bug
``low``                 ace-to-five lowball, best five of n, joker as fitter
``stripped``            32-card poker: flush over full house, suit tie-break
``two-card``            two-card Guts (pairs, high cards, optional straights)
``three-card``          three-card Guts, configurable order, wild ranks
``single``              one card (Toh): rank, then suit
======================  =====================================================

>>> from guts.cards import parse_cards
>>> make_ranking("high").describe(parse_cards("Kh Kd Ks 5c 5d"))
'Full house, kings over fives'
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from guts.errors import OptionError
from guts.rankings.base import Category, Evaluation, Ranking, pack
from guts.rankings.wilds import JokerMode, Wilds

__all__ = [
    "RANKINGS",
    "Category",
    "Evaluation",
    "JokerMode",
    "Ranking",
    "Wilds",
    "make_ranking",
    "pack",
]

RANKINGS: dict[str, tuple[str, str]] = {
    "high": ("guts.rankings.high", "HighRanking"),
    "low": ("guts.rankings.low", "LowRanking"),
    "stripped": ("guts.rankings.stripped", "StrippedRanking"),
    "two-card": ("guts.rankings.small", "TwoCardRanking"),
    "three-card": ("guts.rankings.small", "ThreeCardRanking"),
    "single": ("guts.rankings.single", "SingleCardRanking"),
}
"""Ranking name -> (module, class); classes load on first use."""

DEFAULT_CARDS = {"high": 5, "low": 5, "stripped": 5, "two-card": 2, "three-card": 3, "single": 1}
"""The usual hand size of each ranking (what ``guts census`` enumerates by default)."""


def ranking_class(name: str) -> type[Ranking]:
    """The class of the ranking called ``name``."""
    try:
        module, attribute = RANKINGS[name]
    except KeyError:
        allowed = ", ".join(RANKINGS)
        raise OptionError(f"unknown ranking {name!r}: expected one of {allowed}") from None
    cls: type[Ranking] = getattr(import_module(module), attribute)
    return cls


def make_ranking(
    name: str,
    options: Mapping[str, str] | None = None,
    *,
    wilds: Wilds | None = None,
    jokers: int = 0,
) -> Ranking:
    """Build a ranking by name from CLI-style options (``{"ace-low": "no"}``)."""
    cls = ranking_class(name)
    return cls.from_options(
        options or {}, wilds=wilds if wilds is not None else Wilds(), jokers=jokers
    )
