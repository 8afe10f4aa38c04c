"""Tausendeins discards are face down (docs/rules.md §14): the defender's view is the same
whichever two cards the declarer laid away, and the computer reads a shown musik card the
declarer has not played as kept or discarded, its sampled deals giving the same view and
placing such a card in either place in proportion to the deals that fit."""

from __future__ import annotations

import json
import random
from math import comb

from engine.cards import codes, mask_of, parse_card
from engine.tausendeins import T1001Rules, apply, legal_actions, new_game, view
from engine.tausendeins.ai import knowledge
from engine.tausendeins.state import PLAYING, T1001State
from tests.engine.tausendeins.helpers import D, F, act, deck, game

KC, QH = parse_card("KC"), parse_card("QH")


def _after_discard(discards: str) -> T1001State:
    """Seat 0 declares, takes musik 2 (KC QH, shown) and discards ``discards``."""
    state = game({"contract_deal": "musik"},
                 deck(["TC", "9S"], [], ["AH", "TH", "KC", "QH"], kind="musik"))
    act(state, D, "pass")
    act(state, F, "take_musik:2")
    act(state, F, f"discard:{discards}")
    return state


def test_the_defender_cannot_tell_which_cards_were_laid_away() -> None:
    seen = view(_after_discard("KC,TC"), D)
    assert seen["known_cards"] == {"0": ["KC", "QH"]}
    assert view(_after_discard("TC,9S"), D) == seen
    assert view(_after_discard("KC,QH"), None) == view(_after_discard("TC,9S"), None)


def test_a_shown_card_is_sampled_kept_or_laid_away_as_often_as_deals_fit() -> None:
    seen = view(_after_discard("KC,TC"), D)
    k = knowledge(seen)
    rng = random.Random(1)
    draws, kept = 3000, 0
    for _ in range(draws):
        sample = k.sample(rng)
        assert view(sample, D) == seen
        for card in (KC, QH):
            assert (sample.hands[F] >> card & 1) + (sample.discards >> card & 1) == 1
        kept += sample.hands[F] >> KC & 1
    # The 12 unseen cards fill the declarer's hand, the untaken musik (2) and the discards;
    # deals by how many of the two shown cards were laid away (0, 1 of 2 ways, or 2):
    deals = [comb(12, 8) * comb(4, 2), 2 * comb(12, 9) * comb(3, 2), comb(12, 10)]
    expected = (deals[0] + deals[1] / 2) / sum(deals)  # 5/6; a uniform hand alone: 10/14
    assert abs(kept / draws - expected) < 0.03, (kept / draws, expected)


def test_no_unshown_discard_ever_shows_in_another_view() -> None:
    """Random musik deals played out: the defender's and a spectator's views never name a
    discarded card that was not shown, and name every shown one until it is played."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state, _ = new_game(T1001Rules.make({"contract_deal": "musik"}), first_dealer=seed % 2,
                            rng=rng)
        while state.status == PLAYING:
            if state.discards and state.declarer is not None and state.musik_taken:
                musik = mask_of(state.musiks[state.musik_taken - 1])  # shown when taken
                shown = set(codes(state.discards & musik))
                hidden = set(codes(state.discards & ~musik))
                played = {c for t in view(state, None)["tricks"] for c in t["cards"]}
                for seat in (1 - state.declarer, None):
                    seen = view(state, seat)
                    text = json.dumps(seen)
                    assert not any(f'"{c}"' in text for c in hidden), (seed, hidden)
                    known = set(seen["known_cards"].get(str(state.declarer), []))
                    assert shown - played <= known
                checked += 1
            seat = state.to_act()
            assert seat is not None
            apply(state, seat, rng.choice(legal_actions(state, seat)), rng)
    assert checked > 200
