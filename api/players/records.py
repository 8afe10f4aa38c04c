"""Players and their finished matches in the archive's database (``players``,
``player_results``: :mod:`api.archive.schema`), the source of truth Redis caches.

A player's row is written once, at his creation; its unique ``name_key`` and
``skeleton_key`` make a name and its look-alikes one player's however many processes create
players at once. His results are written with the archived game
(:meth:`api.archive.store.Archive.put`); here they are read: a page of his history (newest
first, the same cursor as the Redis history's members) and his matches played and won per
variant. A database that cannot be reached raises
:class:`~api.archive.errors.ArchiveUnavailable` (a 503).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Final, TypeVar

from sqlalchemy import Connection, Engine, Select, and_, case, func, insert, or_, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from api.archive.errors import ArchiveUnavailable
from api.archive.schema import finished_games, player_results, players
from api.keys import name_digest, skeleton_digest
from api.players.service import iso
from api.players.store import INVERT, NameTaken, Player

T = TypeVar("T")

#: Columns of a ``player_results`` row that its history item repeats (not in ``entry``).
ITEM_COLUMNS: Final = ("game_id", "variant", "result", "finished_at", "record")
class PlayerRecords:
    """The players and results of the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        try:
            with self.engine.connect() as conn:
                yield conn
        except SQLAlchemyError as exc:
            raise ArchiveUnavailable(f"the archive cannot be reached ({type(exc).__name__})",
                                     retry_after=5) from exc

    def _read(self, query: Callable[[Connection], T]) -> T:
        with self._reading() as conn:
            return query(conn)

    def create(self, player: Player, skeleton_free: bool = True) -> bool:
        """Insert a player; :class:`~api.players.store.NameTaken` if his name or its
        look-alike is another's. ``skeleton_free=False`` (a player stored before the skeleton
        index, :mod:`api.admin.migrate`) inserts him without his skeleton if another holds
        it, and answers False if he is there already."""
        values = {"player_id": player.player_id, "name": player.name, "kind": player.kind,
                  "created_at": player.created_at, "token_sha256": player.token_sha256,
                  "name_key": name_digest(player.name),
                  "skeleton_key": skeleton_digest(player.name)}
        try:
            with self.engine.begin() as conn:
                if not skeleton_free:
                    if self._exists(conn, player.player_id):
                        return False
                    if conn.execute(select(players.c.player_id).where(
                            players.c.skeleton_key == values["skeleton_key"])).first():
                        values["skeleton_key"] = None
                conn.execute(insert(players).values(**values))
                return True
        except IntegrityError:
            raise NameTaken(player.name) from None
        except SQLAlchemyError as exc:
            raise ArchiveUnavailable(f"the archive cannot be reached ({type(exc).__name__})",
                                     retry_after=5) from exc

    @staticmethod
    def _exists(conn: Connection, player_id: str) -> bool:
        return conn.execute(select(players.c.player_id).where(
            players.c.player_id == player_id)).first() is not None

    def load(self, player_id: str) -> Player | None:
        """The player (his ``stats`` empty: :meth:`stats` counts them), or ``None``."""
        return self._one(players.c.player_id == player_id)

    def by_token(self, token_sha256: str) -> Player | None:
        """The player whose token has this digest, or ``None``."""
        return self._one(players.c.token_sha256 == token_sha256)

    def _one(self, where: Any) -> Player | None:
        found = self._read(lambda conn: conn.execute(select(
            players.c.player_id, players.c.name, players.c.kind, players.c.created_at,
            players.c.token_sha256).where(where)).first())
        if found is None:
            return None
        return Player(found.player_id, found.name, found.kind, found.created_at,
                      found.token_sha256, {})

    def names(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The names of those of ``player_ids`` that exist."""
        wanted = list(player_ids)
        if not wanted:
            return {}
        rows = self._read(lambda conn: conn.execute(select(players.c.player_id, players.c.name)
                                                    .where(players.c.player_id.in_(wanted))))
        return {player_id: name for player_id, name in rows}

    def _after(self, query: Select[Any], player_id: str, column: Any,
               cursor: tuple[int, str] | None, limit: int) -> Select[Any]:
        """``query`` on the player's rows after ``cursor`` (``(ms, game id)``) of ``column``
        (ms), newest first, ties by game id ordered by bytes (as Redis orders members)."""
        game = player_results.c.game_id
        if self.engine.dialect.name == "postgresql":
            game = game.collate("C")  # type: ignore[assignment]
        query = query.where(player_results.c.player_id == player_id, column.is_not(None))
        if cursor is not None:
            ms, game_id = cursor
            query = query.where(or_(column < ms, and_(column == ms, game > game_id)))
        return query.order_by(column.desc(), game).limit(limit)

    def page(self, player_id: str, cursor: tuple[int, str] | None, limit: int,
             ) -> list[tuple[str, dict[str, Any]]]:
        """Up to ``limit`` of the player's results after ``cursor`` (``(finished ms, game
        id)``), newest first (ties by game id), each as its cursor member and history item."""
        columns = select(player_results.c.finished_at, player_results.c.game_id,
                         player_results.c.variant, player_results.c.result,
                         player_results.c.entry, finished_games.c.seats,
                         finished_games.c.shared).outerjoin(
            finished_games, finished_games.c.game_id == player_results.c.game_id)
        query = self._after(columns, player_id, player_results.c.finished_at, cursor, limit)
        rows = self._read(lambda conn: list(conn.execute(query)))
        return [(member(r.finished_at, r.game_id), item_of(
            r.finished_at, r.game_id, r.variant, r.result, {**(r.shared or {}), **r.entry},
            r.seats)) for r in rows]

    def table_games(self, player_id: str, cursor: tuple[int, str] | None, limit: int,
                    ) -> list[str]:
        """Up to ``limit`` of the player's finished matches at tables after ``cursor``
        (``(start ms, game id)``), newest first, as "my games" members
        (:func:`api.players.store.game_member`)."""
        query = self._after(select(player_results.c.started_at, player_results.c.game_id),
                            player_id, player_results.c.started_at, cursor, limit)
        rows = self._read(lambda conn: list(conn.execute(query)))
        return [member(r.started_at, r.game_id) for r in rows]

    def stats(self, player_id: str, besides: Iterable[str] = ()) -> dict[str, tuple[int, int]]:
        """Per variant the player's matches played and won (aborted matches not counted),
        but those of the games ``besides`` (counted by the caller)."""
        query = select(player_results.c.variant,
                       func.sum(case((player_results.c.counted, 1), else_=0)),
                       func.sum(case((player_results.c.won, 1), else_=0))).where(
            player_results.c.player_id == player_id)
        skipped = list(besides)
        if skipped:
            query = query.where(player_results.c.game_id.not_in(skipped))
        query = query.group_by(player_results.c.variant)
        rows = self._read(lambda conn: list(conn.execute(query)))
        return {variant: (int(played), int(won)) for variant, played, won in rows if played}


    def listed(self, player_id: str, game_ids: Iterable[str]) -> set[str]:
        """Those of ``game_ids`` the player has a result of."""
        wanted = list(game_ids)
        if not wanted:
            return set()
        return self._read(lambda conn: set(conn.execute(select(player_results.c.game_id).where(
            player_results.c.player_id == player_id,
            player_results.c.game_id.in_(wanted))).scalars()))


def member(ms: int, game_id: str) -> str:
    """A list's member and cursor: ``<13-digit inverted ms>:<game_id>`` (as
    :func:`api.players.store.game_member` builds it)."""
    return f"{INVERT - ms:013d}:{game_id}"


def result_row(player_id: str, finished_ms: int, item: dict[str, Any],
               started_ms: int | None = None, archived: bool = False) -> dict[str, Any]:
    """The ``player_results`` row of a history item (what :func:`item_of` reads back);
    ``started_ms``: a table's match's start. ``archived``: the game's ``finished_games`` row
    holds its seats, so the entry keeps only each seat's player kind (``kinds``), not the
    seats again (some 220 bytes a row)."""
    entry = {k: v for k, v in item.items() if k not in ITEM_COLUMNS}
    if archived:
        entry["kinds"] = [s["player_kind"] for s in entry.pop("seats")]
    return {"player_id": player_id, "game_id": item["game_id"], "finished_at": finished_ms,
            "variant": item["variant"], "result": item["result"],
            "counted": item["result"] != "aborted", "won": item["result"] == "won",
            "started_at": started_ms, "entry": entry}


def item_of(finished_ms: int, game_id: str, variant: str, result: str,
            entry: dict[str, Any], game_seats: list[dict[str, Any]] | None,
            ) -> dict[str, Any]:
    """The history item of a ``player_results`` row (its archived game's ``seats``, if any:
    an entry with ``kinds`` has its seats there)."""
    rest = dict(entry)
    kinds = rest.pop("kinds", None)
    if kinds is not None and game_seats is not None:
        rest["seats"] = [{**seat, "player_kind": kind}
                         for seat, kind in zip(game_seats, kinds, strict=True)]
    return {"game_id": game_id, "variant": variant, "finished_at": iso(finished_ms / 1000),
            **rest, "result": result, "record": f"/v1/games/{game_id}/record"}
