"""A Server-Sent Events reader for the tests: a ``requests`` response parsed block by block."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import requests

#: Seconds a test waits for something that must come long before (not a timing assertion).
DEADLINE = 15.0


@dataclass(frozen=True, slots=True)
class Message:
    """One block of the stream: an event (``event``, ``id``, ``data``) or a comment."""

    event: str | None
    id: int | None
    data: Any
    comment: str | None


class Sse:
    """An open stream, parsed block by block."""

    def __init__(self, response: requests.Response) -> None:
        assert response.status_code == 200, response.text
        assert response.headers["Content-Type"].startswith("text/event-stream")
        self.response = response
        self._chunks = response.iter_content(chunk_size=None)
        self._buffer = b""
        self.raw = b""

    def next(self) -> Message:
        while b"\n\n" not in self._buffer:
            chunk = next(self._chunks)
            self.raw += chunk
            self._buffer += chunk
        block, self._buffer = self._buffer.split(b"\n\n", 1)
        fields: dict[str, str] = {}
        comment = None
        for line in block.decode().split("\n"):
            if line.startswith(":"):
                comment = line[1:].strip()
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if "event" not in fields and comment is None:  # the retry field alone
            assert fields.get("retry") == "2000"
            return self.next()
        return Message(fields.get("event"), int(fields["id"]) if "id" in fields else None,
                       json.loads(fields["data"]) if "data" in fields else None, comment)

    def until(self, event: str) -> list[Message]:
        """The events (no comments) up to and including the next ``event``; an assertion
        error if it does not come within :data:`DEADLINE` (heartbeats keep the read alive)."""
        out = []
        deadline = time.monotonic() + DEADLINE
        while True:
            assert time.monotonic() < deadline, f"no {event} event came"
            message = self.next()
            if message.comment is None:
                out.append(message)
                if message.event == event:
                    return out

    def close(self) -> None:
        self.response.close()
