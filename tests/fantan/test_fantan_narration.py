"""Fan Tan told in its own words wherever a narrator runs: the terminal's watched game,
a dealer's choice night and the server's full log tell a pass and the chips for cards
left once (the pass's line, the outcome line), never as a bare chip movement."""

from __future__ import annotations

import pytest
from cli_helpers import run

from guts.catalog import find_game
from guts.narrate import Narrator
from guts.night.events import GameStarted
from guts.night.narrate import NightNarrator

BARE = ("(pass,", "(cards-left,")


def test_a_watched_game_tells_passes_and_cards_left_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "play", "fan-tan", "--watch", "--deals", "2", "--players", "4",
                         "--seed", "3")  # fmt: skip
    assert code == 0, err
    assert "passes" in out and "is out first" in out
    assert not [line for line in out.splitlines() if line.endswith(")") and BARE[0] in line]
    assert not [line for line in out.splitlines() if BARE[1] in line]


def test_a_narrator_told_the_family_and_a_night_narrator_tell_it_alike() -> None:
    session = find_game("fan-tan").new_session(["A", "B", "C"], buy_in=50)
    session.start_deal()
    while not session.deal_over:
        decision = session.pending()[0]
        session.act(decision.seat, decision.actions[0])
    names = list(session.table.names)
    own = [Narrator(names, session.game).tell(event) for event in session.events]
    night = NightNarrator(names)
    started = GameStarted(number=1, game="fan-tan", family="fantan", rules=(), players=(), button=0)
    night.tell(started)
    told = [night.tell(event) for event in session.events]
    assert told == own
    assert not [line for line in own if line and any(bare in line for bare in BARE)]
