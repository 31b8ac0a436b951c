"""A game family as one typed object: everything the rest of ``guts`` asks of a family.

Each family package (``guts.games.guts``, ``staged``, ``draw``, ``bourre``) builds one
:class:`Family` in its ``presets`` module as ``FAMILY``, and :mod:`guts.catalog` lists it
once. Everything outside a family's package reaches the family through this object, never
by testing its name: the lobby, the server, bots, narration, the research environments,
the simulator and the solver each read the field they need.

- rules and presets: ``presets``, ``rules_class``, ``rules(preset, options)``;
- the session: ``new_session(preset, players)``, ``replay(record)``;
- bots: ``bots`` (kind -> :class:`BotKind`, a one-line description and a factory);
- narration: ``tell(event, names)``, its own events in words (None: not its event);
- seats at a server table: ``takes_table``, ``shares_out``, ``end_option``;
- the research environments: ``layout(rules)``, a :class:`ActionLayout` of its actions;
- the simulator: ``settlements(events)``, the outcome of each settlement of a deal;
- the solver and the CLI: ``description``; the lobby: ``title`` and ``titles``;
- the page: ``page``, a :class:`PageView` naming how the page draws a seat's cards;
- games dealt by an outside chance player (OpenSpiel): ``chance``;
- draw poker's hand histories: ``deal_to_phh``.

A family is data, like its presets: a frozen dataclass of typed fields and hooks, built
once, never subclassed. Adding a family is one package that builds its ``FAMILY`` and one
line in :data:`guts.catalog.REGISTERED` (docs/families.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, Generic, Protocol, TypeVar

from guts.errors import OptionError
from guts.games.base import Event
from guts.games.chance import ChanceModel
from guts.games.options import RuleOptions
from guts.games.policy import Policy, RandomPolicy
from guts.games.session import RecordedSession

__all__ = [
    "ActionLayout",
    "BotKind",
    "Family",
    "PageView",
    "SessionClass",
    "Teller",
    "random_bot",
]

RulesT = TypeVar("RulesT", bound=RuleOptions)
SessionT = TypeVar("SessionT", bound=RecordedSession[Any, Any])
SessionT_co = TypeVar("SessionT_co", bound=RecordedSession[Any, Any], covariant=True)

Teller = Callable[[Event, Sequence[str]], "str | None"]
"""A family's narrator: one line about ``event`` for seats called ``names``; ``""`` for
its event with nothing to tell, None for an event that is not its own."""

BotFactory = Callable[[Any, "int | None"], Policy]
"""Builds a bot from the session's rules and its number of seats (None: not known)."""


class SessionClass(Protocol[SessionT_co]):
    """What every family's session class offers: one constructor and ``replay``."""

    def __call__(
        self,
        rules: Any,
        players: Sequence[str | tuple[str, int]],
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int = 0,
    ) -> SessionT_co:
        """A new session of ``rules`` for ``players``."""
        ...

    def replay(self, record: Mapping[str, Any]) -> SessionT_co:
        """The session a record describes, every event checked."""
        ...


def _random(rules: Any, seats: int | None) -> Policy:
    return RandomPolicy()


@dataclass(frozen=True)
class BotKind:
    """One kind of bot a family offers: what it does, how to build one, and (optional)
    why given rules are out of its reach ('' when they are not), ``needs`` saying what
    it needs of them."""

    about: str
    build: BotFactory
    reach: Callable[[Any], str] | None = None
    needs: str = "rules it can play"

    def check(self, rules: Any) -> str:
        """Why this kind cannot play ``rules`` ('' if it can)."""
        return self.reach(rules) if self.reach is not None else ""


random_bot = BotKind("any legal action, uniformly at random (every game)", _random)
"""The kind every family offers: :class:`RandomPolicy`."""


@dataclass(frozen=True)
class ActionLayout:
    """A family's actions for the research environments (:mod:`guts.envs.encoding`):
    its one-word choices, whether it bets (draw poker's fold/check/call/bet/raise), how
    many card positions a seat may choose one of (a card to play or pass), how many it
    may throw as a subset (a draw), the most cards a seat holds at once, and the key of
    its view ('' for none) that maps rows or piles to the cards it lays face up for
    everyone (Fan Tan's ``rows``), encoded with the table's cards."""

    words: tuple[str, ...]
    hand: int
    betting: bool = False
    cards: int = 0
    discards: int = 0
    laid_out: str = ""


@dataclass(frozen=True)
class PageView:
    """How the page draws a seat's cards from the family's view (``web/static/js``):
    ``face_down`` names where the count of a seat's cards is read (``hand``: the length
    of the viewer's hand; ``stage``: the current stage's size; ``hand-sizes``: the
    view's per-seat ``hand_sizes``), ``cards`` the count when the view does not say,
    ``out_hides`` whether a seat that declared out shows no cards, and ``module`` the
    family's own module of ``web/static/js`` ('' for none) that draws what it lays on the
    middle of the table: it exports ``renderCentre(root, view, play)``, ``play(code)``
    playing one of the seat's cards (null when the seat has nothing to play)."""

    face_down: str = "hand"
    cards: int = 2
    out_hides: bool = False
    module: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON the page reads (``module`` only where the family has one)."""
        data: dict[str, Any] = {
            "face_down": self.face_down, "cards": self.cards, "out_hides": self.out_hides
        }  # fmt: skip
        if self.module:
            data["module"] = self.module
        return data


def _told_by_nobody(event: Event, names: Sequence[str]) -> str | None:
    return None


def _no_settlements(events: Iterable[Event]) -> list[str]:
    return []


@dataclass(frozen=True)
class Family(Generic[RulesT, SessionT]):
    """One family of games: ``presets`` (name -> (rules, one-line description)) of the
    rules class ``rules_class``, played by sessions of ``session_class``, and the hooks
    the rest of ``guts`` asks of it (see the module's text)."""

    name: str
    rules_class: type[RulesT]
    presets: Mapping[str, tuple[RulesT, str]]
    session_class: SessionClass[SessionT]
    title: str = ""
    """The family's name in the lobby ("Draw poker")."""
    description: str = ""
    """One line on what its games are, for the solver's and the CLI's messages."""
    titles: Mapping[str, tuple[str, str | None]] = field(default_factory=dict)
    """Preset -> (its name in the lobby, the preset it is a house-rule variation of)."""
    bots: Mapping[str, BotKind] = field(default_factory=lambda: {"random": random_bot})
    """Bot kinds by name, in the order they are offered."""
    tell: Teller = _told_by_nobody
    """Its events in words (see :data:`Teller`)."""
    takes_table: bool = False
    """Whether a session takes over the table it is played on (stacks, pot, button); if
    not, it counts its players before it looks for a table, so the next session gets a
    fresh one."""
    shares_out: bool = True
    """Whether a session stopped with chips in the pot shares them out (if not, the
    rules say what becomes of the last pot: see ``end_option``)."""
    end_option: tuple[str, str] | None = None
    """The option and value that make a session share out its last pot, where one
    must (a night, a research episode); None: it always does."""
    layout: Callable[[RulesT], ActionLayout] | None = None
    """Its actions for the research environments (None: no encoding)."""
    settlements: Callable[[Iterable[Event]], list[str]] = _no_settlements
    """The outcome of each settlement among a deal's events (:mod:`guts.games.outcomes`)."""
    page: PageView = PageView()
    """How the page draws a seat's cards."""
    deal_to_phh: Callable[..., str] | None = None
    """A deal of a record in the Poker Hand History format (None: not a poker family)."""
    chance: ChanceModel | None = None
    """How an outside chance player deals its games (OpenSpiel; None: not offered)."""

    def rules(self, preset: str, options: Mapping[str, str] | None = None) -> RulesT:
        """The rules of ``preset`` with ``options`` (name -> string) applied; OptionError
        names an unknown preset or a bad option."""
        return self.rules_class.from_preset(self.presets, preset, options)

    def new_session(
        self,
        preset: str,
        players: Sequence[str | tuple[str, int]],
        *,
        options: Mapping[str, str] | None = None,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int = 0,
    ) -> SessionT:
        """A session of ``preset`` (with ``options``) for ``players``: names bought in for
        ``buy_in`` or ``(name, chips)`` pairs; ``button`` is the first dealer."""
        rules = self.rules(preset, options)
        return self.session_class(rules, list(players), buy_in=buy_in, rng=rng, button=button)

    def replay(self, record: Mapping[str, Any]) -> SessionT:
        """Rebuild a recorded session (checks that every event replays)."""
        return self.session_class.replay(record)

    def bot(self, kind: str, rules: Any = None, seats: int | None = None) -> Policy:
        """A bot of ``kind`` for a seat of a game played by ``rules`` with ``seats``
        seats; OptionError names the kinds offered."""
        found = self.bots.get(kind)
        if found is None:
            allowed = ", ".join(self.bots)
            raise OptionError(f"bots: unknown kind {kind!r} for {self.name} games; "
                              f"allowed: {allowed}")  # fmt: skip
        return found.build(rules, seats)

    def title_of(self, preset: str) -> tuple[str, str | None]:
        """``preset``'s name in the lobby and the preset it varies (its own slug and None
        when ``titles`` does not name it)."""
        return self.titles.get(preset, (preset, None))
