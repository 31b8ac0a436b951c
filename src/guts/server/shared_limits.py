"""The address limits of several nodes, counted together in their Redis.

One node alone counts what each client address holds in memory
(:class:`~guts.server.limits.AddressBook`). Behind several nodes, a reverse proxy spreads
one address's websockets and table openings among them, so each node's count would see
only its share: with N nodes an address could hold N times ``--max-connections-per-address``.
So a node also counts in Redis, and refuses when the nodes' counts together reach the limit:

- **websockets**: a hash a client address, ``guts:held:ADDRESS``, holding each node's
  count of that address's open websockets. A connection is admitted by one Lua script
  (atomic in Redis: two nodes admitting at the same moment cannot both take the last
  place) that adds the live nodes' counts and drops the counts of nodes that no longer
  say they run (their ``guts:alive:NODE`` key expired: a node killed with its
  connections open). A closed websocket takes its node's count down.
- **tables a minute**: a sorted set an address, ``guts:opened:ADDRESS``, of the moments
  (Redis's clock) it opened a table or a club in the last minute, trimmed and counted
  by one script.

When Redis does not answer, a node goes on with its own count alone (logged): a limit
that fails open to the single-node limit, never a server that refuses everyone.
"""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING

from redis.exceptions import RedisError

from guts.server.relay import ALIVE_PREFIX

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.commands.core import AsyncScript

__all__ = ["HELD_S", "SharedCounts"]

log = logging.getLogger("guts.server")

HELD_S = 86_400
"""Seconds an address's count of websockets is kept after its last connection (so that
the counts of addresses that never come back do not stay in Redis for ever)."""

_CONNECT = """
local held = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #held, 2 do
  local node, count = held[i], tonumber(held[i + 1])
  if count <= 0 or (node ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. node) == 0) then
    redis.call('HDEL', KEYS[1], node)
  else
    total = total + count
  end
end
if total >= tonumber(ARGV[2]) then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
return 1
"""
"""Admit a websocket of the address ``KEYS[1]`` counts at node ``ARGV[1]``, unless the
live nodes' counts reach ``ARGV[2]`` (``ARGV[3]``: the alive keys' prefix; ``ARGV[4]``:
the hash's time to live)."""

_DISCONNECT = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
"""

_OPEN_TABLE = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - 60000)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], ms, ARGV[2])
redis.call('PEXPIRE', KEYS[1], 60000)
return 1
"""
"""Count a table opened by the address ``KEYS[1]`` counts, unless it opened ``ARGV[1]``
in the last minute (``ARGV[2]``: a name for this opening, unique among the nodes)."""


def held_key(address: str) -> str:
    """The hash of each node's count of ``address``'s open websockets."""
    return f"guts:held:{address}"


def opened_key(address: str) -> str:
    """The sorted set of the moments ``address`` opened a table in the last minute."""
    return f"guts:opened:{address}"


class SharedCounts:
    """One node's view of the counts the nodes keep together (see the module's text).
    Each method answers None when Redis did not: the caller keeps its own count then."""

    def __init__(self, redis: Redis, node: str) -> None:
        self.node = node
        self._connect = redis.register_script(_CONNECT)
        self._disconnect = redis.register_script(_DISCONNECT)
        self._open_table = redis.register_script(_OPEN_TABLE)
        self._openings = itertools.count()

    async def connect(self, address: str, limit: int) -> bool | None:
        """Count a websocket of ``address`` here: False (not counted) when the nodes
        together hold ``limit`` of its websockets."""
        args: list[str | int] = [self.node, limit, ALIVE_PREFIX, HELD_S]
        return await self._ask("connect", self._connect, held_key(address), args)

    async def disconnect(self, address: str) -> None:
        """Take back a websocket this node counted with :meth:`connect`."""
        await self._ask("disconnect", self._disconnect, held_key(address), [self.node])

    async def open_table(self, address: str, limit: int) -> bool | None:
        """Count a table opened by ``address``: False when the nodes together saw it open
        ``limit`` in the last minute."""
        opening = f"{self.node}:{next(self._openings)}"
        return await self._ask("open-table", self._open_table, opened_key(address),
                               [limit, opening])  # fmt: skip

    async def _ask(
        self, what: str, script: AsyncScript, key: str, args: list[str | int]
    ) -> bool | None:
        try:
            answer = await script(keys=[key], args=args)
        except (RedisError, OSError) as error:
            log.warning("shared limits (%s): Redis did not answer (%s); counting here alone",
                        what, error, extra={"event": "limits", "client": self.node})  # fmt: skip
            return None
        return bool(answer)
