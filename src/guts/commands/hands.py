"""``guts eval`` and ``guts compare``: one hand's value, several hands in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from guts.cards import Card, format_cards, parse_cards
from guts.commands.common import (
    JokerOpt,
    JokersOpt,
    OptionOpt,
    RankingArg,
    WildOpt,
    build_ranking,
    console,
)
from guts.errors import OptionError


def eval_command(
    ranking: RankingArg,
    cards: Annotated[list[str], typer.Argument(help="The hand, e.g. As Kd 10h or AsKd10h.")],
    wild: WildOpt = "",
    joker: JokerOpt = None,
    jokers: JokersOpt = None,
    option: OptionOpt = None,
) -> None:
    """Print a hand's category, description and the cards that play."""
    rank = build_ranking(ranking, wild, joker, jokers, option)
    hand = parse_cards(" ".join(cards))
    result = rank.evaluate(hand)
    console.print(f"[bold]{result.description}[/bold]  ({result.category.value})")
    console.print(f"plays: {format_cards(result.cards)}")
    for wild_card, stood in result.stands_for:
        console.print(f"  {wild_card} stands for {stood}")
    console.print(f"strength: {result.strength}")


def compare_command(
    ranking: RankingArg,
    hands: Annotated[list[str], typer.Argument(help='Hands, each quoted: "As Kd" "Qh Qc".')],
    wild: WildOpt = "",
    joker: JokerOpt = None,
    jokers: JokersOpt = None,
    option: OptionOpt = None,
) -> None:
    """Order hands best first; tied hands share a place."""
    rank = build_ranking(ranking, wild, joker, jokers, option)
    parsed = [parse_cards(hand) for hand in hands]
    seen: dict[Card, int] = {}
    for number, hand in enumerate(parsed):
        for card in hand:
            if card in seen and not card.is_joker:
                raise OptionError(f"{card.ascii} is in hand {seen[card] + 1} and hand {number + 1}")
            seen[card] = number
    evaluated = sorted(
        ((rank.evaluate(hand), hand) for hand in parsed), key=lambda pair: -pair[0].strength
    )
    place = 0
    previous: int | None = None
    for index, (result, hand) in enumerate(evaluated):
        tie = result.strength == previous
        if not tie:
            place = index + 1
        previous = result.strength
        mark = "=" if tie or _ties_next(evaluated, index) else " "
        console.print(f"{place:>2}{mark} {format_cards(hand):<24} {result.description}")


def _ties_next(evaluated: Sequence[tuple[object, object]], index: int) -> bool:
    """Whether the hand at ``index`` is as strong as the one after it (both get "=")."""
    if index + 1 >= len(evaluated):
        return False
    here, after = evaluated[index][0], evaluated[index + 1][0]
    return getattr(here, "strength", None) == getattr(after, "strength", None)


def register(app: typer.Typer) -> None:
    """Add ``guts eval`` and ``guts compare`` to ``app``."""
    app.command("eval")(eval_command)
    app.command("compare")(compare_command)
