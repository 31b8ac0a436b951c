"""Guts, Three Five Seven and Bourré as OpenSpiel games: OpenSpiel's own random simulation
checks for every preset offered, the whole tree of a tiny Guts game (every return
zero-sum), information states that hide what a seat may not see (cards dealt later
included), CFR converging on small Guts configurations and outcome-sampling MCCFR run on
Three Five Seven and Bourré."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import (
    cfr,
    exploitability,
    get_all_states,
    outcome_sampling_mccfr,
)

from guts.catalog import games
from guts.envs.openspiel import game_name, offered, register
from guts.errors import OptionError

TINY = {"cards": "As Ks Qs Js"}
"""Two players, one deal from four cards: 24 deals, a few declarations each."""

GUTS = sorted(name for name, game in games().items() if game.family == "guts")
STAGED_AND_BOURRE = [
    name for name, game in games().items() if game.family in ("staged", "bourre") and name != "toh"
]


def test_every_guts_staged_and_bourre_preset_but_toh_is_registered() -> None:
    wanted = [name for name in games() if name in GUTS or name in STAGED_AND_BOURRE]
    assert offered() == wanted and len(STAGED_AND_BOURRE) >= 20
    assert register() == [game_name(name) for name in wanted]
    assert set(register()) <= set(pyspiel.registered_names())
    assert "guts_toh" not in pyspiel.registered_names()
    assert "guts_five_card_draw" not in pyspiel.registered_names()


@pytest.mark.parametrize("preset", GUTS)
def test_random_simulations_pass_openspiel_checks(preset: str) -> None:
    game = pyspiel.load_game(game_name(preset), {"players": 3, "deals": 2})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_whole_tree_of_a_tiny_game_is_zero_sum() -> None:
    game = pyspiel.load_game("guts_two_card_guts", TINY)
    states = get_all_states.get_all_states(game, include_chance_states=True)
    ends = [state for state in states.values() if state.is_terminal()]
    assert len(ends) > 24  # every deal, and more than one way to play each
    assert all(sum(state.returns()) == 0 for state in ends)
    assert {tuple(state.returns()) for state in ends} >= {(1.0, -1.0), (-1.0, 1.0)}
    chance = game.new_initial_state()
    assert chance.is_chance_node()
    assert [p for _, p in chance.chance_outcomes()] == [0.25] * 4


def test_chance_deals_the_cards_from_the_dealers_left() -> None:
    game = pyspiel.load_game("guts_two_card_guts", TINY)
    state = game.new_initial_state()
    for card in (51, 47, 43, 39):  # As Ks Qs Js
        state.apply_action(card)
    assert state.session.deal.down == {1: [*map(_card, ("As", "Qs"))],
                                       0: [*map(_card, ("Ks", "Js"))]}  # fmt: skip
    assert state.current_player() == 1
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["in", "out"]


def _card(code: str) -> object:
    from guts.cards import parse_card

    return parse_card(code)


def test_an_information_state_shows_a_seat_its_cards_and_nothing_of_the_others() -> None:
    game = pyspiel.load_game("guts_two_card_guts", TINY)
    first, second = game.new_initial_state(), game.new_initial_state()
    for card in (51, 47, 43, 39):  # seat 1: As Qs, seat 0: Ks Js
        first.apply_action(card)
    for card in (51, 39, 43, 47):  # seat 1: As Qs, seat 0: Js Ks
        second.apply_action(card)
    for kind in ("information_state", "observation"):
        mine, theirs = (getattr(s, f"{kind}_string")(1) for s in (first, second))
        assert mine == theirs
        mine, theirs = (getattr(s, f"{kind}_tensor")(1) for s in (first, second))
        assert mine == theirs
        mine, theirs = (getattr(s, f"{kind}_string")(0) for s in (first, second))
        assert mine != theirs
    assert len(first.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(first.observation_tensor(0)) == game.observation_tensor_size()


def test_a_simultaneous_game_declares_at_once_and_others_wait() -> None:
    game = pyspiel.load_game("guts_simultaneous_guts", {**TINY, "options": "max-deals=1"})
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    state = game.new_initial_state()
    for card in (51, 47, 43, 39):
        state.apply_action(card)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert [state.legal_actions(p) for p in (0, 1)] == [[0, 1], [0, 1]]
    state.apply_actions([1, 1])  # both out: the pot stays, and is shared out at the end
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


@pytest.mark.parametrize("preset", ["two-card-guts", "simultaneous-guts"])
def test_cfr_converges_on_a_tiny_game(preset: str) -> None:
    game = pyspiel.load_game(game_name(preset), TINY)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.exploitability(game, solver.average_policy())
    for _ in range(7):
        solver.evaluate_and_update_policy()
    later = exploitability.exploitability(game, solver.average_policy())
    assert later < first / 4 and later < 0.1


def test_bad_parameters_are_clear_errors() -> None:
    with pytest.raises(OptionError, match="cards: a deal for 3 players may need 6"):
        pyspiel.load_game("guts_two_card_guts", {"players": 3, **TINY})
    with pytest.raises(OptionError, match="declare/pass-left"):
        pyspiel.load_game("guts_two_card_guts", {"options": "declare=simultaneous"})
    with pytest.raises(OptionError, match="not name=value"):
        pyspiel.load_game("guts_two_card_guts", {"options": "ghost"})
    with pytest.raises(OptionError, match="nobody ever decides anything"):
        pyspiel.load_game("guts_two_low_in_wild", {"players": 2})
    low = pyspiel.load_game("guts_two_low_in_wild", {"players": 3})
    assert low.get_type().min_num_players == 3
    with pytest.raises(OptionError, match="Guts needs 2 to 26 players, not 27"):
        pyspiel.load_game("guts_two_card_guts", {"players": 27})


def test_the_information_state_tensor_recalls_the_seats_own_decisions() -> None:
    game = pyspiel.load_game("guts_two_card_guts", {"players": 3, "cards": "As Ks Qs Js Ts 9s"})
    state = game.new_initial_state()
    for card in (51, 47, 43, 39, 35, 31):
        state.apply_action(card)
    assert state.current_player() == 1
    before = state.information_state_tensor(1)
    state.apply_action(0)  # seat 1 is in
    after = state.information_state_tensor(1)
    actions = 4 * game.num_distinct_actions()  # four decisions a deal, one deal
    assert before[-actions:] == [0.0] * actions
    assert after[-actions:] == [1.0] + [0.0] * (actions - 1)
    size = game.observation_tensor_size()
    assert after[size : 2 * size] == before[:size]  # what it saw when it decided


# -- Three Five Seven and Bourré ------------------------------------------------------------


@pytest.mark.parametrize("preset", STAGED_AND_BOURRE)
def test_random_simulations_of_the_staged_games_and_bourre_pass_openspiel_checks(
    preset: str,
) -> None:
    game = pyspiel.load_game(game_name(preset), {"players": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "preset", ["three-five-seven", "three-five-seven-dealers-choice", "bourre"]
)
def test_longer_random_simulations_pass_openspiel_checks(preset: str) -> None:
    game = pyspiel.load_game(game_name(preset), {"players": 3, "deals": 2, "buy_in": 5})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_kinds_of_game_and_their_sizes() -> None:
    dynamics = pyspiel.GameType.Dynamics
    for preset, kind in [
        ("three-five-seven", dynamics.SEQUENTIAL),
        ("three-five-seven-simultaneous", dynamics.SIMULTANEOUS),
        ("three-five-seven-dealers-choice", dynamics.SIMULTANEOUS),  # may choose at once
        ("nuts", dynamics.SIMULTANEOUS),
        ("bourre", dynamics.SEQUENTIAL),
    ]:
        game = pyspiel.load_game(game_name(preset))
        assert game.get_type().dynamics == kind
        assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game.min_utility() < 0 < game.max_utility()
    bourre = pyspiel.load_game("guts_bourre")
    assert (bourre.get_type().min_num_players, bourre.get_type().max_num_players) == (2, 5)
    names = [bourre.new_initial_state().action_to_string(0, a) for a in range(39)]
    assert names[:3] == ["play", "fold", "card 0"] and names[-1] == "discard 0 1 2 3 4"
    staged = pyspiel.load_game("guts_three_five_seven")
    assert staged.get_type().max_num_players == 7 and staged.num_distinct_actions() == 4


def deal(game: object, codes: list[int]) -> object:
    """A new state of ``game`` with ``codes`` dealt by chance, in order."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for code in codes:
        assert state.is_chance_node()
        state.apply_action(code)
    return state


def test_three_five_seven_deals_every_stage_before_the_first_and_shows_each_when_dealt() -> None:
    game = pyspiel.load_game("guts_three_five_seven")
    codes = list(range(51, 37, -1))  # 14 cards: 7 for each of the 2 players, 3 + 2 + 2
    first = deal(game, codes)
    assert not first.is_chance_node() and first.current_player() == 1  # the dealer's left
    assert [first.action_to_string(a) for a in first.legal_actions()] == ["in", "out"]
    # seat 1 gets the cards at 0, 2, 4 (then 6, 8 in stage 2): swap seat 0's first card
    # with seat 1's first card of stage 2, not dealt yet
    swapped = codes[:]
    swapped[1], swapped[6] = swapped[6], swapped[1]
    second = deal(game, swapped)
    for kind in ("information_state", "observation"):
        assert getattr(first, f"{kind}_string")(1) == getattr(second, f"{kind}_string")(1)
        assert getattr(first, f"{kind}_tensor")(1) == getattr(second, f"{kind}_tensor")(1)
        assert getattr(first, f"{kind}_string")(0) != getattr(second, f"{kind}_string")(0)
    for state in (first, second):  # both in: stage 1 is compared, then stage 2 is dealt
        state.apply_action(0)
        state.apply_action(0)
    assert first.information_state_string(1) != second.information_state_string(1)


def test_bourre_deals_the_hands_and_all_the_draw_may_take_and_hides_the_stock() -> None:
    game = pyspiel.load_game("guts_bourre")
    codes = list(range(20))  # 5 cards each and 5 more each for the draw
    chance = game.new_initial_state()
    assert [p for _, p in chance.chance_outcomes()] == [1 / 52] * 52
    first = deal(game, codes)
    assert not first.is_chance_node() and first.current_player() == 1
    assert [first.action_to_string(a) for a in first.legal_actions()] == ["play", "fold"]
    hidden = codes[:]
    hidden[1], hidden[12] = hidden[12], hidden[1]  # seat 0's first card for a stock card
    second = deal(game, hidden)
    assert first.information_state_string(1) == second.information_state_string(1)
    assert first.information_state_tensor(1) == second.information_state_tensor(1)
    assert first.information_state_string(0) != second.information_state_string(0)
    trump = codes[:]
    trump[9], trump[12] = trump[12], trump[9]  # the dealer's fifth card is turned: trumps
    third = deal(game, trump)
    assert first.information_state_string(1) != third.information_state_string(1)


def test_bourre_games_that_would_reshuffle_the_draw_are_refused() -> None:
    with pytest.raises(OptionError, match="at most 5 players"):
        pyspiel.load_game("guts_bourre", {"players": 6})
    six = pyspiel.load_game("guts_bourre", {"players": 6, "options": "max-discard=3"})
    assert six.num_players() == 6  # 6 x (5 + 3) cards: the pack suffices
    with pytest.raises(OptionError, match="end-pot"):
        pyspiel.load_game("guts_bourre", {"options": "end-pot=stays"})
    with pytest.raises(OptionError, match="cards: a deal for 2 players may need 20"):
        pyspiel.load_game("guts_bourre", {"cards": "As Ks Qs Js Ts 9s 8s 7s 6s 5s"})


@pytest.mark.parametrize("preset", ["three-five-seven", "three-five-seven-simultaneous", "bourre"])
def test_outcome_sampling_mccfr_runs_and_its_policy_plays_legal_moves(preset: str) -> None:
    game = pyspiel.load_game(game_name(preset))
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    np.random.seed(7)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(6):
        solver.iteration()
    policy = solver.average_policy()
    rng = np.random.default_rng(7)
    decisions = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=chances)))
                continue
            probabilities = policy.action_probabilities(state)
            assert sorted(probabilities) == state.legal_actions()
            assert sum(probabilities.values()) == pytest.approx(1.0)
            actions, weights = zip(*probabilities.items(), strict=True)
            state.apply_action(int(rng.choice(actions, p=weights)))
            decisions += 1
        assert sum(state.returns()) == 0
    assert decisions >= 3
