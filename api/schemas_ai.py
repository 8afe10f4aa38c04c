"""Schemas of the computer's advice: ``POST /v1/games/{id}/hint`` and ``POST /v1/analysis``."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from api.advice import MAX_BUDGET_MS, MAX_SAMPLES
from api.schemas import ActionOutSchema
from engine.ai import LEVELS

_BUDGET: dict[str, object] = {
    "description": f"Time budget of the computer in ms (at most {MAX_BUDGET_MS}); default: the "
                   "level's own per-move budget", "example": 300}


class HintQuerySchema(Schema):
    budget_ms = fields.Float(validate=validate.Range(min=1, max=MAX_BUDGET_MS), metadata=_BUDGET)


class AnalysisRequestSchema(Schema):
    """A seat's view of a hand in play (members not used are ignored) plus the search knobs."""

    class Meta:
        unknown = INCLUDE

    budget_ms = fields.Float(validate=validate.Range(min=1, max=MAX_BUDGET_MS), metadata=_BUDGET)
    samples = fields.Integer(validate=validate.Range(min=1, max=MAX_SAMPLES), metadata={
        "description": f"Most sampled deals of the unseen cards (at most {MAX_SAMPLES}); the "
                       "time budget may stop earlier", "example": 200})
    level = fields.String(load_default="strong", validate=validate.OneOf(tuple(LEVELS)),
                          metadata={"description": "Computer level that analyses",
                                    "example": "strong"})
    record_text = fields.String(metadata={
        "description": "Instead of a view: the text form of a record up to the position "
                       "(with its deck), replayed to give the view of `seat`",
        "example": "variant=sixty-six\ndealer=1 deck=KH QH AS AH TH KS TS 9C JC QS 9D JD "
                   "9H AC TC KC QC JS 9S AD TD KD QD JH | 0:meld:H 0:play:QH 1:play:TH"})


class RankedActionSchema(Schema):
    action = fields.Nested(ActionOutSchema)
    text = fields.String(metadata={"example": "play:QH"})
    expected_game_points = fields.Float(metadata={
        "description": "Average game points for the seat's side (negative: losing)",
        "example": 1.42})


class AnalysisSchema(Schema):
    level = fields.String(metadata={"example": "strong"})
    best = fields.Nested(ActionOutSchema, metadata={"description": "The recommended action"})
    actions = fields.List(fields.Nested(RankedActionSchema), metadata={
        "description": ("Every legal action, best first: by expected game points, except "
                        "that a closing is ranked as if each sampled deal where it fails "
                        "cost one game point more (the search sees every card of a deal, a "
                        "real closer does not)")})
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
