"""The fast path's loop opts in: every GutsRules field is either implemented by it (and
checked deal by deal against the engine) or refused when it is not at its default."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from guts.games.guts.presets import PRESETS, preset
from guts.games.guts.rules import GutsRules, HandRanking
from guts.sim.vector import IMPLEMENTED, unsupported

pytest.importorskip("numba")

DEFAULT = GutsRules()


def differential() -> ModuleType:
    """tests/sim/test_sim_vector.py: its cases and its deal-by-deal comparison."""
    path = Path(__file__).with_name("test_sim_vector.py")
    spec = importlib.util.spec_from_file_location("sim_vector_cases", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# rule sets the differential tests do not reach, compared here the same way
EXTRA: list[tuple[str, dict[str, str], int]] = [
    ("two-card-guts", {"odd-chips": "first-listed", "declare": "simultaneous",
                       "continue-after-empty": "yes"}, 5),
    ("three-card-guts", {"ranking": "three-card", "continue-after-empty": "yes"}, 4),
    ("two-card-guts", {"ranking": "two-card", "ace-low": "yes", "straights": "yes",
                       "flushes": "yes", "order": "straight-flush,flush,straight,pair,high-card",
                       "continue-after-empty": "yes"}, 4),
    ("hi-lo-guts", {"hi-lo-both": "no", "continue-after-empty": "yes"}, 4),
]  # fmt: skip


# refused fields no preset sets away from their default
AWAY = [preset("two-card-guts", {"pass-left": "yes"})]


def checked_rules() -> list[GutsRules]:
    cases = differential()
    sets = [preset(name, options) for name, options, _ in cases.CASES]
    sets += [preset(name, options) for name, options, _, _ in cases.TABLE_STAKES]
    return sets + [preset(name, options) for name, options, _ in EXTRA]


def test_every_field_is_implemented_or_refused() -> None:
    refused = [f.name for f in dataclasses.fields(GutsRules) if f.name not in IMPLEMENTED]
    assert set(IMPLEMENTED) | set(refused) == {f.name for f in dataclasses.fields(GutsRules)}
    assert set(IMPLEMENTED) <= {f.name for f in dataclasses.fields(GutsRules)}
    for name in refused:
        # a preset that plays the field away from its default is refused, naming it
        away = [rules for rules in [*(rules for rules, _ in PRESETS.values()), *AWAY]
                if getattr(rules, name) != getattr(DEFAULT, name)]  # fmt: skip
        assert away, f"no preset sets {name}: add one here to show it refused"
        for rules in away:
            assert any(why.startswith(name.replace("_", "-") + "=")
                       for why in unsupported(rules)), (name, rules)  # fmt: skip


def test_every_implemented_field_is_checked_deal_by_deal_away_from_its_default() -> None:
    checked = checked_rules()
    for name, allowed in IMPLEMENTED.items():
        default = getattr(DEFAULT, name)
        seen = {getattr(rules, name) for rules in checked}
        if allowed is None:
            assert seen - {default}, f"{name} is never away from its default deal by deal"
        else:
            wanted = set(allowed) - {default}
            if name == "ranking":  # auto is two-card or three-card by the hand size
                wanted -= {HandRanking.AUTO}
            assert wanted <= seen, f"{name}: {wanted - seen} never checked deal by deal"
    for rules in checked:
        assert unsupported(rules) == [], rules


def test_a_field_taken_off_the_list_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = preset("two-card-guts", {"dropouts-ante": "yes"})
    assert unsupported(rules) == []
    monkeypatch.delitem(IMPLEMENTED, "dropouts_ante")
    assert unsupported(rules) == ["dropouts-ante=yes"]


@pytest.mark.parametrize(("preset_name", "options", "players"), EXTRA)
def test_the_extra_rule_sets_agree_with_the_engine_deal_by_deal(
    preset_name: str, options: dict[str, str], players: int
) -> None:
    from guts.bots import policy_for
    from guts.catalog import find_game

    cases = differential()
    session = find_game(preset_name).new_session(["a", "b"], options=options, buy_in=1)
    bots: list[Any] = [policy_for("threshold", "guts", session) for _ in range(players)]
    assert cases._compare(preset_name, options, players, bots, ["threshold"], 6,
                          seed=players) >= 6  # fmt: skip
