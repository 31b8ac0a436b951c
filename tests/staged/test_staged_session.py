"""The staged session on the shared session machinery: tables, views, records, bots."""

from __future__ import annotations

import json
import random

import pytest
from staged_helpers import declare, session, start

from guts.errors import IllegalAction, OptionError
from guts.games.base import events_from_json
from guts.games.session import RecordedSession
from guts.games.staged import (
    RandomBot,
    SensibleBot,
    StagedRules,
    StagedSession,
    new_session,
    play_session,
)
from guts.games.staged.events import DealStarted, Moved, SessionEnded, Shuffled
from guts.games.staged.rules import Game
from guts.table import Reason, Table

RULES = StagedRules()
TOH = StagedRules(game=Game.TOH)


def test_a_staged_session_is_a_recorded_session_of_the_guts_events() -> None:
    s = session(RULES)
    assert isinstance(s, RecordedSession)
    assert s.players == (("A", 100), ("B", 100), ("C", 100))
    s.start_deal()
    moved = [e for e in s.events if isinstance(e, Moved)]
    assert [(m.source, m.destination, m.amount) for m in moved] == [(i, "pot", 1) for i in range(3)]
    assert len(moved) == len(s.table.ledger) - 3  # every ante is recorded, no buy-in


def test_a_shared_table_keeps_its_button_and_must_match_the_odd_chip_rule() -> None:
    table = Table(["A", "B"], buy_in=20, credit=True)
    with pytest.raises(OptionError, match="a shared table keeps its own dealer button"):
        StagedSession(RULES, table, button=1)
    with pytest.raises(OptionError, match="odd-chips=nearest-left; set the rules the same"):
        StagedSession(StagedRules.from_options(None, {"odd-chips": "first-listed"}), table)


def test_a_session_on_a_shared_table_records_only_its_own_transfers() -> None:
    table = Table(["A", "B"], buy_in=20, credit=True)
    table.pay(0, 1, 5, Reason.PAY_WINNER)  # another game's hand
    s = StagedSession(RULES, table)
    s.start_deal()
    assert sum(isinstance(e, Moved) for e in s.events) == 2  # the two antes


def test_views_begin_with_the_game_its_variant_and_rules_then_the_table() -> None:
    s = session(TOH, players=4)
    s.start_deal()
    view = s.view(0)
    assert list(view)[:5] == ["game", "variant", "rules", "seat", "players"]
    assert (view["game"], view["variant"], view["rules"]) == ("staged", "toh", {"game": "toh"})
    assert view["target"] == 5 and view["word"] == "point" and view["points"] == [0] * 4
    assert s.public_view()["seat"] is None
    for bad in (4, -1, True):
        with pytest.raises(IllegalAction, match="no seat"):
            s.view(bad)


def test_a_toh_replay_deals_on_from_the_stock_between_reshuffles() -> None:
    s = new_session("toh", ["A", "B", "C"], options={"min-players": "2"}, rng=random.Random(7))
    play_session(s, [RandomBot(random.Random(i)) for i in range(3)], deals=3)
    events = events_from_json(json.loads(json.dumps(s.record()))["events"])
    starts = [i for i, e in enumerate(events) if isinstance(e, DealStarted)]
    followed = [isinstance(events[i + 1], Shuffled) for i in starts]
    assert followed == [True, False, False]  # one shuffle, then the stock deals on
    assert StagedSession.replay(s.record()).events == s.events


def test_play_session_with_a_deal_limit_stops_and_shares_the_pot() -> None:
    s = new_session("three-five-seven", ["A", "B", "C"], rng=random.Random(2), buy_in=30)
    play_session(s, [SensibleBot(), SensibleBot(), RandomBot(random.Random(3))], deals=2)
    assert s.is_over and s.table.pot == 0
    assert s.deals_played <= 2
    assert isinstance(s.events[-1], SessionEnded)
    assert StagedSession.replay(s.record()).events == s.events


def test_a_session_that_runs_out_of_players_with_chips_replays() -> None:
    s = StagedSession(StagedRules(credit=False), [("A", 2), ("B", 2)], button=1)
    start(s, ["Ac Ad Ah Kc Kd Kh Qc", "2c 3d 4h 5c 7d 8h 9c"])
    while not s.deal_over:
        declare(s, ("in", "in"))  # B loses every stage, paying what it has left
    assert s.table.stack(1) == 0 and s.over_reason == "fewer than two players have chips"
    assert StagedSession.replay(s.record()).events == s.events
