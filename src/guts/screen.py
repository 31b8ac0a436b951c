"""What the terminal table shows: cards in their suit colours, a short status line, and
the panel that says whose turn it is and what is being decided.

Everything is a :class:`rich.text.Text`, so a name is never read as markup, and rich
decides the colours: none when the output is not a terminal, none (bold kept) under
``NO_COLOR``. Hearts and diamonds are red. The status line is built of segments (the pot,
each player's chips, trump, wild cards, legs or points, tricks) and broken only between
segments, so it never wraps in the middle of a name and fits :data:`WIDTH` columns.

>>> [line.plain for line in fit([Text("pot 4"), Text("Ann 99"), Text("Bob 101")], 14)]
['pot 4 · Ann 99', 'Bob 101']
>>> hand_text(["As", "Td"], numbered=True).plain
'1:A♠ 2:10♦'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from guts.cards import Card, Suit, parse_card
from guts.errors import GutsError
from guts.games.decision import Choose, Decision, Discard, PlayCard, Wager
from guts.prompts import choice_keys, short_forms, summary

__all__ = [
    "INDENT",
    "WIDTH",
    "card_text",
    "colour_cards",
    "decision_panel",
    "fit",
    "hand_text",
    "prompt_word",
    "refusal",
    "show",
    "status_segments",
]

WIDTH = 80
"""The most columns a status line takes."""

INDENT = "  "
"""How far the lines under a heading are indented."""

RED = "bold red"
BLACK = "bold"
_CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]|🃏")
_SEPARATOR = " · "


def card_text(card: Card | str) -> Text:
    """One card, red for hearts and diamonds (``str`` codes are parsed)."""
    if isinstance(card, str):
        card = parse_card(card)
    red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
    return Text(str(card), style=RED if red else BLACK)


def colour_cards(line: str) -> Text:
    """A line of narration with each card in it coloured."""
    text = Text(line)
    for match in _CARD.finditer(line):
        red = match.group()[-1] in "♥♦"
        text.stylize(RED if red else BLACK, match.start(), match.end())
    return text


def hand_text(
    codes: Sequence[str], *, numbered: bool = False, unplayable: Iterable[str] = ()
) -> Text:
    """A hand: ``6♠ 7♥``, numbered (``1:6♠ 2:7♥``); an unplayable card is dimmed, in
    parentheses, and gets no number, so the numbers are those that may be typed:
    ``1:8♠ (5♣) 2:9♠``."""
    barred = set(unplayable)
    text = Text()
    number = 0
    for index, code in enumerate(codes):
        if index:
            text.append(" ")
        if numbered and code not in barred:
            number += 1
            text.append(f"{number}:", style="dim")
        try:
            card = card_text(code)
        except GutsError:
            card = Text(str(code))
        if code in barred:
            card.stylize("dim")
            text.append("(", style="dim").append_text(card).append(")", style="dim")
        else:
            text.append_text(card)
    return text


def fit(segments: Sequence[Text], width: int = WIDTH, indent: str = "") -> list[Text]:
    """``segments`` joined by `` · ``, broken into lines of at most ``width`` columns
    between segments only (a segment longer than a line gets a line of its own)."""
    lines: list[Text] = []
    line = Text(indent)
    for segment in segments:
        if line.plain.strip() and line.cell_len + len(_SEPARATOR) + segment.cell_len > width:
            lines.append(line)
            line = Text(indent)
        if line.plain.strip():
            line.append(_SEPARATOR, style="dim")
        line.append_text(segment)
    if line.plain.strip():
        lines.append(line)
    return lines


def _cards(value: object) -> list[str]:
    if isinstance(value, list | tuple) and all(isinstance(c, str) for c in value):
        return [str(c) for c in value]
    return []


def _by_seat(value: object) -> dict[int, Any]:
    """A seat -> value mapping from a view (its keys may be ints or strings)."""
    if not isinstance(value, Mapping):
        return {}
    found = {}
    for key, item in value.items():
        if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            found[int(key)] = item
    return found


def _suit_symbol(name: object) -> str | None:
    if isinstance(name, str) and name.upper() in Suit.__members__:
        return Suit[name.upper()].symbol
    return None


def _wild_text(view: Mapping[str, Any], rules: object) -> str:
    """The wild cards in words, from the stage the view shows or the rules' wilds."""
    from guts.rankings.wilds import Wilds

    described = ""
    stage = view.get("stage")
    if isinstance(stage, Mapping) and stage.get("wild"):
        ranks = [r for r in stage["wild"] if isinstance(r, int)]
        try:
            described = Wilds.of(ranks).describe()
        except (GutsError, ValueError):
            described = ""
    else:
        wilds = getattr(rules, "wilds", None)
        if callable(wilds):
            try:
                described = str(wilds().describe())
            except (GutsError, TypeError, ValueError):
                described = ""
    return "" if described == "no wild cards" else described


def status_segments(
    view: Mapping[str, Any], seat: int | None, rules: object = None
) -> list[Text]:
    """The seat's situation in short segments: the deal, the pot, trump, wild cards, the
    table's cards, what the family lays out for everyone (rows or piles), the chips of
    each player (and who has folded), legs or points, tricks, the trick so far."""
    names = [str(n) for n in view.get("players", [])]
    segments: list[Text] = []
    if isinstance(view.get("deal"), int) and view["deal"]:
        segments.append(Text(f"deal {view['deal']}", style="bold"))
    pot = Text("pot ").append(str(view.get("pot", 0)), style="bold")
    for key in ("reserve", "aside"):
        if view.get(key):
            pot.append(f" ({key} {view[key]})")
    segments.append(pot)
    symbol = _suit_symbol(view.get("trump"))
    if symbol is not None:
        trump = Text("trump ").append(symbol, style=RED if symbol in "♥♦" else BLACK)
        if isinstance(view.get("trump_card"), str):
            trump.append(" (").append_text(card_text(view["trump_card"])).append(")")
        segments.append(trump)
    wild = _wild_text(view, rules)
    if wild:
        segments.append(Text(wild))
    if isinstance(view.get("widow"), str):
        segments.append(Text("widow ").append_text(hand_text([view["widow"]])))
    community = _cards(view.get("community"))
    if community:
        segments.append(Text("table ").append_text(hand_text(community)))
    segments += _laid_out(view, rules)
    for other, cards in _by_seat(view.get("face_up")).items():
        if other != seat and _cards(cards) and other < len(names):
            segments.append(Text(f"{names[other]} shows ").append_text(hand_text(_cards(cards))))
    stacks = view.get("stacks")
    folded = view.get("folded")
    gone = set(folded) if isinstance(folded, list) else set()
    if isinstance(stacks, list):
        for index, (name, stack) in enumerate(zip(names, stacks, strict=False)):
            segment = Text(f"{name} ", style="bold" if index == seat else "")
            segment.append(str(stack))
            if index in gone:
                segment.append(" (folded)", style="dim")
            segments.append(segment)
    segments += _scores(view, names)
    trick = view.get("trick")
    if isinstance(trick, list) and trick:
        played = Text("on the table:")
        for index, item in enumerate(trick):
            if isinstance(item, list | tuple) and len(item) == 2 and item[0] < len(names):
                played.append("," if index else "")
                played.append(f" {names[item[0]]} ").append_text(card_text(str(item[1])))
        segments.append(played)
    return segments


def laid_out_key(view: Mapping[str, Any], rules: object = None) -> str:
    """The key of ``view`` that maps rows or piles to the cards the view's family lays out
    for everyone (its :class:`~guts.games.family.ActionLayout`'s ``laid_out``); "" for a
    family that lays out none, or a view that names no family."""
    from guts.catalog import FAMILIES

    family = FAMILIES.get(str(view.get("game")))
    if family is None or family.layout is None:
        return ""
    try:
        if rules is None:  # a client holds the view alone: the rules from its options
            options = view.get("rules")
            preset = next(iter(family.presets))
            rules = family.rules(preset, dict(options) if isinstance(options, Mapping) else {})
        return family.layout(rules).laid_out
    except (GutsError, AttributeError, TypeError, ValueError):
        return ""


def _laid_out(view: Mapping[str, Any], rules: object) -> list[Text]:
    """One segment per row or pile laid out for everyone (``♣ 6♣ 7♣ 8♣``; a suit's
    symbol names its row), the first after the key (``rows:``); none while all are
    empty."""
    key = laid_out_key(view, rules)
    rows = view.get(key) if key else None
    if not isinstance(rows, Mapping):
        return []
    segments = []
    for name, cards in rows.items():
        codes = _cards(cards)
        if codes:
            symbol = _suit_symbol(name)
            label = Text(f"{name} ") if symbol is None else Text(f"{symbol} ", style=(
                RED if symbol in "♥♦" else BLACK))  # fmt: skip
            segments.append(label.append_text(hand_text(codes)))
    if segments:
        segments[0] = Text(f"{key.replace('_', ' ')}: ").append_text(segments[0])
    return segments


def _scores(view: Mapping[str, Any], names: Sequence[str]) -> list[Text]:
    """Legs or points (``legs: Ann 1, Cat 2 (3 win)``) and tricks won, where the view has
    them."""
    segments = []
    points = view.get("points")
    word = str(view.get("word") or "point")
    if isinstance(points, list) and any(isinstance(p, int) for p in points):
        scored = [f"{names[i]} {p}" for i, p in enumerate(points) if p and i < len(names)]
        target = view.get("target")
        goal = f" ({target} to win)" if isinstance(target, int) else ""
        segments.append(Text(f"{word}s: {', '.join(scored) or 'none yet'}{goal}"))
    tricks = _by_seat(view.get("tricks_won"))
    if any(tricks.values()):
        won = ", ".join(f"{names[s]} {n}" for s, n in tricks.items() if s < len(names))
        segments.append(Text(f"tricks: {won}"))
    return segments


def refusal(message: str, decision: Decision, width: int = WIDTH,
            committed: int | None = None) -> Text:
    """A refused answer in one line: what was wrong, then the short forms that work (or
    only the pointer to help, or nothing, as the width allows)."""
    line = Text().append("✗ ", style="bold red").append(message, style="red")
    room = width - len(INDENT) - line.cell_len
    for hint in (f" ({short_forms(decision, committed)}; h for help)", " (h for help)"):
        if len(hint) <= room:
            return line.append(hint, style="dim")
    return line


def prompt_word(decision: Decision) -> str:
    """The word the cursor follows: ``choose``, ``bet``, ``draw`` or ``play``."""
    return decision.kind


def _title(decision: Decision) -> str:
    """What is being decided, after "Your turn": `` to bet (2 to call)``, ``: declare in or
    out``."""
    options = decision.options
    if isinstance(options, Wager):
        owed = options.legal.call_amount
        return f" to bet ({owed} to call)" if owed else " to bet"
    if isinstance(options, Discard):
        return " to draw"
    if decision.question:
        return f" — {decision.question}"
    return " to play a card" if isinstance(options, PlayCard) else " to choose"


def decision_panel(
    decision: Decision,
    view: Mapping[str, Any],
    *,
    rules: object = None,
    width: int = WIDTH,
    committed: int | None = None,
) -> list[Text]:
    """The lines shown when a person must decide: first the heading (whose turn, what is
    decided), then, to be indented under it (:func:`show`), the status, the hand
    (numbered where cards are chosen) and the legal choices with the short forms."""
    seat = decision.seat
    names = [str(n) for n in view.get("players", [])]
    name = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
    whose = "Your turn" if name == "You" else f"{name}, your turn"
    header = Text().append("▶ " + whose, style="bold cyan")
    header.append(_title(decision), style="bold")
    lines = [header]
    if decision.simultaneous:
        lines.append(Text("everyone chooses at once: no one sees a choice until all have "
                          "chosen", style="italic"))  # fmt: skip
    room = width - len(INDENT)
    lines += fit(status_segments(view, seat, rules), room)
    lines += _hand_lines(decision, view)
    lines += _choices_lines(decision, committed, room)
    return lines


def show(console: Console, lines: Sequence[Text], *, heading: bool = True) -> None:
    """Print ``lines``: the first as a heading (with ``heading``), the others indented by
    :data:`INDENT`, wrapped at the console's width with their wrapped parts indented too
    (and no trailing spaces)."""
    width = max(console.width - len(INDENT), 20)
    for index, line in enumerate(lines):
        if index == 0 and heading:
            console.print(line)
            continue
        for part in line.wrap(console, width):
            part.rstrip()
            console.print(Text(INDENT).append_text(part), soft_wrap=True)


def _hand_lines(decision: Decision, view: Mapping[str, Any]) -> list[Text]:
    options = decision.options
    if isinstance(options, PlayCard):
        barred = [code for code, _ in options.why_not if code not in options.allowed]
        line = Text("your hand: ").append_text(
            hand_text(options.hand, numbered=True, unplayable=barred)
        )
        lines = [line]
        reasons: dict[str, list[str]] = {}
        for code, why in options.why_not:
            kind = "not playable" if code in barred else "a renege if played"
            reasons.setdefault(f"{kind}|{why}", []).append(code)
        for key, codes in reasons.items():
            kind, why = key.split("|", 1)
            lines.append(Text(f"{kind}: ", style="dim").append_text(hand_text(codes))
                         .append(f": {why}", style="dim"))  # fmt: skip
        return lines
    if isinstance(options, Discard):
        return [Text("your hand: ").append_text(hand_text(options.hand, numbered=True))]
    if isinstance(options, Choose) and _all_cards(options.words):
        return [Text("choose from: ").append_text(hand_text(options.words, numbered=True))]
    hand = _cards(view.get("hand"))
    if hand:
        return [Text("your cards: ").append_text(hand_text(hand))]
    return []


def _all_cards(words: Sequence[str]) -> bool:
    try:
        for word in words:
            parse_card(word)
    except GutsError:
        return False
    return True


def _choices_lines(decision: Decision, committed: int | None, room: int) -> list[Text]:
    """The legal choices (the words of a choice with their short keys in brackets), then
    the short forms, on the same line where they fit."""
    options = decision.options
    line = Text()
    if isinstance(options, Choose) and not _all_cards(options.words):
        for index, (shown, size) in enumerate(choice_keys(options)):
            if index:
                line.append(" / ")
            if size:
                line.append("[", style="dim").append(shown[:size], style="bold underline")
                line.append("]", style="dim").append(shown[size:])
            else:
                line.append(shown)
    else:
        line.append(_capital(summary(decision, committed)), style="bold")
    forms = short_forms(decision, committed)
    if isinstance(options, Choose) and not _all_cards(options.words):
        count = len(options.words)
        forms = f"or 1-{count}" if count > 1 else "or Enter"
    hint = Text(f"({forms}; h for help)", style="dim")
    if line.cell_len + 2 + hint.cell_len <= room:
        return [line.append("  ").append_text(hint)]
    return [line, hint]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
