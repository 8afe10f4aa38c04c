"""The terminal's player tokens: ``sixtysix play --lobby`` plays as the same player each run.

One JSON file, ``$XDG_CONFIG_HOME/sixtysix/players.json`` (``~/.config/sixtysix/…`` without
``XDG_CONFIG_HOME``), maps each server's base URL (without a trailing ``/``) to the player made
there: ``player_id``, ``name`` and ``token``. The token is a secret: the file is created with
mode 0600 in a directory of mode 0700, and every write replaces it whole (a temporary file in
the same directory, then a rename), so a reader never sees half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, TypedDict

FILE_NAME: Final = "players.json"


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

    def get(self, url: str) -> SavedPlayer | None:
        """The player saved for the server at ``url``, if any."""
        entry = self._all().get(_server(url))
        if isinstance(entry, dict) and all(isinstance(entry.get(k), str)
                                           for k in ("player_id", "name", "token")):
            return SavedPlayer(player_id=entry["player_id"], name=entry["name"],
                               token=entry["token"])
        return None

    def put(self, url: str, player: SavedPlayer | None) -> None:
        """Save ``player`` for the server at ``url`` (``None``: forget it)."""
        players = self._all()
        if player is None:
            players.pop(_server(url), None)
        else:
            players[_server(url)] = dict(player)
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".players-")
        try:
            os.fchmod(handle, 0o600)
            with os.fdopen(handle, "w") as out:
                json.dump(players, out, indent=2)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
