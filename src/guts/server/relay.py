"""The relay between nodes, over Redis pub/sub: a client plays at a table another node
owns.

Each node listens on a channel of its own (``guts:node:ID``). A client connected to a
node that does not own its table is *linked* (:class:`Link`): its coming, its messages
and its going are published to the owner's channel, where the owner attaches a stand-in
for it (:class:`Remote`) to the table's actor like any connection; whatever the actor
sends that stand-in (snapshots, the frames of its seat made by the one information
barrier, acks, errors) is published back to the client's node, which writes it to the
socket. So the owner's actor stays the only one to apply commands and to decide who
sees what; the other nodes only relay, and the channels are sharded by node (each node
reads only its own clients' frames and its own tables' commands).

Pub/sub delivers in order but may drop messages (a Redis connection lost): each frame to
a linked client carries a counter, and a client that missed one is hung up (close code
1012), so it reconnects and resumes from its last sequence number (the missed commands
as events, or a fresh snapshot: the protocol's own catch-up), never seeing one twice. A
message published to a channel that nobody reads (the owner died) hangs the client up
the same way; it reconnects once another node took the table over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from guts.errors import GutsError
from guts.server.actor import Client, Message, TableActor
from guts.server.protocol import ProtocolError, read_message

__all__ = ["Link", "Relay", "Remote"]

log = logging.getLogger("guts.server")

RETRY_S = 0.5
"""Seconds before the relay subscribes again after losing Redis."""
HEALTH_S = 5.0
"""Seconds of silence after which the relay pings Redis (a connection that died without
a word is found out)."""


def channel(node: str) -> str:
    """The channel a node reads."""
    return f"guts:node:{node}"


ALIVE_PREFIX = "guts:alive:"
"""What the key each node keeps alive is named after (:func:`alive_key`)."""


def alive_key(node: str) -> str:
    """The key a node keeps alive while it runs (expiring with its lease time)."""
    return f"{ALIVE_PREFIX}{node}"


def _dumps(payload: dict[str, Any]) -> bytes:
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)


class Remote(Client):
    """A client of another node, as the owner's actor sees it: what it is sent goes back
    to that node's channel, numbered."""

    def __init__(self, relay: Relay, origin: str, cid: str) -> None:
        super().__init__()
        self.relay, self.origin, self.cid = relay, origin, cid
        self.sent = 0

    def send(self, message: dict[str, Any]) -> None:
        self.relay.publish(self.origin, {"k": "send", "c": self.cid, "n": self.sent,
                                         "m": message})  # fmt: skip
        self.sent += 1

    def hang_up(self, code: int = 1012) -> None:
        self.relay.publish(self.origin, {"k": "gone", "c": self.cid, "code": code})


class Link:
    """The clients of one table owned by another node (``owner``), as this node relays
    them (:class:`~guts.server.actor.Remote` of a table's copy)."""

    def __init__(self, relay: Relay, table_id: str, owner: str) -> None:
        self.relay, self.table_id, self.owner = relay, table_id, owner

    def attach(self, client: Client) -> None:
        cid = secrets.token_hex(8)
        self.relay.linked[cid] = _Linked(client, self, 0)
        self.relay.cids[client] = cid
        self._publish("attach", cid)

    def post(self, message: Message, client: Client) -> None:
        cid = self.relay.cids.get(client)
        if cid is not None:
            self._publish("post", cid, message.model_dump(mode="json"))

    def detach(self, client: Client) -> None:
        cid = self.relay.cids.pop(client, None)
        if cid is not None:
            self.relay.linked.pop(cid, None)
            self._publish("detach", cid)

    def _publish(self, kind: str, cid: str, message: dict[str, Any] | None = None) -> None:
        payload: dict[str, Any] = {"k": kind, "t": self.table_id, "o": self.relay.node, "c": cid}
        if message is not None:
            payload["m"] = message
        self.relay.publish(self.owner, payload, hang_up=cid)


class _Linked:
    """A client of this node linked to another node's table, and the counter of the next
    frame it should get."""

    __slots__ = ("client", "expected", "link")

    def __init__(self, client: Client, link: Link, expected: int) -> None:
        self.client, self.link, self.expected = client, link, expected


class Relay:
    """One node's end of the relay: its channel's reader, its publisher, the clients it
    links to other nodes' tables, and the stand-ins of other nodes' clients at its own
    tables (``find`` gives the actor of a table this node owns)."""

    def __init__(self, url: str, node: str, find: Callable[[str], TableActor | None]) -> None:
        self.url, self.node, self.find = url, node, find
        self.redis: Redis = Redis.from_url(url, health_check_interval=HEALTH_S,
                                           client_name=f"guts-node-{node}")  # fmt: skip
        self.linked: dict[str, _Linked] = {}
        """This node's clients of tables owned elsewhere, by relay id."""
        self.cids: dict[Client, str] = {}
        self.remotes: dict[tuple[str, str], tuple[Remote, TableActor]] = {}
        """Other nodes' clients at this node's tables, by (node, relay id)."""
        self._out: asyncio.Queue[tuple[str, bytes, str | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._listening = asyncio.Event()

    async def start(self) -> None:
        """Connect (GutsError if Redis does not answer) and start reading and publishing."""
        try:
            await self.redis.ping()
        except (RedisError, OSError) as error:
            where = urlsplit(self.url)
            shown = f"{where.scheme}://{where.hostname}:{where.port or 6379}{where.path}"
            raise GutsError(f"Redis does not answer at {shown} ({error})") from None
        self._tasks = [asyncio.create_task(self._read(), name="relay reader"),
                       asyncio.create_task(self._write(), name="relay publisher")]  # fmt: skip
        await self._listening.wait()

    async def close(self) -> None:
        """Stop and disconnect."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, RedisError):
                await task
        await self.redis.aclose()

    def link(self, table_id: str, owner: str) -> Link:
        """The link of this node's clients to ``table_id``, owned by node ``owner``."""
        return Link(self, table_id, owner)

    def publish(self, node: str, payload: dict[str, Any], *, hang_up: str | None = None) -> None:
        """Publish ``payload`` to ``node``'s channel, after what waits (in order); if
        nobody reads that channel, hang up this node's linked client ``hang_up``."""
        self._out.put_nowait((channel(node), _dumps(payload), hang_up))

    # -- what this node's clients of other nodes' tables are told --------------------------

    def linked_tables(self) -> dict[str, str]:
        """Each table this node's clients are linked to, and the owner they go to."""
        return {one.link.table_id: one.link.owner for one in self.linked.values()}

    def hang_up_table(self, table_id: str) -> None:
        """Hang up this node's clients linked to ``table_id`` (its owner changed)."""
        for cid, one in list(self.linked.items()):
            if one.link.table_id == table_id:
                self._hang_up(cid)

    def _hang_up(self, cid: str, code: int = 1012) -> None:
        one = self.linked.pop(cid, None)
        if one is not None:
            self.cids.pop(one.client, None)
            one.client.hang_up(code)
            self.publish(one.link.owner, {"k": "detach", "t": one.link.table_id,
                                          "o": self.node, "c": cid})  # fmt: skip

    def _deliver(self, cid: str, counter: int, message: dict[str, Any]) -> None:
        one = self.linked.get(cid)
        if one is None:
            return
        if counter != one.expected:  # a frame was lost on the way: catch up by resuming
            log.warning("relay: frames lost for a client; it reconnects",
                        extra={"event": "relay-gap", "table": one.link.table_id})  # fmt: skip
            self._hang_up(cid)
            return
        one.expected += 1
        one.client.send(message)

    # -- other nodes' clients at this node's tables -------------------------------------------

    def _arrive(self, payload: dict[str, Any]) -> None:
        kind, origin, cid = payload["k"], str(payload["o"]), str(payload["c"])
        key = (origin, cid)
        if kind == "attach":
            actor = self.find(str(payload["t"]))
            if actor is None:  # not this node's table (any more): the client reconnects
                self.publish(origin, {"k": "gone", "c": cid, "code": 1012})
                return
            remote = Remote(self, origin, cid)
            self.remotes[key] = (remote, actor)
            actor.attach(remote)
            return
        held = self.remotes.get(key)
        if held is None and kind == "detach":
            return
        if held is None:
            self.publish(origin, {"k": "gone", "c": cid, "code": 1012})
            return
        remote, actor = held
        if kind == "detach":
            del self.remotes[key]
            actor.detach(remote)
        elif kind == "post":
            try:
                message = read_message(_dumps(payload["m"]))
            except ProtocolError as error:
                remote.send(error.to_dict())
                return
            actor.post(message, remote)

    def forget(self, origins: set[str]) -> None:
        """Detach the clients of the nodes ``origins`` (gone: their key expired)."""
        for key, (remote, actor) in list(self.remotes.items()):
            if key[0] in origins:
                del self.remotes[key]
                actor.detach(remote)

    def drop_table(self, table_id: str) -> None:
        """Forget the stand-ins at ``table_id`` (this node let it go), hanging them up."""
        for key, (remote, actor) in list(self.remotes.items()):
            if actor.id == table_id:
                del self.remotes[key]
                remote.hang_up()

    def origins(self) -> set[str]:
        """The nodes whose clients sit at this node's tables."""
        return {origin for origin, _ in self.remotes}

    async def alive(self, ttl: float) -> set[str]:
        """Say this node runs for ``ttl`` more seconds; the nodes of :meth:`origins` that
        do not say so any more."""
        await self.redis.set(alive_key(self.node), b"1", px=max(1, int(ttl * 1000)))
        origins = sorted(self.origins())
        if not origins:
            return set()
        found = await self.redis.mget([alive_key(origin) for origin in origins])
        return {origin for origin, value in zip(origins, found, strict=True) if value is None}

    # -- the tasks --------------------------------------------------------------------------

    async def _read(self) -> None:
        """Read this node's channel until cancelled; after losing Redis, hang up every
        linked client (frames may be lost), detach the other nodes' clients, and
        subscribe again."""
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node))
                self._listening.set()
                while True:
                    got = await pubsub.get_message(timeout=HEALTH_S)  # then a ping
                    if got is not None:
                        self._take(got["data"])
            except (RedisError, OSError):
                log.warning("relay: the connection to Redis is lost; subscribing again",
                            extra={"event": "relay-lost"})  # fmt: skip
                for cid in list(self.linked):
                    self._hang_up(cid)
                self.forget(self.origins())  # their nodes hang them up too: they come back
                await asyncio.sleep(RETRY_S)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _take(self, data: bytes) -> None:
        try:
            payload = orjson.loads(data)
            if payload["k"] == "send":
                self._deliver(str(payload["c"]), int(payload["n"]), payload["m"])
            elif payload["k"] == "gone":
                self._hang_up(str(payload["c"]), int(payload.get("code", 1012)))
            else:
                self._arrive(payload)
        except Exception:
            log.exception("relay: a message could not be handled", extra={"event": "error"})

    async def _write(self) -> None:
        """Publish what waits, a pipeline at a time, in order."""
        while True:
            batch = [await self._out.get()]
            while not self._out.empty():
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for name, data, _ in batch:
                        pipe.publish(name, data)
                    heard = await pipe.execute()
            except (RedisError, OSError):
                log.warning("relay: messages not published", extra={"event": "relay-lost"})
                heard = [0] * len(batch)
            for (_, _, cid), count in zip(batch, heard, strict=True):
                if cid is not None and not count:  # nobody reads the owner's channel
                    self._hang_up(cid)
