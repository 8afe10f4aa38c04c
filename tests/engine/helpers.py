"""Helpers for engine tests: decks built from the hands wanted, scripted play.

Deal order (engine/deal.py): two-hand packets forehand, dealer, forehand, dealer (3+3, Schnapsen
3+2), then the face-up trump card, then the talon top first. Three-hand: the same between the two
active players. Four-hand: 3+3 to each seat starting left of the dealer; the deck's last card
(the dealer's last) fixes trump.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from engine import (
    PLAYING,
    Action,
    Event,
    GameState,
    Rules,
    Settings,
    apply,
    legal_actions,
    new_game,
)
from engine.cards import CARD_CODES, CARDS
from engine.rules import VARIANTS

#: Every action there is: 32 plays (the 8s and 7s included), 4 melds, exchange, close,
#: declare, continue.
UNIVERSE: tuple[Action, ...] = (
    *(Action.play(c) for c in range(CARDS)),
    *(Action.meld(s) for s in range(4)),
    *(Action.from_text(k) for k in ("exchange", "close", "declare", "continue")),
)


def _rest(variant: str, used: Iterable[str], deck: int = 24) -> list[str]:
    taken = set(used)
    return [CARD_CODES[c] for c in VARIANTS[variant].with_deck(deck).deck
            if CARD_CODES[c] not in taken]


def two_hand_deck(
    forehand: Sequence[str],
    dealer: Sequence[str],
    trump: str,
    talon: Sequence[str] = (),
    variant: str = "sixty-six",
    deck_size: int = 24,
) -> list[str]:
    """A deal order giving these hands, face-up ``trump`` card and talon (top first), from
    the pack of option ``deck`` ``deck_size``.

    Cards not named fill the bottom of the talon in deck order.
    """
    packets = VARIANTS[variant].packets
    deck: list[str] = []
    i = 0
    for size in packets:
        deck += [*forehand[i : i + size], *dealer[i : i + size]]
        i += size
    deck += [trump, *talon]
    return deck + _rest(variant, deck, deck_size)


def four_hand_deck(hands: Mapping[int, Sequence[str]], dealer: int) -> list[str]:
    """A four-hand deal order giving each seat its six cards; the dealer's last card is trump."""
    order = [(dealer + i) % 4 for i in (1, 2, 3, 4)]
    deck = [c for half in (0, 3) for seat in order for c in hands[seat][half : half + 3]]
    assert len(deck) == 24
    return deck


def start(
    deck: Sequence[str],
    variant: str = "sixty-six",
    options: Mapping[str, object] | None = None,
    *,
    dealer: int = 0,
    settings: Settings | None = None,
    more: Sequence[Sequence[str]] = (),
) -> GameState:
    """A new game dealt from ``deck`` (then the decks of ``more``) with ``dealer`` dealing."""
    state, _ = new_game(
        Rules.make(variant, options), settings, first_dealer=dealer, decks=[deck, *more]
    )
    return state


def act(state: GameState, seat: int, text: str) -> list[Event]:
    """Apply ``seat``'s action written as text, e.g. ``act(s, 1, "play:QH")``."""
    return apply(state, seat, Action.from_text(text))


def run(state: GameState, script: str) -> list[Event]:
    """Apply ``seat action`` steps separated by ``;``, e.g. ``"1 meld:C; 1 play:KC"``."""
    events: list[Event] = []
    for step in script.split(";"):
        seat, text = step.split()
        events += act(state, int(seat), text)
    return events


def continue_all(state: GameState, rng: random.Random | None = None) -> list[Event]:
    """Every seat acknowledges the settlement (the next hand is dealt, shuffled by ``rng``)."""
    events: list[Event] = []
    for seat in range(state.players):
        events += apply(state, seat, Action.from_text("continue"), rng=rng)
    return events


def play_out(state: GameState) -> list[Event]:
    """Play the first legal card until the hand ends (no melds, no declarations)."""
    events: list[Event] = []
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        first = next(a for a in legal_actions(state, seat) if a.kind == "play")
        events += apply(state, seat, first)
    return events


def of_type(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]
