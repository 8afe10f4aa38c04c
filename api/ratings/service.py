"""Rating matches and reading ratings: players (``human``, ``bot``) and computer levels.

A rated match (the same games as the leaderboard's: rated, with a player) updates every
player's rating for the variant once, by the finishing order of the sides (the leaderboard's
places; a resigner's side last; partners are a team), in the directions the match allows
(:class:`~api.ratings.model.Rated`, from :mod:`api.leaderboard.scoring`: advice moves
ratings one way only, and a match left too early rates nobody). A computer level is an
anchor: players are rated against its rating, which only arena runs (``sixtysix arena
--rate``, and the shipped seed) change. A level plays the same whoever it meets, and a rating
that matches against people moved could be pushed up or down by anyone willing to throw
matches with spare accounts, and then farmed; it would also be one rating that every game
against that level writes at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from openskill.models import PlackettLuce

from api.ratings.model import Rated, Rating, new_model, rate
from api.ratings.store import Entity, RatingChanged, RatingStore

#: Attempts of a commit against concurrent rating changes.
RETRIES: Final = 20
MODEL: Final = new_model()


class RatingBusy(Exception):
    """Ratings kept changing during every attempt; the match was not rated."""


def rate_match(store: RatingStore, variant: str, source: str, match: str, ttl: int,
               teams: Sequence[Sequence[Entity]], ranks: Sequence[int],
               model: PlackettLuce = MODEL, moves: Rated | None = None) -> bool:
    """Rate one match once (False if it was rated before); :class:`RatingBusy` if ratings kept
    moving meanwhile. ``moves``: a game's match, whose computer levels keep their ratings and
    whose sides move only as it allows; ``None`` (an arena run): every level in one seat
    moves."""
    seen = Counter(e for team in teams for e in team)
    for _ in range(RETRIES):
        if store.done(source, match):
            return False
        flat = [e for team in teams for e in team]
        raw = dict(zip(flat, store.read(variant, flat), strict=True))
        current = [[Rating.stored(raw[e]) for e in team] for team in teams]
        new = rate(model, current, ranks)
        changes = [(e, raw[e], r)
                   for side, (team, old, rated) in enumerate(zip(teams, current, new,
                                                                  strict=True))
                   for e, was, r in zip(team, old, rated, strict=True)
                   if (e[0] != "computer" and moves.allows(side, was, r) if moves is not None
                       else e[0] != "computer" or seen[e] == 1)]
        try:
            return store.commit(variant, source, match, ttl, changes)
        except RatingChanged:
            continue
    raise RatingBusy(f"{source} {match}")


def rating_doc(rating: Rating) -> dict[str, Any]:
    """A rating as the API shows it."""
    return {"display": rating.display, "mu": round(rating.mu, 3),
            "sigma": round(rating.sigma, 3), "ordinal": round(rating.ordinal, 3),
            "matches": rating.matches, "provisional": rating.provisional}


def entity_of_seat(meta_seat: Mapping[str, Any], player_id: str | None,
                   kinds: dict[str, str]) -> Entity:
    """The rated entity of a game's seat: its player, else its computer level."""
    if player_id is not None:
        return kinds.get(player_id, "human"), player_id
    return "computer", str(meta_seat["level"])


def listing(store: RatingStore, variant: str, kind: str, offset: int, limit: int,
            names: Callable[[list[str]], dict[str, str]]) -> list[dict[str, Any]]:
    """A page of a ratings table, each with its place and name (``names`` of the page's
    players; a computer level is named ``Computer (<level>)``)."""
    page = store.page(variant, kind, offset, limit)
    if kind == "computer":
        named = {i: f"Computer ({i})" for i, _ in page}
    else:
        named = names([i for i, _ in page])
    out = []
    for i, (ident, rating) in enumerate(page):
        row = {"place": offset + i + 1, "kind": kind, "id": ident,
               "name": named.get(ident, ident), **rating_doc(rating)}
        out.append(row)
    return out


def rate_seats(store: RatingStore, tables: Sequence[dict[str, Any]]) -> None:
    """Add to each player and computer seat of the lobby's table documents its display
    rating for the table's variant (``None`` if never rated)."""
    for table in tables:
        seats = [s for s in table["seats"] if s["kind"] in ("player", "computer")]
        entities: list[Entity] = [
            ("bot" if s["bot"] else "human", s["player_id"]) if s["kind"] == "player"
            else ("computer", s["level"]) for s in seats]
        for seat, raw in zip(seats, store.read(table["variant"], entities), strict=True):
            seat["rating"] = None if raw is None else Rating.decode(raw).display


def rank_sides(places: dict[int, int], sides: int) -> list[int]:
    """The finishing rank of every side: its place, or last for a side without one (a
    resigner's)."""
    last = len(places) + 1
    return [places.get(side, last) for side in range(sides)]
