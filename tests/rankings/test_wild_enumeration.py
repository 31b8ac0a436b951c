"""Wild jokers from the command line: ``--joker wild`` makes the jokers wild, with or
without ``--wild``, through :func:`guts.rankings.make_ranking` and ``guts census``.

Expected counts are derived here by counting, not read from the implementation:

* five of a kind, five cards: four naturals of a rank and the one joker (13 hands); with
  two jokers, four of a rank and either joker (13 * 2) or three of a rank and both jokers
  (13 * C(4, 3)): 78 hands;
* three of a kind, three cards, one joker: 13 * C(4, 3) natural trips, plus a natural
  pair and the joker, for any rank when it is wild (13 * C(4, 2)) and only for aces when
  it is the bug (C(4, 2)).
"""

from __future__ import annotations

import json
from math import comb

import pytest

from guts.cli import main
from guts.rankings import make_ranking
from guts.rankings.base import Category
from guts.rankings.high import HighRanking
from guts.rankings.wilds import JokerMode, Wilds

FIVE_OF_A_KIND_ONE_JOKER = 13 * comb(4, 4) * 1
FIVE_OF_A_KIND_TWO_JOKERS = 13 * comb(4, 4) * 2 + 13 * comb(4, 3) * comb(2, 2)
NATURAL_TRIPS = 13 * comb(4, 3)


def census_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    """Run ``guts census ... --json`` and parse what it printed."""
    main(["census", *args, "--json"])
    out = capsys.readouterr().out
    data: dict[str, object] = json.loads(out)
    return data


def categories(data: dict[str, object]) -> dict[str, int]:
    found = data["categories"]
    assert isinstance(found, dict)
    return {str(key): int(value) for key, value in found.items()}


def test_derived_counts() -> None:
    assert (FIVE_OF_A_KIND_ONE_JOKER, FIVE_OF_A_KIND_TWO_JOKERS) == (13, 78)


def test_make_ranking_keeps_a_wild_joker_without_wild_cards() -> None:
    ranking = make_ranking("high", {}, wilds=Wilds.of(joker="wild"), jokers=1)
    assert isinstance(ranking, HighRanking)
    assert ranking.wilds.joker is JokerMode.WILD
    assert ranking.options()["joker"] == "wild"
    counts, _classes = ranking.census(5)
    assert counts[Category.FIVE_OF_A_KIND] == FIVE_OF_A_KIND_ONE_JOKER
    assert sum(counts.values()) == comb(53, 5)


def test_from_options_keeps_a_wild_joker_without_wild_cards() -> None:
    ranking = HighRanking.from_options({}, wilds=Wilds.of(joker="wild"), jokers=2)
    assert ranking.wilds.joker is JokerMode.WILD
    counts, _classes = ranking.census(5)
    assert counts[Category.FIVE_OF_A_KIND] == FIVE_OF_A_KIND_TWO_JOKERS


def test_cli_census_with_one_wild_joker(capsys: pytest.CaptureFixture[str]) -> None:
    data = census_json(capsys, "high", "--joker", "wild")
    assert data["deck"] == "53"
    assert data["total"] == comb(53, 5)
    assert categories(data)["five-of-a-kind"] == FIVE_OF_A_KIND_ONE_JOKER


def test_cli_census_with_two_wild_jokers(capsys: pytest.CaptureFixture[str]) -> None:
    data = census_json(capsys, "high", "--jokers", "2", "--joker", "wild")
    assert data["deck"] == "54"
    assert data["total"] == comb(54, 5)
    assert categories(data)["five-of-a-kind"] == FIVE_OF_A_KIND_TWO_JOKERS


def test_cli_census_with_a_bug_joker_has_only_five_aces(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The bug makes five of a kind only with the four aces."""
    for args in (("--joker", "bug"), ("--jokers", "1")):
        data = census_json(capsys, "high", *args)
        assert categories(data)["five-of-a-kind"] == 1


def test_cli_wild_joker_agrees_with_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    data = census_json(capsys, "high", "--joker", "wild", "--wild", "2")
    ranking = HighRanking(wilds=Wilds.of([2], joker=JokerMode.WILD), jokers=1)
    counts, classes = ranking.census(5)
    assert categories(data) == {c.value: n for c, n in counts.items()}
    assert data["classes"] == classes


def test_three_card_census_wild_joker_differs_from_bug(
    capsys: pytest.CaptureFixture[str],
) -> None:
    wild = census_json(capsys, "three-card", "--joker", "wild")
    bug = census_json(capsys, "three-card", "--joker", "bug")
    assert wild["total"] == bug["total"] == comb(53, 3)
    assert categories(wild) != categories(bug)
    assert categories(wild)["three-of-a-kind"] == NATURAL_TRIPS + 13 * comb(4, 2)
    assert categories(bug)["three-of-a-kind"] == NATURAL_TRIPS + comb(4, 2)
