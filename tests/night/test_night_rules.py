"""The host's rules for a night: the games allowed, their house options, the choice."""

from __future__ import annotations

import pytest
from night_helpers import new_night

from guts.errors import IllegalAction, OptionError
from guts.night import Chooser, Night, NightRules


def test_the_games_list_keeps_the_host_order_and_house_options() -> None:
    rules = NightRules.from_options(None, {"games": " Bourre ante=2 , napalm"})
    assert rules.names == ("bourre", "napalm")
    assert rules.entry("bourre").options == (("ante", "2"),)
    assert NightRules.from_options(None, rules.to_options()) == rules


@pytest.mark.parametrize(("options", "message"), [
    ({"games": "two-card-guts,two-card-guts"}, "two-card-guts is listed twice"),
    ({"games": "two-card-guts,,bourre"}, "an empty entry"),
    ({"games": "hold-em"}, "unknown game 'hold-em'"),
    ({"games": "bourre ante"}, "'ante' is not an option"),
    ({"games": "bourre credit=yes"}, "credit is the night's own option"),
    ({"games": "bourre", "default": "napalm"}, "default: 'napalm' is not one of the games"),
    ({"cap": "0"}, "cap: expected at least 1"),
    ({"chooser": "eldest"}, "chooser: unknown value 'eldest'"),
    ({"capped-pot": "burn"}, "capped-pot: unknown value 'burn'"),
    ({"deal-limit": "3"}, "unknown night option 'deal-limit'"),
    ({"ante": "2"}, "a game's own options go with it in games: 'bourre ante=2'"),
])  # fmt: skip
def test_bad_night_rules_name_the_problem(options: dict[str, str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        NightRules.from_options(None, options)


def test_a_game_the_table_cannot_play_is_refused_when_the_night_begins() -> None:
    with pytest.raises(OptionError, match="jacks-or-better: this game takes 4 to 6 players"):
        new_night("two-card-guts,jacks-or-better", players=3)
    with pytest.raises(OptionError, match=r"bourre: .*ante"):
        new_night("bourre ante=lots")


def test_bourre_in_a_night_always_splits_a_pot_left_when_it_stops() -> None:
    rules = NightRules(games="bourre")
    assert rules.game_options("bourre")["end-pot"] == "split"
    with pytest.raises(OptionError, match="end-pot=split"):
        NightRules(games="bourre end-pot=stays")
    night = Night(NightRules(games="bourre,napalm"), ["Ann", "Bob"], buy_in=5)
    with pytest.raises(IllegalAction, match="end-pot=split"):
        night.act(0, "bourre end-pot=stays")


def test_every_game_plays_at_the_nights_credit() -> None:
    night = new_night("two-card-guts,bourre", credit="no")
    night.act(0, "bourre")
    assert night.session is not None and night.session.rules.credit is False
    on_credit = new_night("two-card-guts", credit="yes")
    on_credit.act(0, "two-card-guts")
    assert on_credit.session is not None and on_credit.session.rules.credit is True


def test_the_chooser_may_add_options_but_not_change_the_house_ones() -> None:
    night = new_night("two-card-guts ante=2,bourre")
    with pytest.raises(IllegalAction, match="ante is a house option of two-card-guts"):
        night.act(0, "two-card-guts ante=3")
    with pytest.raises(IllegalAction, match="cannot 'napalm'"):
        night.act(0, "napalm")
    with pytest.raises(IllegalAction, match="ante"):
        night.act(0, "bourre ante=lots")
    assert night.events == () and night.chooser == 0  # nothing changed
    night.act(0, "Bourre  Ante=3")
    assert night.session is not None and night.session.rules.ante == 3
    assert night.events[0].action == "bourre ante=3"  # type: ignore[attr-defined]


def test_with_chooser_options_off_a_game_is_named_alone() -> None:
    night = new_night("two-card-guts,bourre", chooser_options="no")
    with pytest.raises(IllegalAction, match="the house fixes every option"):
        night.act(0, "bourre ante=3")
    night.act(0, "bourre")
    assert night.number == 1


def test_rules_text_lists_every_option() -> None:
    text = NightRules(chooser=Chooser.NEXT).describe()
    assert "chooser = next" in text and "capped-pot = split" in text
