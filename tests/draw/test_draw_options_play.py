"""Options in play: structures, caps, check-raise, wild sets, antes with blinds, Diablo's end.

Sections of the draw poker rule text held here: the first betting round's limits (the
raise cap, spread limits), blinds with or without an ante (and straddles), other wild sets
than the deuces, Jacks Back's ban on check-raising, Seven Card Draw's ante as well as its
blinds, and Diablo's rule in a dealer's choice game (it goes on until the opener wins).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

from draw_helpers import hand, play, stacked, table_session, to_act

from guts.betting import Limit
from guts.games.draw import DrawRules, DrawSession, RandomBot, new_session, play_session, preset

THREE = ["As Ad 7c 5h 2s", "Ks Kd 9c 8h 3s", "Qs Qd Jc 4h 6d"]
REST = "Tc Th Ts 9d 9h 9s 8c 8d 8s 7d 7h 7s"


def start(
    rules: DrawRules, hands: list[str] | None = None, players: int = 3, rest: str = REST
) -> DrawSession:
    session = table_session(rules, players)
    session.start_deal(stacked(hands or THREE, rest))
    return session


def test_heads_up_the_raise_cap_can_be_lifted() -> None:
    rules = replace(DrawRules(), cap_heads_up=False)
    session = start(rules, THREE[:2], players=2)
    # Two players: P1 (dealer's left) and P0.
    moves = ["bet 1", "raise 2", "raise 3", "raise 4", "raise 5", "raise 6"]
    seat = 1
    for move in moves:
        session.act(seat, move)
        seat = 1 - seat
    assert session.can_act(seat, "raise 7")


def test_without_check_raise_a_player_who_checked_may_only_call() -> None:
    session = start(replace(DrawRules(), check_raise=False))
    play(session, (1, "check"), (2, "bet 1"), (0, "call"))
    assert session.pending()[0].actions == ("fold", "call")


def test_spread_limit_lists_sizes_and_accepts_any_amount_in_range() -> None:
    session = start(replace(DrawRules(), limit=Limit.SPREAD, max_bet=5))
    decision = session.pending()[0]
    assert decision.actions == ("fold", "check", "bet 1", "bet 3", "bet 5")
    assert "bet 1..5" in decision.prompt
    assert session.can_act(1, "bet 4") and not session.can_act(1, "bet 6")


def test_one_eyed_jacks_wild() -> None:
    rules = DrawRules.from_options(None, {"wild": "Js,Jh"})
    hands = ["Js Kh Kc 8d 3s", "Ac Ah 9c 8h 4s", "Qs Qd 6c 5c 2d"]
    session = start(rules, hands, rest="Tc")
    play(session, (1, "bet 1"), (2, "call"), (0, "call"))
    for seat in (1, 2, 0):
        session.act(seat, "stand pat")
    for seat in (1, 2, 0):
        session.act(seat, "check")
    assert session.table.stack(1) == 98 + 6  # trip kings with the one-eyed jack


def test_blinds_in_addition_to_the_ante() -> None:
    session = start(replace(DrawRules(), blind=2, bet=2))
    assert session.table.stack(1) == 100 - 1 - 2 and session.table.pot == 3
    assert to_act(session) == 2


def test_seven_card_draw_with_an_ante_as_well_as_the_blinds() -> None:
    rules = replace(preset("seven-card-draw"), ante=1)
    hands = ["As Ah Ad 7c 5h 2s 3d", "Ks Kd 9c 8h 3s 4d 6c", "Qs Qd Jc 4h 6d 8s 9d"]
    session = start(rules, hands, rest="")
    assert session.table.stack(1) == 98 and session.table.stack(2) == 97
    assert len(hand(session, 0)) == 7


def test_diablo_continues_until_the_opener_wins_a_later_deal() -> None:
    diablo = ["Kc Kd 7c 5h 3s", "Ac Ad 9c 8h 4s", "Qs Jd 6c 5c 3d"]
    session = start(preset("diablo"), diablo, rest="6h 4d")
    play(session, (1, "bet 1"), (2, "call"), (0, "fold"))
    play(session, (1, "discard 5h 3s"), (2, "stand pat"), (1, "check"), (2, "check"))
    assert session.table.pot == 5 and not session.is_over
    # Next deal: P1 deals, P2 is dealer's left; P0 opens and everyone folds to P0.
    session.start_deal()
    play(session, (2, "check"), (0, "bet 1"), (1, "fold"), (2, "fold"))
    assert session.is_over and "P0" in session.over_reason


def test_straddles_beyond_the_players_dealt_in_are_not_posted() -> None:
    rules = replace(DrawRules(), ante=0, blind=2, bet=2, straddles=3)
    session = start(rules, THREE[:2], players=2)
    assert session.table.stack(1) == 98 and session.table.stack(0) == 96
    assert to_act(session) == 1


def test_two_jokers_replay_through_reshuffles() -> None:
    players = [f"P{i}" for i in range(8)]
    options = {"jokers": "2", "max-deals": "3", "max-players": "8"}
    session = new_session("two-draws", players, buy_in=40, rng=random.Random(0), options=options)
    play_session(session, {s: RandomBot(random.Random(s)) for s in range(8)})
    again = DrawSession.replay(json.loads(json.dumps(session.record())))
    assert again.events == session.events
