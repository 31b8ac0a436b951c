"""Every wrong input to the public API is a GutsError naming it, and changes nothing;
``act`` returns the events it caused; a Decision says exactly what is legal."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from guts.betting import Legal
from guts.catalog import find_game, games
from guts.errors import GutsError, IllegalAction
from guts.games.base import Session
from guts.games.decision import Choose, Decision, Discard, PlayCard, Wager, betting_action

PLAYERS = [("Ann", 50), ("Bob", 50), ("Cat", 50), ("Dan", 50)]


def started(name: str, seed: int = 1) -> Session:
    session = find_game(name).new_session(PLAYERS, rng=random.Random(seed))
    session.start_deal()
    return session


def state(session: Session) -> str:
    views = [session.view(seat) for seat in range(len(PLAYERS))]
    return json.dumps([[e.to_dict() for e in session.events], views, session.public_view(),
                       len(session.table.ledger)], default=str)  # fmt: skip


@pytest.mark.parametrize("name", sorted(games()))
@pytest.mark.parametrize("seat", [True, False])
def test_a_bool_is_never_a_seat(name: str, seat: bool) -> None:
    session = started(name)
    before = state(session)
    for action in {*session.legal_actions(int(seat)), "in", "play", "fold"}:
        with pytest.raises(IllegalAction, match=f"no seat {seat}: seats are the numbers 0 to 3"):
            session.act(seat, action)
        assert not session.can_act(seat, action)
    assert state(session) == before


@pytest.mark.parametrize("name", ["bourre-second-ante", "jacks-or-better", "two-card-guts",
                                  "three-five-seven", "toh"])  # fmt: skip
@pytest.mark.parametrize(
    "action", [None, 3, 2.5, [], ["in"], b"in", {"x": 1}, "raise ²", "bet " + "9" * 4000]
)
def test_an_action_that_is_not_a_sensible_string_is_refused_by_name(name: str, action: Any) -> None:
    session = started(name)
    seat = session.pending()[0].seat
    before = state(session)
    with pytest.raises(IllegalAction) as refused:
        session.act(seat, action)
    assert len(str(refused.value)) < 300
    assert str(refused.value).startswith(session.table.names[seat])
    assert not session.can_act(seat, action)
    assert state(session) == before


def test_bet_amounts_are_plain_digits_of_sensible_length() -> None:
    for text in ("raise ²", "bet ٣", "bet " + "9" * 13, "bet 0", "bet -1", "raise to"):
        with pytest.raises(IllegalAction):
            betting_action(text)
    assert str(betting_action("bet " + "9" * 12)) == "bet 999999999999"


def test_act_returns_the_cards_a_draw_brings() -> None:
    session = find_game("five-card-draw").new_session(PLAYERS, rng=random.Random(4))
    session.start_deal()
    while session.pending()[0].kind == "bet":
        decision = session.pending()[0]
        bets = [a for a in decision.actions if a.startswith("bet")]
        session.act(decision.seat, "call" if "call" in decision.actions else bets[0])
    decision = session.pending()[0]
    assert decision.kind == "draw"
    hand = decision.options.hand  # type: ignore[union-attr]
    events = session.act(decision.seat, f"discard {hand[0]} {hand[1]}")
    assert events == session.events[-len(events) :]
    dealt = [e for e in events if e.kind == "draw-dealt" and e.seat == decision.seat]  # type: ignore[attr-defined]
    assert dealt and dealt[-1].audience == (decision.seat,)
    assert len(dealt[-1].cards) == 2  # type: ignore[attr-defined]
    assert not set(hand[:2]) & set(dealt[-1].cards)  # type: ignore[attr-defined]


def test_a_wager_gives_the_exact_range_and_reads_every_spelling() -> None:
    decision = Decision(2, Wager(Legal(2, True, False, 10, min_raise_to=20, max_raise_to=37), 37))
    assert decision.kind == "bet"
    assert decision.prompt == "fold, call 10, raise to 20..37"
    assert decision.to_dict()["options"] == {
        "can_fold": True, "can_check": False, "call_amount": 10, "min_bet": None,
        "max_bet": None, "min_raise_to": 20, "max_raise_to": 37, "stack": 37,
    }  # fmt: skip
    assert [decision.canonical(t) for t in ("c", "F", "r 25", "raise to 37", "raise 20")] == [
        "call", "fold", "raise 25", "raise 37", "raise 20"
    ]  # fmt: skip
    for text in ("raise 19", "raise 38", "check", "bet 20"):
        with pytest.raises(IllegalAction, match=r"fold, call 10, raise to 20\.\.37"):
            decision.canonical(text)


def test_a_discard_names_the_limit_and_the_missing_card() -> None:
    draw = Discard(("Ah", "Kd", "7c", "3s", "2h"), counts=(0, 1, 2, 3))
    assert draw.limit == 3 and len(draw.actions()) == 1 + 5 + 10 + 10
    assert draw.canonical("2h 7c") == "discard 7c 2h"
    assert draw.canonical("pat") == draw.canonical("0") == "stand pat"
    with pytest.raises(IllegalAction, match="you hold no 8♣"):
        draw.canonical("discard 8c")
    with pytest.raises(IllegalAction, match="at most 3 cards"):
        draw.canonical("discard Kd 7c 3s 2h")
    four = Discard(("Ah", "Kd", "7c", "3s", "2h"), counts=(0, 1, 2, 3),
                   extra=(("Kd", "7c", "3s", "2h"),))  # fmt: skip
    assert four.canonical("2h 3s 7c Kd") == "discard Kd 7c 3s 2h" and four.limit == 4
    with pytest.raises(IllegalAction):
        four.canonical("Ah 7c 3s 2h")  # four, but not keeping the ace


def test_a_card_play_says_why_a_card_may_not_be_played() -> None:
    why = (("5h", "you have no clubs, so you must trump"),)
    play = PlayCard(("Js", "4s", "5h"), ("Js", "4s"), why)
    assert play.canonical("js") == "Js" and play.canonical("play 4s") == "4s"
    with pytest.raises(IllegalAction, match="cannot play 5♥: you have no clubs"):
        play.canonical("5h")
    with pytest.raises(IllegalAction, match="you hold no A♠"):
        play.canonical("As")


def test_a_choice_is_read_in_any_case_and_spacing() -> None:
    choose = Choose(("take up", "take down"))
    assert choose.canonical("  TAKE   up ") == "take up"
    with pytest.raises(GutsError, match="choose one of take up, take down"):
        choose.canonical("take")
