"""Schemas of ``GET /v1/games/{game_id}/record`` (a record of play, :mod:`engine.record`)."""

from __future__ import annotations

from typing import Final

from marshmallow import Schema, fields, validate

from api.http.schemas import SeatSchema, invite_code_query
from api.http.schemas.chat import RecordChatSchema

RECORD_FORMATS: Final = ("json", "text")


class RecordQuerySchema(Schema):
    format = fields.String(load_default="json", validate=validate.OneOf(RECORD_FORMATS),
                           metadata={"description": "json (default) or text: the compact text "
                                                    "form, one line per hand (text/plain)"})
    invite_code = invite_code_query()


class RecordActionSchema(Schema):
    seat = fields.Integer(metadata={"example": 0})
    type = fields.String(metadata={"example": "play"})
    card = fields.String(metadata={"description": "For play", "example": "QH"})
    suit = fields.String(metadata={"description": "For meld", "example": "H"})


class RecordHandSchema(Schema):
    hand_no = fields.Integer(metadata={"example": 1})
    dealer = fields.Integer(metadata={"example": 1})
    deck = fields.List(fields.String(), allow_none=True, metadata={
        "description": "The full deal order, first card dealt first; null while the game runs"})
    cards = fields.List(fields.String(), metadata={
        "description": "While the game runs, to a seat: the cards dealt to it in this hand"})
    actions = fields.List(fields.Nested(RecordActionSchema), metadata={
        "description": "Every action of the hand in order, with its seat"})
    settlement = fields.Dict(allow_none=True, metadata={
        "description": "The hand's settlement as in the view; null if unfinished"})


class RecordResultSchema(Schema):
    status = fields.String(validate=validate.OneOf(("match_over", "aborted")))
    reason = fields.String(validate=validate.OneOf(("points", "resigned", "aborted")))
    by = fields.Integer(allow_none=True, metadata={"description": "Seat that resigned or "
                                                                  "aborted"})
    winner_side = fields.Integer(allow_none=True)
    winners = fields.List(fields.Integer())
    score = fields.List(fields.Integer(), metadata={"description": "Game points per side"})
    bummerl = fields.List(fields.Integer(), metadata={"description": "Per side"})
    matches_won = fields.List(fields.Integer(), metadata={"description": "Per side"})


class RecordSchema(Schema):
    game_id = fields.String()
    version = fields.Integer()
    status = fields.String(validate=validate.OneOf(("playing", "hand_over", "match_over",
                                                    "aborted")))
    seats = fields.List(fields.Nested(SeatSchema))
    clock = fields.Dict(allow_none=True, metadata={
        "description": "think_time_s, on_timeout, timeout_level of a game with a clock (null "
                       "without); the actions its clock made carry \"timeout\": true"})
    format = fields.String(metadata={"example": "sixtysix-record"})
    format_version = fields.Integer(metadata={"example": 1})
    game = fields.String(metadata={
        "description": "The game the variant is of (GET /v1/rules lists each variant's)",
        "example": "sixty-six"})
    variant = fields.String()
    rules = fields.Dict(keys=fields.String(), values=fields.Raw())
    complete = fields.Boolean(metadata={"description": "The game is over: decks are shown"})
    hands = fields.List(fields.Nested(RecordHandSchema))
    result = fields.Nested(RecordResultSchema, allow_none=True, metadata={
        "description": "How the game ended; null while it runs"})
    chat = fields.List(fields.Nested(RecordChatSchema), metadata={
        "description": "The seats' chat messages in order (not in the text form; a replay "
                       "ignores them)"})
