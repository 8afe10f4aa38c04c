"""The engine bench plays what it says: whole random hands (or Tausendeins deals), the same
games for the same seed."""

from __future__ import annotations

import pytest

from engine.bench import TAUSENDEINS, run


@pytest.mark.parametrize(("variant", "deck_size"), [("sixty-six", 24), ("sixty-six", 32),
                                                     ("four-hand", 32), (TAUSENDEINS, 24)])
def test_the_same_seed_plays_the_same_games(variant: str, deck_size: int) -> None:
    first, second = run(5, 7, variant=variant, deck_size=deck_size), run(5, 7, variant=variant,
                                                                         deck_size=deck_size)
    assert first[2] == second[2] > 5  # the same actions, more than one per hand
    assert first[0] > 0 and first[1] > 0


def test_a_tausendeins_deal_is_an_auction_and_twelve_tricks() -> None:
    """Under the defaults a deal has at least 24 card plays and the auction's calls."""
    _, _, actions = run(10, 3, variant=TAUSENDEINS)
    assert actions >= 10 * (24 + 1)
