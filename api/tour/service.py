"""The tour's rules: which stations are open, starting a station's match, stamping a win.

Stations open in order: the first always, each next one once the one before it is stamped.
An open station can be played again at any time (a lost one to try again, a stamped one for
fun); a station beyond the first unstamped one is a 409. A station's match is a game like
``POST /v1/games`` makes (its address counts toward the same cap), against the station's
computers, with the player recorded in the game's meta (``tour``), so the game's result hook
stamps the station when the player's side wins the match, and the leaderboard and ratings
count it like a table match against computers.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

import redis

from api.errors import Conflict, NotFound
from api.games.meta import ExtraMeta
from api.games.service import prepare_game
from api.games.spec import GameSpec, SeatSpec
from api.games.store import Game, GameNotFound, GameStore
from api.games.tokens import seal, sealing_key, unseal
from api.keys import owner_key
from api.players.store import Player
from api.tour.stations import BY_SLUG, PARTNER_LEVEL, STATIONS, Station
from api.tour.store import STAMP, TourStore
from engine import find_variant
from engine.hosted import is_over

log = logging.getLogger(__name__)

class StationNotFound(NotFound):
    slug = "station-not-found"
    title = "No such tour station"


class StationClosed(Conflict):
    slug = "station-not-open"
    title = "The station is not open yet"


def station(slug: str) -> Station:
    found = BY_SLUG.get(slug)
    if found is None:
        raise StationNotFound(f"no tour station {slug!r}; the stations are "
                      + ", ".join(s.slug for s in STATIONS), station=slug)
    return found


def first_unstamped(progress: dict[str, str]) -> int:
    """Index of the first station without a stamp (8 when all are stamped)."""
    return next((i for i, s in enumerate(STATIONS) if f"{STAMP}{s.slug}" not in progress),
                len(STATIONS))


def _context(game_id: str) -> str:
    return f"tour-seat-token:{game_id}"


def _unsealed(sealed: str | None, game_id: str, player_token: str) -> str | None:
    if sealed is None:
        return None
    try:
        return unseal(sealed, sealing_key(player_token), _context(game_id))
    except ValueError:  # not hex, or not sealed under this player's key
        return None


def tour_view(tours: TourStore, player: Player, player_token: str) -> dict[str, Any]:
    """Every station with its opponent, variant, match length, stamp, whether it is open, and
    the player's latest game there (id and seat token, unsealed with ``player_token``)."""
    progress = tours.progress(player.player_id)
    reach = first_unstamped(progress)
    stations = []
    for i, s in enumerate(STATIONS):
        stamp = progress.get(f"{STAMP}{s.slug}")
        game_id = progress.get(f"game:{s.slug}")
        stations.append({
            "station": s.slug, "number": i + 1, "city": s.city, "diner": s.diner,
            "opponent": s.opponent, "level": s.level, "variant": s.variant,
            "match_points": s.match_points,
            "stamped_at": None if stamp is None else int(stamp), "open": i <= reach,
            "game": None if game_id is None else {
                "game_id": game_id,
                "token": _unsealed(progress.get(f"token:{s.slug}"), game_id, player_token)},
        })
    return {"player_id": player.player_id, "stamps": sum(1 for s in stations if s["stamped_at"]),
            "next": STATIONS[reach].slug if reach < len(STATIONS) else None,
            "stations": stations}


def latest_unstamped_game(games: GameStore, tours: TourStore, player: Player) -> Game | None:
    """The player's latest game at his first unstamped station if it is over (its result may
    not be recorded yet, if the hook after its last save failed), else ``None``."""
    progress = tours.progress(player.player_id)
    reach = first_unstamped(progress)
    game_id = progress.get(f"game:{STATIONS[reach].slug}") if reach < len(STATIONS) else None
    if game_id is None:
        return None
    try:
        game = games.load(game_id)
    except GameNotFound:
        return None
    return game if is_over(game.state) else None


def _seats(s: Station, name: str) -> tuple[SeatSpec, ...]:
    players = find_variant(s.variant).players
    seats = [SeatSpec("human", name=name)]
    names = iter(s.names)
    for seat in range(1, players):
        if players == 4 and seat == 2:
            seats.append(SeatSpec("computer", f"Partner ({PARTNER_LEVEL})", PARTNER_LEVEL))
        else:
            seats.append(SeatSpec("computer", f"{next(names)} ({s.level})", s.level))
    return tuple(seats)


def start(games: GameStore, tours: TourStore, player: Player, player_token: str, slug: str,
          address: str | None) -> tuple[Game, str]:
    """Start the player's match at an open station; the saved game and his seat token (kept
    sealed under the player token)."""
    s = station(slug)
    progress = tours.progress(player.player_id)
    index = STATIONS.index(s)
    if index > first_unstamped(progress):
        before = STATIONS[index - 1]
        raise StationClosed(f"{s.city} opens when {before.city} is stamped: win "
                      f"the match there first", station=slug)
    players = find_variant(s.variant).players
    spec = GameSpec(variant=s.variant, rules={"match_points": s.match_points},
                    seats=_seats(s, player.name))
    extra: ExtraMeta = {"tour": {"station": s.slug, "player_id": player.player_id,
                                      "players": [player.player_id] + [None] * (players - 1),
                                      "started_ms": int(time.time() * 1000)}}
    if address is not None:
        extra["owner"] = {"key": owner_key(address)}
    new = prepare_game(spec, extra)
    token = new.tokens[0]
    assert token is not None
    game = games.create(secrets.token_urlsafe(12), new.state, new.meta, new.events)
    try:
        tours.started(player.player_id, s.slug, game.game_id,
                      seal(token, sealing_key(player_token), _context(game.game_id)))
    except redis.RedisError as exc:  # the game exists: its token is answered regardless
        log.warning("tour game %s started; not yet listed in the tour (%s)", game.game_id,
                    type(exc).__name__)
    return game, token

