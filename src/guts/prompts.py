"""What a player types at a decision, read as the engine's action: any kind, any family.

Everything here derives from a decision's structured options (:mod:`guts.games.decision`),
never from the family or the wording of a prompt, so one reading serves the terminal
table and any other client (a server's players send the same text):

- :func:`read_answer` turns what was typed into the action string the engine accepts, or
  raises :class:`~guts.errors.IllegalAction` with one line saying what was wrong;
- :func:`summary` states the choice with its exact range (``fold, call 2, or raise to
  4..6``); :func:`help_lines` lists every accepted form for that decision;
- :func:`choice_keys` gives the shortest unique prefix of each word of a choice;
- :func:`decision_from_dict` rebuilds a decision sent as JSON, so a remote client reads
  answers exactly as the terminal does.

The forms, by kind:

- choose: the word, a unique prefix of it (``i`` for in), its number in the list; a
  shared first word may be left out (``pair`` for ``declare pair``, ``up`` for ``take
  up``); when the words are cards, a card as for play;
- bet: ``f k c`` (and ``x`` for check), ``b N``, ``r N``, ``raise to N``, ``min``,
  ``max``, ``all in``; a bare number where it can mean one thing only (``0`` checks, the
  call amount calls, otherwise a bet of, or raise to, that many);
- draw: the cards to throw (``8d 9s``, any order, ``10d`` or ``Td``), their positions in
  the hand (``3 4 5`` or ``345``), ``keep`` and the cards or positions to keep, ``all``,
  and ``pat``, ``-`` or ``0`` to throw none;
- play: a card by name or position, or a rank or suit alone when one card has it.

``help``, ``h`` and ``?`` are never actions: :func:`wants_help` says when help is asked;
at a Guts declaration that ``guts solve`` can solve, the help starts with the
equilibrium's advice and the EV of each choice (:func:`hint_lines`).

>>> from guts.games.decision import Decision, Discard
>>> draw = Decision(0, Discard(("6s", "7h", "3h", "Ac", "6h"), counts=(0, 1, 2, 3)))
>>> read_answer(draw, "2 3"), read_answer(draw, "3h 7H"), read_answer(draw, "0")
('discard 7h 3h', 'discard 7h 3h', 'stand pat')
>>> read_answer(draw, "8d 9s")
Traceback (most recent call last):
...
guts.errors.IllegalAction: you hold no 8♦
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from guts.betting.actions import Legal
from guts.cards import Card, parse_card
from guts.errors import GutsError, IllegalAction
from guts.games.decision import Choose, Decision, Discard, PlayCard, Wager

if TYPE_CHECKING:
    from guts.games.guts.rules import GutsRules
    from guts.solve.solving import AnySolution

__all__ = [
    "HELP_WORDS",
    "Check",
    "checker",
    "choice_keys",
    "committed_chips",
    "decision_from_dict",
    "help_lines",
    "hint_lines",
    "read_answer",
    "short_forms",
    "summary",
    "wants_help",
]

HELP_WORDS = frozenset({"help", "h", "?"})
"""What asks for help at any prompt (never an action)."""

_PAT_WORDS = frozenset({"pat", "stand", "stand pat", "-", "0", "none", "keep all"})
_BET_ALIASES = {"f": "fold", "k": "check", "x": "check", "c": "call", "b": "bet", "r": "raise"}
_ALL_IN = frozenset({"all in", "all-in", "allin", "all"})
_LEAVE = "Ctrl-C or Ctrl-D leaves the table"


Check: TypeAlias = Callable[[str], str]
"""Reads an action string: its canonical spelling, or IllegalAction."""


class _Acting(Protocol):
    """The part of a session a check needs."""

    def canonical(self, seat: int, action: object) -> str: ...


def checker(session: _Acting, decision: Decision) -> Check:
    """A check that reads an action as ``decision`` does and, where it refuses, as the
    session does (a family may read more spellings); the decision's one-line message is
    kept when neither accepts."""

    def check(text: str) -> str:
        try:
            return decision.canonical(text)
        except IllegalAction as refused:
            try:
                return session.canonical(decision.seat, text)
            except IllegalAction:
                raise refused from None

    _remember(session, decision)
    return check


_ASKED: dict[Decision, weakref.ref[Any]] = {}
"""The session that last built a check for each decision: the terminal builds one for the
decision it asks, so the help at that prompt can give the equilibrium's advice."""


def _remember(session: object, decision: Decision) -> None:
    if hasattr(session, "view") and hasattr(session, "rules"):
        if len(_ASKED) > 256:  # forget the sessions that are gone
            for key in [k for k, ref in _ASKED.items() if ref() is None]:
                del _ASKED[key]
        with suppress(TypeError):
            _ASKED[decision] = weakref.ref(session)


def _asking(decision: Decision) -> Any:
    """The live session whose pending decisions include ``decision`` (None if none)."""
    found = _ASKED.get(decision)
    session = found() if found is not None else None
    pending = getattr(session, "pending", None)
    if session is None or not callable(pending) or decision not in pending():
        return None
    return session


def decision_from_dict(data: Mapping[str, Any]) -> Decision:
    """The decision :meth:`~guts.games.decision.Decision.to_dict` described, for a client
    that receives decisions as JSON (a server's players) and reads answers like the
    terminal does; malformed data raises IllegalAction.

    >>> decision = Decision.choose(2, ("in", "out"), "declare in or out")
    >>> read_answer(decision_from_dict(decision.to_dict()), "o")
    'out'
    """
    try:
        seat, kind, options = int(data["seat"]), str(data["kind"]), data["options"]
        simultaneous = bool(data.get("simultaneous", False))
        if kind == "choose":
            return Decision.choose(seat, tuple(options["words"]), str(data.get("prompt", "")),
                                   simultaneous)  # fmt: skip
        if kind == "bet":
            legal = Legal(seat, bool(options["can_fold"]), bool(options["can_check"]),
                          int(options["call_amount"]), options.get("min_bet"),
                          options.get("max_bet"), options.get("min_raise_to"),
                          options.get("max_raise_to"))  # fmt: skip
            return Decision(seat, Wager(legal, options.get("stack")), "", simultaneous)
        if kind == "draw":
            extra = tuple(tuple(cards) for cards in options.get("extra", ()))
            discard = Discard(tuple(options["hand"]), tuple(options["counts"]), extra,
                              str(options.get("pat", "stand pat")))  # fmt: skip
            return Decision(seat, discard, "", simultaneous)
        if kind == "play":
            why_not = tuple((str(k), str(v)) for k, v in dict(options.get("why_not", {})).items())
            words = tuple(str(word) for word in options.get("words", ()))
            play = PlayCard(tuple(options["hand"]), tuple(options["allowed"]), why_not, words)
            return Decision(seat, play, "", simultaneous)
    except (KeyError, TypeError, ValueError) as error:
        raise IllegalAction(f"not a decision: {error}") from None
    raise IllegalAction(f"not a decision: unknown kind {kind!r}")


def wants_help(text: str) -> bool:
    """True when ``text`` asks for the accepted forms.

    >>> wants_help(" H "), wants_help("help"), wants_help("hi")
    (True, True, False)
    """
    return " ".join(text.lower().split()) in HELP_WORDS


def committed_chips(view: Mapping[str, Any], seat: int) -> int | None:
    """The chips ``seat`` has already put in this betting round, where the view says
    (``bets``: seat -> chips); None where it does not."""
    bets = view.get("bets")
    if not isinstance(bets, Mapping):
        return None
    value = bets.get(seat, bets.get(str(seat)))
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_answer(
    decision: Decision, text: str, check: Check | None = None, *, committed: int | None = None
) -> str:
    """The action ``text`` means at ``decision``, in the spelling ``check`` (by default
    the decision's own reading) returns; IllegalAction with one line if none.
    ``committed`` is what the seat has bet in this round already (it tells when the
    most a raise may reach is the whole stack)."""
    read: Check = check or decision.canonical
    options = decision.options
    if wants_help(text):
        raise IllegalAction("help is not an action: type help for the accepted forms")
    if isinstance(options, Choose):
        return _read_choice(options, text, read)
    if isinstance(options, Wager):
        return _read_bet(options, text, read, committed)
    if isinstance(options, Discard):
        return _read_draw(options, text, read)
    return _read_play(options, text, read)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").split())


def _shown(text: str) -> str:
    return repr(" ".join(text.split())[:40])


# -- choose ------------------------------------------------------------------------------------


def _lead(words: Sequence[str]) -> str:
    """The first word every choice shares (``declare``, ``take``), or ""."""
    firsts = {word.split()[0] for word in words if len(word.split()) > 1}
    if len(firsts) == 1 and all(len(word.split()) > 1 for word in words):
        return firsts.pop()
    return ""


def _forms(word: str, lead: str) -> tuple[str, ...]:
    """What may be typed for ``word``: itself, and itself without the shared lead."""
    full = _norm(word.replace("-", " "))
    forms = [full]
    if lead and full.startswith(lead.lower() + " "):
        forms.append(full[len(lead) + 1 :])
    return tuple(forms)


def _card_words(words: Sequence[str]) -> tuple[Card, ...] | None:
    """The cards, when every word of a choice is one."""
    try:
        return tuple(parse_card(word) for word in words)
    except GutsError:
        return None


def choice_keys(options: Choose) -> list[tuple[str, int]]:
    """Each word as shown (without a shared lead) and the length of its shortest prefix
    that names it alone (never a help word or a number); 0 when none does.

    >>> choice_keys(Choose(("high", "low", "both", "out")))
    [('high', 2), ('low', 1), ('both', 1), ('out', 1)]
    >>> choice_keys(Choose(("take up", "take down")))
    [('up', 1), ('down', 1)]
    """
    lead = _lead(options.words)
    forms = [_forms(word, lead) for word in options.words]
    keys = []
    for index, word_forms in enumerate(forms):
        shown = word_forms[-1]
        others = [f for i, fs in enumerate(forms) if i != index for f in fs]
        size = 0
        for length in range(1, len(shown) + 1):
            prefix = shown[:length]
            if " " in prefix:
                break
            if prefix in HELP_WORDS or prefix.isdigit():
                continue
            if not any(other.startswith(prefix) for other in others):
                size = length
                break
        keys.append((shown, size))
    return keys


def _read_choice(options: Choose, text: str, check: Check) -> str:
    words = options.words
    said = _norm(text.replace("-", " "))
    if not said:
        if len(words) == 1:
            return check(words[0])
        raise IllegalAction(f"nothing typed: choose {_choices(options)}")
    if said.isdigit():
        number = int(said) if len(said) < 4 else 0
        if 1 <= number <= len(words):
            return check(words[number - 1])
        if _card_words(words) is None:
            raise IllegalAction(f"there is no choice {said}: choose 1 to {len(words)}")
    cards = _card_words(words)
    if cards is not None:
        picked = _pick_card(text, cards, cards)
        try:
            card = parse_card(picked)
        except GutsError:
            return check(picked)
        if card not in cards:
            raise IllegalAction(f"you hold no {card}: choose {_choices(options)}")
        return check(words[cards.index(card)])
    lead = _lead(words)
    forms = {word: _forms(word, lead) for word in words}
    for word, word_forms in forms.items():
        if said in word_forms:
            return check(word)
    starts = [word for word, word_forms in forms.items()
              if any(form.startswith(said) for form in word_forms)]  # fmt: skip
    if len(starts) == 1:
        return check(starts[0])
    if len(starts) > 1:
        names = [forms[word][-1] for word in starts]
        raise IllegalAction(f"{_shown(text)} could be {_or(names)}: type more of the word")
    for attempt in (text, f"{lead} {text}" if lead else ""):
        if attempt:
            try:
                return check(attempt)
            except IllegalAction:
                pass
    listed = _choices(options)
    if len(listed) > 48:
        listed = f"one of the {len(words)} listed, or its number 1-{len(words)}"
    raise IllegalAction(f"{_shown(text)} is not a choice here: choose {listed}")


def _choices(options: Choose) -> str:
    cards = _card_words(options.words)
    if cards is not None:
        return _or([str(card) for card in cards])
    return _or([shown for shown, _ in choice_keys(options)])


def _or(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 2:
        return " or ".join(items)
    return ", ".join(items[:-1]) + ", or " + items[-1]


# -- bet -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Sizes:
    """What a bet or raise may be now: the verb, the least and most amounts, and the
    amount that puts the whole stack in (None: unknown or out of range)."""

    verb: str
    low: int
    high: int
    all_in: int | None


def _sizes(options: Wager, committed: int | None) -> _Sizes | None:
    legal, stack = options.legal, options.stack
    if legal.min_bet is not None and legal.max_bet is not None:
        whole = stack if stack is not None and stack == legal.max_bet else None
        return _Sizes("bet", legal.min_bet, legal.max_bet, whole)
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        whole = None
        if stack is not None and committed is not None and committed + stack == legal.max_raise_to:
            whole = legal.max_raise_to
        return _Sizes("raise", legal.min_raise_to, legal.max_raise_to, whole)
    return None


def _call_is_all_in(options: Wager) -> bool:
    legal = options.legal
    return legal.can_call and options.stack is not None and legal.call_amount == options.stack


def _bet_parts(options: Wager, committed: int | None) -> list[str]:
    legal = options.legal
    parts = []
    if legal.can_check:
        parts.append("check")
    if legal.can_call:
        all_in = " (all in)" if _call_is_all_in(options) else ""
        parts.append(f"call {legal.call_amount}{all_in}")
    sizes = _sizes(options, committed)
    if sizes is not None:
        verb = "bet" if sizes.verb == "bet" else "raise to"
        top = sizes.high if sizes.all_in is None else sizes.high - 1
        if top >= sizes.low:
            parts.append(f"{verb} {_span(sizes.low, top)}")
        if sizes.all_in is not None:
            parts.append(f"all in for {sizes.all_in}")
    if legal.can_fold:
        parts.append("fold")
    return parts


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}..{high}"


def _read_bet(options: Wager, text: str, check: Check, committed: int | None) -> str:
    legal = options.legal
    said = _norm(text)
    words = [_BET_ALIASES.get(word, word) for word in said.split()]
    sizes = _sizes(options, committed)
    if not words:
        raise IllegalAction(f"nothing typed: {_or(_bet_parts(options, committed))}")
    if said in _ALL_IN or words in (["bet", "all"], ["raise", "all"], ["all", "in"]):
        return check(_all_in(options, sizes))
    if words == ["call"] and not legal.can_call and legal.can_check:
        return check("check")
    if words == ["check"] and not legal.can_check and legal.can_call:
        raise IllegalAction(f"you cannot check: {legal.call_amount} to call; legal now: {legal}")
    if words[0] in ("bet", "raise") and len(words) <= 3 and sizes is not None:
        rest = words[1:]
        if rest[:1] == ["to"]:
            rest = rest[1:]
        if rest[:1] == ["by"]:
            span = _span(sizes.low, sizes.high)
            raise IllegalAction(f"say the total: {sizes.verb} to N ({span})")
        if not rest:
            if sizes.low == sizes.high:
                return check(f"{sizes.verb} {sizes.low}")
            raise IllegalAction(f"{_how_much(sizes)} {_span(sizes.low, sizes.high)}")
        if len(rest) == 1:
            amount = _amount(rest[0], sizes)
            if amount is not None:
                return check(f"{sizes.verb} {amount}")
    if len(words) == 1 and words[0] in ("min", "max") and sizes is not None:
        return check(f"{sizes.verb} {sizes.low if words[0] == 'min' else sizes.high}")
    if len(words) == 1 and words[0].isascii() and words[0].isdigit():
        return check(_bare_number(options, int(words[0][:12]), sizes))
    return check(" ".join(words))


def _how_much(sizes: _Sizes) -> str:
    return "bet how much?" if sizes.verb == "bet" else "raise to how much?"


def _amount(word: str, sizes: _Sizes) -> int | None:
    if word == "min":
        return sizes.low
    if word == "max":
        return sizes.high
    if word.isascii() and word.isdigit() and len(word) <= 12:
        return int(word)
    return None


def _all_in(options: Wager, sizes: _Sizes | None) -> str:
    if sizes is not None and sizes.all_in is not None:
        return f"{sizes.verb} {sizes.all_in}"
    if _call_is_all_in(options):
        return "call"
    raise IllegalAction(f"you cannot go all in now: {_or(_bet_parts(options, None))}")


def _bare_number(options: Wager, amount: int, sizes: _Sizes | None) -> str:
    legal = options.legal
    if amount == 0 and legal.can_check:
        return "check"
    if legal.can_call and amount == legal.call_amount:
        return "call"
    if sizes is not None:
        return f"{sizes.verb} {amount}"
    raise IllegalAction(f"no bet or raise is possible now: {_or(_bet_parts(options, None))}")


# -- draw ----------------------------------------------------------------------------------------


def _tokens(text: str) -> list[str]:
    return text.replace(",", " ").lower().split()


def _positions(token: str, size: int) -> list[int] | None:
    """The positions (0-based) a token of digits names: ``3``, or ``345`` in a hand of
    fewer than ten cards; None if the token is not digits."""
    if not (token.isascii() and token.isdigit()):
        return None
    compact = len(token) > 1 and size < 10
    numbers = [int(digit) for digit in token] if compact else [int(token[:3])]
    for number in numbers:
        if not 1 <= number <= size:
            raise IllegalAction(f"there is no card {number}: the positions are 1 to {size}")
    return [number - 1 for number in numbers]


def _named(tokens: Sequence[str], hand: Sequence[str]) -> list[str]:
    """The card texts ``tokens`` name: positions turned into the hand's codes, other
    tokens (card names) kept for the engine to read; a position named twice is refused."""
    named: list[str] = []
    seen: set[int] = set()
    for token in tokens:
        places = _positions(token, len(hand))
        if places is None:
            named.append(token)
            continue
        for place in places:
            if place in seen:
                raise IllegalAction(f"card {place + 1} is named twice")
            seen.add(place)
            named.append(hand[place])
    return named


def _read_draw(options: Discard, text: str, check: Check) -> str:
    said = _norm(text)
    hand = options.hand
    if said in _PAT_WORDS or said == options.pat.lower():
        return check(options.pat)
    tokens = _tokens(text)
    if not tokens:
        raise IllegalAction(f"nothing typed: {summary_of_draw(options)}")
    if tokens[0] in ("discard", "throw", "d", "t"):
        tokens = tokens[1:]
        if not tokens:
            raise IllegalAction("discard which cards? name them (8d 9s) or their positions (3 4)")
    if tokens == ["all"]:
        return check("discard " + " ".join(hand))
    if tokens[0] == "keep":
        kept = _codes(_named(tokens[1:], hand), hand)
        thrown = [code for code in hand if code not in kept]
        return check("discard " + " ".join(thrown) if thrown else options.pat)
    return check("discard " + " ".join(_named(tokens, hand)))


def _codes(named: Sequence[str], hand: Sequence[str]) -> set[str]:
    """The hand's codes the card texts ``named`` are (IllegalAction for a card not held)."""
    held = {parse_card(code): code for code in hand}
    codes = set()
    for text in named:
        try:
            card = parse_card(text)
        except GutsError as error:
            raise IllegalAction(str(error)) from None
        if card not in held:
            raise IllegalAction(f"you hold no {card}")
        codes.add(held[card])
    return codes


# -- play ----------------------------------------------------------------------------------------


def _pick_card(text: str, hand: Sequence[Card], allowed: Sequence[Card]) -> str:
    """The card text ``text`` names: a number, counting the ``allowed`` cards only (the
    numbers shown beside them), a rank or suit alone that one card has (a playable one
    first), else the text itself for the engine to read."""
    words = _tokens(text)
    if words[:1] == ["play"]:
        words = words[1:]
    if len(words) > 1:
        raise IllegalAction(f"one card at a time: {_one_of(allowed)}")
    if not words:
        return text
    word = words[0]
    if word.isascii() and word.isdigit() and not (word == "10" and len(allowed) < 10):
        number = int(word[:3])
        if not 1 <= number <= len(allowed):
            if len(allowed) == 1:
                raise IllegalAction(f"there is no card {number}: {_one_of(allowed)} (1)")
            which = "cards" if len(allowed) == len(hand) else "cards you may play"
            raise IllegalAction(f"there is no card {number}: the {which} are numbered"
                                f" 1 to {len(allowed)}")  # fmt: skip
        return allowed[number - 1].ascii
    for pool in (allowed, hand):
        having = [card for card in pool if _has(card, word)]
        if len(having) == 1:
            return having[0].ascii
        if len(having) > 1 and pool is allowed:
            raise IllegalAction(f"{_shown(word)} could be {_or([str(c) for c in having])}")
    missing = _RANK_NAMES.get(word) or _SUIT_NAMES.get(word)
    if missing:
        raise IllegalAction(f"you hold no {missing}: {_one_of(allowed)}")
    return word


_RANK_NAMES = {"a": "ace", "k": "king", "q": "queen", "j": "jack", "t": "ten", "10": "ten"}
_SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def _one_of(cards: Sequence[Card]) -> str:
    return ("play " if len(cards) == 1 else "play one of ") + " ".join(map(str, cards))


def _has(card: Card, word: str) -> bool:
    """True if ``word`` is the rank or the suit of ``card`` (``k``, ``10``, ``t``, ``s``)."""
    if card.is_joker:
        return word in ("jk", "joker")
    rank, suit = card.ascii[0].lower(), card.ascii[1].lower()
    return word in (rank, suit) or (word == "10" and rank == "t")


def _read_play(options: PlayCard, text: str, check: Check) -> str:
    hand = tuple(parse_card(code) for code in options.hand)
    allowed = tuple(parse_card(code) for code in options.allowed)
    if not _tokens(text):
        if len(allowed) + len(options.words) == 1:
            return check(allowed[0].ascii if allowed else options.words[0])
        raise IllegalAction(f"nothing typed: {_play_choices(options)}")
    word = _play_word(options, text)
    if word is not None:
        return check(word)
    if not allowed:
        raise IllegalAction(f"{_shown(text)} is not a choice here: {_play_choices(options)}")
    return check(_pick_card(text, hand, allowed))


def _play_word(options: PlayCard, text: str) -> str | None:
    """The word of a play (``pass``) that ``text`` says in full or begins, where the
    beginning names no card (a rank, a suit or a number reads as a card)."""
    said = _norm(text.replace("-", " "))
    if said.isdigit() or said in _RANK_NAMES or said in _SUIT_NAMES:
        return None
    starts = [word for word in options.words if _norm(word.replace("-", " ")).startswith(said)]
    exact = [word for word in starts if _norm(word.replace("-", " ")) == said]
    return (exact or starts)[0] if len(exact or starts) == 1 else None


def _word_key(word: str) -> str:
    """The shortest form of a play's word shown: its first letter, unless that reads as a
    card's rank or suit."""
    key = word[:1].lower()
    return word if key in _RANK_NAMES or key in _SUIT_NAMES or key.isdigit() else key


def _play_choices(options: PlayCard) -> str:
    """A play's choices in words: ``play one of 7♥ 8♣, or pass``."""
    cards = [parse_card(code) for code in options.allowed]
    if not options.words:
        return _one_of(cards)
    return _or([_one_of(cards), *options.words] if cards else list(options.words))


# -- what is being decided, in words ---------------------------------------------------------


def summary(decision: Decision, committed: int | None = None) -> str:
    """The choice in words with its exact range: ``fold, call 2, or raise to 4..6``,
    ``stand pat or discard 1 to 3 cards``, ``in or out``, ``play one of A♦ 10♠``."""
    options = decision.options
    if isinstance(options, Choose):
        return _choices(options)
    if isinstance(options, Wager):
        return _or(_bet_parts(options, committed))
    if isinstance(options, Discard):
        return summary_of_draw(options)
    return _play_choices(options)


def summary_of_draw(options: Discard) -> str:
    """A draw in words: ``stand pat or discard 1 to 3 cards``."""
    counts = sorted(n for n in options.counts if n > 0)
    parts = [options.pat] if 0 in options.counts else []
    if counts:
        if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 1:
            amount = f"{counts[0]} to {counts[-1]}"
        else:
            amount = _or([str(n) for n in counts])
        parts.append(f"discard {amount} card{'s' if counts != [1] else ''}")
    extra = [s for s in options.extra if len(s) not in options.counts]
    for cards in extra[:3]:
        if tuple(cards) == tuple(options.hand):
            parts.append(f"discard all {len(cards)}")
        else:
            parts.append("discard exactly " + " ".join(str(parse_card(c)) for c in cards))
    if len(extra) > 3:
        parts.append(f"one of {len(extra) - 3} more sets of {len(extra[3])}")
    return _or(parts) if len(parts) > 1 else (parts[0] if parts else "nothing to discard")


def short_forms(decision: Decision, committed: int | None = None) -> str:
    """The short forms that work at ``decision``, for a reminder after the choices or a
    refusal: ``c, f, r 4..37, all in``; ``cards or positions 1-5, pat``.

    >>> short_forms(Decision.choose(0, ("in", "out")))
    'i, o or 1-2'
    """
    options = decision.options
    if isinstance(options, Choose):
        count = len(options.words)
        if _card_words(options.words) is not None:
            return f"a card or its number {_numbers(count)}"
        keys = [shown[:size] for shown, size in choice_keys(options) if size]
        numbers = _numbers(count)
        return f"{', '.join(keys)} or {numbers}" if keys else numbers
    if isinstance(options, Wager):
        legal = options.legal
        forms = [form for form, ok in (("c", legal.can_call), ("k", legal.can_check),
                                       ("f", legal.can_fold)) if ok]  # fmt: skip
        sizes = _sizes(options, committed)
        if sizes is not None:
            forms.append(f"{sizes.verb[0]} {_span(sizes.low, sizes.high)}")
            if sizes.all_in is not None:
                forms.append("all in")
        elif _call_is_all_in(options):
            forms.append("all in")
        return ", ".join(forms)
    if isinstance(options, Discard):
        return f"cards or positions 1-{len(options.hand)}, or pat"
    keys = [_word_key(word) for word in options.words]
    if not options.allowed:
        return _or(keys)
    return _or([f"a card or its number {_numbers(len(options.allowed))}", *keys])


def _numbers(count: int) -> str:
    return "1" if count == 1 else f"1-{count}"


def help_lines(
    decision: Decision,
    committed: int | None = None,
    *,
    view: Mapping[str, Any] | None = None,
    rules: object = None,
) -> list[str]:
    """The equilibrium's advice where one applies (:func:`hint_lines`), then every form
    accepted at ``decision``, one per line. Without ``view`` and ``rules``, they come from
    the session that built the decision's :func:`checker`, if it still waits on it."""
    if view is None:
        session = _asking(decision)
        if session is not None:
            view, rules = session.view(decision.seat), session.rules
    lines = hint_lines(decision, view, rules) if view is not None else []
    options = decision.options
    lines.append(f"Legal now: {summary(decision, committed)}.")
    if isinstance(options, Choose):
        lines += _choice_help(options)
    elif isinstance(options, Wager):
        lines += _bet_help(options, committed)
    elif isinstance(options, Discard):
        lines += _draw_help(options)
    else:
        lines += _play_help(options)
    lines.append(f"help, h or ?: this list. {_LEAVE}.")
    return lines


def hint_lines(decision: Decision, view: Mapping[str, Any], rules: object) -> list[str]:
    """What the equilibrium of ``guts solve`` does at a declaration of Guts (in or out;
    Hi-Lo's high, low, both or out), with the EV of each choice (pot units and chips); []
    where no solved strategy applies.

    Solving takes a moment the first time for each rules and player count, then the
    solution is read from the disk cache.
    """
    from guts.games.guts.rules import GutsRules

    if not isinstance(rules, GutsRules):
        return []
    ways = {"high", "low", "both", "out"} if rules.hi_lo else {"in", "out"}
    if not {"out"} < set(decision.actions) <= ways:
        return []
    from guts.solve.model import out_of_reach

    players = len(view.get("dealt_in") or ())
    why = out_of_reach(rules, players)
    if why or not 2 <= players <= 8 or not (view.get("hand") or rules.no_peek):
        return []
    from guts.solve.bot import advice
    from guts.solve.cache import cache_dir

    try:
        found = advice(_solution(rules, players, str(cache_dir())), view)
    except GutsError:
        return []
    return found.lines(int(view.get("pot") or 0))


@lru_cache(maxsize=4)
def _solution(rules: GutsRules, players: int, cache: str) -> AnySolution:
    """The solution the hints of ``rules`` for ``players`` read, kept while the terminal
    runs: read once, not at every ``?`` (a sampled solve cached before it kept its values
    computes them on its deals once); ``cache``: the solve cache it was read from, part of
    the key."""
    from guts.solve.solving import solve_for_play

    return solve_for_play(rules, players)


def _choice_help(options: Choose) -> list[str]:
    keys = choice_keys(options)
    if _card_words(options.words) is not None:
        return ["Type the card (10d or Td), its number in the list, or a rank or suit alone "
                "when one card has it."]  # fmt: skip
    shorts = [f"{shown[:size]} for {shown}" for shown, size in keys if 0 < size < len(shown)]
    numbered = ", ".join(f"{i} {shown}" for i, (shown, _) in enumerate(keys, start=1))
    lines = ["Type the word" + (f", or the start of it ({', '.join(shorts)})" if shorts else "")
             + "."]  # fmt: skip
    lines.append(f"Or its number: {numbered}.")
    lead = _lead(options.words)
    if lead:
        lines.append(f"'{lead}' may be left out: '{keys[0][0]}' means '{options.words[0]}'.")
    return lines


def _bet_help(options: Wager, committed: int | None) -> list[str]:
    legal = options.legal
    sizes = _sizes(options, committed)
    lines = []
    simple = []
    if legal.can_fold:
        simple.append("f or fold")
    if legal.can_check:
        simple.append("k, x or check" + (" (c works too)" if not legal.can_call else ""))
    if legal.can_call:
        simple.append(f"c or call (puts in {legal.call_amount})")
    lines.append("Type " + "; ".join(simple) + ".")
    if sizes is not None:
        short = "b" if sizes.verb == "bet" else "r"
        example = sizes.low if sizes.low == sizes.high else (sizes.low + sizes.high) // 2
        total = "" if sizes.verb == "bet" else ", your total bet this round (raise to N)"
        lines.append(
            f"{short} N or {sizes.verb} N, N from {_span(sizes.low, sizes.high)}{total}:"
            f" e.g. {short} {example}; min or max for {sizes.low} or {sizes.high}."
        )
        meaning = f"{sizes.verb}{' to' if sizes.verb == 'raise' else ''} N"
        bare = ["0 checks"] if legal.can_check else []
        if legal.can_call:
            bare.append(f"{legal.call_amount} calls")
        lines.append(f"A number alone: {', '.join([*bare, f'any other N means {meaning}'])}.")
    if (sizes is not None and sizes.all_in is not None) or _call_is_all_in(options):
        lines.append("all in (or all-in, allin): everything you have behind.")
    return lines


def _draw_help(options: Discard) -> list[str]:
    size = len(options.hand)
    first = " ".join(options.hand[:2])
    return [
        f"Type the cards to discard in any order ({first}; 10d or Td), or their positions"
        f" in your hand (1 to {size}: '3 4 5' or '345').",
        "keep and the cards or positions to keep discards the others (keep 1 2); all "
        "discards every card.",
        f"pat, - or 0: {options.pat}, discarding nothing.",
    ]


def _play_help(options: PlayCard) -> list[str]:
    lines = [
        f"Type the card (Qs, 10h or Th), the number beside it (1 to {len(options.allowed)}:"
        " only cards you may play are numbered), or a rank or suit alone when one playable"
        " card has it.",
    ] if options.allowed else []
    lines += [f"{word} (or {_word_key(word)}): {word} instead of playing a card."
              for word in options.words]  # fmt: skip
    reasons: dict[str, list[str]] = {}
    for code, why in options.why_not:
        if code not in options.allowed:
            reasons.setdefault(why, []).append(str(parse_card(code)))
    for why, cards in reasons.items():
        lines.append(f"Not playable: {' '.join(cards)}: {why}.")
    risky = [str(parse_card(code)) for code, _ in options.why_not if code in options.allowed]
    if risky:
        lines.append(f"{' '.join(risky)} may be played, but against the rules (a renege).")
    return lines
