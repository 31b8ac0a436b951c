"""What a seat may do now, as data: a :class:`Decision` and the kind of choice it offers.

A decision holds one structured description of what is legal, from which everything
else derives: the representative action strings (:attr:`Decision.actions`), the prompt,
the check and canonical spelling of a typed action (:meth:`Decision.canonical`), and the
JSON a server sends (:meth:`Decision.to_dict`). The kinds:

- :class:`Choose`: one word of a list (in/out, high/low, play/fold, take up/down ...);
- :class:`Wager`: a betting decision, with the exact bounds of a bet or raise;
- :class:`Discard`: a draw: which cards of the hand may be thrown, how many;
- :class:`PlayCard`: a card to play to a trick or a row, and why the others may not be
  played, with any words that may be said instead (``pass``).

>>> decision = Decision.choose(0, ("in", "out"), "declare in or out")
>>> decision.actions, decision.canonical("  IN ")
(('in', 'out'), 'in')
>>> from guts.betting import Legal
>>> bet = Decision(1, Wager(Legal(1, True, True, 0, min_bet=10, max_bet=40)))
>>> bet.actions, bet.prompt, bet.canonical("b 25")
(('fold', 'check', 'bet 10', 'bet 25', 'bet 40'), 'fold, check, bet 10..40', 'bet 25')
>>> draw = Decision(2, Discard(("Ah", "Kd", "7c", "3s", "2h"), counts=(0, 1, 2, 3)))
>>> draw.canonical("discard 2h 3s"), draw.options.limit
('discard 3s 2h', 3)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations
from typing import Any, TypeAlias

from guts.betting.actions import Action, Bet, Call, Check, Fold, Legal, Raise
from guts.cards import Card, DeckKind, deck_cards, parse_card, parse_cards
from guts.errors import GutsError, IllegalAction

__all__ = [
    "Choose",
    "Decision",
    "Discard",
    "Options",
    "PlayCard",
    "Wager",
    "betting_action",
    "betting_text",
    "check_action",
]

_MAX_DIGITS = 12
"""Longest chip amount read from text (longer is an error, not a huge number)."""


def check_action(action: object) -> str:
    """``action`` if it is a string of reasonable length; IllegalAction otherwise."""
    if not isinstance(action, str):
        raise IllegalAction(f"an action is a string, not {type(action).__name__} {action!r:.40}")
    if len(action) > 200:
        raise IllegalAction(f"{action[:40]!r}... is too long to be an action")
    return action


def _words(text: str) -> list[str]:
    return text.strip().lower().split()


# -- betting ---------------------------------------------------------------------------------

_BET_WORDS = {"f": "fold", "k": "check", "c": "call", "b": "bet", "r": "raise"}
_NATURAL_CODES = frozenset(card.ascii for card in deck_cards(DeckKind.STANDARD))
_SIMPLE: dict[str, Action] = {"fold": Fold(), "check": Check(), "call": Call()}
"""The actions without an amount (immutable, so one of each serves every reading)."""


def _chips(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > _MAX_DIGITS:
        raise IllegalAction(f"{word[:20]!r} is not a number of chips")
    amount = int(word)
    if amount < 1:
        raise IllegalAction("a bet or raise is at least 1 chip")
    return amount


def betting_action(text: str) -> Action:
    """The betting action a string names (``fold``, ``check``, ``call``, ``bet N``,
    ``raise N`` or ``raise to N``, and the short forms ``f k c b N r N``); anything else
    raises IllegalAction.

    >>> betting_action("raise to 40"), betting_action("b 10"), betting_action("c")
    (Raise(to=40), Bet(amount=10), Call())
    """
    if type(text) is str:
        return _kept_betting_action(text)
    return _read_betting_action(text)


@lru_cache(maxsize=1 << 12)
def _kept_betting_action(text: str) -> Action:
    """The action ``text`` names, kept: the same few texts come again and again, and
    actions are immutable."""
    return _read_betting_action(text)


def _read_betting_action(text: str) -> Action:
    words = [_BET_WORDS.get(w, w) for w in _words(check_action(text))]
    if len(words) == 1 and words[0] in _SIMPLE:
        return _SIMPLE[words[0]]
    if len(words) == 3 and words[:2] == ["raise", "to"]:
        words = ["raise", words[2]]
    if len(words) == 2 and words[0] in ("bet", "raise"):
        amount = _chips(words[1], text)
        return Bet(amount) if words[0] == "bet" else Raise(amount)
    raise IllegalAction("not a betting action (fold, check, call, bet N, raise N)")


def betting_text(action: Action) -> str:
    """The canonical string of a betting action (``raise 40`` for a raise to 40)."""
    if isinstance(action, Raise):
        return f"raise {action.to}"
    return str(action)


def _sizes(low: int, high: int) -> list[int]:
    return sorted({low, (low + high) // 2, high})


# -- the kinds of choice ------------------------------------------------------------------------


@dataclass(frozen=True)
class Choose:
    """Choose one word of ``words`` (written in any case and spacing)."""

    words: tuple[str, ...]
    kind = "choose"

    def actions(self) -> tuple[str, ...]:
        """Every legal action."""
        return self.words

    def canonical(self, text: str) -> str:
        """The word ``text`` names; IllegalAction if none."""
        if type(text) is str and _JUST_STR.issuperset(map(type, self.words)):
            return _kept_choice(self.words, text)  # the same few answers come again and again
        return _read_choice(self.words, text)  # (a kept reading is shared by equal words)

    def describe(self) -> str:
        """The choices in words."""
        return " or ".join(self.words) if len(self.words) <= 2 else ", ".join(self.words)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {"words": list(self.words)}


@dataclass(frozen=True)
class Wager:
    """A betting decision: ``legal`` says exactly what may be done (see
    :class:`~guts.betting.Legal`); ``stack`` is what the seat has behind."""

    legal: Legal
    stack: int | None = None
    kind = "bet"

    def actions(self) -> tuple[str, ...]:
        """Representative actions: fold, check/call, the least, a middle and the most size."""
        legal = self.legal
        words = ["fold"] if legal.can_fold else []
        if legal.can_check:
            words.append("check")
        if legal.call_amount > 0:  # can_call
            words.append("call")
        low, high = legal.min_bet, legal.max_bet
        if low is not None and high is not None:
            words += [f"bet {low}"] if low == high else [f"bet {n}" for n in _sizes(low, high)]
        low, high = legal.min_raise_to, legal.max_raise_to
        if low is not None and high is not None:
            words += [f"raise {low}"] if low == high else [f"raise {n}" for n in _sizes(low, high)]
        return tuple(words)

    def action(self, text: str) -> Action:
        """The legal betting action ``text`` names; IllegalAction (with the range) if none."""
        action = betting_action(text)
        if not self.legal.allows(action):
            raise IllegalAction(f"legal now: {self.describe()}")
        return action

    def canonical(self, text: str) -> str:
        """The canonical spelling of a legal betting action."""
        return betting_text(self.action(text))

    def describe(self) -> str:
        """The choices in words: ``fold, call 10, raise to 20..40``."""
        return str(self.legal)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of the exact bounds."""
        data = self.legal.to_dict()
        del data["seat"]
        data["stack"] = self.stack
        return data


@dataclass(frozen=True)
class Discard:
    """Throw away cards of ``hand`` (codes in hand order): any set whose size is in
    ``counts``, or one of the ``extra`` sets (Four with an ace kept, All for One's whole
    hand). ``pat`` is the word for throwing none."""

    hand: tuple[str, ...]
    counts: tuple[int, ...]
    extra: tuple[tuple[str, ...], ...] = ()
    pat: str = "stand pat"
    kind = "draw"

    @property
    def limit(self) -> int:
        """The most cards that may be thrown."""
        return max([*self.counts, *(len(s) for s in self.extra)], default=0)

    def allows(self, cards: tuple[str, ...]) -> bool:
        """True if throwing ``cards`` (codes in hand order) is legal."""
        return len(cards) in self.counts or cards in self.extra

    def sets(self) -> Iterator[tuple[str, ...]]:
        """Every legal set of discards, smallest first."""
        for n in sorted(self.counts):
            yield from combinations(self.hand, n)
        yield from (s for s in self.extra if len(s) not in self.counts)

    def text(self, cards: tuple[str, ...]) -> str:
        """The canonical action for throwing ``cards``."""
        return "discard " + " ".join(cards) if cards else self.pat

    def actions(self) -> tuple[str, ...]:
        """Every legal discard, spelled out (built only when asked for)."""
        hand = self.hand
        if (
            len(hand) == 5
            and self.counts == _UP_TO_THREE
            and not self.extra
            and _JUST_STR.issuperset(map(type, hand))
        ):
            return _five_up_to_three(self.pat, hand)  # the usual draw: the same words
        words = []
        for n in sorted(self.counts):
            if n == 0:
                words.append(self.pat)
            else:
                words += ["discard " + " ".join(cards) for cards in combinations(hand, n)]
        words += [self.text(s) for s in self.extra if len(s) not in self.counts]
        return tuple(words)

    def cards(self, text: str) -> tuple[str, ...]:
        """The codes (in hand order) a draw action throws: ``stand pat``, ``pat``,
        ``discard 7h 2c``, the bare cards, ``discard all``; IllegalAction otherwise."""
        if type(text) is str and _JUST_STR.issuperset(map(type, self.hand)):
            spelled = _spelled(self.hand, text)
            if spelled is not None:
                return spelled
        words = _words(text)
        if words in (["pat"], ["stand"], ["stand", "pat"], ["discard"], ["-"], ["0"]):
            return ()
        if not words:
            raise IllegalAction(f"nothing said: {self.describe()}")
        if words[0] == "discard":
            words = words[1:]
        if words == ["all"]:
            return self.hand
        try:
            named = parse_cards(" ".join(words))
        except GutsError as error:
            raise IllegalAction(f"not a draw ({self.describe()}): {error}") from None
        return self._in_hand(named, text)

    def plain_canonical(self, text: str) -> str | None:
        """:meth:`canonical` of ``text`` when it is spelled as :meth:`text` writes a legal
        discard, read without parsing; None for any other text (:meth:`canonical` then
        reads it, or says why not)."""
        if not _JUST_STR.issuperset(map(type, self.hand)):
            return None
        cards = _spelled(self.hand, text)
        if cards is None or not (len(cards) in self.counts or cards in self.extra):
            return None  # an illegal discard: canonical raises, saying why
        return "discard " + " ".join(cards) if cards else self.pat

    def _in_hand(self, named: tuple[Card, ...], text: str) -> tuple[str, ...]:
        hand = [parse_card(code) for code in self.hand]
        jokers = [card for card in hand if card.is_joker]
        wanted = sum(1 for card in named if card.is_joker)
        if wanted > len(jokers):
            raise IllegalAction("you hold no joker")
        chosen = {card for card in named if not card.is_joker} | set(jokers[:wanted])
        missing = [card for card in chosen if card not in hand]
        if missing:
            raise IllegalAction(f"you hold no {missing[0]}")
        return tuple(card.ascii for card in hand if card in chosen)

    def canonical(self, text: str) -> str:
        """The canonical action for a legal draw."""
        cards = self.cards(text)
        if not self.allows(cards):
            if len(cards) > self.limit:
                raise IllegalAction(f"at most {self.limit} cards may be thrown")
            raise IllegalAction(f"not a legal draw: {self.describe()}")
        return self.text(cards)

    def describe(self) -> str:
        """The draw in words."""
        limit = self.limit
        if self.extra and len(self.counts) <= 2 and limit == len(self.hand):
            return f"{self.pat}, discard one card, or discard all"
        return f"{self.pat} or discard up to {limit} card{'s' if limit != 1 else ''}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "hand": list(self.hand),
            "counts": list(self.counts),
            "extra": [list(s) for s in self.extra],
            "limit": self.limit,
            "pat": self.pat,
        }


_UP_TO_THREE = (0, 1, 2, 3)


@lru_cache(maxsize=1 << 10)
def _spelled(hand: tuple[str, ...], text: str) -> tuple[str, ...] | None:
    """The codes a draw from ``hand`` throws when ``text`` is spelled as
    :meth:`Discard.text` writes a discard (``stand pat``, or ``discard`` and distinct
    codes of the hand in hand order, no joker), read without parsing; None for any other
    spelling. Kept: a draw's action is read once to check it and again to apply it."""
    if text == "stand pat":
        return ()
    if not text.startswith("discard ") or "Jk" in hand:
        return None
    codes = tuple(text[8:].split(" "))
    at = -1
    for code in codes:
        if code not in hand or code not in _NATURAL_CODES:
            return None
        index = hand.index(code)
        if index <= at:
            return None
        at = index
    return codes


def _five_up_to_three(pat: str, hand: tuple[str, ...]) -> tuple[str, ...]:
    """:meth:`Discard.actions` of a five-card ``hand`` (plain strings) that may throw up to
    three cards, no extra sets: ``pat``, then every set of one, two and three cards in
    :func:`itertools.combinations` order, each spelled as :meth:`Discard.text` spells it
    (written out: about a quarter of the loops' work, and a draw's actions are read at
    every draw)."""
    a, b, c, d, e = hand
    return (
        pat,
        f"discard {a}", f"discard {b}", f"discard {c}", f"discard {d}", f"discard {e}",
        f"discard {a} {b}", f"discard {a} {c}", f"discard {a} {d}", f"discard {a} {e}",
        f"discard {b} {c}", f"discard {b} {d}", f"discard {b} {e}",
        f"discard {c} {d}", f"discard {c} {e}",
        f"discard {d} {e}",
        f"discard {a} {b} {c}", f"discard {a} {b} {d}", f"discard {a} {b} {e}",
        f"discard {a} {c} {d}", f"discard {a} {c} {e}", f"discard {a} {d} {e}",
        f"discard {b} {c} {d}", f"discard {b} {c} {e}", f"discard {b} {d} {e}",
        f"discard {c} {d} {e}",
    )  # fmt: skip


@dataclass(frozen=True)
class PlayCard:
    """Play one card of ``hand`` to a trick or a row: ``allowed`` are those
    :meth:`canonical` accepts; ``why_not`` says, for each card of the hand the rules
    forbid, why (where a renege is allowed and punished later, a forbidden card may still
    be allowed); ``words`` are what may be said instead of a card (``pass``), so a card or
    a word is one decision whose cards stay cards of the hand.

    >>> play = PlayCard(("7h", "2c"), ("7h",), (("2c", "it does not fit"),), ("pass",))
    >>> play.actions(), play.canonical(" PASS"), play.canonical("play 7h"), play.describe()
    (('7h', 'pass'), 'pass', '7h', '7h or pass')
    """

    hand: tuple[str, ...]
    allowed: tuple[str, ...]
    why_not: tuple[tuple[str, str], ...] = ()
    words: tuple[str, ...] = ()
    kind = "play"

    def actions(self) -> tuple[str, ...]:
        """Every card that may be played, then the words."""
        return (*self.allowed, *self.words) if self.words else self.allowed

    def canonical(self, text: str) -> str:
        """The code of the card ``text`` names, if it may be played, or the word it says."""
        words = _words(text)
        if self.words:
            said = " ".join(words)
            for word in self.words:
                if word.lower() == said:
                    return word
        if len(words) == 2 and words[0] == "play":
            words = words[1:]
        try:
            code = parse_card(" ".join(words)).ascii
        except GutsError:
            raise IllegalAction(f"not a card: play one of {self.describe()}") from None
        if code in self.allowed:
            return code
        reasons = dict(self.why_not)
        card = parse_card(code)
        if code in reasons:
            raise IllegalAction(f"cannot play {card}: {reasons[code]}")
        if code not in self.hand:
            raise IllegalAction(f"you hold no {card}")
        raise IllegalAction(f"cannot play {card}: play one of {self.describe()}")

    def describe(self) -> str:
        """The playable cards, then the words (``7h 8c or pass``)."""
        cards = " ".join(self.allowed)
        if not self.words:
            return cards
        return " or ".join([cards, *self.words] if cards else self.words)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``words`` only where there are some)."""
        data: dict[str, Any] = {
            "hand": list(self.hand),
            "allowed": list(self.allowed),
            "why_not": dict(self.why_not),
        }
        if self.words:
            data["words"] = list(self.words)
        return data


Options: TypeAlias = Choose | Wager | Discard | PlayCard
"""Any kind of choice."""


@dataclass(frozen=True)
class Decision:
    """A decision ``seat`` must make now: ``options`` says exactly what is legal.

    ``prompt`` is the question in words (derived from the options when not given);
    ``simultaneous`` is True when several seats choose at once and no one sees a choice
    before all have chosen.
    """

    seat: int
    options: Options
    question: str = ""
    simultaneous: bool = False

    @classmethod
    def choose(
        cls, seat: int, words: tuple[str, ...], question: str = "", simultaneous: bool = False
    ) -> Decision:
        """A choice of one word of ``words``.

        Decisions are immutable values, so the same choice for the same seat is one
        object (a deal offers the same few choices over and over), its actions kept.
        """
        words = tuple(words)
        if (  # only plain values are kept (an int or str subclass would compare equal)
            cls is Decision
            and type(seat) is int
            and type(question) is str
            and type(simultaneous) is bool
            and {*map(type, words)} <= _JUST_STR
        ):
            return _kept_choose(seat, words, question, simultaneous)
        return cls(seat, Choose(words), question, simultaneous)

    @classmethod
    def wager(cls, legal: Legal, stack: int | None) -> Decision:
        """The betting decision ``Decision(legal.seat, Wager(legal, stack))``: one object
        for equal ``legal`` and stack among the recent ones, its actions kept."""
        return _wager_decision(legal, stack)

    @property
    def kind(self) -> str:
        """``choose``, ``bet``, ``draw`` or ``play``."""
        return self.options.kind

    @cached_property
    def actions(self) -> tuple[str, ...]:
        """Representative legal actions: every one, except bet sizes (least, middle, most;
        any size in the range is legal)."""
        return self.options.actions()

    @property
    def prompt(self) -> str:
        """The question, with the legal range where the options have one."""
        if isinstance(self.options, Choose):
            return self.question or self.options.describe()
        if self.question:
            return f"{self.question} ({self.options.describe()})"
        return self.options.describe()

    def canonical(self, action: object) -> str:
        """The canonical spelling of ``action`` if it is legal; IllegalAction otherwise."""
        return self.options.canonical(check_action(action))

    @cached_property
    def verbatim(self) -> frozenset[str]:
        """The actions :meth:`canonical` gives back unchanged (a choice or a bet spelled
        as :attr:`actions` spells it), so a caller may take them as they are; empty for
        draws and plays, whose many spellings are cheaper read one at a time."""
        if not isinstance(self.options, Choose | Wager):
            return frozenset()
        return frozenset(action for action in self.actions if self.canonical(action) == action)

    def allows(self, action: object) -> bool:
        """True if :meth:`canonical` would accept ``action``."""
        try:
            self.canonical(action)
        except IllegalAction:
            return False
        return True

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict: the seat, the kind, the options' exact description, the
        representative actions and the prompt."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "actions": list(self.actions),
            "prompt": self.prompt,
            "simultaneous": self.simultaneous,
            "options": self.options.to_dict(),
        }


_JUST_STR = frozenset({str})


def _read_choice(words: tuple[str, ...], text: str) -> str:
    """The word of ``words`` that ``text`` names (any case and spacing); IllegalAction
    if none."""
    word = " ".join(_words(text))
    for choice in words:
        if choice.lower() == word:
            return choice
    raise IllegalAction(f"choose one of {', '.join(words)}")


@lru_cache(maxsize=1 << 12)
def _kept_choice(words: tuple[str, ...], text: str) -> str:
    """:func:`_read_choice`, kept for words and texts that are plain strings."""
    return _read_choice(words, text)


@lru_cache(maxsize=1 << 12)
def _kept_choose(seat: int, words: tuple[str, ...], question: str, simultaneous: bool) -> Decision:
    """What :meth:`Decision.choose` makes of plain values, one object for equal values."""
    return Decision(seat, Choose(words), question, simultaneous)


@lru_cache(maxsize=1 << 12, typed=True)
def _wager_decision(legal: Legal, stack: int | None) -> Decision:
    """What :meth:`Decision.wager` hands out (a turn asks for its decision several times,
    and a betting round's Legal values repeat from deal to deal)."""
    return Decision(legal.seat, Wager(legal, stack))
