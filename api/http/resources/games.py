"""``POST /v1/games`` (create) and ``GET /v1/games/{game_id}`` (a seat's view, long-poll)."""

from __future__ import annotations

import logging
from contextlib import suppress
from typing import Any, Final

import redis
from flask import Response, current_app
from flask.views import MethodView

from api.games.service import (
    create_game,
    game_view,
    new_game_id,
    prepare_create,
    public_seats,
    save_created,
)
from api.games.store import (
    Game,
    GameNotFound,
    GameStore,
    OutcomeUnknown,
)
from api.games.tokens import seal, unseal
from api.games.turns import (
    clocked,
    computers_unavailable,
    enqueue_computers,
    refuse_when_busy,
    require_queue,
)
from api.http import examples, idempotency
from api.http.limits import client_address
from api.http.preconditions import IF_NONE_MATCH, condition, not_modified
from api.http.replies import replied
from api.http.resources.blueprint import OPTIONAL_SEAT_TOKEN, Blueprint
from api.http.resources.lobby_support import OPTIONAL_PLAYER_TOKEN, current_player, spectate
from api.http.schemas import CreatedGameSchema, CreateGameSchema, GameViewSchema, ViewQuerySchema
from api.http.support import (
    authenticate,
    bearer_token,
    checked_game_id,
    etag,
    json_response,
    services,
)
from api.keys import idem_key, notify_channel
from api.players.store import Player
from engine.hosted import variant_of

log = logging.getLogger(__name__)

blp = Blueprint("games", __name__, url_prefix="/v1/games",
                description="Create a game; read it as a seat or as a spectator")

#: Seconds a creation under an Idempotency-Key may run before the key is free again.
PENDING_TTL: Final = 60
#: Idempotency scope of creations (a hash tag of its own; creations have no game yet).
CREATE_SCOPE: Final = "create"

CREATE_EXAMPLE: Final = {
    "variant": "sixty-six",
    "rules": {"close_min_talon": 3},
    "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}],
    "match_points": 7,
    "settings": {"point_counter": True, "hint_66": False, "auto_continue": False},
}


def _created(game: Game, tokens: list[str | None]) -> dict[str, Any]:
    return {
        "game_id": game.game_id,
        "version": game.version,
        "variant": variant_of(game.state),
        "rated": game.meta["rated"],
        "unrated_reason": None if game.meta["rated"] else game.meta.get("unrated_reason"),
        "seats": [{**s, "token": t} for s, t in zip(public_seats(game.meta), tokens, strict=True)],
    }


def _headers(game: Game) -> dict[str, str]:
    return {"Location": f"/v1/games/{game.game_id}", "ETag": etag(game.version)}


def _create_once(store: GameStore, body: dict[str, Any], key: str, player: Player | None,
                 ) -> Response:
    """Create under an Idempotency-Key: a pending marker first (with the game's id and its
    tokens sealed under the key), then the sealed response.

    A repeat that finds the marker answers the game if it exists (the first request saved it,
    whatever it answered), else 409 ``request-in-progress``."""
    record_key = idem_key(CREATE_SCOPE, key)
    fp = idempotency.fingerprint(None if player is None else player.player_id, body)
    ttl = current_app.config["SIXTYSIX_IDEMPOTENCY_TTL"]
    new, game_id = prepare_create(body, client_address(), player), new_game_id()
    marker = idempotency.pending(fp, game_id=game_id, tokens=_sealed(new.tokens, key, game_id))
    if store.put_record(record_key, marker, PENDING_TTL, only_new=True):
        try:
            game, applied = replied(save_created(store, game_id, new))
        except OutcomeUnknown:
            raise  # the game may exist: the marker stays (a repeat finds the game, if it does)
        except BaseException:
            with suppress(redis.RedisError):  # the marker expires anyway; keep the real error
                store.delete_record(record_key)
            raise
        out = _created(game, new.tokens)
        sealed = {**out, "seats": [{**s, "token": t} for s, t in zip(
            out["seats"], _sealed(new.tokens, key, game.game_id), strict=True)]}
        try:
            store.put_record(record_key, idempotency.record(fp, 201, sealed, _headers(game)),
                             ttl, only_new=False)
        except redis.RedisError as exc:  # the game exists: its tokens are answered regardless
            log.warning("game %s created; its Idempotency-Key record not stored (%s)",
                        game.game_id, type(exc).__name__)
        return json_response(out, 201, {**_headers(game), **applied})
    stored = store.get_record(record_key)
    if stored is None:  # the marker expired between the two calls
        raise idempotency.in_progress()
    if stored.get("pending") and idempotency.matches(stored, fp):
        return _created_meanwhile(store, stored, key)
    stored = idempotency.check(stored, fp)
    body_out = stored["body"]
    stored["body"] = {**body_out, "seats": [
        {**s, "token": unseal(s["token"], key, f"{body_out['game_id']}:{s['seat']}")
         if s["token"] else None} for s in body_out["seats"]]}
    return idempotency.replay(stored)


def _sealed(tokens: list[str | None], key: str, game_id: str) -> list[str | None]:
    """Each seat's token sealed under the creation's Idempotency-Key."""
    return [seal(t, key, f"{game_id}:{seat}") if t else None for seat, t in enumerate(tokens)]


def _created_meanwhile(store: GameStore, marker: dict[str, Any], key: str) -> Response:
    """The repeat of a creation whose marker is pending: the game as it is now, with its
    tokens, if the first request saved it; else 409 ``request-in-progress``."""
    try:
        game = store.load(marker["game_id"])
    except GameNotFound:
        raise idempotency.in_progress() from None
    tokens = [unseal(t, key, f"{game.game_id}:{seat}") if t else None
              for seat, t in enumerate(marker["tokens"])]
    return json_response(_created(game, tokens), 201,
                         {**_headers(game), "Idempotent-Replayed": "true"})


@blp.route("")
class Games(MethodView):
    @blp.arguments(CreateGameSchema(), example=CREATE_EXAMPLE, required=False,
                   description="Optional: an empty body (or {}) creates a default game")
    @blp.response(201, CreatedGameSchema, example=examples.CREATED,
                  headers={"ETag": "ETag", "Location": "Location",
                           "Preference-Applied": "Preference-Applied"})
    @blp.doc(security=OPTIONAL_PLAYER_TOKEN)
    @blp.alt_response(401, response="PlayerUnauthorized")
    @blp.alt_response(403, response="TooManyGames")
    @blp.alt_response(409, response="CreateInProgress")
    @blp.alt_response(503, response="ComputersBusy")
    def post(self, body: dict[str, Any]) -> Response:
        """Create a game and deal its first hand.

        Answers each human seat's bearer token, shown only here (keep it: it is stored as a
        hash only). If a computer seat is to move first, the answer comes after its opening
        moves (played by the worker tier; ``version`` and ``ETag`` are then the game's after
        them), waiting as an action does: ``Prefer: respond-async`` answers at once,
        ``Prefer: wait=N`` waits at most N seconds (``Preference-Applied`` says so). With an
        ``Idempotency-Key`` header, repeating the same request gives the same answer, seat
        tokens included; the same key with another body is a 422. Anyone holding the key gets
        the tokens, so it is a secret like them: at least 22 characters of ``A-Z a-z 0-9 _ -``
        (a UUID, or 16 random bytes in base64url), else a 400 naming the header. A game
        created with a ``deck`` is unrated. A created game is never a 503: if the store stops
        answering while the answer waits for the computers, the answer is the game as
        created. A 503 ``outcome-unknown`` (its ``game_id`` names the game it may have
        created) is settled by repeating the request with the same key: the game with its
        tokens if it was created (``Idempotent-Replayed: true``), a 409
        ``request-in-progress`` while it is not (for at most a minute; then the key creates
        anew).

        With ``Authorization: Bearer <player token>`` the player takes the first human seat
        (named after him) and the game counts for his leaderboard points, rating, history and
        matches played, as seed 001 counts every game against the computer; hands in which he
        takes a hint excepted. It is rated only if every other seat is a computer and no
        ``deck`` is given; without a player token it never counts. ``rated`` says which, and
        ``unrated_reason`` why not. A token that is no player's is a 401.

        A game with a computer seat is refused with 503 ``computers-busy`` and
        ``Retry-After`` (nothing is created) while the computers cannot answer the games under
        way within their reply deadline even at their least work; those games keep being
        served.
        """
        player = current_player(required=False)
        svc = services()
        # without seats the variant's default: one human, the others computers
        seats = body.get("seats") or [{"kind": "computer"}]
        require_queue(svc, seats, body["settings"].get("think_time_s") is not None)
        refuse_when_busy(svc, seats)
        key = idempotency.create_key()
        if key is not None:
            return _create_once(svc.games, body, key, player)
        game, tokens = create_game(svc.games, body, client_address(), player)
        game, applied = replied(game)
        return json_response(_created(game, tokens), 201, {**_headers(game), **applied})


@blp.route("/<game_id>")
class GameResource(MethodView):
    @blp.doc(security=OPTIONAL_SEAT_TOKEN)
    @blp.arguments(ViewQuerySchema(), location="query")
    @blp.response(200, GameViewSchema, examples=examples.VIEW_EXAMPLES, headers={"ETag": "ETag"})
    @blp.alt_response(304, description="If-None-Match names the current version",
                      headers={"ETag": "ETag"})
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="GameNotFound")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """The game as a seat (``Authorization: Bearer``) or a spectator (no token) sees it.

        A spectator of a private table's game needs its invite code (``?invite_code=`` or
        ``X-Invite-Code``; a seat token is no spectator pass): without it the game is a 404.

        ``ETag`` is the version; ``If-None-Match`` with it answers 304. Long-poll: with
        ``after_version=V&wait=S`` the answer comes as soon as the version exceeds V, or after
        S seconds (at most 30) with the unchanged game. A game waiting for a computer whose
        move no worker holds or has queued (its worker died) gets the move enqueued again.
        A clock whose deadline has passed is applied first (see ``clock`` in the view).
        """
        svc = services()
        game_id = checked_game_id(game_id)
        token = bearer_token(required=False)
        if_none_match = condition(IF_NONE_MATCH)
        game = svc.games.load(game_id)
        seat = authenticate(game_id, game.meta, token) if token is not None else None
        if seat is None:
            spectate(game_id, game.meta, query.get("invite_code"))
        game = clocked(svc, game, current_app.config["SIXTYSIX_COMPUTER_WAIT"])
        enqueue_computers(svc, game, check=True)  # a move lost with its worker: enqueued again
        after = query.get("after_version")
        if after is not None and game.version <= after and query["wait"] > 0:
            wait = min(query["wait"], current_app.config["SIXTYSIX_MAX_WAIT"])
            if svc.notifier.wait(notify_channel(game_id), after, wait,
                               lambda: svc.games.version(game_id)) > game.version:
                game = svc.games.load(game_id)
        headers = {"ETag": etag(game.version), "Vary": "Authorization"}
        if not_modified(game.version, if_none_match):
            return Response(status=304, headers=headers)
        return json_response(game_view(game, seat, computers_unavailable(svc, game)), 200,
                             headers)
