"""A seated player's seat token of his table's game: minted on first fetch, never stored.

A table's game is created without seat tokens for its player seats (until a player fetches
his, his seat has none: no token authenticates as it). The first time a seated player asks
for the table (``GET /v1/tables/{id}``, or the answer of the join, create or rematch that
started the game) a new 256-bit token is minted for his seat and the game's hash gets, in
one script and only if the seat has none yet (:meth:`api.games.store.GameStore.claim_seat_token`),
its SHA-256 digest (the only form authentication needs) and a copy sealed under
:func:`api.games.tokens.sealing_key` of his player token, with the game id and seat as context.
Later fetches, from any device holding the same player token, unseal that copy; a second
first fetch racing the first gets the first one's token. The server can unseal a seat token
only while a request presents the player token: Redis never holds one readable.
"""

from __future__ import annotations

import hmac
import logging

from api.games.store import GameStore
from api.games.tokens import digest, new_token, seal, sealing_key, unseal

log = logging.getLogger(__name__)


def _context(game_id: str, seat: int) -> str:
    return f"seat-token:{game_id}:{seat}"


def seat_token(games: GameStore, game_id: str, seat: int, player_token: str) -> str | None:
    """The seat token of the player holding ``player_token`` at ``seat`` of ``game_id``,
    minted now if it has none; ``None`` if the game is gone (expired).

    The caller checks that the player sits at that seat (a table's player seat is a human
    seat of its game, in the same order).
    """
    key = sealing_key(player_token)
    context = _context(game_id, seat)
    fresh = new_token()
    stored = games.claim_seat_token(game_id, seat, digest(fresh), seal(fresh, key, context))
    if stored is None:
        return None
    sha256, sealed = stored
    try:
        token = unseal(sealed, key, context)
    except ValueError:  # not hex, or not sealed under this player's key
        token = ""
    if not hmac.compare_digest(digest(token), sha256):
        log.warning("seat %d of game %s: its sealed token does not open with this player's "
                    "token", seat, game_id)
        return None
    return token
