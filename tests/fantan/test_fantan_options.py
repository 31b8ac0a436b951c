"""Fan Tan's customs, each a named option with a documented default (issue 32)."""

from __future__ import annotations

import pytest
from fantan_helpers import SUITED, first_legal, paid_to, play, suit, table

from guts.errors import IllegalAction, OptionError
from guts.games.decision import PlayCard
from guts.games.fantan import PRESETS, Aces, ExtraChip, FalsePass, FanTanRules, Leader, preset
from guts.games.fantan.events import FalsePassFound


def test_the_defaults_are_documented_and_are_the_texts_game() -> None:
    rules = FanTanRules()
    assert rules.ante == 1 and rules.pass_chips == 1 and rules.card_chips == 1
    assert rules.leader is Leader.DEALERS_LEFT
    assert rules.extra_chip is ExtraChip.FEWER
    assert rules.false_pass is FalsePass.REFUSED
    assert rules.aces is Aces.LOW
    text = rules.describe()
    for name in FanTanRules.option_names():
        assert f"  {name} = " in text
    assert set(FanTanRules.option_help()) == set(FanTanRules.option_names())


def test_bad_options_name_the_option() -> None:
    with pytest.raises(OptionError, match="leader: unknown value"):
        preset("fan-tan", {"leader": "the-youngest"})
    with pytest.raises(OptionError, match="ante: expected a whole number of chips"):
        preset("fan-tan", {"ante": "-1"})
    with pytest.raises(OptionError, match="unknown Fan Tan option"):
        preset("fan-tan", {"trumps": "hearts"})
    with pytest.raises(OptionError, match="presets: fan-tan"):
        preset("fan-tan-deluxe")


def test_every_preset_reads_back_from_its_options() -> None:
    for name, (rules, description) in PRESETS.items():
        assert description
        assert FanTanRules.from_options(None, rules.to_options()) == rules, name


def test_the_ante_option() -> None:
    session = table(SUITED, options={"ante": "3"})
    assert session.table.pot == 12
    assert table(SUITED, options={"ante": "0"}).table.pot == 0


@pytest.mark.parametrize(
    ("rule", "pot"),
    [("fewer", 3 + 2), ("more", 3 + 1), ("none", 3)],
)
def test_the_extra_chip_evens_an_uneven_deal(rule: str, pot: int) -> None:
    # three players: B (the dealer's left) is dealt 18, C and A 17
    session = table({}, players=3, options={"extra-chip": rule})
    assert session.deal is not None and session.deal.dealt == {0: 18, 1: 17, 2: 17}
    assert session.table.pot == pot
    extra = {"fewer": {1: 1, 2: 1}, "more": {0: 1}, "none": {}}[rule]
    antes = paid_to(session, "ante")
    assert {seat: paid - 1 for seat, paid in antes.items() if paid > 1} == extra


def test_no_extra_chip_when_the_deal_is_even() -> None:
    assert table(SUITED, options={"extra-chip": "fewer"}).table.pot == 4


def test_the_holder_of_the_seven_of_diamonds_leads_it() -> None:
    session = table(SUITED, preset="fan-tan-seven-of-diamonds")
    decision = session.pending()[0]
    assert decision.seat == 2
    assert isinstance(decision.options, PlayCard) and decision.actions == ("7d",)
    with pytest.raises(IllegalAction, match="seven of diamonds"):
        session.act(2, "8d")
    play(session, [(2, "7d")])
    assert session.pending()[0].seat == 3  # play goes on to the leader's left


def test_the_seven_of_diamonds_leader_must_lead_it_even_when_false_passes_go_unchecked() -> None:
    session = table(SUITED, options={"leader": "seven-of-diamonds", "false-pass": "pot"})
    assert session.pending()[0].actions == ("7d",)


def test_aces_high_rows_run_down_to_the_two_and_up_to_the_ace() -> None:
    session = table(SUITED, preset="fan-tan-aces-high")
    for card in ["7h", "6h", "5h", "4h", "3h", "2h"]:
        assert card in session.pending()[0].actions
        play(session, [(0, card)])
        for seat in (1, 2, 3):
            play(session, [(seat, session.pending()[0].actions[0])])
    assert session.pending()[0].actions == ("8h",)  # the ace is not below the two
    for card in ["8h", "9h", "Th", "Jh", "Qh", "Kh"]:
        play(session, [(0, card)])
        for seat in (1, 2, 3):
            play(session, [(seat, session.pending()[0].actions[0])])
    assert session.pending()[0].actions == ("Ah",)  # above the king
    assert session.view(0)["aces"] == "high"


def test_pass_and_card_chips() -> None:
    hands = {**SUITED, 0: suit("h", without="7h", plus="2c"), 1: suit("c", without="2c", plus="7h")}
    session = table(hands, options={"pass-chips": "2", "card-chips": "3"})
    play(session, [(0, "pass")])
    assert session.table.stacks[0] == 47
    session = table(SUITED, options={"card-chips": "3"})
    first_legal(session)
    assert paid_to(session, "cards-left") == {1: 3, 2: 3, 3: 3}
    assert paid_to(session, "penalty") == {}  # paying for cards held is no fine


def test_a_false_pass_is_taken_and_fined_to_the_pot_when_the_card_comes_out() -> None:
    session = table(SUITED, options={"false-pass": "pot", "false-pass-fine": "3"})
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s")])
    assert session.pending()[0].actions == ("6h", "8h", "pass")
    events = session.act(0, "pass")
    assert not [e for e in events if isinstance(e, FalsePassFound)]  # not known yet
    assert session.table.stacks[0] == 48  # the ante and the pass: no fine yet
    stack, pot = session.table.stacks[0], session.table.pot
    play(session, [(1, "6c"), (2, "6d"), (3, "6s")])
    events = session.act(0, "8h")
    found = [e for e in events if isinstance(e, FalsePassFound)]
    assert [(e.seat, e.card, e.fine, e.paid_to) for e in found] == [(0, "8h", 3, ())]
    assert session.table.stacks[0] == stack - 3
    assert session.table.pot == pot + 3


def test_a_false_pass_fine_goes_to_each_holder_of_a_card_it_held_up() -> None:
    # A passes holding 6h; B holds the 5h that the 6h holds up
    hands = {**SUITED, 0: suit("h", without="5h", plus="2c"), 1: suit("c", without="2c", plus="5h")}
    session = table(hands, preset="fan-tan-false-pass-holders")
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s"), (0, "pass")])
    play(session, [(1, "6c"), (2, "6d"), (3, "6s")])
    stacks = list(session.table.stacks)
    events = session.act(0, "6h")
    found = [e for e in events if isinstance(e, FalsePassFound)]
    assert [(e.seat, e.card, e.paid_to) for e in found] == [(0, "6h", (1,))]
    assert session.table.stacks[0] == stacks[0] - 1
    assert session.table.stacks[1] == stacks[1] + 1


def test_a_false_pass_holding_a_seven_is_fined_to_the_holders_of_both_neighbours() -> None:
    hands = {
        **SUITED,
        0: suit("h", without="6h 8h", plus="2c 2d"),
        1: suit("c", without="2c", plus="6h"),
        2: suit("d", without="2d", plus="8h"),
    }
    session = table(hands, options={"false-pass": "holders"})
    play(session, [(0, "pass"), (1, "7c"), (2, "7d"), (3, "7s")])
    events = session.act(0, "7h")
    found = [e for e in events if isinstance(e, FalsePassFound)]
    assert [e.paid_to for e in found] == [(1, 2)]
    assert paid_to(session, "penalty", 1) == {0: 1} and paid_to(session, "penalty", 2) == {0: 1}


def test_a_false_pass_with_nobody_held_up_is_fined_to_the_pot() -> None:
    session = table(SUITED, preset="fan-tan-false-pass-holders")
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s"), (0, "pass")])
    play(session, [(1, "6c"), (2, "6d"), (3, "6s")])
    events = session.act(0, "6h")  # the 5h it held up is A's own
    assert [e.paid_to for e in events if isinstance(e, FalsePassFound)] == [()]


def test_a_false_pass_never_played_is_found_when_the_hands_are_shown() -> None:
    session = table(SUITED, options={"false-pass": "pot"})
    # B passes on its last turn, holding the Qc that fits; A then goes out
    turns = {1: ["7c", "6c", "5c", "4c", "3c", "2c", "Ac", "8c", "9c", "Tc", "Jc", "pass"]}
    first_legal(session, turns)
    found = [e for e in session.events if isinstance(e, FalsePassFound)]
    assert [(e.seat, e.card) for e in found] == [(1, "Qc")]


def test_a_round_of_passes_while_a_card_fits_ends_in_a_play() -> None:
    session = table(SUITED, options={"false-pass": "pot"})
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s")])
    play(session, [(0, "pass"), (1, "pass"), (2, "pass")])
    decision = session.pending()[0]
    assert decision.seat == 3 and "pass" not in decision.actions
    with pytest.raises(IllegalAction):
        session.act(3, "pass")


def test_a_card_may_be_named_in_any_spelling_when_a_pass_is_offered_too() -> None:
    session = table(SUITED, options={"false-pass": "pot"})
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s")])
    assert session.canonical(0, "play 6H") == "6h"
    assert session.canonical(0, " PASS ") == "pass"
    with pytest.raises(IllegalAction):
        session.canonical(0, "9h")


def test_two_false_passes_shown_by_one_card_are_found_together_and_fined_each() -> None:
    session = table(SUITED, options={"false-pass": "pot", "false-pass-fine": "2"})
    play(session, [(0, "7h"), (1, "7c"), (2, "7d"), (3, "7s"), (0, "pass")])
    play(session, [(1, "6c"), (2, "6d"), (3, "6s"), (0, "pass")])
    play(session, [(1, "5c"), (2, "5d"), (3, "5s")])
    stack = session.table.stacks[0]
    events = session.act(0, "6h")
    found = [e for e in events if isinstance(e, FalsePassFound)]
    assert [(e.card, e.passes, e.fine) for e in found] == [("6h", 2, 4)]
    assert session.table.stacks[0] == stack - 4
