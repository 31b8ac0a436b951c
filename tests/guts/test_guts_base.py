"""pagat's two-card Guts, rule by rule, with stacked decks.

Sections of the Guts rule text held here, all under two-card Guts: agreeing the stakes
before play (the ante and the most one deal may cost: ``test_maximum_loss_per_deal``);
the deal and the declaring (an ante only into an empty pot, two cards seen by their
holder alone, in or out in turn with the dealer last); the showdown and the order of
two-card hands; and the payments (losers match the pot, a tie shares it or empties it,
a lone player takes it unshown, the dealer in by default, the excess over the limit kept
in reserve: ``test_pot_limit_with_reserve_the_worked_example``). The rest holds what the
text leaves to the table: credit, table stakes, records and replays, shared tables.
"""

from __future__ import annotations

import json

import pytest
from guts_helpers import declare_all, declared, outcome, session, shown, start

from guts.errors import IllegalAction
from guts.games.guts import GutsRules, GutsSession, new_session
from guts.games.guts.events import CardsDealt, Moved
from guts.table import Reason

BASE = GutsRules()


def test_ante_when_the_pot_is_empty() -> None:
    s = session(BASE, 3)
    start(s, ["As Ad", "Ks Kd", "Qs Qd"])
    antes = [e for e in s.events if isinstance(e, Moved) and e.reason == Reason.ANTE.value]
    assert sorted(e.source for e in antes) == [0, 1, 2]
    assert s.table.pot == 3 and all(s.table.stack(i) == 99 for i in range(3))


def test_no_ante_when_the_pot_is_not_empty() -> None:
    s = session(BASE, 3)
    start(s, ["As Ad", "Ks Kd", "Qs Qd"])
    declare_all(s, ["in", "in", "out"])  # A wins 3, B pays 3
    assert s.table.pot == 3 and not s.is_over
    start(s, ["As Ad", "Ks Kd", "Qs Qd"])
    assert s.table.pot == 3  # nobody anted


def test_two_cards_face_down_seen_only_by_their_holder() -> None:
    s = session(BASE, 3)
    start(s, ["As Ad", "Ks Kd", "Qs Qd"])
    assert s.view(0)["hand"] == ["As", "Ad"]
    assert s.view(1)["hand"] == ["Ks", "Kd"]
    assert s.public_view()["hand"] is None
    dealt = [e for e in s.events if isinstance(e, CardsDealt)]
    assert [e.audience for e in dealt] == [(0,), (1,), (2,)]
    assert "As" not in json.dumps(s.view(1)) and "As" not in json.dumps(s.public_view())


def test_declare_in_turn_from_dealers_left_dealer_last() -> None:
    s = session(BASE, 4, button=1)  # dealer B: order C, D, A, B
    s.start_deal()
    order = []
    for _ in range(3):
        (decision,) = s.pending()
        order.append(decision.seat)
        s.act(decision.seat, "in")
    assert order == [2, 3, 0]
    assert [d.seat for d in s.pending()] == [1]


def test_out_of_turn_and_unknown_actions_raise_and_change_nothing() -> None:
    s = session(BASE, 3)
    s.start_deal()
    before = (s.events, s.table.ledger, s.pending())
    with pytest.raises(IllegalAction, match="not their turn"):
        s.act(1, "in")
    with pytest.raises(IllegalAction, match="choose one of in, out"):
        s.act(0, "raise")
    assert (s.events, s.table.ledger, s.pending()) == before


def test_one_player_in_takes_the_pot_without_showing() -> None:
    s = session(BASE, 3)
    start(s, ["3s 2d", "Ks Kd", "Qs Qd"])
    declare_all(s, ["in", "out", "out"])
    assert s.table.stack(0) == 102 and s.table.pot == 0
    assert shown(s) == []
    assert s.is_over and s.over_reason == "the pot was won"


def test_dealer_is_automatically_in_when_everyone_else_is_out() -> None:
    s = session(BASE, 3)
    start(s, ["As Ad", "Ks Kd", "3s 2d"])
    declare_all(s, ["out", "out"])
    assert s.pending() == ()
    assert declared(s)[-1] == (2, "in", True)
    assert s.table.stack(2) == 102 and shown(s) == []


def test_best_hand_takes_the_pot_and_every_other_player_in_pays_the_pot() -> None:
    s = session(BASE, 4)
    start(s, ["7s 2d", "Ks Kd", "As Qd", "Qs Qh"])
    declare_all(s, ["out", "in", "in", "in"])
    assert shown(s) == [1, 2, 3]
    assert s.table.stack(1) == 99 + 4  # K-K beats Q-Q and A-Q
    assert s.table.stack(2) == 99 - 4 and s.table.stack(3) == 99 - 4
    assert s.table.stack(0) == 99  # out: no extra loss
    assert s.table.pot == 8 and not s.is_over


def test_hand_order_pairs_over_high_cards_then_high_card_then_second_card() -> None:
    s = session(BASE, 3)
    start(s, ["2s 2d", "As Kd", "Ah Qd"])
    declare_all(s, ["in", "in", "in"])
    assert "A takes the pot" in outcome(s)
    start(s, ["Ks Qd", "As 3d", "Ah 2d"])
    declare_all(s, ["in", "in", "in"])
    assert "B takes the pot" in outcome(s)


def test_ties_for_best_share_the_pot_and_the_others_pay() -> None:
    s = session(BASE, 4)
    start(s, ["As Kd", "Ah Kc", "7s 2d", "8s 3d"])
    declare_all(s, ["in", "in", "in", "out"])
    assert s.table.stack(0) == 99 + 2 and s.table.stack(1) == 99 + 2
    assert s.table.stack(2) == 99 - 4 and s.table.pot == 4


def test_a_tie_among_all_who_stay_in_empties_the_pot_and_ends_the_game() -> None:
    s = session(BASE, 3)
    start(s, ["As Kd", "Ah Kc", "7s 2d"])
    declare_all(s, ["in", "in", "out"])
    assert s.table.pot == 0 and s.is_over
    assert sorted([s.table.stack(0), s.table.stack(1)]) == [100, 101]  # odd chip


def test_continue_after_empty_antes_again() -> None:
    s = session(GutsRules(continue_after_empty=True), 3)
    start(s, ["As Kd", "Ks Kh", "7s 2d"])
    declare_all(s, ["in", "out", "out"])
    assert not s.is_over and s.table.pot == 0
    s.start_deal()
    assert s.table.pot == 3


def test_pot_limit_with_reserve_the_worked_example() -> None:
    rules = GutsRules(ante=20, pot_limit=100)
    s = session(rules, 4, stacks=1000)
    start(s, ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    assert s.table.pot == 80
    declare_all(s, ["in", "in", "in", "in"])
    assert (s.table.pot, s.table.reserve) == (100, 140)
    start(s, ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    declare_all(s, ["in", "out", "out", "out"])
    assert (s.table.pot, s.table.reserve) == (100, 40)
    start(s, ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    declare_all(s, ["in", "out", "out", "out"])
    assert (s.table.pot, s.table.reserve) == (40, 0) and not s.is_over
    start(s, ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    declare_all(s, ["in", "out", "out", "out"])
    assert s.is_over and s.table.pot == 0


def test_maximum_loss_per_deal() -> None:
    s = session(GutsRules(ante=10, max_loss=15), 3)
    start(s, ["As Ad", "Ks Kd", "Qs Qd"])
    declare_all(s, ["in", "in", "in"])
    assert s.table.stack(1) == 90 - 15 and s.table.pot == 30


def test_credit_lets_a_stack_go_negative() -> None:
    s = GutsSession(GutsRules(ante=10), [("A", 10), ("B", 100), ("C", 100)], button=2)
    start(s, ["Ks Kd", "As Ad", "Qs Qd"])
    declare_all(s, ["in", "in", "out"])
    assert s.table.stack(0) == -30


def test_table_stakes_pays_at_most_the_stack_and_broke_players_sit_out() -> None:
    s = GutsSession(GutsRules(ante=10, credit=False), [("A", 15), ("B", 100), ("C", 100)], button=2)
    start(s, ["Ks Kd", "As Ad", "Qs Qd"])
    declare_all(s, ["in", "in", "out"])
    assert s.table.stack(0) == 0 and s.table.pot == 5
    assert s.table.ledger[-1].shortfall == 25
    s.start_deal()
    assert s.deal is not None and 0 not in s.deal.seats


def test_a_session_replays_from_its_json_record() -> None:
    s = new_session("two-card-guts", ["Ann", "Bob", "Cy"], buy_in=50, button=2)
    start(s, ["As Ad", "Ks Kd", "Qs Qd"])
    declare_all(s, ["in", "in", "out"])
    s.start_deal()
    record = json.loads(json.dumps(s.record()))
    again = GutsSession.replay(record)
    assert again.events == s.events
    assert again.table.snapshot() == s.table.snapshot()
    assert again.pending() == s.pending()


def test_start_deal_refuses_while_a_deal_is_on_or_the_session_is_over() -> None:
    s = session(BASE, 2)
    s.start_deal()
    with pytest.raises(IllegalAction, match="in progress"):
        s.start_deal()
    declare_all(s, ["out"])
    assert s.is_over
    with pytest.raises(IllegalAction, match="over"):
        s.start_deal()
    with pytest.raises(IllegalAction, match="over"):
        s.act(0, "in")


def test_sessions_share_a_table_for_dealers_choice() -> None:
    from guts.errors import OptionError
    from guts.table import Table

    table = Table(["A", "B", "C"], buy_in=100, credit=True, button=2)
    first = GutsSession(BASE, table)
    start(first, ["As Ad", "Ks Kd", "Qs Qd"])
    declare_all(first, ["in", "out", "out"])
    assert first.is_over and table.stack(0) == 102 and table.button == 0
    second = GutsSession(GutsRules(cards=3), table)
    second.start_deal()
    assert [d.seat for d in second.pending()] == [1]  # the deal passed to the left
    assert table.pot == 3 and table.stack(0) == 101
    again = GutsSession.replay(json.loads(json.dumps(second.record())))
    assert again.events == second.events
    with pytest.raises(OptionError, match="credit"):
        GutsSession(GutsRules(credit=False), table)


def test_stopping_shares_out_what_is_left_so_the_table_settles() -> None:
    s = session(GutsRules(declare=GutsRules().declare.SIMULTANEOUS, pot_limit=4), 3)
    start(s, ["As Ad", "Ks Kd", "Qs Qd"])
    declare_all(s, ["in", "in", "in"])  # A takes 3, B and C pay 3: 4 in the pot, 2 aside
    assert (s.table.pot, s.table.reserve) == (4, 2)
    s.start_deal()
    with pytest.raises(IllegalAction, match="finish it first"):
        s.stop()
    declare_all(s, ["out", "out", "out"])
    s.stop()
    assert s.is_over and s.over_reason == "the players stopped"
    assert s.table.places == {} and sum(s.table.settlement().net.values()) == 0
    again = GutsSession.replay(json.loads(json.dumps(s.record())))
    assert again.events == s.events


def test_a_seed_and_the_actions_reproduce_a_session() -> None:
    import random

    def run() -> GutsSession:
        s = new_session("simultaneous-guts", ["A", "B", "C"], buy_in=20, rng=random.Random(42))
        moves = random.Random(1)
        while not s.is_over and s.deals_played < 20:
            if s.deal_over:
                s.start_deal()
                continue
            decision = s.pending()[0]
            s.act(decision.seat, moves.choice(decision.actions))
        return s

    assert run().events == run().events
