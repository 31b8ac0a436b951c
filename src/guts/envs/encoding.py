"""A seat's view as fixed-size numbers, and its decision as a fixed discrete action space.

Every research adapter (:mod:`guts.envs.pettingzoo`, :mod:`guts.envs.gymnasium`) shares
one :class:`Layout` per preset: the actions a seat of that game can ever take, numbered,
and how each number maps to an action of the engine's :class:`~guts.games.base.Decision`
(each family names its actions: its ``layout``, an
:class:`~guts.games.family.ActionLayout`):

- *words*: the family's one-word choices (``in``/``out``; ``high``/``low``/``both``;
  ``in-turn``/``simultaneous``; ``play``/``fold``; ``take up``/``take down``; the declared
  hands of Deuces Wild);
- *betting* (draw poker): fold, check, call, and a bet or raise of the least, the middle
  and the most size the rules allow now;
- *cards*: the card at a position of the hand (a Bourré card to play, a Guts card to pass);
- *discards*: a subset of hand positions, as a bit mask (bit ``i``: throw position ``i``).

An :class:`Encoder` turns a seat's :meth:`~guts.games.base.Session.view` (all it may see,
nothing more) into one float32 vector: its hand by position, the cards it sees of each
seat (seats counted from its own), the table's cards, the cards gone, per-seat chips and
declarations, and the decision it faces. Chips are scaled by the chips at the table.

>>> from guts.catalog import find_game
>>> layout = Layout.for_rules("guts", find_game("hi-lo-guts").rules(), seats=3)
>>> layout.names[:5], layout.size
(('in', 'out', 'high', 'low', 'both'), 5)
>>> from guts.games.decision import Decision
>>> decision = Decision.choose(0, ("high", "low", "both", "out"))
>>> layout.mask(decision).tolist(), layout.action(decision, 2)
([0, 1, 1, 1, 1], 'high')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from guts.betting.actions import Legal
from guts.cards import Card
from guts.catalog import family_of
from guts.errors import GutsError, IllegalAction
from guts.games.base import Decision
from guts.games.decision import Choose, Discard, PlayCard, Wager
from guts.games.family import ActionLayout

__all__ = ["BETS", "CARDS", "Encoder", "Layout", "card_index", "hand_positions"]

CARDS = 54
"""Card slots of an encoding: the 52 naturals by code, then the jokers (52, 53)."""

_INDEX = {Card(code).ascii: code for code in range(52)}

BETS = ("fold", "check", "call", "bet min", "bet mid", "bet max",
        "raise min", "raise mid", "raise max")  # fmt: skip
"""The betting actions of a draw game (sizes: the least, middle and most legal)."""

_SIZES = ("min", "mid", "max")
_KINDS = ("choose", "bet", "draw", "play")
_SEAT_FEATURES = 11
_GLOBAL_FEATURES = 29
BOUND = 1000.0
"""Every feature lies in [-BOUND, BOUND] (chip features are clipped there)."""


def card_index(code: str) -> int:
    """The slot of a card code (``As`` -> 51, ``Jk`` -> 52)."""
    if code == "Jk":
        return 52
    try:
        return _INDEX[code]
    except KeyError:
        raise GutsError(f"{code!r} is not a card code") from None


def hand_positions(family: str, rules: Any) -> int:
    """The most cards a seat of ``family`` played by ``rules`` holds at once."""
    return _layout(family, rules).hand


def _layout(family: str, rules: Any) -> ActionLayout:
    layout = family_of(family).layout
    if layout is None:
        raise GutsError(f"no encoding for the {family!r} family")
    return layout(rules)


@dataclass(frozen=True)
class Layout:
    """The fixed discrete actions of one game: words, then betting, cards, discards."""

    family: str
    words: tuple[str, ...]
    betting: bool
    cards: int
    discards: int
    hand: int
    seats: int
    laid_out: str = ""

    @classmethod
    def for_rules(cls, family: str, rules: Any, seats: int) -> Layout:
        """The layout of a ``family`` game played by ``rules`` with ``seats`` seats."""
        actions = _layout(family, rules)
        return cls(
            family=family,
            words=actions.words,
            betting=actions.betting,
            cards=actions.cards,
            discards=actions.discards,
            hand=actions.hand,
            seats=seats,
            laid_out=actions.laid_out,
        )

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Each action's name, by number."""
        names = list(self.words)
        if self.betting:
            names += BETS
        names += [f"card {i}" for i in range(self.cards)]
        for bits in range(1 << self.discards if self.discards else 0):
            thrown = [str(i) for i in range(self.discards) if bits >> i & 1]
            names.append("discard " + " ".join(thrown) if thrown else "stand pat")
        return tuple(names)

    @property
    def size(self) -> int:
        """The number of actions."""
        return len(self.names)

    @cached_property
    def _bet_start(self) -> int:
        return len(self.words)

    @cached_property
    def _card_start(self) -> int:
        return self._bet_start + (len(BETS) if self.betting else 0)

    @cached_property
    def _discard_start(self) -> int:
        return self._card_start + self.cards

    def legal(self, decision: Decision | None) -> dict[int, str]:
        """The legal action numbers of ``decision`` and the engine action each stands for."""
        if decision is None:
            return {}
        options = decision.options
        if isinstance(options, Choose):
            return self._choose(options)
        if isinstance(options, Wager):
            return self._wager(options.legal)
        if isinstance(options, Discard):
            return self._discard(options)
        return self._play(options)

    def mask(self, decision: Decision | None) -> npt.NDArray[np.int8]:
        """1 for each legal action of ``decision`` (all 0 when there is none)."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[list(self.legal(decision))] = 1
        return mask

    def action(self, decision: Decision, number: int) -> str:
        """The engine action that action ``number`` takes; IllegalAction if not legal."""
        legal = self.legal(decision)
        try:
            return legal[int(number)]
        except (KeyError, TypeError, ValueError):
            names = ", ".join(f"{n} ({self.names[n]})" for n in sorted(legal))
            raise IllegalAction(
                f"action {number!r:.20} is not legal now: legal are {names}"
            ) from None

    # -- each kind of decision ----------------------------------------------------------

    def _choose(self, options: Choose) -> dict[int, str]:
        legal: dict[int, str] = {}
        for position, word in enumerate(options.words):
            if word in self.words:
                legal[self.words.index(word)] = word
            elif word == "fold" and self.betting:
                legal[self._bet_start] = word
            elif word in _INDEX and position < self.cards:  # a card of the hand to pass
                legal[self._card_start + position] = word
            else:
                raise GutsError(f"the {self.family} encoding has no action {word!r}")
        return legal

    def _wager(self, bets: Legal) -> dict[int, str]:
        start = self._bet_start
        legal: dict[int, str] = {}
        if bets.can_fold:
            legal[start] = "fold"
        if bets.can_check:
            legal[start + 1] = "check"
        if bets.call_amount > 0:
            legal[start + 2] = "call"
        for offset, word, low, high in (
            (3, "bet", bets.min_bet, bets.max_bet),
            (6, "raise", bets.min_raise_to, bets.max_raise_to),
        ):
            if low is not None and high is not None:
                for index, amount in enumerate(_bet_sizes(low, high)):
                    if amount is not None:
                        legal[start + offset + index] = f"{word} {amount}"
        return legal

    def _discard(self, options: Discard) -> dict[int, str]:
        hand = options.hand
        if len(hand) > self.discards:
            raise GutsError(f"a hand of {len(hand)} cards: the encoding has {self.discards}")
        legal: dict[int, str] = {}
        for bits in range(1 << len(hand)):
            cards = tuple(code for i, code in enumerate(hand) if bits >> i & 1)
            if options.allows(cards):
                legal[self._discard_start + bits] = options.text(cards)
        return legal

    def _play(self, options: PlayCard) -> dict[int, str]:
        if len(options.hand) > self.cards:
            raise GutsError(f"a hand of {len(options.hand)} cards: the encoding has {self.cards}")
        legal = {
            self._card_start + i: code
            for i, code in enumerate(options.hand)
            if code in options.allowed
        }
        for word in options.words:  # said instead of a card (a pass): the layout's words
            if word not in self.words:
                raise GutsError(f"the {self.family} encoding has no action {word!r}")
            legal[self.words.index(word)] = word
        return legal


def _bet_sizes(low: int, high: int) -> tuple[int | None, int | None, int | None]:
    """The least, a middle and the most size (None where one repeats another)."""
    middle = (low + high) // 2
    return (low, middle if low < middle < high else None, high if high > low else None)


# -- observations ---------------------------------------------------------------------------


class Encoder:
    """Turns a seat's view of a ``layout`` game into a fixed-size float32 vector.

    ``chips`` (the chips at the table) scales every amount; ``deals`` (a deal cap, or
    None) scales the count of deals played.
    """

    def __init__(self, layout: Layout, chips: int, deals: int | None = None) -> None:
        self.layout = layout
        self.scale = float(max(chips, 1))
        self.deals = float(max(deals or 100, 1))
        seats = layout.seats
        self._words = len(layout.words)
        self.sections = {
            "hand": layout.hand * CARDS,
            "seat_cards": seats * CARDS,
            "table_cards": CARDS,
            "gone_cards": CARDS,
            "seats": seats * (_SEAT_FEATURES + self._words),
            "decision": _GLOBAL_FEATURES,
        }
        self.size = sum(self.sections.values())

    def encode(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """The vector for ``seat``'s ``view`` (its own decision included)."""
        layout = self.layout
        hand = np.zeros((layout.hand, CARDS), dtype=np.float32)
        for position, code in enumerate(view.get("hand") or ()):
            if position >= layout.hand:
                raise GutsError(f"a hand of {len(view['hand'])} cards: the encoding has "
                                f"{layout.hand} positions")  # fmt: skip
            hand[position, card_index(code)] = 1.0
        seat_cards = np.zeros((layout.seats, CARDS), dtype=np.float32)
        table_cards = np.zeros(CARDS, dtype=np.float32)
        _add_cards(table_cards, _table_cards(view, layout.laid_out))
        for other, cards in _seat_cards(view).items():
            if 0 <= other < layout.seats:
                _add_cards(seat_cards[self._relative(other, seat)], cards)
            else:  # the ghost's or the deck's hand, shown to all
                _add_cards(table_cards, cards)
        gone = np.zeros(CARDS, dtype=np.float32)
        _add_cards(gone, _gone_cards(view))
        vector = np.concatenate([
            hand.ravel(), seat_cards.ravel(), table_cards, gone,
            self._seats(view, seat).ravel(), self._decision(view),
        ])  # fmt: skip
        clipped: npt.NDArray[np.float32] = np.clip(vector, -BOUND, BOUND).astype(np.float32)
        return clipped

    def _relative(self, other: int, seat: int) -> int:
        return (other - seat) % self.layout.seats

    def _seats(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        seats = self.layout.seats
        data = np.zeros((seats, _SEAT_FEATURES + self._words), dtype=np.float32)
        per_seat: list[tuple[int, Mapping[str, Any] | Sequence[Any], float]] = [
            (0, _by_seat(view.get("stacks")), self.scale),
            (1, _by_seat(view.get("bets")), self.scale),
            (5, _by_seat(view.get("points")), float(max(view.get("target") or 1, 1))),
            (6, _by_seat(view.get("tricks_won")), 5.0),
            (7, _by_seat(view.get("hand_sizes")), float(max(self.layout.hand, 1))),
            (9, _by_seat(view.get("drawn") or view.get("discarded")), 5.0),
        ]
        for column, values, scale in per_seat:
            for other, value in _items(values):
                if 0 <= other < seats:
                    data[self._relative(other, seat), column] = float(value) / scale
        flags: list[tuple[int, Any]] = [
            (2, view.get("dealt_in")), (3, view.get("to_act")), (4, [view.get("button")]),
            (8, view.get("folded")), (10, _flat(view.get("bourre"), view.get("reneged"))),
        ]  # fmt: skip
        for column, seats_flagged in flags:
            for other in seats_flagged or ():
                if isinstance(other, int) and 0 <= other < seats:
                    data[self._relative(other, seat), column] = 1.0
        said = {**(view.get("intents") or {}), **(view.get("declared") or {})}
        for other, word in said.items():
            if word in self.layout.words and 0 <= int(other) < seats:
                column = _SEAT_FEATURES + self.layout.words.index(word)
                data[self._relative(int(other), seat), column] = 1.0
        return data

    def _decision(self, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        data = np.zeros(_GLOBAL_FEATURES, dtype=np.float32)
        scale = self.scale
        for index, key in enumerate(("pot", "reserve", "aside", "current_bet")):
            data[index] = float(view.get(key) or 0) / scale
        data[4] = float(view.get("deal") or 0) / self.deals
        pending = (view.get("pending") or [None])[0]
        if pending is not None:
            data[5 + _KINDS.index(pending["kind"])] = 1.0
            data[9] = float(pending["simultaneous"])
            options = pending["options"]
            for index, key in enumerate(("call_amount", "min_bet", "max_bet",
                                         "min_raise_to", "max_raise_to")):  # fmt: skip
                data[10 + index] = float(options.get(key) or 0) / scale
        stage = view.get("stage")
        if stage:
            data[15] = float(stage["number"]) / 5.0
            data[16] = float(stage["size"]) / 7.0
            data[17] = float(stage["low"])
            data[18] = float(stage["private"])
        trump = view.get("trump")
        if trump in _SUITS:
            data[19 + _SUITS.index(trump)] = 1.0
        data[23] = float(view.get("stock") or 0) / CARDS
        data[24] = float(view.get("discard_cap") or 0) / 5.0
        data[25] = float(view.get("kept_apart") or 0) / 5.0
        data[26] = float(bool(view.get("over")))
        data[27] = float(view.get("simultaneous") is True)
        data[28] = float(view.get("opener") == view.get("seat") is not None)
        return data


_SUITS = ("clubs", "diamonds", "hearts", "spades")


def _add_cards(row: npt.NDArray[np.float32], cards: Iterable[str]) -> None:
    for code in cards:
        row[card_index(code)] += 1.0


def _by_seat(values: object) -> Mapping[str, Any] | Sequence[Any]:
    """A per-seat value: a list by seat, or a dict keyed by the seat's number as text."""
    if isinstance(values, Mapping | list | tuple):
        return values
    return ()


def _items(values: Mapping[str, Any] | Sequence[Any]) -> Iterable[tuple[int, float]]:
    pairs = values.items() if isinstance(values, Mapping) else enumerate(values)
    for seat, value in pairs:
        if isinstance(value, int | float) and not isinstance(value, bool):
            yield int(seat), value


def _flat(*lists: object) -> list[Any]:
    return [item for items in lists if isinstance(items, list | tuple) for item in items]


def _seat_cards(view: Mapping[str, Any]) -> dict[int, list[str]]:
    """The cards a view shows of each seat (the ghost's and the deck's under their
    negative numbers): face up, shown, played to the trick."""
    cards: dict[int, list[str]] = {}
    for key in ("face_up", "shown"):
        shown = view.get(key)
        if isinstance(shown, Mapping):
            for seat, codes in shown.items():
                cards.setdefault(int(seat), []).extend(codes)
        elif isinstance(shown, list):  # the staged games: each showing, the latest last
            latest = {int(entry["seat"]): list(entry["cards"]) for entry in shown}
            for seat, codes in latest.items():
                cards.setdefault(seat, []).extend(codes)
    for seat, code in view.get("trick") or ():
        cards.setdefault(int(seat), []).append(code)
    return cards


def _table_cards(view: Mapping[str, Any], laid_out: str = "") -> list[str]:
    """The cards face up for everyone: community cards, the widow, the trump card, and
    what the family lays out under the view's key ``laid_out`` (rows or piles of cards)."""
    cards = list(view.get("community") or ())
    piles = view.get(laid_out) if laid_out else None
    if isinstance(piles, Mapping):
        for pile in piles.values():
            cards.extend(pile)
    for key in ("widow", "offer", "trump_card"):
        code = view.get(key)
        if isinstance(code, str):
            cards.append(code)
    return cards


def _gone_cards(view: Mapping[str, Any]) -> list[str]:
    """Cards out of play that were seen: past tricks, Toh's point cards."""
    cards = [code for trick in view.get("tricks") or () for _, code in trick]
    for codes in (view.get("point_cards") or {}).values():
        cards.extend(codes)
    return cards
