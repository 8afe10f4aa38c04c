"""What a game's events award on the leaderboard (RULES.md §9); pure, no I/O.

Rules, per player seat (computer seats never score):

* **A hand won** counts its 1–3 game points for every seat of the winning side (in four-hand
  both partners), unless that seat took a hint in the hand (meta ``hinted_hands``).
* **Placement** at the end of each match (``match_won``, or a resignation): 30 / 15 / 5 for
  first, second, third by match points, the match's winner first. Partners share their side's
  place; with two sides (two-hand, four-hand) only 30 and 15 are given. Sides level on points
  share the better place (standard competition ranking: a tie for second gives both 15 and
  nobody 5), as players at a table would agree. A seat that took any hint in the match gets no
  placement bonus.
* **Leaving** (a resignation, or a forfeit after three expiries of the clock) gives the
  resigner's side no placement and costs the resigner 10 if another player account (human or
  bot) sits in the game; against computers only it costs nothing. The other sides are placed
  as above.
* **Abort** is "no result": no placement and no penalty; hands settled before it (possible in
  three-hand, where the dealer sits out) keep their points.

Each award carries a ``marker`` (``hand:<hand_no>``, ``match:<match_no>``) that the store
writes atomically with the increments, so an award is counted once however often a game's
events are offered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine import Event, GameState

#: Placement bonus of first, second and third place.
BONUS: Final = (30, 15, 5)
#: Points a player loses for leaving a match against other players.
LEAVE_PENALTY: Final = 10


@dataclass(slots=True)
class Award:
    """Points per seat from one hand or one match end, under a once-only ``marker``."""

    marker: str
    points: dict[int, int] = field(default_factory=dict)
    hands_won: dict[int, int] = field(default_factory=dict)
    #: Sides in finishing order with shared places (matches only): side -> place (1 = first).
    places: dict[int, int] = field(default_factory=dict)


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
    """The hinted hands and matches of a game's meta, per seat."""

    def __init__(self, meta: Mapping[str, Any]) -> None:
        marks = meta.get("hinted_hands", [])
        self.hands = {(m["seat"], m["hand_no"]) for m in marks}
        self.matches = {(m["seat"], m.get("match_no")) for m in marks}

    def hand(self, seat: int, hand_no: int) -> bool:
        return (seat, hand_no) in self.hands

    def match(self, seat: int, match_no: int) -> bool:
        # a mark from before match numbers were kept counts for every match of the game
        return (seat, match_no) in self.matches or (seat, None) in self.matches


def awards(state: GameState, meta: Mapping[str, Any], events: Sequence[Event],
           hand_no_before: int, players: Sequence[str | None]) -> list[Award]:
    """The awards of ``events`` (a save's batch or the whole log, in order); ``hand_no_before``
    is the hand number before the first of them (0 for the whole log), ``players`` the player
    id of each seat (``None``: a computer)."""
    hints = _Hints(meta)
    seats = [s for s, p in enumerate(players) if p is not None]
    hand_no = hand_no_before
    out: list[Award] = []
    for event in events:
        data = event.data
        if event.type == "hand_dealt":
            hand_no = data["hand_no"]
        elif event.type == "hand_settled":
            settlement = data["settlement"]
            award = Award(f"hand:{hand_no}")
            winner = settlement["winner_side"]
            if winner is not None:
                for seat in seats:
                    if state.side_of(seat) == winner:
                        award.hands_won[seat] = 1
                        if not hints.hand(seat, hand_no):
                            award.points[seat] = settlement["game_points"]
            out.append(award)
        elif event.type == "match_won":
            out.append(_match_award(state, hints, seats, data["match_no"], data["score"],
                                    data["winner_side"], None))
        elif event.type in ("resigned", "forfeited"):  # left the match: by hand or on time
            out.append(_match_award(state, hints, seats, state.match_no, state.score,
                                    data["winner_side"], data["seat"]))
    return out


def _match_award(state: GameState, hints: _Hints, seats: Sequence[int], match_no: int,
                 score: Sequence[int], winner: int, resigner: int | None) -> Award:
    excluded = () if resigner is None else (state.side_of(resigner),)
    award = Award(f"match:{match_no}", places=places(score, winner, excluded))
    for seat in seats:
        place = award.places.get(state.side_of(seat))
        if place is not None and not hints.match(seat, match_no):
            award.points[seat] = placement_bonus(place)
    if resigner is not None and resigner in seats and any(s != resigner for s in seats):
        award.points[resigner] = award.points.get(resigner, 0) - LEAVE_PENALTY
    return award
