"""The pieces every family shares: rules-as-data options and the recorded session."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

import pytest

from guts.errors import IllegalAction, OptionError
from guts.games.bourre import PRESETS as BOURRE_PRESETS
from guts.games.bourre import BourreRules, BourreSession
from guts.games.draw import PRESETS as DRAW_PRESETS
from guts.games.draw import DrawRules, DrawSession
from guts.games.draw import preset as draw_preset
from guts.games.guts import PRESETS as GUTS_PRESETS
from guts.games.guts import GutsRules, GutsSession
from guts.games.guts import preset as guts_preset
from guts.games.guts.events import Moved
from guts.games.options import RuleOptions, allowed_values, check_value, parse_value
from guts.games.session import MovedEvent, RecordedSession

FAMILIES: list[tuple[type[RuleOptions], dict[str, Any]]] = [
    (GutsRules, dict(GUTS_PRESETS)),
    (DrawRules, dict(DRAW_PRESETS)),
    (BourreRules, dict(BOURRE_PRESETS)),
]


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Toy(RuleOptions):
    family = "toy"
    option_docs: ClassVar[Mapping[str, str]] = {
        "cap": "a cap",
        "colour": "a colour",
        "fast": "fast play",
        "name": "a name",
    }

    cap: int | None = None
    colour: Colour = Colour.RED
    fast: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        self.check_options()


# -- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [("yes", True), (" On ", True), ("0", False), ("n", False)])
def test_booleans_are_read_from_yes_no_words(text: str, value: bool) -> None:
    assert parse_value("fast", text, bool) is value


def test_a_bad_value_names_the_option_and_what_it_allows() -> None:
    with pytest.raises(OptionError, match=r"^fast: expected yes or no, not 'maybe'$"):
        parse_value("fast", "maybe", bool)
    with pytest.raises(OptionError, match=r"^colour: unknown value 'green'; allowed: red, blue$"):
        Toy.from_options(None, {"colour": "green"})
    with pytest.raises(OptionError, match=r"^cap: expected a whole number or none, not 'x'$"):
        Toy.from_options(None, {"cap": "x"})


def test_an_unknown_option_names_the_family_and_every_option() -> None:
    with pytest.raises(OptionError, match=r"unknown toy option 'size'; allowed: cap, colour, fast"):
        Toy.from_options(None, {"size": "1"})


def test_optional_options_take_none_words_and_guts_also_takes_auto() -> None:
    assert Toy.from_options(None, {"cap": "none"}).cap is None
    assert GutsRules.from_options(None, {"pot-limit": "auto"}).pot_limit is None
    with pytest.raises(OptionError, match="diablo-cap: expected a whole number or none"):
        DrawRules.from_options(None, {"diablo-cap": "auto"})


def test_a_field_of_the_wrong_type_is_refused_naming_the_option() -> None:
    with pytest.raises(OptionError, match=r"^cap: expected a whole number, not True$"):
        Toy(cap=True)
    with pytest.raises(OptionError, match=r"^colour: expected one of red, blue, not 'red'$"):
        Toy(colour="red")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"^max-deals: expected a whole number, not 'x'$"):
        BourreRules(max_deals="x")  # type: ignore[arg-type]
    check_value("name", "text", str)


def test_allowed_values_for_help_screens() -> None:
    assert Toy.option_help() == {
        "cap": ("a number|none", "a cap"),
        "colour": ("red|blue", "a colour"),
        "fast": ("yes|no", "fast play"),
        "name": ("text", "a name"),
    }
    assert allowed_values(bool | None) == "yes|no|auto"


@pytest.mark.parametrize("rules_class, presets", FAMILIES)
def test_every_preset_round_trips_through_its_option_strings(
    rules_class: type[RuleOptions], presets: dict[str, Any]
) -> None:
    for rules, _ in presets.values():
        assert rules_class.from_options(None, rules.to_options()) == rules
        assert rules_class.from_options(None, rules.options()) == rules
        assert set(rules_class.option_help()) == set(rules_class.option_names())
        assert len(rules.option_lines()) == len(rules_class.option_names())


@pytest.mark.parametrize("rules_class, presets", FAMILIES)
def test_an_unknown_preset_lists_the_presets(
    rules_class: type[RuleOptions], presets: dict[str, Any]
) -> None:
    first = next(iter(presets))
    with pytest.raises(
        OptionError, match=f"unknown {rules_class.family} game 'x'; presets: {first}"
    ):
        rules_class.from_preset(presets, "x")
    assert rules_class.from_preset(presets, first) is presets[first][0]


def test_presets_with_options_apply_them() -> None:
    assert guts_preset("two-card-guts", {"ante": "2"}).ante == 2
    assert draw_preset("jacks-or-better", {"ante": "3"}).ante == 3


# -- the recorded session -------------------------------------------------------------------


def _sessions(seed: int) -> list[RecordedSession[Any, Any]]:
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cy"]
    return [
        GutsSession(GutsRules(max_deals=4), names, buy_in=50, rng=rng),
        DrawSession(DrawRules(max_deals=3), names, buy_in=50, rng=rng),
        BourreSession(BourreRules(max_deals=3), names, buy_in=50, rng=rng),
    ]


def _play(session: RecordedSession[Any, Any], rng: random.Random) -> None:
    while not session.is_over:
        if session.deal_over:
            session.start_deal()
            continue
        decision = session.pending()[0]
        session.act(decision.seat, rng.choice(decision.actions))


@pytest.mark.parametrize("seed", range(4))
def test_every_family_records_and_replays_to_the_same_events(seed: int) -> None:
    for session in _sessions(seed):
        _play(session, random.Random(seed))
        again = type(session).replay(session.record())
        assert again.events == session.events
        assert again.table.snapshot() == session.table.snapshot()
        assert again.players == session.players == (("Ann", 50), ("Bob", 50), ("Cy", 50))


def test_every_ledger_transfer_is_mirrored_as_the_familys_moved_event() -> None:
    for session in _sessions(7):
        _play(session, random.Random(7))
        moved = [e for e in session.events if isinstance(e, MovedEvent)]
        assert all(type(e) is session.moved_event for e in moved)
        ledger = session.table.ledger
        recorded = ledger if not isinstance(session, GutsSession) else ledger[3:]  # no buy-ins
        assert moved == [session.moved_event.from_transfer(t) for t in recorded]
        assert session.events[-1] == session.ended_event(reason=session.over_reason)


def test_moved_keeps_its_kind_and_dict_form() -> None:
    event = Moved(source="pot", destination=1, amount=3, reason="win")
    assert event.to_dict() == {"kind": "moved", "audience": None, "source": "pot",
                               "destination": 1, "amount": 3, "reason": "win", "note": "",
                               "shortfall": 0}  # fmt: skip


@pytest.mark.parametrize("seat", [-1, 3, True, "0"])
def test_a_view_of_a_seat_that_is_not_there_is_refused(seat: Any) -> None:
    for session in _sessions(1):
        with pytest.raises(IllegalAction, match="no seat"):
            session.view(seat)


def test_no_deal_starts_while_one_is_in_progress_or_after_the_end() -> None:
    for session in _sessions(2):
        session.start_deal()
        with pytest.raises(IllegalAction, match="is still in progress"):
            session.start_deal()
        _play(session, random.Random(2))
        with pytest.raises(IllegalAction, match="the session is over"):
            session.start_deal()
