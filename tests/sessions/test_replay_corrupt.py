"""Corrupted records: replaying one either works or raises a clear GutsError, never a crash.

Real records of every family are played by seeded random bots, then mutated at random (a
value anywhere in the JSON tree replaced by one of another type, a key or item deleted, a
number changed, a value wrapped in a list); every replay must succeed or raise GutsError.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from guts.catalog import find_game, replay_record
from guts.errors import GutsError
from guts.games.base import Event, EventError, events_from_json
from guts.history import HistoryError, read_history, replay, write_history

PRESETS = {
    "guts": ["two-card-guts", "simultaneous-guts", "ghost-guts", "hi-lo-guts", "batey-guts"],
    "staged": ["three-five-seven", "three-five-seven-simultaneous", "napalm", "toh"],
    "draw": ["five-card-draw", "jacks-or-better", "deuces-wild", "wild-widow", "two-draws"],
    "bourre": ["bourre", "bourre-stock-trump", "bourre-cinch", "bourre-retract"],
}
ALL_PRESETS = [name for names in PRESETS.values() for name in names]

OTHER_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 3, 10**12, 2.5, "", "x", "As", "acted", "pot",
    [], [0], ["As"], [[1, 2]], {}, {"kind": "acted"},
]  # fmt: skip


@cache
def _record(name: str) -> str:
    """A seeded random-bot session of preset ``name``, three deals at most, as JSON."""
    rng = random.Random(name)
    session = find_game(name).new_session(
        ["Ann", "Bob", "Cy", "Dee"], buy_in=30, rng=random.Random(len(name))
    )
    session.play_out(lambda decision: rng.choice(decision.actions), deals=3)  # type: ignore[attr-defined]
    return json.dumps(session.record())


def record_of(name: str) -> dict[str, Any]:
    """A fresh copy of preset ``name``'s record."""
    return json.loads(_record(name))  # type: ignore[no-any-return]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


def mutate(record: Any, rng: random.Random) -> Any:
    """``record`` with one random corruption (the record itself may be replaced)."""
    record = copy.deepcopy(record)
    path = rng.choice(list(_paths(record)))
    if not path:
        return rng.choice([*OTHER_VALUES, [record]])
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    old = parent[key]
    how = rng.randrange(5)
    if how == 0:
        parent[key] = rng.choice(OTHER_VALUES)
    elif how == 1:
        del parent[key]
    elif how == 2 and isinstance(old, int) and not isinstance(old, bool):
        parent[key] = old + rng.choice([-50, -2, -1, 1, 2, 50])
    elif how == 2 and isinstance(old, str):
        parent[key] = old + rng.choice(["x", "s", " ", "1"])
    elif how == 3:
        parent[key] = [old]
    elif isinstance(old, bool | int):
        parent[key] = not old if isinstance(old, bool) else bool(old)  # a bool for an int
    else:
        parent[key] = rng.choice(OTHER_VALUES)
    return record


def replays_or_guts_error(record: Any) -> bool:
    """True if ``record`` replays; False if it raised a GutsError (anything else fails)."""
    try:
        replay_record(record)
    except GutsError as error:
        assert str(error), "a GutsError must say what is wrong"
        return False
    return True


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_the_real_record_replays(name: str) -> None:
    assert replays_or_guts_error(record_of(name))


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_randomly_corrupted_records_raise_only_guts_errors(name: str) -> None:
    rng = random.Random(f"corrupt {name}")
    base = record_of(name)
    failed = 0
    for _ in range(100):
        record = base
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            record = mutate(record, rng)
        failed += not replays_or_guts_error(record)
    assert failed > 0  # the mutations do reach the checks


@pytest.mark.parametrize("family", sorted(PRESETS))
def test_every_event_field_of_every_kind_is_type_checked(family: str) -> None:
    """Each field of each event in a real record, set to a value of another JSON type,
    is refused by name when the events are read."""
    record = record_of(PRESETS[family][0])
    seen: set[tuple[str, str]] = set()
    for number, event in enumerate(record["events"]):
        for field, value in event.items():
            if field == "kind" or (event["kind"], field) in seen:
                continue
            seen.add((event["kind"], field))
            for wrong in _wrong_values(value):
                events = copy.deepcopy(record["events"])
                events[number][field] = wrong
                with pytest.raises(EventError, match=f"event {number + 1}: .*'{field}' must be"):
                    events_from_json(events)


def _wrong_values(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [1, "yes", None]
    if isinstance(value, int):  # some fields are an integer or a string (a seat or place)
        return [True, 1.5, [value]]
    if isinstance(value, str):
        return [[value], {}, False]
    if isinstance(value, list):
        return ["As", {}, [{}], [[]]] if not value else ["As", {}, [{}], [value]]
    return [{}]


def _first(record: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(event for event in record["events"] if event["kind"] == kind)


@pytest.mark.parametrize(
    ("name", "corrupt", "needle"),
    [
        ("two-card-guts", lambda r: r.update(rules=["cards", "3"]), "rules must be an object"),
        ("two-card-guts", lambda r: r.update(rules={"cards": 3}), "rule 'cards' must be a string"),
        ("two-card-guts", lambda r: r.update(rules={"cards": "many"}), "rules: cards"),
        ("toh", lambda r: r.update(players="Ann"), "players must be a list"),
        ("toh", lambda r: r["players"][1].__setitem__(1, True), "player 1 must be a"),
        ("toh", lambda r: r.update(button=True), "button must be a seat number"),
        ("toh", lambda r: r.update(button=7), "no seat 7"),
        ("bourre", lambda r: r.pop("events"), "missing events"),
        ("bourre", lambda r: r.update(events={"kind": "acted"}), "must be a JSON list"),
        ("bourre", lambda r: _first(r, "acted").update(seat="1"), "'seat' must be an integer"),
        ("bourre", lambda r: _first(r, "acted").update(seat=True), "not true"),
        ("bourre", lambda r: _first(r, "acted").update(seat=[1]), "'seat' must be an integer"),
        ("bourre", lambda r: _first(r, "acted").pop("action"), "missing fields \\['action'\\]"),
        ("bourre", lambda r: _first(r, "acted").update(audience="0"), "'audience' must be"),
        ("bourre", lambda r: _first(r, "acted").update(extra=1), "unknown fields \\['extra'\\]"),
        ("five-card-draw", lambda r: _first(r, "draw-shuffled").update(deck="AsKs"), "'deck'"),
        ("five-card-draw", lambda r: _first(r, "draw-dealt").update(cards=[1, 2]), "'cards'"),
        ("five-card-draw", lambda r: _first(r, "draw-acted").update(seat=9), "seat 9"),
        ("three-five-seven", lambda r: r["events"].__setitem__(3, 5), "must be a JSON object"),
        ("three-five-seven", lambda r: r["events"][3].update(kind="nope"), "unknown event kind"),
        ("three-five-seven", lambda r: r["events"][3].update(kind=None), "needs a 'kind'"),
    ],
)
def test_malformed_records_name_what_is_wrong(name: str, corrupt: Any, needle: str) -> None:
    record = record_of(name)
    corrupt(record)
    with pytest.raises(GutsError, match=needle):
        replay_record(record)


def test_not_a_record_at_all() -> None:
    record: Any
    for record in (None, [], "guts", 3):
        with pytest.raises(GutsError, match="must be a JSON object"):
            replay_record(record)
    for game in (None, ["guts"], 3):
        with pytest.raises(GutsError, match="names no game family"):
            replay_record({"game": game})
    with pytest.raises(GutsError, match="unknown game family 'poker'"):
        replay_record({"game": "poker"})


def test_a_changed_event_names_where_the_replay_parts() -> None:
    record = record_of("five-card-draw")
    moved = next(i for i, e in enumerate(record["events"]) if e["kind"] == "draw-moved")
    record["events"][moved]["amount"] += 1
    with pytest.raises(EventError, match=f"does not replay.*event {moved + 1} \\(draw-moved\\)"):
        replay_record(record)
    record = record_of("five-card-draw")
    record["events"].pop()
    with pytest.raises(EventError, match="does not replay"):
        replay_record(record)


def test_event_from_dict_refuses_bools_for_ints_and_non_objects() -> None:
    with pytest.raises(EventError, match="must be a JSON object"):
        Event.from_dict(["acted"])  # type: ignore[arg-type]
    with pytest.raises(EventError, match="'seat' must be an integer, not false"):
        Event.from_dict({"kind": "acted", "seat": False, "action": "in"})


def _history_text(name: str) -> list[str]:
    session = find_game(name).new_session(["Ann", "Bob", "Cy", "Dee"], buy_in=20,
                                             rng=random.Random(3))
    rng = random.Random(4)
    session.play_out(lambda decision: rng.choice(decision.actions), deals=2)  # type: ignore[attr-defined]
    buffer = io.StringIO()
    write_history(buffer, session, name)
    return buffer.getvalue().splitlines()


@pytest.mark.parametrize("name", ["two-card-guts", "napalm", "jacks-or-better", "bourre"])
def test_corrupted_history_files_raise_only_guts_errors(name: str) -> None:
    lines = _history_text(name)
    assert replay(read_history(io.StringIO("\n".join(lines)))).is_over
    rng = random.Random(name)
    for _ in range(80):
        changed = list(lines)
        number = rng.randrange(len(changed))
        how = rng.randrange(4)
        if how == 0:
            changed[number] = changed[number][: rng.randrange(len(changed[number]))]
        elif how == 1:
            changed[number] = json.dumps(rng.choice(OTHER_VALUES))
        elif how == 2:
            value = json.loads(changed[number])
            value[rng.choice(list(value))] = rng.choice(OTHER_VALUES)
            changed[number] = json.dumps(value)
        else:
            del changed[number]
        with contextlib.suppress(GutsError):  # anything else fails the test
            replay(read_history(io.StringIO("\n".join(changed))))


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty"),
        ("\n  \n", "empty"),
        ("[1, 2]\n", "line 1 is not a JSON object"),
        ('{"format": "other"}\n', "not a guts-history/1 header"),
        ('{"format": "guts-history/1", "preset": 3}\n', "preset must be a string"),
        ('{"format": "guts-history/1"}\n\n{"kind": "acted"\n', "line 3 is not JSON"),
        ('{"format": "guts-history/1"}\n"acted"\n', "line 2 is not a JSON object"),
        ("[" * 100_000 + "\n", "line 1"),
    ],
)
def test_read_history_names_the_bad_line(text: str, needle: str) -> None:
    with pytest.raises(HistoryError, match=needle):
        read_history(io.StringIO(text))


def test_read_history_of_bytes_that_are_not_utf8() -> None:
    source = io.TextIOWrapper(io.BytesIO(b'{"format": "guts-history/1"}\n\xff\xfe\n'), "utf-8")
    with pytest.raises(HistoryError, match="not UTF-8"):
        read_history(source)
