"""Jacks or Better, splitting openers, the opener's proof, progressive jackpots, Trips to Win.

Sections of the draw poker rule text held here: Jacks or Better (what opens, the hand
thrown in when nobody opens, split openers, the opener's proof, progressive jackpots) and
Jacks or Better with Trips to Win (``test_trips_to_win_*``).
"""

from __future__ import annotations

from dataclasses import replace

from draw_helpers import hand, of_kind, play, stacked, table_session, to_act

from guts.cards import parse_cards
from guts.games.draw import DrawSession, preset
from guts.games.draw.events import DealStarted, OpenersShown, SplitOpeners

# Dealing order P1, P2, P3, P0 (P0 deals).
FOUR = ["Js Jh 7c 5h 2s", "Ts Th Ac Kd Qs", "9c 8d 6h 4s 3c", "Ks Qd Jc 4h 6d"]
REST = "Tc Td 9s 9d 9h 8s 8c 7d 7h 7s 5c 5d 5s 4c 4d 3d 3h 3s"


def start(
    name: str = "jacks-or-better",
    hands: list[str] | None = None,
    rest: str = REST,
    **options: object,
) -> DrawSession:
    rules = replace(preset(name), **options)  # type: ignore[arg-type]
    session = table_session(rules, 4)
    session.start_deal(stacked(hands or FOUR, rest))
    return session


def test_without_openers_a_player_must_pass_when_openers_are_enforced() -> None:
    session = start(enforce_openers=True)
    assert "bet 1" in session.pending()[0].actions  # P1 holds jacks
    play(session, (1, "check"))
    assert session.pending()[0].actions == ("fold", "check")  # P2's tens cannot open


def test_once_opened_others_call_or_raise_whatever_they_hold() -> None:
    session = start(enforce_openers=True)
    play(session, (1, "bet 1"))
    assert "raise 2" in session.pending()[0].actions


def test_two_pair_opens_but_tens_with_high_kickers_do_not() -> None:
    hands = ["6s 6c 2d 2h Ad", "Ts Th Ac Kd Qs", "9c 8d 6h 4s 2c", "Ks Qd Jc 4h 6d"]
    session = start(hands=hands, enforce_openers=True)
    assert "bet 1" in session.pending()[0].actions
    play(session, (1, "check"))
    assert "bet 1" not in session.pending()[0].actions


def test_nobody_opens_cards_thrown_in_and_the_next_player_deals() -> None:
    session = start()
    play(session, (1, "check"), (2, "check"), (3, "check"), (0, "check"))
    assert session.deal is not None and session.deal.result == "thrown-in"
    assert session.table.button == 1 and session.table.pot == 4


def test_an_opener_without_openers_whom_everyone_folds_to_has_a_dead_hand_pot_stays() -> None:
    session = start()
    play(session, (1, "check"), (2, "bet 1"), (3, "fold"), (0, "fold"), (1, "fold"))
    shown = [e for e in session.events if isinstance(e, OpenersShown)]
    assert shown and shown[0].seat == 2 and not shown[0].proved
    assert session.deal is not None and session.deal.result == "pot-stays"
    assert session.table.pot == 4 and session.table.stack(2) == 99 and not session.is_over


def test_a_dead_opener_cannot_win_the_showdown_the_best_other_hand_does() -> None:
    session = start()
    play(session, (1, "check"), (2, "bet 1"), (3, "fold"), (0, "fold"), (1, "call"))
    play(session, (1, "stand pat"), (2, "discard Ac Kd Qs"))
    assert hand(session, 2) == parse_cards("Ts Th Tc Td 9s")  # four tens, but dead
    play(session, (2, "check"), (1, "check"))
    assert session.table.stack(1) == 98 + 6 and session.table.stack(2) == 98


def test_the_opener_proves_openers_even_when_everyone_folds() -> None:
    session = start()
    play(session, (1, "bet 1"), (2, "fold"), (3, "fold"), (0, "fold"))
    shown = [e for e in session.events if isinstance(e, OpenersShown)]
    assert shown[0].proved and set(shown[0].cards) == {"Js", "Jh"}
    assert session.table.stack(1) == 103 and session.is_over


def test_splitting_openers_is_announced_kept_apart_and_shown() -> None:
    hands = ["Js Jh 8h 7h 6h", "Ts Tc Ac Kd Qs", "9c 8d 6s 4s 3c", "Ks Qd Jc 4c 6d"]
    session = start(hands=hands, rest="2h 3d 4d 5d 9s")
    play(session, (1, "bet 1"), (2, "call"), (3, "fold"), (0, "fold"))
    play(session, (1, "discard Js"))
    split = [e for e in session.events if isinstance(e, SplitOpeners)]
    assert split == [SplitOpeners(seat=1, count=1)]
    assert session.deal is not None and session.deal.kept_apart == list(parse_cards("Js"))
    assert session.deal.discards[1] == []  # kept apart from the other discards
    play(session, (2, "discard Ac Kd Qs"), (1, "check"), (2, "check"))
    shown = [e for e in session.events if isinstance(e, OpenersShown)]
    assert shown[0].kept_apart == ("Js",) and shown[0].proved
    assert session.table.stack(1) == 98 + 6  # the heart flush wins


def test_discarding_a_card_that_keeps_the_openers_is_not_a_split() -> None:
    session = start()
    play(session, (1, "bet 1"), (2, "call"), (3, "fold"), (0, "fold"))
    play(session, (1, "discard 7c 5h 2s"))
    assert not of_kind(session, "draw-split-openers")


def test_progressive_jackpots_go_jacks_queens_kings_aces_and_back() -> None:
    session = table_session(preset("progressive-jackpots", {"min-players": "3"}), 3)
    seen = []
    for _ in range(8):
        seen.append(session.openers.value)
        session.start_deal()
        for _ in range(3):
            session.act(to_act(session), "check")
    assert seen == ["jacks", "queens", "kings", "aces", "kings", "queens", "jacks", "queens"]
    starts = [e for e in session.events if isinstance(e, DealStarted)]
    assert [e.openers for e in starts] == seen


def test_progressive_requirement_returns_to_jacks_after_an_opened_pot() -> None:
    session = table_session(preset("progressive-jackpots", {"min-players": "3"}), 3)
    session.start_deal()
    for _ in range(3):
        session.act(to_act(session), "check")
    assert session.openers.value == "queens"
    session.start_deal()
    seat = to_act(session)
    play(session, (seat, "bet 1"))
    while not session.deal_over:
        session.act(to_act(session), "fold")
    assert session.openers.value == "jacks"


# -- Trips to Win ------------------------------------------------------------------------


def test_trips_to_win_needs_three_of_a_kind_to_take_the_pot() -> None:
    session = start("trips-to-win")
    play(session, (1, "bet 1"), (2, "call"), (3, "fold"), (0, "call"))
    play(session, (1, "discard 7c 5h 2s"), (2, "stand pat"), (0, "stand pat"))
    assert hand(session, 1) == parse_cards("Js Jh Tc Td 9s")
    play(session, (1, "check"), (2, "check"), (0, "check"))
    assert session.deal is not None and session.deal.result == "pot-stays"
    assert session.table.pot == 4 + 3


def test_trips_to_win_folded_players_are_out_and_the_others_ante_again() -> None:
    session = _no_trips_session()
    session.start_deal()
    started = [e for e in session.events if isinstance(e, DealStarted)][-1]
    assert set(started.seats) == {0, 1, 2}
    assert session.table.pot == 7 + 3


def test_trips_to_win_an_uncontested_winner_must_show_trips() -> None:
    session = start("trips-to-win")
    play(session, (1, "bet 1"), (2, "fold"), (3, "fold"), (0, "fold"))
    assert session.deal is not None and session.deal.result == "pot-stays"
    session.start_deal()  # only P1 stayed to the draw: everyone plays again
    started = [e for e in session.events if isinstance(e, DealStarted)][-1]
    assert len(started.seats) == 4


def test_trips_to_win_trips_take_the_pot() -> None:
    hands = ["Js Jh Jc 5h 2s", "Ts Th Ac Kd Qs", "9c 8d 6h 4s 3c", "Ks Qd Jd 4h 6d"]
    session = start("trips-to-win", hands=hands)
    play(session, (1, "bet 1"), (2, "call"), (3, "fold"), (0, "fold"))
    play(session, (1, "discard 5h 2s"), (2, "stand pat"), (1, "check"), (2, "check"))
    assert session.table.stack(1) == 98 + 6 and session.is_over


def _no_trips_session() -> DrawSession:
    """The state after a pot nobody won for want of trips (P3 folded before the draw)."""
    session = start("trips-to-win")
    play(session, (1, "bet 1"), (2, "call"), (3, "fold"), (0, "call"))
    play(session, (1, "discard 7c 5h 2s"), (2, "stand pat"), (0, "stand pat"))
    play(session, (1, "check"), (2, "check"), (0, "check"))
    assert session.table.pot == 7 and not session.is_over
    return session
