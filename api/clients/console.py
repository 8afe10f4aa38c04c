"""The reader's lines for the terminal clients, so that ``q`` quits while they wait too.

:class:`Console` reads its stream (stdin) line by line in a daemon thread. :meth:`Console.ask`
writes a prompt and answers the next line (``EOFError`` at the end of the stream, as
``input``). :meth:`Console.wait` runs one server call (a long-poll for another seat's move, a
look at a table) in a daemon thread and answers its result, or :data:`QUIT` as soon as the
reader types a quit word (``q``, ``quit``, ``exit``) meanwhile; any other line typed while
waiting is kept for the next prompt, in order (a quit word behind it too), so that input typed
ahead, or piped in, is read as ``input`` would have read it. An abandoned call ends on its own
(within its wait); the process need not wait for it. :func:`blocking` is the wait of a caller
with no such reader (scripted answers): the call, never cut short.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import Final, Protocol, TextIO, TypeVar

#: The words that quit, at a prompt or while waiting.
QUIT_WORDS: Final = ("q", "quit", "exit")
T = TypeVar("T")


class Quit:
    """:data:`QUIT`: the reader quit while waiting."""

    def __repr__(self) -> str:
        return "QUIT"


QUIT: Final = Quit()


class Wait(Protocol):
    """Run ``fetch`` and answer its result, or :data:`QUIT` when the reader quits first."""

    def __call__(self, fetch: Callable[[], T]) -> T | Quit: ...


def blocking(fetch: Callable[[], T]) -> T | Quit:
    """The result of ``fetch()``: a wait nobody can cut short."""
    return fetch()


def is_quit(text: str) -> bool:
    return text.strip().lower() in QUIT_WORDS


class Console:
    """The lines of ``stream`` (default: ``sys.stdin``) for :meth:`ask` and :meth:`wait` (see
    the module docstring); ``write`` shows a prompt (default: on ``sys.stdout``)."""

    def __init__(self, stream: TextIO | None = None,
                 write: Callable[[str], None] | None = None) -> None:
        self._stream = stream or sys.stdin
        self._write = write or _write_stdout
        #: A line read (``None``: the end of the stream), or the token of a call that ended.
        self._inbox: queue.Queue[str | object | None] = queue.Queue()
        self._pending: deque[str | None] = deque()
        self._reader: threading.Thread | None = None

    def _start(self) -> None:
        if self._reader is None:
            self._reader = threading.Thread(target=self._read, name="console-reader",
                                            daemon=True)
            self._reader.start()

    def _read(self) -> None:
        for line in self._stream:
            self._inbox.put(line.rstrip("\r\n"))
        self._inbox.put(None)

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and answer the next line (``EOFError`` at the end of input, after
        ending the prompt's line)."""
        self._write(prompt)
        self._start()
        while not self._pending:
            got = self._inbox.get()
            if got is None or isinstance(got, str):  # not the token of an abandoned call
                self._pending.append(got)
        line = self._pending[0]
        if line is None:  # the end stays the end; what follows starts a line of its own
            self._write("\n")
            raise EOFError
        self._pending.popleft()
        return line

    def wait(self, fetch: Callable[[], T]) -> T | Quit:
        """``fetch()``'s result (its exception raised here), or :data:`QUIT` as soon as the
        reader types a quit word with no earlier line pending."""
        call = object()
        done: list[T] = []
        failed: list[BaseException] = []

        def run() -> None:
            try:
                done.append(fetch())
            except BaseException as exc:  # raised again by the waiting thread
                failed.append(exc)
            self._inbox.put(call)

        threading.Thread(target=run, name="console-wait", daemon=True).start()
        self._start()
        while True:
            got = self._inbox.get()
            if got is call:
                if failed:
                    raise failed[0]
                return done[0]
            if got is not None and not isinstance(got, str):
                continue  # a call abandoned earlier
            if got is not None and not self._pending and is_quit(got):
                return QUIT
            self._pending.append(got)


def _write_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()

