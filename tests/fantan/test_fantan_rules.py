"""Fan Tan's rules, one test per rule sentence, with stacked decks.

The rule text (the draw-poker text's stray paragraph) and the common rules of issue 32:
all 52 cards dealt one at a time; an ante; the first card a seven; rows by suit from the
seven down to the ace and up to the king; a player able to play must; one who cannot pays
one chip to the pot and passes; the first out wins, the others pay the pot a chip per card
held, and the winner takes the pot.
"""

from __future__ import annotations

from random import Random

import pytest
from fantan_helpers import SUITED, first_legal, paid_to, play, suit, table

from guts.cards import Deck, DeckKind
from guts.errors import IllegalAction
from guts.games.decision import PlayCard
from guts.games.fantan import new_session
from guts.games.fantan.events import CardPlaced, FanTanResult, Passed


def test_all_52_cards_are_dealt_one_at_a_time_from_the_dealers_left() -> None:
    session = new_session("fan-tan", ["A", "B", "C"], buy_in=50, button=0)
    deck = Deck.shuffled(DeckKind.STANDARD, Random(4))
    order = deck.cards
    session.start_deal(Deck.stacked(order))
    assert session.deal is not None
    hands = session.deal.hands
    # B (left of the dealer A) gets the 1st, 4th, ... card; the dealer deals themselves last
    for seat, start in ((1, 0), (2, 1), (0, 2)):
        assert sorted(hands[seat]) == sorted(order[start::3])
    assert sum(len(h) for h in hands.values()) == 52
    assert session.deal.dealt == {1: 18, 2: 17, 0: 17}  # "some players hold one card more"


SWAPPED = {**SUITED, 0: suit("h", without="7h", plus="2c"), 1: suit("c", without="2c", plus="7h")}
"""A holds no seven (its 7h is B's, for B's 2c)."""


def test_everyone_antes_one_chip() -> None:
    session = table(SUITED)
    assert session.table.pot == 4
    assert session.table.stacks == [49, 49, 49, 49]


def test_the_first_card_played_must_be_a_seven() -> None:
    session = table(SUITED)
    decision = session.pending()[0]
    assert decision.seat == 0  # the dealer's left leads
    assert isinstance(decision.options, PlayCard)
    assert decision.actions == ("7h",)
    with pytest.raises(IllegalAction, match="must be a seven"):
        session.act(0, "8h")


def test_a_player_without_a_seven_at_the_start_can_only_pass() -> None:
    session = table(SWAPPED)
    assert session.pending()[0].actions == ("pass",)
    with pytest.raises(IllegalAction):
        session.act(0, "8h")


def test_another_seven_starts_its_suits_row() -> None:
    session = table(SUITED)
    play(session, [(0, "7h")])
    assert session.pending()[0].actions == ("7c",)  # clubs' row starts with its seven only
    play(session, [(1, "7c")])
    view = session.public_view(events=False)
    assert view["rows"]["hearts"] == ["7h"] and view["rows"]["clubs"] == ["7c"]


def test_rows_build_only_in_sequence_by_suit_down_to_the_ace_and_up_to_the_king() -> None:
    session = table(SUITED)
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s")])
    assert session.pending()[0].actions == ("6h", "8h")
    with pytest.raises(IllegalAction, match="does not fit"):
        session.act(0, "9h")
    with pytest.raises(IllegalAction, match="does not fit"):
        session.act(0, "5h")
    down = ["6h", "5h", "4h", "3h", "2h", "Ah"]
    for card in down:
        assert card in session.pending()[0].actions
        play(session, [(0, card)])
        for seat in (1, 2, 3):
            play(session, [(seat, session.pending()[0].actions[0])])
    assert session.pending()[0].actions == ("8h",)  # nothing below the ace
    for card in ["8h", "9h", "Th", "Jh", "Qh"]:
        assert session.pending()[0].actions == (card,)
        play(session, [(0, card)])
        for seat in (1, 2, 3):
            play(session, [(seat, session.pending()[0].actions[0])])
    assert session.pending()[0].actions == ("Kh",)  # the king ends the row
    view = session.public_view(events=False)
    assert view["rows"]["hearts"] == [f"{r}h" for r in "A23456789TJQ"]


def test_a_player_who_can_play_must_play() -> None:
    session = table(SUITED)
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s")])
    decision = session.pending()[0]
    assert "pass" not in decision.actions
    with pytest.raises(IllegalAction):
        session.act(0, "pass")


def test_one_who_cannot_play_puts_one_chip_in_the_pot_and_the_turn_passes_left() -> None:
    session = table(SWAPPED)
    events = session.act(0, "pass")
    assert session.table.stacks[0] == 48 and session.table.pot == 5
    assert any(isinstance(e, Passed) and e.seat == 0 and e.paid == 1 for e in events)
    assert paid_to(session, "pass") == {0: 1} and paid_to(session, "penalty") == {}
    assert session.pending()[0].seat == 1
    assert set(session.pending()[0].actions) == {"7c", "7h"}


def test_the_first_out_wins_the_others_pay_a_chip_per_card_and_the_winner_takes_the_pot() -> None:
    # seat 0 holds every heart and goes out on its 13th turn; the others have played 12
    session = table(SUITED)
    first_legal(session)
    assert session.deal is not None
    result = next(e for e in session.events if isinstance(e, FanTanResult))
    assert result.winner == 0
    assert dict(result.cards) == {1: 1, 2: 1, 3: 1}
    assert paid_to(session, "cards-left") == {1: 1, 2: 1, 3: 1}
    assert session.table.stacks == [49 + 7, 48, 48, 48]  # 4 antes + 3 cards
    assert session.table.pot == 0


def test_the_payments_follow_every_hands_remaining_count() -> None:
    # B cannot start until D plays the 7c; B also holds the 2s, stuck behind D's 3s
    hands = {
        **SUITED,
        1: suit("c", without="7c", plus="2s"),
        2: suit("d"),
        3: suit("s", without="2s", plus="7c"),
    }
    session = table(hands)
    first_legal(session, {3: ["7c"]})
    result = next(e for e in session.events if isinstance(e, FanTanResult))
    assert result.winner == 0
    assert dict(result.cards) == {1: 2, 2: 1, 3: 1}
    # antes 4, B's pass 1, cards 2 + 1 + 1
    assert session.table.stacks == [49 + 9, 50 - 4, 48, 48]
    played = [e for e in session.events if isinstance(e, CardPlaced)]
    assert len(played) + 4 == 52


def test_the_losers_show_their_cards_to_be_counted() -> None:
    session = table(SUITED)
    first_legal(session)
    spectator = session.public_view()
    shown = [e for e in spectator["events"] if e["kind"] == "cards-shown"]
    assert [e["seat"] for e in shown] == [1, 2, 3]
    assert [e["cards"] for e in shown] == [["Kc"], ["Kd"], ["Ks"]]
    assert spectator["shown"] == {"1": ["Kc"], "2": ["Kd"], "3": ["Ks"]}


def test_the_deal_passes_left() -> None:
    session = table(SUITED)
    first_legal(session)
    assert session.table.button == 0
    session.start_deal()
    assert session.deal is not None and session.deal.seats == (1, 2, 3, 0)


def test_two_to_eight_players() -> None:
    from guts.errors import OptionError

    for count in (1, 9):
        with pytest.raises(OptionError, match="2 to 8 players"):
            new_session("fan-tan", [f"P{i}" for i in range(count)], buy_in=10)
    session = new_session("fan-tan", [f"P{i}" for i in range(8)], buy_in=10, button=7)
    session.start_deal()
    assert session.deal is not None
    assert list(session.deal.dealt.values()) == [7, 7, 7, 7, 6, 6, 6, 6]


def test_a_pass_decision_plays_no_card_and_says_pass() -> None:
    session = table(SWAPPED)
    options = session.pending()[0].options
    assert isinstance(options, PlayCard)
    assert options.allowed == () and options.words == ("pass",)
    assert dict(options.why_not).keys() == set(options.hand)  # every card greyed, with why
    assert session.pending()[0].actions == ("pass",)
    assert session.view(0)["legal"] == []


def test_a_card_or_a_pass_is_one_play_decision_whose_cards_are_the_hands() -> None:
    session = table(SUITED, options={"false-pass": "pot"})
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s")])
    decision = session.pending()[0]
    assert isinstance(decision.options, PlayCard)
    assert decision.options.allowed == ("6h", "8h") and decision.options.words == ("pass",)
    assert decision.to_dict()["options"]["words"] == ["pass"]
    assert decision.canonical("PASS") == "pass" and decision.canonical("play 8h") == "8h"
    with pytest.raises(IllegalAction, match="does not fit"):
        decision.canonical("Kh")


def test_a_pass_and_the_cards_left_are_told_once_in_the_games_words() -> None:
    from guts.games.fantan.words import tell

    names = ["You", "Bob", "Cy", "Di"]
    session = table(SWAPPED)
    session.act(0, "pass")
    lines = [tell(e, names) for e in session.events]
    told = [line for line in lines if line and "pass" in line]
    assert told == ["You pass and pay 1 into the pot"]
    session = table(SUITED)
    first_legal(session)
    lines = [line for line in (tell(e, names) for e in session.events) if line]
    assert not [line for line in lines if "cards-left" in line or "penalty" in line]
    assert sum("pays 1" in line for line in lines) == 1  # the outcome line alone
