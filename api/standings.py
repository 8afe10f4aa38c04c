"""After a game's save: its leaderboard points, ratings, tour stamp and players' history.

:meth:`Standings.record` is the first step of the pipeline after every save of a game
(:mod:`api.composition`: the web request's and a worker's alike, :func:`api.games.service.act`;
the views that find a finished match not yet recorded, also one that ended as its table
started it, as a three-hand dealer sits out a first hand worth the match; and after a tour
game is created). Games without a player (``POST /v1/games`` without a player token) are
skipped at once. A save's own events are offered while the game runs; once it is over (or
aborted) the game's whole log is, so that hands settled when the game was created, or whose
save's hook failed, are counted then.
Every step is idempotent (a marker per game and hand or match, written atomically with the
increments), so offering an event twice, from two requests or a retry, counts it once.

Only rated games count for the leaderboard and ratings: ``meta["rated"]`` (false, with
``meta["unrated_reason"]``, for an explicit deck, a table created with ``rated: false``, a
pair of players at its bound of rated matches, or a game from ``POST /v1/games`` that is not
one player's against computers). The history, with each player's matches played and won, is
written for every finished game with a player, rated or not. A failure is logged, not raised: the
game is saved and its answer must say so.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from api.games.meta import GameMeta
from api.games.store import Game, GameStore
from api.leaderboard.scoring import Award, awards
from api.leaderboard.store import Increment, LeaderboardStore, month_of
from api.players.history import HistoryStore
from api.players.service import iso
from api.players.store import PlayerStore
from api.ratings.service import RatingBusy, entity_of_seat, rank_sides, rate_match
from api.ratings.store import RatingStore
from api.tour.results import stamp_if_won
from api.tour.store import TourStore
from engine import ABORTED, RESIGNED
from engine.hosted import (
    HostedState,
    end_reason,
    final_points,
    game_of,
    hand_no_of,
    is_over,
    seat_won,
    status_of,
    variant_of,
)
from engine.state import TIMED_OUT

log = logging.getLogger(__name__)


def seat_players(meta: GameMeta) -> list[str | None] | None:
    """The player id of each seat (``None``: a computer or anonymous seat) of a table or tour
    game, or of a game created with a player token; ``None`` for any other game."""
    info = meta.get("table") or meta.get("tour") or meta.get("player")
    if info is None:
        return None
    players: list[str | None] = info["players"]
    return players


@dataclass(frozen=True, slots=True)
class Standings:
    """The stores the standings write, handed over by the composition root."""

    games: GameStore
    players: PlayerStore
    history: HistoryStore
    tour: TourStore
    leaderboard: LeaderboardStore
    ratings: RatingStore

    def record(self, game: Game) -> None:
        """Count what ``game``'s latest save settled (see the module docstring)."""
        players = seat_players(game.meta)
        if players is None or not any(players):
            return
        try:
            self._record(game, players)
        except (redis.RedisError, RatingBusy) as exc:
            log.warning("game %s saved but its standings not yet recorded: %s", game.game_id,
                        type(exc).__name__)

    def _record(self, game: Game, players: list[str | None]) -> None:
        state = game.state
        if is_over(state):
            events = [e.event for e in self.games.all_events(game)]
            before = 0
        else:
            events = [e.event for e in game.recent]
            before = hand_no_of(state) - sum(1 for e in events if e.type == "hand_dealt")
        found = awards(state, game.meta, events, before, players) if game.meta.get(
            "rated") and game_of(state).capabilities.rated else []
        if not found and not is_over(state):
            return
        kinds = player_kinds(self.players, players)
        if is_over(state):  # first the cheap steps, which need no retries
            if game.meta.get("tour") is not None:
                stamp_if_won(self.tour, game)
            write_history(self.history, game, players, kinds)
        count_awards(self.leaderboard, game, found, players, kinds)
        rate_awards(self.ratings, self.games.ttl, game, found, players, kinds)


def player_kinds(players: PlayerStore, ids: Sequence[str | None]) -> dict[str, str]:
    """Each seated player's kind (``human`` or ``bot``)."""
    out = {}
    for player_id in ids:
        if player_id is not None:
            player = players.load(player_id)
            out[player_id] = player.kind if player is not None else "human"
    return out


def count_awards(board: LeaderboardStore, game: Game, found: Sequence[Award],
                 players: Sequence[str | None], kinds: dict[str, str]) -> None:
    variant = variant_of(game.state)
    month = month_of(time.time())
    for award in found:
        increments = []
        for seat, player_id in enumerate(players):
            if player_id is None:
                continue
            points, won = award.points.get(seat, 0), award.hands_won.get(seat, 0)
            if points or won:
                increments.append(Increment(player_id, kinds[player_id], points, won))
        board.apply(game.game_id, award.marker, variant, month, increments)


def rate_awards(ratings: RatingStore, game_ttl: int, game: Game, found: Sequence[Award],
                players: Sequence[str | None], kinds: dict[str, str]) -> None:
    """Rate every match that ended in ``found`` (the awards with places)."""
    state = game.state
    if not game_of(state).capabilities.rated:  # only a rated game's are
        return
    sides = state.rules.variant.sides
    teams = [[entity_of_seat(game.meta["seats"][seat], players[seat], kinds)
              for seat in state.seats_of(side)] for side in range(sides)]
    for award in found:
        if award.rated is not None:
            rate_match(ratings, state.rules.variant.name, game.game_id, award.marker,
                       game_ttl + 86400, teams, rank_sides(award.places, sides),
                       moves=award.rated)


def result_of(state: HostedState, seat: int) -> str:
    """``won``, ``lost`` or ``aborted``: a seat's result in a finished game."""
    if status_of(state) == ABORTED:
        return "aborted"
    return "won" if seat_won(state, seat) else "lost"


def write_history(history: HistoryStore, game: Game, players: Sequence[str | None],
                  kinds: dict[str, str]) -> None:
    """List the finished game in each of its players' histories (a game read back from the
    archive is listed there already, in the database)."""
    if game.log is not None and history.records is not None:
        return
    finished_ms = int(time.time() * 1000)
    for player_id, item in history_items(game, players, kinds, finished_ms).items():
        history.add(player_id, finished_ms, game.game_id, item)


def history_items(game: Game, players: Sequence[str | None], kinds: dict[str, str],
                  finished_ms: int) -> dict[str, dict[str, Any]]:
    """Each seated player's history item of a finished game that ended at ``finished_ms``."""
    state = game.state
    meta = game.meta
    reason = end_reason(state) or "points"
    points, matches_won = final_points(state)
    seats = [{"seat": i, "name": s["name"], "kind": s["kind"], "level": s["level"],
              "player_id": players[i],
              "player_kind": None if players[i] is None else kinds.get(players[i] or "")}
             for i, s in enumerate(meta["seats"])]
    info: Mapping[str, Any] = meta.get("table") or {}
    tour: Mapping[str, Any] = meta.get("tour") or {}
    items: dict[str, dict[str, Any]] = {}
    for seat, player_id in enumerate(players):
        if player_id is None or player_id in items:
            continue
        items[player_id] = {
            "game_id": game.game_id, "variant": variant_of(state),
            "finished_at": iso(finished_ms / 1000), "seat": seat,
            "result": result_of(state, seat),
            "reason": {RESIGNED: "resigned", ABORTED: "aborted", TIMED_OUT: "timeout"}.get(
                reason, "points"),
            "points": points, "matches_won": matches_won,
            "rated": bool(meta.get("rated")), "private": bool(info.get("private")),
            "table_id": info.get("table_id"),
            "tour_station": tour.get("station"), "seats": seats,
            "record": f"/v1/games/{game.game_id}/record"}
    return items
