"""``POST /v1/analysis``: rank the legal actions of any pasted position (no game needed)."""

from __future__ import annotations

from typing import Any, Final

from flask.views import MethodView

from api.games.advice import check_position, position_of_record
from api.http.examples import RULES
from api.http.remote_advice import advise_on_worker
from api.http.resources.blueprint import Blueprint
from api.http.schemas.ai import AnalysisRequestSchema, AnalysisSchema

blp = Blueprint("analysis", __name__, url_prefix="/v1/analysis",
                description="The computer's ranking of every legal action of a position")

#: A seat's view as GET /v1/games/{id} answers it (forehand to lead the first trick).
POSITION_EXAMPLE: Final = {
    "seat": 0, "variant": "sixty-six",
    "rules": RULES,
    "status": "playing", "hand_no": 1, "dealer": 1, "forehand": 0, "to_act": 0,
    "hand": ["AC", "TC", "KC", "KS", "QS", "9H"], "hand_sizes": [6, 6], "trump_suit": "H",
    "trump_card": "AH", "turned_card": "AH", "talon_size": 12, "closed_by": None,
    "closed_after_tricks": None, "phase": 1, "leader": 0, "trick": [], "last_trick": None,
    "tricks": [], "known_cards": {}, "melds": [],
    "legal_actions": [{"type": "play", "card": c} for c in ("AC", "TC", "KC", "KS", "QS", "9H")]
    + [{"type": "meld", "suit": "S"}, {"type": "exchange"}, {"type": "close"}],
    "budget_ms": 300,
}

#: An answer to :data:`POSITION_EXAMPLE` (actions shortened to the best three).
ANALYSIS_EXAMPLE: Final = {
    "level": "strong", "best": {"type": "meld", "suit": "S"},
    "actions": [
        {"action": {"type": "meld", "suit": "S"}, "text": "meld:S",
         "expected_game_points": 1.083},
        {"action": {"type": "exchange"}, "text": "exchange", "expected_game_points": 1.0},
        {"action": {"type": "play", "card": "TC"}, "text": "play:TC",
         "expected_game_points": 0.5}],
    "samples": 12,
    "reason": "meld:S is worth +1.08 game points on average over 12 sampled deals; next best "
              "exchange +1.00",
    "would_declare_66": False,
}


@blp.route("")
class Analysis(MethodView):
    @blp.arguments(AnalysisRequestSchema, example=POSITION_EXAMPLE)
    @blp.response(200, AnalysisSchema, example=ANALYSIS_EXAMPLE)
    @blp.alt_response(503, response="AdviceUnavailable")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Rank every legal action of a position by the computer's expected game points.

        The body is a seat's view of a hand in play — paste what ``GET /v1/games/{game_id}``
        answers for a seat; members not needed are ignored — plus optional ``budget_ms``,
        ``samples`` and ``level`` (default strong). The computer samples deals of the cards
        the seat cannot see, consistent with what it knows, and plays every action out in
        each. A malformed or inconsistent position (unknown or repeated card, wrong hand size,
        not the seat's turn, legal actions that differ from the rules) is a 422 naming it.

        Instead of a view the body may give ``record_text``, the text form of a record up to
        the position (``variant=...`` line, then per hand ``dealer=N deck=... | seat:action
        ...``, as ``GET /v1/games/{game_id}/record?format=text`` answers it, with the deck),
        and ``seat``: the record is replayed through the engine and that seat's view of the
        position reached is analysed as above (only what the seat can see is used).

        A Tausendeins seat's view (``variant`` tausendeins) is ranked as its hint is: the
        level's candidates by their mean deal margin in points over sampled deals (the level's
        own work bounds; ``budget_ms`` and ``samples`` do not apply). Each malformed member is
        a 422 naming it; a Tausendeins ``record_text`` is a 422 (its records have no text
        form).
        """
        knobs = {k: body.pop(k, None) for k in ("budget_ms", "samples", "level")}
        if "record_text" in body:
            position = position_of_record(body["record_text"], body.get("seat"))
        else:
            position = check_position(body)
        return advise_on_worker(position, knobs["level"], knobs["budget_ms"], knobs["samples"],
                                reveal_declare=True)
