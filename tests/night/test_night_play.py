"""A night played: the choice, stacks carried, games that end only when nothing is owed,
the cap, time-outs, markers, views and the ledger."""

from __future__ import annotations

import pytest
from night_helpers import chips, new_night, play

from guts.errors import IllegalAction
from guts.games.base import Decision
from guts.night import FEWER_THAN_TWO, Night, refund
from guts.night.events import GameChosen, GameEnded, GameStarted, MarkerTaken, PotRefunded
from guts.table import POT, Place, Reason, TableError, Transfer


def test_between_games_the_chooser_decides_with_a_choose_of_the_allowed_games() -> None:
    night = new_night("two-card-guts,three-five-seven,bourre")
    (decision,) = night.pending()
    assert decision == Decision.choose(0, ("two-card-guts", "three-five-seven", "bourre"),
                                       "choose game 1")  # fmt: skip
    assert not night.deal_over and night.legal_actions(1) == ()
    with pytest.raises(IllegalAction, match=r"Ann \(seat 0\) must choose the next game first"):
        night.start_deal()
    with pytest.raises(IllegalAction, match="not their turn"):
        night.act(1, "bourre")
    assert night.view(1)["to_act"] == [0] and night.view(0)["pending"][0]["kind"] == "choose"


def test_the_dealer_of_each_game_chooses_it() -> None:
    night = play(new_night("two-card-guts,bourre,three-five-seven"), games=4)
    for chosen, started in _choices(night):
        assert chosen.seat == started.button  # whoever deals the game's first deal


def test_after_a_game_the_deal_passes_left_of_its_first_dealer() -> None:
    """Diablo in a dealer's choice game: the deal passes to the left of whoever called it,
    who selects the next game; a cap of one deal per player goes round the table."""
    night = play(new_night("two-card-guts,bourre", cap="4"), games=5)
    assert [chosen.seat for chosen, _ in _choices(night)] == [0, 1, 2, 3, 0]
    assert [started.button for _, started in _choices(night)] == [0, 1, 2, 3, 0]


def test_with_the_deal_continuing_a_cap_of_one_orbit_brings_back_the_same_chooser() -> None:
    night = play(new_night("two-card-guts,bourre", cap="4", deal_after_game="continues"),
                 games=3)  # fmt: skip
    seats = [chosen.seat for chosen, _ in _choices(night)]
    capped = [i for i, result in enumerate(night.results[:-1]) if result.deals == 4]
    assert capped, "no game reached the cap"
    for i in capped:  # four deals later the button is back where the game began
        assert seats[i + 1] == seats[i]


def test_with_chooser_next_the_choice_passes_left_game_by_game() -> None:
    night = play(new_night("two-card-guts,bourre", chooser="next"), games=5)
    assert [chosen.seat for chosen, _ in _choices(night)] == [0, 1, 2, 3, 0]


def test_a_rotation_plays_the_games_in_turn_with_no_choice() -> None:
    night = new_night("two-card-guts,bourre,three-five-seven", chooser="rotation")
    assert night.pending() == () and night.deal_over
    play(night, games=4)
    assert [r.game for r in night.results] == [
        "two-card-guts", "bourre", "three-five-seven", "two-card-guts"]  # fmt: skip
    assert {chosen.how for chosen, _ in _choices(night)} == {"rotation"}


def test_stacks_carry_exactly_from_game_to_game() -> None:
    night = play(new_night("two-card-guts,three-five-seven,jacks-or-better,bourre", stack=100),
                 ["three-five-seven", "bourre", "jacks-or-better", "two-card-guts"] * 2,
                 games=8)  # fmt: skip
    ended = [e for e in night.events if isinstance(e, GameEnded)]
    started = [e for e in night.events if isinstance(e, GameStarted)]
    assert len(ended) == 8
    assert started[0].players == tuple((n, 100) for n in ("Ann", "Bob", "Cat", "Dan"))
    for before, after in zip(ended, started[1:], strict=False):
        assert tuple(stack for _, stack in after.players) == before.stacks
    assert night.ledger.stacks == ended[-1].stacks and sum(ended[-1].stacks) == 400


def test_a_game_never_ends_while_a_pot_is_owed() -> None:
    def check(night: Night) -> None:
        session = night.session
        if session is not None:
            owed = bool(session.table.places) or bool(getattr(session, "points", None))
            if owed and session.deal_over:
                assert night.pending() == () and not session.is_over  # no choice yet

    games = "two-card-guts,three-five-seven,bourre,jacks-or-better"
    for seed in range(3):
        night = play(new_night(games, seed=seed), seed=seed, games=6, check=check)
        for event in night.events:
            if isinstance(event, GameEnded):
                assert sum(event.stacks) == 240  # nothing left in the middle


def test_bourre_plays_on_until_a_pot_is_taken_with_no_one_bourred() -> None:
    for seed in range(8):
        night = new_night("bourre", seed=seed, most_games="1")
        play(night, seed=seed)
        (result,) = night.results
        assert result.reason == "the pot was taken and nothing is owed"
        deals = [e for e in night.events if e.kind == "stock-seed"]  # one per Bourré deal
        assert len(deals) == result.deals


def test_a_capped_pot_is_split_equally_by_default() -> None:
    night = new_night("two-card-guts", players=3, cap="1")
    night.act(0, "two-card-guts")
    assert night.session is not None
    night.start_deal(night.session.stacked({1: "As Ad", 2: "Kc Kd", 0: "2c 7d"}))
    for seat, choice in ((1, "in"), (2, "in"), (0, "out")):
        night.act(seat, choice)
    # Bob wins the antes (3); Cat, in and beaten, matches the pot: 3 carried, shared 1 each
    assert night.results[0].reason == "the cap (1 deals) was reached"
    assert night.ledger.stacks == (60, 63, 57)


def test_a_capped_pot_goes_back_to_whoever_put_it_in_with_refund() -> None:
    night = new_night("two-card-guts", players=3, cap="1", capped_pot="refund")
    night.act(0, "two-card-guts")
    assert night.session is not None
    night.start_deal(night.session.stacked({1: "As Ad", 2: "Kc Kd", 0: "2c 7d"}))
    for seat, choice in ((1, "in"), (2, "in"), (0, "out")):
        night.act(seat, choice)
    assert [e for e in night.events if isinstance(e, PotRefunded)] == [
        PotRefunded(number=1, change=(0, 0, 3))]  # Cat's match  # fmt: skip
    assert night.ledger.stacks == (59, 62, 59)
    assert Night.replay(night.record()).events == night.events


def test_refund_shares_what_is_in_the_middle_by_what_each_put_in() -> None:
    def put(seat: int, amount: int) -> Transfer:
        return Transfer(seat, POT, amount, Reason.ANTE)

    won = Transfer(POT, 1, 5, Reason.WIN)
    assert refund([put(0, 2), put(1, 3), won, put(2, 4)], 3) == (0, 0, 4)  # reset when empty
    assert refund([put(0, 1), put(1, 2), Transfer(POT, Place("reserve"), 3, Reason.RELEASE)],
                  2) == (1, 2)  # fmt: skip
    # Cat took out more than he put in: the rest is shared by what the others put in,
    # the odd chip to the lower seat
    assert refund([put(0, 2), put(1, 2), put(2, 1), Transfer(POT, 2, 2, Reason.WIN)],
                  3) == (2, 1, 0)  # fmt: skip
    assert refund([], 2) == (0, 0)


def test_a_chooser_out_of_time_gets_the_house_default_else_the_game_before() -> None:
    night = new_night("two-card-guts,bourre,napalm", chooser="next")
    night.time_out()  # nobody has chosen yet: the first game allowed
    assert night.session is not None and night.session.game == "guts"
    with pytest.raises(IllegalAction, match="nothing to time out"):
        night.time_out()  # a game is being played: no choice waits
    _finish_game(night)
    night.act(1, "bourre ante=2")
    _finish_game(night)
    night.time_out()  # Cat does not choose: the game before, with its options
    chosen = [e for e in night.events if isinstance(e, GameChosen)]
    assert [(e.how, e.seat, e.game, e.options) for e in chosen] == [
        ("timeout", 0, "two-card-guts", ()), ("chosen", 1, "bourre", (("ante", "2"),)),
        ("timeout", 2, "bourre", (("ante", "2"),))]  # fmt: skip
    assert night.session is not None and night.session.rules.ante == 2
    with_default = new_night("two-card-guts,bourre,napalm", default="napalm")
    with_default.time_out()
    assert with_default.session is not None and with_default.session.game == "staged"
    assert Night.replay(night.record()).events == night.events


def _finish_game(night: Night) -> None:
    number = night.number
    while night.number == number and night.session is not None:
        if night.deal_over:
            night.start_deal()
        else:
            decision = night.pending()[0]
            night.act(decision.seat, decision.actions[-1])


def test_at_table_stakes_a_busted_player_never_chooses_and_the_night_ends_with_one() -> None:
    def check(night: Night) -> None:
        if night.chooser is not None:
            assert night.table.stack(night.chooser) > 0

    night = play(new_night("two-card-guts,bourre", players=3, stack=4), games=60, check=check)
    assert night.over_reason == FEWER_THAN_TWO
    assert sorted(night.ledger.stacks)[:2] == [0, 0] and sum(night.ledger.stacks) == 12


def test_on_credit_a_player_below_zero_takes_a_marker() -> None:
    for seed in range(20):
        night = play(new_night("two-card-guts,bourre", players=3, stack=3, credit="yes",
                               seed=seed), seed=seed, games=6)  # fmt: skip
        markers = [e for e in night.events if isinstance(e, MarkerTaken)]
        if markers:
            break
    else:
        pytest.fail("no marker in 20 nights")
    marker = markers[0]
    after = night.events.index(marker) + 1
    nxt = next(e for e in night.events[after:] if isinstance(e, GameStarted))
    assert nxt.players[marker.seat][1] == 0
    ledger = night.ledger
    assert sum(ledger.markers) == sum(m.amount for m in markers)
    assert sum(ledger.net) == 0 and chips(night) == 9
    assert sum(amount for _, _, amount in ledger.settlement().payments) == sum(
        n for n in ledger.net if n > 0)  # fmt: skip


def test_stopping_the_night_shares_out_the_game_in_progress() -> None:
    night = new_night("three-five-seven", most_games="3")
    night.act(0, "three-five-seven")
    night.start_deal()
    with pytest.raises(IllegalAction, match="finish deal 1"):
        night.stop()
    while not night.deal_over:
        decision = night.pending()[0]
        night.act(decision.seat, "out")
    assert night.table.pot > 0
    with pytest.raises(TableError, match="in the middle"):
        night.ledger.settlement()
    night.stop("time to go home")
    assert night.is_over and night.over_reason == "time to go home"
    assert night.ledger.in_play == 0 and sum(night.ledger.stacks) == 240
    assert night.results[0].reason == "time to go home"
    with pytest.raises(IllegalAction, match="the night is over"):
        night.start_deal()


def test_most_games_ends_the_night() -> None:
    night = play(new_night("two-card-guts,bourre", most_games="3"))
    assert night.over_reason == "3 games were played" and len(night.results) == 3


def test_views_are_the_games_own_with_the_night_added() -> None:
    def check(night: Night) -> None:
        session = night.session
        for seat in range(4):
            view = night.view(seat)
            assert view["night"]["number"] == night.number
            if session is not None:
                assert {k: v for k, v in view.items() if k != "night"} == session.view(seat)
        public = night.public_view()
        if session is not None:
            assert {k: v for k, v in public.items() if k != "night"} == session.public_view()
        assert "hand" not in public or not public["hand"]

    play(new_night("two-card-guts,bourre,jacks-or-better"), games=3, check=check)


def test_the_nights_events_hold_each_games_whole_record() -> None:
    sessions: list[object] = []

    def collect(night: Night) -> None:
        if night.session is not None and night.session not in sessions:
            sessions.append(night.session)

    night = play(new_night("two-card-guts,bourre,three-five-seven"), games=4, check=collect)
    events = list(night.events)
    assert len(sessions) == 4
    starts = [i + 1 for i, event in enumerate(events) if isinstance(event, GameStarted)]
    for session, start in zip(sessions, starts, strict=True):
        recorded = session.events  # type: ignore[attr-defined]
        assert tuple(events[start : start + len(recorded)]) == recorded
        assert events[start + len(recorded)].kind.startswith("night-")


def test_the_ledger_covers_the_whole_night() -> None:
    night = play(new_night("two-card-guts,three-five-seven,bourre"), games=5)
    ledger = night.ledger
    assert [sum(r.change) for r in ledger.games] == [0] * len(ledger.games)
    totals = [sum(r.change[seat] for r in ledger.games) for seat in range(4)]
    assert list(ledger.net) == totals
    csv = ledger.to_csv().splitlines()
    assert csv[0].startswith("player,1 ") and csv[0].endswith("buy_in,markers,stack,net")
    assert len(csv) == 5 and csv[1].split(",")[-1] == str(ledger.net[0])
    payments = ledger.settlement().payments
    paid = {name: 0 for name in ledger.names}
    for payer, payee, amount in payments:
        paid[payer] -= amount
        paid[payee] += amount
    assert tuple(paid.values()) == ledger.net


def _choices(night: Night) -> list[tuple[GameChosen, GameStarted]]:
    events = night.events
    return [(e, events[i + 1]) for i, e in enumerate(events)  # type: ignore[misc]
            if isinstance(e, GameChosen)]  # fmt: skip
