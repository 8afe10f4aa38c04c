"""Schemas of ``POST /v1/games/{game_id}/chat`` (a seat's chat message, :mod:`api.live.chat`)."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.live.chat import MAX_CHARS
from api.text_policy import PATTERN, POLICY


class ChatSchema(Schema):
    text = fields.String(required=True, metadata={
        "description": f"1 to {MAX_CHARS} characters; {POLICY} (422 on text)",
        "example": "Good luck!", "minLength": 1, "maxLength": MAX_CHARS, "pattern": PATTERN})


class ChatMessageSchema(Schema):
    seq = fields.Integer(metadata={"description": "Its number in the game's event log (the "
                                                  "chat event's seq)", "example": 4})
    seat = fields.Integer(metadata={"example": 0})
    name = fields.String(metadata={"description": "The seat's name", "example": "Ann"})
    text = fields.String(metadata={"description": "As stored: normalised",
                                   "example": "Good luck!"})
    at = fields.String(metadata={"description": "When it was logged: UTC, ISO 8601",
                                 "example": "2026-12-01T08:51:08Z"})


class RecordChatSchema(Schema):
    seq = fields.Integer(metadata={"example": 4})
    seat = fields.Integer(metadata={"example": 0})
    text = fields.String(metadata={"example": "Good luck!"})
    at = fields.String(metadata={"example": "2026-12-01T08:51:08Z"})
