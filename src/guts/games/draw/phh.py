"""Export of draw poker deals to the PHH format (uoftcprg's TOML-based Poker Hand History).

One deal becomes one PHH document, built from a session's record alone (the event log,
the rules and the seats), so any saved history can be exported later. Players are listed
in dealing order (dealer's left first, the dealer last), as PHH requires.

Standard fields written: ``variant``, ``antes``, ``blinds_or_straddles``, ``small_bet`` and
``big_bet`` (fixed and spread limit) or ``min_bet`` (pot and no limit), ``starting_stacks``,
``actions``, ``players``, ``seats``, ``hand``, ``finishing_stacks``, ``winnings``.
Actions: ``d dh p1 AcKd7h5s2c`` (a deal or a draw's replacements), ``p1 cbr 20`` (bet or
raise to 20), ``p2 cc`` (check or call), ``p3 f``, ``p1 sd 2c3d`` (discard; ``p1 sd`` stands
pat), ``p1 sm AsKs...`` (shows at the showdown).

PHH 1.0 has no code for high draw poker, so the variant is written in its scheme: the
limit letter (``F`` fixed, ``S`` spread, ``P`` pot, ``N`` no limit), the hand size, ``CD``
(card draw): ``F5CD``, ``N7CD``. What PHH lacks goes in fields with a leading underscore:

- ``_game``: the preset or ``draw``; ``_rules``: every option that differs from the
  defaults (:meth:`DrawRules.to_options`), as a table of strings;
- ``_pot_before``: chips already in the pot when the deal began (a thrown-in pot);
- ``_max_bet``: spread limit's largest first-round bet;
- ``_result`` and ``_reason``: how the deal ended (``won``, ``thrown-in``, ``pot-stays``).

Cards are written as PHH writes them (``As``, ``Td``); a joker, which PHH lacks, is ``Jk``.
Non-standard events (splitting openers, the opener's proof, a Bosnian choice, a widow
card, declarations) are written as PHH commentary (``# ...``) on no-op actions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from guts.betting import Limit
from guts.errors import GutsError
from guts.games.base import Event, events_from_json
from guts.games.draw.events import (
    Acted,
    DealEnded,
    DealStarted,
    Dealt,
    Declared,
    Drew,
    Moved,
    Offered,
    OpenersShown,
    Showed,
    SplitOpeners,
    WidowTurned,
)
from guts.games.draw.rules import DrawRules

__all__ = ["PhhError", "deal_to_phh", "deal_to_phh_fields"]


class PhhError(GutsError):
    """A deal that cannot be exported (no such deal, or a malformed record)."""


_LIMIT_LETTER = {Limit.FIXED: "F", Limit.SPREAD: "S", Limit.POT: "P", Limit.NO_LIMIT: "N"}


def deal_to_phh(record: Mapping[str, Any], deal: int, *, game: str = "draw") -> str:
    """The PHH (TOML) text of deal number ``deal`` (1 first) of a session's record."""
    return _toml(deal_to_phh_fields(record, deal, game=game))


def deal_to_phh_fields(
    record: Mapping[str, Any], deal: int, *, game: str = "draw"
) -> dict[str, Any]:
    """The PHH fields of deal ``deal`` as a dict (what :func:`deal_to_phh` writes)."""
    try:
        rules = DrawRules.from_options(None, record["rules"])
        names = [str(name) for name, _ in record["players"]]
        events = events_from_json(record["events"])
    except (KeyError, TypeError, ValueError) as error:
        raise PhhError(f"bad draw poker record: {error}") from None
    stacks = [0] * len(names)
    start: DealStarted | None = None
    mine: list[Event] = []
    pot = 0
    for event in events:
        if isinstance(event, DealStarted):
            if start is not None:
                break
            if event.deal == deal:
                start = event
                before = list(stacks)
                pot_before = pot
        if start is not None:
            mine.append(event)
        if isinstance(event, Moved):
            stacks, pot = _move(stacks, pot, event)
    if start is None:
        raise PhhError(f"there is no deal {deal} in this record")
    fields = _fields(rules, names, start, mine, before, pot_before, stacks, game)
    fields["actions"] = _actions(mine, _players(start), rules, redacted=_redacted(record))
    return fields


def _players(start: DealStarted) -> dict[int, str]:
    """Each seat dealt in and its PHH name (``p1`` at the dealer's left)."""
    return {seat: f"p{k + 1}" for k, seat in enumerate(start.seats)}


def _redacted(record: Mapping[str, Any]) -> bool:
    """True for a record that holds only what one seat saw (a server's download)."""
    return record.get("redacted") is True


def _move(stacks: list[int], pot: int, event: Moved) -> tuple[list[int], int]:
    stacks = list(stacks)
    if isinstance(event.source, int):
        stacks[event.source] -= event.amount
    elif event.source == "pot":
        pot -= event.amount
    if isinstance(event.destination, int):
        stacks[event.destination] += event.amount
    elif event.destination == "pot":
        pot += event.amount
    return stacks, pot


def _fields(
    rules: DrawRules,
    names: list[str],
    start: DealStarted,
    events: list[Event],
    before: list[int],
    pot_before: int,
    after: list[int],
    game: str,
) -> dict[str, Any]:
    seats = list(start.seats)
    antes = [0] * len(seats)
    blinds = [0] * len(seats)
    for event in events:
        if isinstance(event, Moved) and isinstance(event.source, int):
            index = seats.index(event.source)
            if event.reason == "ante":
                antes[index] += event.amount
            elif event.reason == "blind":
                blinds[index] += event.amount
    ended = next((e for e in events if isinstance(e, DealEnded)), None)
    won = dict(ended.won) if ended is not None else {}
    fields: dict[str, Any] = {
        "variant": f"{_LIMIT_LETTER[rules.limit]}{rules.hand_size}CD",
        "antes": antes,
        "blinds_or_straddles": blinds,
    }
    structure = rules.structure()
    if rules.limit in (Limit.FIXED, Limit.SPREAD):
        fields["small_bet"], fields["big_bet"] = structure.small_bet, structure.big_bet
    else:
        fields["min_bet"] = structure.small_bet
    fields["starting_stacks"] = [before[s] for s in seats]
    fields["actions"] = []
    fields.update(
        {
            "hand": start.deal,
            "players": [names[s] for s in seats],
            "seats": [s + 1 for s in seats],
            "seat_count": len(names),
            "finishing_stacks": [after[s] for s in seats],
            "winnings": [won.get(s, 0) for s in seats],
            "_game": game,
            "_rules": rules.to_options(),
            "_pot_before": pot_before,
        }
    )
    if rules.limit is Limit.SPREAD:
        fields["_max_bet"] = rules.max_bet
    if ended is not None:
        fields["_result"], fields["_reason"] = ended.result, ended.reason
    return fields


def _cards(cards: tuple[str, ...]) -> str:
    return "".join(cards)


def _actions(
    events: list[Event], player: dict[int, str], rules: DrawRules, *, redacted: bool
) -> list[str]:
    """The deal's PHH actions; in a ``redacted`` record (a download, as one seat saw it)
    the cards it does not show are written as PHH's unknown cards, ``??`` each."""
    lines: list[str] = []
    dealt: dict[int, Dealt] = {}
    dealing = True  # the first deal: its cards, known or not, go out in dealing order
    discarded: set[int] = set()  # seats whose discard was written, until their draw
    for event in events:
        if dealing:
            if isinstance(event, Dealt):
                dealt.setdefault(event.seat, event)
                continue
            if not isinstance(event, DealStarted | Moved):
                lines.extend(_first_deal(player, dealt, rules.hand_size, redacted))
                dealing = False
        if isinstance(event, Acted) and event.action.split()[0] in ("discard", "stand"):
            discarded.add(event.seat)
        if redacted and isinstance(event, Drew) and event.seat not in discarded:
            lines.extend(_unseen_draw(player[event.seat], event.count, rules))
        if isinstance(event, Drew):
            discarded.discard(event.seat)
        line = _action(event, player)
        if line is not None:
            lines.append(line)
    if dealing:
        lines.extend(_first_deal(player, dealt, rules.hand_size, redacted))
    return lines


def _first_deal(
    player: dict[int, str], dealt: Mapping[int, Dealt], size: int, redacted: bool
) -> list[str]:
    """The first deal's ``d dh`` lines in dealing order (``??`` for cards unseen in a
    redacted record)."""
    return [
        f"d dh {name} {_cards(dealt[seat].cards) if seat in dealt else '??' * size}"
        for seat, name in player.items()
        if seat in dealt or redacted
    ]


def _unseen_draw(who: str, count: int, rules: DrawRules) -> list[str]:
    """A draw the record shows only by its count: unknown discards and replacements."""
    if count == 0:
        return [f"{who} sd"]
    replaced = count + 1 if rules.bosnian and count == 4 else count
    return [f"{who} sd {'??' * count}", f"d dh {who} {'??' * replaced}"]


def _action(event: Event, player: dict[int, str]) -> str | None:
    if isinstance(event, Dealt):
        return f"d dh {player[event.seat]} {_cards(event.cards)}"
    if isinstance(event, Acted):
        return _acted(player[event.seat], event.action)
    if isinstance(event, Showed):
        note = "" if event.live else " # cannot win"
        return f"{player[event.seat]} sm {_cards(event.cards)}{note}"
    if isinstance(event, WidowTurned):
        return f"# widow turned up: {event.card}"
    if isinstance(event, SplitOpeners):
        return f"# {player[event.seat]} splits openers, keeping {event.count} apart"
    if isinstance(event, OpenersShown):
        proof = "proves" if event.proved else "cannot prove"
        return f"# {player[event.seat]} {proof} openers: {' '.join(event.cards)}"
    if isinstance(event, Offered):
        return f"# {player[event.seat]} is offered {event.up} face up or a card face down"
    if isinstance(event, Declared):
        return f"# {player[event.seat]} declares {event.category}"
    return None


def _acted(who: str, action: str) -> str:
    words = action.split()
    if words[0] in ("bet", "raise"):
        return f"{who} cbr {words[1]}"
    if words[0] in ("check", "call"):
        return f"{who} cc"
    if words[0] == "fold":
        return f"{who} f"
    if words[0] == "discard":
        return f"{who} sd {''.join(words[1:])}"
    if action == "stand pat":
        return f"{who} sd"
    return f"# {who} {action}"


def _toml(fields: Mapping[str, Any]) -> str:
    lines = []
    tables = []
    for key, value in fields.items():
        if isinstance(value, dict):
            tables.append((key, value))
        else:
            lines.append(f"{key} = {_value(value)}")
    for key, table in tables:
        lines.append(f"\n[{key}]")
        lines.extend(f"{json.dumps(k)} = {_value(v)}" for k, v in table.items())
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value) and len(value) > 4:
            return "[\n" + "".join(f"  {json.dumps(v)},\n" for v in value) + "]"
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise PhhError(f"cannot write {value!r} in PHH")
