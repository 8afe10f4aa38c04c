"""Property tests: random games of every variant played through ``legal_actions`` / ``apply``.

Each example draws a seed; the seed fixes the options, settings, decks and every choice
(``random.Random``), so thousands of hands run quickly and any failure replays exactly.

What a seat may have seen is computed here, independently of the engine's views, from the
events it received: its own dealt and drawn cards, cards played, melded cards, exchanged cards
and the face-up trump card.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    HAND_OVER,
    MATCH_OVER,
    PLAYING,
    Action,
    Event,
    GameState,
    IllegalAction,
    Rules,
    Settings,
    apply,
    from_json,
    is_legal,
    legal_actions,
    new_game,
    to_json,
    view,
)
from engine.cards import POINTS, codes, mask_of, points_of
from engine.rules import CONFLICTS, OPTIONS, VARIANTS
from engine.state import FIELDS
from tests.engine.helpers import UNIVERSE

CODE = re.compile(r"^[ATKQJ987][CSHD]$")
#: (variant, deck) of each case: every variant with its own pack, and the 32-card ones.
CASES = [*((name, 24) for name in VARIANTS),
         *((name, 32) for name, v in VARIANTS.items() if 32 in v.decks)]
#: Events whose cards are not about the hand's hidden cards: the cut for the first dealer
#: (cards drawn by lot) and the settlement, which may reveal the whole hand record.
UNCHECKED_EVENTS = ("dealer_chosen", "hand_settled")


#: Options chosen only with the 32-card pack.
DECK_32_ONLY = ("deck", "ten_rank", "four_hand_scoring", "trump_ten_point")


def random_rules(variant: str, deck: int, rng: random.Random) -> Rules:
    """Random options for ``variant`` with the pack of ``deck`` cards (``ten_rank`` random
    with 32 cards; in four-hand ``four_hand_scoring`` too, hoyle half the time, with
    ``trump_ten_point`` random and the options it refuses at their defaults)."""
    options: dict[str, object] = {}
    for name, opt in OPTIONS.items():
        if name in DECK_32_ONLY:
            continue
        if not opt.variants or variant in opt.variants:
            options[name] = rng.choice(opt.allowed)
    if deck == 32:
        options["deck"] = 32
        options["ten_rank"] = rng.choice(("high", "low"))
        if variant == "four-hand" and rng.random() < 0.5:
            options["four_hand_scoring"] = "hoyle"
            options["trump_ten_point"] = rng.choice((False, True))
            for name, value, other, _ in CONFLICTS:
                if name == "four_hand_scoring" and value == "hoyle":
                    options.pop(other, None)
    options["match_points"] = rng.choice((3, 3, 7))
    if options.get("closing") is False:
        del options["close_min_talon"]  # no effect without closing: refused if not default
    return Rules.make(variant, options)


def card_codes_in(obj: Any) -> Iterator[str]:
    """Every card code anywhere in a JSON-like value."""
    if isinstance(obj, str):
        if CODE.match(obj):
            yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from card_codes_in(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            yield from card_codes_in(value)


class Observer:
    """What each seat (and a spectator, key ``None``) has seen in the current hand."""

    def __init__(self, players: int) -> None:
        self.viewers: list[int | None] = [*range(players), None]
        self.seen: dict[int | None, set[str]] = {v: set() for v in self.viewers}

    def receive(self, event: Event) -> None:
        public = self.seen[None]
        for viewer in self.viewers:
            out = event.for_seat(viewer)
            seen = self.seen[viewer]
            kind = out["type"]
            if kind == "hand_dealt":
                seen.clear()
                seen.add(out["trump_card"])
            elif kind == "cards_dealt":
                assert ("cards" in out) == (viewer == out["seat"])
                seen.update(out.get("cards", ()))
            elif kind == "card_drawn":
                drawn = out["card"]
                if viewer != out["seat"]:
                    assert drawn is None or drawn in public
                if drawn is not None:
                    seen.add(drawn)
            elif kind == "card_played":
                seen.add(out["card"])
            elif kind == "meld":
                seen.update(out["cards"])
            elif kind == "exchange":
                seen.update((out["took"], out["gave"]))
            if kind not in UNCHECKED_EVENTS:
                unseen = set(card_codes_in(out)) - seen
                assert not unseen, (viewer, out, unseen)

    def check_views(self, state: GameState) -> None:
        talon = set(codes(mask_of(state.talon)))
        for viewer in self.viewers:
            v = view(state, viewer)
            v.pop("settlement")
            hidden = set(talon)
            for seat in range(state.players):
                if seat != viewer:
                    hidden.update(codes(state.hands[seat]))
            leaked = (set(card_codes_in(v)) & hidden) - self.seen[viewer]
            assert not leaked, (viewer, leaked)
            if viewer is None:
                assert v["hand"] is None and v["legal_actions"] == []
            else:
                assert v["hand"] == codes(state.hands[viewer])
                assert v["legal_actions"] == [a.as_dict() for a in legal_actions(state, viewer)]
            assert ("points" in v) == state.settings.point_counter
            assert ("can_declare_66" in v) == (
                state.settings.hint_66 and viewer is not None and state.status == PLAYING)


def check_cards(state: GameState) -> None:
    """The deck is partitioned by hands, talon, trick and taken cards; 120 points in all."""
    variant = state.rules.variant
    parts = [*state.hands, mask_of(state.talon), mask_of(state.trick), *state.taken]
    union = 0
    for part in parts:
        assert union & part == 0, "a card is in two places"
        union |= part
    assert union == variant.deck_mask, "a card is lost or foreign"
    assert len(state.talon) + len(state.trick) == (mask_of(state.talon) | mask_of(state.trick)
                                                   ).bit_count()
    in_play = sum(points_of(h) for h in state.hands) + sum(POINTS[c] for c in state.talon)
    in_play += sum(POINTS[c] for c in state.trick)
    assert in_play + sum(points_of(t) for t in state.taken) == 120
    for side in range(variant.sides):
        assert state.won_points[side] == points_of(state.taken[side])


def check_sizes(state: GameState) -> None:
    """Hand and talon sizes follow from the tricks played, the closing and the variant."""
    variant = state.rules.variant
    deck_size = len(variant.deck)
    talon0 = deck_size - 2 * variant.hand_size if variant.has_talon else 0
    tricks = len(state.tricks)
    for seat in range(state.players):
        if seat not in state.active:
            assert state.hands[seat] == 0
    if state.closed_by is None:
        assert len(state.talon) == max(0, talon0 - 2 * tricks)
        drawn_tricks = min(tricks, talon0 // 2)
    else:
        assert state.closed_at is not None
        assert len(state.talon) == talon0 - 2 * state.closed_at
        drawn_tricks = state.closed_at
    expected = variant.hand_size - (tricks - drawn_tricks)
    if state.status != PLAYING:
        return
    played = {state.active[(state.active.index(state.leader) + i) % len(state.active)]
              for i in range(len(state.trick))}
    for seat in state.active:
        assert state.hands[seat].bit_count() + (seat in played) == expected


def check_legality(state: GameState, rng: random.Random) -> None:
    """``legal_actions`` is exactly what ``apply`` accepts, for every seat."""
    to_act = state.to_act()
    before = to_json(state)
    for seat in range(state.players):
        legal = legal_actions(state, seat)
        assert len(set(legal)) == len(legal)
        for action in UNIVERSE:
            assert is_legal(state, seat, action) == (action in legal)
        if state.status == PLAYING:
            assert bool(legal) == (seat == to_act)
        elif state.status == HAND_OVER:
            assert legal == ([] if state.acks >> seat & 1 else [Action.from_text("continue")])
        else:
            assert legal == []
        for action in legal:
            apply(state.copy(), seat, action, rng=random.Random(0))
        for action in rng.sample(UNIVERSE, 4):
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as err:
                apply(state, seat, action)
            assert err.value.reason and isinstance(err.value.reason, str)
            assert err.value.legal == legal
    assert to_json(state) == before, "an applied copy or a refused action changed the state"


def check_round_trip(state: GameState) -> None:
    text = to_json(state)
    loaded = from_json(text)
    assert to_json(loaded) == text
    for name in FIELDS:
        assert getattr(loaded, name) == getattr(state, name), name


def choose(state: GameState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Mostly plays and honest declarations; now and then anything legal, false "66!" too."""
    declare = Action.from_text("declare")
    honest = declare in legal and state.credited_points(state.side_of(seat)) >= 66
    if honest and rng.random() < 0.9:
        return declare
    others = [a for a in legal if a != declare]
    if not others or rng.random() < 0.03:
        return rng.choice(legal)
    return rng.choice(others)


def play_game(variant: str, seed: int, hands: int, full: bool, deck: int = 24) -> int:
    """Play ``hands`` hands of random games (a new game when one ends), checking every step.

    Returns the number of hands played to their settlement.
    """
    rng = random.Random(seed)
    played = 0
    while played < hands:
        played += play_one_game(variant, deck, rng, hands - played, full)
    return played


def play_one_game(variant: str, deck: int, rng: random.Random, hands: int, full: bool) -> int:
    """Play one random game for at most ``hands`` hands; returns the hands settled."""
    rules = random_rules(variant, deck, rng)
    table = Settings(point_counter=rng.random() < 0.5, hint_66=rng.random() < 0.5)
    state, events = new_game(rules, table, first_dealer=rng.randrange(rules.variant.players),
                             rng=rng)
    observer = Observer(state.players)
    settled = 0
    while True:
        for event in events:
            observer.receive(event)
            settled += event.type == "hand_settled"
        check_cards(state)
        check_sizes(state)
        if full:
            check_legality(state, rng)
            check_round_trip(state)
            observer.check_views(state)
        if state.status == MATCH_OVER or (state.status == HAND_OVER and settled == hands):
            return settled
        if state.status == HAND_OVER:
            events = []
            for seat in rng.sample(range(state.players), state.players):
                events += apply(state, seat, Action.from_text("continue"), rng=rng)
            continue
        seat = state.to_act()
        assert seat is not None
        legal = legal_actions(state, seat)
        assert legal, "the seat to act has no legal action"
        events = apply(state, seat, choose(state, seat, legal, rng), rng=rng)


@pytest.mark.parametrize(("variant", "deck"), CASES)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_random_games_full_checks(variant: str, deck: int, seed: int) -> None:
    """Every step: cards, sizes, exact legality, refusals, serialization, views and events."""
    assert play_game(variant, seed, hands=6, full=True, deck=deck) == 6


@pytest.mark.parametrize(("variant", "deck"), CASES)
@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_random_games_conserve_cards(variant: str, deck: int, seed: int) -> None:
    """Thousands of hands per variant: cards and points conserved, sizes right, play never stuck."""
    assert play_game(variant, seed, hands=40, full=False, deck=deck) == 40


def test_observer_catches_a_card_shown_to_the_wrong_seat() -> None:
    """The leak check can fail: a drawn hidden card shown to the other seat is caught."""
    observer = Observer(2)
    observer.receive(Event("hand_dealt", {"trump_card": "JC"}))
    observer.receive(Event("card_drawn", {"seat": 0, "card": None}, 0, {"card": "AH"}))
    assert "AH" in observer.seen[0] and "AH" not in observer.seen[1]
    with pytest.raises(AssertionError):
        observer.receive(Event("card_drawn", {"seat": 0, "card": "AH"}))
