"""DrawRules: options by name, errors naming the option, presets, descriptions."""

from __future__ import annotations

from dataclasses import fields

import pytest

from guts.errors import OptionError
from guts.games.draw import PRESETS, DrawRules, new_session, preset

ISSUE_PRESETS = ("five-card-draw", "jacks-or-better", "trips-to-win", "draw-with-bug",
                 "deuces-wild", "wild-widow", "diablo", "jacks-back", "all-for-one",
                 "32-card-poker", "seven-card-draw")  # fmt: skip


def test_defaults_are_basic_five_card_draw() -> None:
    rules = DrawRules()
    assert (rules.hand_size, rules.max_draw, rules.draws, rules.raise_cap) == (5, 3, 1, 4)
    assert rules.openers.value == "any" and not rules.wild and rules.jokers == 0
    assert rules.structure().stakes(1).bet == 2 * rules.structure().stakes(0).bet


@pytest.mark.parametrize("name", ISSUE_PRESETS)
def test_every_preset_the_issue_names_exists_with_a_description(name: str) -> None:
    rules, text = PRESETS[name]
    assert isinstance(rules, DrawRules) and text


def test_unknown_option_names_the_key_and_the_allowed_ones() -> None:
    with pytest.raises(OptionError, match=r"'colour'.*max-draw"):
        DrawRules.from_options(None, {"colour": "red"})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"openers": "tens"}, "openers: unknown value 'tens'; allowed: any, jacks"),
        ({"max-draw": "lots"}, "max-draw: expected a whole number"),
        ({"declare": "maybe"}, "declare: expected yes or no"),
        ({"limit": "none"}, "limit"),
        ({"max-draw": "6"}, "max-draw"),
        ({"openers": "jacks", "blind": "2"}, "blinds"),
        ({"progressive": "yes"}, "progressive needs openers=jacks"),
        ({"jacks-back": "yes"}, "jacks-back needs openers"),
        ({"stripped": "yes", "wild": "2"}, "stripped"),
        ({"bosnian": "yes"}, "bosnian needs max-draw"),
        ({"four-with-ace": "yes", "max-draw": "4"}, "four-with-ace"),
        ({"wild": "x"}, "wild"),
    ],
)
def test_bad_or_contradictory_options_fail_with_the_option_named(
    options: dict[str, str], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        DrawRules.from_options(None, options)


def test_options_round_trip_through_strings() -> None:
    for name, (rules, _) in PRESETS.items():
        assert DrawRules.from_options(None, rules.to_options()) == rules, name


def test_describe_lists_every_option_and_the_decisions() -> None:
    text = DrawRules().describe()
    for item in fields(DrawRules):
        assert item.name.replace("_", "-") + " = " in text
    assert "Decisions where the text is open" in text


def test_unknown_preset_lists_the_games() -> None:
    with pytest.raises(OptionError, match="five-card-draw"):
        preset("strip-poker")


def test_new_session_applies_options() -> None:
    session = new_session("jacks-or-better", list("ABCD"), buy_in=10, options={"ante": "2"})
    assert session.rules.ante == 2 and session.rules.openers.value == "jacks"


def test_player_counts() -> None:
    with pytest.raises(OptionError, match=r"2 to 6 players, not 1$"):
        new_session("five-card-draw", ["A"])
    with pytest.raises(OptionError, match="reshuffle"):
        options = {"reshuffle": "no", "max-players": "7"}
        new_session("five-card-draw", list("ABCDEFG"), options=options)
    with pytest.raises(OptionError, match="cards"):
        new_session("seven-card-draw", list("ABCDEFGH"))
    with pytest.raises(OptionError, match="max-players: 2 to 5"):
        new_session("five-card-draw", list("ABC"), options={"stripped": "yes", "max-players": "6"})
    assert new_session("five-card-draw", list("ABCDE"), options={"stripped": "yes"})
