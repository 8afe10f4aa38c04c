"""Knowledge derived from a seat's view: known cards, voids, the closed talon, the snapshot."""

from __future__ import annotations

import random

import pytest

from engine import Action, GameState, Rules, apply, new_game, view
from engine.ai.knowledge import InvalidView, Knowledge, excluded_by_play
from engine.cards import SUIT_MASKS, mask_of, parse_card, parse_cards
from tests.engine.ai.helpers import random_action_states
from tests.engine.helpers import two_hand_deck


def _mask(*codes: str) -> int:
    return mask_of(parse_cards(codes))


def _act(state: GameState, seat: int, text: str) -> None:
    apply(state, seat, Action.from_text(text))


def test_excluded_by_play_follows_the_strict_duty() -> None:
    h = 2  # hearts trump
    # Followed the led suit with a lower card: holds nothing that beats the led card.
    assert excluded_by_play(parse_cards(["KC"]), parse_card("9C"), h) == _mask("AC", "TC")
    # Followed suit with a winner: nothing learned.
    assert excluded_by_play(parse_cards(["KC"]), parse_card("AC"), h) == 0
    # Trumped: void in clubs.
    assert excluded_by_play(parse_cards(["KC"]), parse_card("9H"), h) == SUIT_MASKS[0]
    # Discarded a side card: void in clubs and in trumps.
    assert excluded_by_play(parse_cards(["KC"]), parse_card("AS"), h) == (
        SUIT_MASKS[0] | SUIT_MASKS[h])
    # Four-hand: under-trumped a trump already played: holds no higher trump either.
    assert excluded_by_play(parse_cards(["KC", "QH"]), parse_card("9H"), h) == (
        SUIT_MASKS[0] | _mask("AH", "TH", "KH"))


def test_meld_exchange_close_and_voids_are_remembered() -> None:
    # Forehand (seat 1) holds KH QH and the trump nine 9D; trump card AD.
    deck = two_hand_deck(["KH", "QH", "9D", "AC", "TC", "KC"],
                         ["AS", "TS", "KS", "QS", "JS", "9H"], "AD", ["JC", "9S"])
    state, _ = new_game(Rules(), first_dealer=0, decks=[deck])
    _act(state, 1, "exchange")
    _act(state, 1, "meld:H")
    _act(state, 1, "play:QH")
    k0 = Knowledge.from_view(view(state, 0))
    assert k0.known[1] == _mask("KH", "AD")
    assert k0.talon_bottom == parse_card("9D")
    _act(state, 0, "play:9H")  # forehand wins (meld credited) and draws JC; seat 0 draws 9S
    k1 = Knowledge.from_view(view(state, 1))
    assert k1.closed_snapshot is None
    _act(state, 1, "close")
    _act(state, 1, "play:AC")
    _act(state, 0, "play:AS")  # no club, no trump: void in clubs and diamonds
    k1 = Knowledge.from_view(view(state, 1))
    assert k1.talon_bottom == parse_card("9D"), "the card under a closed talon is remembered"
    assert k1.voids(0) == 0b1001
    assert k1.closed_snapshot == state.closed_snapshot == (0, 0)
    assert k1.unseen & k1.known[0] == 0
    k0 = Knowledge.from_view(view(state, 0))
    assert k0.closed_snapshot == (0, 0)
    assert k0.known[1] == _mask("KH", "AD")


@pytest.mark.parametrize(("variant", "options"), [
    *((name, {}) for name in ("sixty-six", "schnapsen", "three-hand", "four-hand")),
    *((name, {"deck": 32}) for name in ("sixty-six", "three-hand", "four-hand")),
    ("sixty-six", {"deck": 32, "ten_rank": "low"}),
])
def test_knowledge_is_true_of_the_hidden_cards(variant: str, options: dict[str, object]) -> None:
    rng = random.Random(7)
    checked = 0
    for state in random_action_states(variant, rng, 25, close_chance=0.3, options=options):
        seat = state.to_act()
        assert seat is not None
        k = Knowledge.from_view(view(state, seat))
        for other in k.others:
            assert state.hands[other] & k.known[other] == k.known[other]
            assert state.hands[other] & k.excluded[other] == 0
            assert state.hands[other] & ~k.known[other] & ~k.unseen == 0
        assert k.closed_snapshot == state.closed_snapshot
        if state.talon:
            assert k.talon_bottom == state.talon[0]
        assert k.talon_size == len(state.talon)
        checked += 1
    assert checked > 100


def test_a_spectator_view_is_refused() -> None:
    state, _ = new_game(Rules(), first_dealer=0, rng=random.Random(1))
    with pytest.raises(InvalidView):
        Knowledge.from_view(view(state, None))
