"""A night of dealer's choice: one table, one ledger, many games.

A :class:`Night` drives like any session (:class:`~guts.games.base.Session`): between
games its pending decision is the chooser's :class:`~guts.games.decision.Choose` of the
allowed games (a game may be named with options: ``three-five-seven ante=2``); during a
game it passes the game's own decisions, deals, views and events through. Stacks carry
from game to game; every event, the night's and each game's, is in one record that
replays.

A game runs until nothing is owed: until its own session ends (a Guts pot won, a third
leg, a draw pot taken), or, for a game whose session plays on (Bourré takes a pot deal
after deal; Guts with continue-after-empty), the first time, between deals, the middle
is empty and nobody holds legs or points. With ``cap``, a game also ends after that many
deals, its middle settled by ``capped-pot``. A chooser who does not choose in time (the
driver calls :meth:`Night.time_out`) gets the house default, else the game before.
After a game the deal passes to the left of the game's first dealer
(``deal-after-game``), so with ``chooser=dealer`` the choice goes round the table.

>>> import random
>>> night = Night(NightRules(games="two-card-guts,bourre"), ["Ann", "Bob"], buy_in=20,
...               rng=random.Random(3))
>>> night.pending()[0].actions                  # Ann, the first dealer, chooses
('two-card-guts', 'bourre')
>>> [event.kind for event in night.act(0, "two-card-guts")]
['night-game-chosen', 'night-game-started']
>>> night.start_deal(); night.session.game
'guts'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, Self

from guts.cards import Deck
from guts.catalog import FAMILIES, find_game
from guts.errors import GutsError, IllegalAction, OptionError
from guts.games.base import Decision, Event, EventError, Session, events_to_json
from guts.games.decision import check_action
from guts.games.session import RecordedSession
from guts.night.events import (
    GameChosen,
    GameEnded,
    GameStarted,
    How,
    MarkerTaken,
    NightEnded,
    PotRefunded,
)
from guts.night.ledger import GameResult, NightLedger
from guts.night.middle import nothing_owed, refund
from guts.night.record import first_difference, game_records, read_events, record_players
from guts.night.rules import CappedPot, Chooser, DealAfterGame, NightRules, parse_pairs
from guts.table import Table

__all__ = ["FEWER_THAN_TWO", "POT_TAKEN", "Night"]

AnySession = RecordedSession[Any, Any]

FEWER_THAN_TWO = "fewer than two players have chips"
"""Why a night at table stakes ends when it cannot go on."""

DEAL_AFTER_GAME = "deal-after-game"
"""The option every record names (a record without it is older than it: its deal
continued from game to game)."""

POT_TAKEN = "the pot was taken and nothing is owed"
"""Why the night ends a game whose session would play on."""


class Night(Session):
    """A night of the games ``rules`` allows, for ``players`` (names bought in for
    ``buy_in``, or ``(name, chips)`` pairs); ``button`` deals first; ``rng`` shuffles
    every game (an unpredictable source when None)."""

    game = "night"

    def __init__(
        self,
        rules: NightRules,
        players: Sequence[str | tuple[str, int]],
        *,
        buy_in: int = 0,
        rng: Random | None = None,
        button: int = 0,
    ) -> None:
        table = Table(list(players), buy_in=buy_in, credit=rules.credit, button=button)
        self.night_rules = rules
        self._names = table.names
        self._buy_ins = tuple(seat.stack for seat in table.seats)
        self._markers = [0] * len(self._names)
        self._stacks = list(self._buy_ins)
        self._first_button = table.button
        self._button = table.button
        self._game_button = table.button  # the current (or last) game's first dealer
        self._rng = rng
        self._table = table
        self._events: list[Event] = []
        self._session: AnySession | None = None
        self._seen = 0  # how many of the session's events are in the night's record
        self._chosen: GameChosen | None = None
        self._number = 0
        self._deals = 0  # deals of earlier games
        self._results: list[GameResult] = []
        self._played: list[dict[str, Any]] = []  # the finished games, as views show them
        self._last_chooser: int | None = None
        self._chooser: int | None = None  # the seat to choose now (None: no choice waits)
        self._over = ""
        self._recorded: deque[dict[str, Any]] | None = None  # a replay: each game's record
        for entry in rules.entries:
            self._check_game(entry.game)
        self._between_games()

    # -- the state ---------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        """The current game's table while one is played; between games, the seats with
        their stacks and the next dealer."""
        return self._session.table if self._session is not None else self._table

    @property
    def session(self) -> AnySession | None:
        """The game being played (None between games)."""
        return self._session

    @property
    def rules(self) -> Any:
        """The rules of the game being played (None between games)."""
        return self._session.rules if self._session is not None else None

    @property
    def number(self) -> int:
        """How many games have begun (the current one's number while it is played)."""
        return self._number

    @property
    def chooser(self) -> int | None:
        """The seat that must name the next game now (None if no choice is waiting)."""
        return self._chooser

    @property
    def results(self) -> tuple[GameResult, ...]:
        """The finished games."""
        return tuple(self._results)

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole night's record, the games' hidden events included."""
        return tuple(self._events)

    @property
    def is_over(self) -> bool:
        """True once the night has ended."""
        return bool(self._over)

    @property
    def over_reason(self) -> str:
        """Why the night ended ('' while it goes on)."""
        return self._over

    @property
    def deal_over(self) -> bool:
        """True when :meth:`start_deal` is what comes next: between a game's deals, or
        between games in a rotation (a choice is a pending decision, not a deal)."""
        if self._over:
            return True
        if self._session is not None:
            return self._session.deal_over
        return self._chooser is None

    @property
    def deals_played(self) -> int:
        """Deals started in the whole night."""
        return self._deals + (self._session.deals_played if self._session is not None else 0)

    @property
    def players(self) -> tuple[tuple[str, int], ...]:
        """Each seat's name and stack when the night began."""
        return tuple(zip(self._names, self._buy_ins, strict=True))

    @property
    def ledger(self) -> NightLedger:
        """The night's chips now: buy-ins, markers, stacks, each finished game's result."""
        table = self.table
        return NightLedger(
            self._names,
            self._buy_ins,
            tuple(self._markers),
            tuple(seat.stack for seat in table.seats),
            sum(table.places.values()) if self._session is not None else 0,
            tuple(self._results),
        )

    # -- deciding ----------------------------------------------------------------------------

    def pending(self) -> tuple[Decision, ...]:
        """The game's decisions while one is played; between games, the chooser's."""
        if self._session is not None:
            return self._session.pending()
        if self._chooser is None:
            return ()
        question = f"choose game {self._number + 1}"
        return (Decision.choose(self._chooser, self.night_rules.names, question),)

    def canonical(self, seat: int, action: object) -> str:
        """The canonical spelling of a legal action: the game's own reading during a
        game; between games, a game's name and any options (``bourre ante=2``)."""
        if self._session is not None:
            return self._session.canonical(seat, action)
        return super().canonical(seat, action)

    def _canonical(self, decision: Decision, action: object) -> str:
        words = check_action(action).split()
        game = decision.canonical(words[0] if words else "")
        try:
            pairs = parse_pairs(words[1:], game)
            self._check_game(game, pairs)
        except OptionError as error:
            raise IllegalAction(str(error)) from None
        return " ".join([game, *(f"{key}={value}" for key, value in pairs)])

    def act(self, seat: int, action: object) -> tuple[Event, ...]:
        """Apply ``seat``'s decision (the game's, or the choice of the next game) and
        return the events it caused; IllegalAction changes nothing."""
        start = len(self._events)
        session = self._session
        if session is not None:
            caused = session.act(seat, action)
            self._events.extend(caused)
            self._seen += len(caused)
            self._after_game_step()
        else:
            self._apply(seat, self.canonical(seat, action))
        return tuple(self._events[start:])

    def _apply(self, seat: int, action: str) -> None:
        if self._session is not None:
            self._session.act(seat, action)
            self._sync()
            self._after_game_step()
            return
        words = action.split()
        self._begin(words[0], parse_pairs(words[1:], words[0]), seat, "chosen", action)

    def time_out(self) -> tuple[Event, ...]:
        """The chooser did not choose in time: the house default (``default``), else the
        game before with its options, else (the first game) the first game allowed.
        IllegalAction if no choice is waiting."""
        if self._chooser is None:
            raise IllegalAction("no one is choosing a game now: nothing to time out")
        start = len(self._events)
        rules = self.night_rules
        options: tuple[tuple[str, str], ...] = ()
        if rules.default is not None:
            game = rules.default
        elif self._chosen is not None:
            game, options = self._chosen.game, self._chosen.options
        else:
            game = rules.names[0]
        self._begin(game, options, self._chooser, "timeout", "")
        return tuple(self._events[start:])

    def start_deal(self, deck: Deck | None = None) -> None:
        """Start the game's next deal (with ``deck``, stacked for tests, as the game's
        own ``start_deal`` takes it); in a rotation, between games, begin the next game
        with its first deal. IllegalAction while a choice waits or a deal is played."""
        if self._over:
            raise IllegalAction(f"the night is over ({self._over}): no more deals")
        if self._session is None:
            if self._chooser is not None:
                who = self._names[self._chooser]
                raise IllegalAction(f"{who} (seat {self._chooser}) must choose the next game first")
            entries = self.night_rules.entries
            self._begin(entries[self._number % len(entries)].game, (), None, "rotation", "")
            if self._recorded is not None or self._session is None:
                return  # a replay's game comes dealt; or the game could not begin
        session: Any = self._session
        session.start_deal() if deck is None else session.start_deal(deck)
        self._sync()
        self._after_game_step()

    def stop(self, reason: str = "the players stopped") -> None:
        """End the night between deals: the game in progress stops (sharing out what is
        in its middle, each game by its own rule), then the night."""
        if self._over:
            raise IllegalAction(f"the night is over already ({self._over})")
        session = self._session
        if session is not None:
            if not session.deal_over:
                raise IllegalAction(f"finish deal {session.deals_played} before stopping")
            if not session.is_over:
                session.stop(reason)
            self._sync()
            self._end_game()
        if not self._over:
            self._end(reason, stopped=True)

    # -- the games ---------------------------------------------------------------------------

    def _check_game(self, game: str, chosen: Sequence[tuple[str, str]] = ()) -> None:
        """Raise OptionError unless ``game`` (with the chooser's options) can be played by
        this table: its options are good and it takes this many players."""
        preset = find_game(game)
        options = self.night_rules.game_options(game, chosen)
        players = [(name, 1) for name in self._names]
        try:
            preset.games_family.new_session(game, players, options=options)
        except OptionError as error:
            raise OptionError(f"{game}: {error}") from None

    def _begin(
        self, game: str, options: Sequence[tuple[str, str]], seat: int | None, how: How,
        action: str,
    ) -> None:  # fmt: skip
        """Game number ``number + 1`` is ``game``: record the choice, seat the players
        with their stacks, the dealer button where the last game left it."""
        self._number += 1
        chosen = GameChosen(number=self._number, seat=seat, game=game, options=tuple(options),
                            how=how, action=action)  # fmt: skip
        self._events.append(chosen)
        self._chosen, self._chooser = chosen, None
        if seat is not None:
            self._last_chooser = seat
        preset = find_game(game)
        family = preset.games_family
        players = [(name, stack) for name, stack in zip(self._names, self._stacks, strict=True)]
        game_options = self.night_rules.game_options(game, options)
        if self._recorded is None:
            session: AnySession = family.new_session(
                game, players, options=game_options, rng=self._rng, button=self._button
            )
        else:
            session = self._replayed(game, players, family.rules(game, game_options).to_options())
        self._events.append(GameStarted(  # the game's record header (its events follow)
            number=self._number, game=game, family=family.name,
            rules=tuple(sorted(session.rules.to_options().items())),
            players=tuple(session.players), button=self._button,
        ))  # fmt: skip
        self._session, self._seen, self._game_button = session, 0, self._button
        self._sync()
        self._after_game_step()

    def _replayed(
        self, game: str, players: list[tuple[str, int]], rules: dict[str, str]
    ) -> AnySession:
        """The next recorded game, rebuilt by its family and checked against the night."""
        assert self._recorded is not None
        if not self._recorded:
            raise EventError(f"game {self._number} ({game}) is chosen but never starts")
        record = self._recorded.popleft()
        if record["preset"] != game:
            raise EventError(f"game {self._number} is {game}, but {record['preset']} starts")
        expected = {"rules": rules, "players": [list(p) for p in players], "button": self._button}
        for key, value in expected.items():
            if record[key] != value:
                raise EventError(f"game {self._number} ({game}) starts with other {key} "
                                 f"than the night gives it")  # fmt: skip
        session: AnySession = FAMILIES[record["game"]].replay(record)
        return session

    def _sync(self) -> None:
        """Copy the game's new events into the night's record."""
        session = self._session
        if session is not None:
            events = session.events
            if len(events) > self._seen:
                self._events.extend(events[self._seen :])
                self._seen = len(events)

    def _after_game_step(self) -> None:
        """After a step of the game: end it if it is over, if nothing is owed between
        deals (a session that would play on), or at the cap."""
        session = self._session
        if session is None:
            return
        if session.is_over:
            self._end_game()
            return
        if not session.deal_over or session.deals_played == 0:
            return
        if nothing_owed(session):
            session.stop(POT_TAKEN)
            self._sync()
            self._end_game()
        elif self.night_rules.cap is not None and session.deals_played >= self.night_rules.cap:
            self._cap(session)

    def _cap(self, session: AnySession) -> None:
        """The game reached the cap: its middle is settled by ``capped-pot``."""
        reason = f"the cap ({self.night_rules.cap} deals) was reached"
        if self.night_rules.capped_pot is CappedPot.SPLIT:
            session.stop(reason)
            self._sync()
            self._end_game()
            return
        change = refund(session.table.ledger, len(self._names))
        self._events.append(PotRefunded(number=self._number, change=change))
        self._end_game(reason, change)

    def _end_game(self, reason: str = "", change: Sequence[int] = ()) -> None:
        """The game is over: share out anything a session left in its middle, note the
        stacks, hand out markers on credit, and go on to the next choice."""
        session = self._session
        assert session is not None
        if session.table.places and not change:
            session.stop("the game is over: what is left in the middle is shared out")
            self._sync()
            if session.table.places:
                raise GutsError(f"game {self._number} left chips in the middle")
        table = session.table
        stacks = [seat.stack + (change[seat.index] if change else 0) for seat in table.seats]
        self._events.append(GameEnded(
            number=self._number, game=self._chosen.game if self._chosen else "",
            reason=reason or session.over_reason, deals=session.deals_played,
            stacks=tuple(stacks),
        ))  # fmt: skip
        self._results.append(GameResult(
            self._number, self._chosen.game if self._chosen else "",
            self._chosen.seat if self._chosen else None, session.deals_played,
            reason or session.over_reason,
            tuple(after - before for after, before in zip(stacks, self._stacks, strict=True)),
        ))  # fmt: skip
        result = self._results[-1]
        self._played.append({"number": result.number, "game": result.game,
                             "chooser": result.chooser, "deals": result.deals,
                             "reason": result.reason, "change": list(result.change)})  # fmt: skip
        self._deals += session.deals_played
        self._button = self._next_button(table.button)
        self._session, self._seen = None, 0
        for seat, stack in enumerate(stacks):
            if stack < 0:
                self._events.append(MarkerTaken(seat=seat, amount=-stack))
                self._markers[seat] -= stack
                stacks[seat] = 0
        self._stacks = stacks
        self._between_games()

    def _between_games(self) -> None:
        """After a game (or before the first): the night ends, or the next chooser."""
        rules = self.night_rules
        if rules.deal_after_game is DealAfterGame.PASSES:  # a seat with chips deals
            self._button = self._with_chips(self._button)
        self._table = Table(list(zip(self._names, self._stacks, strict=True)),
                            credit=rules.credit, button=self._button)  # fmt: skip
        if rules.most_games is not None and self._number >= rules.most_games:
            self._end(f"{self._number} games were played")
        elif not rules.credit and sum(1 for s in self._stacks if s > 0) < 2:
            self._end(FEWER_THAN_TWO)
        elif rules.chooser is not Chooser.ROTATION:
            after = self._button if rules.chooser is Chooser.DEALER or \
                self._last_chooser is None else self._table.left_of(self._last_chooser)  # fmt: skip
            self._chooser = self._with_chips(after)

    def _next_button(self, after_last_deal: int) -> int:
        """The next game's first dealer: left of the last game's first dealer (the deal
        passes game to game), or where the game's last deal left the button."""
        if self.night_rules.deal_after_game is DealAfterGame.CONTINUES:
            return after_last_deal
        return self._with_chips((self._game_button + 1) % len(self._names))

    def _with_chips(self, seat: int) -> int:
        """``seat``, or the first seat to its left with chips at table stakes."""
        for step in range(len(self._names)):
            candidate = (seat + step) % len(self._names)
            if self.night_rules.credit or self._stacks[candidate] > 0:
                return candidate
        return seat

    def _end(self, reason: str, *, stopped: bool = False) -> None:
        self._over, self._chooser = reason, None
        self._events.append(NightEnded(reason=reason, stopped=stopped))

    # -- views -------------------------------------------------------------------------------

    def view(self, seat: int, *, events: bool = True) -> dict[str, Any]:
        """Everything ``seat`` may see: the game's own view during a game (its cards, the
        public state, its events unless ``events`` is False), or the table between
        games; and the night, under ``night``."""
        self._check_seat(seat)
        return self._view(seat, events)

    def public_view(self, *, events: bool = True) -> dict[str, Any]:
        """Everything a spectator may see."""
        return self._view(None, events)

    def _view(self, seat: int | None, events: bool = True) -> dict[str, Any]:
        session = self._session
        if session is not None:
            data = (
                session.view(seat, events=events)
                if seat is not None
                else session.public_view(events=events)
            )
        else:
            table, pending = self._table, self.pending()
            data = {
                "game": self.game,
                "seat": seat,
                "players": list(self._names),
                "stacks": table.stacks,
                "button": table.button,
                "pot": 0,
                "to_act": [d.seat for d in pending],
                "pending": [d.to_dict() for d in pending if d.seat == seat],
            }
        data["night"] = self._night_view()
        return data

    def _night_view(self) -> dict[str, Any]:
        """The night as everyone may see it: the games allowed and played, the chooser,
        the cap, each seat's buy-in, markers and net."""
        rules, table = self.night_rules, self.table
        stacks = [seat.stack for seat in table.seats]
        net = [s - b - m for s, b, m in zip(stacks, self._buy_ins, self._markers, strict=True)]
        return {
            "number": self._number,
            "games": list(rules.names),
            "house": {entry.game: dict(entry.options) for entry in rules.entries},
            "chooser_rule": rules.chooser.value,
            "chooser": self._chooser,
            "cap": rules.cap,
            "played": [dict(played) for played in self._played],
            "playing": self._chosen.game if self._session is not None and self._chosen else None,
            "buy_ins": list(self._buy_ins),
            "markers": list(self._markers),
            "net": net,
            "over": self._over,
        }

    # -- records and replay ----------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """A JSON-able record that :meth:`replay` turns back into this exact night."""
        return {
            "game": self.game,
            "rules": {**self.night_rules.to_options(), DEAL_AFTER_GAME:
                      self.night_rules.deal_after_game.value},
            "players": [[name, stack] for name, stack in self.players],
            "button": self._first_button,
            "events": events_to_json(self._events),
        }

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Self:
        """Rebuild a night from :meth:`record`: each game by its family's replay (every
        event checked), each choice, time-out and stop applied again; EventError if the
        record is malformed or does not replay to the same events."""
        if not isinstance(record, Mapping):
            raise EventError("a night record must be a JSON object")
        missing = [key for key in ("rules", "players", "button", "events") if key not in record]
        if missing:
            raise EventError(f"bad night record: missing {', '.join(missing)}")
        if not isinstance(record["rules"], Mapping):
            raise EventError("bad night record: rules must be an object of options")
        options = record["rules"]
        if DEAL_AFTER_GAME not in options:  # a record from before the option: it continued
            options = {**options, DEAL_AFTER_GAME: DealAfterGame.CONTINUES.value}
        try:
            rules = NightRules.from_record(options)
        except OptionError as error:
            raise EventError(f"bad night record: rules: {error}") from None
        events = read_events(record["events"])
        try:
            night = cls(rules, record_players(record["players"]), button=record["button"])
        except GutsError as error:
            raise EventError(f"bad night record: {error}") from None
        night._recorded = deque(game_records(events))
        for number, event in enumerate(events, start=1):
            if isinstance(event, Event):
                try:
                    night._replay_event(event)
                except GutsError as error:
                    raise EventError(f"event {number} ({event.kind}): {error}") from None
        difference = first_difference(night._events, events)
        if difference is not None:
            raise EventError(f"the night does not replay to the same events: {difference}")
        night._recorded = None
        return night

    def _replay_event(self, event: Event) -> None:
        """Re-apply a recorded decision of the night (the games replay on their own)."""
        if isinstance(event, GameChosen):
            if event.how == "chosen":
                if event.seat is None:
                    raise EventError("a chosen game names no seat")
                self.act(event.seat, event.action)
            elif event.how == "timeout":
                self.time_out()
            else:
                self.start_deal()
        elif isinstance(event, NightEnded) and event.stopped and not self._over:
            self.stop(event.reason)
