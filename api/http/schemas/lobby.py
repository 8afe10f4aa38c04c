"""Schemas of the lobby: ``/v1/players`` and ``/v1/tables`` (requests validate, responses
document; a failure is a 422 problem naming the field)."""

from __future__ import annotations

from typing import Final

from marshmallow import Schema, fields, validate

from api.http.schemas import BodyInteger, QueryInteger, TableSettingsSchema
from api.players.service import KINDS
from engine.games import NAMES

TABLE_SEAT_KINDS: Final = ("open", "computer", "player")
VISIBILITIES: Final = ("public", "private")
MAX_PAGE: Final = 50
DEFAULT_PAGE: Final = 20
_CURSOR: Final = {"description": "next_cursor of the previous page; omit for the first"}
_INVITE: Final = {"description": "A private table's invite code (or the X-Invite-Code header)"}


def _page_size() -> fields.Integer:
    return QueryInteger(load_default=DEFAULT_PAGE, validate=validate.Range(1, MAX_PAGE),
                          metadata={"description": f"At most this many (≤ {MAX_PAGE})"})


def _cursor() -> fields.String:
    return fields.String(validate=validate.Length(1, 100), metadata=_CURSOR)


# --------------------------------------------------------------------------- players


class CreatePlayerSchema(Schema):
    name = fields.String(required=True, metadata={
        "description": "3–20 letters, digits, spaces, - or _, counted after NFC normalisation "
                       "and trimming the spaces at both ends; no control, format or invisible "
                       "character; unique without regard to case or to look-alike letters "
                       "(their Unicode TR39 skeletons differ: Cyrillic о, Greek ο, fullwidth "
                       "or mathematical letters do not make another name)",
        "example": "Ann"})
    kind = fields.String(load_default="human", validate=validate.OneOf(KINDS), metadata={
        "description": "bot for a program's account (marked in every listing)"})


class VariantStatsSchema(Schema):
    played = fields.Integer(metadata={"description": "Matches finished"})
    won = fields.Integer(metadata={"description": "Matches won (by his side)"})


class PlayerSchema(Schema):
    player_id = fields.String(metadata={"example": "pA3x9Qk2LmZ0"})
    name = fields.String(metadata={"example": "Ann"})
    kind = fields.String(validate=validate.OneOf(KINDS))
    created_at = fields.String(metadata={"description": "UTC, ISO 8601"})
    stats = fields.Dict(keys=fields.String(), values=fields.Nested(VariantStatsSchema),
                        metadata={"description": "Per variant: matches played and won"})


class CreatedPlayerSchema(PlayerSchema):
    token = fields.String(metadata={
        "description": "The player token (Authorization: Bearer), shown only here"})


class MyGamesQuerySchema(Schema):
    status = fields.String(load_default="active",
                           validate=validate.OneOf(("active", "finished")))
    cursor = _cursor()
    limit = _page_size()


class OpponentSchema(Schema):
    seat = fields.Integer()
    name = fields.String()
    kind = fields.String(metadata={"description": "human or computer"})


class MyGameSchema(Schema):
    game_id = fields.String(metadata={"example": "tB7q2WcXk9Lp.1"})
    table_id = fields.String()
    variant = fields.String()
    status = fields.String(metadata={"description": "playing, hand_over or match_over"})
    seat = fields.Integer(metadata={"description": "The player's seat"})
    opponents = fields.List(fields.Nested(OpponentSchema))
    to_act = fields.List(fields.Integer(), metadata={"description": "Seats with a decision"})
    your_turn = fields.Boolean()
    started_at = fields.String()
    version = fields.Integer()


class MyGamesPageSchema(Schema):
    games = fields.List(fields.Nested(MyGameSchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": "Null at the end"})


# --------------------------------------------------------------------------- tables


class TableSeatSpecSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(TABLE_SEAT_KINDS), metadata={
        "description": "open (for another player), computer, or player (the creator's own)"})
    level = fields.String(metadata={"description": "Computer level; default random"})


class CreateTableSchema(Schema):
    variant = fields.String(load_default="sixty-six", validate=validate.OneOf(NAMES))
    rules = fields.Dict(keys=fields.String(), values=fields.Raw(), load_default=dict, metadata={
        "description": "Rule options by name (GET /v1/rules lists them)"})
    match_points = BodyInteger(metadata={"example": 7})
    set_bummerl = BodyInteger()
    settings = fields.Nested(TableSettingsSchema,
                             load_default=lambda: TableSettingsSchema().load({}))
    seats = fields.List(fields.Nested(TableSeatSpecSchema), required=True, metadata={
        "description": "One per player of the variant, seat 0 first; exactly one is the "
                       "creator's ({\"kind\": \"player\"})"})
    visibility = fields.String(load_default="public", validate=validate.OneOf(VISIBILITIES),
                               metadata={"description": "private: only with the invite code"})
    rated = fields.Boolean(load_default=True, truthy={True}, falsy={False}, metadata={
        "description": "false: the table's matches never count for the leaderboard and "
                       "ratings (a friendly game)"})


class JoinSchema(Schema):
    seat = BodyInteger(metadata={"description": "The seat to take; default the first open"})
    invite_code = fields.String(validate=validate.Length(1, 100), metadata=_INVITE)


class TablesQuerySchema(Schema):
    variant = fields.String(validate=validate.OneOf(NAMES))
    status = fields.String(load_default="open", validate=validate.OneOf(("open", "playing")),
                           metadata={"description": "open (seats free) or playing (to watch)"})
    cursor = _cursor()
    limit = _page_size()


class InviteQuerySchema(Schema):
    invite_code = fields.String(validate=validate.Length(1, 100), metadata=_INVITE)


class TableSeatSchema(Schema):
    seat = fields.Integer()
    kind = fields.String(validate=validate.OneOf(TABLE_SEAT_KINDS))
    name = fields.String(metadata={"description": "Player and computer seats"})
    player_id = fields.String(metadata={"description": "Player seats"})
    bot = fields.Boolean(metadata={"description": "Player seats: a bot account"})
    level = fields.String(metadata={"description": "Computer seats"})
    rating = fields.Integer(allow_none=True, metadata={
        "description": "Player and computer seats: the display rating for the table's variant "
                       "(GET /v1/ratings); null if never rated"})


class YourSeatSchema(Schema):
    seat = fields.Integer()
    game_id = fields.String(allow_none=True)
    token = fields.String(allow_none=True, metadata={
        "description": "Your seat token of the current game (null before the start): minted "
                       "on your first fetch, the same on every later one"})


class TableSummarySchema(Schema):
    table_id = fields.String(metadata={"example": "tB7q2WcXk9Lp"})
    version = fields.Integer()
    variant = fields.String()
    rules = fields.Dict(keys=fields.String(), values=fields.Raw())
    match_points = fields.Integer(allow_none=True, metadata={"description": "null for tausendeins"})
    settings = fields.Nested(TableSettingsSchema, metadata={
        "description": "The settings the table was created with, each given"})
    visibility = fields.String(validate=validate.OneOf(VISIBILITIES))
    rated = fields.Boolean(metadata={"description": "Counts for the leaderboard and ratings"})
    status = fields.String(validate=validate.OneOf(("open", "playing", "finished", "closed")))
    seats = fields.List(fields.Nested(TableSeatSchema))
    open_seats = fields.Integer()
    created_at = fields.String()
    expires_at = fields.String(allow_none=True, metadata={
        "description": "An open table's expiry (UTC); null once started"})
    game_id = fields.String(allow_none=True, metadata={"description": "The current game"})
    result = fields.String(allow_none=True, validate=validate.OneOf(
        ("points", "resigned", "aborted")), metadata={
        "description": "How the current game ended once the table is finished: points, "
                       "resigned (the other side won) or aborted (counted for nobody); null "
                       "before"})


class TableSchema(TableSummarySchema):
    games = fields.List(fields.String(), metadata={"description": "The table's games, in order"})
    rematch = fields.List(fields.Integer(), metadata={"description": "Seats asking a rematch"})
    spectators = fields.Integer(metadata={"description": "About how many watch (last minute)"})
    you = fields.Nested(YourSeatSchema, allow_none=True, metadata={
        "description": "To a seated player (player token): his seat and seat token"})
    invite_code = fields.String(allow_none=True, metadata={
        "description": "A private table's invite code: to its creator and seated players"})


class TablePageSchema(Schema):
    tables = fields.List(fields.Nested(TableSummarySchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": "Null at the end"})

