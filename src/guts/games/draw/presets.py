"""Named draw poker games: each preset is just a :class:`DrawRules` instance.

>>> rules, text = PRESETS["jacks-or-better"]
>>> rules.openers.value
'jacks'
>>> session = new_session("five-card-draw", ["Ann", "Bob"], buy_in=20, options={"ante": "2"})
>>> session.rules.ante
2
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from guts.betting import Limit
from guts.games.base import Event
from guts.games.draw.bots import BOTS
from guts.games.draw.events import DealEnded, Showed
from guts.games.draw.phh import deal_to_phh
from guts.games.draw.rules import BetsFrom, DrawFrom, DrawRules, Openers
from guts.games.draw.session import DrawSession
from guts.games.draw.words import tell
from guts.games.family import ActionLayout, Family, PageView
from guts.games.outcomes import NOBODY_IN, SHOWDOWN, UNCONTESTED
from guts.rankings.base import Category

__all__ = ["FAMILY", "PRESETS", "TITLES", "layout", "new_session", "preset", "settlements"]

_BASE = DrawRules()
_JACKS = replace(_BASE, openers=Openers.JACKS)

PRESETS: dict[str, tuple[DrawRules, str]] = {
    "five-card-draw": (_BASE, "California Draw: ante, five cards, bet, draw 0-3, bet, showdown"),
    "jacks-or-better": (_JACKS, "Jack Pots: a pair of jacks or better to open; openers proved"),
    "progressive-jackpots": (
        replace(_JACKS, progressive=True),
        "Jacks or Better; each throw-in raises the openers J, Q, K, A, then back down",
    ),
    "trips-to-win": (
        replace(_JACKS, trips_to_win=True),
        "Jacks or Better, and three of a kind or better to win the pot",
    ),
    "draw-with-bug": (
        replace(_BASE, jokers=1),
        "Five Card Draw with the joker as a bug (aces, straights, flushes)",
    ),
    "deuces-wild": (
        replace(_JACKS, wild="2", declare=True),
        "Jacks or Better with deuces wild; players declare their hands",
    ),
    "wild-widow": (
        replace(_BASE, wild_widow=True),
        "a card turned up after the fourth round of dealing: the rest of its rank are wild",
    ),
    "diablo": (
        replace(_BASE, wild="2", max_draw=2, diablo=True),
        "deuces wild, draw at most two; the opener must win or make a new pot",
    ),
    "jacks-back": (
        replace(_JACKS, jacks_back=True, jokers=1),
        "Jacks or Better; if nobody opens the hands play ace-to-five lowball (joker bug/fitter)",
    ),
    "all-for-one": (
        replace(_BASE, all_for_one=True),
        "All for One and One for All: draw none, one or all five, bet, again and again",
    ),
    "32-card-poker": (
        replace(_BASE, stripped=True),
        "stripped deck seven to ace; flush beats full house; suits rank hearts high",
    ),
    "bosnian-32-card-poker": (
        replace(_BASE, stripped=True, max_draw=4, bosnian=True),
        "32-card poker; a four-card draw takes three, then one of a face-up/face-down pair",
    ),
    "seven-card-draw": (
        replace(
            _BASE,
            ante=0,
            hand_size=7,
            max_draw=4,
            blind=2,
            small_blind=1,
            bet=2,
            limit=Limit.NO_LIMIT,
            raise_cap=None,
            draw_from=DrawFrom.AFTER_BIG_BLIND,
            later_bets_from=BetsFrom.DEALER_LEFT,
            double_last_bet=True,
            reshuffle_own=True,
        ),
        "blinds, seven cards, discard 0-4, second-round minimum twice the last bet; best five",
    ),
    "two-draws": (
        replace(_BASE, draws=2),
        "draw up to three, bet, then draw up to two more, and a third betting round",
    ),
    "draw-with-blinds": (
        replace(_BASE, ante=0, blind=2, small_blind=1, bet=2),
        "Five Card Draw with a small and a big blind instead of the ante",
    ),
}
"""Name -> (rules, one-line description)."""


TITLES: dict[str, tuple[str, str | None]] = {
    "five-card-draw": ("Five Card Draw", None),
    "jacks-or-better": ("Jacks or Better", None),
    "progressive-jackpots": ("Progressive openers", "jacks-or-better"),
    "trips-to-win": ("Trips to win", "jacks-or-better"),
    "draw-with-bug": ("The joker as a bug", "five-card-draw"),
    "deuces-wild": ("Deuces wild", "jacks-or-better"),
    "wild-widow": ("Wild Widow", None),
    "diablo": ("Diablo", None),
    "jacks-back": ("Jacks back (lowball if nobody opens)", "jacks-or-better"),
    "all-for-one": ("All for One", None),
    "32-card-poker": ("32-Card Poker", None),
    "bosnian-32-card-poker": ("Bosnian draw", "32-card-poker"),
    "seven-card-draw": ("Seven Card Draw", None),
    "two-draws": ("Two draws", "five-card-draw"),
    "draw-with-blinds": ("Blinds instead of an ante", "five-card-draw"),
}
"""Each preset's name in the lobby, and the preset it is a house-rule variation of."""


def layout(rules: DrawRules) -> ActionLayout:
    """Draw poker's actions for the research environments: taking a card up or down
    (All for One), declaring a hand (Deuces Wild), betting, and a subset of the hand to
    throw."""
    words = ("take up", "take down", *(f"declare {c.value}" for c in Category))
    hand = int(rules.hand_size)
    return ActionLayout(words, hand, betting=True, discards=hand)


def settlements(events: Iterable[Event]) -> list[str]:
    """Thrown in (nobody opened), won with fewer than two live hands shown
    (uncontested), or a showdown."""
    found: list[str] = []
    shown: set[int] = set()
    for event in events:
        if isinstance(event, Showed) and event.live:
            shown.add(event.seat)
        elif isinstance(event, DealEnded):
            if event.result == "thrown-in":
                found.append(NOBODY_IN)
            else:
                found.append(SHOWDOWN if len(shown) >= 2 else UNCONTESTED)
            shown = set()
    return found


FAMILY: Family[DrawRules, DrawSession] = Family(
    "draw",
    DrawRules,
    PRESETS,
    DrawSession,
    title="Draw poker",
    description="a draw poker game: betting rounds, not declarations",
    titles=TITLES,
    bots=BOTS,
    tell=tell,
    layout=layout,
    settlements=settlements,
    page=PageView(face_down="hand-sizes", cards=5),
    deal_to_phh=deal_to_phh,
)
"""This family (see :mod:`guts.games.family`), listed in :mod:`guts.catalog`."""

preset = FAMILY.rules
"""The rules of a preset with options (name -> string) applied (OptionError names an
unknown preset or a bad option)."""

new_session = FAMILY.new_session
"""A session of a preset (with options) for players."""
