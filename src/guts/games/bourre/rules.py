"""The options of Bourré: one frozen dataclass, :class:`BourreRules`, and the presets.

Every field is a custom from the rule text, named after it, with the text's default.
Options are set by name from strings:

>>> rules = BourreRules.from_options(None, {"cinch": "yes", "pot-limit": "20"})
>>> rules.cinch, rules.pot_limit
(True, 20)
>>> BourreRules.from_options(None, {"trump-card": "river"})
Traceback (most recent call last):
...
guts.errors.OptionError: trump-card: unknown value 'river'; allowed: dealer, stock
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from guts.errors import OptionError
from guts.games.bourre.stock import DrawRules, TrumpCard
from guts.games.bourre.tricks import RenegeMode, TrickRules
from guts.games.options import RuleOptions, dash
from guts.table import OddChipRule

__all__ = ["PRESETS", "BourreRules", "EndPot", "LonePlayer", "preset"]


class LonePlayer(StrEnum):
    """What happens when only one player says they play."""

    TAKES_POT = "takes-pot"
    """The lone player takes the pot without playing (they would take all five tricks)."""
    DEALER_PLAYS = "dealer-plays"
    """The dealer may not fold when exactly one other player plays, so a lone player
    can only be the dealer (who then takes the pot)."""


class EndPot(StrEnum):
    """What happens to chips left in the pot when the players stop the game."""

    STAYS = "stays"
    """They stay on the table as a carried pot (in the table's snapshot) for a later game."""
    SPLIT = "split"
    """They are shared equally by every seat, odd chips by the ``odd-chips`` rule."""


_DOCS: dict[str, str] = {
    "ante": "chips each player antes at every deal (a bourré matches the pot instead)",
    "dealer_antes": "the dealer antes for every player (paying for the face-up trump)",
    "play_ante": "the second ante: chips a player pays on saying they play",
    "trump_card": "dealer: the dealer's fifth card, face up, sets trumps (the dealer keeps "
    "it); stock: the next card of the stock, set aside",
    "play_to_win": TrickRules.describe_option("play_to_win"),
    "must_trump_even_if_losing": TrickRules.describe_option("must_trump_even_if_losing"),
    "head_in_suit": TrickRules.describe_option("head_in_suit"),
    "cinch": TrickRules.describe_option("cinch") + " (defined below)",
    "renege_mode": TrickRules.describe_option("renege_mode"),
    "max_discard": "the most cards a player may discard with two to six players",
    "seven_player_discard": "the most cards a player may discard with seven players",
    "eight_players": "allow an eighth player",
    "eight_player_discard": "the most cards a player may discard with eight players",
    "lone_player": "takes-pot: a lone player takes the pot unplayed; dealer-plays: the "
    "dealer must play against a lone player",
    "pot_limit": "the most a bourré or renege costs (none: the whole pot)",
    "end_pot": "chips left in the pot when the game stops: stays (on the table) or split",
    "max_deals": "the game stops after this many deals (none: when the players stop it)",
    "credit": "yes: stacks may go negative (settled at the end); no: table stakes",
    "odd_chips": "who gets the odd chips when the pot is split at the end",
}

CINCH_TEXT = """\
The cinch (with cinch = yes): a player is cinched when their trumps alone make it certain
they take more tricks than anyone else, whatever the unseen cards and however the others
play. With r tricks left, w taken by the player and m the most taken by another player,
they need s = (m + r - w) // 2 + 1 more tricks. List their trumps from the highest,
t1 > t2 > ...; h_i is the number of trumps that could still beat t_i: every higher trump
not in their hand, not played to an earlier trick of this hand and not in the current
trick, plus the highest trump already in the current trick if it is higher. Cards out of
play are only those played to earlier tricks of the hand (and the trump card turned from
the stock, set aside); a player's own discards do not count, as they may be dealt again.
They are cinched when some i has i - h_i >= s; the cinch cards are then their top i trumps
for the smallest such i, and they must play one of them now, if the play rules allow one
(follow suit comes first). Examples: having just taken a second trick with the ace of
trumps; one trick taken with the ace and king; or the ace, queen and jack of trumps."""

DECISIONS = """\
Decisions where the text is silent:
  - antes: every player dealt in antes each deal, except a player who bourréd the hand
    before: they matched the pot (paid at the end of that hand, into the next pot) instead.
    With dealer-antes the dealer pays the antes of everyone who did not bourré.
  - a bourré costs the pot as it stood when the hand ended (before the winner took it),
    capped by pot-limit; several players who bourré each pay that amount.
  - a reneging player bourrés even if they took tricks, and still takes the pot if they
    took the most (the text ties the pot to tricks alone). Reneges are announced at once.
  - nobody plays: the pot stays for the next deal (everyone antes again). One player plays:
    see lone-player.
  - the draw: a player's discards go on the discard pile after their new cards are dealt,
    so nobody draws their own discards; a depleted stock is followed by the folded hands
    (shuffled), then the discards (shuffled).
  - the dealer's face-up trump card is part of the dealer's hand: it may be discarded, and
    it goes with the hand if the dealer folds.
  - the deal passes left after every deal; the game stops by max-deals, by the players
    (between deals), or at table stakes when fewer than two players have chips. The pot is
    never lost: see end-pot."""


@dataclass(frozen=True)
class BourreRules(RuleOptions):
    """The options of a game of Bourré. The defaults are the rule text's traditional game.

    Build variants with :meth:`from_options` (strings by option name, ``-`` or ``_``) or
    :func:`dataclasses.replace`; bad values raise OptionError naming the option.
    """

    family = "Bourré"
    option_docs = _DOCS

    ante: int = 1
    dealer_antes: bool = False
    play_ante: int = 0
    trump_card: TrumpCard = TrumpCard.DEALER
    play_to_win: bool = True
    must_trump_even_if_losing: bool = False
    head_in_suit: bool = False
    cinch: bool = False
    renege_mode: RenegeMode = RenegeMode.STRICT
    max_discard: int = 5
    seven_player_discard: int = 3
    eight_players: bool = False
    eight_player_discard: int = 2
    lone_player: LonePlayer = LonePlayer.TAKES_POT
    pot_limit: int | None = None
    end_pot: EndPot = EndPot.STAYS
    max_deals: int | None = None
    credit: bool = True
    odd_chips: OddChipRule = OddChipRule.NEAREST_LEFT

    def __post_init__(self) -> None:
        self.check_options()
        for name in ("ante", "play_ante"):
            if getattr(self, name) < 0:
                raise OptionError(f"{dash(name)}: expected a whole number of chips, 0 or more")
        for name in ("pot_limit", "max_deals"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise OptionError(f"{dash(name)}: expected a whole number, 1 or more, or none")
        self.trick_rules  # noqa: B018  # their own checks run now
        self.draw_rules  # noqa: B018

    def describe(self) -> str:
        """The rules text: every option, its value and meaning, the cinch, the decisions."""
        body = self.option_lines()
        head = [
            "Bourré: 52 cards, aces high, five cards each, five tricks; the most tricks take "
            "the pot, a tie leaves it for the next deal, no trick (or a renege) matches it.",
            f"Players: 2 to {self.most_players} (the rule text: two to seven; eight with "
            "eight-players). Options:",
        ]
        return "\n".join([*head, *body, "", CINCH_TEXT, "", DECISIONS])

    # -- derived ------------------------------------------------------------------------------

    @property
    def trick_rules(self) -> TrickRules:
        """The options of trick play."""
        return TrickRules(
            play_to_win=self.play_to_win,
            must_trump_even_if_losing=self.must_trump_even_if_losing,
            head_in_suit=self.head_in_suit,
            cinch=self.cinch,
            renege_mode=self.renege_mode,
        )

    @property
    def draw_rules(self) -> DrawRules:
        """The discard limits."""
        return DrawRules(
            max_discard=self.max_discard,
            seven_player_discard=self.seven_player_discard,
            eight_players=self.eight_players,
            eight_player_discard=self.eight_player_discard,
        )

    @property
    def most_players(self) -> int:
        """The most players a deal allows (7, or 8 with ``eight-players``)."""
        return self.draw_rules.most_players


# -- presets ----------------------------------------------------------------------------------

_BASE = BourreRules()

PRESETS: dict[str, tuple[BourreRules, str]] = {
    "bourre": (_BASE, "traditional Bourré: dealer's fifth card is trumps, play to win"),
    "bourre-dealer-antes": (
        dataclasses.replace(_BASE, dealer_antes=True),
        "the dealer antes for everyone, paying for the face-up trump",
    ),
    "bourre-second-ante": (
        dataclasses.replace(_BASE, play_ante=1),
        "players who say they play pay a second ante",
    ),
    "bourre-pot-limit": (
        dataclasses.replace(_BASE, pot_limit=20),
        "a bourré or renege costs at most 20 chips",
    ),
    "bourre-must-trump": (
        dataclasses.replace(_BASE, must_trump_even_if_losing=True),
        "a player void in the led suit must trump even when the trump cannot win",
    ),
    "bourre-stock-trump": (
        dataclasses.replace(_BASE, trump_card=TrumpCard.STOCK),
        "trumps by the next card of the stock, turned up and set aside",
    ),
    "bourre-cinch": (
        dataclasses.replace(_BASE, cinch=True),
        "the cinch rule: a player sure to take the hand must play their winning trumps",
    ),
    "bourre-policed": (
        dataclasses.replace(_BASE, renege_mode=RenegeMode.POLICED),
        "house rules: an illegal card stands as a renege and the player bourrés",
    ),
    "bourre-retract": (
        dataclasses.replace(_BASE, renege_mode=RenegeMode.RETRACT),
        "retraction and renege: an illegal card is taken back but the player bourrés",
    ),
    "bourre-eight": (
        dataclasses.replace(_BASE, eight_players=True),
        "up to eight players; with eight, at most two discards each",
    ),
    "bourre-house": (
        dataclasses.replace(
            _BASE, cinch=True, renege_mode=RenegeMode.POLICED, pot_limit=20, play_ante=1
        ),
        "cinch, policed reneges, a second ante and a 20-chip pot limit",
    ),
}
"""Preset name -> (rules, one-line description)."""


def preset(name: str, options: Mapping[str, str] | None = None) -> BourreRules:
    """The rules of preset ``name`` with ``options`` (name -> string) applied."""
    return BourreRules.from_preset(PRESETS, name, options)
