"""A coach (``guts review``): each declaration of a hand history against the equilibrium.

For every declaration the solver covers, :func:`review` gives what the player did, what
the equilibrium does with that hand in that spot (the chance of each declaration), the EV
of each declaration there (pot units, next pots included: the numbers the ``?`` hint
shows, :func:`guts.solve.bot.advice`), and the expected cost of the difference: the
equilibrium's EV there (its declarations weighted by its chances) less the EV of the
declaration made, in pot units and in chips at the pot of that deal. Where the
equilibrium is pure the cost is the difference of the two EVs the hint shows; where it
mixes, the EVs are (nearly) equal and so is any choice.

Declarations it cannot judge are counted and named with the reason, never guessed: other
families' decisions (a night of dealer's choice), rules out of the solver's reach, the
second chance of the dealer's option, a hand not in the history (another seat's, in a
download), a table of more than eight.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from guts.errors import GutsError
from guts.games.guts.presets import FAMILY as GUTS
from guts.games.guts.rules import GutsRules
from guts.history import History
from guts.solve.model import out_of_reach

__all__ = ["Judged", "Review", "Unjudged", "review"]


@dataclass(frozen=True)
class Judged:
    """One declaration judged: the session (0 the first of the file), the deal, the seat
    and its name, the position, the hand in words, what was declared before (in words),
    the declaration made, the equilibrium's chance and EV of each declaration (pot
    units), the pot (chips) and the cost (pot units and chips)."""

    session: int
    deal: int
    seat: int
    name: str
    position: str
    hand: str
    before: str
    action: str
    chances: Mapping[str, float]
    ev: Mapping[str, float]
    pot: int
    game: int = 0
    """The game of a night of dealer's choice (1 the first; 0 a single game)."""

    @property
    def best(self) -> str:
        """The equilibrium's declaration in words ("in", "out", "in 40%, out 60%")."""
        played = [(way, p) for way, p in self.chances.items() if p > 0.02]
        if len(played) == 1:
            return played[0][0]
        return ", ".join(f"{way} {p:.0%}" for way, p in played)

    @property
    def cost(self) -> float:
        """The equilibrium's EV here less the EV of the declaration made (pot units)."""
        expected = sum(p * self.ev[way] for way, p in self.chances.items())
        return expected - self.ev[self.action]

    @property
    def cost_chips(self) -> float:
        """The cost in chips at this deal's pot."""
        return self.cost * self.pot

    def to_json(self) -> dict[str, Any]:
        """The decision as ``guts review --json`` gives it."""
        return {
            "session": self.session, "deal": self.deal, "seat": self.seat, "name": self.name,
            "position": self.position, "hand": self.hand, "before": self.before,
            "action": self.action, "equilibrium": dict(self.chances), "ev": dict(self.ev),
            "pot": self.pot, "cost": self.cost, "cost_chips": self.cost_chips,
            "game": self.game,
        }  # fmt: skip


@dataclass(frozen=True)
class Unjudged:
    """A decision the solver does not cover, and why."""

    session: int
    deal: int
    seat: int
    name: str
    action: str
    reason: str


@dataclass
class Review:
    """Every decision of a history: those judged and those not, in order."""

    judged: list[Judged] = field(default_factory=list)
    unjudged: list[Unjudged] = field(default_factory=list)

    def of(self, name: str) -> Review:
        """Only the decisions of the player ``name``."""
        return Review(
            [d for d in self.judged if d.name == name],
            [d for d in self.unjudged if d.name == name],
        )

    def names(self) -> list[str]:
        """The players who made a decision, in order of their first."""
        seen: dict[str, None] = {}
        for decision in self.judged:
            seen.setdefault(decision.name)
        for skipped in self.unjudged:
            seen.setdefault(skipped.name)
        return list(seen)

    def total(self) -> tuple[float, float]:
        """The night's cost: (pot units, chips)."""
        return sum(d.cost for d in self.judged), sum(d.cost_chips for d in self.judged)

    def costliest(self, count: int = 5) -> list[Judged]:
        """The ``count`` decisions that cost the most chips."""
        return sorted(self.judged, key=lambda d: -d.cost_chips)[:count]

    def reasons(self) -> dict[str, int]:
        """How many decisions went unjudged for each reason."""
        counted: dict[str, int] = {}
        for decision in self.unjudged:
            counted[decision.reason] = counted.get(decision.reason, 0) + 1
        return counted


def review(histories: Iterable[History]) -> Review:
    """Judge every declaration of ``histories`` (a file's sessions, in order)."""
    found = Review()
    coach = _Coach()
    for number, history in enumerate(histories):
        _Walk(coach, found, number, history).run()
    return found


class _Coach:
    """The solutions (one per rules and number of players), solved or read once."""

    def __init__(self) -> None:
        self._solved: dict[tuple[str, int], Any] = {}

    def solution(self, rules: GutsRules, players: int) -> Any:
        from guts.solve.solving import solve_for_play

        key = (repr(sorted(rules.to_options().items())), players)
        if key not in self._solved:
            self._solved[key] = solve_for_play(rules, players)
        return self._solved[key]


class _Walk:
    """The events of one history, in order, with what each seat could see."""

    def __init__(self, coach: _Coach, found: Review, number: int, history: History) -> None:
        self.coach, self.found, self.number = coach, found, number
        self.events: list[Mapping[str, Any]] = list(history.record.get("events") or [])
        self.names = history.names
        self.rules: GutsRules | None = None
        self.why_not = ""
        self.game = history.preset
        self.game_number = 0
        if history.record.get("game") == GUTS.name:
            self._game_rules(history.record.get("rules") or {})
        elif history.record.get("game") != "night":
            self.why_not = f"{history.preset}: not a Guts game (guts solve covers Guts)"
        self.deal, self.seats, self.pot = 0, [0], 0
        self.hands: dict[int, list[str]] = {}
        self.declared: dict[int, str] = {}

    def _game_rules(self, options: Mapping[str, str] | Iterable[Any]) -> None:
        pairs = dict(options) if isinstance(options, Mapping) else dict(map(tuple, options))
        try:
            self.rules = GutsRules.from_options(None, {str(k): str(v) for k, v in pairs.items()})
        except GutsError as error:
            self.rules, self.why_not = None, f"rules not read: {error}"
            return
        reason = out_of_reach(self.rules)
        self.why_not = f"{self.game}: out of the solver's reach ({reason})" if reason else ""

    def run(self) -> None:
        for event in self.events:
            kind = event.get("kind")
            if kind == "night-game-started":
                self.game = str(event.get("game", ""))
                self.game_number = int(event.get("number", self.game_number + 1))
                self.names = [str(p[0]) for p in event.get("players") or []] or self.names
                if event.get("family") == GUTS.name:
                    self._game_rules(event.get("rules") or [])
                else:
                    self.rules = None
                    self.why_not = f"{self.game}: not a Guts game (guts solve covers Guts)"
            elif kind == "deal-started":
                self.deal = int(event.get("deal", self.deal + 1))
                self.seats = [int(s) for s in event.get("seats") or []]
                self.hands, self.declared = {}, {}
            elif kind == "moved":
                amount = int(event.get("amount", 0))
                self.pot += amount if event.get("destination") == "pot" else 0
                self.pot -= amount if event.get("source") == "pot" else 0
            elif kind == "cards-dealt":
                seat = int(event["seat"])
                self.hands[seat] = [*self.hands.get(seat, []), *map(str, event["cards"])]
            elif kind == "declared":
                self._declared(event)
            elif kind == "acted" and self.rules is None and self.why_not:
                self._unjudged(int(event["seat"]), str(event.get("action")), self.why_not)

    def _declared(self, event: Mapping[str, Any]) -> None:
        seat, choice = int(event["seat"]), str(event["choice"])
        if not event.get("automatic"):
            self._judge(seat, choice, int(event.get("round", 1)))
        self.declared[seat] = choice

    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def _unjudged(self, seat: int, action: str, reason: str) -> None:
        self.found.unjudged.append(
            Unjudged(self.number, self.deal, seat, self._name(seat), action, reason)
        )

    def _judge(self, seat: int, choice: str, round_: int) -> None:
        if self.rules is None or self.why_not:
            self._unjudged(seat, choice, self.why_not or "rules not known")
            return
        if round_ != 1:
            self._unjudged(seat, choice, "the dealer's option's second chance: not reviewed")
            return
        if seat not in self.hands and not self.rules.no_peek:
            self._unjudged(seat, choice, "the seat's cards are not in this history")
            return
        players = len(self.seats)
        why = out_of_reach(self.rules, players)
        if why:
            self._unjudged(seat, choice, f"{players} players: {why}")
            return
        from guts.solve.bot import advice

        view = {
            "seat": seat, "dealt_in": list(self.seats), "hand": self.hands.get(seat, []),
            "declared": {str(s): c for s, c in self.declared.items()}, "pot": self.pot,
        }  # fmt: skip
        try:
            told = advice(self.coach.solution(self.rules, players), view)
        except GutsError as error:
            self._unjudged(seat, choice, str(error))
            return
        chances, ev = _numbers(told)
        if choice not in ev:
            self._unjudged(seat, choice, f"{choice!r} is not a declaration the solver knows")
            return
        before = _before(self.seats, seat, self.declared, self.rules)
        self.found.judged.append(
            Judged(
                self.number,
                self.deal,
                seat,
                self._name(seat),
                told.position,
                told.hand,
                before,
                choice,
                chances,
                ev,
                self.pot,
                self.game_number,
            )
        )


def _numbers(told: Any) -> tuple[dict[str, float], dict[str, float]]:
    """The chances and EVs of an in/out :class:`~guts.solve.bot.Advice` or a Hi-Lo one."""
    from guts.solve.bot import Advice

    if isinstance(told, Advice):
        return {"in": told.p_in, "out": 1.0 - told.p_in}, {"in": told.ev_in, "out": told.ev_out}
    return dict(told.chances), dict(told.ev)


def _before(seats: list[int], seat: int, declared: Mapping[int, str], rules: GutsRules) -> str:
    """What was declared before ``seat`` in this deal, in words."""
    from guts.games.guts.rules import Declare

    if rules.declare is Declare.SIMULTANEOUS:
        return "all at once"
    earlier = seats[: seats.index(seat)]
    return ", ".join(declared.get(s, "?") for s in earlier) or "-"
