"""Reading what a player types, for every kind of decision (guts.prompts), and what the
terminal shows of it (guts.screen): forms, refusals, help, the status line, colours."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from rich.console import Console
from rich.text import Text

from guts.betting import Legal
from guts.catalog import find_game, games
from guts.errors import IllegalAction
from guts.games.decision import Decision, Discard, PlayCard, Wager
from guts.play import policy_for
from guts.prompts import (
    checker,
    choice_keys,
    committed_chips,
    decision_from_dict,
    help_lines,
    read_answer,
    short_forms,
    summary,
    wants_help,
)
from guts.screen import (
    card_text,
    colour_cards,
    decision_panel,
    fit,
    hand_text,
    refusal,
    show,
    status_segments,
)


def refused(decision: Decision, text: str, **kwargs: object) -> str:
    with pytest.raises(IllegalAction) as caught:
        read_answer(decision, text, **kwargs)  # type: ignore[arg-type]
    message = str(caught.value)
    assert "\n" not in message
    return message


# -- choose --------------------------------------------------------------------------------------

IN_OUT = Decision.choose(0, ("in", "out"), "declare in or out")
HI_LO = Decision.choose(0, ("high", "low", "both", "out"), "declare", simultaneous=True)
DECLARE = Decision.choose(0, tuple(f"declare {c}" for c in (
    "five-of-a-kind", "straight-flush", "four-of-a-kind", "full-house", "flush", "straight",
    "three-of-a-kind", "two-pair", "pair", "high-card")))  # fmt: skip
TAKE = Decision.choose(0, ("take up", "take down"), "take the face-up 7♥ or the face-down card")


@pytest.mark.parametrize(("decision", "typed", "action"), [
    (IN_OUT, "i", "in"), (IN_OUT, " OUT ", "out"), (IN_OUT, "2", "out"), (IN_OUT, "in", "in"),
    (HI_LO, "hi", "high"), (HI_LO, "l", "low"), (HI_LO, "b", "both"), (HI_LO, "4", "out"),
    (DECLARE, "pair", "declare pair"), (DECLARE, "full house", "declare full-house"),
    (DECLARE, "fu", "declare full-house"), (DECLARE, "declare two-pair", "declare two-pair"),
    (DECLARE, "straight", "declare straight"), (DECLARE, "10", "declare high-card"),
    (TAKE, "up", "take up"), (TAKE, "d", "take down"), (TAKE, "take down", "take down"),
])  # fmt: skip
def test_a_choice_by_word_prefix_or_number(decision: Decision, typed: str, action: str) -> None:
    assert read_answer(decision, typed) == action


def test_a_choice_refused_in_one_line() -> None:
    assert refused(IN_OUT, "maybe") == "'maybe' is not a choice here: choose in or out"
    assert refused(IN_OUT, "3") == "there is no choice 3: choose 1 to 2"
    assert refused(DECLARE, "f") == (
        "'f' could be five of a kind, four of a kind, full house, or flush: type more of the word"
    )
    assert refused(DECLARE, "zz").endswith("choose one of the 10 listed, or its number 1-10")
    assert refused(IN_OUT, "") == "nothing typed: choose in or out"


def test_help_is_never_an_action_and_the_keys_avoid_it() -> None:
    assert all(wants_help(text) for text in ("h", "help", " ? ", "HELP"))
    assert not wants_help("hi")
    assert choice_keys(HI_LO.options) == [("high", 2), ("low", 1), ("both", 1), ("out", 1)]
    assert refused(HI_LO, "h").startswith("help is not an action")
    assert dict(choice_keys(DECLARE.options))["straight"] == 0  # a prefix of straight flush


def test_a_choice_of_cards_reads_cards_and_numbers() -> None:
    passing = Decision.choose(0, ("Ah", "Td", "7c"), "choose a card to pass to the left")
    assert read_answer(passing, "10d") == "Td"
    assert read_answer(passing, "2") == "Td"
    assert read_answer(passing, "a") == "Ah"
    assert refused(passing, "4").startswith("there is no card 4")
    assert refused(passing, "9s") == "you hold no 9♠: choose A♥, 10♦, or 7♣"
    assert short_forms(passing) == "a card or its number 1-3"


def test_a_single_word_is_taken_on_enter() -> None:
    assert read_answer(Decision.choose(0, ("play",)), "") == "play"


def test_a_family_reading_is_used_where_the_decision_refuses() -> None:
    class Family:
        def canonical(self, seat: int, action: object) -> str:
            if action == "declare a boat":
                return "declare full-house"
            raise IllegalAction("You cannot do that")

    check = checker(Family(), DECLARE)
    assert read_answer(DECLARE, "a boat", check) == "declare full-house"  # the lead added
    assert "not a choice here" in refused(DECLARE, "a yacht", check=check)


# -- bet -----------------------------------------------------------------------------------------

FACING = Decision(1, Wager(Legal(1, True, False, 2, min_raise_to=4, max_raise_to=37), stack=35))
OPENING = Decision(1, Wager(Legal(1, True, True, 0, min_bet=1, max_bet=5), stack=99))
FIXED = Decision(1, Wager(Legal(1, True, True, 0, min_bet=2, max_bet=2), stack=50))
SHORT = Decision(1, Wager(Legal(1, True, False, 7), stack=7))


@pytest.mark.parametrize(("decision", "typed", "action"), [
    (FACING, "c", "call"), (FACING, "call", "call"), (FACING, "f", "fold"),
    (FACING, "r 10", "raise 10"), (FACING, "raise 10", "raise 10"),
    (FACING, "raise to 10", "raise 10"), (FACING, "b 10", "raise 10"), (FACING, "10", "raise 10"),
    (FACING, "2", "call"), (FACING, "min", "raise 4"), (FACING, "max", "raise 37"),
    (FACING, "r max", "raise 37"), (FACING, "all in", "raise 37"), (FACING, "all-in", "raise 37"),
    (OPENING, "k", "check"), (OPENING, "x", "check"), (OPENING, "c", "check"),
    (OPENING, "0", "check"), (OPENING, "b 3", "bet 3"), (OPENING, "3", "bet 3"),
    (OPENING, "r 3", "bet 3"), (FIXED, "b", "bet 2"), (FIXED, "bet", "bet 2"),
    (SHORT, "all in", "call"), (SHORT, "7", "call"),
])  # fmt: skip
def test_betting_short_forms_and_bare_numbers(decision: Decision, typed: str, action: str) -> None:
    assert read_answer(decision, typed, committed=2) == action


def test_betting_refusals_state_the_exact_range() -> None:
    assert refused(FACING, "k", committed=2) == (
        "you cannot check: 2 to call; legal now: fold, call 2, raise to 4..37"
    )
    assert refused(FACING, "50", committed=2) == "legal now: fold, call 2, raise to 4..37"
    assert refused(FACING, "r", committed=2) == "raise to how much? 4..37"
    assert refused(FACING, "raise by 5", committed=2) == "say the total: raise to N (4..37)"
    assert refused(OPENING, "all in").startswith("you cannot go all in now")
    assert refused(SHORT, "5") == "no bet or raise is possible now: call 7 (all in) or fold"


def test_the_betting_summary_names_all_in() -> None:
    assert summary(FACING, committed=2) == "call 2, raise to 4..36, all in for 37, or fold"
    assert summary(FACING) == "call 2, raise to 4..37, or fold"  # what is bet already unknown
    assert summary(OPENING) == "check, bet 1..5, or fold"
    assert summary(SHORT) == "call 7 (all in) or fold"
    assert short_forms(FACING, committed=2) == "c, f, r 4..37, all in"
    assert short_forms(OPENING) == "k, f, b 1..5"


def test_what_is_bet_already_is_read_from_the_view() -> None:
    assert committed_chips({"bets": {"1": 2, "0": 4}}, 1) == 2
    assert committed_chips({"bets": {1: 3}}, 1) == 3
    assert committed_chips({"hand": []}, 1) is None


# -- draw ----------------------------------------------------------------------------------------

DRAW = Decision(0, Discard(("6s", "7h", "3h", "Ac", "6h"), counts=(0, 1, 2, 3)))
FOUR_WITH_ACE = Decision(0, Discard(("6s", "7h", "3h", "Ac", "6h"), counts=(0, 1, 2, 3),
                                    extra=(("6s", "7h", "3h", "6h"),)))  # fmt: skip
ALL_FOR_ONE = Decision(0, Discard(("6s", "7h", "3h", "Ac", "6h"), counts=(0, 1),
                                  extra=(("6s", "7h", "3h", "Ac", "6h"),)))  # fmt: skip
BOURRE = Decision(0, Discard(("Ad", "2h", "Ts", "Qs", "Ks"), tuple(range(6)), pat="stand"))


@pytest.mark.parametrize(("decision", "typed", "action"), [
    (DRAW, "3 4 5", "discard 3h Ac 6h"), (DRAW, "345", "discard 3h Ac 6h"),
    (DRAW, "5,4", "discard Ac 6h"), (DRAW, "6H ac", "discard Ac 6h"),
    (DRAW, "3h6h", "discard 3h 6h"), (DRAW, "discard 7h", "discard 7h"),
    (DRAW, "d 2", "discard 7h"), (DRAW, "1 7h", "discard 6s 7h"),
    (DRAW, "pat", "stand pat"), (DRAW, "-", "stand pat"), (DRAW, "0", "stand pat"),
    (DRAW, "stand pat", "stand pat"), (DRAW, "keep 1 2", "discard 3h Ac 6h"),
    (DRAW, "keep 6s 7h 3h Ac 6h", "stand pat"),
    (FOUR_WITH_ACE, "keep 4", "discard 6s 7h 3h 6h"),
    (ALL_FOR_ONE, "all", "discard 6s 7h 3h Ac 6h"),
    (BOURRE, "pat", "stand"), (BOURRE, "10s qs", "discard Ts Qs"),
    (BOURRE, "12345", "discard Ad 2h Ts Qs Ks"),
])  # fmt: skip
def test_a_draw_by_cards_or_positions(decision: Decision, typed: str, action: str) -> None:
    assert read_answer(decision, typed) == action


def test_a_draw_refused_in_one_line() -> None:
    assert refused(DRAW, "8d 9s 7c") == "you hold no 8♦"
    assert refused(DRAW, "1 2 3 4") == "at most 3 cards may be thrown"
    assert refused(DRAW, "7") == "there is no card 7: the positions are 1 to 5"
    assert refused(DRAW, "1 1") == "card 1 is named twice"
    assert refused(DRAW, "keep 8d") == "you hold no 8♦"
    assert refused(ALL_FOR_ONE, "1 2").startswith("not a legal draw")
    assert refused(DRAW, "discard").startswith("discard which cards?")


def test_a_draw_in_words() -> None:
    assert summary(DRAW) == "stand pat or discard 1 to 3 cards"
    assert summary(FOUR_WITH_ACE) == (
        "stand pat, discard 1 to 3 cards, or discard exactly 6♠ 7♥ 3♥ 6♥"
    )
    assert summary(ALL_FOR_ONE) == "stand pat, discard 1 card, or discard all 5"
    assert summary(BOURRE) == "stand or discard 1 to 5 cards"
    assert short_forms(DRAW) == "cards or positions 1-5, or pat"


# -- play ----------------------------------------------------------------------------------------

FOLLOW = "you must follow suit: you hold 10♠ Q♠ K♠"
TRICK = Decision(0, PlayCard(("Ad", "Ts", "Qs", "Ks", "5c"), ("Ts", "Qs", "Ks"),
                             (("Ad", FOLLOW), ("5c", FOLLOW))))  # fmt: skip
RENEGE = Decision(0, PlayCard(("Ad", "Ts"), ("Ad", "Ts"), (("Ad", FOLLOW),)))


@pytest.mark.parametrize(("typed", "action"), [
    ("1", "Ts"), ("3", "Ks"), ("Qs", "Qs"), ("play ks", "Ks"), ("k", "Ks"), ("q", "Qs"),
    ("10", "Ts"), ("t", "Ts"), ("10s", "Ts"),
])  # fmt: skip
def test_a_card_by_name_number_rank_or_suit(typed: str, action: str) -> None:
    assert read_answer(TRICK, typed) == action


def test_a_card_refused_with_the_reason() -> None:
    assert refused(TRICK, "a") == f"cannot play A♦: {FOLLOW}"
    assert refused(TRICK, "5c") == f"cannot play 5♣: {FOLLOW}"
    assert refused(TRICK, "9h") == "you hold no 9♥"
    assert refused(TRICK, "s") == "'s' could be 10♠, Q♠, or K♠"
    assert refused(TRICK, "4") == "there is no card 4: the cards you may play are numbered 1 to 3"
    assert refused(TRICK, "j") == "you hold no jack: play one of 10♠ Q♠ K♠"
    assert refused(TRICK, "1 2") == "one card at a time: play one of 10♠ Q♠ K♠"
    assert refused(TRICK, "") == "nothing typed: play one of 10♠ Q♠ K♠"
    only = Decision(0, PlayCard(("Ad", "Ts"), ("Ts",), (("Ad", FOLLOW),)))
    assert read_answer(only, "") == "Ts"  # Enter plays the only card that may be played
    assert read_answer(RENEGE, "a") == "Ad"  # a renege allowed (and punished later)


def test_help_lists_the_forms_of_each_kind() -> None:
    for decision in (IN_OUT, DECLARE, FACING, OPENING, DRAW, ALL_FOR_ONE, TRICK, RENEGE):
        lines = help_lines(decision, committed=2)
        assert lines[0].startswith("Legal now: ") and lines[-1].startswith("help, h or ?")
    assert any("hi for high" in line for line in help_lines(HI_LO))
    assert any("'3 4 5' or '345'" in line for line in help_lines(DRAW))
    assert any("r N or raise N, N from 4..37" in line for line in help_lines(FACING))
    assert any(line.startswith("Not playable: A♦ 5♣: you must follow suit")
               for line in help_lines(TRICK))  # fmt: skip
    assert any("a renege" in line for line in help_lines(RENEGE))


# -- every decision of every preset reads its own actions back -------------------------------------


@pytest.mark.parametrize("name", sorted(games()))
def test_every_representative_action_reads_back(name: str) -> None:
    """The terminal's reading never loses an action the engine offers: each of a decision's
    representative actions, typed as it is spelled, means itself; a decision sent as JSON
    and rebuilt reads the same."""
    game = find_game(name)
    players = 4 if name != "trips-to-win" else 5
    session = game.new_session([(f"P{i}", 100) for i in range(players)], rng=random.Random(7))
    bots = {seat: policy_for("random", game.family, session) for seat in range(players)}
    rng = random.Random(3)
    kinds: set[str] = set()
    for _ in range(400):
        if session.is_over:
            break
        if session.deal_over:
            session.start_deal()
            continue
        for decision in session.pending():
            check = checker(session, decision)
            committed = committed_chips(session.view(decision.seat), decision.seat)
            remote = decision_from_dict(json.loads(json.dumps(decision.to_dict())))
            for action in decision.actions[:40]:
                assert read_answer(decision, action, check, committed=committed) == (
                    decision.canonical(action)
                ), (name, action)
                assert read_answer(remote, action, committed=committed) == (
                    read_answer(decision, action, committed=committed)
                )
            assert help_lines(remote, committed) == help_lines(decision, committed)
            kinds.add(decision.kind)
            session.act(decision.seat, bots[decision.seat].choose(
                session.view(decision.seat), decision, rng))  # fmt: skip
    assert kinds


# -- the screen ----------------------------------------------------------------------------------


def render(lines: list[Text], **console: object) -> str:
    out = io.StringIO()
    show(Console(file=out, width=80, **console), lines)  # type: ignore[arg-type]
    return out.getvalue()


def test_hands_are_numbered_and_unplayable_cards_are_not() -> None:
    assert hand_text(["6s", "7h", "Td"], numbered=True).plain == "1:6♠ 2:7♥ 3:10♦"
    barred = hand_text(["Ad", "Ts", "5c", "Ks"], numbered=True, unplayable=["Ad", "5c"])
    assert barred.plain == "(A♦) 1:10♠ (5♣) 2:K♠"


def test_a_status_line_fits_80_columns_and_breaks_between_segments() -> None:
    names = ["You", "Annabelle", "Bartholomew", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    view = {"players": names, "stacks": [1000 + i for i in range(10)], "pot": 1234, "deal": 12,
            "trump": "hearts", "trump_card": "Qh", "points": [0, 2, 1, 0, 0, 0, 0, 0, 0, 4],
            "target": 5, "word": "point", "trick": [[1, "Ah"], [2, "Kh"]],
            "tricks_won": {"1": 1, "2": 0}}  # fmt: skip
    segments = status_segments(view, 0)
    lines = fit(segments, 78)
    assert all(line.cell_len <= 78 for line in lines) and len(lines) > 1
    plain = [segment.plain for segment in segments]
    assert "trump ♥ (Q♥)" in plain and "Bartholomew 1002" in plain
    assert "points: Annabelle 2, Bartholomew 1, Ivy 4 (5 to win)" in plain
    assert "on the table: Annabelle A♥, Bartholomew K♥" in plain
    joined = "\n".join(line.plain for line in lines)
    assert all(name in joined.replace("\n", " · ") for name in names)  # never split


def test_the_panel_says_whose_turn_and_what_is_decided() -> None:
    view = {"players": ["You", "Ann"], "stacks": [98, 99], "pot": 7, "deal": 1,
            "hand": ["6s", "7h", "3h", "Ac", "6h"], "bets": {"0": 0}}  # fmt: skip
    text = render(decision_panel(DRAW, view))
    assert text.splitlines()[0] == "▶ Your turn to draw"
    assert "  deal 1 · pot 7 · You 98 · Ann 99" in text
    assert "  your hand: 1:6♠ 2:7♥ 3:3♥ 4:A♣ 5:6♥" in text
    assert "  Stand pat or discard 1 to 3 cards" in text
    assert all(len(line) <= 80 and line == line.rstrip() for line in text.splitlines())
    chosen = render(decision_panel(HI_LO, view))
    assert "▶ Your turn — declare" in chosen and "everyone chooses at once" in chosen
    assert "[hi]gh / [l]ow / [b]oth / [o]ut  (or 1-4; h for help)" in chosen
    bet = render(decision_panel(FACING, {**view, "bets": {"1": 2}}, committed=2))
    assert bet.splitlines()[0] == "▶ Ann, your turn to bet (2 to call)"  # seat 1 decides
    assert "  Call 2, raise to 4..36, all in for 37, or fold\n" in bet  # too long for one line:
    assert "  (c, f, r 4..37, all in; h for help)\n" in bet  # the forms on the next
    play = render(decision_panel(TRICK, view))
    assert "your hand: (A♦) 1:10♠ 2:Q♠ 3:K♠ (5♣)" in play
    assert f"not playable: A♦ 5♣: {FOLLOW}" in play


def test_a_refusal_is_one_line_with_the_forms_that_fit() -> None:
    assert refusal("you hold no 8♦", DRAW).plain == (
        "✗ you hold no 8♦ (cards or positions 1-5, or pat; h for help)"
    )
    long = refusal("x" * 60, DRAW)
    assert long.plain == "✗ " + "x" * 60 + " (h for help)"


def test_cards_are_red_and_black_on_a_colour_terminal_only() -> None:
    line = colour_cards("You are dealt 7♥ K♠ 10♦")
    red = [span for span in line.spans if "red" in str(span.style)]
    assert [line.plain[s.start:s.end] for s in red] == ["7♥", "10♦"]
    assert "red" in str(card_text("Qh").style) and "red" not in str(card_text("Qs").style)
    coloured = render([Text(""), line], force_terminal=True, color_system="standard")
    assert re.search(r"\x1b\[[0-9;]*31m7♥", coloured)
    no_colour = render([Text(""), line], force_terminal=True, color_system="standard",
                       no_color=True)  # fmt: skip
    assert "\x1b[1m7♥" in no_colour and not re.search(r"\x1b\[[0-9;]*3[0-9]m", no_colour)
    plain = render([Text(""), line])  # not a terminal
    assert "\x1b" not in plain and "You are dealt 7♥ K♠ 10♦" in plain


FITS = "it does not fit"
OR_PASS = Decision(0, PlayCard(("2c", "8h", "Ah", "6h"), ("8h", "6h"),
                               (("2c", FITS), ("Ah", FITS)), ("pass",)))  # fmt: skip
ONLY_PASS = Decision(0, PlayCard(("2c", "Ah"), (), (("2c", FITS), ("Ah", FITS)), ("pass",)))


def test_a_play_with_a_word_numbers_the_hands_playable_cards_and_offers_the_word() -> None:
    view = {"players": ["You", "Ann"], "stacks": [98, 99], "pot": 7, "deal": 1}
    text = render(decision_panel(OR_PASS, view))
    assert "your hand: (2♣) 1:8♥ (A♥) 2:6♥" in text
    assert "Play one of 8♥ 6♥ or pass  (a card or its number 1-2 or p; h for help)" in text
    assert [read_answer(OR_PASS, t) for t in ("2", "8h", "p", "PASS", "play 6h")] == [
        "6h", "8h", "pass", "pass", "6h"]  # fmt: skip
    with pytest.raises(IllegalAction, match="does not fit"):
        read_answer(OR_PASS, "Ah")
    assert any(line.startswith("pass (or p)") for line in help_lines(OR_PASS, view={}))
    only = render(decision_panel(ONLY_PASS, view))
    assert "your hand: (2♣) (A♥)" in only and "Pass  (p; h for help)" in only
    assert read_answer(ONLY_PASS, "") == "pass" and read_answer(ONLY_PASS, "p") == "pass"
    with pytest.raises(IllegalAction, match="not a choice here"):
        read_answer(ONLY_PASS, "1")


def test_a_play_with_words_goes_through_the_servers_json_unchanged() -> None:
    for decision in (OR_PASS, ONLY_PASS, TRICK):
        data = json.loads(json.dumps(decision.to_dict()))
        assert decision_from_dict(data) == decision
    assert "words" not in TRICK.to_dict()["options"]  # a play without words reads as before


def _laying_out_games() -> list[str]:
    """One preset of each family that lays cards out for everyone (ActionLayout.laid_out)."""
    from guts.catalog import FAMILIES

    found = []
    for family in FAMILIES.values():
        preset = next(iter(family.presets))
        if family.layout is not None and family.layout(family.rules(preset)).laid_out:
            found.append(preset)
    return found


@pytest.mark.parametrize("preset", _laying_out_games())
def test_the_status_line_shows_what_a_family_lays_out_for_everyone(preset: str) -> None:
    from guts.screen import laid_out_key

    session = find_game(preset).new_session(["You", "Ann", "Bob"], buy_in=100,
                                            rng=random.Random(3))  # fmt: skip
    session.start_deal()
    chooser = random.Random(5)
    view = session.view(0)
    key = laid_out_key(view, session.rules)
    assert key and laid_out_key(view) == key  # from the view alone, as a client has it
    for _ in range(40):
        view = session.view(0)
        if sum(len(cards) for cards in view[key].values()) >= 3:
            break
        decision = session.pending()[0]
        session.act(decision.seat, chooser.choice(decision.actions))
    rows = {name: cards for name, cards in view[key].items() if cards}
    assert rows
    for rules in (session.rules, None):
        plain = [segment.plain for segment in status_segments(view, 0, rules)]
        laid = [card_text(code).plain for cards in rows.values() for code in cards]
        shown = [text for text in plain if any(card in text for card in laid)]
        assert len(shown) == len(rows) and shown[0].startswith(f"{key}: ")
        for text, cards in zip(shown, rows.values(), strict=True):
            assert text.endswith(hand_text(cards).plain)
    panel = render(decision_panel(session.pending()[0], view, rules=session.rules))
    assert f"{key}: " in panel
    bare = {k: v for k, v in view.items() if k != "game"}  # no family named: nothing laid out
    assert not any(s.plain.startswith(f"{key}: ") for s in status_segments(bare, 0))
