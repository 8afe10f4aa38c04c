"""A TCP relay in front of the test server whose connections a test can cut: a real network
break for the page (chromium's offline emulation leaves an open event stream alone)."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress
from types import TracebackType
from typing import Self
from urllib.parse import urlsplit


def _shut(sock: socket.socket) -> None:
    """Both directions of ``sock`` closed (the other end sees it at once); gone already: fine."""
    with suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


class Relay:
    """Relays ``127.0.0.1:<port>`` to ``upstream`` (``http://host:port``). ``cut()`` closes
    every open connection; while ``down`` new ones are closed at once."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self._upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._stopped = False
        self.down = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}"

    def __enter__(self) -> Self:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        with self._lock:
            self._stopped = True
        self._listener.close()
        self.cut()

    def cut(self) -> None:
        with self._lock:
            sockets, self._open = self._open, set()
        for sock in sockets:
            _shut(sock)
            sock.close()

    def _accept(self) -> None:
        while not self._stopped:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                server = socket.create_connection(self._upstream)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._stopped:  # accepted as the relay closed: nobody would close these
                    client.close()
                    server.close()
                    return
                self._open.update((client, server))
            ended: list[int] = [0]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b, ended), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, ended: list[int]) -> None:
        """Copy ``source`` to ``target`` until either ends; the second of a connection's two
        pumps to end closes both sockets (so none is left to the garbage collector)."""
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                _shut(sock)
            with self._lock:
                ended[0] += 1
                last = ended[0] == 2
                if last:
                    self._open.difference_update((source, target))
            if last:
                source.close()
                target.close()
