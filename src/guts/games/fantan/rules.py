"""The options of Fan Tan: one frozen dataclass, :class:`FanTanRules`, and the presets.

The rule text gives the chip rules (a player who cannot play puts one chip in the pot; the
first out wins; the others pay the pot a chip per card held; the winner takes the pot);
every custom it leaves open is an option with a documented default:

>>> rules = FanTanRules.from_options(None, {"leader": "seven-of-diamonds", "aces": "high"})
>>> rules.leader.value, rules.aces.value
('seven-of-diamonds', 'high')
>>> FanTanRules.from_options(None, {"false-pass": "allowed"})
Traceback (most recent call last):
...
guts.errors.OptionError: false-pass: unknown value 'allowed'; allowed: refused, pot, holders
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from guts.errors import OptionError
from guts.games.options import RuleOptions, dash
from guts.table import OddChipRule

__all__ = [
    "MOST_PLAYERS",
    "PRESETS",
    "Aces",
    "ExtraChip",
    "FalsePass",
    "FanTanRules",
    "Leader",
    "preset",
]

FEWEST_PLAYERS = 2
MOST_PLAYERS = 8
"""Fan Tan is for two to eight players (all 52 cards are dealt out)."""


class Leader(StrEnum):
    """Who plays first."""

    DEALERS_LEFT = "dealers-left"
    """The player to the dealer's left: they play a seven, or pass and pay if they hold none."""
    SEVEN_OF_DIAMONDS = "seven-of-diamonds"
    """The holder of the seven of diamonds, who must lead it; play goes on to their left."""


class ExtraChip(StrEnum):
    """Who puts in an extra chip when the 52 cards do not divide evenly, so all start even."""

    FEWER = "fewer"
    """Each player dealt one card fewer than the others (the usual custom: fewer cards is
    an easier hand)."""
    MORE = "more"
    """Each player dealt one card more (the house that sees the extra card as a pass saved)."""
    NONE = "none"
    """Nobody: the uneven deal stands as it falls."""


class FalsePass(StrEnum):
    """A pass by a player who could have played."""

    REFUSED = "refused"
    """The text's rule, "each player must play a card during their turn if possible": a
    pass is taken only when no card fits."""
    POT = "pot"
    """A pass is taken unchecked; when a card the passer could have played comes out (played,
    or shown at the end), they pay ``false-pass-fine`` chips to the pot."""
    HOLDERS = "holders"
    """As ``pot``, but the fine goes to each other player holding a card the pass held up
    (the next card of that row, both neighbours of a seven); to the pot if nobody does."""


class Aces(StrEnum):
    """Where aces sit in a row."""

    LOW = "low"
    """Rows run from the seven down to the ace and up to the king."""
    HIGH = "high"
    """Rows run from the seven down to the two and up to the ace."""


_DOCS: dict[str, str] = {
    "ante": "chips each player antes at every deal",
    "leader": "dealers-left: the player left of the dealer plays first; seven-of-diamonds: "
    "the holder of the 7♦ leads it",
    "extra_chip": "who pays one extra chip when the deal is uneven: fewer (those dealt a card "
    "fewer), more (those dealt a card more) or none",
    "pass_chips": "chips a player puts in the pot on passing (the text: one)",
    "card_chips": "chips each loser pays the pot per card left in hand (the text: one)",
    "false_pass": "a pass by a player able to play: refused (the text: play if possible), "
    "pot (taken, fined to the pot when found) or holders (fined to each holder of a card "
    "it held up)",
    "false_pass_fine": "chips a false pass costs when found (to the pot, or to each holder)",
    "aces": "low: rows run seven down to the ace, up to the king; high: down to the two, up "
    "to the ace",
    "max_deals": "the game stops after this many deals (none: when the players stop it)",
    "credit": "yes: stacks may go negative (settled at the end); no: table stakes",
    "odd_chips": "who gets the odd chips of a split (a Fan Tan pot is never split; kept for "
    "a table shared with other games)",
}

DECISIONS = """\
Decisions where the text is silent:
  - the cards are dealt one at a time from the dealer's left, the dealer last, so the
    players nearest the dealer's left hold the extra cards of an uneven deal.
  - the first card played is a seven; until then a player without one passes and pays.
  - a pass always costs pass-chips, false or not; a false pass's fine comes on top.
  - with false passes taken (pot, holders), a full round of passes while a card fits ends
    it: a player able to play must play when every other player has passed since the last
    card, so a deal always ends.
  - at the end the losers show their cards, to be counted (and a false pass found); each
    pays card-chips per card, then the player who went out takes the pot.
  - the deal passes left after every deal; the game stops by max-deals, by the players
    (between deals), or at table stakes when fewer than two players have chips."""


@dataclass(frozen=True)
class FanTanRules(RuleOptions):
    """The options of a game of Fan Tan; the defaults are the rule text's game with the
    common customs (dealer's left leads, a card fewer pays a chip, aces low).

    Build variants with :meth:`from_options` (strings by option name) or
    :func:`dataclasses.replace`; a bad value raises OptionError naming the option.
    """

    family = "Fan Tan"
    option_docs = _DOCS

    ante: int = 1
    leader: Leader = Leader.DEALERS_LEFT
    extra_chip: ExtraChip = ExtraChip.FEWER
    pass_chips: int = 1
    card_chips: int = 1
    false_pass: FalsePass = FalsePass.REFUSED
    false_pass_fine: int = 1
    aces: Aces = Aces.LOW
    max_deals: int | None = None
    credit: bool = True
    odd_chips: OddChipRule = OddChipRule.NEAREST_LEFT

    def __post_init__(self) -> None:
        self.check_options()
        for name in ("ante", "pass_chips", "card_chips", "false_pass_fine"):
            if getattr(self, name) < 0:
                raise OptionError(f"{dash(name)}: expected a whole number of chips, 0 or more")
        if self.max_deals is not None and self.max_deals < 1:
            raise OptionError("max-deals: expected a whole number, 1 or more, or none")

    @property
    def most_players(self) -> int:
        """The most players a deal allows."""
        return MOST_PLAYERS

    def describe(self) -> str:
        """The rules text: the game, every option with its value and meaning, the decisions."""
        low, high = ("ace", "king") if self.aces is Aces.LOW else ("two", "ace")
        head = [
            "Fan Tan (Sevens): all 52 cards dealt out; the first card played is a seven, then "
            f"each suit's row builds from its seven down to the {low} and up to the {high}, "
            "one card at a time. A player who can play must; one who cannot pays the pot and "
            "passes. The first out wins: the others pay the pot per card held, and the "
            "winner takes the pot.",
            f"Players: {FEWEST_PLAYERS} to {MOST_PLAYERS}. Options:",
        ]
        return "\n".join([*head, *self.option_lines(), "", DECISIONS])


# -- presets ----------------------------------------------------------------------------------

_BASE = FanTanRules()

PRESETS: dict[str, tuple[FanTanRules, str]] = {
    "fan-tan": (_BASE, "Fan Tan: sevens start the rows, a pass pays a chip, first out wins"),
    "fan-tan-seven-of-diamonds": (
        dataclasses.replace(_BASE, leader=Leader.SEVEN_OF_DIAMONDS),
        "Sevens: the holder of the seven of diamonds leads it",
    ),
    "fan-tan-aces-high": (
        dataclasses.replace(_BASE, aces=Aces.HIGH),
        "rows run from the seven down to the two and up to the ace",
    ),
    "fan-tan-false-pass": (
        dataclasses.replace(_BASE, false_pass=FalsePass.POT, false_pass_fine=3),
        "a pass is never checked; a false pass found costs 3 chips to the pot",
    ),
    "fan-tan-false-pass-holders": (
        dataclasses.replace(_BASE, false_pass=FalsePass.HOLDERS),
        "a false pass found pays a chip to each holder of a card it held up",
    ),
}
"""Preset name -> (rules, one-line description)."""


def preset(name: str, options: Mapping[str, str] | None = None) -> FanTanRules:
    """The rules of preset ``name`` with ``options`` (name -> string) applied."""
    return FanTanRules.from_preset(PRESETS, name, options)
