"""The context manager of everything this service starts and stops (a Redis server, a worker
pool, a local web server): ``with Thing() as thing`` starts it and stops it on the way out,
error or not."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self


class Started(ABC):
    """A part with ``start()`` (which returns it, running) and ``stop()``."""

    @abstractmethod
    def start(self) -> Self:
        """Start the part; itself, running."""

    @abstractmethod
    def stop(self) -> None:
        """Stop the part and release what it holds."""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
