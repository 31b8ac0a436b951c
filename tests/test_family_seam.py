"""A family is one package plus one registration: High Card (tests/highcard.py), built
outside ``guts`` and registered here, plays through the catalog, bots, a session and its
replay, narration, the research encoding, the simulator's outcomes and the server's seat
facts, with no other change to ``guts``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from random import Random

import pytest
from highcard import FAMILY, NAME, HighCardRules

from guts.bots import bot_kinds, check_bot_kind, make_bot, play_out, policy_for
from guts.catalog import FAMILIES, find_game, games, register, replay_record
from guts.envs.encoding import Layout
from guts.errors import OptionError
from guts.games.base import Decision
from guts.games.declaration.events import DealStarted, Outcome
from guts.narrate import Narrator, narrate
from guts.server.state import shares_out, takes_table
from guts.sim.outcomes import NOBODY_IN, OUTCOMES, SHOWDOWN, UNCONTESTED, settlements


@pytest.fixture
def registered() -> Iterator[None]:
    """High Card in the catalog for one test, and gone after it."""
    register(FAMILY)
    try:
        yield
    finally:
        FAMILIES.pop(NAME)
        games.cache_clear()


def test_registering_lists_the_family_and_its_presets(registered: None) -> None:
    game = find_game("high-card")
    assert game.family == NAME and game.games_family is FAMILY
    assert game.rules({"ante": "2"}) == HighCardRules(ante=2)
    with pytest.raises(OptionError, match="already"):
        register(FAMILY)


def test_the_family_is_unknown_until_registered() -> None:
    with pytest.raises(OptionError, match="unknown game"):
        find_game("high-card")
    assert bot_kinds(NAME) == ("random",)


def test_its_bots_play_a_session_that_replays(registered: None) -> None:
    assert bot_kinds(NAME) == ("random", "highest")
    check_bot_kind("highest", NAME, find_game("high-card").rules())
    with pytest.raises(OptionError, match="random, highest"):
        check_bot_kind("threshold", NAME)
    session = find_game("high-card").new_session(["Ann", "Bob", "Cy"], buy_in=20, rng=Random(3))
    bots = [
        policy_for("highest", NAME, session),
        make_bot("highest", NAME),
        make_bot("random", NAME),
    ]
    deals = play_out(session, bots, Random(4), max_deals=12)
    assert session.is_over and 1 <= deals <= 12
    assert sum(session.table.stacks) == 60  # every chip back with a player
    replayed = replay_record(session.record())
    assert replayed.events == session.events


def test_its_events_are_told_in_its_words_and_counted_as_its_outcomes(registered: None) -> None:
    session = find_game("high-card").new_session(["Ann", "Bob"], buy_in=10, rng=Random(1))
    session.start_deal()
    dealer_left = session.pending()[0].seat
    session.act(dealer_left, "in")
    session.act(1 - dealer_left, "out")  # one player in: uncontested
    session.start_deal()
    for _ in range(2):
        session.act(session.pending()[0].seat, "out")  # nobody in
    session.start_deal()
    for _ in range(2):
        session.act(session.pending()[0].seat, "in")  # both in: a showdown
    assert settlements(NAME, session.events) == [UNCONTESTED, NOBODY_IN, SHOWDOWN]
    assert set(settlements(NAME, session.events)) <= set(OUTCOMES)
    started = DealStarted(deal=1, dealer=0, seats=(1, 0))
    assert narrate(started, ["Ann", "Bob"], NAME) == "High Card 1"  # its own words first
    assert narrate(started, ["Ann", "Bob"]) == "— Deal 1, dealer Ann —"  # the shared ones
    told = [Narrator(["Ann", "Bob"], NAME).tell(e) for e in session.events]
    outcomes = [e.text for e in session.events if isinstance(e, Outcome)]
    assert [line for line in told if line in outcomes] == outcomes


def test_its_actions_are_encoded_from_its_layout(registered: None) -> None:
    layout = Layout.for_rules(NAME, find_game("high-card").rules(), seats=3)
    assert layout.names == ("in", "out") and layout.hand == 1
    decision = Decision.choose(0, ("in", "out"))
    assert layout.mask(decision).tolist() == [1, 1]
    assert layout.action(decision, 1) == "out"


def test_the_server_reads_its_seat_facts(registered: None) -> None:
    assert takes_table(NAME) and shares_out(NAME)
    assert not takes_table("no-such-family") and not shares_out("no-such-family")


def test_the_page_learns_how_to_draw_its_seats(registered: None) -> None:
    """The page's scripts import each family's PageView from ``/api/families.js``."""
    pytest.importorskip("starlette", reason="the page's routes need the server extra")
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from guts.server.pages import page_routes

    with TestClient(Starlette(routes=page_routes())) as client:
        response = client.get("/api/families.js")
    assert response.headers["content-type"].startswith("text/javascript")
    prefix = "export const FAMILIES = "
    assert response.text.startswith(prefix)
    views = json.loads(response.text.removeprefix(prefix).rstrip().removesuffix(";"))
    assert views[NAME] == {"face_down": "hand", "cards": 1, "out_hides": False}
    assert set(views) == set(FAMILIES)
