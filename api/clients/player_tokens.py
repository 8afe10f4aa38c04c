"""The terminal's player tokens: ``sixtysix play --lobby`` plays as the same player each run.

One JSON file, ``$XDG_CONFIG_HOME/sixtysix/players.json`` (``~/.config/sixtysix/…`` without
``XDG_CONFIG_HOME``), maps each server's base URL (without a trailing ``/``) to the players made
there, the one used last first: each with ``player_id``, ``name`` and ``token``. At most one
player is kept per name, names compared as the server compares them (their look-alike
skeleton: ``ann`` is ``Ann``), so two terminals of one user play as two players by giving two
``--name``\\ s. A file of the earlier form (one player per URL) reads as a list of one.

The tokens are secrets: the file is created with mode 0600 in a directory of mode 0700, and
every write replaces it whole (a temporary file in the same directory, then a rename), so a
reader never sees half a file; a write holds an exclusive lock (``flock`` on ``.lock`` in that
directory) from its read to its rename, so two terminals saving at once both keep theirs.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, TypedDict

from api.players.skeleton import skeleton

FILE_NAME: Final = "players.json"
LOCK_NAME: Final = ".lock"


class SavedPlayer(TypedDict):
    player_id: str
    name: str
    token: str


def config_dir(env: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_CONFIG_HOME/sixtysix``, else ``~/.config/sixtysix`` (a relative
    ``XDG_CONFIG_HOME`` is ignored, as the XDG base directory specification says)."""
    base = env.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "sixtysix"


def _server(url: str) -> str:
    return url.rstrip("/")


def _saved(entry: Any) -> SavedPlayer | None:
    if isinstance(entry, dict) and all(isinstance(entry.get(k), str)
                                       for k in ("player_id", "name", "token")):
        return SavedPlayer(player_id=entry["player_id"], name=entry["name"],
                           token=entry["token"])
    return None


class PlayerTokens:
    """The saved players of :data:`FILE_NAME` in ``directory``, by server URL."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / FILE_NAME

    def _all(self) -> dict[str, Any]:
        try:
            found = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        return found if isinstance(found, dict) else {}

    @staticmethod
    def _listed(entries: dict[str, Any], url: str) -> list[SavedPlayer]:
        entry = entries.get(_server(url))
        listed = entry if isinstance(entry, list) else [entry]
        return [p for p in map(_saved, listed) if p is not None]

    def players(self, url: str) -> list[SavedPlayer]:
        """The players saved for the server at ``url``, the one used last first."""
        return self._listed(self._all(), url)

    def get(self, url: str, name: str | None = None) -> SavedPlayer | None:
        """The player named ``name`` saved for the server at ``url`` (``None``: the one used
        last), if any."""
        players = self.players(url)
        if name is None:
            return players[0] if players else None
        key = skeleton(name)
        return next((p for p in players if skeleton(p["name"]) == key), None)

    def put(self, url: str, player: SavedPlayer) -> None:
        """Save ``player`` for the server at ``url`` as the one used last, in place of any
        saved player of its id or name."""
        key = skeleton(player["name"])
        self._change(url, lambda players: [player] + [
            p for p in players
            if p["player_id"] != player["player_id"] and skeleton(p["name"]) != key])

    def forget(self, url: str, player_id: str) -> None:
        """Drop the player ``player_id`` saved for the server at ``url``."""
        self._change(url, lambda players: [p for p in players if p["player_id"] != player_id])

    def _change(self, url: str,
                change: Callable[[list[SavedPlayer]], list[SavedPlayer]]) -> None:
        with self._locked():
            entries = self._all()
            players = change(self._listed(entries, url))
            if players:
                entries[_server(url)] = [dict(p) for p in players]
            else:
                entries.pop(_server(url), None)
            self._write(entries)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle = os.open(self.path.parent / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield
        finally:
            os.close(handle)  # closing releases the lock

    def _write(self, entries: dict[str, Any]) -> None:
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".players-")
        try:
            os.fchmod(handle, 0o600)
            with os.fdopen(handle, "w") as out:
                json.dump(entries, out, indent=2)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
