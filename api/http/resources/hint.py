"""``POST /v1/games/{game_id}/hint``: the strong computer's advice to a seat; the hand is then
marked as hinted (docs/rules.md §7, §9: it does not count for the leaderboard).

The mark is kept in the game's meta as ``hinted_hands`` (``[{"seat", "hand_no", "match_no"}]``,
shown in every view; in Tausendeins ``hand_no`` is the deal's number and ``match_no`` 1) and
saved with the same version compare-and-set as an action: if the game changed while the
computer thought, nothing is saved and the answer is a 409 version-conflict. Tausendeins is
advised like the family: its strong computer ranks the candidates on the worker tier.
"""

from __future__ import annotations

import time
from typing import Any, Final

from flask import Response, current_app
from flask.views import MethodView

from api.games.advice import HINT_LEVEL, adviser_of
from api.games.meta import HintedHand
from api.games.store import Game, GameStore
from api.games.turns import clocked
from api.http.errors import Problem, ProblemType
from api.http.remote_advice import advise_on_worker
from api.http.resources.blueprint import SEAT_TOKEN, Blueprint
from api.http.schemas.ai import HintQuerySchema, HintSchema
from api.http.support import (
    authenticate,
    bearer_token,
    checked_game_id,
    etag,
    json_response,
    seated_game,
    services,
)
from api.live import clock
from engine import PLAYING
from engine.hosted import HostedState, game_of, hand_no_of, legal_actions, status_of, view

blp = Blueprint("hint", __name__, url_prefix="/v1/games",
                description="Ask the strong computer for advice (the hand then counts as hinted)")

NO_DECISION: Final = ProblemType("no-decision", 409, "The seat has no decision to make now")

#: A hint at a table with hint_66 off (``would_declare_66`` is then left out).
HINT_EXAMPLE: Final = {
    "game_id": "q3V9k2xR0aLmT7wZ", "version": 5, "seat": 0, "hand_no": 1, "level": "strong",
    "best": {"type": "play", "card": "TS"},
    "actions": [
        {"action": {"type": "play", "card": "TS"}, "text": "play:TS",
         "expected_game_points": 0.84},
        {"action": {"type": "play", "card": "QC"}, "text": "play:QC",
         "expected_game_points": 0.61}],
    "samples": 120,
    "reason": "play:TS is worth +0.84 game points on average over 120 sampled deals; next "
              "best play:QC +0.61",
}


def hinted_mark(state: HostedState, seat: int) -> HintedHand:
    """The mark of ``seat``'s current hand: its game's hand and match numbers
    (:meth:`~engine.plugin.Game.hand_mark`; ``match_no`` 1 in a game of one match)."""
    hand_no, match_no = game_of(state).hand_mark(state)
    return {"seat": seat, "hand_no": hand_no, "match_no": match_no}


def mark_hinted(store: GameStore, game: Game, seat: int) -> Game:
    """Save the game with the current hand marked as hinted for ``seat`` (once per hand;
    the mark is :func:`hinted_mark`'s)."""
    mark = hinted_mark(game.state, seat)
    hinted = game.meta.setdefault("hinted_hands", [])
    if mark in hinted:
        return game
    hinted.append(mark)
    return store.save(game, [], write_meta=True)


@blp.route("/<game_id>/hint")
class Hint(MethodView):
    @blp.doc(security=SEAT_TOKEN)
    @blp.arguments(HintQuerySchema, location="query")
    @blp.response(200, HintSchema, example=HINT_EXAMPLE, headers={"ETag": "ETag"})
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="GameNotFound")
    @blp.alt_response(409, response="HintConflict")
    @blp.alt_response(503, response="AdviceUnavailable")
    def post(self, query: dict[str, Any], game_id: str) -> Response:
        """The strong computer's recommended action, each action's value and a reason.

        Answers the recommended action for the seat, the expected game points of every
        legal action and a one-line reason. In Tausendeins the actions ranked are the
        candidates of its strong computer (discards cut to its 8 cheapest pairs, bids and
        raises to the two lowest) and ``expected_game_points`` is the mean deal margin in
        points (the seat's change of total minus the other's); ``budget_ms`` does not apply
        there (the level's own work bounds do). The hand is then marked as hinted for the seat
        (``hinted_hands`` in the view): it will not count for the leaderboard.
        ``would_declare_66`` (and a declaration among the ranked actions) appears only at
        tables with the ``hint_66`` setting on. ``budget_ms`` bounds the thinking time.
        The computer thinks on the worker tier, with the queue bound and the 503s of
        ``POST /v1/analysis`` (then nothing is marked). At a table with a clock a deadline
        that has passed is applied first (then the seat may have no decision: a 409).
        """
        svc = services()
        store = svc.games
        game_id = checked_game_id(game_id)
        token = bearer_token(required=True)
        assert token is not None
        game = seated_game(game_id)  # loaded with the token's check, before the query
        seat = authenticate(game_id, game.meta, token)
        game = clocked(svc, game, current_app.config["SIXTYSIX_COMPUTER_WAIT"])
        if clock.due(game.meta, time.time()):  # the clock's move for the seat is still due
            raise Problem(NO_DECISION, "the time to move ran out: the clock's move is being "
                          "made; read the view")
        state = game.state
        if status_of(state) != PLAYING or not legal_actions(state, seat):
            raise Problem(NO_DECISION, f"seat {seat} has no card to play or action to take "
                          "now; ask when it is your turn")
        hint_66 = bool(game_of(state).settings_of(state).get("hint_66"))
        position = view(state, seat)
        adviser_of(position)  # a game without advice: a 422 before the worker is asked
        advice = advise_on_worker(position, HINT_LEVEL, query.get("budget_ms"),
                                  None, reveal_declare=hint_66)
        saved = mark_hinted(store, game, seat)
        out = {"game_id": game_id, "version": saved.version, "seat": seat,
               "hand_no": hand_no_of(saved.state), **advice}
        return json_response(out, 200, {"ETag": etag(saved.version)})
