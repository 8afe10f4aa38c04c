"""A toy game defined only here and registered by the tests, to prove a game is a plug-in:
``toy``, two players, the six cards A K Q of hearts and spades, three each, three tricks.

The dealer's opponent leads; a player follows suit when he can; the higher card of the suit
led wins and leads next. One hand is the game: the side with more card points wins (a tie goes
to the dealer's opponent); option ``last_trick_bonus`` (0 or 10) adds to the last trick's
winner. Stored form ``{"var": "toy", ...}``; the record lists the deck, the dealer and the
played cards, and its replay plays them again."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.cards import POINTS, card_code, parse_card
from engine.errors import IllegalAction, InvalidAction, InvalidOption, InvalidState
from engine.events import Event
from engine.plugin import Capabilities, Census, Outcome, check_members
from engine.rules import Option

NAME: Final = "toy"
DECK: Final = ("AH", "KH", "QH", "AS", "KS", "QS")
_ORDER: Final = {c: i for i, c in enumerate(DECK)}  # lower index: higher in its suit
OPTIONS: Final = (Option("last_trick_bonus", int, 0, (0, 10),
                         "Points for the last trick.", "toy"),)


@dataclass(frozen=True, slots=True)
class ToyAction:
    card: str

    def as_dict(self) -> dict[str, str]:
        return {"type": "play", "card": self.card}


@dataclass(slots=True)
class ToyState:
    bonus: int
    dealer: int
    deck: list[str]
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    trick: list[str] = field(default_factory=list)
    leader: int = 0
    taken: list[list[str]] = field(default_factory=lambda: [[], []])
    points: list[int] = field(default_factory=lambda: [0, 0])


def _deal(bonus: int, dealer: int, deck: Sequence[str]) -> ToyState:
    if sorted(deck) != sorted(DECK):
        raise InvalidOption("deck", f"a {NAME} deck is {' '.join(DECK)} in any order", [])
    state = ToyState(bonus, dealer, list(deck))
    state.hands = [sorted(deck[0::2], key=_ORDER.__getitem__),
                    sorted(deck[1::2], key=_ORDER.__getitem__)]
    state.leader = 1 - dealer
    return state


def _to_act(state: ToyState) -> int | None:
    if not any(state.hands):
        return None
    return state.leader if not state.trick else 1 - state.leader


def _playable(state: ToyState, seat: int) -> list[str]:
    if _to_act(state) != seat:
        return []
    hand = state.hands[seat]
    if state.trick:
        suited = [c for c in hand if c[1] == state.trick[0][1]]
        return suited or hand
    return hand


class Toy:
    """The toy game as a :class:`~engine.registry.Game` (``name``: its one variant's)."""

    capabilities: Final = Capabilities(
        rated=False, unrated="a toy", settings=(), clock=False, text_record=False,
        light_66=False, matches=False, hand_word=("hand", "hands"))

    def __init__(self, name: str = NAME) -> None:
        self.name = name

    def variants(self) -> Sequence[str]:
        return (self.name,)

    def players(self, variant: str) -> int:
        return 2

    def options(self, variant: str) -> Sequence[Option]:
        return OPTIONS

    def describe(self, variant: str) -> dict[str, object]:
        return {"name": NAME, "players": 2, "description": "a toy: six cards, three tricks"}

    def random_play_options(self, variant: str) -> Mapping[str, object]:
        return {}

    def make_rules(self, variant: str, options: Mapping[str, object] | None = None
                   ) -> dict[str, object]:
        values = dict(options or {})
        for name in values:
            if name != "last_trick_bonus":
                raise InvalidOption(name, f"unknown option {name!r}", ["last_trick_bonus"])
        return {"last_trick_bonus": OPTIONS[0].check(values.get("last_trick_bonus", 0))}

    def new_game(self, rules: Any, settings: Mapping[str, bool] | None = None, *,
                 first_dealer: object = None, decks: Sequence[Sequence[str]] | None = None,
                 rng: random.Random | None = None) -> tuple[ToyState, list[Event]]:
        r = rng or random.Random()
        deck = list(decks[0]) if decks else r.sample(DECK, len(DECK))
        dealer = first_dealer if first_dealer in (0, 1) else r.randrange(2)
        assert isinstance(dealer, int)
        state = _deal(int(rules["last_trick_bonus"]), dealer, deck)
        return state, [Event("hand_dealt", {"dealer": dealer}, None, {"deck": deck})]

    def owns(self, state: object) -> bool:
        return isinstance(state, ToyState)

    def variant_of(self, state: ToyState) -> str:
        return NAME

    def settings_of(self, state: ToyState) -> Mapping[str, bool]:
        return {}

    def hand_mark(self, state: ToyState) -> tuple[int, int]:
        return 1, 1

    def parse_action(self, body: Mapping[str, Any]) -> ToyAction:
        if body.get("type") != "play":
            raise InvalidAction(f"unknown action type {body.get('type')!r}", "type")
        check_members("play", body, {"play": "card"})
        return ToyAction(card_code(parse_card(body.get("card"))))

    def action_json(self, action: ToyAction) -> dict[str, Any]:
        return action.as_dict()

    def simple_action(self, kind: str) -> ToyAction:
        raise InvalidAction(f"{NAME} has no action {kind!r}", "type")

    def legal_actions(self, state: ToyState, seat: int) -> Sequence[ToyAction]:
        return [ToyAction(c) for c in _playable(state, seat)]

    def illegal_reason(self, state: ToyState, seat: int, action: ToyAction) -> str:
        if _to_act(state) != seat:
            return "it is not your turn"
        if action.card not in state.hands[seat]:
            return f"{action.card} is not in your hand"
        return f"follow suit: play one of {' '.join(_playable(state, seat))}"

    def apply(self, state: ToyState, seat: int, action: ToyAction) -> list[Event]:
        if action.card not in _playable(state, seat):
            raise IllegalAction(self.illegal_reason(state, seat, action),
                                self.legal_actions(state, seat))
        state.hands[seat].remove(action.card)
        state.trick.append(action.card)
        events = [Event("card_played", {"seat": seat, "card": action.card})]
        if len(state.trick) == 2:
            lead, follow = state.trick
            wins = follow[1] == lead[1] and _ORDER[follow] < _ORDER[lead]
            winner = seat if wins else 1 - seat
            state.taken[winner] += state.trick
            state.points[winner] += POINTS[parse_card(lead)] + POINTS[parse_card(follow)]
            state.trick, state.leader = [], winner
            events.append(Event("trick_won", {"seat": winner}))
        return events

    def may_abort(self, state: ToyState, seat: int, seats: Sequence[int]) -> bool:
        return False

    def over(self, state: ToyState) -> bool:
        return _to_act(state) is None

    def status(self, state: ToyState) -> str:
        return "match_over" if self.over(state) else "playing"

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {"variant": NAME, "seat": seat, "to_act": _to_act(state),
                "hand": None if seat is None else list(state.hands[seat]),
                "hand_sizes": [len(h) for h in state.hands], "trick": list(state.trick),
                "taken": [list(t) for t in state.taken], "points": list(state.points)}

    def hidden(self, state: ToyState, seat: int | None) -> frozenset[str]:
        return frozenset(c for s in (0, 1) if s != seat for c in state.hands[s])

    def census(self, state: ToyState) -> Census:
        places = {"hand 0": state.hands[0], "hand 1": state.hands[1], "trick": state.trick,
                  "taken 0": state.taken[0], "taken 1": state.taken[1]}
        return Census(deck=DECK, locations=places, counted=tuple(state.points),
                      taken=tuple(sum(POINTS[parse_card(c)] for c in t) for t in state.taken))

    def outcome(self, state: ToyState) -> Outcome | None:
        if not self.over(state):
            return None
        final = list(state.points)
        final[state.leader] += state.bonus  # the last trick's winner leads next
        first = 1 - state.dealer
        winner = first if final[first] >= final[1 - first] else 1 - first
        return Outcome(reason="points", winners=(winner,), points=tuple(final))

    def to_stored(self, state: ToyState) -> Any:
        return {"var": NAME, "bonus": state.bonus, "dealer": state.dealer, "deck": state.deck,
                "hands": state.hands, "trick": state.trick, "leader": state.leader,
                "taken": state.taken, "points": state.points}

    def owns_stored(self, data: Any) -> bool:
        return isinstance(data, dict) and data.get("var") == NAME

    def from_stored(self, data: Any) -> ToyState:
        try:
            return ToyState(data["bonus"], data["dealer"], list(data["deck"]),
                            [list(h) for h in data["hands"]], list(data["trick"]),
                            data["leader"], [list(t) for t in data["taken"]],
                            list(data["points"]))
        except (KeyError, TypeError) as exc:
            raise InvalidState(f"not a stored {NAME} game: {exc!r}") from None

    def build_record(self, state: ToyState, events: Sequence[Event], *, reveal: bool,
                     seat: int | None = None) -> dict[str, Any]:
        return {"variant": NAME, "rules": {"last_trick_bonus": state.bonus},
                "dealer": state.dealer, "deck": state.deck if reveal else None,
                "actions": [dict(e.data) for e in events if e.type == "card_played"]}

    def replay(self, record: Mapping[str, Any]) -> ToyState:
        state, _ = self.new_game(self.make_rules(NAME, record["rules"]),
                                 first_dealer=record["dealer"], decks=[record["deck"]])
        for entry in record["actions"]:
            self.apply(state, entry["seat"], ToyAction(entry["card"]))
        return state


#: The toy game, registered by the tests that use it.
TOY: Final = Toy()
