"""Schemas of the leaderboard, ratings, tour and profile endpoints (requests validate,
responses document; a bad query is a 422 problem naming the field)."""

from __future__ import annotations

from typing import Final

from marshmallow import Schema, fields, validate

from api.http.schemas import QueryInteger
from api.http.schemas.lobby import PlayerSchema
from api.ratings.store import KINDS as RATED_KINDS
from engine.hosted import rated_variants

PLAYER_KINDS: Final = ("human", "bot")
MAX_PAGE: Final = 100
DEFAULT_PAGE: Final = 20


def _limit() -> fields.Integer:
    return QueryInteger(load_default=DEFAULT_PAGE, validate=validate.Range(1, MAX_PAGE),
                          metadata={"description": f"At most this many (≤ {MAX_PAGE})"})


class OffsetPageSchema(Schema):
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,7}$"), metadata={
        "description": "next_cursor of the previous page (an offset); omit for the first"})
    limit = _limit()


class LeaderboardQuerySchema(OffsetPageSchema):
    period = fields.String(load_default="all", validate=validate.OneOf(("all", "month")),
                           metadata={"description": "all (all time) or month (the calendar "
                                                    "month in UTC)"})
    month = fields.String(validate=validate.Regexp(r"^20[0-9]{2}-(0[1-9]|1[0-2])$"), metadata={
        "description": "period=month: which month (YYYY-MM, UTC); default the current one",
        "example": "2025-01"})
    variant = fields.String(validate=validate.OneOf(rated_variants()), metadata={
        "description": "Only this variant's points; default all variants together"})
    kind = fields.String(load_default="human", validate=validate.OneOf(PLAYER_KINDS), metadata={
        "description": "human (default) or bot: bot accounts have their own board"})


class LeaderboardEntrySchema(Schema):
    rank = fields.Integer(metadata={"description": "1 + players with more points (ties share)"})
    player_id = fields.String()
    name = fields.String()
    points = fields.Integer()


class LeaderboardPageSchema(Schema):
    period = fields.String()
    month = fields.String(allow_none=True, metadata={"description": "period=month: YYYY-MM"})
    variant = fields.String(allow_none=True, metadata={"description": "null: all variants"})
    kind = fields.String()
    entries = fields.List(fields.Nested(LeaderboardEntrySchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": "Null at the end"})


class RatingsQuerySchema(OffsetPageSchema):
    variant = fields.String(load_default="sixty-six", validate=validate.OneOf(rated_variants()))
    kind = fields.String(load_default="human", validate=validate.OneOf(RATED_KINDS), metadata={
        "description": "human (default), bot, or computer (the computer levels)"})


class RatingSchema(Schema):
    display = fields.Integer(metadata={"description": "1500 + 30 × (mu − 25), rounded",
                                       "example": 1650})
    mu = fields.Float(metadata={"description": "OpenSkill Plackett-Luce mean skill"})
    sigma = fields.Float(metadata={"description": "Its uncertainty"})
    ordinal = fields.Float(metadata={"description": "mu − 3 sigma: the listing's order"})
    matches = fields.Integer(metadata={"description": "Rated matches"})
    provisional = fields.Boolean(metadata={"description": "sigma above 5: few matches yet"})


class RatingRowSchema(RatingSchema):
    place = fields.Integer()
    kind = fields.String(validate=validate.OneOf(RATED_KINDS))
    id = fields.String(metadata={"description": "The player id, or the computer level"})
    name = fields.String()


class RatingsPageSchema(Schema):
    variant = fields.String()
    kind = fields.String()
    ratings = fields.List(fields.Nested(RatingRowSchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": "Null at the end"})


# --------------------------------------------------------------------------- tour


class TourGameSchema(Schema):
    game_id = fields.String()
    token = fields.String(allow_none=True, metadata={"description": "The player's seat token"})


class StationSchema(Schema):
    station = fields.String(metadata={"example": "chicago"})
    number = fields.Integer(metadata={"description": "1 (Chicago) to 8 (Santa Monica)"})
    city = fields.String()
    diner = fields.String()
    opponent = fields.String()
    level = fields.String(metadata={"description": "easy, normal or strong"})
    variant = fields.String()
    match_points = fields.Integer()
    stamped_at = fields.Integer(allow_none=True, metadata={
        "description": "Unix seconds of the first win; null: not stamped"})
    open = fields.Boolean(metadata={"description": "May be started (stamped ones replayed)"})
    game = fields.Nested(TourGameSchema, allow_none=True, metadata={
        "description": "The player's latest game at this station, to resume"})


class TourSchema(Schema):
    player_id = fields.String()
    stamps = fields.Integer()
    next = fields.String(allow_none=True, metadata={
        "description": "The first station without a stamp; null when all eight are stamped"})
    stations = fields.List(fields.Nested(StationSchema))


class TourStartSchema(Schema):
    station = fields.String()
    game_id = fields.String()
    seat = fields.Integer()
    token = fields.String(metadata={"description": "The seat token of the new game"})
    game = fields.String(metadata={"description": "The game's URL"})


# --------------------------------------------------------------------------- profiles


class StandingSchema(Schema):
    points = fields.Integer()
    rank = fields.Integer()


class ProfileTourSchema(Schema):
    stamps = fields.Integer()
    stamped = fields.List(fields.String(), metadata={"description": "Stamped stations"})


class ProfileSchema(PlayerSchema):
    hands_won = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "Per variant: hands won in rated matches"})
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(RatingSchema,
                                                                      allow_none=True),
                          metadata={"description": "Per variant; null if never rated"})
    leaderboard = fields.Dict(keys=fields.String(), values=fields.Dict(), metadata={
        "description": "period (all, month) → variant (all, or one) → {points, rank}, or "
                       "null if not on that board"})
    tour = fields.Nested(ProfileTourSchema)


class HistoryQuerySchema(Schema):
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{13}:[A-Za-z0-9_.-]{1,80}$"),
                           metadata={"description": "next_cursor of the previous page; omit "
                                                    "for the first"})
    limit = _limit()


class HistorySeatSchema(Schema):
    seat = fields.Integer()
    name = fields.String()
    kind = fields.String(metadata={"description": "human or computer"})
    level = fields.String(allow_none=True)
    player_id = fields.String(allow_none=True)
    player_kind = fields.String(allow_none=True, metadata={"description": "human or bot"})


class HistoryEntrySchema(Schema):
    game_id = fields.String()
    variant = fields.String()
    finished_at = fields.String(metadata={"description": "UTC, ISO 8601"})
    seat = fields.Integer(metadata={"description": "The player's seat"})
    result = fields.String(validate=validate.OneOf(("won", "lost", "aborted")))
    reason = fields.String(validate=validate.OneOf(("points", "resigned", "aborted")))
    points = fields.List(fields.Integer(), metadata={
        "description": "Per seat: game points of the last match at the end"})
    matches_won = fields.List(fields.Integer(), metadata={"description": "Per seat"})
    rated = fields.Boolean()
    private = fields.Boolean(metadata={"description": "At a private table (shown only to "
                                                      "the player himself)"})
    table_id = fields.String(allow_none=True)
    tour_station = fields.String(allow_none=True)
    seats = fields.List(fields.Nested(HistorySeatSchema))
    record = fields.String(metadata={"description": "The record of play (while the game "
                                                    "lives)",
                                     "example": "/v1/games/tB7q2WcXk9Lp.1/record"})


class HistoryPageSchema(Schema):
    games = fields.List(fields.Nested(HistoryEntrySchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": "Null at the end"})


class StoredRatingSchema(Schema):
    variant = fields.String()
    kind = fields.String(metadata={"description": "human or bot"})
    mu = fields.Float()
    sigma = fields.Float()
    matches = fields.Integer()


class StoredPointsSchema(Schema):
    kind = fields.String(metadata={"description": "The board: human or bot"})
    period = fields.String(metadata={"description": "all, or a month YYYY-MM"})
    variant = fields.String(metadata={"description": "all, or one"})
    points = fields.Integer()


class StoredHandsSchema(Schema):
    variant = fields.String()
    hands_won = fields.Integer()


class StoredStampSchema(Schema):
    station = fields.String()
    stamped_at = fields.Integer(metadata={"description": "Unix seconds"})


class StoredTableSchema(Schema):
    game_id = fields.String()
    table_id = fields.String()
    variant = fields.String()
    result = fields.String(allow_none=True, metadata={
        "description": "points, resigned or aborted"})
    finished_at = fields.Integer(metadata={"description": "Unix seconds"})


class StoredSchema(Schema):
    """What the database holds of a player's standings."""

    ratings = fields.List(fields.Nested(StoredRatingSchema))
    leaderboard_points = fields.List(fields.Nested(StoredPointsSchema))
    leaderboard_hands = fields.List(fields.Nested(StoredHandsSchema))
    tour_stamps = fields.List(fields.Nested(StoredStampSchema))
    table_results = fields.List(fields.Nested(StoredTableSchema), metadata={
        "description": "The finished tables' matches he sat at"})


class ExportSchema(Schema):
    """Everything held about a player (``GET /v1/players/{player_id}/export``)."""

    profile = fields.Nested(ProfileSchema)
    history = fields.List(fields.Nested(HistoryEntrySchema), metadata={
        "description": "Every finished match, newest first (private ones too)"})
    games = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), metadata={
        "description": "active, finished → the ids of his games at tables"})
    open_tables = fields.List(fields.String(), metadata={
        "description": "The open tables he created"})
    tour_games = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "Tour station → the id of his last game there"})
    tour_stamped_at = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "Tour station → when he stamped it (Unix seconds)"})
    stored = fields.Nested(StoredSchema, allow_none=True, metadata={
        "description": "What the database holds of his standings (null without one)"})
