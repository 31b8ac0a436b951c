"""Play a seat of a web table from the terminal, over the same protocol as the page.

:class:`TableClient` connects to the table's websocket, asks for a seat (or watches),
waits for the host's approval where the table wants it, then narrates what it is sent
(:class:`guts.narrate.Narrator`, in the second person for its own seat; at a table of
dealer's choice :class:`guts.night.narrate.NightNarrator`, which tells the choices and
each game) and, when the
seat must decide, shows the panel of ``guts play`` (:func:`guts.screen.decision_panel`)
and reads the answer with :func:`guts.prompts.read_answer`, from the keyboard or any
text stream (so it can be scripted). The end of input leaves the seat: the server plays
it safe and cashes it out at the next deal boundary with an empty pot (an interrupt,
Ctrl-C, stops the client and keeps the seat). A dropped
connection is taken up again with the seat's device token and the last sequence number
seen, so nothing is missed; with ``tokens`` (:class:`guts.client.tokens.SeatTokens`, as
``guts join`` keeps them) the token outlives the client, and a client run again for the
same table and nickname takes up the same seat (back from away, if it was set away).
With ``tokens`` the client also has a device key, sent as the page sends it
(:func:`guts.client.club.link_seat`): a seat at a club's table counts for the device's
member, the same member at every club table the client sits at.

>>> websocket_url("http://127.0.0.1:8000/t/abc")
'ws://127.0.0.1:8000/ws/abc?v=2'
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import IO, Any
from urllib.parse import urlsplit

from rich.console import Console
from rich.text import Text

from guts.client.club import ClubSeat, Post, club_page, http_post, link_seat
from guts.client.tokens import SeatTokens
from guts.errors import GutsError, IllegalAction, OptionError
from guts.games.base import Event, EventError
from guts.games.decision import Decision
from guts.narrate import Narrator
from guts.night.narrate import NightNarrator
from guts.play import Terminal
from guts.prompts import (
    committed_chips,
    decision_from_dict,
    help_lines,
    read_answer,
    summary,
    wants_help,
)
from guts.screen import WIDTH, colour_cards, decision_panel, prompt_word, refusal, show

__all__ = ["PROTOCOL", "TableClient", "websocket_url"]

PROTOCOL = 2
"""The protocol version this client speaks."""
RETRY_FOR = 120.0
"""How long (seconds) a dropped connection is tried again, a second apart: a server
restarting rebuilds its tables before it listens again."""


class ClientError(GutsError):
    """The server refused the client, or cannot be reached."""


def websocket_url(join_url: str) -> str:
    """The websocket of the table a join link (``http://SERVER/t/TABLE``) names; a
    ``ws://`` or ``wss://`` URL of a table's websocket is taken as it is."""
    link = urlsplit(join_url.strip())
    path = link.path.rstrip("/")
    if link.scheme in ("ws", "wss") and "/ws/" in path:
        return join_url if "v=" in link.query else f"{join_url}?v={PROTOCOL}"
    if link.scheme not in ("http", "https") or not link.netloc or "/t/" not in path:
        raise OptionError(f"not a join link: {join_url!r} (http://SERVER/t/TABLE)")
    table_id = path.rpartition("/t/")[2]
    scheme = "wss" if link.scheme == "https" else "ws"
    return f"{scheme}://{link.netloc}/ws/{table_id}?v={PROTOCOL}"


class TableClient:
    """One seat (or a spectator, with ``watch``) of the table at ``url``."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        buy_in: int | None = None,
        watch: bool = False,
        console: Console | None = None,
        source: IO[str] | None = None,
        connect: Callable[[str], Any] | None = None,
        tokens: SeatTokens | None = None,
        post: Post | None = None,
    ) -> None:
        self.url = websocket_url(url)
        self.name = name
        self.buy_in = buy_in
        self.watch = watch
        self.console = console or Console(highlight=False)
        self.terminal = Terminal(self.console, source)
        self._connect = connect or _connect
        self.token: str | None = None
        self.seat_id: int | None = None
        self.number: int | None = None
        self.last_seq: int | None = None
        self.status = "lobby"
        self.seat_status = ""
        self.names: list[str] = []
        self.night = False
        """True at a table of dealer's choice (its narrator tells the night too)."""
        self.narrator: Narrator | NightNarrator = Narrator([])
        self.client_seq = 0
        self.decision: dict[str, Any] | None = None
        self.view: dict[str, Any] = {}
        self.left = False
        self.socket: Any = None
        self.tokens = None if watch else tokens
        self.token = None if self.tokens is None else self.tokens.get(self.url, name)
        self.taking_up = self.token is not None
        """True from a kept token's resume until the server has shown its seat."""
        self._post = post or http_post
        self.club: ClubSeat | None = None
        """What the server said of the seat's club (None until it said)."""
        self._club_token: str | None = None
        self.seated_as = name
        """The seat's nickname as the server wrote it."""

    # -- the connection -------------------------------------------------------------------

    def run(self) -> None:
        """Play (or watch) until the night is over, the seat is gone or input ends."""
        dropped: float | None = None  # when the connection dropped
        if self.taking_up and self.tokens is not None:
            self.say(f"Taking up your seat at this table again (its device token is kept in "
                     f"{self.tokens.path}).", style="italic")  # fmt: skip
        while True:
            try:
                self.socket = self._connect(self.url)
            except OSError as error:
                if dropped is None or time.monotonic() - dropped > RETRY_FOR:
                    raise ClientError(f"cannot reach the table at {self.url}: {error}") from None
                time.sleep(1)
                continue
            try:
                self._greet()
                if self._play():
                    return
            except _Dropped:
                dropped = time.monotonic()
                self.console.print("[italic]The connection dropped; taking it up again…[/italic]")
                time.sleep(1)
            finally:
                self._close()

    def _greet(self) -> None:
        if self.token is not None:
            self.send({"type": "resume", "token": self.token, "last_seq": self.last_seq})
        elif self.watch:
            self.send({"type": "resume", "last_seq": self.last_seq})
        else:
            join: dict[str, Any] = {"type": "join", "nickname": self.name}
            if self.buy_in is not None:
                join["buy_in"] = self.buy_in
            self.send(join)

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.socket.send(json.dumps(message))
        except Exception as error:  # the socket library's own closed errors
            raise _Dropped() from error

    def receive(self) -> dict[str, Any]:
        try:
            text = self.socket.recv()
        except Exception as error:
            raise _Dropped() from error
        frame: dict[str, Any] = json.loads(text)
        return frame

    def _close(self) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):  # closing a dropped connection
                self.socket.close()
            self.socket = None

    # -- frames ------------------------------------------------------------------------------

    def _play(self) -> bool:
        """Handle frames until the client is done (True) or the connection drops."""
        while True:
            frame = self.receive()
            if self._frame(frame):
                return True
            if self.decision is not None and not self.watch and self._decide():
                return True

    def _frame(self, frame: dict[str, Any]) -> bool:
        """Handle one frame; True when the client is done."""
        kind = frame.get("type")
        seq = frame.get("seq")
        if isinstance(seq, int) and kind in ("event", "snapshot", "seats"):
            self.last_seq = seq
        if kind == "welcome":
            return self._welcome(frame)
        if kind == "snapshot":
            self._snapshot(frame)
        elif kind == "seats":
            return self._seats(frame)
        elif kind == "event":
            self._event(frame)
        elif kind == "chat":
            self.say(f"{frame['nickname']}: {frame['text']}", style="magenta")
        elif kind == "error":
            return self._error(frame)
        return self.status == "over" and self.decision is None and self._over()

    def _welcome(self, frame: dict[str, Any]) -> bool:
        self.token, self.seat_id = frame["token"], frame["seat_id"]
        self.seated_as = frame["nickname"]
        self.seat_status = frame["status"]
        self.say(f"You sit at the table as {frame['nickname']}.")
        if self.tokens is not None:
            self.tokens.keep(self.url, self.name, frame["token"])
            kept = f"Your seat's device token is kept in {self.tokens.path}"
            self.say(f"{kept}: run the same command again to take this seat up after a stop.",
                     style="italic")  # fmt: skip
        if frame["status"] == "requested":
            self.say("Waiting for the host to approve your seat…", style="italic")
        else:  # a request is no member's until the host gives the seat
            self._link_club()
        return False

    def _link_club(self) -> None:
        """Tell the server which device holds the seat (once a token; asked again at the
        next snapshot if it could not be said), so that at a club's table the seat counts
        for this device's member; say which club and member."""
        if self.tokens is None or self.token is None or self._club_token == self.token:
            return
        linked = link_seat(self.url, self.token, self.tokens.device_key(), self._post)
        if linked is None:
            return
        self.club, self._club_token = linked, self.token
        if linked.club_id is not None:
            self.say(f"This table counts for the club {linked.club_name}: your seat is its "
                     f"member {linked.member} ({club_page(self.url, linked.club_id)}).",
                     style="italic")  # fmt: skip

    def _snapshot(self, frame: dict[str, Any]) -> None:
        table = frame["table"]
        first = not self.names
        self.status = table["status"]
        self.night = table.get("family") == "night"
        you = frame.get("you")
        if you is not None:
            self.seat_id, self.number, self.seat_status = you["seat_id"], you["seat"], you["status"]
            self.seated_as = you.get("nickname", self.seated_as)
            if self.taking_up:
                self._taken_up(frame)
            self._link_club()
        game = frame.get("game")
        if game is not None:
            self.view = game
            self._name_seats([str(n) for n in game.get("players", [])])
        if first:
            where = f"{table['preset']} ({table['status']})"
            self.say(f"Table {table['id']}: {where}, buy-in {table['buy_in']}.")
            if self.watch:
                self.say("You are watching.", style="italic")
        if game is not None:  # the seat's own decision now, if any (the newest word)
            pending = game.get("pending")
            own = [d for d in pending if isinstance(d, dict) and d.get("seat") == self.number] \
                if isinstance(pending, list) and self.number is not None else []  # fmt: skip
            self.decision = own[0] if own else None

    def _taken_up(self, frame: dict[str, Any]) -> None:
        """The first snapshot of a seat taken up with a kept token: say so; back from
        away if it was set away; a new seat asked for if it has left the table."""
        self.taking_up = False
        you = frame["you"]
        if you["status"] in ("left", "refused"):
            self._lost_seat(f"your seat here as {you['nickname']} has left the table")
            return
        mine: dict[str, Any] = next(
            (s for s in frame["seats"] if s["seat_id"] == you["seat_id"]), {}
        )
        self.say(f"You are back in your seat as {you['nickname']} ({you['status']}).")
        if mine.get("away") and not mine.get("leaving"):
            self.say("You were away: you are dealt in again from the next deal.", style="italic")
            self.send({"type": "come_back"})

    def _lost_seat(self, why: str) -> None:
        """The kept token's seat is gone: forget it and ask for a new seat."""
        self._forget()
        self.token, self.seat_id, self.taking_up = None, None, False
        self.say(f"The kept seat cannot be taken up ({why}): asking for a new one.",
                 style="italic")  # fmt: skip
        self._greet()

    def _seats(self, frame: dict[str, Any]) -> bool:
        self.status = frame["status"]
        mine = next((s for s in frame["seats"] if s["seat_id"] == self.seat_id), None)
        if mine is not None and mine["nickname"] != self.seated_as:
            mine = None  # the seat id of a refused request, taken by someone else since
        if mine is None and self.seat_status == "requested" and not self.watch:
            # a request refused (or withdrawn) holds nothing: it leaves the list of seats
            self.say("The host refused your seat: run the same command to ask again.",
                     style="bold")  # fmt: skip
            self._forget()
            return True
        if mine is not None and not self.watch:
            self.number = mine["seat"]  # first: the narration says "you" for this seat
        numbered = {s["seat"]: s["nickname"] for s in frame["seats"] if s["seat"] is not None}
        if numbered:
            self._name_seats([numbered.get(n, f"seat {n}") for n in range(max(numbered) + 1)])
        if mine is None or self.watch:
            return False
        was, self.seat_status = self.seat_status, mine["status"]
        if was == "requested" and mine["status"] == "approved":
            self.say("The host approved your seat: you are dealt in at the next deal.")
            self._link_club()
        elif mine["status"] == "left" and was != "left":
            self.say("You are cashed out and off the table.", style="italic")
            self._forget()
            return True
        return False

    def _event(self, frame: dict[str, Any]) -> None:
        self.status = frame["status"]
        for data in frame["events"]:
            try:
                event = Event.from_dict(data)
            except EventError:
                continue  # an event of a newer server: nothing to tell
            line = self.narrator.tell(event)
            if line:
                text = colour_cards(line)
                if line.startswith("— "):
                    text.stylize("bold")
                self.console.print(text)
        decision = frame.get("decision")
        self.decision = decision if isinstance(decision, dict) else None

    def _forget(self) -> None:
        if self.tokens is not None:
            self.tokens.forget(self.url, self.name)

    def _error(self, frame: dict[str, Any]) -> bool:
        code, message = frame.get("code"), frame.get("message", "")
        if code == "no-such-seat" and self.taking_up:
            self._lost_seat(message)
            return False
        if code in ("no-such-table", "bad-origin", "taken", "no-such-seat") or (
            code == "invalid" and self.seat_id is None and not self.watch
        ):
            raise ClientError(f"the table refused: {message}")
        self.say(f"✗ {message}", style="red")
        return False

    def _over(self) -> bool:
        self.say("The night is over.", style="bold")
        stacks = self.view.get("stacks")
        if isinstance(stacks, list) and self.names:
            shown = ", ".join(f"{n} {s}" for n, s in zip(self.names, stacks, strict=False))
            self.say(f"Stacks at the end: {shown}")
        return True

    def _name_seats(self, names: list[str]) -> None:
        own = self.number
        told = ["You" if n == own else name for n, name in enumerate(names)]
        if told != self.narrator.names or self.night != isinstance(self.narrator, NightNarrator):
            self.names = names
            family = self.view.get("game")  # the family, whose words come first
            self.narrator = (
                NightNarrator(told) if self.night else Narrator(told, family and str(family))
            )

    def say(self, line: str, style: str = "") -> None:
        self.console.print(Text(line, style=style), markup=False, highlight=False)

    # -- deciding ---------------------------------------------------------------------------

    def _decide(self) -> bool:
        """Ask the person for the pending decision and send it; True if input ended."""
        if self._refresh_view():  # the hand, stacks and pot for the panel, and the decision
            return True  # the night ended (or the seat went) while the snapshot was on its way
        data, self.decision = self.decision, None
        if data is None:
            return False  # decided already (a clock ran out, or the host set us away)
        try:
            decision = decision_from_dict(data)
        except IllegalAction:
            return False
        try:
            action = self._ask(decision)
        except EOFError:  # (Ctrl-C is a stop: the seat is kept for the client run again)
            self.say("You leave the table: cashed out at the next deal boundary.", style="italic")
            self.send({"type": "leave"})
            self._forget()
            self.left = True
            return True
        self.client_seq += 1
        self.send({"type": "act", "seat": decision.seat, "action": action,
                   "client_seq": self.client_seq})  # fmt: skip
        return False

    def _refresh_view(self) -> bool:
        """A fresh snapshot of the seat's view (for the panel: hand, stacks, pot); True
        if a frame on the way said the client is done (the night is over)."""
        self.send({"type": "resume", "token": self.token})
        while True:
            frame = self.receive()
            if frame.get("type") == "snapshot":
                self._snapshot(frame)
                return False
            if self._frame(frame):
                return True

    def _ask(self, decision: Decision) -> str:
        console = self.console
        view = {**self.view, "players": self.narrator.names or self.view.get("players", [])}
        committed = committed_chips(view, decision.seat)
        width = min(console.width, WIDTH)
        show(console, decision_panel(decision, view, width=width, committed=committed))
        while True:
            answer = self.terminal.ask(f"{prompt_word(decision)}> ")
            if wants_help(answer):
                for told in help_lines(decision, committed):
                    show(console, [Text(told, style="cyan")], heading=False)
                continue
            try:
                return read_answer(decision, answer, committed=committed)
            except IllegalAction as refused:
                if not answer.strip():
                    said = Text(f"{summary(decision, committed)} (h for help)", style="dim")
                    show(console, [said], heading=False)
                    continue
                show(console, [refusal(str(refused), decision, width, committed)], heading=False)


class _Dropped(Exception):
    """The connection to the table dropped."""


def _connect(url: str) -> Any:
    """A websocket to ``url``; a handshake the server broke off (a node going down or
    starting again behind the same port) is a ConnectionError, tried again like any."""
    try:
        from websockets.exceptions import InvalidHandshake
        from websockets.sync.client import connect
    except ImportError:
        raise OptionError(
            "guts join needs the websockets package: pip install 'guts[server]'"
        ) from None
    try:  # every frame is read as it comes (no max_queue): with frames left unread the
        # library stops reading, and a close would wait its timeout behind them
        return connect(url, open_timeout=10, max_size=2**22, max_queue=None)
    except InvalidHandshake as error:
        raise ConnectionError(f"the server broke the handshake off ({error})") from None
