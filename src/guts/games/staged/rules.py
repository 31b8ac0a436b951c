"""The options of the staged games: one frozen dataclass, :class:`StagedRules`.

Three Five Seven, Napalm, Nuts and Toh deal in stages; at each stage players declare in
or out, a lone player in scores a point (a *leg*, a *nut*, a Toh *point*) and enough
points take the pot. Every field is a custom from the rule text with the text's default;
``auto`` values resolve by the game. Options are set by name from strings:

>>> rules = StagedRules.from_options(None, {"cumulative-wilds": "yes"})
>>> [stage.wild for stage in rules.stages()]
[(3,), (3, 5), (3, 5, 7)]
>>> StagedRules.from_options(None, {"payment": "half"})
Traceback (most recent call last):
...
guts.errors.OptionError: payment: unknown value 'half'; allowed: auto, pay-winner, match-pot
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from math import ceil
from typing import ClassVar, TypeVar

from guts.cards import Rank
from guts.errors import OptionError
from guts.games.options import RuleOptions, dash
from guts.rankings.base import Ranking
from guts.rankings.high import HighRanking
from guts.rankings.low import LowRanking
from guts.rankings.single import SingleCardRanking
from guts.rankings.small import ThreeCardRanking, TwoCardRanking
from guts.rankings.wilds import Wilds
from guts.table import OddChipRule

__all__ = ["Declare", "Game", "LowPairs", "Payment", "Stage", "StagedRules", "TohLone", "TohNobody"]


class Game(StrEnum):
    """Which staged game is played."""

    THREE_FIVE_SEVEN = "three-five-seven"
    NAPALM = "napalm"
    NUTS = "nuts"
    TOH = "toh"


class Declare(StrEnum):
    """How players declare: agreed in advance, or chosen by each dealer before the deal."""

    AUTO = "auto"
    IN_TURN = "in-turn"
    SIMULTANEOUS = "simultaneous"
    DEALER_CHOICE = "dealer-choice"


class Payment(StrEnum):
    """What a player who stayed in and lost pays."""

    AUTO = "auto"
    PAY_WINNER = "pay-winner"
    """The amount of the pot, to each winner; the pot itself is untouched."""
    MATCH_POT = "match-pot"
    """The amount of the pot, into the pot."""


class LowPairs(StrEnum):
    """How a pair counts in a low stage (Nuts' "pairs are strong")."""

    AUTO = "auto"
    STRONG = "strong"
    """Any hand with a pair beats every hand without one (pairs stay strong hands)."""
    BAD = "bad"
    """Ace-to-five lowball: a pair is worse than any hand without one."""


class TohLone(StrEnum):
    """Toh: what a player who alone stays in gets."""

    POINT = "point"
    """They keep their card face up as a point, and nobody pays."""
    NOTHING = "nothing"
    """Nothing happens; the cards are discarded."""


class TohNobody(StrEnum):
    """Toh: what happens when nobody stays in (even after the dealer's second chance)."""

    NOTHING = "nothing"
    ANTE = "ante"
    """Everyone puts the ante into the pot."""


@dataclass(frozen=True)
class Stage:
    """One stage of a deal: cards dealt now, the hand size, how hands rank, who sees."""

    number: int
    deal: int
    size: int
    low: bool
    wild: tuple[int, ...]
    private: bool
    ranking: Ranking

    @property
    def label(self) -> str:
        """``"3-card hands, high, threes wild, compared privately"``."""
        words = [f"{self.size}-card hands", "low" if self.low else "high"]
        if self.wild:
            plurals = [Rank(r).plural for r in self.wild]
            joined = ", ".join(plurals[:-1]) + " and " if len(plurals) > 1 else ""
            words.append(joined + plurals[-1] + " wild")
        words.append("compared privately" if self.private else "shown to all")
        return ", ".join(words)


_DEALS: dict[Game, tuple[tuple[int, bool], ...]] = {
    Game.THREE_FIVE_SEVEN: ((3, False), (2, False), (2, False)),
    Game.NAPALM: ((2, False), (3, True), (2, False)),
    Game.NUTS: ((2, True), (1, False), (1, True), (1, False)),
    Game.TOH: ((1, False),),
}
"""Cards dealt at each stage and whether the stage plays for low."""

_AutoT = TypeVar("_AutoT", Declare, Payment, LowPairs)

_WORD = {Game.THREE_FIVE_SEVEN: "leg", Game.NAPALM: "leg", Game.NUTS: "nut", Game.TOH: "point"}


_DOCS: dict[str, str] = {
    "game": "three-five-seven, napalm, nuts or toh",
    "ante": "chips each player antes at each deal (Nuts: each round; Toh: the seed, paid once"
    " by the first dealer)",
    "declare": "in-turn (dealer's left first, dealer last), simultaneous, or dealer-choice "
    "(each dealer picks one of those before dealing); auto: simultaneous for Nuts, else in-turn",
    "points": "legs (nuts, points) that take the pot; none: 3, Toh by the player count",
    "payment": "losers who stayed in: pay-winner (the pot's amount to each winner, the pot "
    "untouched) or match-pot; auto: match-pot for Toh, else pay-winner",
    "wilds": "wild ranks per stage separated by '/' (3/5/7), or none; auto: 3/5/7 for Three "
    "Five Seven, none otherwise",
    "cumulative_wilds": "crazy: the wild ranks of earlier stages stay wild",
    "low_pairs": "in low stages: strong (a pair beats any hand without one) or bad (ace-to-"
    "five, a pair is worse); auto: strong for Nuts, bad for Napalm",
    "private": "stages compared privately (only those in see the hands): numbers like 1,2, "
    "or none; auto: 1,2 for Three Five Seven and Napalm, none otherwise",
    "toh_lone": "Toh: a player alone in keeps the card as a point (point) or nothing happens",
    "toh_nobody_in": "Toh: nobody in: nothing, or everyone antes (ante)",
    "announce_last_hand": "Toh: announce the last hand before a reshuffle",
    "min_players": "fewest players (none: the rule text's, 4 for Toh, else 2)",
    "max_players": "most players (none: the rule text's, 10 for Toh, else as many as the pack "
    "deals every hand)",
    "max_deals": "end the session after this many deals (Toh: hands)",
    "credit": "credit: stacks may go negative, settled at the end (no: table stakes)",
    "odd_chips": "who gets the odd chips when the pot is shared out on stopping",
}


@dataclass(frozen=True)
class StagedRules(RuleOptions):
    """The options of a staged game; the defaults are the rule text's Three Five Seven.

    Build variants with :meth:`from_options` (strings by option name, ``-`` or ``_``) or
    :func:`dataclasses.replace`; bad or contradictory values raise OptionError. Listing,
    parsing and formatting options come from :class:`guts.games.options.RuleOptions`.
    """

    family: ClassVar[str] = "staged-game"
    option_docs: ClassVar[Mapping[str, str]] = _DOCS

    game: Game = Game.THREE_FIVE_SEVEN
    ante: int = 1
    declare: Declare = Declare.AUTO
    points: int | None = None
    payment: Payment = Payment.AUTO
    wilds: str = "auto"
    cumulative_wilds: bool = False
    low_pairs: LowPairs = LowPairs.AUTO
    private: str = "auto"
    toh_lone: TohLone = TohLone.POINT
    toh_nobody_in: TohNobody = TohNobody.NOTHING
    announce_last_hand: bool = True
    min_players: int | None = None
    max_players: int | None = None
    max_deals: int | None = None
    credit: bool = True
    odd_chips: OddChipRule = OddChipRule.NEAREST_LEFT

    def __post_init__(self) -> None:
        self.check_options()
        for problem in _contradictions(self):
            raise OptionError(problem)
        self.stages()  # builds every ranking, so their own checks run now

    # -- resolved values ----------------------------------------------------------------------

    @property
    def word(self) -> str:
        """What a lone player scores: leg, nut or point."""
        return _WORD[self.game]

    @property
    def declare_mode(self) -> Declare:
        """How declarations are made (``auto``: simultaneous for Nuts, else in turn)."""
        nuts = self.game is Game.NUTS
        return _resolved(self.declare, Declare.SIMULTANEOUS if nuts else Declare.IN_TURN)

    @property
    def payment_rule(self) -> Payment:
        """What losers pay (``auto``: Toh's losers match the pot, others pay the winner)."""
        toh = self.game is Game.TOH
        return _resolved(self.payment, Payment.MATCH_POT if toh else Payment.PAY_WINNER)

    @property
    def pairs_rule(self) -> LowPairs:
        """Pairs in low stages (``auto``: strong in Nuts, bad in Napalm)."""
        nuts = self.game is Game.NUTS
        return _resolved(self.low_pairs, LowPairs.STRONG if nuts else LowPairs.BAD)

    @property
    def is_toh(self) -> bool:
        """True for Toh (one card a hand, a stock kept from hand to hand)."""
        return self.game is Game.TOH

    @property
    def cards_per_player(self) -> int:
        """Cards a player holds at the end of a deal."""
        return sum(deal for deal, _ in _DEALS[self.game])

    @property
    def pack_players(self) -> int:
        """The most players the pack deals a whole deal to (Toh: one card each)."""
        return 52 // self.cards_per_player

    @property
    def player_range(self) -> tuple[int, int]:
        """The fewest and most players: ``min-players`` and ``max-players``, else the
        rule text's (Toh "is designed for 4 to 10 people"; the other games name no count,
        so 2 to as many as the pack deals)."""
        low = self.min_players if self.min_players is not None else 4 if self.is_toh else 2
        high = self.max_players
        if high is None:
            high = 10 if self.is_toh else self.pack_players
        return low, high

    def check_players(self, count: int) -> None:
        """Raise OptionError unless ``count`` players may play, naming the option to change."""
        low, high = self.player_range
        if not low <= count <= high:
            option = "min-players" if count < low else "max-players"
            raise OptionError(
                f"{self.game.value} is for {low} to {high} players, not {count} (see {option})"
            )

    def target(self, players: int) -> int:
        """Points needed to take the pot: ``points``, else 3, else Toh's by player count
        (4 or fewer players 5 points, 8 or more 3, in between rounded up: 5 → 5, 6 → 4,
        7 → 4).

        >>> [StagedRules(game=Game.TOH).target(n) for n in (3, 4, 5, 6, 7, 8, 10)]
        [5, 5, 5, 4, 4, 3, 3]
        """
        if self.points is not None:
            return self.points
        if not self.is_toh:
            return 3
        return max(3, min(5, ceil(5 - (players - 4) / 2)))

    def stage_wilds(self) -> tuple[tuple[int, ...], ...]:
        """The wild ranks of each stage (cumulative-wilds included)."""
        count = len(_DEALS[self.game])
        text = self.wilds.strip().lower()
        if text == "auto":
            text = "3/5/7" if self.game is Game.THREE_FIVE_SEVEN else "none"
        parts = ["none"] * count if text in ("none", "") else text.split("/")
        if len(parts) != count:
            raise OptionError(
                f"wilds: {count} stages need {count} parts separated by '/' "
                f"(like 3/5/7, or none), not {self.wilds!r}"
            )
        stages = [_wild_ranks(part) for part in parts]
        if self.cumulative_wilds:
            stages = [tuple(sorted({r for s in stages[: k + 1] for r in s})) for k in range(count)]
        return tuple(stages)

    def private_stages(self) -> frozenset[int]:
        """The stages whose comparison only the players in see."""
        text = self.private.strip().lower()
        if text == "auto":
            three_stage = self.game in (Game.THREE_FIVE_SEVEN, Game.NAPALM)
            return frozenset({1, 2}) if three_stage else frozenset()
        if text in ("none", ""):
            return frozenset()
        count = len(_DEALS[self.game])
        try:
            numbers = frozenset(int(part) for part in text.split(","))
        except ValueError:
            numbers = frozenset({0})
        if not numbers <= set(range(1, count + 1)):
            raise OptionError(
                f"private: stage numbers 1 to {count} separated by commas, or none, "
                f"not {self.private!r}"
            )
        return numbers

    def stages(self) -> tuple[Stage, ...]:
        """Every stage of a deal, in order."""
        wilds, private = self.stage_wilds(), self.private_stages()
        stages: list[Stage] = []
        size = 0
        for number, ((deal, low), wild) in enumerate(zip(_DEALS[self.game], wilds, strict=True), 1):
            size += deal
            ranking = self._ranking(size, low, wild)
            stages.append(Stage(number, deal, size, low, wild, number in private, ranking))
        return tuple(stages)

    def _ranking(self, size: int, low: bool, wild: tuple[int, ...]) -> Ranking:
        wilds = Wilds.of(wild)
        try:
            if self.is_toh:
                return SingleCardRanking()
            if low:
                return LowRanking(pairs=self.pairs_rule.value, wilds=wilds)  # type: ignore[arg-type]
            if size == 3 and self.game is Game.THREE_FIVE_SEVEN:
                return ThreeCardRanking(straights=False, flushes=False, ace_low=False, wilds=wilds)
            if size == 2:
                return TwoCardRanking(wilds=wilds)
            return HighRanking(wilds=wilds)
        except OptionError as error:
            raise OptionError(f"wilds/low-pairs: {error}") from None

    # -- text -----------------------------------------------------------------------------------

    def describe(self) -> str:
        """The rules text: the stages, every option with its value and meaning, and every
        choice made where the rule text is open."""
        body = self.option_lines()
        low, high = self.player_range
        source = (
            'the rule text: "designed for 4 to 10 people"'
            if self.is_toh
            else "the rule text names no count: as many as the pack deals"
        )
        head = [
            f"Game: {self.game.value}",
            f"Players: {low} to {high} ({source}; options min-players, max-players)",
            "Stages:",
        ]
        for stage in self.stages():
            cards = f"{stage.deal} card{'s' if stage.deal > 1 else ''}"
            head.append(f"  Stage {stage.number}: {cards} to each player; {stage.label}")
        target = str(self.target(4))
        if self.is_toh and self.points is None:
            target = "by the player count: up to 5 players 5, 6 or 7 players 4, 8 or more 3"
        head += [
            f"Declarations: {self.declare_mode.value}; losers pay: {self.payment_rule.value}; "
            f"{self.word}s to take the pot: {target}",
            "Options:",
        ]
        return "\n".join([*head, *body, "", _CHOICES[self.game], "", COMMON])


_CHOICES: dict[Game, str] = {
    Game.THREE_FIVE_SEVEN: """\
Three Five Seven, as the rule text: everyone antes; three cards face down, declare; two
more to everyone (also those who were out), declare; two more, declare. At each stage
nobody in: nothing happens; one in: a leg; two or more in compare (stages one and two
privately: the hands are shown only to the players who are in), and each who did not
have the best hand pays the amount of the pot to each winner; the pot is untouched.
Stage one: trips > pairs > unmatched cards, no straights or flushes, threes wild; stage
two: the five cards, normal poker ranking, fives wild; stage three: best five of seven,
sevens wild, shown to all. The third leg at any stage takes the whole pot and ends the
game; otherwise after stage three everyone keeps their legs, antes again, and the next
dealer deals.""",
    Game.NAPALM: """\
Napalm (Whipsaw), with Three Five Seven's mechanics (the rule text defers the details):
everyone antes; two cards face down, declare, played for high (pair > unmatched cards, no
straights or flushes); three more cards to everyone, declare, the five played for low
(ace-to-five: aces low, straights and flushes do not count, pairs are bad, A-2-3-4-5 is
best); two more, declare, best five of seven for high. No wild cards (option wilds).
Stages one and two are compared privately, stage three shown to all. One in scores a leg;
losers pay the amount of the pot to each winner; three legs take the pot.""",
    Game.NUTS: """\
Nuts: everyone puts the ante in the pot; declarations are simultaneous by default (Guts
players announce at the same time; the Nuts text does not say); two cards: the lowest
hand wins; third card: highest wins; fourth: lowest; fifth: highest. Low hands are
ace-to-five with every card playing (aces low, straights and flushes ignored); "pairs are
strong" is read by default as low-pairs=strong: a hand with a pair beats every hand
without one, pairs between themselves by high order (aces still low); low-pairs=bad reads
pairs as bad low hands.
High hands of three or five cards: high poker (three cards: trips > pair > high card; five:
every category), aces high. A lone player in gets a nut; two or more in show their hands
to all and each loser pays the amount of the pot to each winner. Three nuts take the pot
at once; nuts carry over: if nobody has three after the fifth card, a new round: everyone
adds the ante again and the next dealer deals.""",
    Game.TOH: """\
Toh: the first dealer seeds the pot with the ante (one chip); every hand each player gets
one card face down, from a stock kept from hand to hand (cards of a hand go to a discard
pile, point cards stay in front of their owners); when the stock cannot deal the next hand
the discards and the stock are shuffled together (the last hand before that is announced
with announce-last-hand). The deal rotates after every hand. In turn, from the dealer's
left, each says in or out; if only the dealer stays in, the others (in turn) get a second
chance. Two or more in: the cards are shown, the highest card wins (suits break ties:
clubs < diamonds < hearts < spades), each loser matches the pot (payment) and the winner
keeps the card face up as a point. A lone player in (a non-dealer, or the dealer whom
nobody challenged) keeps the card as a point (toh-lone=point) and nobody pays. Nobody in:
nothing happens (toh-nobody-in). The target is announced in advance: points, or by the
player count: 4 or fewer 5 points, 8 or more 3, in between rounded up (5: 5, 6: 4, 7: 4).
The first to the target takes the pot and the game ends.""",
}

COMMON = """\
Choices common to the staged games:
  - cards are dealt one at a time from the dealer's left, the dealer last.
  - dealer-choice: the dealer picks in-turn or simultaneous before dealing, for the whole deal.
  - in turn, nobody is ever put in automatically: if everyone is out, nothing happens.
  - ties for best: each loser pays every winner; if all who are in tie, nobody pays.
  - the amount of the pot is the pot as it stood when the comparison began (match-pot: every
    loser matches that same amount).
  - table stakes (credit=no): a player pays at most their stack; a player with no chips sits
    out; the session ends when fewer than two players have chips.
  - max-deals ends the session with the pot still on the table; stop() shares it out."""


# -- parsing and checking ----------------------------------------------------------------------


def _resolved(value: _AutoT, auto: _AutoT) -> _AutoT:
    """``value``, or ``auto`` where it is the ``auto`` member."""
    return auto if value == "auto" else value


def _wild_ranks(part: str) -> tuple[int, ...]:
    if part.strip() in ("none", "-", ""):
        return ()
    try:
        wilds = Wilds.parse(part)
    except OptionError as error:
        raise OptionError(f"wilds: {error}") from None
    if wilds.cards:
        raise OptionError(f"wilds: whole ranks only (like 3/5/7), not {part!r}")
    return tuple(sorted(int(r) for r in wilds.ranks))


def _contradictions(rules: StagedRules) -> list[str]:
    problems: list[str] = []
    if rules.ante < 1:
        problems.append(f"ante: must be at least 1 chip, not {rules.ante}")
    if rules.points is not None and rules.points < 1:
        problems.append(f"points: must be at least 1 (or auto), not {rules.points}")
    for name in ("min_players", "max_players"):
        value = getattr(rules, name)
        if value is not None and not 2 <= value <= rules.pack_players:
            problems.append(f"{dash(name)}: 2 to {rules.pack_players} players, not {value}")
    low, high = rules.player_range
    if not problems and low > high:
        problems.append(f"min-players ({low}) is above max-players ({high})")
    if rules.max_deals is not None and rules.max_deals < 1:
        problems.append(f"max-deals: must be at least 1 (or none), not {rules.max_deals}")
    if rules.is_toh:
        if rules.declare_mode is not Declare.IN_TURN:
            problems.append("declare: Toh is declared in turn (the dealer's second chance)")
        if rules.wilds.strip().lower() not in ("auto", "none", "") or rules.cumulative_wilds:
            problems.append("wilds: Toh has no wild cards")
    else:
        toh_only = {
            "toh_lone": TohLone.POINT,
            "toh_nobody_in": TohNobody.NOTHING,
            "announce_last_hand": True,
        }
        for name, default in toh_only.items():
            if getattr(rules, name) != default:
                problems.append(f"{dash(name)}: an option of Toh only")
    if rules.game in (Game.THREE_FIVE_SEVEN, Game.TOH) and rules.low_pairs is not LowPairs.AUTO:
        problems.append("low-pairs: only Napalm and Nuts have low stages")
    return problems
