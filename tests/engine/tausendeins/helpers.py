"""Stacked decks and scripted play for the Tausendeins tests (RULES-1001 §2 positions).

Seat 0 is forehand (F) and seat 1 the dealer (D) in every game made here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.cards import CARD_CODES
from engine.events import Event
from engine.tausendeins import (
    T1001Action,
    T1001Rules,
    T1001State,
    apply,
    legal_actions,
    new_game,
)

F, D = 0, 1
#: Deck positions (0-based) of forehand, dealer, then the rest, per deal.
POSITIONS = {
    "stock": ([0, 1, 2, 6, 7, 10, 11, 12], [3, 4, 5, 8, 9, 13, 14, 15],
              list(range(16, 24))),
    "all": ([p for k in range(0, 24, 6) for p in range(k, k + 3)],
            [p for k in range(3, 24, 6) for p in range(k, k + 3)], []),
    "musik": ([*range(0, 5), *range(10, 15)], [*range(5, 10), *range(15, 20)],
              list(range(20, 24))),
}


def deck(forehand: Sequence[str], dealer: Sequence[str], rest: Sequence[str] = (),
         kind: str = "stock") -> list[str]:
    """A deck dealing ``forehand`` and ``dealer`` (each filled up to its size from the unused
    cards) and then ``rest`` (the stock top first, or musik 1 then musik 2), filled up too."""
    f_at, d_at, rest_at = POSITIONS[kind]
    used = [*forehand, *dealer, *rest]
    assert len(set(used)) == len(used), used
    spare = [c for c in CARD_CODES[:24] if c not in used]
    out = [""] * 24
    for places, cards in ((f_at, forehand), (d_at, dealer), (rest_at, rest)):
        cards = [*cards, *(spare.pop(0) for _ in range(len(places) - len(cards)))]
        for p, c in zip(places, cards, strict=True):
            out[p] = c
    return out


def game(options: Mapping[str, object], cards: Sequence[str]) -> T1001State:
    """A game by ``options`` with ``cards`` as its first deck, seat 1 dealing."""
    state, _ = new_game(T1001Rules.make(options), first_dealer=D, decks=[cards])
    return state


def act(state: T1001State, seat: int, text: str) -> list[Event]:
    return apply(state, seat, T1001Action.from_text(text))


def script(state: T1001State, moves: Iterable[str]) -> list[Event]:
    """Apply ``seat:action`` moves in order; all their events."""
    events: list[Event] = []
    for move in moves:
        seat, _, text = move.partition(":")
        events += act(state, int(seat), text)
    return events


def legal_texts(state: T1001State, seat: int) -> set[str]:
    """The text form of ``seat``'s legal actions."""
    return {a.text() for a in legal_actions(state, seat)}


def plays(state: T1001State, seat: int) -> set[str]:
    """The cards ``seat`` may play now."""
    return {t.removeprefix("play:") for t in legal_texts(state, seat) if t.startswith("play:")}


def step(state: T1001State) -> list[Event]:
    """One more move of the deal: the first legal action of the seat to act."""
    seat = state.to_act()
    assert seat is not None
    return apply(state, seat, legal_actions(state, seat)[0])


def play_out(state: T1001State) -> list[Event]:
    """Finish the deal with each seat's first legal action."""
    events: list[Event] = []
    while state.status == "playing":
        seat = state.to_act()
        assert seat is not None
        events += apply(state, seat, legal_actions(state, seat)[0])
    return events
