"""What several commands share: the console, ``--option K=V`` and the ranking flags."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer
from rich.console import Console

from guts.errors import OptionError
from guts.rankings import RANKINGS, Ranking, make_ranking
from guts.rankings.wilds import JokerMode, Wilds

__all__ = [
    "JokerOpt",
    "JokersOpt",
    "OptionOpt",
    "RankingArg",
    "WildOpt",
    "build_ranking",
    "console",
    "parse_key_values",
]

console = Console()

RankingArg = Annotated[str, typer.Argument(help=f"One of: {', '.join(RANKINGS)}.")]
WildOpt = Annotated[str, typer.Option("--wild", help="Wild ranks and cards, e.g. 2 or 2,Js,Jh.")]
JokerOpt = Annotated[
    str | None, typer.Option("--joker", help="How jokers play: bug or wild (adds one joker).")
]
JokersOpt = Annotated[
    int | None, typer.Option("--jokers", help="Number of jokers in the pack (0-2).")
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="An option KEY=VALUE (repeatable)."),
]


def parse_key_values(pairs: Sequence[str]) -> dict[str, str]:
    """``["a=1", "b=2"]`` as a dict; a pair without ``=`` is an OptionError."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} must look like KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def build_ranking(
    name: str, wild: str, joker: str | None, jokers: int | None, option: list[str] | None
) -> Ranking:
    """The ranking the command-line flags describe."""
    mode = JokerMode.parse(joker) if joker is not None else JokerMode.BUG
    count = jokers if jokers is not None else (1 if joker is not None else 0)
    if not 0 <= count <= 2:
        raise OptionError(f"--jokers must be 0, 1 or 2, not {count}")
    if joker is not None and count == 0:
        raise OptionError("--joker says how jokers play, but --jokers 0 puts none in the pack")
    wilds = Wilds.parse(wild, mode)
    return make_ranking(name, parse_key_values(option or []), wilds=wilds, jokers=count)
