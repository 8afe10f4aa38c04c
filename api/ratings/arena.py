"""Computer levels' ratings from arena runs (``sixtysix arena --rate``).

An arena's hands (``api.arena``) are grouped into matches as the arena counts them: a match is
won when a bot's running total of game points reaches the rules' ``match_points`` (both totals
then restart; hands after the last complete match are not rated). Each match is rated as a
one-against-one match of the two levels (in four-hand a level holds both seats of its pair,
and is one entity). The run is the marker's source (``arena:<variant>:<a>:<b>:<seed>:<hands>``,
never expiring), so running the same arena again rates nothing twice.
"""

from __future__ import annotations

from typing import Final

from api.arena import ArenaError, ArenaResult
from api.games.computers import COMPUTER_LEVELS
from api.ratings.model import Rating
from api.ratings.service import rate_match
from api.ratings.store import RatingStore
from engine.ai import RETIRED

COMPUTER: Final = "computer"


def arena_matches(result: ArenaResult) -> list[int]:
    """The winner (0 = a, 1 = b) of each complete match of an arena run, in deal order.

    Each arena hand is won by one bot at most, so its points are the change of the running
    difference ``a − b``.
    """
    winners = []
    score = [0, 0]
    previous = 0
    for difference in result.cumulative_difference:
        step = difference - previous
        previous = difference
        score[0] += max(step, 0)
        score[1] += max(-step, 0)
        if max(score) >= result.match_points:
            winners.append(0 if score[0] >= result.match_points else 1)
            score = [0, 0]
    return winners


def check_rateable(a: str, b: str) -> None:
    """:class:`ArenaError` unless ``a`` and ``b`` are two different plain computer levels:
    those offered, or one no longer offered (:data:`engine.ai.RETIRED`), whose rating the
    games stored with it still move."""
    rateable = [*COMPUTER_LEVELS, *RETIRED]
    for level in (a, b):
        if level not in rateable:
            raise ArenaError(f"--rate rates the computer levels ({', '.join(rateable)}); "
                             f"{level!r} is not one")
    if a == b:
        raise ArenaError("--rate needs two different levels")


def arena_source(variant: str, a: str, b: str, seed: int, hands: int) -> str:
    """The rating marker's source of an arena run (its matches are ``match:1``...)."""
    return f"arena:{variant}:{a}:{b}:{seed}:{hands}"


def rate_arena(store: RatingStore, result: ArenaResult) -> tuple[int, dict[str, Rating]]:
    """Rate the levels from a run's matches; (matches newly rated, the levels' ratings)."""
    a, b = result.bots[0].level, result.bots[1].level
    check_rateable(a, b)
    source = arena_source(result.variant, a, b, result.seed, result.hands)
    teams = [[(COMPUTER, a)], [(COMPUTER, b)]]
    rated = 0
    for i, winner in enumerate(arena_matches(result)):
        ranks = [1, 2] if winner == 0 else [2, 1]
        rated += rate_match(store, result.variant, source, f"match:{i + 1}", 0, teams, ranks)
    ratings = store.get(result.variant, [(COMPUTER, a), (COMPUTER, b)])
    return rated, {a: ratings[0], b: ratings[1]}
