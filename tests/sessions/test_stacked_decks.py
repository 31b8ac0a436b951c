"""``session.stacked(hands, then)``: every family lays out a deck that deals each seat
exactly the hand it was given, whoever deals and whoever is dealt in."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import pytest

from guts.cards import Card, Deck, DeckKind, parse_cards
from guts.errors import CardError, GutsError, HandError, IllegalAction
from guts.games.bourre import BourreSession, new_session
from guts.games.bourre.rules import BourreRules
from guts.games.draw import DrawRules, DrawSession
from guts.games.draw import preset as draw_preset
from guts.games.guts import GutsRules, GutsSession
from guts.games.guts import preset as guts_preset
from guts.games.staged import StagedRules, StagedSession
from guts.games.staged import preset as staged_preset

Session = GutsSession | DrawSession | StagedSession | BourreSession


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def dealt(session: Session, seat: int) -> list[Card]:
    """``seat``'s cards in the current deal (Guts: face down)."""
    if isinstance(session, GutsSession):
        assert session.deal is not None
        return list(session.deal.down[seat])
    assert session.deal is not None
    return list(session.deal.hands[seat])


def play(session: Session, *moves: tuple[int, str]) -> None:
    for seat, action in moves:
        session.act(seat, action)


def everyone_declares(session: StagedSession, choice: str) -> None:
    """Every seat asked in this stage declares ``choice``."""
    assert session.deal is not None
    stage = session.deal.stage_index
    while session.pending() and session.deal.stage_index == stage and not session.deal_over:
        session.act(session.pending()[0].seat, choice)


# -- Guts -----------------------------------------------------------------------------------


def test_guts_each_seat_gets_its_hand_with_the_button_on_seat_one() -> None:
    s = GutsSession(GutsRules(), ["A", "B", "C", "D"], buy_in=50, button=1)
    hands = {0: "As Ad", 1: "Kc Kd", 2: "7s 2d", 3: "Qh Jh"}
    deck = s.stacked(hands)
    assert len(deck) == 52 and deck.cards[:4] == tuple(cards("7s Qh As Kc"))
    s.start_deal(deck)
    assert s.deal is not None and s.deal.seats == (2, 3, 0, 1)
    assert {seat: dealt(s, seat) for seat in hands} == {k: cards(v) for k, v in hands.items()}


def test_guts_a_broke_seat_is_skipped_at_table_stakes() -> None:
    rules = GutsRules(credit=False)  # table stakes
    s = GutsSession(rules, [("A", 10), ("B", 0), ("C", 10)], button=2)
    with pytest.raises(HandError, match=r"seat 1 is not dealt in: the seats dealt in are 0, 2"):
        s.stacked({0: "As Ad", 1: "Kc Kd", 2: "7s 2d"})
    s.start_deal(s.stacked({0: "As Ad", 2: "7s 2d"}))
    assert s.deal is not None and s.deal.seats == (0, 2)
    assert dealt(s, 0) == cards("As Ad") and dealt(s, 2) == cards("7s 2d")


def test_guts_then_gives_the_ghost_hand_and_low_in_wild_face_up_cards() -> None:
    ghost = GutsSession(guts_preset("ghost-guts"), ["A", "B", "C"], buy_in=20)
    ghost.start_deal(ghost.stacked({0: "Ks Kd", 1: "Qs Qd", 2: "7s 2d"}, then="As Ad"))
    assert ghost.deal is not None and ghost.deal.ghost_cards == cards("As Ad")
    wild = GutsSession(guts_preset("one-low-in-wild"), ["A", "B", "C"], buy_in=20)
    with pytest.raises(HandError, match="seat 1's hand has 3 cards: each seat is dealt 2"):
        wild.stacked({1: "As Kd 5h"})
    wild.start_deal(wild.stacked({1: "As Kd", 2: "9s 9d", 0: "7s 8d"}, then="5h Qc 4c"))
    assert wild.deal is not None
    assert {s: wild.deal.up[s] for s in (0, 1, 2)} == {1: cards("5h"), 2: cards("Qc"),
                                                       0: cards("4c")}  # fmt: skip
    assert dealt(wild, 1) == cards("As Kd")


def test_guts_a_seat_left_out_gets_the_lowest_unused_cards() -> None:
    s = GutsSession(GutsRules(), ["A", "B", "C"], buy_in=20)
    s.start_deal(s.stacked({0: "2c 3c"}, then="2d"))
    assert dealt(s, 1) == cards("2h 3d") and dealt(s, 2) == cards("2s 3h")
    assert dealt(s, 0) == cards("2c 3c")


# -- draw poker -----------------------------------------------------------------------------


def test_draw_a_joker_game_uses_the_53_card_pack() -> None:
    s = DrawSession(draw_preset("draw-with-bug"), ["P0", "P1", "P2"], buy_in=50, button=2)
    deck = s.stacked({0: "Jk As Ad Kc Kd", 1: "2c 3d 4h 5s 7c"})
    assert deck.kind is DeckKind.ONE_JOKER and len(deck) == 53
    assert sum(card.is_joker for card in deck.cards) == 1
    s.start_deal(deck)
    assert dealt(s, 0) == [Card.joker(), *cards("As Ad Kc Kd")]
    assert dealt(s, 1) == cards("2c 3d 4h 5s 7c")
    with pytest.raises(CardError, match="Jk appears 2 times: the 53-card pack with one joker"):
        DrawSession(draw_preset("draw-with-bug"), ["P0", "P1"], buy_in=5).stacked(
            {0: "Jk As Ad Kc Kd", 1: "Jk 3d 4h 5s 7c"}
        )


def test_draw_jokers_in_two_hands_of_a_two_joker_pack() -> None:
    rules = DrawRules(jokers=2)
    s = DrawSession(rules, ["P0", "P1"], buy_in=50)
    s.start_deal(s.stacked({1: "Jk As Ad Kc Kd", 0: "Jk 3d 4h 5s 7c"}))
    assert dealt(s, 1)[0].is_joker and dealt(s, 0)[0].is_joker
    assert dealt(s, 1)[0] is not dealt(s, 0)[0]


def test_draw_wild_widow_is_the_first_card_of_then() -> None:
    s = DrawSession(draw_preset("wild-widow"), ["P0", "P1", "P2"], buy_in=50, button=1)
    hands = {2: "As Ad Ah Kc Kd", 0: "2c 3d 4h 5s 7c", 1: "9c 9d Tc Td Jh"}
    s.start_deal(s.stacked(hands, then="8s 6c 6d"))
    assert s.deal is not None and s.deal.widow == Card.of(8, 3)
    assert {seat: dealt(s, seat) for seat in hands} == {k: cards(v) for k, v in hands.items()}
    assert s.deal.stock.cards[:2] == tuple(cards("6c 6d"))  # the draws come next


def test_draw_trips_to_win_deals_only_those_who_stayed() -> None:
    s = DrawSession(draw_preset("trips-to-win"), [f"P{i}" for i in range(4)], buy_in=100)
    first = {1: "Js Jh 7c 5h 2s", 2: "Ts Th Ac Kd Qs", 3: "9c 8d 6h 4s 3c", 0: "Ks Qd Jc 4h 6d"}
    s.start_deal(s.stacked(first, then="Tc Td 9s"))
    play(s, (1, "bet 1"), (2, "call"), (3, "fold"), (0, "call"))  # P3 folds
    play(s, (1, "discard 7c 5h 2s"), (2, "stand pat"), (0, "stand pat"))
    assert dealt(s, 1) == cards("Js Jh Tc Td 9s")
    play(s, (1, "check"), (2, "check"), (0, "check"))  # no trips: P3 stays out
    before = s.events
    with pytest.raises(HandError, match="seat 3 is not dealt in: the seats dealt in are 2, 0, 1"):
        s.stacked({3: "2c 2d 2h 3s 4s"})
    assert s.events == before and s.deals_played == 1
    hands = {2: "Qs Qh Qc 4c 5d", 0: "9h 8h 6d 4d 3d", 1: "Kh Jd 5c 3h 6s"}
    s.start_deal(s.stacked(hands))
    assert s.deal is not None and s.deal.seats == (2, 0, 1)
    assert {seat: dealt(s, seat) for seat in hands} == {k: cards(v) for k, v in hands.items()}


def test_draw_the_stripped_pack_has_no_deuces() -> None:
    s = DrawSession(draw_preset("32-card-poker"), ["P0", "P1"], buy_in=20)
    with pytest.raises(CardError, match="2c is not in the 32-card stripped pack"):
        s.stacked({0: "2c As Ad Ah Kc"})
    assert len(s.stacked({0: "7c As Ad Ah Kc"})) == 32


# -- staged games ---------------------------------------------------------------------------


def test_three_five_seven_deals_each_hand_stage_by_stage() -> None:
    s = StagedSession(StagedRules(), ["A", "B", "C"], buy_in=50, button=0)
    hands = {1: "Ah Ad 9c Kd Qd 2s 4s", 2: "Kh Kc Ks 8c 8d 2c 6h", 0: "2h 5d 9d Jc Jd Qs Qh"}
    s.start_deal(s.stacked(hands))
    for size in (3, 5, 7):
        assert {seat: dealt(s, seat) for seat in hands} == {
            k: cards(v)[:size] for k, v in hands.items()
        }
        if size < 7:
            everyone_declares(s, "out")  # nobody in: the next stage


def test_nuts_five_stages_of_cards_and_the_hand_size() -> None:
    s = StagedSession(staged_preset("nuts"), ["A", "B"], buy_in=50, button=1)
    with pytest.raises(HandError, match="seat 0's hand has 2 cards: each seat is dealt 5"):
        s.stacked({0: "2c 3c", 1: "2d 3d"})
    s.start_deal(s.stacked({0: "2c 3c 4c 5c 6c", 1: "2d 3d 4d 5d 6d"}))
    assert dealt(s, 0) == cards("2c 3c") and dealt(s, 1) == cards("2d 3d")


def test_toh_deals_one_card_each_and_then_orders_the_stock() -> None:
    s = StagedSession(staged_preset("toh"), ["A", "B", "C", "D"], buy_in=50, button=3)
    hands = {0: "9c", 1: "Kd", 2: "Ks", 3: "2h"}
    deck = s.stacked(hands, then="Ac Ad Ah As")
    assert len(deck) == 52
    s.start_deal(deck)
    assert {seat: dealt(s, seat) for seat in hands} == {k: cards(v) for k, v in hands.items()}
    for seat in (0, 1, 2, 3):
        s.act(seat, "out" if seat == 3 else "in")
    assert s.points == {2: 1}  # the king of spades is kept as a point
    s.start_deal()  # the next hand deals on from the stock: then's cards, from B
    assert s.deal is not None and s.deal.seats == (1, 2, 3, 0)
    assert [dealt(s, seat) for seat in (1, 2, 3, 0)] == [cards(c) for c in ("Ac", "Ad", "Ah", "As")]


def test_toh_refuses_a_card_kept_as_a_point() -> None:
    s = StagedSession(staged_preset("toh"), ["A", "B", "C", "D"], buy_in=50, button=3)
    s.start_deal(s.stacked({0: "9c", 1: "Kd", 2: "Ks", 3: "2h"}))
    for seat in (0, 1, 2, 3):
        s.act(seat, "out" if seat == 3 else "in")
    with pytest.raises(CardError, match="Ks is not in the Toh stock"):
        s.stacked({2: "Ks"})
    deck = s.stacked({1: "Ah", 0: "Kd"})  # a discarded card comes back in the reshuffle
    assert len(deck) == 51 and set(deck.cards) == set(s.unscored_cards())
    s.start_deal(deck)
    assert dealt(s, 1) == cards("Ah") and dealt(s, 0) == cards("Kd")


# -- Bourré ---------------------------------------------------------------------------------


def test_bourre_hands_then_the_stock_with_the_button_on_seat_zero() -> None:
    s = new_session("bourre", ["A", "B", "C"], buy_in=50, button=0)
    hands = {1: "As Ks Qs Js 9h", 2: "2c 3d 4h 5s 7c", 0: "Ah Kh Qh Jh Th"}
    deck = s.stacked(hands, then="9s 8s")
    s.start_deal(deck, seed=1)
    assert {seat: dealt(s, seat) for seat in hands} == {k: cards(v) for k, v in hands.items()}
    assert s.deal is not None and s.deal.trump_card == Card.of(10, 2)  # the dealer's fifth
    assert s.deal.stock is not None and s.deal.stock.main[:2] == tuple(cards("9s 8s"))


def test_bourre_a_broke_dealer_passes_the_deal_on() -> None:
    players = [("A", 20), ("B", 0), ("C", 20), ("D", 20)]
    s = BourreSession(BourreRules(credit=False), players, button=1)  # B has no chips: C deals
    with pytest.raises(HandError, match="seat 1 is not dealt in: the seats dealt in are 3, 0, 2"):
        s.stacked({1: "As Ks Qs Js 9h"})
    hands = {3: "As Ks Qs Js 9h", 0: "2c 3d 4h 5s 7c", 2: "Ah Kh Qh Jh Th"}
    s.start_deal(s.stacked(hands), seed=1)
    assert s.deal is not None and s.deal.seats == (3, 0, 2) and s.table.button == 2
    assert {seat: dealt(s, seat) for seat in hands} == {k: cards(v) for k, v in hands.items()}


# -- every family: what is refused, with nothing changed -------------------------------------


FAMILIES: dict[str, Callable[[], Session]] = {
    "guts": lambda: GutsSession(GutsRules(), ["A", "B", "C"], buy_in=20),
    "draw": lambda: DrawSession(DrawRules(), ["A", "B", "C"], buy_in=20),
    "staged": lambda: StagedSession(StagedRules(), ["A", "B", "C"], buy_in=20),
    "bourre": lambda: new_session("bourre", ["A", "B", "C"], buy_in=20),
}
SIZES = {"guts": 2, "draw": 5, "staged": 7, "bourre": 5}
PACK = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah Kh Qh Jh Th 9h 8h 7h"


def hand_of(family: str, seat: int) -> str:
    size = SIZES[family]
    return " ".join(PACK.split()[seat * size : (seat + 1) * size])


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_deals_each_seat_its_hand(family: str) -> None:
    s = FAMILIES[family]()
    hands = {seat: hand_of(family, seat) for seat in (0, 1, 2)}
    deck = s.stacked(hands)
    assert isinstance(deck, Deck) and len(deck) == 52
    if isinstance(s, BourreSession):
        s.start_deal(deck, seed=3)
    else:
        s.start_deal(deck)
    size = 3 if family == "staged" else SIZES[family]  # staged: the first stage so far
    assert {seat: dealt(s, seat) for seat in hands} == {
        k: cards(v)[:size] for k, v in hands.items()
    }


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(
    ("change", "error", "named"),
    [
        (lambda h: {**h, 3: h[0]}, HandError, "seat 3 is not dealt in"),
        (lambda h: {**h, 1: h[1].rsplit(" ", 1)[0]}, HandError, "seat 1's hand has"),
        (lambda h: {**h, 2: h[2].rsplit(" ", 1)[0] + " As"}, HandError, "duplicate card As"),
        (lambda h: {**h, 2: h[2].rsplit(" ", 1)[0] + " Jk"}, CardError, "Jk is not in the"),
        (lambda h: {True: h[1]}, HandError, "seat True is not dealt in"),
    ],
)
def test_every_family_refuses_bad_hands_by_name_with_nothing_changed(
    family: str,
    change: Callable[[dict[object, str]], dict[int, str]],
    error: type[GutsError],
    named: str,
) -> None:
    s = FAMILIES[family]()
    hands = {seat: hand_of(family, seat) for seat in (0, 1, 2)}
    before = (s.events, s.table.button, s.deals_played)
    with pytest.raises(error, match=named):
        s.stacked(change(dict(hands)))  # type: ignore[arg-type]
    assert (s.events, s.table.button, s.deals_played) == before and s.deal is None


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_refuses_a_card_in_then_twice_and_bad_arguments(family: str) -> None:
    s = FAMILIES[family]()
    with pytest.raises(HandError, match="duplicate card As"):
        s.stacked({0: hand_of(family, 0)}, then="As")
    with pytest.raises(CardError, match="'Zz' is not a card"):
        s.stacked({0: hand_of(family, 0)}, then="Zz")
    with pytest.raises(HandError, match="a mapping of seat number -> cards, not list"):
        s.stacked([hand_of(family, 0)])  # type: ignore[arg-type]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_stacks_only_between_deals(family: str) -> None:
    s = FAMILIES[family]()
    if isinstance(s, BourreSession):
        s.start_deal(seed=1)
    else:
        s.start_deal()
    assert not s.deal_over
    with pytest.raises(IllegalAction, match="in progress"):
        s.stacked({})


def test_the_same_deck_comes_back_for_a_replay() -> None:
    s = GutsSession(GutsRules(), ["A", "B", "C"], buy_in=20, rng=Random(1))
    s.start_deal(s.stacked({0: "As Ad", 1: "Kc Kd", 2: "7s 2d"}))
    while s.pending():
        s.act(s.pending()[0].seat, "in")
    assert GutsSession.replay(s.record()).events == s.events
