"""One flask-smorest blueprint per resource; :data:`BLUEPRINTS` is registered in this order."""

from __future__ import annotations

from api.http.resources import (
    actions,
    analysis,
    chat,
    events,
    games,
    health,
    hint,
    leaderboard,
    players,
    ratings,
    record,
    rules,
    streams,
    tables,
    tour,
)
from api.http.resources.blueprint import Blueprint

BLUEPRINTS: tuple[Blueprint, ...] = (
    games.blp, actions.blp, events.blp, record.blp, rules.blp, health.blp, hint.blp, analysis.blp,
    players.blp, tables.blp, chat.blp, leaderboard.blp, ratings.blp, tour.blp, streams.blp,
)
