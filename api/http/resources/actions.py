"""``POST /v1/games/{game_id}/actions``: a seat acts and saves
(:func:`api.games.play_move.play_move`); the computers' replies are enqueued and, by default,
waited for (:mod:`api.http.replies`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final

from flask import Response, current_app

from api.games.as_of import Mark, game_as_of
from api.games.play_move import Replayed, play_move
from api.games.service import PAUSE, game_view
from api.games.store import Game, GameStore, IdempotentWrite, MarkSlot
from api.games.tokens import digest
from api.games.turns import computers_unavailable, require_shard
from api.http import idempotency
from api.http.preconditions import IF_MATCH, check_if_match, condition
from api.http.replies import waited
from api.http.resources.blueprint import SEAT_TOKEN, Blueprint
from api.http.schemas import ActionSchema, GameViewSchema
from api.http.support import (
    bearer_token,
    checked_game_id,
    etag,
    json_response,
    seat_of,
    seated_game,
    services,
)

log = logging.getLogger(__name__)

blp = Blueprint("actions", __name__, url_prefix="/v1/games",
                description="Play: a seat's action, answered with its new view")

ACTION_EXAMPLE: Final = {"type": "play", "card": "QH"}

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
    ``game_id``, played by :func:`~api.games.play_move.play_move`; its answer, once the
    computers have replied as ``Prefer`` asks (:func:`api.http.replies.waited`; not after a
    pause). The body is loaded once the token is known to be a seat's: a 401 comes before a
    422. Without ``If-Match`` the action is tried again on a game saved meanwhile."""
    svc = services()
    game_id = checked_game_id(game_id)
    token = bearer_token(required=True)
    assert token is not None
    key = idempotency.key()
    if_match = condition(IF_MATCH)
    game = seated_game(game_id)  # loaded with the token's check, before the body
    seat = seat_of(game_id, game.meta, token)
    require_shard(svc, game)  # a move with no reply or deadline enqueued: 503, not saved
    body = load_body()
    write = None
    if key is not None:  # the fingerprint is made only when there is a record to match
        write = _idempotent_write(MarkSlot.of(game_id, key),
                                  idempotency.fingerprint(digest(token), body), seat)
    precondition = None if if_match is None else (
        lambda found: check_if_match(found.version, if_match))
    played = play_move(svc, game, seat, body, write, precondition,
                       current_app.config["SIXTYSIX_COMPUTER_WAIT"])
    if isinstance(played, Replayed):
        assert write is not None
        return _replay(svc.games, played, seat, write.fingerprint)
    if body["type"] == PAUSE:  # nobody else is to move
        return json_response(game_view(played.game, seat), 200,
                             {"ETag": etag(played.game.version)})
    answered, applied = waited(svc, played.game, played.to_move)
    return json_response(game_view(answered, seat, computers_unavailable(svc, answered)), 200,
                         {"ETag": etag(answered.version), **applied})


def _idempotent_write(slot: MarkSlot, fp: str, seat: int) -> IdempotentWrite:
    def record(saved: Game) -> dict[str, Any]:
        return idempotency.marked(fp, 200, Mark.of(saved))

    return IdempotentWrite(slot, record, current_app.config["SIXTYSIX_IDEMPOTENCY_TTL"],
                           fp)


def _replay(store: GameStore, played: Replayed, seat: int, fp: str) -> Response:
    """The replay of the action whose record ``played`` found: its view as it was right
    after its save (:func:`~api.games.as_of.game_as_of`), or, where that cannot be rebuilt
    (logged as a warning), as it is now; a record that kept its whole answer (written
    before records were marks) is answered as it is."""
    stored = idempotency.check(played.record, fp)
    if "body" in stored:
        return idempotency.replay(stored)
    shown = game_as_of(store, played.game, Mark.from_list(stored["mark"]))
    if shown is None:
        log.warning("game %s: the view of an idempotent replay was not rebuilt; answered "
                    "the view now", played.game.game_id)
        shown = store.load(played.game.game_id)
    return idempotency.replayed(game_view(shown, seat), stored["status"],
                                {"ETag": etag(shown.version)})
