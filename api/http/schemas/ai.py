"""Schemas of the computer's advice: ``POST /v1/games/{id}/hint`` and ``POST /v1/analysis``."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from api.errors import FieldError
from api.games.advice import MAX_BUDGET_MS, MAX_SAMPLES, required_of
from api.http.schemas import ActionOutSchema, BodyInteger, BodyNumber
from engine.ai import LEVELS
from engine.ai.player import CLOSE_HEDGE

_BUDGET: dict[str, object] = {
    "description": f"Cap of the computer's CPU time in ms (at most {MAX_BUDGET_MS}); default: "
                   "the level's own cap (cap_ms in GET /v1/rules). Within it the level spends "
                   "its work budget", "example": 300}


class HintQuerySchema(Schema):
    budget_ms = fields.Float(validate=validate.Range(min=1, max=MAX_BUDGET_MS), metadata=_BUDGET)


def _member(json_type: str, description: str) -> fields.Raw:
    """A member of the pasted view, documented with its JSON type, required unless the body
    gives ``record_text`` (:class:`AnalysisRequestSchema`); its value is checked by
    :func:`api.games.advice.check_position` (a 422 naming it)."""
    return fields.Raw(allow_none=True, metadata={"type": json_type, "description": description})


class AnalysisRequestSchema(Schema):
    """A seat's view of a hand in play (members not used are ignored) plus the search knobs.

    The members below are required (those of :data:`api.games.advice.REQUIRED`) unless the body
    gives ``record_text`` and ``seat`` instead, or is a Tausendeins view (``variant``
    tausendeins: those of :data:`api.games.tausendeins_position.REQUIRED`; the OpenAPI
    document says so with ``anyOf``); a spectator's view (``seat`` null) has no hand to
    analyse.
    """

    class Meta:
        unknown = INCLUDE

    seat = _member("integer", "The seat whose view this is (0-based; sixty-six and schnapsen "
                              "2 seats, three-hand 3, four-hand 4)")
    variant = _member("string", "sixty-six, schnapsen, three-hand, four-hand or tausendeins "
                                "(then the members of a Tausendeins seat's view)")
    rules = _member("object", "The rule options, as in the view")
    status = _member("string", "Must be playing")
    dealer = _member("integer", "The dealer's seat")
    to_act = _member("integer", "Must be this seat (it is its turn)")
    hand = _member("array", "The seat's cards (card codes such as QH)")
    hand_sizes = _member("array", "Number of cards in each seat's hand")
    trump_suit = _member("string", "C, S, H or D")
    turned_card = _member("string", "The card turned up for trumps")
    talon_size = _member("integer", "Cards left in the talon")
    closed_by = _member("integer", "The seat that closed the talon, or null")
    closed_after_tricks = _member("integer",
                                  "Tricks taken when the talon was closed, or null")
    leader = _member("integer", "The seat that leads the current trick")
    trick = _member("array", "Cards of the current trick, {seat, card} each")
    tricks = _member("array", "The finished tricks of the hand, as in the view")
    melds = _member("array", "The melds shown, as in the view")
    # the members only a Tausendeins view has (api.games.tausendeins_position.REQUIRED)
    stage = _member("string", "Tausendeins: auction, musik or play")
    hand_no = _member("integer", "Tausendeins: the deal's number, from 1")
    melded_suit = _member("string", "Tausendeins: the suit just melded, or null")
    stock_size = _member("integer", "Tausendeins: cards in the stock")
    known_cards = _member("object", "Tausendeins: the other seat's cards shown face up, by "
                                    "seat, as in the view")
    auction = _member("object", "Tausendeins: the auction, as in the view, or null")
    musik = _member("object", "Tausendeins: the musik, as in the view, or null")
    totals = _member("array", "Tausendeins: each seat's total over the deals")
    legal_actions = _member("array", "Tausendeins: the seat's legal actions, as in the view")

    budget_ms = BodyNumber(validate=validate.Range(min=1, max=MAX_BUDGET_MS), metadata=_BUDGET)
    samples = BodyInteger(validate=validate.Range(min=1, max=MAX_SAMPLES), metadata={
        "description": f"Sampled deals of the unseen cards (at most {MAX_SAMPLES}), in place "
                       "of the level's work budget; the time cap may stop earlier",
        "example": 200})
    level = fields.String(load_default="strong", validate=validate.OneOf(tuple(LEVELS)),
                          metadata={"description": "Computer level that analyses",
                                    "example": "strong"})
    record_text = fields.String(metadata={
        "description": "Instead of a view: the text form of a record up to the position "
                       "(with its deck), replayed to give the view of `seat`",
        "example": "variant=sixty-six\ndealer=1 deck=KH QH AS AH TH KS TS 9C JC QS 9D JD "
                   "9H AC TC KC QC JS 9S AD TD KD QD JH | 0:meld:H 0:play:QH 1:play:TH"})


    @validates_schema
    def _a_view_or_a_record(self, data: dict[str, Any], **_: Any) -> None:
        if "record_text" in data:  # its seat is checked with the record (a 422 naming it)
            return
        try:
            required = required_of(data)
        except FieldError as exc:
            raise ValidationError({exc.field: [exc.message]}) from None
        missing = {name: ["Missing data for required field."] for name in required
                   if name not in data}
        if missing:
            raise ValidationError(missing)


class RankedActionSchema(Schema):
    action = fields.Nested(ActionOutSchema)
    text = fields.String(metadata={"example": "play:QH"})
    expected_game_points = fields.Float(metadata={
        "description": "Average game points for the seat's side (negative: losing). "
                       "Tausendeins: mean deal margin in points (the seat's change of total "
                       "minus the other's)",
        "example": 1.42})


class AnalysisSchema(Schema):
    level = fields.String(metadata={"example": "strong"})
    best = fields.Nested(ActionOutSchema, metadata={"description": "The recommended action"})
    actions = fields.List(fields.Nested(RankedActionSchema), metadata={
        "description": ("Every legal action, best first: by expected game points, except "
                        "that a closing is ranked as if each sampled deal where it loses "
                        f"cost {CLOSE_HEDGE:g} game points more (the search sees every card "
                        "of a deal, a real closer does not). A failed closing itself costs "
                        "the closer 2 game points, 3 if the opponent had no trick when the "
                        "talon was closed")})
    samples = fields.Integer(metadata={"description": "Sampled deals used (0: only one "
                                                      "legal action)", "example": 180})
    reason = fields.String(metadata={"example": "play:QH is worth +1.42 game points on "
                                                "average over 180 sampled deals"})
    would_declare_66 = fields.Boolean(metadata={
        "description": "The seat holds 66 credited points on lead and should declare; in a "
                       "hint only at tables with hint_66 on"})


class HintSchema(AnalysisSchema):
    game_id = fields.String()
    version = fields.Integer(metadata={"description": "The game's version after marking the "
                                                      "hand as hinted (also the ETag)"})
    seat = fields.Integer()
    hand_no = fields.Integer(metadata={"description": "The hand now marked as hinted"})
