"""Helpers shared by the server tests."""

from __future__ import annotations

import json
from typing import Any

from guts.server.actor import Client
from guts.server.protocol import SERVER


class Recorder(Client):
    """A client that keeps every frame, as the JSON text a websocket would carry, checking
    each against the protocol's server models."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        frame = json.loads(json.dumps(message))
        SERVER.validate_python(frame)
        self.frames.append(frame)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame["type"] == kind]
