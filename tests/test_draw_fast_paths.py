"""Draw sessions play exactly as they did before the draw speed work of issue 11.

Every draw preset is played over many seeded sessions with random options, stacks
(table stakes and credit, short stacks too) and a mix of legal actions in several
spellings and refused ones; everything a session shows is hashed: each action's events,
the decisions offered, the refusals' messages, every seat's and the public view after
each step, the ledger, the record, the narration and the replayed record. The digests
below were taken before the quicker paths went in (``python tests/test_draw_fast_paths.py``
prints them): a change that alters any of these for any preset fails here. A deliberate
change of the rules' behaviour regenerates them, and says so in its commit.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from enum import StrEnum
from typing import Any, get_type_hints

import pytest

from guts.catalog import games, replay_record
from guts.errors import GutsError
from guts.games.decision import Decision, Discard, Wager
from guts.games.draw.rules import DrawRules
from guts.games.options import dash, split_optional
from guts.games.session import RecordedSession
from guts.narrate import Narrator

SESSIONS = 60
"""Seeded sessions per preset with random options, players and stacks."""
PLAIN = 20
"""Seeded sessions per preset as the preset stands, a full table with deep stacks."""
DEALS = 5
"""Deals at most per session (then it stops)."""
SKIPPED = {"max_deals", "seed", "min_players", "max_players"}
REFUSED: list[Any] = [None, 7, "", "raise 10000", "bet 0", "call", "check", "fold me",
                      "discard zz", "take up", "declare nothing", "pat", "raise to 3"]  # fmt: skip

DIGESTS = {
    "32-card-poker": "6c5162425c16c5be63e30c9348c30caef4d6e3d3e24564c8be206bb59daaf5ec",
    "all-for-one": "c91739d9dc7703b6ccf905430d710ae18b81783e47d1ad794ba0827d81c59421",
    "bosnian-32-card-poker": "96b85791d00b76e78cd39dfa50a47a4127cbbac12b2e2146dedb3f292d8c578c",
    "deuces-wild": "ed97d09dd0229169f435004b7617dea9de37db1f48314d310a17b55a8d65cac1",
    "diablo": "bbd0299417bba8b90c58d5d7de4d79f86fd46239f1e30ec57e99301191cbe1f4",
    "draw-with-blinds": "bf74c0a9609db1c9981565abcd88049992b3d5f9057873aa8803d3193b295144",
    "draw-with-bug": "595f79d2f6480ae3def70c2223e14c0a8aa6435c655a2dad77cb783655f676b8",
    "five-card-draw": "5a7a6738c81d63b4fb831df88df070a2066c22b1c40575550d1ad1f97c9cecd1",
    "jacks-back": "599c3c003d43d43ecce8f76543df8a4e5055dba1235834ff571f33075043784b",
    "jacks-or-better": "dcee2ff898b3b95108f854bdddf396f93dde1b7e42b93e136badc51ce5b3af3e",
    "progressive-jackpots": "1fb05738fd5172d8dc02c598af27cc8db323ce1a5d088767e74ba59bba80c313",
    "seven-card-draw": "0ec653b75021c49bae674cc62eecbe8b98c9b7f3f05d85b035412779536c820c",
    "trips-to-win": "4c4e6c23cd2d2af22e1e1fa760bfb9b9354557acd9054f482c324aa0d5d575e1",
    "two-draws": "af36b1d69de5aa226ed6598e201a05f592cba2b52d129050ec27a46841e5b721",
    "wild-widow": "ccbbe356bbf07b720871f870522ee0b47a1b048f8bebcc39acb94a62fab45495",
}


def draw_presets() -> list[str]:
    """Every draw preset, by name."""
    return sorted(name for name, game in games().items() if game.family == "draw")


def random_options(rules: Any, rng: random.Random) -> dict[str, str]:
    """Up to three of ``rules``' options set to values their types allow."""
    hints = get_type_hints(type(rules))
    names = [f.name for f in dataclasses.fields(rules) if f.name not in SKIPPED]
    options: dict[str, str] = {}
    for name in rng.sample(names, k=rng.randint(0, 3)):
        inner, optional = split_optional(hints[name])
        if optional and rng.random() < 0.3:
            options[dash(name)] = "none"
        elif inner is bool:
            options[dash(name)] = rng.choice(["yes", "no"])
        elif isinstance(inner, type) and issubclass(inner, StrEnum):
            options[dash(name)] = rng.choice([member.value for member in inner])
        elif inner is int:
            options[dash(name)] = str(rng.choice([0, 1, 2, 2, 3, 4, 5, 10]))
    return options


def spelled(decision: Decision, rng: random.Random) -> str:
    """A legal action for ``decision``, now and then not in its canonical spelling."""
    options = decision.options
    roll = rng.random()
    if isinstance(options, Wager) and roll < 0.2:
        legal = options.legal
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            return f"raise to {rng.randint(legal.min_raise_to, legal.max_raise_to)}"
        if legal.min_bet is not None and legal.max_bet is not None:
            return f"b {rng.randint(legal.min_bet, legal.max_bet)}"
    if isinstance(options, Discard) and options.counts and roll < 0.3:
        count = rng.choice(options.counts)
        cards = rng.sample(list(options.hand), k=min(count, len(options.hand)))
        return " ".join(cards) if cards else "pat"
    action = rng.choice(decision.actions)
    return action.upper() if roll > 0.9 else action


def views(session: RecordedSession[Any, Any]) -> list[Any]:
    """Every seat's view and the public view."""
    return [session.view(seat) for seat in range(len(session.table.names))] + [
        session.public_view()
    ]


def play(preset: str, seed: int, out: list[Any], *, plain: bool = False) -> None:
    """One seeded session of ``preset``, everything it shows appended to ``out``; a
    ``plain`` one with the preset's options, as many players as it takes and deep stacks,
    the others with random options, players and stacks."""
    rng = random.Random(seed)
    game = games()[preset]
    rules = game.rules()
    assert isinstance(rules, DrawRules)
    if plain:
        options, stacks = {}, [1000] * rules.player_limit
    else:
        options = random_options(rules, rng)
        options["credit"] = rng.choice(["yes", "no", "no"])
        players = rng.randint(rules.fewest_players, rules.player_limit + rng.choice([0, 0, 0, 1]))
        stacks = [rng.choice([0, 1, 3, 8, 40, 500, 500]) for _ in range(players)]
    names = [(f"P{seat}", chips) for seat, chips in enumerate(stacks)]
    out.append([options, names])
    try:
        session = game.new_session(names, options=options, rng=random.Random(seed))
    except GutsError as error:
        out.append(["refused", type(error).__name__, str(error)])
        return
    deals = 0
    while not session.is_over:
        if session.deal_over:
            if deals == DEALS:
                session.stop()
                break
            session.start_deal()
            deals += 1
            out.append(views(session))
            continue
        pending = session.pending()
        out.append([d.to_dict() for d in pending])
        decision = rng.choice(pending)
        if rng.random() < 0.15:
            wrong = rng.choice(REFUSED)
            try:
                session.act(decision.seat, wrong)
            except GutsError as error:
                out.append(["refused", type(error).__name__, str(error)])
            else:
                out.append(["taken", wrong, views(session)])
                continue
        events = session.act(decision.seat, spelled(decision, rng))
        out.append([event.to_dict() for event in events])
        out.append(views(session))
    record = json.loads(json.dumps(session.record()))
    narrator = Narrator(session.table.names)
    out.append([record, session.table.snapshot(), [narrator.tell(e) for e in session.events]])
    replayed = replay_record(record)
    out.append([replayed.record(), views(replayed)])


def digest(preset: str) -> str:
    """The digest of :data:`SESSIONS` and :data:`PLAIN` seeded sessions of ``preset``."""
    out: list[Any] = []
    for seed in range(SESSIONS):
        play(preset, seed, out)
    for seed in range(PLAIN):
        play(preset, 1000 + seed, out, plain=True)
    text = json.dumps(out, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def test_every_draw_preset_is_listed() -> None:
    assert sorted(DIGESTS) == draw_presets()


@pytest.mark.parametrize("preset", draw_presets())
def test_draw_sessions_show_what_they_showed(preset: str) -> None:
    assert digest(preset) == DIGESTS[preset]


if __name__ == "__main__":
    for name in draw_presets():
        print(f'    "{name}": "{digest(name)}",')
