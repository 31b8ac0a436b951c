"""Three families as registered OpenSpiel Python games (needs the ``openspiel`` extra).

Importing this module registers one game per preset of Guts, of the staged games (Three
Five Seven, Napalm, Nuts; not Toh) and of Bourré, named ``guts_`` and the preset's name
with underscores (``guts_two_card_guts``, ``guts_three_five_seven``, ``guts_bourre`` ...),
with the parameters ``players`` (2), ``deals`` (1: the game is that many deals of a
session, which then stops and shares out the pot), ``buy_in`` (20), ``cards`` (the pack
dealt from, as card codes: ``"As Ks Qs Js"`` for a tiny game; empty: the preset's whole
pack) and ``options`` (rules options, ``"ghost=always,ante=2"``).

- Chance deals the cards one at a time, uniformly from what is left of the pack, as
  many as the deal may use, before the deal starts: every hand in full (Guts' ghost and
  community cards, every stage of Three Five Seven, Bourré's hands and all the draw may
  take, so the stock never runs out: Bourré for 2 to 5 players). A card dealt later (a
  stage, a draw, a community card) is chosen then but seen only when dealt.
- Where the rules declare at once (and for passing a card left) the game is
  simultaneous: the deciding seats choose at once and the others ``wait``; everything
  else moves in turn. ``pyspiel.convert_to_turn_based`` gives the sequential form.
- The information state of a seat is everything the engine's ``view`` shows it, its own
  record of visible events included (perfect recall); the observation is the view
  without the record. Tensors: the encoding of :mod:`guts.envs.encoding`, and for the
  information state also the encoding and action at each of the seat's past decisions.
- Returns are the chip changes of the session (zero-sum; Bourré is played with
  ``end-pot=split``).

>>> import pyspiel
>>> import guts.envs.openspiel
>>> game = pyspiel.load_game("guts_two_card_guts", {"cards": "As Ks Qs Js"})
>>> state = game.new_initial_state()
>>> for card in (51, 47, 43, 39):  # As Ks Qs Js: seat 1, the dealer's left, gets As Qs
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(1, ['in', 'out'])
>>> bourre = pyspiel.load_game("guts_bourre", {"players": 3})
>>> state = bourre.new_initial_state()
>>> len(state.chance_outcomes()), bourre.num_distinct_actions()  # 52 cards; play, fold ...
(52, 39)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from random import Random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]

from guts.cards import Card, parse_cards
from guts.catalog import Game, find_game, games
from guts.envs.encoding import Encoder, Layout
from guts.envs.episode import episode_options, no_choice
from guts.errors import GutsError, OptionError
from guts.games.chance import ChanceModel
from guts.games.session import RecordedSession

__all__ = [
    "DEFAULTS",
    "GutsGame",
    "GutsObserver",
    "GutsState",
    "game_name",
    "offered",
    "register",
]

DEFAULTS: dict[str, Any] = {"players": 2, "deals": 1, "buy_in": 20, "cards": "", "options": ""}
"""Every game's parameters and their defaults."""


def game_name(preset: str) -> str:
    """The registered name of a preset: ``guts_`` and the name with underscores."""
    return "guts_" + preset.replace("-", "_")


def _chance(game: Game) -> ChanceModel | None:
    """How ``game``'s family is dealt by chance (None: not offered to OpenSpiel)."""
    return game.games_family.chance


def _model(game: Game) -> ChanceModel:
    chance = _chance(game)
    if chance is None:
        raise OptionError(f"{game.name}: the {game.family} family is not offered to OpenSpiel")
    return chance


def offered() -> list[str]:
    """The presets offered as OpenSpiel games, in the catalog's order."""
    return [name for name, game in games().items() if _chance(game) and not _refused(game)]


def _refused(game: Game) -> bool:
    try:
        _model(game).check(game.name, game.rules(), 2)
    except OptionError:
        return True
    return False


def _options(text: str) -> dict[str, str]:
    """``"k=v,k=v"`` as a dict; OptionError for a piece without ``=``."""
    options: dict[str, str] = {}
    for piece in filter(None, (p.strip() for p in text.split(","))):
        key, equals, value = piece.partition("=")
        if not equals:
            raise OptionError(f"options: {piece!r} is not name=value")
        options[key.strip()] = value.strip()
    return options


def _most_lost(players: int, deals: int, antes: int, rounds: int) -> int:
    """A bound on what one seat can lose: each deal its antes and, at each of ``rounds``
    payments, the pot to each other seat, the pot growing at most ``players`` times at
    each (everyone antes, every other seat matches it)."""
    pot = lost = 0
    for _ in range(deals):
        pot += players * antes
        lost += antes
        for _ in range(rounds):
            lost += (players - 1) * pot
            pot *= players
    return lost


@dataclass(frozen=True)
class _Setup:
    """What a game's parameters fix: the rules, the seats, the pack, the encodings."""

    game: Game
    rules: Any
    players: int
    deals: int
    buy_in: int
    pack: tuple[int, ...]
    options: Mapping[str, str]

    @property
    def family(self) -> ChanceModel:
        return _model(self.game)

    @cached_property
    def layout(self) -> Layout:
        return Layout.for_rules(self.game.family, self.rules, self.players)

    @cached_property
    def wait(self) -> int | None:
        """The action of a seat that does not decide at a simultaneous node."""
        return self.layout.size if self.family.simultaneous(self.rules) else None

    @cached_property
    def actions(self) -> int:
        return self.layout.size + (self.wait is not None)

    @cached_property
    def encoder(self) -> Encoder:
        return Encoder(self.layout, self.buy_in * self.players, self.deals)

    @cached_property
    def decisions(self) -> int:
        """The most decisions a seat makes in a game."""
        return self.family.decisions(self.rules) * self.deals

    @cached_property
    def _needed(self) -> tuple[int, ...]:
        return (0, 0, *(self.family.needed(self.rules, n) for n in range(2, self.players + 1)))

    def needed(self, players: int) -> int:
        """The most cards a deal for ``players`` dealt in can show."""
        return self._needed[players]

    @property
    def most_lost(self) -> int:
        """A bound on what one seat can lose in a game."""
        family, players = self.family, self.players
        antes = family.antes(self.rules, players)
        return _most_lost(players, self.deals, antes, family.rounds(self.rules))

    @property
    def longest(self) -> int:
        """A bound on the moves of a game: each deal its cards and every decision."""
        per_deal = self.needed(self.players) + self.family.decisions(self.rules) * self.players
        return self.deals * per_deal

    def new_session(self) -> RecordedSession[Any, Any]:
        """A session of these rules for the seats (``player_0`` ...)."""
        return _new_session(self.game, self.rules, self.players, self.buy_in)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self  # immutable: every copy of a state shares it


def _new_session(game: Game, rules: Any, players: int, buy_in: int) -> RecordedSession[Any, Any]:
    """A session of ``rules`` for ``players`` seats (``player_0`` ...)."""
    names = [f"player_{i}" for i in range(players)]
    session: RecordedSession[Any, Any] = game.games_family.session_class(
        rules, names, buy_in=buy_in, rng=Random(0)
    )
    return session


def _check_players(game: Game, rules: Any, players: int, pack: int) -> None:
    """OptionError unless a game of ``rules`` takes ``players`` from a ``pack`` of cards."""
    if players < 2:
        raise OptionError(f"players: at least 2, not {players}")
    family = _model(game)
    family.check(game.name, rules, players)
    _new_session(game, rules, players, 1)  # the family refuses a count it cannot seat
    why = no_choice(game.name, rules, players)
    if why:
        raise OptionError(why)
    needed = family.needed(rules, players)
    if pack < needed:
        raise OptionError(f"cards: a deal for {players} players may need {needed} cards, "
                          f"not {pack}")  # fmt: skip


def _setup(preset: str, params: Mapping[str, Any]) -> _Setup:
    values = {**DEFAULTS, **params}
    game = find_game(preset)
    family = _model(game)
    options = episode_options(game.family, _options(str(values["options"])))
    rules = game.rules(options)
    players, deals, buy_in = int(values["players"]), int(values["deals"]), int(values["buy_in"])
    if deals < 1 or buy_in < 1:
        raise OptionError(f"deals and buy_in: at least 1, not {deals} and {buy_in}")
    kind = family.kind(rules)
    cards = parse_cards(values["cards"]) if values["cards"] else kind.cards
    kind.check(cards)
    pack = tuple(sorted({card.code for card in cards}))
    _check_players(game, rules, players, len(pack))
    if family.simultaneous(rules) != family.simultaneous(game.rules()):
        raise OptionError(f"{family.names}: a game's options keep its preset's way of "
                          "declaring (in turn or at once): load the other preset")  # fmt: skip
    return _Setup(game, rules, players, deals, buy_in, pack, options)


def _players_allowed(game: Game, rules: Any) -> list[int]:
    """The counts of players (2 to 26) a game of ``rules`` takes from the whole pack."""
    allowed = []
    pack = len(_model(game).kind(rules).cards)
    for players in range(2, 27):
        try:
            _check_players(game, rules, players, pack)
        except OptionError:
            continue
        allowed.append(players)
    return allowed


def _game_type(preset: str) -> Any:
    game = find_game(preset)
    rules = game.rules()
    dynamics = pyspiel.GameType.Dynamics
    simultaneous = _model(game).simultaneous(rules)
    allowed = _players_allowed(game, rules)
    return pyspiel.GameType(
        short_name=game_name(preset),
        long_name=f"guts: {preset}",
        dynamics=dynamics.SIMULTANEOUS if simultaneous else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(allowed),
        min_num_players=min(allowed),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS),
    )


class GutsGame(pyspiel.Game):  # type: ignore[misc]
    """One preset as an OpenSpiel game (its parameters: :data:`DEFAULTS`)."""

    preset = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.setup = setup = _setup(self.preset, params or {})
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.actions,
            max_chance_outcomes=54,
            num_players=setup.players,
            min_utility=-float(setup.most_lost),
            max_utility=float(setup.most_lost * (setup.players - 1)),
            utility_sum=0.0,
            max_game_length=setup.longest,
        )
        super().__init__(_game_type(self.preset), info, {**DEFAULTS, **dict(params or {})})

    def new_initial_state(self) -> GutsState:
        """The state before the first card is dealt."""
        return GutsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> GutsObserver:
        """The information state (perfect recall) or the observation of a seat."""
        if params:
            raise OptionError(f"the observers take no parameters, not {dict(params)}")
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return GutsObserver(self.setup, perfect_recall=bool(recall))


Move = tuple[tuple[int, int], ...]
"""One move: ``((CHANCE, card),)`` or each deciding seat's ``(seat, action)``."""

_CHANCE = -1


class _Play:
    """The engine side of a state: the session, the cards dealt for the coming deal and
    every move so far. A copy replays the moves (ten times quicker than copying the
    session deeply)."""

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        self.session = setup.new_session()
        self.dealt: list[int] = []
        self.moves: list[Move] = []
        self._recall: list[list[tuple[npt.NDArray[np.float32], int]]] = [
            [] for _ in range(setup.players)
        ]
        self._replay: _Play | None = None  # where the recall is: the moves so far replayed

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        copy = _Play(self.setup)
        for move in self.moves:
            copy.apply(move)
        return copy

    def needed(self) -> int:
        """Cards still to deal before the next deal starts (0: none is coming)."""
        session = self.session
        if session.is_over or not session.deal_over:
            return 0
        return self.setup.needed(self.players_with_chips()) - len(self.dealt)

    def players_with_chips(self) -> int:
        table = self.session.table
        return len(table.names) if table.credit else sum(s.stack > 0 for s in table.seats)

    def apply(self, move: Move) -> None:
        """Deal a card or take each seat's action (GutsError if not legal now)."""
        if move and move[0][0] == _CHANCE:
            self._deal(move[0][1])
        else:
            self._act(move)
        self.moves.append(move)

    def _deal(self, code: int) -> None:
        if code in self.dealt or code not in self.setup.pack or self.needed() <= 0:
            raise GutsError(f"card {code} cannot be dealt now")
        self.dealt.append(code)
        if self.needed() == 0:
            dealt, self.dealt = [Card(c) for c in self.dealt], []
            self.setup.family.start(self.session, self.setup.rules, dealt)
            self._between_deals()

    def _act(self, choices: Move) -> None:
        layout, session = self.setup.layout, self.session
        texts = []
        for seat, number in choices:
            decision = session.decision(seat)
            if decision is None:
                raise GutsError(f"seat {seat} has nothing to decide now")
            texts.append((seat, layout.action(decision, number)))
        for seat, text in texts:  # all chosen before any is applied
            session.act(seat, text)
        self._between_deals()

    def _between_deals(self) -> None:
        """At the last deal's end, stop the session (which shares out the pot)."""
        session = self.session
        if session.is_over:
            table = session.table
            if sum(seat.stack for seat in table.seats) != self.setup.buy_in * len(table.names):
                session.stop("the game's deals are played")  # shares out what is left
            return
        if not session.deal_over:
            return
        if session.deals_played >= self.setup.deals or self.players_with_chips() < 2:
            session.stop("the game's deals are played")

    def decisions(self, seat: int) -> list[tuple[npt.NDArray[np.float32], int]]:
        """``seat``'s encoded view and action at each of its decisions so far: a second
        play replays the moves, from where it stopped the last time, encoding each view
        before its seat decides."""
        replay = self._replay
        if replay is None:
            replay = self._replay = _Play(self.setup)
        encode = self.setup.encoder.encode
        for move in self.moves[len(replay.moves) :]:
            for chooser, number in move:
                if chooser != _CHANCE:
                    encoded = encode(replay.session.view(chooser, events=False), chooser)
                    self._recall[chooser].append((encoded, number))
            replay.apply(move)
        return self._recall[seat]


class GutsState(pyspiel.State):  # type: ignore[misc]
    """A session of a preset in play."""

    def __init__(self, game: GutsGame) -> None:
        super().__init__(game)
        self.setup = game.setup  # OpenSpiel copies a state's attributes, not its game
        self.play = _Play(self.setup)

    @property
    def session(self) -> RecordedSession[Any, Any]:
        """The engine's session."""
        return self.play.session

    def current_player(self) -> int:
        """The seat to act, CHANCE, SIMULTANEOUS or TERMINAL."""
        if self.session.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.play.needed() > 0:
            return int(pyspiel.PlayerId.CHANCE)
        pending = self.session.pending()
        if pending[0].simultaneous:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return pending[0].seat

    def _legal_actions(self, player: int) -> list[int]:
        decision = self.session.decision(player)
        if decision is None:
            wait = self.setup.wait
            return [] if wait is None else [wait]
        return sorted(self.setup.layout.legal(decision))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card left in the pack, equally likely."""
        left = [code for code in self.setup.pack if code not in self.play.dealt]
        return [(code, 1.0 / len(left)) for code in left]

    def is_terminal(self) -> bool:
        """True once the session has stopped."""
        return bool(self.session.is_over)

    def returns(self) -> list[float]:
        """Each seat's chips won or lost (0 until the end)."""
        if not self.session.is_over:
            return [0.0] * self.setup.players
        return [float(seat.stack - self.setup.buy_in) for seat in self.session.table.seats]

    def _apply_action(self, action: int) -> None:
        player = _CHANCE if self.is_chance_node() else self.current_player()
        self.play.apply(((player, int(action)),))

    def _apply_actions(self, actions: list[int]) -> None:
        wait = self.setup.wait
        self.play.apply(tuple((seat, int(a)) for seat, a in enumerate(actions) if a != wait))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(action).ascii}"
        if action == self.setup.wait:
            return "wait"
        return self.setup.layout.names[action]

    def __str__(self) -> str:
        return json.dumps(self.session.public_view(), sort_keys=True)


class GutsObserver:
    """A seat's information state (``perfect_recall``) or observation, as a string and
    as a tensor (see the module's description)."""

    def __init__(self, setup: _Setup, *, perfect_recall: bool) -> None:
        self.setup, self.perfect_recall = setup, perfect_recall
        size = setup.encoder.size
        shapes = [("now", size)]
        if perfect_recall:
            shapes += [
                ("past", setup.decisions * size),
                ("actions", setup.decisions * setup.actions),
            ]
        self.tensor = np.zeros(sum(n for _, n in shapes), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        start = 0
        for name, count in shapes:
            self.dict[name] = self.tensor[start : start + count]
            start += count

    def set_from(self, state: GutsState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        self.tensor.fill(0.0)
        setup = self.setup
        view = state.session.view(player, events=False)  # the encoding reads no events
        self.dict["now"][:] = setup.encoder.encode(view, player)
        if self.perfect_recall:
            size = setup.encoder.size
            past = self.dict["past"].reshape(setup.decisions, size)
            actions = self.dict["actions"].reshape(setup.decisions, setup.actions)
            decided = state.play.decisions(player)
            if len(decided) > setup.decisions:
                raise GutsError(
                    f"seat {player} made {len(decided)} decisions: the information-state "
                    f"tensor has room for {setup.decisions}"
                )
            for index, (encoded, action) in enumerate(decided):
                past[index] = encoded
                actions[index, action] = 1.0

    def string_from(self, state: GutsState, player: int) -> str:
        """``player``'s view of ``state`` as JSON (without the event record unless this
        is the information state)."""
        view = state.session.view(player, events=self.perfect_recall)
        return f"p{player} " + json.dumps(view, sort_keys=True, separators=(",", ":"))


def register() -> list[str]:
    """Register every preset offered (once); the registered names."""
    names = []
    known = set(pyspiel.registered_names())
    for preset in offered():
        name = game_name(preset)
        names.append(name)
        if name not in known:
            cls = type(f"Game_{preset.replace('-', '_')}", (GutsGame,), {"preset": preset})
            pyspiel.register_game(_game_type(preset), cls)
    return names


register()
