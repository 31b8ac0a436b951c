"""The options of Guts and its variants: one frozen dataclass, :class:`GutsRules`.

Every field is a custom from the rule texts, named after it, with the text's default
(pagat's two-card Guts). Options are set by name from strings:

>>> rules = GutsRules.from_options(GutsRules(), {"ghost": "always", "declare": "simultaneous"})
>>> rules.ghost.value, rules.declare.value
('always', 'simultaneous')
>>> GutsRules.from_options(GutsRules(), {"ghost": "sometimes"})
Traceback (most recent call last):
...
guts.errors.OptionError: ghost: unknown value 'sometimes'; allowed: never, always, lone, deck
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from guts.errors import OptionError
from guts.games.options import (
    RuleOptions,
    dash,
)
from guts.rankings.base import Category, Ranking
from guts.rankings.high import HighRanking
from guts.rankings.small import ThreeCardRanking, TwoCardRanking
from guts.rankings.wilds import Wilds
from guts.table import OddChipRule

__all__ = [
    "Declare",
    "EveryoneOut",
    "Ghost",
    "GhostTie",
    "GutsRules",
    "HandRanking",
    "Payment",
    "Qualifier",
]


class Declare(StrEnum):
    """How players say in or out."""

    IN_TURN = "in-turn"
    SIMULTANEOUS = "simultaneous"


class EveryoneOut(StrEnum):
    """What happens when nobody stays in."""

    POT_STAYS = "pot-stays"
    CHICKEN_FEE = "chicken-fee"
    WIMP = "wimp"
    HENRY = "henry"
    BEST_AND_WILDS_MATCH = "best-and-wilds-match"


class Payment(StrEnum):
    """Who of the players in who lost pays, and how much."""

    MATCH = "match"
    SINGLE_LOSER = "single-loser"
    WORST_DOUBLES = "worst-doubles"


class Ghost(StrEnum):
    """The kitty, ghost or dummy hand."""

    NEVER = "never"
    ALWAYS = "always"
    LONE = "lone"
    DECK = "deck"


class GhostTie(StrEnum):
    """What a tie with the ghost means."""

    GHOST_WINS = "ghost-wins"
    PLAYERS_WIN = "players-win"
    PUSH = "push"


class Qualifier(StrEnum):
    """What a lone player needs to take the pot (instead of a ghost)."""

    NONE = "none"
    PAIR = "pair"


class HandRanking(StrEnum):
    """How hands rank: ``auto`` picks two-card, three-card or high by the hand size."""

    AUTO = "auto"
    TWO_CARD = "two-card"
    THREE_CARD = "three-card"
    HIGH = "high"


_DOCS: dict[str, str] = {
    "ante": "chips each player antes",
    "ante_every_deal": "ante on every deal (single loser), not only when the pot is empty",
    "matcher_skips_ante": "with ante-every-deal: a player who matched the pot skips the next ante",
    "cards": "cards dealt to each player before declaring (1 to 4)",
    "partial_hands": "the last of those cards is dealt face up, only to players who are in",
    "pass_left": "before declaring, everyone passes one card face down to the left",
    "batey": "The Batey: one community card face up after the deal",
    "low_in_wild": (
        "1 or 2: the last card is dealt face up; the holders of the lowest (two lowest) "
        "face-up ranks are automatically in, and those ranks are wild"
    ),
    "no_peek": "No Peek: declare before looking at your cards",
    "declare": "in-turn (dealer's left first, dealer last) or simultaneous",
    "last_in_when_all_out": (
        "in turn: the last to declare (the dealer) is automatically in when all others "
        "are out (not with a ghost, a lone qualifier or Hi-Lo)"
    ),
    "dealer_option": "in turn: if the dealer alone is in, the others get a second chance",
    "hi_lo": "Hi-Lo: declare high, low (or both) or out; halves of the pot",
    "hi_lo_both": "Hi-Lo: a player may go both ways (and must win both)",
    "draw_to_in": "cards dealt after the declaration to each player who is in",
    "draw_face_up": "the cards dealt after the declaration are face up",
    "community": "community cards dealt face up after the declaration",
    "second_declare": (
        "after the declaration, those in pay an extra ante, get their cards, and declare again"
    ),
    "ranking": "hand ranking: auto (two-card for 2 cards, three-card for 3, best five for more)",
    "straights": "straights count (auto: no with two cards, yes with three)",
    "flushes": "flushes count (auto: no with two cards, yes with three)",
    "ace_low": "A-2(-3) counts as a straight (auto: the ranking's default)",
    "crumpler": "Royal Crumpler: two-card 2-3 beats everything",
    "order": "category order, best first (three-card: e.g. straight-flush,trips,...)",
    "wild": "wild cards, e.g. 2 for deuces wild (Four-Two-Two)",
    "everyone_out": (
        "nobody in: pot-stays, chicken-fee (all ante again), wimp (best hand antes for "
        "all), henry (best hand matches the pot), best-and-wilds-match (best hand and "
        "every holder of a wild card match)"
    ),
    "payment": (
        "losers: match (all losers match the pot), single-loser (only the worst hand "
        "matches), worst-doubles (only the worst hand pays, twice the pot)"
    ),
    "winner_takes_all": "the winner also takes the losers' matches",
    "nobody_wins_contested": "nobody wins the pot unless nobody else stays in (losers still pay)",
    "dropouts_ante": "after a showdown, the players who dropped out pay a new ante",
    "ghost": (
        "dummy hand: never, always (beat it too), lone (only against a lone player), deck"
        " (a lone player's cards against the deck's next cards)"
    ),
    "ghost_ties": (
        "a tie with the ghost: ghost-wins (you must beat it), players-win, push (no one pays)"
    ),
    "lone_qualifier": "a lone player needs this (pair: a pair or better) or matches the pot",
    "pot_limit": "pot limit: chips above it wait in the reserve",
    "pot_cap": "pot cap in antes (50, 100): the excess is set aside as the next ante",
    "max_loss": "most a player pays into the pot in one deal",
    "continue_after_empty": "when the pot is emptied, ante and play on instead of ending the game",
    "max_deals": "end the session after this many deals",
    "credit": "credit: stacks may go negative, settled at the end (no: table stakes)",
    "odd_chips": "who gets the odd chips of a split",
}
"""What each option means (for the rules text)."""


@dataclass(frozen=True)
class GutsRules(RuleOptions):
    """The options of a Guts game. Defaults are pagat's two-card Guts.

    Build variants with :meth:`from_options` (strings by option name, ``-`` or ``_``) or
    :func:`dataclasses.replace`; contradictory options raise OptionError here.
    """

    family = "Guts"
    option_docs = _DOCS
    none_words = ("none", "auto", "off", "")

    ante: int = 1
    ante_every_deal: bool = False
    matcher_skips_ante: bool = True
    cards: int = 2
    partial_hands: bool = False
    pass_left: bool = False
    batey: bool = False
    low_in_wild: int = 0
    no_peek: bool = False
    declare: Declare = Declare.IN_TURN
    last_in_when_all_out: bool = True
    dealer_option: bool = False
    hi_lo: bool = False
    hi_lo_both: bool = True
    draw_to_in: int = 0
    draw_face_up: bool = False
    community: int = 0
    second_declare: bool = False
    ranking: HandRanking = HandRanking.AUTO
    straights: bool | None = None
    flushes: bool | None = None
    ace_low: bool | None = None
    crumpler: bool = False
    order: str = ""
    wild: str = ""
    everyone_out: EveryoneOut = EveryoneOut.POT_STAYS
    payment: Payment = Payment.MATCH
    winner_takes_all: bool = False
    nobody_wins_contested: bool = False
    dropouts_ante: bool = False
    ghost: Ghost = Ghost.NEVER
    ghost_ties: GhostTie = GhostTie.GHOST_WINS
    lone_qualifier: Qualifier = Qualifier.NONE
    pot_limit: int | None = None
    pot_cap: int | None = None
    max_loss: int | None = None
    continue_after_empty: bool = False
    max_deals: int | None = None
    credit: bool = True
    odd_chips: OddChipRule = OddChipRule.NEAREST_LEFT

    def __post_init__(self) -> None:
        self.check_options()
        for problem in _contradictions(self):
            raise OptionError(problem)
        self.hand_ranking  # noqa: B018  # builds the ranking, so its own checks run now

    def describe(self) -> str:
        """The rules text: every option, its value, what it means, and the defaults chosen."""
        body = self.option_lines()
        hand = self.hand_ranking
        head = [
            f"Hands: {self.final_size} cards, {hand.name} ranking"
            + (f" ({_ranking_words(hand)})" if _ranking_words(hand) else ""),
            f"Players: 2 to {self.most_players} (the rule text: as many as 26 could play, "
            "as far as the pack deals every hand; best for around 5 to 10)",
            "Options:",
        ]
        endless = [f"Warning: {self.endless_reason}", ""] if self.endless_reason else []
        return "\n".join([*head, *body, "", *endless, AMBIGUITIES])

    # -- derived ------------------------------------------------------------------------------

    @cached_property
    def down_cards(self) -> int:
        """Cards each player gets face down in the first deal."""
        return self.cards - (1 if self.partial_hands or self.low_in_wild else 0)

    @property
    def final_size(self) -> int:
        """Cards a player who stays to the showdown can use (with community cards)."""
        return self.cards + self.draw_to_in + self.community + (1 if self.batey else 0)

    @property
    def own_final_size(self) -> int:
        """Cards a player who stays to the showdown holds (without community cards)."""
        return self.cards + self.draw_to_in

    @cached_property
    def has_second_deal(self) -> bool:
        """True if players who are in get more cards after the declaration."""
        return bool(self.draw_to_in or self.community or self.partial_hands)

    @cached_property
    def auto_in(self) -> bool:
        """Whether the last to declare in turn is automatically in when all others are out."""
        return (
            self.last_in_when_all_out
            and self.declare is Declare.IN_TURN
            and self.ghost is Ghost.NEVER
            and self.lone_qualifier is Qualifier.NONE
            and not self.hi_lo
        )

    @property
    def endless_reason(self) -> str:
        """Why a session under these rules may never end ('' if every session can end).

        Sessions of such rules should set ``max-deals``.
        """
        if self.max_deals is not None:
            return ""
        if self.continue_after_empty:
            return "continue-after-empty: play goes on after every pot (set max-deals)"
        if self.low_in_wild == 2:
            return (
                "two low in and wild: two or more players are in every deal, so only a tie "
                "among all of them empties the pot (set max-deals)"
            )
        return ""

    def cards_needed(self, players: int) -> int:
        """The most cards a deal for ``players`` can use: every hand in full, the ghost's
        or the deck's hand, the community cards."""
        ghost = self.own_final_size if self.ghost in (Ghost.ALWAYS, Ghost.LONE) else 0
        deck_hand = self.cards if self.ghost is Ghost.DECK else 0
        community = self.community + (1 if self.batey else 0)
        return players * self.own_final_size + ghost + deck_hand + community

    @property
    def most_players(self) -> int:
        """The most players: 26 ("in theory as many as 26 people could play"), fewer
        where the pack cannot deal every hand in full."""
        return max((n for n in range(2, 27) if self.cards_needed(n) <= 52), default=2)

    def check_players(self, count: int) -> None:
        """Raise OptionError unless ``count`` players can play these rules."""
        if not 2 <= count <= 26:
            raise OptionError(f"Guts needs 2 to 26 players, not {count}")
        needed = self.cards_needed(count)
        if needed > 52:
            raise OptionError(
                f"these rules need {needed} cards for {count} players: "
                f"the pack has 52; at most {self.most_players} players, or fewer cards"
            )

    def wilds(self, extra_ranks: tuple[int, ...] = ()) -> Wilds:
        """The wild cards, plus ``extra_ranks`` (one/two low in and wild)."""
        try:
            base = Wilds.parse(self.wild)
        except OptionError as error:
            raise OptionError(f"wild: {error}") from None
        return Wilds.of(tuple(base.ranks) + extra_ranks, base.cards)

    @cached_property
    def hand_ranking(self) -> Ranking:
        """The ranking of showdown hands (no per-deal wild ranks)."""
        return self.ranking_for(self.final_size)

    @cached_property
    def _rankings(self) -> dict[tuple[int, tuple[int, ...]], Ranking]:
        """The rankings made so far, by hand size and extra wild ranks (rankings are
        immutable, so every deal with the same wild ranks shares one, and its tables)."""
        return {}

    def ranking_for(self, size: int, extra_wild: tuple[int, ...] = ()) -> Ranking:
        """The ranking for hands of ``size`` cards (the showdown size uses ``ranking``)."""
        key = (size, tuple(extra_wild))
        ranking = self._rankings.get(key)
        if ranking is None:
            ranking = self._rankings[key] = self._new_ranking(size, key[1])
        return ranking

    def _new_ranking(self, size: int, extra_wild: tuple[int, ...]) -> Ranking:
        kind = self.ranking if size == self.final_size else HandRanking.AUTO
        if kind is HandRanking.AUTO:
            kind = {2: HandRanking.TWO_CARD, 3: HandRanking.THREE_CARD}.get(size, HandRanking.HIGH)
        wilds = self.wilds(extra_wild)
        order = _parse_order(self.order) if size == self.final_size else ()
        try:
            if kind is HandRanking.TWO_CARD:
                return TwoCardRanking(
                    straights=bool(self.straights),
                    flushes=bool(self.flushes),
                    ace_low=bool(self.ace_low),
                    crumpler=self.crumpler,
                    order=order,
                    wilds=wilds,
                )
            if kind is HandRanking.THREE_CARD:
                return ThreeCardRanking(
                    straights=self.straights is not False,
                    flushes=self.flushes is not False,
                    ace_low=self.ace_low is not False,
                    order=order,
                    wilds=wilds,
                )
            return HighRanking(wilds=wilds, ace_low=self.ace_low is not False)
        except OptionError as error:
            raise OptionError(f"ranking options: {error}") from None


AMBIGUITIES = """\
Defaults chosen where the texts are open:
  - cards are dealt one at a time from the dealer's left, the dealer last; the ghost's whole
    hand is dealt after the players'; community cards come from the top of the stock.
  - a player who loses to the ghost, or lacks the lone qualifier, matches the pot.
  - worst-doubles: the single worst hand pays twice the pot (ties for worst all pay).
  - wimp: each best hand (ties: each of them) antes for every player dealt in.
  - Hi-Lo: low is the reverse of the game's ranking (the lowest hand wins); the high half
    takes the odd chip; when nobody declares one way the whole pot is played the other way;
    a both-ways player who does not win (or tie for) both ways wins nothing and matches;
    every loser matches the whole pot once.
  - a tie among all who stayed in shares and so empties the pot; with
    nobody-wins-contested nobody takes a contested pot and a tie pays nothing.
  - dropouts-ante applies after a showdown of two or more players, also when all of them
    tie and share the pot, and after a lone player's showdown with the ghost or the deck
    unless the lone player wins it (that ends the game, as Four-Two-Two's variant says).
  - second-declare: players who drop in the second round lose only the extra ante; if
    everyone drops, the everyone-out rule applies.
  - pot-cap: chips over the cap wait aside and become the next pot when the pot is won
    with no loser (pot-limit instead refills the pot from the reserve after every win).
  - two low in and wild: the two lowest distinct face-up ranks (aces high).
  - table stakes (credit=no): a player pays at most their stack; a player with no chips
    sits out; the session ends when fewer than two players have chips.
  - the chicken fee is paid into the pot at once, at the end of the deal where everyone
    was out (the same chips the next deal would see).
  - with single-loser or worst-doubles, only the worst hand in pays even when the ghost wins.
  - Hi-Lo with a ghost: the ghost plays both ways (ghost=lone: a way with one player).
  - a lone player who must qualify (lone-qualifier) gets the second deal's cards first;
    ghost=deck compares the lone player's cards before any second deal (Four-Two-Two's
    4 cards) with as many cards from the top of the stock.
  - the deal passes to the left after every deal.
  - when the players stop between deals (or a deal limit ends the session), whatever is
    left in the pot, the reserve and set aside is shared out equally among the seats
    still playing, odd chips by the odd-chips rule, so that the table can settle up."""


# -- option parsing and checking -------------------------------------------------------------


def _parse_order(text: str) -> tuple[Category, ...]:
    if not text.strip():
        return ()
    try:
        return tuple(Category.parse(part) for part in text.split(",") if part.strip())
    except ValueError as error:
        raise OptionError(f"order: {error}") from None


def _ranking_words(ranking: Ranking) -> str:
    shown = ranking.options()
    return ", ".join(f"{k} {v}" for k, v in shown.items())


def _contradictions(rules: GutsRules) -> list[str]:
    """Every reason these options cannot be played together (empty if they can)."""
    r = rules
    problems: list[str] = []

    def need(condition: bool, message: str) -> None:
        if not condition:
            problems.append(message)

    need(r.ante >= 1, f"ante: must be at least 1 chip, not {r.ante}")
    need(1 <= r.cards <= 4, f"cards: 1 to 4 cards before declaring, not {r.cards}")
    need(r.draw_to_in >= 0 and r.community >= 0, "draw-to-in and community cannot be negative")
    need(
        2 <= r.final_size <= 7, f"hands must have 2 to 7 cards at the showdown, not {r.final_size}"
    )
    need(r.low_in_wild in (0, 1, 2), f"low-in-wild: allowed values 0, 1, 2, not {r.low_in_wild}")
    need(r.down_cards >= 1, "partial-hands and low-in-wild need at least 2 cards")
    need(
        not (r.partial_hands and r.low_in_wild),
        "partial-hands and low-in-wild both deal the last card face up: choose one",
    )
    need(not (r.pass_left and r.down_cards < 2), "pass-left needs at least 2 face-down cards")
    need(
        not (r.pass_left and r.no_peek),
        "pass-left needs players to see their cards: not with no-peek",
    )
    need(
        not (r.dealer_option and r.declare is Declare.SIMULTANEOUS),
        "dealer-option needs declare=in-turn (the dealer declares last)",
    )
    need(not (r.dealer_option and r.hi_lo), "dealer-option is not played with hi-lo")
    need(
        not (r.second_declare and not r.has_second_deal),
        "second-declare needs a second deal (draw-to-in, community or partial-hands)",
    )
    need(
        not (
            r.hi_lo
            and (r.payment is not Payment.MATCH or r.winner_takes_all or r.nobody_wins_contested)
        ),
        "hi-lo is played with payment=match, without winner-takes-all or nobody-wins-contested",
    )
    need(not (r.hi_lo and r.ghost is Ghost.DECK), "ghost=deck is not played with hi-lo")
    need(not (r.hi_lo and r.low_in_wild), "low-in-wild is not played with hi-lo")
    need(
        not (r.lone_qualifier is not Qualifier.NONE and r.ghost is not Ghost.NEVER),
        "lone-qualifier replaces the ghost: use it with ghost=never",
    )
    need(
        not (r.pot_limit is not None and r.pot_cap is not None),
        "pot-limit and pot-cap are two ways to do one thing: choose one",
    )
    for name in ("pot_limit", "pot_cap", "max_loss", "max_deals"):
        value = getattr(r, name)
        need(
            value is None or value >= 1, f"{dash(name)}: must be at least 1 (or none), not {value}"
        )
    need(
        not (
            r.everyone_out is EveryoneOut.BEST_AND_WILDS_MATCH and not r.wild and not r.low_in_wild
        ),
        "everyone-out=best-and-wilds-match needs wild cards (wild=2)",
    )
    kind = r.ranking
    size = r.final_size
    need(
        kind is not HandRanking.TWO_CARD or size == 2,
        f"ranking=two-card needs 2-card hands, not {size}",
    )
    need(
        kind is not HandRanking.THREE_CARD or size == 3,
        f"ranking=three-card needs 3-card hands, not {size}",
    )
    small = kind in (HandRanking.TWO_CARD, HandRanking.THREE_CARD) or (
        kind is HandRanking.AUTO and size in (2, 3)
    )
    need(
        small or (r.straights is None and r.flushes is None),
        "straights and flushes are options of two- and three-card hands",
    )
    two = kind is HandRanking.TWO_CARD or (kind is HandRanking.AUTO and size == 2)
    need(two or not r.crumpler, "crumpler is a two-card hand (2-3): it needs 2-card hands")
    need(small or not r.order, "order applies to two- and three-card hands")
    return problems
