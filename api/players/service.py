"""Players: anonymous accounts with a secret player token; profiles; authentication.

A player token is 256-bit (``secrets.token_urlsafe(32)``), shown once at creation and stored
only as its SHA-256 digest; checking one compares digests in constant time. It is not a seat
token: it names a player, never a seat of a game, and a seat token never names a player.

Names: text of the one policy of :mod:`api.text_policy` (NFC, spaces at the ends trimmed, no
control, format or invisible character) of 3–20 characters, each a letter, a digit, a space,
``-`` or ``_``; unique without regard to case and to look-alike letters (their skeletons,
:mod:`api.players.skeleton`, differ). ``kind`` is ``human`` or ``bot``.
"""

from __future__ import annotations

import hmac
import re
import secrets
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Final

from api.errors import Conflict, FieldError, NotFound
from api.games.tokens import digest, new_token
from api.players.store import NameTaken, Player, PlayerStore
from api.text_policy import checked
from engine.hosted import rated_variants

NAME_MIN: Final = 3
NAME_MAX: Final = 20
KINDS: Final = ("human", "bot")
#: Player ids are ``secrets.token_urlsafe(9)``; anything else in a URL is an unknown player.
PLAYER_ID: Final = re.compile(r"[A-Za-z0-9_-]{12}")


class PlayerNotFound(NotFound):
    slug = "player-not-found"
    title = "No such player"


class NameRefused(Conflict):
    """The name is another player's (compared as :class:`~api.players.store.NameTaken` says)."""

    slug = "name-taken"
    title = "Name taken"


def check_name(raw: str) -> str:
    """The name normalised; a name breaking the rules above is a 422 on ``name``."""
    name = checked(raw, "name", NAME_MIN, NAME_MAX)
    bad = [c for c in name if not (c.isalnum() or c in " -_")]
    if bad:
        raise FieldError("name", f"a name has only letters, digits, space, - and _; not "
                                 f"{bad[0]!a}")
    return name


def create_player(store: PlayerStore, name: str, kind: str) -> tuple[Player, str]:
    """A new player and its token (shown once); :class:`~api.players.store.NameTaken`."""
    token = new_token()
    player = Player(secrets.token_urlsafe(9), check_name(name), kind, int(time.time()),
                    digest(token), {})
    try:
        store.create(player)
    except NameTaken as exc:
        raise NameRefused(str(exc)) from None
    return player, token


def player_of_token(store: PlayerStore, token: str) -> Player | None:
    """The player this token belongs to, or ``None`` (digests compared in constant time)."""
    wanted = digest(token)
    player = store.by_token(wanted)
    if player is None or not hmac.compare_digest(wanted, player.token_sha256):
        return None
    return player


def load_player(store: PlayerStore, player_id: str) -> Player:
    player = store.load(player_id) if PLAYER_ID.fullmatch(player_id) else None
    if player is None:
        raise PlayerNotFound(f"no player {player_id!r}", player_id=player_id)
    return player


def iso(seconds: float) -> str:
    """Unix seconds as UTC ISO 8601 (``2025-01-31T12:00:00Z``)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def profile(player: Player, stats: Mapping[str, tuple[int, int]] | None = None,
            ) -> dict[str, Any]:
    """What anyone may see of a player: name, kind, created, matches played and won per
    variant (``stats``, :meth:`api.players.history.HistoryStore.stats`; by default his
    hash's counts)."""
    counts = player.stats if stats is None else stats
    return {
        "player_id": player.player_id,
        "name": player.name,
        "kind": player.kind,
        "created_at": iso(player.created_at),
        "stats": {v: dict(zip(("played", "won"), counts.get(v, (0, 0)), strict=True))
                  for v in rated_variants()},
    }
