"""The Guts family as OpenSpiel games: OpenSpiel's own random simulation checks for every
preset, the whole tree of a tiny game (every return zero-sum), information states that
hide what a seat may not see, and CFR converging on small configurations."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability, get_all_states

from guts.catalog import games
from guts.envs.openspiel import game_name, register
from guts.errors import OptionError

TINY = {"cards": "As Ks Qs Js"}
"""Two players, one deal from four cards: 24 deals, a few declarations each."""

GUTS = sorted(name for name, game in games().items() if game.family == "guts")


def test_every_guts_preset_is_registered() -> None:
    assert register() == [game_name(name) for name in games() if name in GUTS]
    assert set(register()) <= set(pyspiel.registered_names())


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
