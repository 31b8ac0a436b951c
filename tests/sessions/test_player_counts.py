"""The player counts the rule texts give, enforced by default, with options where the
texts allow a custom, checked when a session is built and stated by ``describe()``."""

from __future__ import annotations

import pytest

from guts.catalog import find_game, games
from guts.errors import OptionError
from guts.games.bourre import new_session as bourre_session
from guts.games.bourre import preset as bourre_preset
from guts.games.draw import new_session as draw_session
from guts.games.draw import preset as draw_preset
from guts.games.guts import GutsSession
from guts.games.guts.presets import preset as guts_preset
from guts.games.staged import new_session as staged_session
from guts.games.staged import preset as staged_preset
from guts.play import PlayConfig


def names(count: int) -> list[str]:
    return [f"P{i}" for i in range(count)]


# -- Toh: "The game is designed for 4 to 10 people." -------------------------------------------


@pytest.mark.parametrize(("count", "option"), [(2, "min-players"), (3, "min-players"),
                                               (11, "max-players")])  # fmt: skip
def test_toh_is_for_4_to_10_people(count: int, option: str) -> None:
    with pytest.raises(OptionError, match=f"toh is for 4 to 10 players, not {count}.*{option}"):
        staged_session("toh", names(count))


def test_toh_takes_fewer_or_more_players_by_option_and_says_so() -> None:
    assert staged_session("toh", names(4)).target == 5
    assert staged_session("toh", names(10)).target == 3
    assert staged_session("toh", names(3), options={"min-players": "2"}).target == 5
    assert staged_session("toh", names(12), options={"max-players": "12"}).target == 3
    assert "Players: 4 to 10" in staged_preset("toh").describe()
    assert "Players: 2 to 10" in staged_preset("toh", {"min-players": "2"}).describe()


def test_the_other_staged_games_take_two_to_as_many_as_the_pack_deals() -> None:
    assert staged_session("three-five-seven", names(2)).target == 3
    assert "Players: 2 to 7" in staged_preset("three-five-seven").describe()
    assert "Players: 2 to 10" in staged_preset("nuts").describe()
    with pytest.raises(OptionError, match="max-players: 2 to 7"):
        staged_preset("napalm", {"max-players": "8"})
    with pytest.raises(OptionError, match=r"min-players \(5\) is above max-players \(4\)"):
        staged_preset("toh", {"min-players": "5", "max-players": "4"})
    with pytest.raises(OptionError, match="min-players: 2 to 52"):
        staged_preset("toh", {"min-players": "1"})


# -- Five Card Draw and its variations ------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "low", "high"),
    [
        ("five-card-draw", 2, 6),  # "from two to six players"
        ("jacks-or-better", 4, 6),  # "There should be at least four players"
        ("trips-to-win", 4, 6),  # "the same as Five Card Draw - Jacks or Better"
        ("progressive-jackpots", 4, 6),
        ("deuces-wild", 4, 6),  # "this variation of Jacks or Better"
        ("jacks-back", 3, 5),  # "works well for smaller groups, say 3 to 5 players"
        ("32-card-poker", 2, 5),  # "The maximum number of players is five"
        ("seven-card-draw", 2, 4),  # "does not work well with more than four players"
    ],
)
def test_draw_games_take_the_counts_the_text_gives(game: str, low: int, high: int) -> None:
    assert draw_session(game, names(low), buy_in=10).rules.player_limit == high
    assert draw_session(game, names(high), buy_in=10).rules.fewest_players == low
    assert f"Players: {low} to {high}" in draw_preset(game).describe()
    with pytest.raises(OptionError, match=f"{low} to {high} players, not {high + 1}"):
        draw_session(game, names(high + 1))
    if low > 2:
        with pytest.raises(OptionError, match=rf"not {low - 1} \(see min-players\)"):
            draw_session(game, names(low - 1))


def test_draw_customs_beyond_the_texts_counts_are_options() -> None:
    # "It is possible for seven or or even eight people to play"
    with pytest.raises(OptionError, match=r"not 8 \(see max-players\)"):
        draw_session("five-card-draw", names(8))
    assert draw_session("five-card-draw", names(8), options={"max-players": "8"})
    assert draw_session("jacks-or-better", names(2), options={"min-players": "2"})
    with pytest.raises(OptionError, match="max-players: 2 to 5"):
        draw_preset("32-card-poker", {"max-players": "6"})
    with pytest.raises(OptionError, match=r"min-players \(5\) is above max-players \(4\)"):
        draw_preset("seven-card-draw", {"min-players": "5"})


# -- Guts and Bourré ----------------------------------------------------------------------------


def test_guts_takes_up_to_26_players_as_far_as_the_pack_deals() -> None:
    # "In theory as many as 26 people could play"
    assert "Players: 2 to 26" in guts_preset("two-card-guts").describe()
    assert "Players: 2 to 8" in guts_preset("four-two-two").describe()  # six cards each
    with pytest.raises(OptionError, match="2 to 26 players, not 27"):
        GutsSession(guts_preset("two-card-guts"), names(27))
    with pytest.raises(OptionError, match="at most 8 players"):
        GutsSession(guts_preset("four-two-two"), names(9))


def test_bourre_is_for_two_to_seven_players() -> None:
    # "aces high and two to seven players"
    assert "Players: 2 to 7" in bourre_preset("bourre").describe()
    with pytest.raises(OptionError, match=r"2 to 7 players.*eight-players=yes.*not 8"):
        bourre_session("bourre", names(8))
    assert bourre_session("bourre", names(8), options={"eight-players": "yes"})


def test_every_preset_plays_with_the_default_table_of_guts_play() -> None:
    count = PlayConfig().players
    for name in games():
        session = find_game(name).new_session(names(count), buy_in=100)
        assert not session.is_over, name
