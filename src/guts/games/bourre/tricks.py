"""The rules of play of Bourré: what a player may play, who takes a trick, who takes the hand.

Pure functions over cards, for the game's state machine to call. A trick is the sequence
of :class:`Play` made to it so far, in order; ``trump`` is the trump :class:`Suit`. Aces
are high; any trump beats any card of another suit; a card of neither the led suit nor
trumps (an *off card*) never wins.

The play rules (the text numbers them; a lower-numbered rule overrides a higher one):

1. follow suit if you can, even if your card cannot win (see ``head_in_suit``);
2. with no card of the led suit, play a trump, and play to win: a trump that beats every
   trump already in the trick (see ``play_to_win`` and ``must_trump_even_if_losing``);
3. with neither, play any card.

The leader may lead any card, except when the 'cinch win' rule forces a play
(:func:`cinch_forced`, off by default).

>>> from guts.cards import parse_card, parse_cards
>>> hand = parse_cards("2s As 9d Kc")
>>> trick = [Play(0, parse_card("Jh")), Play(1, parse_card("3s"))]
>>> sorted(legal_plays(hand, trick, Suit.SPADES))
[Card('As')]
>>> explain_illegal(parse_card("2s"), hand, trick, Suit.SPADES)
'you have no hearts, so you must play a trump that beats 3♠ if you can: you hold A♠'
>>> trick_winner(trick, Suit.SPADES)
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import cache
from typing import Any, get_type_hints

from guts.cards import Card, Rank, Suit, check_distinct
from guts.errors import GutsError, HandError, IllegalAction, OptionError
from guts.games.options import check_value, dash, format_value, parse_value

__all__ = [
    "TRICKS",
    "Play",
    "PlayContext",
    "Renege",
    "RenegeMode",
    "Result",
    "TrickRules",
    "bourre_cost",
    "cinch_cards",
    "cinch_forced",
    "explain_illegal",
    "hand_result",
    "is_legal",
    "judge_play",
    "legal_plays",
    "sure_tricks",
    "trick_winner",
]

TRICKS = 5
"""Tricks in a hand (five cards each)."""


class RenegeMode(StrEnum):
    """What happens to a card the play rules forbid."""

    STRICT = "strict"
    """The card is refused; the player must play a legal one."""
    POLICED = "policed"
    """The card stands and is recorded as a renege; the game treats it as a bourré."""
    RETRACT = "retract"
    """Retraction and renege: the card is taken back, the player must play a legal one,
    and the misplay still counts as a renege (a bourré)."""


_DOCS = {
    "play_to_win": "void in the led suit: a trump that beats the trumps played, if you hold one",
    "must_trump_even_if_losing": "void in the led suit: a trump even if none can win",
    "head_in_suit": "following suit: beat the highest card of the led suit if you can",
    "cinch": "a player certain to take the hand must play the winning trumps at once",
    "renege_mode": (
        "strict: an illegal card is refused; policed: it stands as a renege;"
        " retract: it is taken back but still counts as a renege"
    ),
}


@dataclass(frozen=True)
class TrickRules:
    """The options of trick play, with the text's defaults.

    ``play_to_win`` (yes): a player void in the led suit must trump *and* play to win: a
    trump beating every trump already in the trick, if they hold one. If none of their
    trumps can win they may play any card (the text: "it is not required to play a trump
    card that cannot possibly win"). With ``no``, a void player must play some trump
    (any one), winning or not.

    ``must_trump_even_if_losing`` (no): the variant in which a void player who cannot win
    the trick must still play a trump. It only changes anything with ``play_to_win``.

    ``head_in_suit`` (no): a player following suit must play a card of the led suit higher
    than the highest one in the trick, if they can, unless the trick has been trumped (a
    trump played on a non-trump lead): then any card of the led suit will do. On a trump
    lead this means beating the highest trump. Our reading of the text ("You must play
    on-suit if possible, even if your highest on-suit card will not beat the highest card
    in play") is that following suit is required and heading is not, so it is off.

    ``cinch`` (no): the 'cinch win' rule, defined exactly in :func:`cinch_cards`.

    ``renege_mode`` (strict): an illegal card is refused (:func:`judge_play` raises
    IllegalAction), or, when ``policed``, it stands and is recorded as a renege, which the
    game penalises as a bourré; when ``retract``, :func:`judge_play` returns the renege and
    the game takes the card back (the player plays again) and still penalises it.
    """

    play_to_win: bool = True
    must_trump_even_if_losing: bool = False
    head_in_suit: bool = False
    cinch: bool = False
    renege_mode: RenegeMode = RenegeMode.STRICT

    def __post_init__(self) -> None:
        hints = _hints()
        for item in fields(self):
            check_value(item.name, getattr(self, item.name), hints[item.name])

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The options as written on the command line (``play-to-win``)."""
        return tuple(dash(item.name) for item in fields(cls))

    @classmethod
    def from_options(cls, options: Mapping[str, str], base: TrickRules | None = None) -> TrickRules:
        """``base`` (the defaults if None) with ``options`` (name -> string) applied.

        >>> TrickRules.from_options({"cinch": "yes", "renege-mode": "policed"}).cinch
        True
        """
        changes: dict[str, Any] = {}
        names = {item.name for item in fields(cls)}
        for key, text in options.items():
            name = key.strip().lower().replace("-", "_")
            if name not in names:
                allowed = ", ".join(cls.option_names())
                raise OptionError(f"unknown Bourré play option {key!r}; allowed: {allowed}")
            changes[name] = parse_value(dash(name), str(text), _hints()[name])
        return replace(base if base is not None else cls(), **changes)

    def options(self) -> dict[str, str]:
        """Every option and its value, as strings."""
        return {dash(item.name): format_value(getattr(self, item.name)) for item in fields(self)}

    @staticmethod
    def describe_option(name: str) -> str:
        """What option ``name`` means, in a line."""
        return _DOCS[name.replace("-", "_")]


@cache
def _hints() -> dict[str, Any]:
    """Each play option's name -> its type hint."""
    return get_type_hints(TrickRules)


@dataclass(frozen=True)
class Play:
    """One card played to a trick, and by which seat."""

    seat: int
    card: Card


@dataclass(frozen=True)
class PlayContext:
    """What the player knows beyond the trick: used only by the cinch rule.

    ``played``: the cards known to be out of the play, at least every card played to an
    earlier trick of this hand (a game may add the player's own discards). ``tricks_won``:
    the tricks this player has taken; ``most_by_other``: the most any other player has taken.
    """

    played: frozenset[Card] = frozenset()
    tricks_won: int = 0
    most_by_other: int = 0


@dataclass(frozen=True)
class Renege:
    """An illegal card that stood (policed mode), and the rule it broke."""

    card: Card
    reason: str


# -- the play rules ------------------------------------------------------------------------


def legal_plays(
    hand: Iterable[Card],
    trick: Sequence[Play],
    trump: Suit,
    rules: TrickRules = TrickRules(),
    context: PlayContext = PlayContext(),
) -> frozenset[Card]:
    """The cards of ``hand`` the player may play to ``trick`` (never empty)."""
    cards = _checked(hand, trick, context)
    allowed, _ = _play_rule(cards, trick, trump, rules)
    forced = allowed & cinch_cards(cards, trick, trump, context) if rules.cinch else allowed
    return forced or allowed


def is_legal(
    card: Card,
    hand: Iterable[Card],
    trick: Sequence[Play],
    trump: Suit,
    rules: TrickRules = TrickRules(),
    context: PlayContext = PlayContext(),
) -> bool:
    """True if the player may play ``card``."""
    return explain_illegal(card, hand, trick, trump, rules, context) is None


def explain_illegal(
    card: Card,
    hand: Iterable[Card],
    trick: Sequence[Play],
    trump: Suit,
    rules: TrickRules = TrickRules(),
    context: PlayContext = PlayContext(),
) -> str | None:
    """Why ``card`` may not be played, in words for the player; None if it may."""
    cards = _checked(hand, trick, context)
    if card not in cards:
        return f"you do not hold {card}"
    allowed, why = _play_rule(cards, trick, trump, rules)
    if card not in allowed:
        return why
    forced = cinch_forced(cards, trick, trump, rules, context)
    if forced and card not in forced:
        return (
            "it is a cinch that you take the hand, so you must play your winning trumps"
            f" now: you hold {_list(forced)}"
        )
    return None


def judge_play(
    card: Card,
    hand: Iterable[Card],
    trick: Sequence[Play],
    trump: Suit,
    rules: TrickRules = TrickRules(),
    context: PlayContext = PlayContext(),
) -> Renege | None:
    """Judge a card the player puts down: None if legal, a :class:`Renege` if it stands.

    A card the player does not hold is always refused. An illegal card is refused in
    strict mode (IllegalAction, with the reason); in policed mode it stands as a renege, in
    retract mode it is a renege the game takes back.
    """
    cards = tuple(hand)
    why = explain_illegal(card, cards, trick, trump, rules, context)
    if why is None:
        return None
    if card not in cards or rules.renege_mode is RenegeMode.STRICT:
        raise IllegalAction(f"you cannot play {card}: {why}")
    return Renege(card, why)


def _checked(hand: Iterable[Card], trick: Sequence[Play], context: PlayContext) -> tuple[Card, ...]:
    cards = tuple(hand)
    if not cards:
        raise HandError("an empty hand has nothing to play")
    check_distinct(cards + tuple(play.card for play in trick))
    for card in cards:
        if card in context.played or card.is_joker:
            raise HandError(f"{card} cannot be in the hand: it has been played or is a joker")
    done = TRICKS - len(cards)
    if min(context.tricks_won, context.most_by_other) < 0 or done < 0:
        raise HandError("a Bourré hand has five cards and trick counts are not negative")
    if context.tricks_won + context.most_by_other > done:
        raise HandError(
            f"{context.tricks_won} and {context.most_by_other} tricks taken, but only"
            f" {done} have been played"
        )
    return cards


def _play_rule(
    hand: Sequence[Card], trick: Sequence[Play], trump: Suit, rules: TrickRules
) -> tuple[frozenset[Card], str]:
    """The cards rules 1-3 allow, and what they require in words ('' when anything goes)."""
    if not trick:
        return frozenset(hand), ""
    led = _suit(trick[0].card)
    on_suit = [card for card in hand if card.suit == led]
    if on_suit:
        return _follow(on_suit, trick, trump, rules)
    trumps = [card for card in hand if card.suit == trump]
    if not trumps:
        return frozenset(hand), ""
    void = f"you have no {led.name.lower()}, so you must"
    if not rules.play_to_win:
        return frozenset(trumps), f"{void} play a trump: you hold {_list(trumps)}"
    best = _highest(trick, trump)
    winners = [card for card in trumps if best is None or _rank(card) > best]
    if winners:
        if best is None:
            return frozenset(winners), f"{void} trump: you hold {_list(winners)}"
        beaten = Card.of(best, trump)
        need = f"{void} play a trump that beats {beaten} if you can"
        return frozenset(winners), f"{need}: you hold {_list(winners)}"
    if rules.must_trump_even_if_losing:
        need = f"{void} play a trump even though it cannot win"
        return frozenset(trumps), f"{need}: you hold {_list(trumps)}"
    return frozenset(hand), ""


def _follow(
    on_suit: list[Card], trick: Sequence[Play], trump: Suit, rules: TrickRules
) -> tuple[frozenset[Card], str]:
    led = _suit(trick[0].card)
    if rules.head_in_suit and (led is trump or _highest(trick, trump) is None):
        top = max(_rank(play.card) for play in trick if play.card.suit == led)
        higher = [card for card in on_suit if _rank(card) > top]
        if higher:
            need = f"you must beat {Card.of(top, led)} if you can"
            return frozenset(higher), f"{need}: you hold {_list(higher)}"
    return frozenset(on_suit), f"you must follow suit: you hold {_list(on_suit)}"


def _suit(card: Card) -> Suit:
    if card.suit is None:
        raise HandError("Bourré is played without jokers")
    return card.suit


def _rank(card: Card) -> Rank:
    if card.rank is None:
        raise HandError("Bourré is played without jokers")
    return card.rank


def _highest(trick: Sequence[Play], trump: Suit) -> Rank | None:
    """The rank of the highest trump in the trick, or None if there is none."""
    ranks = [_rank(play.card) for play in trick if play.card.suit == trump]
    return max(ranks) if ranks else None


def _list(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in sorted(cards, reverse=True))


# -- the cinch -----------------------------------------------------------------------------


def _ladder(
    hand: Sequence[Card], trick: Sequence[Play], trump: Suit, context: PlayContext
) -> list[tuple[Card, int]]:
    """The player's trumps, highest first, each with how many threats outrank it.

    The threats are the trumps that might still beat one of the player's: every trump not in
    the hand, not played to an earlier trick and not in the current trick, plus the highest
    trump already in the current trick (it can beat only the card played now).
    """
    seen = set(hand) | context.played | {play.card for play in trick}
    threats = [rank for rank in Rank if Card.of(rank, trump) not in seen]
    current = _highest(trick, trump)
    if current is not None:
        threats.append(current)
    mine = sorted((card for card in hand if card.suit == trump), reverse=True)
    return [(card, sum(1 for rank in threats if rank > _rank(card))) for card in mine]


def sure_tricks(
    hand: Iterable[Card],
    trick: Sequence[Play],
    trump: Suit,
    context: PlayContext = PlayContext(),
) -> int:
    """How many of the remaining tricks the player's trumps are certain to take.

    With the player's trumps t1 > t2 > ... and h_i threats (see :func:`cinch_cards`) above
    t_i, it is the largest i - h_i (or 0): of the top i trumps at least i - h_i win, since
    every card in the hand gets played, a trump above every remaining threat wins whatever
    trick it falls in, and each threat can beat at most one of them.

    >>> from guts.cards import parse_cards
    >>> sure_tricks(parse_cards("As Qs Js 4h"), [], Suit.SPADES)  # the king beats one
    2
    """
    ladder = _ladder(_checked(hand, trick, context), trick, trump, context)
    return max([0] + [i - threats for i, (_, threats) in enumerate(ladder, 1)])


def cinch_cards(
    hand: Iterable[Card],
    trick: Sequence[Play],
    trump: Suit,
    context: PlayContext = PlayContext(),
) -> frozenset[Card]:
    """The trumps the cinch rule makes the player play now (empty: no cinch).

    The definition: a player is *cinched* when their trumps alone make it certain they take
    more tricks than anyone else, whatever the unseen cards and however the others play.
    With ``r`` tricks left (the cards in hand), ``w`` taken and ``m`` the most taken by
    another player, they need ``s = (m + r - w) // 2 + 1`` more (an opponent could take every
    trick they do not), and they are cinched when ``1 <= s <= sure_tricks``. The cinch cards
    are their top ``i`` trumps for the smallest ``i`` with ``i - h_i >= s``: playing those
    'lays down the winning cards'; the player must play one of them now, if the play rules
    allow one (the play rules come first). Only trumps count: a non-trump card wins only
    when its suit is led, which the player cannot be sure of.

    The text's examples: having just taken a second trick, the ace of trumps (``s`` = 1,
    the ace has no threat); having taken one trick, the ace and king (``s`` = 2); or the
    ace, queen and jack: the unseen king can beat only one of the queen and jack, so two of
    the three win (i = 3, h_3 = 1).
    """
    cards = _checked(hand, trick, context)
    ladder = _ladder(cards, trick, trump, context)
    need = (context.most_by_other + len(cards) - context.tricks_won) // 2 + 1
    if need < 1:
        return frozenset()
    for i, (_, threats) in enumerate(ladder, 1):
        if i - threats >= need:
            return frozenset(card for card, _ in ladder[:i])
    return frozenset()


def cinch_forced(
    hand: Iterable[Card],
    trick: Sequence[Play],
    trump: Suit,
    rules: TrickRules = TrickRules(),
    context: PlayContext = PlayContext(),
) -> frozenset[Card]:
    """The cards the cinch rule forces now, among those the play rules allow (empty: none).

    Empty when ``rules.cinch`` is off, when the player is not cinched, or when the play
    rules allow none of the cinch cards (a suit led that the player must follow).
    """
    if not rules.cinch:
        return frozenset()
    cards = _checked(hand, trick, context)
    allowed, _ = _play_rule(cards, trick, trump, rules)
    return allowed & cinch_cards(cards, trick, trump, context)


# -- tricks and the hand ---------------------------------------------------------------------


def trick_winner(trick: Sequence[Play], trump: Suit) -> int:
    """The index in ``trick`` of the winning play: the highest trump, else the highest card
    of the led suit. Off cards lose."""
    if not trick:
        raise HandError("an empty trick has no winner")
    check_distinct([play.card for play in trick])
    led = _suit(trick[0].card)

    def strength(index: int) -> tuple[int, int]:
        card = trick[index].card
        suit, rank = _suit(card), _rank(card)
        return (2, rank) if suit is trump else (1, rank) if suit is led else (0, 0)

    return max(range(len(trick)), key=strength)


@dataclass(frozen=True)
class Result:
    """The outcome of a hand: who takes the pot and who has bourréd.

    ``tricks``: (seat, tricks taken) for each seat that played, by seat; ``winner``: the
    seat that took more tricks than any other, or None when the most tricks are tied (a
    split pot: the chips stay); ``bourre``: the seats that took no trick or reneged;
    ``reneged``: those that reneged.
    """

    tricks: tuple[tuple[int, int], ...]
    winner: int | None
    bourre: tuple[int, ...]
    reneged: tuple[int, ...] = ()

    @property
    def split(self) -> bool:
        """True on a split pot (a tie for most tricks): the winnings stay on the table."""
        return self.winner is None


def hand_result(tricks: Mapping[int, int], reneged: Iterable[int] = ()) -> Result:
    """The :class:`Result` from the tricks each playing seat took (five in all).

    A renege does not change who took the tricks: a reneging player who took the most still
    takes the pot (the text ties the pot to tricks alone) and also bourrés.

    >>> hand_result({0: 2, 1: 2, 3: 1, 4: 0})
    Result(tricks=((0, 2), (1, 2), (3, 1), (4, 0)), winner=None, bourre=(4,), reneged=())
    """
    counts = tuple(sorted(tricks.items()))
    if not counts or any(n < 0 for _, n in counts) or sum(n for _, n in counts) != TRICKS:
        raise HandError(f"the players' tricks must add up to {TRICKS}, not {dict(counts)}")
    bad = sorted(set(reneged) - set(tricks))
    if bad:
        raise HandError(f"seats {bad} reneged but did not play")
    most = max(n for _, n in counts)
    leaders = [seat for seat, n in counts if n == most]
    winner = leaders[0] if len(leaders) == 1 else None
    cheats = tuple(sorted(set(reneged)))
    bourre = tuple(seat for seat, n in counts if n == 0 or seat in cheats)
    return Result(counts, winner, bourre, cheats)


def bourre_cost(pot: int, limit: int | None = None) -> int:
    """What a bourré (or renege) costs: the pot, capped by the pot limit if there is one.

    >>> bourre_cost(40), bourre_cost(40, limit=25)
    (40, 25)
    """
    if pot < 0:
        raise GutsError(f"the pot cannot be negative ({pot})")
    if limit is not None and limit < 0:
        raise OptionError(f"pot-limit: expected a whole number of chips, not {limit}")
    return pot if limit is None else min(pot, limit)
