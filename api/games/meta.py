"""A game's meta: what the service keeps beside the engine's state in the game's hash (the
``meta`` field, as JSON with these names; see :mod:`api.games.store`).

Typed dicts, not classes, because the meta is the stored JSON itself: it is loaded and saved
as is, and a field this version does not know survives a save. A ``NotRequired`` field is
absent from a game that does not have it (a game of no table has no ``table``).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class MetaSeat(TypedDict):
    """A seat: ``kind`` ``human`` or ``computer``; ``level`` ``None`` for a human;
    ``token_sha256`` the digest of its seat token (``None``: none yet, or a computer)."""

    kind: str
    name: str
    level: str | None
    token_sha256: str | None


class Owner(TypedDict):
    """The address a game counts against (its set, :func:`api.keys.owner_key`) and until
    when (Unix seconds; set by :meth:`api.games.store.GameStore.create`)."""

    key: str
    until: NotRequired[int]


class TableInfo(TypedDict):
    """A table's game: its table, who sits where (player ids, ``None`` for a computer)."""

    table_id: str
    private: bool
    invite_sha256: str | None
    players: list[str | None]
    started_ms: int


class TourInfo(TypedDict):
    """A tour station's game."""

    station: str
    player_id: str
    players: list[str | None]
    started_ms: int


class PlayerInfo(TypedDict):
    """A game created with a player token: its player's seat."""

    player_id: str
    players: list[str | None]
    started_ms: int


class HintedHand(TypedDict):
    """A hand a seat asked a hint in (``match_no`` absent in marks older than match
    numbers)."""

    seat: int
    hand_no: int
    match_no: NotRequired[int]


class ExtraMeta(TypedDict, total=False):
    """What a game's maker adds to (or changes in) the meta
    :func:`api.games.service.prepare_game` makes."""

    owner: Owner | None
    table: TableInfo
    tour: TourInfo
    player: PlayerInfo
    rated: bool
    unrated_reason: str | None
    hinted_hands: list[HintedHand]


class GameMeta(TypedDict):
    seats: list[MetaSeat]
    auto_continue: bool
    #: The clock's state (:mod:`api.live.clock`); ``None`` (or absent, in an older game): no
    #: clock.
    clock: NotRequired[dict[str, Any] | None]
    rated: bool
    unrated_reason: NotRequired[str | None]
    #: Unix seconds.
    created_at: NotRequired[int]
    #: ``None`` once the game stopped counting against its address.
    owner: NotRequired[Owner | None]
    table: NotRequired[TableInfo]
    tour: NotRequired[TourInfo]
    player: NotRequired[PlayerInfo]
    hinted_hands: NotRequired[list[HintedHand]]
