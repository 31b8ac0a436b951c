"""Named Guts games: each preset is just a :class:`GutsRules` instance.

>>> rules, text = PRESETS["four-two-two"]
>>> rules.cards, rules.draw_to_in, rules.wild, rules.declare.value
(4, 2, '2', 'simultaneous')
"""

from __future__ import annotations

from dataclasses import replace

from guts.games.declaration.outcomes import declared_settlements
from guts.games.family import ActionLayout, Family, PageView
from guts.games.guts.bots import BOTS
from guts.games.guts.chance import GutsChance
from guts.games.guts.rules import (
    Declare,
    EveryoneOut,
    Ghost,
    GutsRules,
    Payment,
)
from guts.games.guts.session import GutsSession
from guts.games.guts.words import tell

__all__ = ["FAMILY", "PRESETS", "TITLES", "layout", "new_session", "preset"]

_BASE = GutsRules()
_FOUR_TWO = replace(
    _BASE,
    cards=4,
    draw_to_in=2,
    draw_face_up=True,
    wild="2",
    declare=Declare.SIMULTANEOUS,
    max_loss=20,
)

PRESETS: dict[str, tuple[GutsRules, str]] = {
    "two-card-guts": (_BASE, "pagat's two-card Guts: declare in turn, losers match the pot"),
    "three-card-guts": (
        replace(_BASE, cards=3),
        "three cards; trips > straight flush > straight > flush > pair > high card",
    ),
    "simultaneous-guts": (
        replace(_BASE, declare=Declare.SIMULTANEOUS),
        "two-card Guts declared all at once; if everyone is out the pot stays",
    ),
    "ghost-guts": (
        replace(_BASE, ghost=Ghost.ALWAYS, everyone_out=EveryoneOut.CHICKEN_FEE),
        "a ghost hand always plays: beat it too; if everyone is out, all ante again",
    ),
    "single-loser-guts": (
        replace(_BASE, payment=Payment.SINGLE_LOSER, ante_every_deal=True),
        "only the worst hand in matches; ante every deal, except who matched",
    ),
    "two-plus-one": (
        replace(_BASE, cards=2, draw_to_in=1),
        "two cards, declare, a third card to those in; three-card ranking",
    ),
    "two-plus-one-extra-ante": (
        replace(_BASE, cards=2, draw_to_in=1, second_declare=True),
        "Two Plus One where those in pay an extra ante and declare again with three cards",
    ),
    "four-two-two": (
        _FOUR_TWO,
        "4 down, twos wild, simultaneous; 2 more face up to those in; best 5 of 6; max loss 20",
    ),
    "four-two-three": (
        replace(_FOUR_TWO, draw_to_in=0, draw_face_up=False, community=3),
        "4 down, twos wild, simultaneous; 3 community cards; best 5 of 7; max loss 20",
    ),
    "hi-lo-guts": (
        replace(_BASE, hi_lo=True, declare=Declare.SIMULTANEOUS),
        "declare high, low, both or out at once; each half to the best that way",
    ),
    "no-peek-guts": (
        replace(_BASE, no_peek=True, declare=Declare.SIMULTANEOUS),
        "declare in or out before looking at your two cards",
    ),
    "winner-takes-all-guts": (
        replace(
            _BASE,
            winner_takes_all=True,
            ghost=Ghost.LONE,
            everyone_out=EveryoneOut.CHICKEN_FEE,
            declare=Declare.SIMULTANEOUS,
        ),
        "the winner takes the pot and the losers' matches; ghost for a lone player; chicken fee",
    ),
    "batey-guts": (
        replace(_BASE, batey=True),
        "The Batey: one community card face up after the deal, used by every hand",
    ),
    "partial-hands-guts": (
        replace(_BASE, cards=3, partial_hands=True),
        "three-card Guts where the last card comes face up, only to players who are in",
    ),
    "one-low-in-wild": (
        replace(_BASE, cards=3, low_in_wild=1),
        "three cards, the last face up: the lowest face-up rank is wild and its holders in",
    ),
    "two-low-in-wild": (
        replace(_BASE, cards=3, low_in_wild=2),
        "as one-low-in-wild with the two lowest face-up ranks",
    ),
    "capped-guts": (
        replace(_BASE, declare=Declare.SIMULTANEOUS, pot_cap=50),
        "simultaneous two-card Guts with the pot capped at 50 antes",
    ),
}
"""Preset name -> (rules, one-line description)."""


TITLES: dict[str, tuple[str, str | None]] = {
    "two-card-guts": ("Two-Card Guts", None),
    "three-card-guts": ("Three-Card Guts", None),
    "simultaneous-guts": ("Declared at once", "two-card-guts"),
    "ghost-guts": ("With a ghost hand", "two-card-guts"),
    "single-loser-guts": ("Single loser", "two-card-guts"),
    "two-plus-one": ("Two Plus One", None),
    "two-plus-one-extra-ante": ("An extra ante", "two-plus-one"),
    "four-two-two": ("Four-Two-Two", None),
    "four-two-three": ("Four-Two-Three", None),
    "hi-lo-guts": ("High-Low Guts", None),
    "no-peek-guts": ("No peeking", "two-card-guts"),
    "winner-takes-all-guts": ("Winner takes all", "two-card-guts"),
    "batey-guts": ("The Batey", None),
    "partial-hands-guts": ("Partial Hands", None),
    "one-low-in-wild": ("One Low in Wild", None),
    "two-low-in-wild": ("Two low cards wild", "one-low-in-wild"),
    "capped-guts": ("A capped pot", "two-card-guts"),
}
"""Each preset's name in the lobby, and the preset it is a house-rule variation of."""


def layout(rules: GutsRules) -> ActionLayout:
    """Guts' actions for the research environments: in/out (high/low/both in Hi-Lo), and
    under pass-left a face-down card to pass."""
    passed = int(rules.down_cards) if rules.pass_left else 0
    return ActionLayout(("in", "out", "high", "low", "both"), int(rules.cards + rules.draw_to_in),
                        cards=passed)  # fmt: skip


FAMILY: Family[GutsRules, GutsSession] = Family(
    "guts",
    GutsRules,
    PRESETS,
    GutsSession,
    title="Guts",
    description="a Guts game: each player declares in or out on a hand, and the losers "
    "of the showdown pay",
    titles=TITLES,
    bots=BOTS,
    tell=tell,
    takes_table=True,
    layout=layout,
    settlements=declared_settlements,
    page=PageView(face_down="hand", cards=2, out_hides=True),
    chance=GutsChance(),
)
"""This family (see :mod:`guts.games.family`), listed in :mod:`guts.catalog`."""

preset = FAMILY.rules
"""The rules of a preset with options (name -> string) applied (OptionError names an
unknown preset or a bad option)."""

new_session = FAMILY.new_session
"""A session of a preset (with options) for players."""
