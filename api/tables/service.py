"""Tables, the lobby: create, list, join, leave, view, start, rematch.

A table holds a variant, its rules, ``match_points``, ``settings`` (the game settings,
:class:`api.games.spec.GameSettings`, as :class:`api.http.schemas.TableSettingsSchema` loads them)
and its seats:
``open``, ``computer`` (with a level) or ``player``; ``rated`` (default true) says whether its
matches count for the leaderboard and ratings (:mod:`api.standings`), each match's
game within the bound of rated matches per pair of players (:mod:`api.leaderboard.pairs`;
beyond it the game is unrated and its ``unrated_reason`` says why). Its status is ``open``
(seats free), ``playing``, ``finished`` (the match is over, its ``result`` ``points``,
``resigned`` or ``aborted``; a rematch starts the next) or ``closed`` (every player left before
the start). A private table has an invite code (128-bit); without it the table does not exist
for anyone not seated at it.

Every change loads the table, checks and changes it, and saves it with a version check
(:meth:`~api.tables.store.TableStore.commit`); when another change came first nothing was
written, and the change is checked again against the new table (so two joins racing for the
last seat give one seat to each, or a 409 to the second). The change that fills the last seat
also creates the game from the table's :class:`~api.games.spec.GameSpec`, checked as
``POST /v1/games`` checks its own (computers make their opening moves), in the same atomic
step. Every player in the game gets its seat token from the table view: it is minted on his
first fetch and never stored readable (see :mod:`api.tables.seat_tokens`).
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import redis

from api.errors import Busy, Conflict, FieldError, NotFound
from api.games.rated import TABLE
from api.games.service import AfterSave, prepare_game
from api.games.spec import TOP_LEVEL_OPTIONS, GameSettings, GameSpec, SeatSpec, check_spec
from api.games.store import Game, GameNotFound, GameStore, Logged
from api.games.tokens import digest
from api.games.turns import Backends, clocked
from api.leaderboard.pairs import admit, unrated_reason
from api.players.service import iso
from api.players.store import Player, PlayerStore
from api.tables.seat_tokens import seat_token
from api.tables.store import Table, TableConflict, TableDoc, TableStore
from engine import Rules
from engine.ai import RETIRED
from engine.games import make_rules
from engine.hosted import is_over, legal_actions, players_of, status_of, variant_of

log = logging.getLogger(__name__)

#: Attempts of one change against concurrent changes before answering ``table-busy``.
RETRIES: Final = 20
INVITE_BYTES: Final = 16
OPEN, PLAYING, FINISHED, CLOSED = "open", "playing", "finished", "closed"
#: Table ids are ``secrets.token_urlsafe(9)``; anything else in a URL is an unknown table.
TABLE_ID_LENGTH: Final = 12


class TableNotFound(NotFound):
    slug = "table-not-found"
    title = "No such table"

    def __init__(self, table_id: str) -> None:
        super().__init__(f"no table {table_id!r} (unknown, expired, or private and no invite "
                         "code given)", table_id=table_id)


class TableRefused(Conflict):
    """``reason``: why the table refuses this now."""

    slug = "table-conflict"
    title = "Not possible at this table now"

    def __init__(self, reason: str) -> None:
        super().__init__(reason, reason=reason)


class TableBusy(Busy):
    slug = "table-busy"
    title = "The table kept changing; nothing was done"


class TooManyOpenTables(Conflict):
    slug = "too-many-open-tables"
    title = "You have as many open tables as allowed"


# --------------------------------------------------------------------------- create


def _game_spec(variant: str, rules: dict[str, Any], settings: Mapping[str, Any],
               table_seats: list[dict[str, Any]], names: list[str],
               first_dealer: int | None = None, top: Mapping[str, Any] | None = None,
               ) -> GameSpec:
    """The spec of a table's game; ``names`` of the player seats, ``top`` the top-level rule
    options of a create request."""
    seats = tuple(SeatSpec("computer", level=seat["level"]) if seat["kind"] == "computer"
                  else SeatSpec("human", name=name)
                  for seat, name in zip(table_seats, names, strict=True))
    top = top or {}
    return GameSpec(variant=variant, rules=rules,
                    settings=GameSettings.from_dict(settings), seats=seats,
                    match_points=top.get("match_points"), set_bummerl=top.get("set_bummerl"),
                    first_dealer=first_dealer)


def create_table(tables: TableStore, players: PlayerStore, creator: Player,
                 body: dict[str, Any], open_ttl: int, max_open: int = 0) -> Table:
    """Check the options and seats, save the table open (or start it if no seat is open).

    A table that opens counts among the creator's open tables until it starts, closes or
    expires, or he leaves it; with ``max_open`` (0: no cap) of them open, one more is a 409
    ``too-many-open-tables`` naming the cap and his open tables (nothing saved).
    """
    seats = body["seats"]
    mine = [i for i, s in enumerate(seats) if s["kind"] == "player"]
    if len(mine) != 1:
        raise FieldError("seats", "exactly one seat is the creator's own ({\"kind\": "
                                  f"\"player\"}}); got {len(mine)}")
    for i, seat in enumerate(seats):
        if seat["kind"] != "computer" and "level" in seat:
            raise FieldError(f"seats.{i}.level", "only computer seats have a level")
    draft = {"variant": body["variant"], "rules": body["rules"], "settings": body["settings"],
             "seats": [{**s, "level": s.get("level", "random")} if s["kind"] == "computer"
                       else s for s in seats]}
    top: dict[str, Any] = {k: body[k] for k in TOP_LEVEL_OPTIONS if k in body}
    check_spec(_game_spec(body["variant"], body["rules"], body["settings"],
                          draft["seats"], ["?"] * len(seats), top=top))
    now = time.time()
    table_id = secrets.token_urlsafe(9)
    doc = TableDoc(
        table_id=table_id, created_at=int(now), created_ms=int(now * 1000),
        expires_at=int(now) + open_ttl, creator=creator.player_id,
        variant=body["variant"], rules={**body["rules"], **top},
        settings=body["settings"], visibility=body["visibility"],
        rated=body.get("rated", True),
        invite_code=secrets.token_urlsafe(INVITE_BYTES)
        if body["visibility"] == "private" else None,
        status=OPEN,
        seats=[_seated(creator) if s["kind"] == "player" else s for s in draft["seats"]])
    table = Table(table_id, 0, doc)
    game = _start(tables, table) if _full(doc) else None
    held = game is None and max_open > 0
    if held:
        _hold_open(tables, creator, table_id, int(now) + open_ttl, max_open)
    try:
        saved = tables.commit(table, _ttl(doc, tables), game)
    except BaseException:
        if held:
            tables.release_open(creator.player_id, table_id)
        raise
    _after(tables, players, None, saved)
    return saved


def _holds_open(table: Table | None, player_id: str) -> bool:
    """Whether ``table`` counts among ``player_id``'s open tables: open, created by him, and
    he still sits at it."""
    if table is None:
        return False
    doc = table.doc
    return (doc.status == OPEN and doc.creator == player_id
            and any(s.get("player_id") == player_id for s in doc.seats))


def _hold_open(tables: TableStore, creator: Player, table_id: str, expires_at: int,
               cap: int) -> None:
    """Count the new table among the creator's open ones, or refuse it (see create_table).

    Before a refusal, a listed table that has moved on (started, closed, left) is dropped
    from the count. A listed table not found is still counted: it is being created (its
    place is taken before it is saved), or it expired, which its score says soon.
    """
    held = tables.hold_open(creator.player_id, table_id, expires_at, cap)
    if not held:
        return
    gone = [t for t in held if (found := tables.load(t)) is not None
            and not _holds_open(found, creator.player_id)]
    if gone:
        tables.release_open(creator.player_id, *gone)
        held = tables.hold_open(creator.player_id, table_id, expires_at, cap)
        if not held:
            return
    raise TooManyOpenTables(
        f"you have {len(held)} open table{'s' if len(held) != 1 else ''}, the most allowed "
        f"(max_open_tables {cap}): free one by leaving it (POST /v1/tables/{{table_id}}/leave; "
        "a table nobody is left at closes), or wait until one fills and starts or expires",
        max_open_tables=cap, open_tables=sorted(held))


def _seated(player: Player) -> dict[str, Any]:
    return {"kind": "player", "player_id": player.player_id, "name": player.name,
            "bot": player.kind == "bot"}


def _full(doc: TableDoc) -> bool:
    return all(s["kind"] != "open" for s in doc.seats)


def _ttl(doc: TableDoc, tables: TableStore) -> int:
    if doc.status == OPEN and doc.expires_at is not None:  # an open table expires
        return max(1, doc.expires_at - int(time.time()))
    return tables.game_ttl


def _start(tables: TableStore, table: Table, first_dealer: int | None = None) -> Game:
    """Create the table's next game (not saved: :meth:`TableStore.commit` saves it); at a rated
    table it is rated unless a pair of its players is at its bound (:mod:`api.leaderboard.pairs`),
    and then says why."""
    doc = table.doc
    players = [s.get("player_id") for s in doc.seats]
    started_ms = int(time.time() * 1000)
    game_id = f"{table.table_id}.{len(doc.games) + 1}"
    invite = doc.invite_code
    rated = doc.rated
    reason: str | None = TABLE
    if rated:
        rated = admit(tables.redis, game_id, players)
        reason = None if rated else unrated_reason()
    # a level no longer offered (a table opened before) plays as the one engine.ai.RETIRED names
    seats = [{**s, "level": RETIRED.get(s["level"], s["level"])} if s["kind"] == "computer"
             else s for s in doc.seats]
    new = prepare_game(
        _game_spec(doc.variant, doc.rules, doc.settings, seats,
                   [s.get("name", "") for s in doc.seats], first_dealer),
        {"table": {"table_id": table.table_id, "private": doc.visibility == "private",
                   "invite_sha256": digest(invite) if invite else None, "players": players,
                   "started_ms": started_ms},
         "rated": rated, "unrated_reason": reason}, seat_tokens=False)
    doc.status, doc.game_id, doc.started_ms = PLAYING, game_id, started_ms
    doc.rematch, doc.expires_at, doc.result = [], None, None
    doc.games.append(game_id)
    return Game(game_id, 1, new.state, new.meta, len(new.events),
                [Logged(i, e) for i, e in enumerate(new.events, 1)])


def _after(tables: TableStore, players: PlayerStore, before: str | None, table: Table
           ) -> None:
    """Keep the lobby's index and the players' lists up to date after a change (idempotent
    steps outside the table's slot: a failure is logged, the change stands)."""
    doc = table.doc
    try:
        if before == OPEN and not _holds_open(table, doc.creator):
            tables.release_open(doc.creator, table.table_id)
        if doc.visibility == "public" and before != doc.status:
            if before is not None:
                tables.unindex(table.table_id, doc.created_ms, before, doc.variant)
            if doc.status in (OPEN, PLAYING):
                tables.index(table.table_id, doc.created_ms, doc.status, doc.variant)
        if before == FINISHED == doc.status and tables.archived is not None and doc.game_id:
            tables.note_finished(doc.game_id)  # its doc in the database is behind now
        if doc.status == PLAYING and doc.game_id is not None and doc.started_ms is not None:
            for seat in doc.seats:
                if seat["kind"] == "player":
                    players.add_game(seat["player_id"], doc.started_ms, doc.game_id)
    except redis.RedisError as exc:
        log.warning("table %s changed; index not updated: %s", table.table_id,
                    type(exc).__name__)


# --------------------------------------------------------------------------- changes


def visible(table: Table | None, table_id: str, player: Player | None,
            invite: str | None) -> Table:
    """The table if the caller may see it: public, or seated, or with the invite code."""
    if table is None:
        raise TableNotFound(table_id)
    doc = table.doc
    if doc.visibility == "private" and _seat_of(doc, player) is None and not (
            invite is not None and doc.invite_code is not None
            and hmac.compare_digest(invite.encode(), doc.invite_code.encode())):
        raise TableNotFound(table_id)
    return table


def _seat_of(doc: TableDoc, player: Player | None) -> int | None:
    if player is None:
        return None
    return next((i for i, s in enumerate(doc.seats)
                 if s.get("player_id") == player.player_id), None)


def load_table(tables: TableStore, table_id: str) -> Table | None:
    return tables.load(table_id) if len(table_id) == TABLE_ID_LENGTH else None


def _change(tables: TableStore, players: PlayerStore, table_id: str, player: Player,
            invite: str | None, change: Callable[[Table], Game | None]) -> Table:
    """Apply ``change`` to the fresh table and commit it, again if another change came first."""
    for _ in range(RETRIES):
        table = visible(load_table(tables, table_id), table_id, player, invite)
        before = table.doc.status
        game = change(table)
        try:
            saved = tables.commit(table, _ttl(table.doc, tables), game)
        except TableConflict:
            continue
        _after(tables, players, before, saved)
        return saved
    raise TableBusy(f"table {table_id!r} changed {RETRIES} times meanwhile; nothing was "
                    "changed: try again")


def join(tables: TableStore, players: PlayerStore, player: Player, table_id: str,
         seat: int | None, invite: str | None) -> Table:
    """Take ``seat`` (or the first open one); the game starts when the last seat is taken."""
    def change(table: Table) -> Game | None:
        doc = table.doc
        if _seat_of(doc, player) is not None:
            raise TableRefused("you already have a seat at this table")
        if doc.status != OPEN:
            raise TableRefused(f"the table is {doc.status}, not open")
        free = [i for i, s in enumerate(doc.seats) if s["kind"] == "open"]
        if seat is None:
            if not free:
                raise TableRefused("every seat is taken")
            taken = free[0]
        elif not 0 <= seat < len(doc.seats):
            raise FieldError("seat", f"this table has seats 0..{len(doc.seats) - 1}")
        elif seat not in free:
            raise TableRefused(f"seat {seat} is taken")
        else:
            taken = seat
        doc.seats[taken] = _seated(player)
        return _start(tables, table) if _full(doc) else None

    return _change(tables, players, table_id, player, invite, change)


def leave(tables: TableStore, players: PlayerStore, player: Player, table_id: str) -> Table:
    """Free the player's seat before the start; the table closes when no player is left."""
    def change(table: Table) -> None:
        doc = table.doc
        seat = _seat_of(doc, player)
        if seat is None:
            raise TableRefused("you have no seat at this table")
        if doc.status != OPEN:
            raise TableRefused(f"the table is {doc.status}: a seat can be left only before "
                            "the start")
        doc.seats[seat] = {"kind": "open"}
        if not any(s["kind"] == "player" for s in doc.seats):
            doc.status = CLOSED

    return _change(tables, players, table_id, player, None, change)


def rematch(tables: TableStore, players: PlayerStore, games: GameStore, player: Player,
            table_id: str, after_save: AfterSave) -> Table:
    """Ask for a rematch; when every player has asked, the next match starts at once, its
    first dealer the seat after the last dealer of the previous match (a finished match not
    yet recorded passes through ``after_save`` first)."""
    table = load_table(tables, table_id)
    if table is not None:
        finish_if_over(games, table, after_save)

    def change(table: Table) -> Game | None:
        doc = table.doc
        seat = _seat_of(doc, player)
        if seat is None:
            raise TableRefused("only a seated player can ask for a rematch")
        if doc.status != FINISHED:
            raise TableRefused(f"the table is {doc.status}: a rematch follows a finished match")
        if seat not in doc.rematch:
            doc.rematch.append(seat)
        humans = {i for i, s in enumerate(doc.seats) if s["kind"] == "player"}
        if not humans <= set(doc.rematch):
            return None
        assert doc.game_id is not None  # a finished table played its game
        last = games.load(doc.game_id).state
        return _start(tables, table, (last.dealer + 1) % players_of(variant_of(last)))

    return _change(tables, players, table_id, player, None, change)


def finish_if_over(games: GameStore, table: Table, after_save: AfterSave) -> bool:
    """Run ``after_save`` (the pipeline after a save: standings, the table's result) for the
    current game if it is over (won, resigned or aborted) and the table does not know yet;
    whether it did."""
    if table.doc.status != PLAYING or table.doc.game_id is None:
        return False
    try:
        game = games.load(table.doc.game_id)
    except GameNotFound:
        return False
    if not is_over(game.state):
        return False
    after_save(game)
    return True


# --------------------------------------------------------------------------- views


def public_seats(doc: TableDoc) -> list[dict[str, Any]]:
    out = []
    for i, seat in enumerate(doc.seats):
        item: dict[str, Any] = {"seat": i, "kind": seat["kind"]}
        if seat["kind"] == "player":
            item.update(player_id=seat["player_id"], name=seat["name"], bot=seat["bot"])
        elif seat["kind"] == "computer":
            item.update(level=seat["level"], name=f"Computer ({seat['level']})")
        out.append(item)
    return out


def summary(table: Table) -> dict[str, Any]:
    """A table as the lobby lists it (no secret: neither tokens nor the invite code)."""
    doc = table.doc
    rules = make_rules(doc.variant, doc.rules)
    return {
        "table_id": table.table_id,
        "version": table.version,
        "variant": doc.variant,
        "rules": rules.options(),
        "match_points": rules.match_points if isinstance(rules, Rules) else None,
        "settings": doc.settings,
        "visibility": doc.visibility,
        "rated": doc.rated,
        "status": doc.status,
        "seats": public_seats(doc),
        "open_seats": sum(s["kind"] == "open" for s in doc.seats),
        "created_at": iso(doc.created_at),
        "expires_at": iso(doc.expires_at) if doc.expires_at else None,
        "game_id": doc.game_id,
        "result": doc.result,
    }


def your_seat_token(games: GameStore, table: Table, player: Player | None,
                    player_token: str | None) -> str | None:
    """The seat token of ``player`` (who presented ``player_token``) in the table's current
    game, minted on his first fetch (:func:`api.tables.seat_tokens.seat_token`); ``None``
    if he has no seat, no game has started, or it expired."""
    seat = _seat_of(table.doc, player)
    game_id = table.doc.game_id
    if seat is None or game_id is None or player_token is None:
        return None
    return seat_token(games, game_id, seat, player_token)


def table_view(table: Table, player: Player | None, spectators: int,
               token: str | None = None) -> dict[str, Any]:
    """The table for its caller: to a seated player also his seat, game id and seat token
    (``token``, from :func:`your_seat_token`), and at a private table the invite code (to
    pass on)."""
    doc = table.doc
    seat = _seat_of(doc, player)
    you = None
    if seat is not None:
        you = {"seat": seat, "game_id": doc.game_id, "token": token}
    return {
        **summary(table),
        "games": list(doc.games),
        "rematch": list(doc.rematch),
        "spectators": spectators,
        "you": you,
        "invite_code": doc.invite_code if seat is not None else None,
    }


def listing(tables: TableStore, status: str, variant: str | None, cursor: str | None,
            limit: int, open_ttl: int) -> tuple[list[dict[str, Any]], str | None]:
    """A page of public tables of ``status``, newest first, and the cursor of the next page
    (``None`` at the end). A page may hold fewer than ``limit`` tables: members of tables
    that expired or moved on are dropped from the index as they are met."""
    cutoff = int((time.time() - open_ttl) * 1000) if status == OPEN else None
    rows = tables.listed(status, variant, cursor, limit, older_than_ms=cutoff)
    out = []
    for member, table in rows:
        if table is None or table.doc.status != status:
            tables.drop_listed(status, variant or (table.doc.variant if table else ""),
                               member)
            continue
        out.append(summary(table))
    return out, rows[-1][0] if len(rows) == limit else None


def my_games(games: GameStore, players: PlayerStore, player: Player, status: str,
             cursor: str | None, limit: int, clocked: Callable[[Game], Game],
             after_save: AfterSave) -> tuple[list[dict[str, Any]], str | None]:
    """A page of the player's games (``active`` or ``finished``), newest first; each game
    passes through ``clocked`` first, which applies a deadline that has passed (as every
    request touching a game does), so the listed turn is the one a view would show; a
    finished game still listed as active passes through ``after_save`` (its result not yet
    recorded)."""
    members = players.games(player.player_id, status, cursor, limit)
    out = []
    for member in members:
        game_id = member.partition(":")[2]
        try:
            game = games.load(game_id)
        except GameNotFound:  # expired
            players.forget_game(player.player_id, status, member)
            continue
        game = clocked(game)
        if status == "active" and is_over(game.state):
            after_save(game)  # a result not yet recorded
        out.append(game_item(game, player))
    return out, members[-1] if len(members) == limit else None


def game_item(game: Game, player: Player) -> dict[str, Any]:
    info = game.meta["table"]
    seat = info["players"].index(player.player_id)
    state = game.state
    return {
        "game_id": game.game_id,
        "table_id": info["table_id"],
        "variant": variant_of(state),
        "status": status_of(state),
        "seat": seat,
        "opponents": [{"seat": i, "name": s["name"], "kind": s["kind"]}
                      for i, s in enumerate(game.meta["seats"]) if i != seat],
        "to_act": [i for i in range(players_of(variant_of(state))) if legal_actions(state, i)],
        "your_turn": bool(legal_actions(state, seat)),
        "started_at": iso(info["started_ms"] / 1000),
        "version": game.version,
    }


def clocked_table(svc: Backends, table: Table) -> None:
    """For a request on a table (its view or stream): apply the clock of the game it is
    playing as :func:`clocked` does, without waiting; nothing if none, or it is gone."""
    game_id = table.doc.game_id
    if table.doc.status != PLAYING or not game_id:
        return
    try:
        game = svc.games.load(game_id)
    except GameNotFound:
        return
    clocked(svc, game, 0)
