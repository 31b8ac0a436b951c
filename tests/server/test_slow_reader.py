"""A client that stops reading for a while, against a real ``guts serve``: the server
writes each frame at once while the socket takes it, and queues the rest in order once
the socket makes a write wait; the client, reading again, gets every frame, in order."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import httpx
from server_helpers import Server
from websockets.asyncio.client import connect

STALL_COMMANDS = 500
"""How far the table moves on while the client reads nothing (half the frames a client
may fall behind before it is disconnected)."""
STALL_BYTES = 250_000
"""Least of what the server must hold back meanwhile: far more than the socket's
buffers (a 4 KiB receive window) and the transport's high-water mark (64 KiB) take
without a write having to wait."""


async def _watch_stalled(server: Server, table_id: str) -> tuple[list[dict], int]:
    """Spectate ``table_id`` with a tiny receive buffer, reading nothing until the
    table has moved on by ``STALL_COMMANDS`` commands; then read until the frames
    reach where the table was then. Every frame, and the bytes read after the stall."""
    raw = socket.create_connection(("127.0.0.1", server.port))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # no autotuned window
    url = f"ws://127.0.0.1:{server.port}/ws/{table_id}"
    # (the close does not wait the default 10 s for the frames the table made meanwhile)
    async with connect(url, sock=raw, max_queue=1, max_size=2**22, close_timeout=1) as ws:
        await ws.send(json.dumps({"type": "resume"}))  # a spectator: its snapshot
        frames = [json.loads(await ws.recv())]  # the snapshot
        assert frames[0]["type"] == "snapshot"
        async with httpx.AsyncClient() as http:
            for _ in range(600):  # the seq counts the commands the table took meanwhile
                await asyncio.sleep(0.1)
                summary = (await http.get(f"{server.url}/api/tables/{table_id}")).json()
                if summary["seq"] - frames[0]["seq"] >= STALL_COMMANDS:
                    break
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)  # read again, quickly
        after = 0
        while frames[-1].get("seq", -1) < summary["seq"]:  # caught up with the stall
            text = await asyncio.wait_for(ws.recv(), 30)
            after += len(text)
            frames.append(json.loads(text))
        return frames, after


def test_a_stalled_client_gets_every_frame_in_order(tmp_path: Path) -> None:
    server = Server(f"sqlite+aiosqlite:///{tmp_path / 'guts.db'}", tmp_path / "server.log",
                    bot_delay=0.0, deal_delay=0.0)  # fmt: skip
    server.start()
    try:
        created = server.post("/api/tables", {"preset": "two-card-guts", "bots": 4,
                                              "bot": "random", "buy_in": 100_000,
                                              "start": True})  # fmt: skip
        table_id = created["table_id"]
        frames, after = asyncio.run(_watch_stalled(server, table_id))
    finally:
        server.stop()
    assert after > STALL_BYTES, f"the client stalled for only {after} bytes"
    events = [frame["seq"] for frame in frames if frame["type"] == "event"]
    assert len(events) > 100
    assert events == sorted(set(events)), "event frames out of order or repeated"
    assert events == list(range(events[0], events[0] + len(events))), "a frame was lost"
    assert events[0] == frames[0]["seq"] + 1
