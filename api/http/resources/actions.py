"""``POST /v1/games/{game_id}/actions``: a seat acts and saves; the computers' replies are
enqueued and, by default, waited for (:mod:`api.games.replies`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any, Final

import redis
from flask import Response, current_app

from api.games.replies import (
    clocked,
    computers_unavailable,
    enqueue_computers,
    replied,
    require_queue,
)
from api.games.service import PAUSE, act, game_view, parse_action, pause
from api.games.store import Game, GameStore, IdempotentWrite, VersionConflict
from api.games.tokens import digest
from api.http import idempotency
from api.http.preconditions import IF_MATCH, Condition, check_if_match, condition
from api.http.resources.blueprint import SEAT_TOKEN, Blueprint
from api.http.schemas import ActionSchema, GameViewSchema
from api.http.support import (
    Services,
    bearer_token,
    checked_game_id,
    etag,
    json_response,
    seat_of,
    services,
)
from api.keys import idem_key
from api.live.presence import Seen

blp = Blueprint("actions", __name__, url_prefix="/v1/games",
                description="Play: a seat's action, answered with its new view")

ACTION_EXAMPLE: Final = {"type": "play", "card": "QH"}
#: Attempts of an action without ``If-Match`` against saves made meanwhile (a computer's move).
CONFLICT_ATTEMPTS: Final = 5



#: The body's schema, for the documentation and for :func:`actions`.
ACTION_SCHEMA: Final = ActionSchema()


@blp.doc(security=SEAT_TOKEN)
@blp.arguments(ACTION_SCHEMA, example=ACTION_EXAMPLE)
@blp.response(200, GameViewSchema, headers={"ETag": "ETag",
                                             "Preference-Applied": "Preference-Applied"})
@blp.alt_response(401, response="Unauthorized")
@blp.alt_response(404, response="GameNotFound")
@blp.alt_response(409, response="ActionConflict")
@blp.alt_response(412, response="StaleVersion")
def _documented(body: dict[str, Any], game_id: str) -> Response:
    """Apply the seat's action and save; then answer the view after the computers' replies.

    The computers' replies are computed by the worker tier: by default the answer waits
    for them (at most ``SIXTYSIX_COMPUTER_WAIT`` seconds, 10) and shows the view once a
    human must act again, its ``events`` those of this action and of the replies.
    ``Prefer: respond-async`` answers at once with the view after this action (a
    computer seat in ``to_act``; long-poll the view for its move) and
    ``Preference-Applied: respond-async``; ``Prefer: wait=N`` waits at most N seconds
    (at most ``SIXTYSIX_MAX_WAIT``). ``If-Match`` with the version the client saw makes a
    stale action a 412 instead of applying it to a changed game. With an
    ``Idempotency-Key`` a repeated request replays the first answer as it was right after
    the action (before the replies) and is never applied twice: send one with every
    action (a fresh random key per action, the same on its retries). A 503
    ``store-unavailable`` (with ``Retry-After``) means nothing was applied: retry. A 503
    ``outcome-unknown`` (no ``Retry-After``) says the store did not confirm the save: the
    action may have been applied; repeat the request with the same key (answered from the
    first, or applied once), or reload the view (its ``version`` tells). A save the store
    confirmed is never a 503: if the store stops answering while the answer waits for the
    replies, the answer is the view right after the action, as when the wait reaches its
    bound.
    Without ``If-Match`` the action applies to the game as it is when it is saved: if another
    save came first (a computer's move), it is checked again on the new game and applied if
    still allowed; a 409 ``version-conflict`` then means the game kept changing.

    Besides the ``legal_actions`` of the view, ``{"type": "resign"}`` is always accepted
    from a seat until the game is over (the other side wins; ``match.result_reason`` is
    ``resigned``), and ``{"type": "abort"}`` while another human seat has not made its
    first move (no result; the status becomes ``aborted``). Refused: 409 with the reason.

    At a table with a clock (``settings.think_time_s``), a deadline that has passed is
    applied first (the view's ``clock`` shows it), so an action after it may be a 409;
    ``{"type": "pause"}`` holds a finished hand's settlement open 60 s longer, once per
    hand and seat, before the seat continues (``clock.can_pause``).
    """
    return act_on(lambda: body, game_id)


@blp.route("/<game_id>/actions", endpoint="Actions", methods=["POST"])
@blp.documented_as(_documented)
def actions(game_id: str) -> Response:
    """The operation ``_documented`` documents, served without flask-smorest's and webargs'
    wrappers (see :meth:`~api.http.resources.blueprint.Blueprint.documented_as`)."""
    return act_on(lambda: blp.json_body(ACTION_SCHEMA), game_id)


def act_on(load_body: Callable[[], dict[str, Any]], game_id: str) -> Response:
    """The seat's action (the body ``load_body`` loads by :data:`ACTION_SCHEMA`) on game
    ``game_id``. The body is loaded once the token is known to be a seat's: a 401 comes
    before a 422.

    The seat is seen now (:mod:`api.live.presence`): its save writes that in the same script;
    an action refused or replayed, which saves nothing, writes it on its own. Without
    ``If-Match``, a save that came first is no reason to refuse: the action is tried again on
    the reloaded game (at most :data:`CONFLICT_ATTEMPTS` times; nothing was applied before).
    """
    svc = services()
    store = svc.store
    game_id = checked_game_id(game_id)
    token = bearer_token(required=True)
    assert token is not None
    key = idempotency.key()
    if_match = condition(IF_MATCH)
    game = store.load(game_id)
    seat = seat_of(game_id, game.meta, token)
    body = load_body()
    seen = store.presence.due(game_id, seat)
    try:
        for _ in range(CONFLICT_ATTEMPTS - 1):
            try:
                return _act_on(svc, body, game, seat, token, key, if_match, seen)
            except VersionConflict:
                if if_match is not None:
                    raise
            game = store.load(game_id)  # saved meanwhile: the action on the new game
        return _act_on(svc, body, game, seat, token, key, if_match, seen)
    finally:
        if seen is not None and not seen.carried:
            with suppress(redis.RedisError):  # never in place of the action's own error
                store.presence.write(game_id, seen)


def _act_on(svc: Services, body: dict[str, Any], game: Game, seat: int, token: str,
            key: str | None, if_match: Condition | None, seen: Seen | None) -> Response:
    store = svc.store
    write = None
    if key is not None:  # the fingerprint is made only when there is a record to match
        write = _idempotent_write(idem_key(game.game_id, key),
                                  idempotency.fingerprint(digest(token), body), seat)
        # after the load: a record saved with that version or an earlier one is seen here
        if (replayed := _replay(store, write)) is not None:
            return replayed
    game = clocked(svc, game, current_app.config["SIXTYSIX_COMPUTER_WAIT"])
    check_if_match(game.version, if_match)
    require_queue(svc, game.meta["seats"], game.meta.get("clock") is not None)
    try:
        if body["type"] == PAUSE:
            saved = pause(store, game, seat, write, seen)
        else:
            saved = act(store, game, seat, parse_action(body), write, seen=seen)
    except VersionConflict:
        if write is not None and (replayed := _replay(store, write)) is not None:
            return replayed
        raise
    if body["type"] == PAUSE:  # the new deadline's job; nobody else is to move
        enqueue_computers(svc, saved)
        return json_response(game_view(saved, seat), 200, {"ETag": etag(saved.version)})
    answered, applied = replied(saved, svc)
    return json_response(game_view(answered, seat, computers_unavailable(svc, answered)), 200,
                         {"ETag": etag(answered.version), **applied})


def _idempotent_write(record_key: str, fp: str, seat: int) -> IdempotentWrite:
    def record(saved: Game) -> dict[str, Any]:
        return idempotency.record(fp, 200, game_view(saved, seat), {"ETag": etag(saved.version)})

    return IdempotentWrite(record_key, record, current_app.config["SIXTYSIX_IDEMPOTENCY_TTL"],
                           fp)


def _replay(store: GameStore, write: IdempotentWrite) -> Response | None:
    """The stored answer of this key, if any (a 422 problem if it was another request's)."""
    stored = store.get_record(write.key)
    if stored is None:
        return None
    return idempotency.replay(idempotency.check(stored, write.fingerprint))
