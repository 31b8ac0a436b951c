"""The options of Five Card Draw and its variations: one frozen dataclass, :class:`DrawRules`.

Every field is a custom from the rule text, named after it, with the text's default (basic
Five Card Draw, "California Draw"). Options are set by name from strings:

>>> rules = DrawRules.from_options(DrawRules(), {"openers": "jacks", "wild": "2"})
>>> rules.openers.value, rules.wild
('jacks', '2')
>>> DrawRules.from_options(DrawRules(), {"openers": "tens"})
Traceback (most recent call last):
...
guts.errors.OptionError: openers: unknown value 'tens'; allowed: any, jacks, queens, kings, aces
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from guts.betting import Blinds, Limit, Structure
from guts.cards import DeckKind, Rank
from guts.errors import OptionError
from guts.games.options import RuleOptions
from guts.rankings.base import Ranking
from guts.rankings.high import HighRanking
from guts.rankings.low import LowRanking
from guts.rankings.stripped import StrippedRanking
from guts.rankings.wilds import JokerMode, Wilds
from guts.table import OddChipRule

__all__ = ["AMBIGUITIES", "BetsFrom", "DrawFrom", "DrawRules", "Openers"]


class Openers(StrEnum):
    """The least hand that may open the betting (``any``: no requirement)."""

    ANY = "any"
    JACKS = "jacks"
    QUEENS = "queens"
    KINGS = "kings"
    ACES = "aces"

    @property
    def rank(self) -> Rank | None:
        """The rank of the least pair that opens (None for ``any``)."""
        return _OPENING_RANKS[self._value_]  # (``value`` is a slower descriptor in 3.11)


_OPENING_RANKS = {"any": None, "jacks": Rank.JACK, "queens": Rank.QUEEN, "kings": Rank.KING,
                  "aces": Rank.ACE}  # fmt: skip
"""The least opening pair by the requirement's name (asked at every deal, round, draw)."""


class DrawFrom(StrEnum):
    """Who draws first."""

    DEALER_LEFT = "dealer-left"
    AFTER_BIG_BLIND = "after-big-blind"


class BetsFrom(StrEnum):
    """Who begins the betting rounds after the first."""

    OPENER = "opener"
    DEALER_LEFT = "dealer-left"


_DOCS: dict[str, str] = {
    "ante": "chips each player antes before a deal (0: none)",
    "limit": "betting structure: fixed, spread, pot or no-limit",
    "bet": "the first round's bet (fixed) or minimum bet",
    "big_bet": "later rounds' bet or minimum (none: twice bet)",
    "max_bet": "spread limit only: the first round's largest bet (later rounds double)",
    "raise_cap": "raises allowed after the opening bet (none: no cap)",
    "cap_heads_up": "whether the raise cap still applies heads-up",
    "check_raise": "whether a player who checked may raise later in the round",
    "blind": "the big blind posted by dealer's left in the first round (0: no blinds)",
    "small_blind": "a small blind before the big blind (0: none)",
    "straddles": "how many straddles follow the blind, each twice the previous",
    "hand_size": "cards dealt to each player (5; 7 for Seven Card Draw)",
    "max_draw": "most cards a player may draw",
    "four_with_ace": "a player may draw four by showing an ace kept as the fifth card",
    "draws": "how many drawing rounds (each followed by a betting round)",
    "later_draw_max": "most cards drawn in the drawing rounds after the first",
    "draw_from": "who draws first: dealer-left or after-big-blind",
    "later_bets_from": "who begins later betting rounds: opener or dealer-left",
    "double_last_bet": "later rounds' minimum bet is twice the first round's final bet",
    "reshuffle": "if the stock runs out, discards are shuffled into a new stock",
    "reshuffle_own": "the drawing player's own discards go into that new stock too",
    "openers": "least hand to open: any, or a pair of jacks/queens/kings/aces or better",
    "progressive": "nobody opens: the requirement goes J, Q, K, A, K, Q, J ...",
    "enforce_openers": "refuse an opening bet without openers (no: the opener must prove)",
    "trips_to_win": "three of a kind or better is needed to win the pot",
    "wild": "wild cards: ranks like 2 and cards like Js (empty: none)",
    "jokers": "jokers added to the pack (0, 1 or 2)",
    "joker": "how a joker plays in high hands: bug or wild",
    "wild_widow": "a card turned up during the deal makes the other three of its rank wild",
    "widow_after": "the widow is turned up after this many rounds of dealing",
    "declare": "players declare their hands at the showdown (cards do not speak)",
    "diablo": "the opener must win the pot or make a new pot equal to the one won",
    "diablo_cap": "Diablo: the most the opener's new pot may be (none: no cap)",
    "jacks_back": "nobody opens: the same hands play ace-to-five lowball",
    "lowball_blind": "Jacks Back: dealer's left posts a blind when the game turns low",
    "lowball_check_raise": "Jacks Back: check-raise allowed in the lowball part",
    "all_for_one": "All for One: repeated draws of none, one or all five cards",
    "pat_round_ends": "All for One: a drawing round where everyone stands pat ends drawing",
    "stripped": "32-card pack, seven to ace, with the 32-card poker ranking",
    "bosnian": "a four-card draw takes three down, then one of a face-up/face-down pair",
    "min_players": "fewest players (none: the text's, 4 for Jacks or Better, 3 for Jacks Back, "
    "else 2)",
    "max_players": "most players (none: the text's, 6; 5 for Jacks Back and the 32-card pack, 4 "
    "for Seven Card Draw; at most 8, 5 with the 32-card pack)",
    "credit": "stacks may go negative (no: table stakes, with all-ins and side pots)",
    "odd_chips": "who gets the odd chips of a split pot",
    "max_deals": "stop after this many deals (none: when a pot is won)",
}

AMBIGUITIES = """Decisions where the text is open (each is an option or documented here):
- A session lasts until a pot is won (thrown-in deals carry the pot; Diablo: until the
  opener wins); max-deals plays a fixed number of deals instead.
- enforce-openers=no lets anyone open; an opener who cannot prove has a dead hand.
- Splitting openers is detected by the engine: the opener splits when the kept cards alone
  no longer beat the requirement; all the opener's discards are then kept apart and shown
  when the pot is awarded. The proof shows the cards of the opening hand that qualify.
- Reshuffle: the stock is dealt out first, then the discards of those who already drew
  (not the drawer's own unless reshuffle-own, never split openers) form the new stock.
  A player may draw only as many cards as could be supplied.
- Trips to Win: after a pot nobody won, those who folded before the draw stay out of the
  game until that pot is won, through any deals thrown in meanwhile; if fewer than two
  players stayed to the draw (or still have chips), everyone plays the next deal.
- A first betting round in which no two players in the hand have chips to bet (the others
  all in on their antes) is not thrown in for want of an opener: the hand is played out.
- Diablo: antes are placed on the first deal and after a throw-in, never on a deal played
  for the opener's new pot; an opener who takes any share of the pot has won.
- Declare: a hand declared above what it holds is dead; one declared below it ranks
  under every correctly declared hand of the declared category.
- All for One: pat-round-ends stops the drawing when a whole drawing round stands pat.
- The second drawing round of two draws allows standing pat or drawing up to
  later-draw-max cards.
- The opener proves openers whenever still in the hand when the deal ends (shown or not);
  a player left alone when all others fold without any bet takes the pot, no proof.
- Jacks Back's lowball betting round uses the first round's bet size; the betting-sevens
  rule of California Lowball is not described in the text and is not offered.
- Seven Card Draw: cards speak, so each hand plays its best five of seven.
- Wild Widow: a joker turned up as the widow makes no rank wild.
- Straddles that would need more players than are dealt in are not posted."""


@dataclass(frozen=True)
class DrawRules(RuleOptions):
    """The options of a draw poker game. Defaults are basic Five Card Draw.

    Build variants with :meth:`from_options` or :func:`dataclasses.replace`;
    contradictory options raise OptionError here.
    """

    family = "draw poker"
    option_docs = _DOCS

    ante: int = 1
    limit: Limit = Limit.FIXED
    bet: int = 1
    big_bet: int | None = None
    max_bet: int | None = None
    raise_cap: int | None = 4
    cap_heads_up: bool = True
    check_raise: bool = True
    blind: int = 0
    small_blind: int = 0
    straddles: int = 0
    hand_size: int = 5
    max_draw: int = 3
    four_with_ace: bool = False
    draws: int = 1
    later_draw_max: int = 2
    draw_from: DrawFrom = DrawFrom.DEALER_LEFT
    later_bets_from: BetsFrom = BetsFrom.OPENER
    double_last_bet: bool = False
    reshuffle: bool = True
    reshuffle_own: bool = False
    openers: Openers = Openers.ANY
    progressive: bool = False
    enforce_openers: bool = False
    trips_to_win: bool = False
    wild: str = ""
    jokers: int = 0
    joker: str = "bug"
    wild_widow: bool = False
    widow_after: int = 4
    declare: bool = False
    diablo: bool = False
    diablo_cap: int | None = None
    jacks_back: bool = False
    lowball_blind: bool = False
    lowball_check_raise: bool = True
    all_for_one: bool = False
    pat_round_ends: bool = True
    stripped: bool = False
    bosnian: bool = False
    min_players: int | None = None
    max_players: int | None = None
    credit: bool = False
    odd_chips: OddChipRule = OddChipRule.NEAREST_LEFT
    max_deals: int | None = None

    def __post_init__(self) -> None:
        self.check_options()
        for problem in _contradictions(self):
            raise OptionError(problem)
        self.structure()  # the betting structure's own checks run now

    def describe(self) -> str:
        """Every option, its value and meaning, then the decisions taken where the text is open."""
        body = self.option_lines()
        head = [f"Hands: {self.hand_size} cards, {self.high_ranking().name} ranking, "
                f"{self.wilds().describe()}", self.players_text(), "Options:"]  # fmt: skip
        return "\n".join([*head, *body, "", AMBIGUITIES])

    # -- derived ----------------------------------------------------------------------------

    @property
    def player_limit(self) -> int:
        """The most players: ``max_players``, else the text's: six ("six players is
        normally set as the maximum"), five for the 32-card pack ("the maximum number of
        players is five") and Jacks Back ("say 3 to 5 players"), four for Seven Card Draw
        ("does not work well with more than four players")."""
        if self.max_players is not None:
            return self.max_players
        if self.hand_size == 7:
            return 4
        return 5 if self.stripped or self.jacks_back else 6

    @property
    def fewest_players(self) -> int:
        """The fewest players: ``min_players``, else the text's: four for Jacks or Better
        and its variations ("there should be at least four players"), three for Jacks Back
        ("works well for smaller groups, say 3 to 5 players"), else two."""
        if self.min_players is not None:
            return self.min_players
        if self.jacks_back:
            return 3
        return 2 if self.openers is Openers.ANY else 4

    def players_text(self) -> str:
        """The player count in words, for the rules text."""
        return (f"Players: {self.fewest_players} to {self.player_limit}, as the rule text says "
                f"(min-players and max-players allow 2 to {_most_players(self)})")  # fmt: skip

    def check_players(self, count: int) -> None:
        """Raise OptionError unless ``count`` players may play, naming the option to change."""
        low, high = self.fewest_players, self.player_limit
        if not low <= count <= high:
            option = "min-players" if count < low else "max-players"
            can = 2 <= count < low or high < count <= _most_players(self)
            raise OptionError(f"this game takes {low} to {high} players, not {count}"
                              + (f" (see {option})" if can else ""))  # fmt: skip

    def wilds(self) -> Wilds:
        """The wild cards agreed in advance (the widow's rank is added per deal)."""
        return Wilds.parse(self.wild, JokerMode.parse(self.joker))

    def high_ranking(self, widow: Rank | None = None) -> Ranking:
        """The high ranking, with ``widow``'s rank wild for Wild Widow (rankings are
        immutable: one per widow rank is made and kept)."""
        kept = self._high_rankings.get(widow)
        if kept is None:
            kept = self._high_rankings[widow] = self._new_high_ranking(widow)
        return kept

    @cached_property
    def _high_rankings(self) -> dict[Rank | None, Ranking]:
        return {}

    def _new_high_ranking(self, widow: Rank | None) -> Ranking:
        if self.stripped:
            return StrippedRanking()
        wilds = self.wilds()
        if widow is not None:
            wilds = wilds.with_rank(widow)
        return HighRanking(wilds=wilds, jokers=self.jokers)

    def low_ranking(self) -> LowRanking:
        """Ace-to-five low for Jacks Back (a joker is the fitter)."""
        return LowRanking(jokers=self.jokers)

    @property
    def deck(self) -> DeckKind:
        """The pack: 52 cards, 53/54 with jokers, or the 32-card stripped pack."""
        if self.stripped:
            return DeckKind.STRIPPED
        return _PACKS[self.jokers]

    def structure(self, *, check_raise: bool | None = None) -> Structure:
        """The betting structure (``check_raise`` overrides it, for Jacks Back's lowball);
        structures are immutable: one per override is made and kept."""
        kept = self._structures.get(check_raise)
        if kept is None:
            kept = self._structures[check_raise] = self._new_structure(check_raise)
        return kept

    @cached_property
    def _structures(self) -> dict[bool | None, Structure]:
        return {}

    def _new_structure(self, check_raise: bool | None) -> Structure:
        spread = self.limit is Limit.SPREAD
        return Structure(
            self.limit,
            self.bet,
            self.big_bet,
            small_max=self.max_bet if spread else None,
            raise_cap=self.raise_cap,
            cap_heads_up=self.cap_heads_up,
            check_raise=self.check_raise if check_raise is None else check_raise,
        )

    def blinds(self) -> Blinds | None:
        """The first round's blinds, if any."""
        if not self.blind:
            return None
        return Blinds(self.blind, small=self.small_blind or None, straddles=self.straddles)

    def draw_limit(self, draw_index: int) -> int:
        """The most cards a player may draw in drawing round ``draw_index`` (0 first)."""
        if self.all_for_one:
            return self.hand_size
        return self.max_draw if draw_index == 0 else self.later_draw_max


_PACKS = (DeckKind.STANDARD, DeckKind.ONE_JOKER, DeckKind.TWO_JOKERS)
"""The full pack by its number of jokers (read at every deal)."""


def _most_players(r: DrawRules) -> int:
    """The most players any option allows: 8, 5 with the 32-card pack."""
    return 5 if r.stripped else 8


def _contradictions(r: DrawRules) -> list[str]:
    """Every reason these options cannot be played together (empty if they can)."""
    problems: list[str] = []

    def need(condition: bool, message: str) -> None:
        if not condition:
            problems.append(message)

    need(r.ante >= 0, f"ante: cannot be negative, not {r.ante}")
    need(r.ante > 0 or r.blind > 0, "ante and blind are both 0: the pot would start empty")
    need(5 <= r.hand_size <= 7, f"hand-size: 5 to 7 cards, not {r.hand_size}")
    need(0 <= r.max_draw <= r.hand_size, f"max-draw: 0 to {r.hand_size}, not {r.max_draw}")
    need(0 <= r.later_draw_max <= r.hand_size, f"later-draw-max: 0 to {r.hand_size}")
    need(1 <= r.draws <= 3, f"draws: 1 to 3 drawing rounds, not {r.draws}")
    need(not r.four_with_ace or r.max_draw == 3, "four-with-ace needs max-draw=3")
    need(r.blind >= 0 and r.small_blind >= 0 and r.straddles >= 0, "blinds cannot be negative")
    need(r.blind > 0 or (r.small_blind == 0 and r.straddles == 0),
         "small-blind and straddles need a blind")  # fmt: skip
    need(r.small_blind <= r.blind, "small-blind: cannot be more than the blind")
    need(r.draw_from is DrawFrom.DEALER_LEFT or r.blind > 0,
         "draw-from=after-big-blind needs a blind")  # fmt: skip
    need(r.openers is Openers.ANY or r.blind == 0,
         "openers: an opening requirement cannot be played with blinds")  # fmt: skip
    need(not r.progressive or r.openers is Openers.JACKS, "progressive needs openers=jacks")
    need(not r.jacks_back or r.openers is not Openers.ANY, "jacks-back needs openers (jacks)")
    need(not (r.jacks_back and r.declare), "declare is not supported with jacks-back")
    need(not (r.jacks_back and r.diablo), "jacks-back and diablo cannot be combined")
    need(r.jokers in (0, 1, 2), f"jokers: 0, 1 or 2, not {r.jokers}")
    need(r.joker in ("bug", "wild"), f"joker: bug or wild, not {r.joker!r}")
    need(not r.stripped or not (r.wild or r.jokers or r.wild_widow or r.jacks_back),
         "stripped: the 32-card ranking has no wild cards, jokers or lowball")  # fmt: skip
    need(not r.bosnian or r.max_draw >= 4, "bosnian needs max-draw of at least 4")
    need(not r.bosnian or not r.all_for_one, "bosnian and all-for-one cannot be combined")
    need(not r.all_for_one or (r.hand_size == 5 and r.draws == 1 and not r.four_with_ace
                                and not r.jacks_back),
         "all-for-one: five-card hands, no draws, four-with-ace or jacks-back options")  # fmt: skip
    need(1 <= r.widow_after < r.hand_size, f"widow-after: 1 to {r.hand_size - 1}")
    need(r.diablo_cap is None or r.diablo_cap >= 1, "diablo-cap: at least 1 chip, or none")
    most = _most_players(r)
    need(r.max_players is None or 2 <= r.max_players <= most,
         f"max-players: 2 to {most}, not {r.max_players}")  # fmt: skip
    need(r.min_players is None or 2 <= r.min_players <= most,
         f"min-players: 2 to {most}, not {r.min_players}")  # fmt: skip
    need(bool(problems) or r.fewest_players <= r.player_limit,
         f"min-players ({r.fewest_players}) is above max-players ({r.player_limit})")  # fmt: skip
    need(r.max_deals is None or r.max_deals >= 1, "max-deals: at least 1, or none")
    if not r.stripped and not problems:
        try:
            r.wilds()
        except OptionError as error:
            problems.append(f"wild: {error}")
    return problems
