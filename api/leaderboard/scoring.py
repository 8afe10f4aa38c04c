"""What a game's events award on the leaderboard and to ratings (docs/rules.md §9); pure, no I/O.

Rules, per player seat (computer seats never score):

* **A hand won** counts its 1–3 game points, and one hand won, for every seat of the winning
  side (in four-hand both partners), unless a seat of that side took a hint in the hand (meta
  ``hinted_hands``): advice helps the whole side, so the hand counts for none of it.
* **Placement** at the end of each match (``match_won``, or a resignation): 30 / 15 / 5 for
  first, second, third by match points, the match's winner first. Partners share their side's
  place; with two sides (two-hand, four-hand) only 30 and 15 are given. Sides level on points
  share the better place (standard competition ranking: a tie for second gives both 15 and
  nobody 5), as players at a table would agree. A side with a seat that took any hint in the
  match gets no placement bonus.
* **Leaving** (a resignation, or a forfeit after three expiries of the clock) gives the
  resigner's side no placement and costs the resigner 10 if another player account (human or
  bot) sits in the game; against computers only it costs nothing. The other sides are placed
  as above, if the match was played: a match left before :data:`MIN_SETTLED` of its hands
  were settled is **too short**: nobody is placed and nobody rated (the penalty stays), so
  resigning at once gives the other account nothing.
* **Abort** is "no result": no placement and no penalty; hands settled before it (possible in
  three-hand, where the dealer sits out) keep their points.

Ratings (:class:`Rated`): a match's award with places is rated by them, and says which sides'
ratings may move which way. A side that took advice may only lose (a win with advice is not
his; a loss is: so asking for a hint when losing voids nothing), and the others may only gain
against it (nobody loses to advice). A too-short match rates no side: the threshold that keeps
the winner's rating still keeps the leaver's (a rating measures play, and there was none; as
Lichess leaves too-short games unrated).

Each award carries a ``marker`` (``hand:<hand_no>``, ``match:<match_no>``) that the store
writes atomically with the increments, so an award is counted once however often a game's
events are offered.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from api.games.meta import GameMeta
from api.ratings.model import Rated
from engine import Event, GameState

#: Placement bonus of first, second and third place.
BONUS: Final = (30, 15, 5)
#: Points a player loses for leaving a match against other players.
LEAVE_PENALTY: Final = 10
#: Hands of a match that must be settled before a resignation places the other sides.
MIN_SETTLED: Final = 1


@dataclass(slots=True)
class Award:
    """Points per seat from one hand or one match end, under a once-only ``marker``."""

    marker: str
    points: dict[int, int] = field(default_factory=dict)
    hands_won: dict[int, int] = field(default_factory=dict)
    #: Sides in finishing order with shared places (matches only): side -> place (1 = first).
    places: dict[int, int] = field(default_factory=dict)
    #: How the match moves ratings (``None``: a hand, or a too-short match, rates nobody).
    rated: Rated | None = None


def places(score: Sequence[int], winner: int, excluded: Iterable[int] = ()) -> dict[int, int]:
    """Each side's place (1 = first): ``winner`` first, the others by ``score``, level sides
    sharing the better place; ``excluded`` sides (a resigner's) get none."""
    out = set(excluded)
    ranked = [s for s in range(len(score)) if s not in out]
    result = {}
    for side in ranked:
        if side == winner:
            result[side] = 1
            continue
        better = sum(1 for other in ranked if other != side and (
            other == winner or score[other] > score[side]))
        result[side] = better + 1
    return result


def placement_bonus(place: int) -> int:
    return BONUS[place - 1] if place <= len(BONUS) else 0


class _Hints:
    """The hinted hands and matches of a game's meta, per side."""

    def __init__(self, state: GameState, meta: GameMeta) -> None:
        marks = meta.get("hinted_hands", [])
        self.hands = {(state.side_of(m["seat"]), m["hand_no"]) for m in marks}
        self.matches = {(state.side_of(m["seat"]), m.get("match_no")) for m in marks}

    def hand(self, side: int, hand_no: int) -> bool:
        return (side, hand_no) in self.hands

    def match(self, side: int, match_no: int) -> bool:
        # a mark from before match numbers were kept counts for every match of the game
        return (side, match_no) in self.matches or (side, None) in self.matches


def awards(state: GameState, meta: GameMeta, events: Sequence[Event],
           hand_no_before: int, players: Sequence[str | None]) -> list[Award]:
    """The awards of ``events`` (a save's batch or the whole log, in order); ``hand_no_before``
    is the hand number before the first of them (0 for the whole log), ``players`` the player
    id of each seat (``None``: a computer)."""
    hints = _Hints(state, meta)
    seats = [s for s, p in enumerate(players) if p is not None]
    hand_no = hand_no_before
    # hands settled in the current match; a batch from mid-game is taken as played (a
    # resignation ends the game, and a game that is over is offered with its whole log)
    settled = MIN_SETTLED if hand_no_before else 0
    out: list[Award] = []
    for event in events:
        data = event.data
        if event.type == "hand_dealt":
            hand_no = data["hand_no"]
        elif event.type == "hand_settled":
            settled += 1
            settlement = data["settlement"]
            award = Award(f"hand:{hand_no}")
            winner = settlement["winner_side"]
            if winner is not None and not hints.hand(winner, hand_no):
                for seat in seats:
                    if state.side_of(seat) == winner:
                        award.hands_won[seat] = 1
                        award.points[seat] = settlement["game_points"]
            out.append(award)
        elif event.type == "match_won":
            out.append(_match_award(state, hints, seats, data["match_no"], data["score"],
                                    data["winner_side"], None, played=True))
            settled = 0
        elif event.type in ("resigned", "forfeited"):  # left the match: by hand or on time
            out.append(_match_award(state, hints, seats, state.match_no, state.score,
                                    data["winner_side"], data["seat"],
                                    played=settled >= MIN_SETTLED))
    return out


def _match_award(state: GameState, hints: _Hints, seats: Sequence[int], match_no: int,
                 score: Sequence[int], winner: int, resigner: int | None, *,
                 played: bool) -> Award:
    sides = range(state.rules.variant.sides)
    excluded = () if resigner is None else (state.side_of(resigner),)
    ranked = places(score, winner, excluded)
    hinted = frozenset(side for side in sides if hints.match(side, match_no))
    rated: Rated | None = None  # too short: no side is rated
    if played:
        rated = Rated(frozenset(sides) - hinted, hinted) if hinted else Rated(
            frozenset(sides), frozenset(sides))
    award = Award(f"match:{match_no}", places=ranked, rated=rated)
    for seat in seats:
        place = ranked.get(state.side_of(seat))
        if played and place is not None and state.side_of(seat) not in hinted:
            award.points[seat] = placement_bonus(place)
    if resigner is not None and resigner in seats and any(s != resigner for s in seats):
        award.points[resigner] = award.points.get(resigner, 0) - LEAVE_PENALTY
    return award
